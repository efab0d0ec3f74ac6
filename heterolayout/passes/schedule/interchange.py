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

from heterolayout.dialects.conversion import layout_of
from heterolayout.passes.schedule.dependence import Dependence, preserved
from heterolayout.passes.schedule.nest import Access, Nest
from heterolayout.passes.schedule.plan import INNER_RANK, Digit, Plan
from heterolayout.passes.schedule.reductions import is_reduction
from heterolayout.passes.schedule.strip_mining import strip_mine
from heterolayout.passes.schedule.vectorization import buffer_layout

Remark = Callable[[str], None]


def order(
    nest: Nest,
    digits: dict[int, list[Digit]],
    found: Sequence[Dependence],
    remark: Remark,
) -> tuple[list[Digit], list[Digit]]:
    """(outer digits, inner digits), both outermost first.

    In a perfect nest every loop that walks the leading buffer goes outside, in its memory
    order; in an imperfect one the loops above the statements stay outside them (a loop the
    buffer does not walk keeps its place, first). When that order is not proven legal the
    nest keeps its own."""
    if nest.perfect:
        outer = [d for loop in range(len(nest.loops)) for d in digits[loop] if d.rank != INNER_RANK]
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
    kept = nest.split if not nest.perfect else 0
    return (
        [Digit(loop, 1, -1) for loop in range(kept)],
        [Digit(loop, 1, INNER_RANK) for loop in range(kept, len(nest.loops))],
    )


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


def strip_reductions(plan: Plan) -> None:
    """The loops inside the tile, strip-mined in place by the blocks of the operand they walk
    most (a convolution's input channels: `c floordiv 16`, then `c mod 16`). Their order,
    and each accumulator's order of additions, stay as they were."""
    guide = _guide(plan, {d.loop for d in plan.inner})
    if guide is None:
        return
    digits = strip_mine(plan.nest, guide, buffer_layout(guide.buffer))
    plan.inner = [d.but(rank=INNER_RANK) for inner in plan.inner for d in digits[inner.loop]]


def reorder_reductions(plan: Plan, found: Sequence[Dependence], remark: Remark) -> None:
    """With reassociation allowed: the loops inside the tile follow the memory order of the
    operand they walk most (the weights of a convolution: `c floordiv 16, kh, kw, c mod 16`),
    provided every dependence they carry is an accumulator's own reduction."""
    nest = plan.nest
    inner = {d.loop for d in plan.inner}
    reductions = {
        op for pair in plan.hoisted if is_reduction(*pair) for op in (pair[0].op, pair[1].op)
    }
    for dependence in found:
        carrier = dependence.carrier
        if carrier is None or carrier not in inner:
            continue
        if not {dependence.source.op, dependence.sink.op} <= reductions:
            remark(
                f"reduction loops keep their order: {nest.loops[carrier].name(carrier)} carries "
                f"a dependence from {dependence.source.op.name} to {dependence.sink.op.name} "
                "that is not an accumulator's reduction"
            )
            return
    guide = _guide(plan, inner)
    if guide is None:
        return
    digits = strip_mine(nest, guide, buffer_layout(guide.buffer))
    ordered = [d for loop in sorted(inner) for d in digits[loop]]
    plan.inner = sorted(ordered, key=lambda d: (d.rank, d.loop, -d.weight))


def _guide(plan: Plan, inner: set[int]) -> Access | None:
    """The read that walks the most inner loops (a layout-typed one first)."""
    hoisted = {a.op for pair in plan.hoisted for a in pair}
    reads = [a for a in plan.nest.accesses.values() if not a.write and a.op not in hoisted]
    if not reads:
        return None

    def walked(access: Access) -> tuple[int, bool]:
        count = sum(plan.nest.uses_loop(access, loop) for loop in inner)
        return count, layout_of(access.buffer.type) is not None

    best = max(reads, key=walked)
    return best if walked(best)[0] > 1 else None
