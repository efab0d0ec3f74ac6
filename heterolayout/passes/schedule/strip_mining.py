"""Strip-mining: each loop that walks a logical dim of the leading buffer is split into one
digit per physical dim that logical dim is stored in, ranked by that dim's place in memory.

The layout answers (`Layout.dim_digits`): nChw16c stores the channel `c` as `c floordiv 16`
(physical dim 1) and `c mod 16` (physical dim 4), so a channel loop becomes a block digit of
weight 16 ranked 1 and a lane digit of weight 1 ranked 4. Layouts that are not blockings
(maps, strides) rank a loop by its dim's stride, outermost first, and split nothing.

Only a loop that is the dim's index by itself (`out[0, %k, …]` with `%k` from 0 by 1) is
split: anything else (`%oh + %kh`, `2·%i`) would not stay aligned to the blocks.
"""

from __future__ import annotations

from heterolayout.layout.model import Layout
from heterolayout.passes.schedule.nest import Access, Nest, bare_dim
from heterolayout.passes.schedule.plan import INNER_RANK, Digit


def strip_mine(nest: Nest, lead: Access, layout: Layout) -> dict[int, list[Digit]]:
    """Each loop's digits, heaviest first."""
    ranks = _dim_ranks(layout)
    digits: dict[int, list[Digit]] = {}
    for dim, expr in enumerate(lead.exprs):
        used = [d for d in expr.used_dims() if d < len(nest.loops)]
        loop = bare_dim(expr)
        whole = layout.dim_digits(dim)
        if _splits(nest, loop, whole is not None) and loop not in digits:
            assert loop is not None and whole is not None
            digits[loop] = [Digit(loop, weight, rank) for rank, weight in whole]
            continue
        for loop in used:
            rank = ranks[dim]
            if loop not in digits or digits[loop][0].rank > rank:
                digits[loop] = [Digit(loop, 1, rank)]
    for loop in range(len(nest.loops)):
        digits.setdefault(loop, [Digit(loop, 1, INNER_RANK)])
    return digits


def _splits(nest: Nest, loop: int | None, blocked: bool) -> bool:
    """The loop counts 0, 1, 2, … through the dim by itself, so its digits align with the
    blocks."""
    if loop is None or loop >= len(nest.loops) or not blocked:
        return False
    return nest.loops[loop].first == 0 and nest.loops[loop].step == 1


def _dim_ranks(layout: Layout) -> list[int]:
    """Each logical dim's place in memory order: the physical dim of its heaviest digit, or
    for strided layouts its place by decreasing stride."""
    ranks = []
    for dim in range(layout.rank):
        digits = layout.dim_digits(dim)
        if digits:
            ranks.append(digits[0][0])
    if len(ranks) == layout.rank:
        return ranks
    linear = layout.linear
    if linear is not None:
        strides = linear[0]
        order = sorted(range(layout.rank), key=lambda d: -strides[d])
        return [order.index(d) for d in range(layout.rank)]
    return list(range(layout.rank))
