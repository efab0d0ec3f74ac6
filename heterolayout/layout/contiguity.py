"""Contiguity: how far each logical dim walks memory one slot at a time.

`contiguous_runs(layout)` gives, per logical dim, the longest aligned run of consecutive
slots (`Layout.contiguous_run`): the largest L such that from every index whose coordinate
along the dim is a multiple of L, each of the next L - 1 steps along it (inside the extent)
moves the offset by exactly one slot. nChw16c: 16 along c; NCHW: W along w; `W->W4w`: the
whole of w (its blocks follow each other); 1 along a dim with no unit step.

The answer is exact and cheap, without enumerating the buffer: the step's offset difference
is a quasi-affine function that is periodic in every dim (with the least common multiple of
the divisors its floordiv/mod nodes apply to that dim, nested divisors multiplied), so the
other dims need only one period each, and only the stepped dim is walked whole.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.ir.affine import AffineBinaryOpExpr, AffineConstantExpr, AffineExpr

from heterolayout.layout.expressions import DIVISION_KINDS, evaluate, index_grids


def period(expr: AffineExpr, dim: int, scale: int = 1) -> int:
    """A period of `expr`'s non-affine part in `dim`: shifting `dim` by it shifts every
    floordiv/mod argument by a multiple of its divisor."""
    if not isinstance(expr, AffineBinaryOpExpr):
        return 1
    if expr.kind in DIVISION_KINDS and isinstance(expr.rhs, AffineConstantExpr):
        if dim not in expr.lhs.used_dims():
            return 1
        inner = scale * expr.rhs.value
        return math.lcm(inner, period(expr.lhs, dim, inner))
    return math.lcm(period(expr.lhs, dim, scale), period(expr.rhs, dim, scale))


def contiguous_runs(
    results: tuple[AffineExpr, ...], shape: tuple[int, ...], physical: tuple[int, ...]
) -> tuple[int, ...]:
    """The aligned run of consecutive slots along every logical dim of the map `results`
    from the logical box `shape` into the buffer of shape `physical`."""
    strides = [math.prod(physical[p + 1 :]) for p in range(len(physical))]
    periods = [math.lcm(*(period(r, j) for r in results)) for j in range(len(shape))]
    return tuple(
        _run_length(results, strides, shape, periods, dim) if extent > 1 else 1
        for dim, extent in enumerate(shape)
    )


def _run_length(
    results: tuple[AffineExpr, ...],
    strides: list[int],
    shape: tuple[int, ...],
    periods: list[int],
    dim: int,
) -> int:
    box = [min(extent, p) for extent, p in zip(shape, periods, strict=True)]
    box[dim] = shape[dim] - 1
    grids = index_grids(box)
    moved = list(grids)
    moved[dim] = grids[dim] + 1
    step: np.ndarray | int = 0
    for stride, result in zip(strides, results, strict=True):
        step = step + stride * (evaluate(result, moved) - evaluate(result, grids))
    unit = np.broadcast_to(np.asarray(step) == 1, box)
    others = tuple(j for j in range(len(shape)) if j != dim)
    good = unit.all(axis=others) if others else unit
    broken = [int(i) + 1 for i in np.flatnonzero(~good)]
    return math.gcd(*broken) if broken else shape[dim]
