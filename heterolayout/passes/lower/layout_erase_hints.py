"""`layout-erase-hints`: the first step of `layout-lower`. `layout.schedule` hints steer
`layout-schedule`, which runs before; they mean nothing to the lowering, and go.

It also notes a module that has no layouts at all (`layout.without_layouts`), for the last
step, `layout-sub-byte-accesses`: such a program keeps its own accesses, unless
`layout-schedule` made some of them (`layout.by_element`, removed here).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from heterolayout.dialects.schedule_hint import ScheduleOp
from heterolayout.dialects.views import layout_user
from heterolayout.layout.errors import LayoutError
from heterolayout.passes.packed.layout_sub_byte_accesses import BY_ELEMENT, WITHOUT_LAYOUTS
from heterolayout.passes.unchanged import left_unchanged


def has_layouts(module: ModuleOp) -> bool:
    """Whether `module` uses the layout dialect or a layout-typed memref (an invalid
    layout counts: `layout-apply` verifies them next, and names it)."""
    try:
        return layout_user(module) is not None
    except LayoutError:
        return True


@dataclass(frozen=True)
class LayoutEraseHintsPass(ModulePass):
    """Erase `layout.schedule` hints; note a module without layouts
    (`layout.without_layouts`, read by `layout-sub-byte-accesses`) unless `layout-schedule`
    marked it (`layout.by_element`, removed)."""

    name = "layout-erase-hints"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        scheduled = op.attributes.pop(BY_ELEMENT, None) is not None
        if not has_layouts(op):  # then it has no hints either: they are layout ops
            if not scheduled:
                op.attributes[WITHOUT_LAYOUTS] = UnitAttr()
                left_unchanged(self, op)  # only the note came, which nothing verifies
            return
        hints = [o for o in op.walk() if isinstance(o, ScheduleOp)]
        for hint in hints:
            Rewriter.erase_op(hint)
        if not hints:
            left_unchanged(self, op)
