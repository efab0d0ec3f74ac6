"""`layout-verify`: the layout verification walk as a pass, to check IR between passes."""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from heterolayout.dialects.verification import verify_layouts
from heterolayout.passes.unchanged import left_unchanged


@dataclass(frozen=True)
class LayoutVerifyPass(ModulePass):
    """Check every layout-typed memref against its shape and element type, and that no buffer
    gets two different `layout.assign`s; fails with the offending op and the reason."""

    name = "layout-verify"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        verify_layouts(op)
        left_unchanged(self, op)
