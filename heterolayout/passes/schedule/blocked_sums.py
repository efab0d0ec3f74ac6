"""Blocked sums: with `reassociate`, a long float sum adds its terms in blocks into fresh
partial results, and each block's result into the accumulator.

Added one by one, the rounding errors of n terms grow with n (the bound is n units in the
last place of the sum of their magnitudes); summed in blocks of b, with b + n/b. GEMM
libraries block the reduction dim the same way (onnxruntime's MLAS by 128 terms, 256 with
packed weights). The error of a 77×512 by 512×512 f32 matmul against a float64 one,
emulated in numpy: terms added one by one 2.8e-5 at most, blocks of 256 1.8e-5 (what
onnxruntime and OpenBLAS get on it), 128 9.6e-6, 64 6.3e-6. A block's accumulators stay in
registers; the totals they are added into live across the block's loops (LLVM keeps them on
the stack, outside the hot loop) and are read once per block.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith

from heterolayout.passes.schedule.nest import NotScheduled
from heterolayout.passes.schedule.plan import Digit, Plan
from heterolayout.passes.schedule.reductions import combining

SUM_BLOCK = 64
"""The terms of a block where the reduction loops are split to make one. On Zen 5 the 512³
matmul of benchmarks/schedule.py ran at the same speed unblocked and in blocks of 64, 96 or
256, and 22% slower in blocks of 128 (the same code but for the trip count)."""
LONGEST = 256
"""The longest sum added one by one: a longer one is blocked, at the outermost reduction
loop whose iterations each add at most this many terms (a 3×3 convolution's 144 per block
of 16 input channels) when they are at least `SHORTEST`, else in blocks of `SUM_BLOCK`.
With 128, benchmarks/models.py's encoder (matmuls of 256 terms) came 1.4e-5 from its
float64 evaluation at most and 2.0e-7 on average instead of 4.3e-5 and 5.1e-7
(onnxruntime: 2.6e-5 and 3.8e-7), but ran 7% slower (0.79 → 0.86× onnxruntime)."""
SHORTEST = 32


def block_sums(plan: Plan) -> None:
    """Where every accumulator is a float sum of more than `LONGEST` terms: split the
    reduction loops into blocks and record where a block starts (`Plan.block_depth`)."""
    if plan.partials or not plan.hoisted or not plan.inner:
        return
    try:
        found = combining(plan.hoisted, reassociate=True)
    except NotScheduled:
        return
    if not all(isinstance(op, arith.AddfOp) for op in found):
        return
    trips = [digit_trips(plan, digit) for digit in plan.inner]
    if math.prod(trips) <= LONGEST:
        return
    depth = next(d for d in range(len(trips) + 1) if math.prod(trips[d:]) <= LONGEST)
    within = math.prod(trips[depth:])
    if within < SHORTEST:
        coarse = plan.inner[depth - 1]
        plan.inner.insert(depth - 1, coarse.but(weight=coarse.weight * (SUM_BLOCK // within)))
    plan.block_depth = depth
    plan.blocked = found


def digit_trips(plan: Plan, digit: Digit) -> int:
    """How many values the digit takes: up to the next heavier digit of its loop, or the
    loop's trip count."""
    heavier = [d.weight for d in plan.digits_of(digit.loop) if d.weight > digit.weight]
    span = min(heavier, default=plan.nest.loops[digit.loop].trips)
    return -(-min(span, plan.nest.loops[digit.loop].trips) // digit.weight)
