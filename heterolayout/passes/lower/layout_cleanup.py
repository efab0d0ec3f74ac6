"""`layout-cleanup`: tidy the functions the lowering added loop nests to.

Conversions and pad fills come out as loop nests whose index code canonicalization, CSE and
the removal of dead index arithmetic tidy up. `layout-lower` marks the functions that
received such loops (`layout.cleanup`); this pass cleans those and drops the mark, or every
function with `all=true`. Walking the whole module took half of `layout-lower`'s time on
large modules and changed nothing there, so by default only the marked functions are
touched.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.common_subexpression_elimination import cse
from xdsl.transforms.dead_code_elimination import region_dce

from heterolayout.dialects.functions import FUNCTION_TYPES
from heterolayout.passes.cleanup_marks import CLEANUP_MARK
from heterolayout.passes.index.layout_simplify_index import erase_dead_index_code
from heterolayout.passes.unchanged import left_unchanged


@dataclass(frozen=True)
class LayoutCleanupPass(ModulePass):
    """Canonicalize, CSE and erase dead index code in the functions `layout-lower` marked
    (`all=true`: in every function)."""

    name = "layout-cleanup"

    all: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        canonicalize = GreedyRewritePatternApplier(
            [CanonicalizationRewritePattern()], ctx=ctx, folding_enabled=True
        )
        functions = [f for f in op.walk() if isinstance(f, FUNCTION_TYPES)]
        marked = [f for f in functions if self.all or CLEANUP_MARK in f.attributes]
        if not marked:
            left_unchanged(self, op)
        for function in marked:
            function.attributes.pop(CLEANUP_MARK, None)
            PatternRewriteWalker(canonicalize, post_walk_func=region_dce).rewrite_region(
                function.body
            )
            erase_dead_index_code(function)
            cse(function)
