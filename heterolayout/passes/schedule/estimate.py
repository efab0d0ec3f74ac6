"""A plan's rough instruction count, to choose between the plans a nest may take.

Partial results along a reduction (`vectorize_reduction`) and gathered reads along a
parallel loop (`_gatherable`) each cost something the plain vector plan does not: every
result folds its vector of partial results (log2 V shuffles and as many combining ops), and
every gather loads its lanes one by one (a load and an insert per lane), once for all the
register tile's copies that share it. A short reduction (a grouped convolution's 8 input
channels under nChw16c) makes the folds dominate, a long one (a matmul against a transposed
B) the gathers: the estimate says which, in the same unit for both, operations on vectors
or scalars of the innermost statements.
"""

from __future__ import annotations

import math

from heterolayout.passes.schedule.nest import Access, is_index_op
from heterolayout.passes.schedule.plan import Plan
from heterolayout.passes.schedule.register_tiling import vector_length

LANE_OPERATIONS = 2
"""A gathered lane: a scalar load and an insert into the vector."""


def operations(plan: Plan) -> float:
    """The plan's operations over the whole nest: the innermost statements once per vector
    (or element), each fold of partial results, each gathered lane."""
    nest = plan.nest
    iterations = math.prod(loop.trips for loop in nest.loops)
    length = vector_length(plan)
    hoisted = {a.op for pair in plan.hoisted for a in pair}
    statements = [
        op for op in nest.body if not is_index_op(op) and op not in hoisted and op.results
    ]
    total = iterations / length * max(1, len(statements))
    if plan.partials:
        loops = {d.loop for d in plan.inner} | {d.loop for d in plan.tile if d.kind == "vector"}
        reduced = max(1, math.prod(nest.loops[loop].trips for loop in loops))
        folds = iterations / reduced * len(plan.partials)
        total += folds * (2 * math.log2(length) + 1)
    for op in plan.gathered:
        total += iterations * LANE_OPERATIONS / _sharing(plan, nest.accesses[op])
    return total


def _sharing(plan: Plan, read: Access) -> int:
    """The register tile's copies that load one gather of `read`: those along the loops it
    does not depend on."""
    nest = plan.nest
    shared = 1
    for digit in [d for d in plan.tile if d.kind == "unroll"]:
        if nest.uses_loop(read, digit.loop):
            continue
        size = min(
            (d.weight for d in plan.outer if d.loop == digit.loop and d.weight > digit.weight),
            default=nest.loops[digit.loop].trips,
        )
        shared *= max(1, min(size, nest.loops[digit.loop].trips) // digit.weight)
    return shared
