"""`layout-lower-memrefs`: the lowering step of `layout-lower`. Every access to a
layout-typed memref becomes an access to its physical buffer, and every definition gets its
physical type.

It gathers what it needs in one walk (`LoweringFacts`) and hands it down: views carried by
branches carry their windows instead (`views.carrying`), views are checked, n-D transfers
become 1-D ones (`transfer_guards`), views met by calls are copied at the call and freed
through their roots (`views.boundaries`), copies through run-time views become
`linalg.copy`, linalg ops on layout-typed memrefs become loops (`linalg_loops`), accesses
through run-time views fold into their roots (`views.folding`); a step that changes the
module gathers the facts again. Then it refuses what it cannot lower, naming the op
(`checks`), rewrites every access through the layout of its memref (`accesses`), gives
every definition its physical type (`definitions`) and folds the lanes of whole-container
accesses into word ops (`packed.word_folding`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.context import Context
from xdsl.dialects import vector
from xdsl.dialects.builtin import ModuleOp, VectorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import PassFailedException

from heterolayout.dialects.views import value_layout
from heterolayout.layout.errors import LayoutError
from heterolayout.passes.collector import collector_paused
from heterolayout.passes.index.layout_simplify_index import erase_dead_ops
from heterolayout.passes.lower.access_lowering import AccessLowering
from heterolayout.passes.lower.accesses import access_patterns
from heterolayout.passes.lower.checks import check_lowerable, check_views
from heterolayout.passes.lower.definitions import definition_patterns
from heterolayout.passes.lower.facts import LoweringFacts
from heterolayout.passes.views.folding import ViewFacts, copies_through_runtime_views

if TYPE_CHECKING:
    from heterolayout.passes.validate.validator import Validator

INDEX_MODES = ("arith", "affine")
VALIDATE_MODES = (False, True, "verbose", "conversions")
CONVERT_MODES = ("loops", "gpu")


def option_problem(index: str, validate: bool | str, convert: str) -> str | None:
    """What is wrong with the lowering's options (`index=…: expected …`), or None."""
    if index not in INDEX_MODES:
        return f"index={index}: expected arith or affine"
    if validate not in VALIDATE_MODES:
        return f"validate={validate}: expected false, true, verbose or conversions"
    if convert not in CONVERT_MODES:
        return f"convert={convert}: expected loops or gpu"
    return None


def lower(
    module: ModuleOp,
    index: str,
    flatten: bool,
    validator: Validator | None = None,
    gpu_converts: bool = False,
) -> None:
    """Prepare views and loops, check, rewrite the accesses, retype the definitions, fold
    whole-container lanes; with a `validator`, each access rewrite is proven as it happens
    (translation validation); with `gpu_converts`, host conversions become GPU kernels."""
    facts = LoweringFacts.of(module)
    facts, view_facts = _prepare(module, facts)
    check_lowerable(facts, flatten, gpu_converts)
    static_views = [op for op in facts.views if facts.layout(op.results[0])]
    state = AccessLowering(index, flatten, gpu_converts, facts=view_facts)  # type: ignore[arg-type]
    accesses: RewritePattern = GreedyRewritePatternApplier(
        access_patterns(state, facts.vectors), dce_enabled=False
    )
    if validator is not None:
        accesses = _Validated(accesses, validator, flatten, view_facts)
    definitions = GreedyRewritePatternApplier(
        definition_patterns(flatten, state.mode), dce_enabled=False
    )
    for patterns in (accesses, definitions):
        PatternRewriteWalker(patterns, apply_recursively=False).rewrite_module(module)
    for view in static_views:  # accessed through their layouts: now the root buffer
        Rewriter.replace_op(view, [], [view.operands[0]])
    erase_dead_ops(state.maybe_dead)
    if state.words:
        from heterolayout.passes.packed.word_folding import fold_words

        for function in dict.fromkeys(state.words):
            fold_words(function)


def _prepare(module: ModuleOp, facts: LoweringFacts) -> tuple[LoweringFacts, ViewFacts]:
    """Views and linalg ops into what the access patterns lower; the facts of the module
    as it is after, and what accesses folded from run-time views know of their offsets."""
    if facts.branches:
        from heterolayout.passes.views.carrying import carry_one_view_window

        while carry_one_view_window(facts.branches):
            facts = LoweringFacts.of(module)
    check_views(facts)
    if _unroll_transfers(facts):
        facts = LoweringFacts.of(module)
    if facts.calls or facts.deallocs:
        from heterolayout.passes.views.boundaries import copy_views_at_calls, free_roots_of_views

        copied = copy_views_at_calls(facts.calls, facts.functions)
        if free_roots_of_views(facts.deallocs) | copied:
            facts = LoweringFacts.of(module)
    if copies_through_runtime_views(facts.copies):
        facts = LoweringFacts.of(module)
    if facts.structured:
        from heterolayout.passes.lower.linalg_loops import lower_linalg_on_layouts

        if lower_linalg_on_layouts(module):
            facts = LoweringFacts.of(module)
    if not facts.has_runtime_views():
        return facts, {}
    from heterolayout.passes.views.folding import fold_runtime_views

    view_facts = fold_runtime_views(module)
    return LoweringFacts.of(module), view_facts


def _unroll_transfers(facts: LoweringFacts) -> bool:
    """n-D transfers of layout-typed memrefs (and of their views) become 1-D transfers of
    their rows (`transfer_guards.unroll_rows`), which the lowering takes one by one; whether
    any did."""
    unrolled = False
    for op in facts.transfers:
        vector_type = (op.result if isinstance(op, vector.TransferReadOp) else op.vector).type
        if not isinstance(vector_type, VectorType) or vector_type.get_num_dims() < 2:
            continue
        source = op.source
        if facts.layout(source) is None and facts.window(source) is None:
            continue
        from heterolayout.passes.transfers import row_problem, unroll_rows

        if row_problem(op) is None:
            unroll_rows(op)
            unrolled = True
    return unrolled


@dataclass
class _Validated(RewritePattern):
    """The access patterns inside the validator's watch: it reads each access of a
    layout-typed memref before its rewrite and proves the ops that replace it."""

    patterns: RewritePattern
    validator: Validator
    flatten: bool
    facts: ViewFacts

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        def is_flat(value: SSAValue) -> bool:
            return self.flatten and value_layout(value) is not None

        with self.validator.watch(op, value_layout, is_flat, self.facts.get(op)):
            self.patterns.match_and_rewrite(op, rewriter)


@dataclass(frozen=True)
class LayoutLowerMemrefsPass(ModulePass):
    """The lowering step of `layout-lower`, with its options (`index`, `flatten`,
    `validate`, `convert`: see `LayoutLowerPass`); its errors say `layout-lower`."""

    name = "layout-lower-memrefs"

    index: str = "arith"
    flatten: bool = False
    validate: bool | str = False
    convert: str = "loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        problem = option_problem(self.index, self.validate, self.convert)
        if problem is not None:
            raise PassFailedException(f"{self.name}: {problem}")
        validator = None
        if self.validate:
            from heterolayout.passes.validate.validator import Validator

            validator = Validator(conversions_only=self.validate == "conversions")
        with collector_paused():
            try:
                lower(op, self.index, self.flatten, validator, self.convert == "gpu")
            except LayoutError as error:
                raise PassFailedException(f"layout-lower: {error}") from None
        if validator is not None:
            validator.finish(verbose=self.validate == "verbose")
