"""Views of layout-typed memrefs carried by loops and yielded by branches: the window's
values are carried instead, and the view is opened again where the value arrives.

A view lowers into the indexing of one window of its root; a loop-carried or yielded view is
a window chosen at run time. When every value that can arrive (an `scf.if`'s yields; an
`scf.for`'s initial value and yield) is a `memref.subview` (through `memref.cast`s) of the
same root, defined outside the op, keeping the same dims, the op carries the subviews'
offsets, sizes and strides that differ as `index` values instead of the memref, and a
`memref.subview` of the root with those values stands for the carried view where it arrives
(after an `scf.if`; at the top of the loop body and after the loop): the same window, so the
same elements. Anything else carried stays refused by `layout-lower`, naming the op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.conversion import memref_shape
from heterolayout.dialects.roots import buffer_root
from heterolayout.dialects.views import kept_dims, value_layout, view_source
from heterolayout.passes.cleanup_marks import mark_for_cleanup

Mixed = int | SSAValue


@dataclass(frozen=True)
class _Window:
    """A subview's root and its offsets, sizes and strides (constants or values)."""

    root: SSAValue
    kept: tuple[int, ...]
    values: tuple[Mixed, ...]


def carry_one_view_window(branches: Sequence[scf.IfOp | scf.ForOp]) -> bool:
    """Carry the window of the first view one of `branches` (`scf.if`s, `scf.for`s, in
    walk order) yields or carries where every arriving value is a subview of one root;
    whether one was. The branch is replaced: gather the branches again, and repeat until
    none is left (the others are left for `layout-lower` to refuse)."""
    return any(_carry_one(op) for op in branches)


def _carry_one(op: scf.IfOp | scf.ForOp) -> bool:
    for index, result in enumerate(op.results):
        if not isinstance(result.type, MemRefType):
            continue
        windows = [_window(v, op) for v in _arriving(op, index)]
        if any(w is None for w in windows):
            continue
        found = [w for w in windows if w is not None]
        if len({(w.root, w.kept) for w in found}) != 1:
            continue
        mark_for_cleanup(op)  # constants and loops the rewrite leaves for canonicalization
        if isinstance(op, scf.IfOp):
            _carry_if(op, index, found)
        else:
            _carry_for(op, index, found)
        return True
    return False


def _arriving(op: scf.IfOp | scf.ForOp, index: int) -> list[SSAValue]:
    """The values that can become result `index`: an scf.if's yields; an scf.for's initial
    value and its yield (the body's own block argument counts as that initial value's
    window carried on, so it is left out)."""
    yields = [r.block.last_op for r in op.regions if r.blocks]
    values = [y.operands[index] for y in yields if y is not None]
    if isinstance(op, scf.ForOp):
        argument = op.body.block.args[index + 1]
        values = [op.iter_args[index], *(v for v in values if v is not argument)]
    return values


def _window(value: SSAValue, op: Operation) -> _Window | None:
    """`value` as a subview of a layout-typed root defined outside `op`, or None."""
    value = buffer_root(value)
    subview = value.owner
    if not isinstance(subview, memref.SubviewOp):
        return None
    root = buffer_root(subview.source)
    if value_layout(root) is None or view_source(root) is not None:
        return None
    if isinstance(root.owner, Operation) and op.is_ancestor(root.owner):
        return None
    if isinstance(root.owner, Block) and op.is_ancestor(root.owner.parent_op() or op):
        return None
    sizes = [None if s == DYNAMIC_INDEX else s for s in subview.static_sizes.get_values()]
    kept = kept_dims(sizes, memref_shape(subview.result.type))
    if kept is None:
        return None
    values = (
        *_mixed(subview.static_offsets.get_values(), subview.offsets),
        *_mixed(subview.static_sizes.get_values(), subview.sizes),
        *_mixed(subview.static_strides.get_values(), subview.strides),
    )
    return _Window(root, tuple(kept), values)


