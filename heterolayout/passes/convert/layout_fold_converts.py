"""Conversions that undo each other: `convert A→B` then `convert B→A'` with nothing in
between that touches A or B. The second becomes a copy A→A' (or nothing when A' is A), and
the first goes too when B is a local allocation with no other use, taking it along."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.traits import is_side_effect_free

from heterolayout.dialects.ops import ConvertOp
from heterolayout.dialects.upstream.memref import CopyOp
from heterolayout.passes.remarks import remark
from heterolayout.passes.unchanged import left_unchanged


def fold_round_trip_converts(module: ModuleOp) -> bool:
    """Whether any conversion was folded."""
    folded = False
    for op in list(module.walk()):
        if isinstance(op, ConvertOp) and op.parent is not None:
            folded |= _fold_from(op)
    return folded


def _fold_from(first: ConvertOp) -> bool:
    source, middle = first.source, first.destination
    second = _next_touching(first, {source, middle})
    if not (isinstance(second, ConvertOp) and second.source is middle):
        return False
    target = second.destination
    if target.type != source.type:
        return False
    if target is source:
        Rewriter.erase_op(second)
    else:
        Rewriter.replace_op(second, CopyOp(source, target))
    other_uses = [u.operation for u in middle.uses if u.operation is not first]
    allocation = middle.owner
    local = isinstance(allocation, (memref.AllocOp, memref.AllocaOp))
    if (
        isinstance(allocation, Operation)
        and local
        and all(isinstance(u, memref.DeallocOp) for u in other_uses)
    ):
        Rewriter.erase_op(first)
        for user in other_uses:
            Rewriter.erase_op(user)
        assert isinstance(allocation, Operation)
        Rewriter.erase_op(allocation)
        remark(
            f"layout-fold-converts: dropped a {middle.type} buffer: it is converted into and "
            "straight back"
        )
    return True


def _next_touching(op: Operation, values: set[SSAValue]) -> Operation | None:
    """The next op in the block that uses one of `values` or may have side effects."""
    current = op.next_op
    while current is not None:
        if any(o in values for o in current.operands) or not is_side_effect_free(current):
            return current
        current = current.next_op
    return None


@dataclass(frozen=True)
class LayoutFoldConvertsPass(ModulePass):
    """Fold conversions that undo each other (`layout-lower` runs this first)."""

    name = "layout-fold-converts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not fold_round_trip_converts(op):
            left_unchanged(self, op)
