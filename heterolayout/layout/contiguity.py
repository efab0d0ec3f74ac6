"""Contiguity: which logical dim walks the innermost physical dim with unit stride, and how
far.

`contiguous_run(layout)` answers with a `ContiguousRun(dim, length)`: stepping logical dim
`dim` by one moves one slot forward along the innermost physical dim (every other physical
index unchanged), except from the last element of each run of `length` values (runs start
at multiples of `length`; `length` equal to the extent means the whole dim is one run), so a
run is consecutive in memory and inside one row of the physical buffer. nChw16c: (c, 16);
NCHW: (w, W); `W->W4w`: (w, 4), although the whole of w is consecutive in memory; a
strided layout with unit stride on its last dim: (that dim, its extent).

The answer is exact and cheap: the step's offset difference is a quasi-affine function that
is periodic in every dim (with the least common multiple of the divisors its floordiv/mod
nodes apply to that dim, nested divisors multiplied), so evaluating it over one period per
dim decides it for the whole logical box.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineExpr

from heterolayout.layout.expressions import evaluate, index_grids

if TYPE_CHECKING:
    from heterolayout.layout.model import Layout

_DIVISIONS = (AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv, AffineBinaryOpKind.Mod)


@dataclass(frozen=True)
class ContiguousRun:
    dim: int
    """The logical dim that walks memory with unit stride."""
    length: int
    """How many consecutive values of `dim` (from a multiple of `length`) are consecutive
    slots; the extent of `dim` when the whole dim is one run."""


def period(expr: AffineExpr, dim: int, scale: int = 1) -> int:
    """A period of `expr`'s non-affine part in `dim`: shifting `dim` by it shifts every
    floordiv/mod argument by a multiple of its divisor."""
    if not isinstance(expr, AffineBinaryOpExpr):
        return 1
    if expr.kind in _DIVISIONS and isinstance(expr.rhs, AffineConstantExpr):
        if dim not in expr.lhs.used_dims():
            return 1
        inner = scale * expr.rhs.value
        return math.lcm(inner, period(expr.lhs, dim, inner))
    return math.lcm(period(expr.lhs, dim, scale), period(expr.rhs, dim, scale))


def contiguous_run(layout: Layout) -> ContiguousRun | None:
    """The longest unit-stride run of a logical dim along the innermost physical dim, or None
    (a dynamic layout, or no dim that walks it with unit stride for two elements)."""
    if layout.is_dynamic:
        return None
    shape: tuple[int, ...] = layout.logical_shape  # type: ignore[assignment]
    results = layout.index_map.results
    best: ContiguousRun | None = None
    for dim in sorted(results[-1].used_dims()):
        if shape[dim] < 2:
            continue
        periods = [math.lcm(*(period(r, j) for r in results)) for j in range(len(shape))]
        length = _run_length(results, shape, periods, dim)
        if length > 1 and (best is None or length > best.length):
            best = ContiguousRun(dim, length)
    return best


def _run_length(
    results: tuple[AffineExpr, ...],
    shape: tuple[int, ...],
    periods: list[int],
    dim: int,
) -> int:
    steps = shape[dim] - 1
    checked = min(steps, periods[dim])
    box = [min(extent, p) for extent, p in zip(shape, periods, strict=True)]
    box[dim] = checked
    grids = index_grids(box)
    moved = list(grids)
    moved[dim] = grids[dim] + 1
    unit = np.ones(box, dtype=bool)
    for position, result in enumerate(results):
        step = 1 if position == len(results) - 1 else 0
        unit &= np.asarray(evaluate(result, moved) - evaluate(result, grids)) == step
    others = tuple(j for j in range(len(shape)) if j != dim)
    good = unit.all(axis=others) if others else unit
    bad = np.flatnonzero(~good)
    if bad.size == 0:
        return shape[dim]
    length = math.gcd(*(int(i) + 1 for i in bad))
    if checked < steps:
        length = math.gcd(length, periods[dim])
    return length
