"""The algebra of `?` dims a layout tiles: `Layout.extents` (each physical extent as an
expression of the logical sizes), pad slots and injectivity at every size, checked point by
point against a brute-force evaluation of the map over the box at concrete sizes."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from heterolayout import Layout, LayoutError, parse_layout
from heterolayout.layout.dynamic import evaluate_extents, representative_sizes
from heterolayout.layout.expressions import evaluate, format_expr, index_grids
from heterolayout.layout.maps import parse_affine_map

SMALL = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def results(draw: st.DrawFn, dims: int) -> str:
    """A digit of a dim, shifted and scaled first, or a linear form with non-negative
    coefficients: the forms whose extent is a bound heterolayout computes."""
    dim = f"d{draw(st.integers(0, dims - 1))}"
    scale, shift = draw(st.integers(1, 3)), draw(st.integers(0, 5))
    inner = f"{dim} * {scale} + {shift}" if scale > 1 or shift else dim
    divisor, modulus = draw(st.integers(1, 6)), draw(st.integers(2, 6))
    other = f"d{draw(st.integers(0, dims - 1))}"
    return draw(
        st.sampled_from(
            [
                dim,
                f"({inner}) floordiv {divisor}",
                f"({inner}) mod {modulus}",
                f"(({inner}) floordiv {divisor}) mod {modulus}",
                f"({inner}) ceildiv {divisor}",
                f"{inner} + {other} * {draw(st.integers(0, 4))}",
            ]
        )
    )


@st.composite
def dynamic_maps(draw: st.DrawFn) -> tuple[str, tuple[int | None, ...]]:
    rank = draw(st.integers(1, 2))
    count = draw(st.integers(1, 3))
    exprs = [draw(results(rank)) for _ in range(count)]
    for dim in range(rank):  # every dim used, so the map can be injective, or clash
        block, modulus = draw(st.integers(1, 6)), draw(st.integers(1, 6))
        exprs += draw(
            st.sampled_from(
                [[f"d{dim}"], [f"d{dim} floordiv {block}", f"d{dim} mod {modulus}"], []]
            )
        )
    shape = tuple(
        None if draw(st.booleans()) or d == 0 else draw(st.integers(1, 5)) for d in range(rank)
    )
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(exprs)})>", shape


def _brute_extents(index_map: str, shape: tuple[int, ...]) -> list[int]:
    parsed = parse_affine_map(index_map)
    grids = index_grids(shape)
    return [int(np.max(evaluate(r, grids))) + 1 for r in parsed.results]


def _sizes(shape: tuple[int | None, ...], n: int) -> tuple[int, ...]:
    return tuple(n if e is None else e for e in shape)


@SMALL
@given(case=dynamic_maps())
def test_extents_hold_every_result_at_every_size(case: tuple[str, tuple[int | None, ...]]) -> None:
    """At every size 1..12 the extent expressions hold every result (≥ its max + 1); a
    result without `mod` reaches its extent exactly."""
    index_map, shape = case
    try:
        layout = parse_layout(f"#layout.map<{index_map}>", shape)
    except LayoutError as error:  # a clash, or a degenerate map too large to check
        assert "not injective" in str(error) or "beyond the limit" in str(error)
        return
    parsed = parse_affine_map(index_map)
    for n in range(1, 13):
        sizes = _sizes(shape, n)
        extents = evaluate_extents(layout.extents, sizes)
        brute = _brute_extents(index_map, sizes)
        for result, extent, needed in zip(parsed.results, extents, brute, strict=True):
            text = format_expr(result)
            assert extent >= needed, (index_map, sizes, text)
            if "mod" not in text:
                assert extent == needed, (index_map, sizes, text)
        assert layout.specialize(sizes).physical_shape == extents


@SMALL
@given(case=dynamic_maps())
def test_injectivity_and_pad_slots_as_at_every_size(
    case: tuple[str, tuple[int | None, ...]],
) -> None:
    """A map the representative size finds injective is injective at every size up to three
    periods, and `has_pad_slots` is true exactly when some size leaves a slot unused."""
    index_map, shape = case
    parsed = parse_affine_map(index_map)
    period = (representative_sizes(shape, parsed)[0] - 1) // 2
    try:
        layout = parse_layout(f"#layout.map<{index_map}>", shape)
    except LayoutError as error:  # a clash, or a degenerate map too large to check
        assert "not injective" in str(error) or "beyond the limit" in str(error)
        return
    padded = False
    for n in range(1, 3 * period + 2):
        sizes = _sizes(shape, n)
        physical = evaluate_extents(layout.extents, sizes)
        grids = index_grids(sizes)
        offsets = np.zeros(sizes, dtype=np.int64)
        for result, stride in zip(parsed.results, _strides(physical), strict=True):
            offsets = offsets + np.asarray(evaluate(result, grids)) * stride
        assert len(np.unique(offsets)) == math.prod(sizes), (index_map, sizes)
        padded = padded or math.prod(physical) != math.prod(sizes)
    assert layout.has_pad_slots == padded


def _strides(shape: tuple[int, ...]) -> list[int]:
    return [math.prod(shape[i + 1 :]) for i in range(len(shape))]


@pytest.mark.parametrize(
    ("spec", "shape", "extents", "physical"),
    [
        ("affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>", (None,), ["d0 ceildiv 4", "4"], "?x?"),
        (
            "#layout.map<affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>>",
            (None,),
            ["d0 ceildiv 4", "4"],
            "?x4",
        ),
        (
            "NCHW->NCHW16c",
            (1, None, 56, 56),
            ["1", "d1 ceildiv 16", "56", "56", "16"],
            "1x?x56x56x16",
        ),
        (
            "affine_map<(d0) -> ((d0 + 3) floordiv 4, (d0 + 3) mod 4)>",
            (None,),
            ["(d0 + 3) ceildiv 4", "4"],
            "?x?",
        ),
        # upstream's size for a tile of 2·d0 (`(d0 * 2) ceildiv 4`) holds it: kept
        (
            "affine_map<(d0) -> ((d0 * 2) floordiv 4, (d0 * 2) mod 4)>",
            (None,),
            ["(d0 * 2) ceildiv 4", "4"],
            "?x?",
        ),
        (
            "affine_map<(d0, d1) -> (d0 + 2, d1 floordiv 4, d1 mod 4)>",
            (None, 10),
            ["d0 + 2", "3", "4"],
            "?x3x4",
        ),
        (
            "affine_map<(d0) -> (d0 floordiv 16, (d0 floordiv 4) mod 4, d0 mod 4)>",
            (None,),
            ["d0 ceildiv 16", "4", "4"],
            "?x?x?",
        ),
    ],
)
def test_extents_of_notations(
    spec: str, shape: tuple[int | None, ...], extents: list[str], physical: str
) -> None:
    """Builtin maps take upstream's physical type (`?` for every result using a `?` dim)
    and size; tags and `#layout.map` keep constant extents static."""
    layout = parse_layout(spec, shape)
    assert [format_expr(e) for e in layout.extents] == extents
    assert "x".join("?" if e is None else str(e) for e in layout.physical_shape) == physical
    assert layout.has_tiled_dynamic_dims and layout.has_pad_slots
    assert isinstance(layout, Layout)


def test_specialize_and_pack_round_trip_at_a_partial_tile() -> None:
    """7 elements tiled by 4: a 2x4 buffer, the last slot pad."""
    layout = parse_layout("affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>", (None,), pad=-1)
    static = layout.specialize((7,))
    assert static.physical_shape == (2, 4)
    data = np.arange(7, dtype=np.float32)
    packed = static.pack(data)
    assert packed.ravel().tolist() == [0, 1, 2, 3, 4, 5, 6, -1]
    assert static.unpack(packed).tolist() == data.tolist()


def test_representative_size_is_two_periods_plus_one() -> None:
    tiled = parse_affine_map("affine_map<(d0, d1) -> (d0 floordiv 8, d1, (d0 floordiv 2) mod 4)>")
    assert representative_sizes((None, 3), tiled) == (17, 3)
    assert list(
        itertools.islice(
            representative_sizes((None,), parse_affine_map("affine_map<(d0) -> (d0)>")), 1
        )
    ) == [3]
