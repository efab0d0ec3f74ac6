"""Conversions whose values nobody reads: a `layout.convert` into a fresh buffer that the
next loop nest overwrites, every element, before it reads any.

`layout-apply` converts a public function's output argument into its layout on entry, since
the function may read it; a convolution that zeroes each output pixel before accumulating
never does. The nest proves it: one store covers the buffer's whole logical box (each dim
indexed by its own loop from 0 by 1 over the dim's extent), and every other access to the
buffer reads that same element after the store, in the same iteration.
"""

from __future__ import annotations

from xdsl.dialects import memref
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from heterolayout.dialects.ops import ConvertOp
from heterolayout.dialects.roots import storage_root
from heterolayout.passes.schedule.nest import Access, Nest, bare_dim


def drop_overwritten_converts(nest: Nest) -> list[SSAValue]:
    """Erase the conversions into buffers the nest overwrites first; the buffers."""
    dropped = []
    for root in {storage_root(a.buffer) for a in nest.accesses.values() if a.write}:
        if not isinstance(root.owner, (memref.AllocOp, memref.AllocaOp)):
            continue
        if not _overwritten_first(nest, root):
            continue
        convert = _preceding_convert(nest.top, root)
        if convert is not None:
            Rewriter.erase_op(convert)
            dropped.append(root)
    return dropped


def _overwritten_first(nest: Nest, root: SSAValue) -> bool:
    statements = [op for op in nest.statements() if op in nest.accesses]
    touching = [
        nest.accesses[op] for op in statements if storage_root(nest.accesses[op].buffer) == root
    ]
    first = touching[0]
    if not first.write or not covers(nest, first):
        return False
    return all(a.exprs == first.exprs and a.depth >= first.depth for a in touching[1:])


def covers(nest: Nest, store: Access) -> bool:
    """Every logical index of the buffer is stored once by some iteration (each dim indexed
    by its own loop from 0 by 1 over the extent; a dim of one by 0)."""
    shape = store.buffer.type.get_shape()  # type: ignore[attr-defined]
    seen: set[int] = set()
    for expr, extent in zip(store.exprs, shape, strict=True):
        loop = bare_dim(expr)
        if loop is None:
            if extent != 1 or expr.used_dims() or getattr(expr, "value", None) != 0:
                return False
            continue
        if loop >= len(nest.loops) or loop in seen:
            return False
        counted = nest.loops[loop]
        if (counted.first, counted.step, counted.trips) != (0, 1, extent):
            return False
        seen.add(loop)
    return True


def _preceding_convert(top: Operation, root: SSAValue) -> ConvertOp | None:
    """The last op before the nest that touches `root`, when it is a convert into it (ops
    with regions in between, the nests before it, touch nothing of `root` inside)."""
    op = top.prev_op
    while op is not None:
        if any(storage_root(v) == root for v in op.operands):
            if isinstance(op, ConvertOp) and storage_root(op.destination) == root:
                return op
            return None
        if op.regions and any(
            storage_root(v) == root for inner in op.walk() for v in inner.operands
        ):
            return None
        op = op.prev_op
    return None
