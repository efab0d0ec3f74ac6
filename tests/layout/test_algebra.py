"""The layout algebra, point by point over the logical box (in the style of pycute's tests).

Each operation (`compose` with an index window, `inverse`, the contiguity queries,
`equivalent`) is checked against an independent formulation: windows are applied with
plain integer arithmetic, physical indices come from `elementwise_reference`, and runs are
walked element by element.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.ir.affine import AffineExpr, AffineMap

from heterolayout import Layout, LayoutError, parse_layout
from heterolayout.layout.algebra import IndexWindow, NotRepresentable
from tests import elementwise_reference as reference
from tests.strategies import LayoutCase, any_layout_case, blocked_layout, pair_list

ALGEBRA = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
Index = tuple[int, ...]


def box(shape: tuple[int, ...]) -> list[Index]:
    return list(itertools.product(*(range(e) for e in shape)))


def physical_of(case: LayoutCase) -> object:
    """The case's logical → physical index, from the independent reference."""
    return reference.index_function(case.model)


# ---- windows ----------------------------------------------------------------------------------
@st.composite
def subviews(
    draw: st.DrawFn, shape: tuple[int, ...]
) -> tuple[list[int], list[int], list[int], list[int]]:
    """offsets, sizes, strides of an in-bounds subview, and the unit dims it drops."""
    offsets, sizes, strides, dropped = [], [], [], []
    for dim, extent in enumerate(shape):
        offset = draw(st.integers(0, extent - 1))
        stride = draw(st.integers(1, 3))
        size = draw(st.integers(1, (extent - 1 - offset) // stride + 1))
        offsets.append(offset)
        sizes.append(size)
        strides.append(stride)
        if size == 1 and draw(st.booleans()):
            dropped.append(dim)
    return offsets, sizes, strides, dropped


def subview_index(view: Index, offsets: list[int], strides: list[int], dropped: list[int]) -> Index:
    kept = iter(view)
    return tuple(
        offset if dim in dropped else offset + next(kept) * stride
        for dim, (offset, stride) in enumerate(zip(offsets, strides, strict=True))
    )


@ALGEBRA
@given(case=any_layout_case(), data=st.data())
def test_compose_with_a_subview_indexes_the_same_slots(
    case: LayoutCase, data: st.DataObject
) -> None:
    layout = case.build()
    offsets, sizes, strides, dropped = data.draw(subviews(case.shape))
    window = IndexWindow.subview(offsets, sizes, strides, dropped)
    view = layout.compose(window)
    assert isinstance(view, Layout), view
    assert view.physical_shape == layout.physical_shape
    assert (view.pad, view.dtype, view.packing) == (layout.pad, layout.dtype, layout.packing)
    expected = physical_of(case)
    for index in box(window.shape):
        assert view.physical_index(index) == expected(
            subview_index(index, offsets, strides, dropped)
        )  # type: ignore[operator]


@ALGEBRA
@given(case=any_layout_case(), data=st.data())
def test_compose_with_reshapes_indexes_the_same_slots(
    case: LayoutCase, data: st.DataObject
) -> None:
    """collapse_shape, expand_shape and a reinterpret_cast of the row-major order."""
    layout = case.build()
    shape = case.shape
    expected = physical_of(case)
    cut = data.draw(st.integers(0, len(shape)))
    groups = [list(range(cut)), list(range(cut, len(shape)))]
    groups = [g for g in groups if g]
    collapsed = layout.compose(IndexWindow.collapse(shape, groups))
    assert isinstance(collapsed, Layout)
    collapsed_shape = tuple(math.prod(shape[d] for d in g) for g in groups)
    assert collapsed.logical_shape == collapsed_shape
    for view in box(collapsed_shape):
        source = sum(
            (np.unravel_index(v, [shape[d] for d in g]) for v, g in zip(view, groups, strict=True)),
            (),
        )
        assert collapsed.physical_index(view) == expected(tuple(int(i) for i in source))  # type: ignore[operator]
    # expand the last dim into (its extent / f, f) when f divides it
    last = shape[-1]
    factor = data.draw(st.sampled_from([f for f in range(1, last + 1) if last % f == 0]))
    expanded_shape = (*shape[:-1], last // factor, factor)
    groups = [[d] for d in range(len(shape) - 1)] + [[len(shape) - 1, len(shape)]]
    expanded = layout.compose(IndexWindow.expand(expanded_shape, groups))
    assert isinstance(expanded, Layout)
    for view in box(expanded_shape):
        source = (*view[:-2], view[-2] * factor + view[-1])
        assert expanded.physical_index(view) == expected(source)  # type: ignore[operator]
    # reinterpret: a 1-D window of every other element of the row-major order
    size = math.prod(shape)
    start = data.draw(st.integers(0, size - 1))
    count = (size - 1 - start) // 2 + 1
    flat = layout.compose(IndexWindow.reinterpret(shape, start, (count,), (2,)))
    assert isinstance(flat, Layout)
    for (i,) in box((count,)):
        source = np.unravel_index(start + 2 * i, shape)
        assert flat.physical_index((i,)) == expected(tuple(int(v) for v in source))  # type: ignore[operator]


@ALGEBRA
@given(case=any_layout_case(), data=st.data())
def test_compositions_that_are_no_layout_say_why(case: LayoutCase, data: st.DataObject) -> None:
    layout = case.build()
    shape = case.shape
    dim = data.draw(st.integers(0, len(shape) - 1))
    offsets = [0] * len(shape)
    sizes = list(shape)
    sizes[dim] = shape[dim] + 1  # one past the end
    outside = layout.compose(IndexWindow.subview(offsets, sizes, [1] * len(shape)))
    assert isinstance(outside, NotRepresentable)
    assert f"of dim {dim}" in outside.reason and "outside the viewed shape" in outside.reason
    if shape[dim] > 1:  # a broadcast (stride 0) reads one element twice
        sizes[dim], strides = 2, [1] * len(shape)
        strides[dim] = 0
        twice = layout.compose(IndexWindow.subview(offsets, sizes, strides))
        assert isinstance(twice, NotRepresentable) and "not injective" in twice.reason


def test_windows_compose_like_views_of_views() -> None:
    layout = parse_layout("NCHW->nChw8c", (2, 17, 5, 4))
    outer = IndexWindow.subview([0, 8, 1, 0], [2, 9, 4, 4], [1, 1, 1, 1])
    inner = IndexWindow.subview([1, 0, 0, 1], [1, 9, 2, 3], [1, 1, 2, 1], dropped=[0])
    both = layout.compose(outer.then(inner))
    step = layout.compose(outer)
    assert isinstance(both, Layout) and isinstance(step, Layout)
    again = step.compose(inner)
    assert isinstance(again, Layout) and again.equivalent(both)
    assert both.physical_index((8, 1, 2)) == layout.physical_index((1, 16, 3, 3))


def test_a_window_must_give_one_index_per_dim() -> None:
    layout = parse_layout("nchw", (2, 3, 4, 5))
    with pytest.raises(LayoutError, match="gives 3 indices for a layout of rank 4"):
        layout.compose(IndexWindow.subview([0, 0, 0], [1, 1, 1], [1, 1, 1]))


# ---- inverse ------------------------------------------------------------------------------------
@ALGEBRA
@given(case=any_layout_case())
def test_inverse_finds_every_element_and_every_pad_slot(case: LayoutCase) -> None:
    layout = case.build()
    inverse = layout.inverse()
    expected = physical_of(case)
    physical_shape = reference.physical_shape(case.model, case.shape)
    owner = {expected(i): i for i in box(case.shape)}  # type: ignore[operator]
    for slot in box(physical_shape):
        assert inverse(slot) == owner.get(slot)
    if inverse.index_map is None:
        return
    offsets = np.arange(layout.size)
    padded = inverse.padded_indices(offsets)
    pad_dims = inverse.pad_dims()
    for offset, index in zip(offsets, padded, strict=True):
        slot = tuple(int(v) for v in np.unravel_index(offset, physical_shape))
        found = owner.get(slot)
        outside = [d for d in range(layout.rank) if index[d] >= case.shape[d]]
        assert set(outside) <= set(pad_dims)
        assert (found is None) == bool(outside)
        if found is not None:
            assert tuple(index) == found
        # the padded index is where the digit map sends it back to
        assert expected(tuple(int(v) for v in index)) == slot  # type: ignore[operator]


def test_inverse_of_a_padded_blocking() -> None:
    layout = parse_layout("NCHW->nChw8c", (2, 17, 5, 4))
    inverse = layout.inverse()
    assert str(inverse.index_map) == "(d0, d1, d2, d3, d4) -> (d0, ((d1 * 8) + d4), d2, d3)"
    assert inverse.pad_dims() == (1,)
    assert inverse((1, 2, 4, 3, 0)) == (1, 16, 4, 3)
    assert inverse((1, 2, 4, 3, 1)) is None  # c = 17: pad
    assert layout.logical_index(layout.offset((1, 16, 4, 3))) == (1, 16, 4, 3)


# ---- contiguity -----------------------------------------------------------------------------------
def storage(layout: Layout, index: Index) -> Index:
    """The storage index of a logical index, evaluated from the map (outside the box too)."""
    physical = layout.index_map.eval(list(index), [])
    return tuple(physical[:-1]) if layout.packing is not None else tuple(physical)


@ALGEBRA
@given(case=any_layout_case(), data=st.data())
def test_contiguous_runs_hold_element_by_element(case: LayoutCase, data: st.DataObject) -> None:
    layout = case.build()
    dim = data.draw(st.integers(0, layout.rank - 1))
    extent = case.shape[dim]
    step = data.draw(st.integers(1, extent))
    first = data.draw(st.integers(0, extent - 1))
    run = layout.contiguous_run(dim, step, first)
    assert 1 <= run <= extent - first
    inner_extent = layout.storage_shape[-1]
    for index in box(case.shape):
        if (index[dim] - first) % step or index[dim] < first:
            continue
        start = storage(layout, index)
        assert start[-1] + run - 1 < inner_extent  # type: ignore[operator]
        for t in range(run):
            moved = list(index)
            moved[dim] += t
            assert storage(layout, tuple(moved)) == (*start[:-1], start[-1] + t)


@ALGEBRA
@given(terms_shape=blocked_layout(3, innermost_block=True))
def test_an_innermost_block_runs_its_size_from_aligned_starts(terms_shape: tuple) -> None:
    terms, shape = terms_shape
    layout = parse_layout(f"#layout.chunked<{pair_list(terms)}>", shape)
    dim, block = terms[-1]
    length = min(block, shape[dim])
    # the innermost block's dim, unless a dim after it in memory order is also blocked...
    if all(d != dim for d, size in terms[:-1] if size is not None):
        assert layout.contiguous_run(dim, block, 0) == length
    if length > 1:
        assert layout.contiguous_dim() == dim
        assert layout.contiguous_run(dim, 1, 1 % shape[dim]) <= max(1, length - 1)


def test_contiguity_of_known_layouts() -> None:
    nchw8c = parse_layout("nChw8c", (2, 17, 5, 4))
    assert nchw8c.contiguous_dim() == 1
    assert nchw8c.contiguous_run(1, 8, 0) == 8
    assert nchw8c.contiguous_run(1, 4, 0) == 4  # a loop stepping by 4 stays inside blocks of 8
    assert nchw8c.contiguous_run(1, 4, 2) == 2
    assert nchw8c.contiguous_run(3, 1) == 1
    assert [nchw8c.contiguous_run(d) for d in range(4)] == [1, 8, 1, 1]  # aligned, memory order
    nhwc = parse_layout("nhwc", (2, 3, 4, 5))
    assert nhwc.contiguous_dim() == 1 and nhwc.contiguous_run(1, 3, 0) == 3
    assert nhwc.contiguous_run(1, 1) == 1  # from c = 2 the next element is past the last slot
    rows = parse_layout("strided<[40, 1], offset: 3>", (10, 32))
    assert rows.contiguous_dim() == 1 and rows.contiguous_run(1, 32, 0) == 32
    assert rows.contiguous_run(1, 1) == 1  # the last element is the buffer's last slot
    assert parse_layout("affine_map<(d0, d1) -> (d1 * 2, d0)>", (3, 4)).contiguous_dim() == 0


# ---- equivalence -------------------------------------------------------------------------------
@ALGEBRA
@given(case=any_layout_case())
def test_equivalent_is_what_the_layout_does(case: LayoutCase) -> None:
    layout = case.build()
    as_map = parse_layout(layout, case.shape, dtype=case.element.name)
    assert layout.equivalent(as_map)
    identity = layout.compose(
        IndexWindow.subview([0] * layout.rank, list(case.shape), [1] * layout.rank)
    )
    assert isinstance(identity, Layout) and identity.equivalent(layout)
    last = case.shape[-1]
    if last > 1:  # the last dim read backwards: the same slots, another order
        dims = [AffineExpr.dimension(d) for d in range(layout.rank)]
        reverse = IndexWindow(
            case.shape, AffineMap(layout.rank, 0, (*dims[:-1], dims[-1] * -1 + last - 1))
        )
        backwards = layout.compose(reverse)
        assert isinstance(backwards, Layout) and not backwards.equivalent(layout)
        assert backwards.physical_index((0,) * layout.rank) == layout.physical_index(
            (0,) * (layout.rank - 1) + (last - 1,)
        )
    if layout.pad != 1:
        assert not layout.with_params(pad=1).equivalent(layout)