def _mixed(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[Mixed]:
    remaining = iter(dynamic)
    return [next(remaining) if v == DYNAMIC_INDEX else v for v in static]


def _carried(windows: Sequence[_Window]) -> list[int]:
    """The positions of the window values that differ between the arriving views (one value
    in all of them is defined before the op, so it is where the view arrives)."""
    first = windows[0].values
    return [p for p in range(len(first)) if any(w.values[p] != first[p] for w in windows)]


def _as_value(value: Mixed, at: InsertPoint) -> SSAValue:
    if isinstance(value, SSAValue):
        return value
    constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
    Rewriter.insert_op(constant, at)
    return constant.result


def _open(
    window: _Window, carried: Sequence[int], values: Sequence[SSAValue], like: SSAValue
) -> memref.SubviewOp:
    """A subview of the window's root with `values` at the `carried` positions, typed as
    `like`."""
    mixed = list(window.values)
    for position, value in zip(carried, values, strict=True):
        mixed[position] = value
    rank = len(mixed) // 3
    parts = [mixed[:rank], mixed[rank : 2 * rank], mixed[2 * rank :]]
    offsets, sizes, strides = ([v for v in part if isinstance(v, SSAValue)] for part in parts)
    static_offsets, static_sizes, static_strides = (
        [DYNAMIC_INDEX if isinstance(v, SSAValue) else v for v in part] for part in parts
    )
    return memref.SubviewOp(
        window.root,
        offsets,
        sizes,
        strides,
        static_offsets,
        static_sizes,
        static_strides,
        like.type,
    )


def _carry_if(op: scf.IfOp, index: int, windows: list[_Window]) -> None:
    carried = _carried(windows)
    result = op.results[index]
    for region, window in zip(op.regions, windows, strict=True):
        terminator = region.block.last_op
        assert terminator is not None
        at = InsertPoint.before(terminator)
        values = [_as_value(window.values[p], at) for p in carried]
        operands = list(terminator.operands)
        operands[index : index + 1] = []
        terminator.operands = [*operands, *values]
    types = [r.type for r in op.results if r is not result] + [IndexType()] * len(carried)
    true_region, false_region = (op.detach_region(r) for r in list(op.regions))
    new = scf.IfOp(op.cond, types, true_region, false_region)
    Rewriter.insert_op(new, InsertPoint.before(op))
    rest = [r for r in op.results if r is not result]
    for old, replacement in zip(rest, new.results, strict=False):
        old.replace_all_uses_with(replacement)
    view = _open(windows[0], carried, new.results[len(rest) :], result)
    Rewriter.insert_op(view, InsertPoint.after(new))
    result.replace_all_uses_with(view.result)
    Rewriter.erase_op(op)


def _carry_for(op: scf.ForOp, index: int, windows: list[_Window]) -> None:
    carried = _carried(windows)
    result, argument = op.results[index], op.body.block.args[index + 1]
    terminator = op.body.block.last_op
    assert terminator is not None
    yielded = terminator.operands[index]
    initial = [_as_value(windows[0].values[p], InsertPoint.before(op)) for p in carried]
    block = op.body.block
    new_arguments = [block.insert_arg(IndexType(), len(block.args)) for _ in carried]
    if yielded is argument:
        next_values: list[SSAValue] = list(new_arguments)
    else:
        at = InsertPoint.before(terminator)
        next_values = [_as_value(windows[-1].values[p], at) for p in carried]
    operands = list(terminator.operands)
    operands[index : index + 1] = []
    terminator.operands = [*operands, *next_values]
    inside = _open(windows[0], carried, new_arguments, argument)
    Rewriter.insert_op(inside, InsertPoint.at_start(block))
    argument.replace_all_uses_with(inside.result)
    block.erase_arg(argument)
    iter_args = [v for i, v in enumerate(op.iter_args) if i != index]
    body = op.detach_region(op.body)
    new = scf.ForOp(op.lb, op.ub, op.step, [*iter_args, *initial], body)
    Rewriter.insert_op(new, InsertPoint.before(op))
    rest = [r for r in op.results if r is not result]
    for old, replacement in zip(rest, new.results, strict=False):
        old.replace_all_uses_with(replacement)
    after = _open(windows[0], carried, new.results[len(rest) :], result)
    Rewriter.insert_op(after, InsertPoint.after(new))
    result.replace_all_uses_with(after.result)
    Rewriter.erase_op(op)
