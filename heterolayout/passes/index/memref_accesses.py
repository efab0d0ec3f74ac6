"""Affine accesses as `memref` and `vector` accesses at computed indices.

For an access whose map upstream would fold wrongly (`misfold_guard`), and for one whose
operands are no longer valid affine dims (inside the `scf.for` `layout-schedule` keeps
rolled: `passes/schedule/rolled_loops.py`). The indices are `IndexEmitter`'s code for the
map's results, inserted just before the access; an `affine.apply` is replaced by that
code's value.
"""

from __future__ import annotations

from xdsl.dialects import affine, memref, vector
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.passes.index.index_code import IndexEmitter, IndexLeaves, IndexMode


def as_memref_access(op: Operation, operands: list[SSAValue], mode: IndexMode = "affine") -> None:
    """Rewrite `op` (an affine load, store, vector load or store, or apply), whose map
    operands are `operands`, with indices in `mode`'s code."""
    index_map = op.map.data  # type: ignore[attr-defined]
    leaves = IndexLeaves()
    inputs = [leaves.leaf(value) for value in operands]
    dims, symbols = inputs[: index_map.num_dims], inputs[index_map.num_dims :]
    emitter = IndexEmitter(
        leaves, lambda new: Rewriter.insert_op(new, InsertPoint.before(op)), mode
    )
    indices = [emitter.emit(r.replace_dims_and_symbols(dims, symbols)) for r in index_map.results]
    if isinstance(op, affine.ApplyOp):
        op.result.replace_all_uses_with(indices[0])
        Rewriter.erase_op(op)
        return
    new: Operation
    if isinstance(op, affine.LoadOp):
        new = memref.LoadOp.get(op.memref, indices)
    elif isinstance(op, affine.StoreOp):
        new = memref.StoreOp.get(op.value, op.memref, indices)
    elif isinstance(op, affine.VectorLoadOp):
        new = vector.LoadOp(op.memref, indices, op.result.type)
    else:
        assert isinstance(op, affine.VectorStoreOp), op.name
        new = vector.StoreOp(op.value, op.memref, indices)
    Rewriter.replace_op(op, new)
