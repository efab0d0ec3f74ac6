"""Interchange: the loops around the register tile follow the leading buffer's memory order;
the loops it does not walk (the reductions) go inside, in their own order.

The order is checked against the nest's dependences (`dependence.preserved`); loops that
carry a dependence keep their relative order unless that order would reverse no dependence.
An order that is not proven legal is not used: the nest keeps its own order and the remark
names the dependence. With `reassociate`, reduction loops may also be reordered, since then
only the order of the additions into one accumulator changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from heterolayout.passes.schedule.dependence import Dependence, preserved
from heterolayout.passes.schedule.nest import Nest
from heterolayout.passes.schedule.plan import INNER_RANK, Digit

Remark = Callable[[str], None]


def order(
    nest: Nest,
    digits: dict[int, list[Digit]],
    found: Sequence[Dependence],
    parallel: set[int],
    remark: Remark,
) -> tuple[list[Digit], list[Digit]]:
    """(outer digits, inner digits), both outermost first.

    In a perfect nest the parallel loops that walk the leading buffer go outside; in an
    imperfect one every loop above the statements must stay outside them (a loop the buffer
    does not walk keeps its place, first)."""
    if nest.perfect:
        outer = [d for loop in sorted(parallel) for d in digits[loop] if d.rank != INNER_RANK]
    else:
        outer = [
            d if d.rank != INNER_RANK else d.but(rank=-1)
            for loop in range(nest.split)
            for d in digits[loop]
        ]
    outer_loops = {d.loop for d in outer}
    inner = [
        Digit(loop, 1, INNER_RANK) for loop in range(len(nest.loops)) if loop not in outer_loops
    ]
    wanted = sorted(outer, key=lambda d: (d.rank, d.loop if d.rank < 0 else 0, -d.weight))
    if _legal(nest, wanted, inner, found, remark):
        return wanted, inner
    return sorted(outer, key=lambda d: (d.loop, -d.weight)), inner


def _legal(
    nest: Nest,
    outer: Sequence[Digit],
    inner: Sequence[Digit],
    found: Sequence[Dependence],
    remark: Remark,
) -> bool:
    loops: list[int] = []
    for digit in (*outer, *inner):
        if digit.loop not in loops:
            loops.append(digit.loop)
    if loops == sorted(loops):
        return True
    broken = preserved(found, loops)
    if broken is None:
        return True
    names = ", ".join(nest.loops[i].name(i) for i in loops)
    remark(
        f"loop order ({names}) would reverse the dependence from {broken.source.op.name} to "
        f"{broken.sink.op.name} (directions ({', '.join(broken.directions)})); "
        "keeping the nest's order"
    )
    return False
