"""A long sum walked block by block around the tiles, so each block's operands stay in L1.

A register tile's reduction loops read, for every tile, all of the operand its copies share:
a 3×3 convolution's weights for one tile of 16 output channels over 64 input channels are
64 · 3 · 3 · 16 · 4 bytes = 36 KB. When the reads of one tile are more than L1 holds, every
tile reads them from L2 again, in a cycle longer than L1, so each line misses. Moving the
heaviest digit of the outermost reduction loop (the input-channel block, `%c/16`) out to
the loops around the tile, just inside the loops that operand depends on, keeps one block's
share (9 KB) in L1 for all the tiles that use it: each accumulator is then loaded and stored
once per block, as oneDNN's direct convolutions do (`IC_FLAG_FIRST`/`IC_FLAG_LAST`).

The additions into each accumulator keep their order (the blocks run in order, and the loops
inside each keep theirs), so the exact mode may do it as well. The statements before the
reduction loops (a zeroed output pixel) run with the first block only and the ones after
them (a fused epilogue) with the last (`NestEmitter`). It needs every loop around the tile to
carry no dependence, every dependence the reduction loop carries to be an accumulator's own
sum, and no value the statements before the sums compute to be used after them. On the AVX2
exact conv of benchmarks/schedule.py it took the kernel from 0.86 to 0.90–0.91 of oneDNN
(best calls, benchmarks/RESULTS.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.ir import Operation

from heterolayout.passes.schedule.dependence import Dependence
from heterolayout.passes.schedule.nest import Access
from heterolayout.passes.schedule.plan import Digit, Plan
from heterolayout.passes.schedule.reductions import is_reduction
from heterolayout.passes.schedule.vectorization import element_bits

L1_BYTES = 32 * 1024
"""The L1 data cache the blocks are sized for: the smallest of the x86 and Arm cores the
targets stand for (Haswell to Zen 4, Neoverse N1: 32 KB; newer ones have 48 or 64)."""


def block_reductions(
    plan: Plan, parallel: set[int], found: Sequence[Dependence]
) -> tuple[Digit, int] | None:
    """Move the outermost reduction loop's block digit out of the tile where one tile's reads
    exceed `L1_BYTES` and one block's fit; (the digit, the tile's bytes before) if it moved."""
    if not plan.hoisted or plan.partials or plan.block_depth is not None or not plan.inner:
        return None
    block = plan.inner[0]
    loop = block.loop
    rest = [d for d in plan.inner[1:] if d.loop == loop]
    if not rest or plan.nest.loops[loop].trips <= block.weight:
        return None
    if any(d.loop not in parallel for d in plan.outer):
        return None
    if not _only_sums(plan, loop, found) or _used_after_pre(plan):
        return None
    before = tile_bytes(plan)
    at = _place(plan, loop)
    if at == len(plan.outer):
        return None
    moved = [*plan.outer[:at], block, *plan.outer[at:]]
    after = tile_bytes(plan, moved)
    if before <= L1_BYTES or after > L1_BYTES:
        return None
    plan.outer = moved
    plan.inner = plan.inner[1:]
    plan.reduction_block = block
    return block, before


def tile_bytes(plan: Plan, outer: list[Digit] | None = None) -> int:
    """Bytes one tile reads in its reduction loops (each read's box of elements, the
    accumulators aside), with `outer` the loops around the tile."""
    extents = _extents(plan, plan.outer if outer is None else outer)
    return sum(_bytes(a, extents, plan.nest.rank) for a in _reads(plan))


def _extents(plan: Plan, outer: list[Digit]) -> list[int]:
    """How many steps each loop takes within one tile: its lightest digit around the tile,
    or all of its trips when none is."""
    extents = []
    for loop, info in enumerate(plan.nest.loops):
        steps = [d.weight for d in outer if d.loop == loop]
        extents.append(min(steps) if steps else info.trips)
    return extents


def _reads(plan: Plan) -> list[Access]:
    hoisted = {a.op for pair in plan.hoisted for a in pair}
    return [a for a in plan.nest.accesses.values() if not a.write and a.op not in hoisted]


def _bytes(access: Access, extents: list[int], rank: int) -> int:
    return _elements(access, extents, rank) * element_bits(access.buffer) // 8


def _elements(access: Access, extents: list[int], rank: int) -> int:
    """The elements `access` touches while each loop `l` runs `extents[l]` steps."""
    forms = access.linear(rank)
    if forms is None:
        used = {d for e in access.exprs for d in e.used_dims() if d < len(extents)}
        return math.prod(extents[d] for d in used)
    return math.prod(
        1 + sum(abs(c) * (extents[d] - 1) for d, c in enumerate(coefficients[: len(extents)]))
        for coefficients, _ in forms
    )


def _only_sums(plan: Plan, loop: int, found: Sequence[Dependence]) -> bool:
    """Whether every dependence `loop` carries is an accumulator's own sum."""
    sums = {op for pair in plan.hoisted if is_reduction(*pair) for op in (pair[0].op, pair[1].op)}
    return all({d.source.op, d.sink.op} <= sums for d in found if d.carrier == loop)


def _used_after_pre(plan: Plan) -> bool:
    """Whether a value the statements before the reduction loops compute is used after them:
    only the first block runs those statements."""
    pre = set(plan.nest.pre)
    return any(
        isinstance(operand.owner, Operation) and operand.owner in pre
        for op in (*plan.nest.body, *plan.nest.post)
        for inner in op.walk()
        for operand in inner.operands
    )


def _place(plan: Plan, loop: int) -> int:
    """Just inside the loops around the tile that the read the block walks with the most
    bytes per tile depends on (a convolution's weights: the output-channel blocks), so that
    read's block stays in L1 while the tiles inside reuse it."""
    walking = [a for a in _reads(plan) if any(loop in e.used_dims() for e in a.exprs)]
    if not walking:
        return 0
    extents = _extents(plan, plan.outer)
    largest = max(walking, key=lambda a: _bytes(a, extents, plan.nest.rank))
    used = {d for e in largest.exprs for d in e.used_dims()}
    positions = [i for i, d in enumerate(plan.outer) if d.loop in used]
    return positions[-1] + 1 if positions else 0
