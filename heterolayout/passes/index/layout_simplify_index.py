"""`layout-simplify-index`: the index simplification of `layout-lower`, for any IR.

Each index operand of a memory access is read back as a quasi-affine expression over its
leaves (see `index_code`); when the range-aware simplifier finds a cheaper form, that form is
emitted and the access uses it. The old computation is left for dead-code elimination.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import takewhile

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import Rewriter
from xdsl.transforms.dead_code_elimination import region_dce, would_be_trivially_dead

from heterolayout.dialects.arith_ops import DIVISIONS, constant_index
from heterolayout.dialects.roles import roles_of
from heterolayout.passes.index.index_code import IndexEmitter, IndexLeaves, cost

INDEX_ARITHMETIC = (arith.AddiOp, arith.SubiOp, arith.MuliOp, *DIVISIONS)


class SimplifyAccessIndices(RewritePattern):
    """Replace the index operands of an access (an op the op-role table gives `values`
    indices) by their simplest equivalent form."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        roles = roles_of(op)
        if roles is None or roles.indices != "values":
            return
        operands = op.operands[roles.index_start :]
        indices = list(takewhile(lambda v: isinstance(v.type, IndexType), operands))
        leaves = IndexLeaves()
        exprs = [leaves.recover(i) for i in indices]
        emitter = IndexEmitter(leaves, rewriter.insert_op)
        changed = False
        for position, (value, expr) in enumerate(zip(indices, exprs, strict=True)):
            better = emitter.best_form(expr)
            if cost(better) < cost(expr):
                new = emitter.emit(better)
                if new is not value:
                    op.operands[roles.index_start + position] = new
                    changed = True
        if changed:
            rewriter.notify_op_modified(op)


@dataclass(frozen=True)
class SimplifyIndexPass(ModulePass):
    name = "layout-simplify-index"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([SimplifyAccessIndices()]), apply_recursively=False
        ).rewrite_module(op)
        erase_dead_index_code(op)
        region_dce(op.body)


def erase_dead_index_code(root: Operation) -> None:
    """xDSL gives divisions and remainders no `Pure` trait (they trap on zero), so generic DCE
    keeps them; an unused one by a non-zero constant is safe to drop."""
    changed = True
    while changed:
        changed = False
        for op in list(root.walk()):
            if (
                isinstance(op, INDEX_ARITHMETIC)
                and not op.results[0].uses
                and _index_code_removable(op)
            ):
                Rewriter.erase_op(op)
                changed = True


def _index_code_removable(op: Operation) -> bool:
    divisor = constant_index(op.operands[1])
    return not isinstance(op, DIVISIONS) or (divisor is not None and divisor != 0)


def erase_dead_ops(candidates: Iterable[Operation]) -> None:
    """Erase each candidate that is unused and has no effect but its results, then whatever
    that leaves unused in turn: the dead code a rewrite left behind, found from the ops it
    touched instead of a walk over the whole module."""
    worklist = list(candidates)
    while worklist:
        op = worklist.pop()
        if op.parent is None or any(result.uses for result in op.results):
            continue
        if isinstance(op, INDEX_ARITHMETIC):
            if not _index_code_removable(op):
                continue
        elif not op.results or not would_be_trivially_dead(op):
            continue
        owners = [operand.owner for operand in op.operands if isinstance(operand.owner, Operation)]
        Rewriter.erase_op(op)
        worklist.extend(owners)
