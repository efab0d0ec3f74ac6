"""`layout-strip`: the program with its layouts taken out.

A layout never changes what a program computes, so the program with every layout-typed
memref made a plain memref of its logical shape computes what the program computes. The
stripped program is upstream-only IR with logical semantics: the native engine runs it as
the reference side of `--check`, against the lowered program.

Every layout-typed memref type (ours, and MLIR's builtin `affine_map<…>` / static
`strided<…>` layouts, which heterolayout treats as layouts) becomes the identity-layout
memref of the same shape, element type and memory space, wherever it appears (results, block
arguments, function types, globals); `layout.assign` and the `layout.schedule` hint vanish; `layout.convert` becomes
`memref.copy`. A view of a layout-typed memref (`memref.subview`, `reinterpret_cast`, …)
indexes the layout's logical space in a way a plain memref cannot express: the pass refuses
it, naming the op.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, NoneAttr
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    TypeConversionPattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import PassFailedException

from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.ops import AssignOp, ConvertOp
from heterolayout.dialects.schedule_hint import ScheduleOp
from heterolayout.dialects.verification import verify_layouts
from heterolayout.dialects.views import VIEW_OPS


def has_layout(type_attr: Attribute) -> bool:
    return isinstance(type_attr, MemRefType) and layout_of(type_attr) is not None


def plain(memref_type: MemRefType) -> MemRefType:
    return MemRefType(
        memref_type.element_type, memref_type.shape, NoneAttr(), memref_type.memory_space
    )


def unstrippable(module: Operation) -> Operation | None:
    """The first op that keeps the program from being stripped (a view of a layout-typed
    memref), or None."""
    for op in module.walk():
        if op.name in VIEW_OPS and any(has_layout(o.type) for o in op.operands):
            return op
    return None


REFUSAL = "layout-strip: a view of a layout-typed memref has no plain-memref equivalent"


@dataclass
class StripTypes(TypeConversionPattern):
    """Layout-typed memrefs become plain memrefs of their logical shape."""

    recursive: bool = True

    def convert_type(self, typ: Attribute, /) -> Attribute | None:
        if isinstance(typ, MemRefType) and layout_of(typ) is not None:
            return plain(typ)
        return None


class EraseAssign(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AssignOp, rewriter: PatternRewriter) -> None:
        rewriter.erase(op)


class EraseScheduleHint(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ScheduleOp, rewriter: PatternRewriter) -> None:
        rewriter.erase(op)


class ConvertToCopy(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, memref.CopyOp(op.source, op.destination))


@dataclass(frozen=True)
class LayoutStripPass(ModulePass):
    """Remove every layout: plain logical memrefs, no assigns, converts as copies."""

    name = "layout-strip"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        verify_layouts(op)
        view = unstrippable(op)
        if view is not None:
            from heterolayout.interpreter.source import where

            raise PassFailedException(f"{where(view)}: {REFUSAL}")
        stages: list[list[RewritePattern]] = [
            [EraseAssign(), EraseScheduleHint(), ConvertToCopy()],
            [StripTypes()],
        ]
        for patterns in stages:
            PatternRewriteWalker(
                GreedyRewritePatternApplier(patterns, dce_enabled=False),  # keep unused ops
                apply_recursively=False,
            ).rewrite_module(op)
