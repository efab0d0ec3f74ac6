"""Copies the scheduler can see: a `memref.copy` between buffers of different layouts (into
the interior of a padded buffer, out of a window) becomes a `linalg.copy`, which
`layout-schedule` makes a loop nest and schedules like any other (vector accesses in the
destination's memory order) instead of the element-wise conversion `layout-lower` would
give it. Copies between buffers of one type stay: they lower to a block copy.
"""

from __future__ import annotations

from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.dialects.linalg.ops import CopyOp
from xdsl.ir import SSAValue
from xdsl.rewriter import Rewriter

from heterolayout.dialects.views import reaches_layout
from heterolayout.layout.errors import LayoutError


def copies_as_linalg(module: ModuleOp) -> None:
    """Rewrite each static-shaped `memref.copy` that reaches a layout-typed buffer with
    operands of different types."""
    for op in [o for o in module.walk() if isinstance(o, memref.CopyOp)]:
        source, destination = op.source, op.destination
        if source.type == destination.type or not (_laid_out(source) or _laid_out(destination)):
            continue
        if any(
            not isinstance(v.type, MemRefType) or not v.type.has_static_shape()
            for v in (source, destination)
        ):
            continue
        Rewriter.replace_op(op, CopyOp([source], [destination], res=()))


def _laid_out(value: SSAValue) -> bool:
    """`reaches_layout`, and no for a view the layout model cannot compose (`layout-lower`
    names it)."""
    try:
        return reaches_layout(value)
    except LayoutError:
        return False
