"""The index simplifier keeps every expression's value on its ranges, and removes what they prove."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.ir.affine import AffineExpr

from heterolayout.layout.simplify import IndexSimplifier, simplify_expr

d0, d1, d2 = (AffineExpr.dimension(i) for i in range(3))


def _exprs(depth: int) -> st.SearchStrategy[AffineExpr]:
    leaves = st.sampled_from([d0, d1, d2]) | st.integers(-5, 20).map(AffineExpr.constant)
    if depth == 0:
        return leaves
    sub = _exprs(depth - 1)
    positive = st.integers(1, 12)
    return st.one_of(
        leaves,
        st.tuples(sub, sub).map(lambda p: p[0] + p[1]),
        st.tuples(sub, st.integers(-4, 16)).map(lambda p: p[0] * p[1]),
        st.tuples(sub, positive).map(lambda p: p[0] // p[1]),
        st.tuples(sub, positive).map(lambda p: p[0] % p[1]),
        st.tuples(sub, positive).map(lambda p: p[0].ceil_div(p[1])),
    )


ranges = st.lists(
    st.tuples(st.integers(-6, 20), st.integers(0, 12)).map(lambda p: (p[0], p[0] + p[1])),
    min_size=3,
    max_size=3,
)


@settings(max_examples=400, deadline=None)
@given(_exprs(3), ranges)
def test_simplified_expression_has_the_same_value_on_the_box(expr: AffineExpr, bounds) -> None:
    dim_ranges = dict(enumerate(bounds))
    simplified = simplify_expr(expr, dim_ranges)
    boxes = [range(low, high + 1) for low, high in bounds]
    for point in itertools.islice(itertools.product(*boxes), 600):
        assert simplified.eval(list(point), []) == expr.eval(list(point), []), (
            expr,
            simplified,
            point,
        )


@settings(max_examples=200, deadline=None)
@given(_exprs(3), ranges)
def test_range_of_contains_every_value(expr: AffineExpr, bounds) -> None:
    simplifier = IndexSimplifier(dict(enumerate(bounds)))
    found = simplifier.range_of(expr)
    if found is None:
        return
    boxes = [range(low, high + 1) for low, high in bounds]
    for point in itertools.islice(itertools.product(*boxes), 600):
        assert found[0] <= expr.eval(list(point), []) <= found[1]


def test_blocked_walk_needs_no_division() -> None:
    channel = d0 * 16 + d1
    box = {0: (0, 3), 1: (0, 15)}
    assert simplify_expr(channel // 16, box) == d0
    assert simplify_expr(channel % 16, box) == d1


def test_floordiv_times_divisor_plus_mod_is_the_value() -> None:
    assert simplify_expr((d0 // 8) * 8 + d0 % 8) == d0
    assert simplify_expr(((d0 // 8) * 8 + d0 % 8) * 3 + d1) == d0 * 3 + d1


def test_nested_divisions_merge() -> None:
    assert str(simplify_expr((d0 // 2) // 4)) == "(d0 floordiv 8)"
    assert str(simplify_expr((d0 % 32) // 8)) == "((d0 floordiv 8) mod 4)"
    assert str(simplify_expr((d0 % 32) % 8)) == "(d0 mod 8)"


def test_ranges_remove_divisions_and_moduli() -> None:
    assert simplify_expr(d0 // 8, {0: (0, 7)}) == AffineExpr.constant(0)
    assert simplify_expr(d0 % 8, {0: (0, 7)}) == d0
    assert simplify_expr((d0 + 8) // 8, {0: (0, 7)}) == AffineExpr.constant(1)


def test_unknown_ranges_keep_the_division() -> None:
    assert str(simplify_expr(d0 // 8)) == "(d0 floordiv 8)"
    assert str(simplify_expr((d0 * 4 + d1) % 2)) == "(d1 mod 2)"
