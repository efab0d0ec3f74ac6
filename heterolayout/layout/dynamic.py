"""Physical extents of layouts with `?` dims, as expressions of the logical sizes.

A result that uses a `?` dim reaches, over every size of it, at most an expression of the
sizes: `d0 floordiv 4` on n elements reaches `(n - 1) floordiv 4`, so its physical extent is
`n ceildiv 4`; `d0 mod 4` stays below 4 whatever n is. The bound comes from interval
arithmetic over the result (exact for digits and for linear forms with non-negative
coefficients), as an `AffineExpr` over dims that stand for the logical sizes (`d<i>` is the
size of logical dim i). A result that may fall below zero for some size is refused.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import format_expr, linear_form

Shape = tuple[int | None, ...]

_MAX_PERIOD = 256
"""The largest period a representative size is built from (see `representative_sizes`)."""


def extent_expr(result: AffineExpr, shape: Shape, where: str) -> AffineExpr:
    """max + 1 of `result` over the logical box, for every size of its `?` dims: an
    expression over the sizes (a constant when no size can raise it)."""
    low, high = _bounds(result, shape, where)
    if low < 0:
        raise LayoutError(f"{where}: result '{format_expr(result)}' can be negative ({low})")
    return canonical_extent(high + 1, len(shape))


def sizes_map(shape: Shape, extents: Sequence[AffineExpr]) -> AffineMap:
    """The map from the logical sizes to the physical extents."""
    return AffineMap(len(shape), 0, tuple(extents))


def evaluate_extents(extents: Sequence[AffineExpr], shape: Sequence[int]) -> tuple[int, ...]:
    """The physical extents at concrete logical sizes."""
    return tuple(int(e.eval(list(shape), [])) for e in extents)


def representative_sizes(shape: Shape, index_map: AffineMap) -> tuple[int, ...]:
    """A size for each `?` dim at which a clash or a partial tile shows if any size has
    one: twice the period (the lcm of the divisors and moduli of the results that use the
    dim) plus one. A digit map of one dim repeats with that period, so two indices that
    clash at some size clash within two periods."""
    sizes = []
    for dim, extent in enumerate(shape):
        if extent is not None:
            sizes.append(extent)
            continue
        period = 1
        for result in index_map.results:
            if dim in result.used_dims():
                for divisor in _divisors(result):
                    period = math.lcm(period, divisor)
        sizes.append(2 * min(period, _MAX_PERIOD) + 1)
    return tuple(sizes)


def canonical_extent(expr: AffineExpr, rank: int) -> AffineExpr:
    """`(X floordiv c) + k` as `(X + (k - 1)·c + 1) ceildiv c`, linear parts as `Σ c·d + k`:
    the forms upstream writes (`d0 ceildiv 4`)."""
    form = linear_form(expr, rank)
    if form is not None:
        return _linear(*form)
    if (
        isinstance(expr, AffineBinaryOpExpr)
        and expr.kind == AffineBinaryOpKind.Add
        and isinstance(expr.rhs, AffineConstantExpr)
        and isinstance(expr.lhs, AffineBinaryOpExpr)
        and expr.lhs.kind == AffineBinaryOpKind.FloorDiv
        and isinstance(expr.lhs.rhs, AffineConstantExpr)
        and expr.rhs.value >= 1
    ):
        divisor = expr.lhs.rhs.value
        inner = canonical_extent(expr.lhs.lhs + ((expr.rhs.value - 1) * divisor + 1), rank)
        return inner.ceil_div(divisor)
    return expr


def _linear(coefficients: Sequence[int], constant: int) -> AffineExpr:
    total: AffineExpr | None = None
    for dim, coefficient in enumerate(coefficients):
        if coefficient:
            term = AffineExpr.dimension(dim)
            term = term if coefficient == 1 else term * coefficient
            total = term if total is None else total + term
    if total is None:
        return AffineExpr.constant(constant)
    return total + constant if constant else total


def _divisors(expr: AffineExpr) -> list[int]:
    if not isinstance(expr, AffineBinaryOpExpr):
        return []
    found = _divisors(expr.lhs) + _divisors(expr.rhs)
    if expr.kind != AffineBinaryOpKind.Add and isinstance(expr.rhs, AffineConstantExpr):
        found.append(abs(expr.rhs.value) or 1)
    return found


def _bounds(expr: AffineExpr, shape: Shape, where: str) -> tuple[int, AffineExpr]:
    """(constant lower bound, upper bound over the sizes) of `expr` over the box."""
    if isinstance(expr, AffineDimExpr):
        extent = shape[expr.position]
        if extent is None:
            return 0, AffineExpr.dimension(expr.position) - 1
        return 0, AffineExpr.constant(max(extent - 1, 0))
    if isinstance(expr, AffineConstantExpr):
        return expr.value, expr
    if not isinstance(expr, AffineBinaryOpExpr):
        raise LayoutError(f"{where}: '{format_expr(expr)}' uses a symbol")
    if expr.kind == AffineBinaryOpKind.Add:
        (low_a, high_a), (low_b, high_b) = (_bounds(e, shape, where) for e in (expr.lhs, expr.rhs))
        return low_a + low_b, high_a + high_b
    if expr.kind == AffineBinaryOpKind.Mul:
        factor, other = (
            (expr.lhs, expr.rhs)
            if isinstance(expr.lhs, AffineConstantExpr)
            else (expr.rhs, expr.lhs)
        )
        assert isinstance(factor, AffineConstantExpr), "layout maps are quasi-affine"
        low, high = _bounds(other, shape, where)
        if factor.value >= 0:
            return low * factor.value, high * factor.value
        if not isinstance(high, AffineConstantExpr):
            raise LayoutError(
                f"{where}: result part '{format_expr(expr)}' falls as a '?' size grows, so "
                "the result is negative for large sizes"
            )
        return high.value * factor.value, AffineExpr.constant(low * factor.value)
    assert isinstance(expr.rhs, AffineConstantExpr), "layout maps are quasi-affine"
    divisor = expr.rhs.value
    low, high = _bounds(expr.lhs, shape, where)
    if expr.kind == AffineBinaryOpKind.FloorDiv:
        return low // divisor, high // divisor
    if expr.kind == AffineBinaryOpKind.CeilDiv:
        return -(-low // divisor), high.ceil_div(divisor)
    if isinstance(high, AffineConstantExpr) and low >= 0 and high.value < divisor:
        return low, high
    return 0, AffineExpr.constant(divisor - 1)
