"""`layout-strip`: the program with its layouts taken out.

A layout never changes what a program computes, so the program with every layout-typed
memref made a plain memref of its logical shape computes what the program computes. The
stripped program is upstream-only IR with logical semantics: the native engine runs it as
the reference side of `--check`, against the lowered program.

Every layout-typed memref type (ours, and MLIR's builtin `affine_map<…>` / static
`strided<…>` layouts, which heterolayout treats as layouts) becomes the identity-layout
memref of the same shape, element type and memory space, wherever it appears (results, block
arguments, function types, globals); `layout.assign` and the `layout.schedule` hint vanish;
`layout.convert` becomes `memref.copy`. A view of a layout-typed memref (`memref.subview`,
`reinterpret_cast`, …) stays as it is: its type is already the one upstream gives the same
view of the plain logical memref (`dialects.view_types`, checked by the verification walk),
which is exactly what the view means.

Vector accesses to sub-byte elements, which upstream would move as packed bits, go through
the memref's bytes (`sub_byte_accesses`), so upstream computes what they mean; this holds
for a program without layouts too, which is otherwise left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref
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

from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.ops import AssignOp, ConvertOp
from heterolayout.dialects.roles import VIEW_OPS
from heterolayout.dialects.schedule_hint import ScheduleOp
from heterolayout.dialects.verification import verify_layouts
from heterolayout.dialects.views import view_source
from heterolayout.passes.packed.layout_sub_byte_accesses import BY_ELEMENT
from heterolayout.passes.packed.sub_byte_accesses import access_sub_bytes_as_bytes


def has_layout(type_attr: Attribute) -> bool:
    return isinstance(type_attr, MemRefType) and layout_of(type_attr) is not None


def plain(memref_type: MemRefType) -> MemRefType:
    return MemRefType(
        memref_type.element_type, memref_type.shape, NoneAttr(), memref_type.memory_space
    )


@dataclass
class StripTypes(TypeConversionPattern):
    """Layout-typed memrefs become plain memrefs of their logical shape."""

    recursive: bool = True

    def convert_type(self, typ: Attribute, /) -> Attribute | None:
        if isinstance(typ, MemRefType) and layout_of(typ) is not None:
            return plain(typ)
        return None


@dataclass
class StripTypesOutsideViews(RewritePattern):
    """`StripTypes` on every op but views (and casts of them), whose types are their
    windows, already upstream's (`view_types`)."""

    types: StripTypes

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name in VIEW_OPS or (op.results and view_source(op.results[0]) is not None):
            return
        self.types.match_and_rewrite(op, rewriter)


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
    """Remove every layout: plain logical memrefs, no assigns, converts as copies; vector
    accesses to sub-byte elements on the memref's bytes (so `layout-schedule`'s note
    `layout.by_element` goes too)."""

    name = "layout-strip"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        verify_layouts(op)
        stages: list[list[RewritePattern]] = [
            [EraseAssign(), EraseScheduleHint(), ConvertToCopy()],
            [StripTypesOutsideViews(StripTypes())],
        ]
        for patterns in stages:
            PatternRewriteWalker(
                GreedyRewritePatternApplier(patterns, dce_enabled=False),  # keep unused ops
                apply_recursively=False,
            ).rewrite_module(op)
        _copy_views_at_stripped_parameters(op)
        access_sub_bytes_as_bytes(op, self.name)
        op.attributes.pop(BY_ELEMENT, None)


def _copy_views_at_stripped_parameters(module: ModuleOp) -> None:
    """A view passed where the callee's parameter had a builtin static `strided` layout,
    which is now the identity: the callee takes a plain copy of the view (copied back after
    the call when it may write it), as `layout-lower` does (`view_boundaries`)."""
    from heterolayout.dialects.functions import callee_key, function_table
    from heterolayout.passes.views.boundaries import copy_at_call

    functions = function_table(module)
    for call in [o for o in module.walk() if isinstance(o, func.CallOp)]:
        callee = functions.get(callee_key(call))
        if callee is None:
            continue
        for index, (operand, wanted) in enumerate(
            zip(call.arguments, callee.function_type.inputs.data, strict=False)
        ):
            changed = isinstance(wanted, MemRefType) and operand.type != wanted
            if changed and view_source(operand) is not None:
                copy_at_call(call, index, wanted, callee, memref.CopyOp)  # type: ignore[arg-type]
