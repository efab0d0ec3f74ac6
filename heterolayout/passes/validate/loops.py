"""The values a loop variable takes, for translation validation: its loop's constant
bounds and step (`scf.for`, `affine.for`), or, up to a dynamic bound, its first value and
step."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr

UNKNOWN_BOUND = 2**62
"""The last value of a loop variable whose upper bound is not a constant."""


def loop_bounds(value: SSAValue) -> tuple[int, int, int] | None:
    """First value, last value (at most) and step of a loop variable whose loop has a
    constant lower bound and step; the last is `UNKNOWN_BOUND` when the upper bound is
    not a constant (a loop variable never goes below its lower bound)."""
    block = value.owner
    if not isinstance(block, Block) or block.parent_op() is None or value.index != 0:  # type: ignore[attr-defined]
        return None
    loop = block.parent_op()
    if isinstance(loop, scf.ForOp):
        low, high, step = (_constant(v) for v in (loop.lb, loop.ub, loop.step))
    elif isinstance(loop, affine.ForOp):
        low = _constant_map(loop.lowerBoundMap.data.results, max)
        high = _constant_map(loop.upperBoundMap.data.results, min)
        step = loop.step.value.data
    else:
        return None
    if low is None or step is None or step <= 0:
        return None
    return low, UNKNOWN_BOUND if high is None else high - 1, step


def _constant_map(results: Sequence[AffineExpr], pick: Callable[..., int]) -> int | None:
    """The bound a loop's bound map gives when every result is a constant."""
    values = [r.value for r in results if isinstance(r, AffineConstantExpr)]
    return pick(values) if values and len(values) == len(results) else None


def loop_points(value: SSAValue) -> np.ndarray | None:
    """The values a loop variable takes, when its loop has constant bounds and step."""
    bounds = loop_bounds(value)
    if bounds is None or bounds[1] == UNKNOWN_BOUND:
        return None
    low, high, step = bounds
    return np.arange(low, high + 1, step, dtype=np.int64)


def _constant(value: SSAValue) -> int | None:
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None
