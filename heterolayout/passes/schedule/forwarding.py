"""Copies of constants read in place: a nest that only copies or broadcasts a constant global
into a fresh buffer (what importers make of a matmul's weights to fit `batch_matmul`) is
dropped, and the buffer's readers read the global instead, in its own layout.

The nest must store each element of the buffer once (each of its dims indexed by its own
loop over the dim's extent) with the value it loads from the global at indices that are
loops of the nest or constants; the buffer must be read only by `memref.load`s after the
nest in the same block, and freed or left alone otherwise. The global is `constant`, so it
holds the same values at every read.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.effects import is_constant_global
from heterolayout.passes.schedule.nest import LOOPS, Nest, NotScheduled, bare_dim, extract
from heterolayout.passes.schedule.overwrite import covers


def forward_constant_copies(
    block: Block, chosen: Callable[[Operation], bool], remark: Callable[[str], None]
) -> bool:
    """Forward every such copy among the nests of `block`; whether one was."""
    changed = False
    for top in [op for op in block.ops if isinstance(op, LOOPS) and chosen(op)]:
        try:
            nest = extract(top)
        except NotScheduled:
            continue
        found = _constant_copy(nest)
        if found is None:
            continue
        target, source, sources = found
        readers = _readers(target, top)
        if readers is None:
            continue
        for load in readers:
            indices = [
                load.indices[position] if position is not None else _index(load, value)
                for position, value in sources
            ]
            Rewriter.replace_op(load, memref.LoadOp.get(source, indices))
        Rewriter.erase_op(top)
        for use in list(target.uses):
            Rewriter.erase_op(use.operation)
        owner = target.owner
        assert isinstance(owner, Operation)
        Rewriter.erase_op(owner)
        remark(
            f"a copy of @{_symbol(source)} forwarded: {len(readers)} load(s) read the global "
            "in its own layout"
        )
        changed = True
    return changed


def _constant_copy(
    nest: Nest,
) -> tuple[SSAValue, SSAValue, list[tuple[int | None, int]]] | None:
    """(the buffer, the global, per index of the global: the buffer's index position it
    equals, or None and the constant), when the nest is such a copy."""
    if not nest.perfect or len(nest.body) != 2:
        return None
    load, store = (nest.accesses.get(op) for op in nest.body)
    if load is None or store is None or load.write or not store.write:
        return None
    if store.op.operands[0] is not load.op.results[0]:
        return None
    source, target = load.buffer, store.buffer
    if not is_constant_global(source) or not isinstance(target.owner, memref.AllocOp):
        return None
    if not covers(nest, store):
        return None
    positions = {bare_dim(e): p for p, e in enumerate(store.exprs) if bare_dim(e) is not None}
    sources: list[tuple[int | None, int]] = []
    for expr in load.exprs:
        dim = bare_dim(expr)
        if dim is not None and dim in positions:
            sources.append((positions[dim], 0))
        elif not expr.used_dims():
            sources.append((None, expr.value))  # type: ignore[attr-defined]
        else:
            return None
    return target, source, sources


def _readers(target: SSAValue, top: Operation) -> list[memref.LoadOp] | None:
    """The loads of `target` after `top`, when every other use is `top`'s store or a free."""
    block = top.parent_block()
    assert block is not None
    loads: list[memref.LoadOp] = []
    for use in target.uses:
        op = use.operation
        if isinstance(op, memref.DeallocOp) or top.is_ancestor(op):
            continue
        if not isinstance(op, memref.LoadOp) or use.index != 0:
            return None
        outer = block.find_ancestor_op_in_block(op)
        if outer is None or block.get_operation_index(outer) < block.get_operation_index(top):
            return None
        loads.append(op)
    return loads


def _index(load: Operation, value: int) -> SSAValue:
    constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
    Rewriter.insert_op(constant, InsertPoint.before(load))
    return constant.result


def _symbol(value: SSAValue) -> str:
    owner = value.owner
    assert isinstance(owner, memref.GetGlobalOp)
    return owner.name_.root_reference.data
