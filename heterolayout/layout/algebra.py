"""The layout algebra: composing a layout with an index window, its inverse, and where it
is contiguous. `Layout`'s methods of the same names call these.

- `compose(layout, window)`: the layout of a view (`memref.subview`, `collapse_shape`,
  `expand_shape`, `reinterpret_cast`): the view's index goes through the window to the
  root's logical index, then through the root's map to the same physical buffer.
- `inverse(layout)`: physical slot → logical index or pad, as a table for any layout and as
  an affine map (with the pad predicate `0 <= index < extent`) for blockings.
- Contiguity: which logical dim walks the innermost physical dim with unit stride, for how
  many elements from an aligned start (`contiguous_dim`, `contiguous_run`), and the proof
  behind both for any start expressions (`runs_contiguously`), which the vector lowering
  asks for each access.

Every answer is tested point by point over the logical box (tests/test_algebra.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from xdsl.ir.affine import AffineExpr, AffineMap

from heterolayout.layout.blocked import digits_inverse
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import (
    evaluate,
    format_index,
    format_map,
    format_shape,
    index_grids,
)
from heterolayout.layout.simplify import IndexSimplifier, Range

if TYPE_CHECKING:
    import numpy as np

    from heterolayout.layout.model import Layout


# ---- windows ------------------------------------------------------------------------------------
Extent = int | None
Affine = int | AffineExpr
"""An offset or stride: a constant, or an expression over the window's symbols (a run-time
value of the program, e.g. a subview's dynamic offset)."""


def _shape_text(shape: Sequence[Extent]) -> str:
    return "x".join("?" if e is None else str(e) for e in shape)


def _expr(value: Affine) -> AffineExpr:
    return value if isinstance(value, AffineExpr) else AffineExpr.constant(value)


@dataclass(frozen=True)
class IndexWindow:
    """An affine index window: each index of a view (`shape`) → an index of the layout it
    views (`index_map`, quasi-affine, one result per dim of the viewed layout). Its symbols
    are run-time values (dynamic offsets and strides) and a `?` extent (None) a run-time
    size: such a window is not static, and composes with a layout only at each access."""

    shape: tuple[Extent, ...]
    index_map: AffineMap

    def __post_init__(self) -> None:
        if self.index_map.num_dims != len(self.shape):
            raise LayoutError(
                f"window {format_map(self.index_map)} does not take the {len(self.shape)} "
                "dims of its shape"
            )

    @property
    def is_static(self) -> bool:
        """No run-time offset, stride or size."""
        return not self.index_map.num_symbols and None not in self.shape

    @staticmethod
    def identity(shape: Sequence[Extent]) -> IndexWindow:
        return IndexWindow(tuple(shape), AffineMap.identity(len(shape)))

    @staticmethod
    def subview(
        offsets: Sequence[Affine],
        sizes: Sequence[Extent],
        strides: Sequence[Affine],
        dropped: Iterable[int] = (),
        num_symbols: int = 0,
    ) -> IndexWindow:
        """`memref.subview`: view index i → offsets + i · strides; the `dropped` dims (of
        size 1) are not dims of the view (a rank-reducing subview)."""
        dropped = set(dropped)
        results: list[AffineExpr] = []
        shape: list[Extent] = []
        for dim, (offset, size, stride) in enumerate(zip(offsets, sizes, strides, strict=True)):
            if dim in dropped:
                if size != 1:
                    raise LayoutError(f"subview: dim {dim} of size {size} cannot be dropped")
                results.append(_expr(offset))
                continue
            results.append(AffineExpr.dimension(len(shape)) * _expr(stride) + _expr(offset))
            shape.append(size)
        return IndexWindow(tuple(shape), AffineMap(len(shape), num_symbols, tuple(results)))

    @staticmethod
    def collapse(source_shape: Sequence[Extent], groups: Sequence[Sequence[int]]) -> IndexWindow:
        """`memref.collapse_shape`: view dim g runs over the source dims `groups[g]` in
        row-major order; the source index is that dim delinearized (which needs every
        extent of a group but its first)."""
        results: dict[int, AffineExpr] = {}
        shape: list[Extent] = []
        for view_dim, group in enumerate(groups):
            extents = [source_shape[d] for d in group]
            if None in extents[1:]:
                raise LayoutError(
                    f"collapse: dims {list(group)} of shape {_shape_text(source_shape)} cannot be "
                    "delinearized: an inner extent is dynamic"
                )
            value = AffineExpr.dimension(view_dim)
            for position, dim in enumerate(group):
                inner = math.prod(extents[position + 1 :])  # type: ignore[arg-type]
                digit = value if inner == 1 else value // inner
                results[dim] = digit if position == 0 else digit % extents[position]  # type: ignore[operator]
            shape.append(None if None in extents else math.prod(extents))  # type: ignore[arg-type]
        if sorted(results) != list(range(len(source_shape))):
            raise LayoutError(f"collapse: the groups {list(groups)} do not cover the source dims")
        ordered = tuple(results[d] for d in range(len(source_shape)))
        return IndexWindow(tuple(shape), AffineMap(len(shape), 0, ordered))

    @staticmethod
    def expand(result_shape: Sequence[Extent], groups: Sequence[Sequence[int]]) -> IndexWindow:
        """`memref.expand_shape`: source dim g splits into the view dims `groups[g]`
        (row-major), so its index is their row-major linearization (which needs every
        extent of a group but its first)."""
        results: list[AffineExpr] = []
        for group in groups:
            total: AffineExpr = AffineExpr.constant(0)
            for position, dim in enumerate(group):
                inner = [result_shape[d] for d in group[position + 1 :]]
                if None in inner:
                    raise LayoutError(
                        f"expand: dims {list(group)} of shape {_shape_text(result_shape)} cannot be "
                        "linearized: an inner extent is dynamic"
                    )
                total = total + AffineExpr.dimension(dim) * math.prod(inner)  # type: ignore[arg-type]
            results.append(total)
        return IndexWindow(tuple(result_shape), AffineMap(len(result_shape), 0, tuple(results)))

    @staticmethod
    def transpose(shape: Sequence[Extent], permutation: Sequence[int]) -> IndexWindow:
        """`memref.transpose`: view dim i is source dim `permutation[i]`."""
        results = [AffineExpr.constant(0)] * len(permutation)
        for position, dim in enumerate(permutation):
            results[dim] = AffineExpr.dimension(position)
        view_shape = tuple(shape[p] for p in permutation)
        return IndexWindow(view_shape, AffineMap(len(permutation), 0, tuple(results)))

    @staticmethod
    def reinterpret(
        source_shape: Sequence[Extent],
        offset: Affine,
        sizes: Sequence[Extent],
        strides: Sequence[Affine],
        num_symbols: int = 0,
    ) -> IndexWindow:
        """`memref.reinterpret_cast` over the source's row-major element order: view index
        i → the source index at linear position offset + Σ i · strides."""
        if None in source_shape[1:]:
            raise LayoutError(
                f"reinterpret: the source shape {_shape_text(source_shape)} has a dynamic "
                "inner extent"
            )
        linear = _expr(offset)
        for dim, stride in enumerate(strides):
            linear = linear + AffineExpr.dimension(dim) * _expr(stride)
        results = []
        for position in range(len(source_shape)):
            inner = math.prod(source_shape[position + 1 :])  # type: ignore[arg-type]
            digit = linear if inner == 1 else linear // inner
            results.append(digit if position == 0 else digit % source_shape[position])  # type: ignore[operator]
        return IndexWindow(tuple(sizes), AffineMap(len(sizes), num_symbols, tuple(results)))

    def then(self, inner: IndexWindow) -> IndexWindow:
        """The window of a view of this view: `inner` first, then this window. This
        window's symbols come first, then the inner one's."""
        own = self.index_map.num_symbols
        shift = [AffineExpr.symbol(own + s) for s in range(inner.index_map.num_symbols)]
        inner_results = [r.replace_dims_and_symbols([], shift) for r in inner.index_map.results]
        symbols = [AffineExpr.symbol(s) for s in range(own)]
        results = tuple(
            r.replace_dims_and_symbols(inner_results, symbols) for r in self.index_map.results
        )
        count = own + inner.index_map.num_symbols
        return IndexWindow(inner.shape, AffineMap(len(inner.shape), count, results))


@dataclass(frozen=True)
class NotRepresentable:
    """Why a composition is no layout (the window leaves the viewed box, or maps two view
    indices to one element, or a shape is dynamic)."""

    reason: str


def compose(layout: Layout, window: IndexWindow) -> Layout | NotRepresentable:
    """The layout of the view `window` makes of `layout`: the same physical buffer (shape,
    pad, element type, packing), indexed through the window first."""
    import numpy as np

    if len(window.index_map.results) != layout.rank:
        raise LayoutError(
            f"window {format_map(window.index_map)} gives {len(window.index_map.results)} "
            f"indices for a layout of rank {layout.rank}"
        )
    if layout.is_dynamic:
        return NotRepresentable(
            f"the viewed layout has dynamic dims ({format_shape(layout.logical_shape)})"
        )
    if not window.is_static:
        return NotRepresentable("the window has run-time offsets, strides or sizes")
    shape = tuple(e for e in window.shape if e is not None)
    grids = index_grids(shape)
    for dim, (result, extent) in enumerate(
        zip(window.index_map.results, layout.static_logical_shape, strict=True)
    ):
        values = np.broadcast_to(np.asarray(evaluate(result, grids)), shape)
        outside = (values < 0) | (values >= extent)
        if values.size and outside.any():
            at = tuple(int(i) for i in np.unravel_index(int(np.argmax(outside)), shape))
            return NotRepresentable(
                f"view index {format_index(at)} reaches index {int(values[at])} of dim {dim}, "
                f"outside the viewed shape {format_shape(layout.logical_shape)}"
            )
    ranges = {d: (0, e - 1) for d, e in enumerate(shape)}
    simplifier = IndexSimplifier(ranges)
    composed = tuple(
        simplifier.simplify(r.replace_dims_and_symbols(list(window.index_map.results), []))
        for r in layout.index_map.results
    )
    try:
        return type(layout).create(  # the model calls the algebra: its class, not an import
            shape,
            AffineMap(len(shape), 0, composed),
            layout.physical_shape,
            pad=layout.pad,
            dtype=layout.dtype,
            packing=layout.packing,
            where="view",
        )
    except LayoutError as error:
        return NotRepresentable(str(error).removeprefix("view: "))


# ---- inverse --------------------------------------------------------------------------------------
class Inverse:
    """Physical slot → logical index, or None for a pad slot.

    `index_map` (physical index → index in the padded logical box) exists for blockings:
    each logical index is the sum of its digits times their weights, and a slot is pad
    exactly where that index leaves the logical box. Any layout has the table form.
    """

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        terms = layout.blocked_terms
        self.index_map = None if terms is None else digits_inverse(terms, layout.rank)

    @cached_property
    def table(self) -> np.ndarray:
        """Slot offset → flat logical index, -1 for pad."""
        import numpy as np

        layout = self.layout
        table = np.full(layout.size, -1, dtype=np.int64)
        table[layout.offsets().ravel()] = np.arange(layout.logical_size, dtype=np.int64)
        return table

    def __call__(self, physical: Sequence[int]) -> tuple[int, ...] | None:
        import numpy as np

        layout = self.layout
        shape = layout.static_physical_shape
        if len(physical) != len(shape) or any(
            not 0 <= v < e for v, e in zip(physical, shape, strict=True)
        ):
            raise LayoutError(f"physical index {tuple(physical)} is outside {shape}")
        flat = int(np.ravel_multi_index(tuple(physical), shape))
        return self.at_offset(flat)

    def at_offset(self, offset: int) -> tuple[int, ...] | None:
        """The logical index stored at a memory-order offset, or None for a pad slot."""
        import numpy as np

        flat = int(self.table[offset])
        if flat < 0:
            return None
        return tuple(int(i) for i in np.unravel_index(flat, self.layout.static_logical_shape))

    def padded_indices(self, offsets: np.ndarray) -> np.ndarray:
        """Slots (memory-order offsets) → their index in the padded logical box (one row
        each), through `index_map`; only for blockings."""
        import numpy as np

        assert self.index_map is not None
        layout = self.layout
        physical = np.unravel_index(offsets, layout.static_physical_shape)
        rows = [
            np.broadcast_to(np.asarray(evaluate(r, list(physical)), dtype=np.int64), offsets.shape)
            for r in self.index_map.results
        ]
        return np.stack(rows, axis=-1) if rows else np.zeros((len(offsets), 0), dtype=np.int64)

    def pad_dims(self) -> tuple[int, ...]:
        """The logical dims whose padded index can leave the logical box: a slot is pad
        exactly where one of them does (`index_map` only)."""
        assert self.index_map is not None
        layout = self.layout
        simplifier = IndexSimplifier(
            {d: (0, e - 1) for d, e in enumerate(layout.physical_shape) if e is not None}
        )
        found = []
        for dim, (result, extent) in enumerate(
            zip(self.index_map.results, layout.logical_shape, strict=True)
        ):
            if extent is None:
                if layout.size_position(dim) is None:  # a tiled `?` dim: a partial last tile
                    found.append(dim)
                continue
            bounds = simplifier.range_of(result)
            if bounds is None or bounds[1] >= extent:
                found.append(dim)
        return tuple(found)


# ---- contiguity -----------------------------------------------------------------------------------
def runs_contiguously(
    layout: Layout,
    start: Sequence[AffineExpr],
    ranges: Mapping[int, Range],
    length: int,
    flat: bool = False,
    dim: int = -1,
) -> bool:
    """Whether `length` elements along logical dim `dim`, from the index `start` (over
    dims with the given `ranges`), lie at consecutive slots of the innermost storage dim
    (the flat offset when `flat`): lane t at lane 0's storage index plus t, for every t,
    and the last one still inside that dim. Proven symbolically with a fresh dim for t;
    a start written `first + step·k` knows its alignment."""
    if length <= 1:
        return True
    used = [d for e in start for d in e.used_dims()]
    position = max([*used, *ranges], default=-1) + 1  # a dim no start index uses
    lane = AffineExpr.dimension(position)
    all_ranges = {**ranges, position: (0, length - 1)}
    simplifier = IndexSimplifier(all_ranges)
    shifted = list(start)
    shifted[dim] = start[dim] + lane
    results = layout.storage_exprs(flat)
    for index, result in enumerate(results):
        base = result.replace_dims_and_symbols(list(start), [])
        moved = result.replace_dims_and_symbols(shifted, [])
        difference = simplifier.simplify(moved + base * -1)
        expected = lane if index == len(results) - 1 else AffineExpr.constant(0)
        if difference != expected:
            return False
    extent = layout.storage_shape[-1] if not flat else layout.storage_size
    first = simplifier.range_of(results[-1].replace_dims_and_symbols(list(start), []))
    return extent is not None and first is not None and first[1] + length <= extent


def contiguous_run(layout: Layout, dim: int, step: int = 1, first: int = 0) -> int:
    """How many consecutive elements along `dim`, from any index whose `dim` coordinate is
    `first + step·k`, land on consecutive slots of the innermost storage dim (1 when `dim`
    does not walk it with unit stride; at most `extent - first`)."""
    extent = layout.logical_shape[dim]
    if extent is None or not 0 <= first < extent or step <= 0:
        raise LayoutError(f"contiguous_run: start {first} + {step}·k does not index dim {dim}")
    rank = layout.rank
    ranges: dict[int, Range] = {rank: (0, (extent - 1 - first) // step)}
    start = [AffineExpr.dimension(d) for d in range(rank)]
    start[dim] = AffineExpr.dimension(rank) * step + first
    for d, other in enumerate(layout.logical_shape):
        if d != dim and other is not None:
            ranges[d] = (0, other - 1)
    low, high = 1, extent - first
    while low < high:  # the largest length that still runs contiguously
        middle = (low + high + 1) // 2
        if runs_contiguously(layout, start, ranges, middle, dim=dim):
            low = middle
        else:
            high = middle - 1
    return low


def contiguous_dim(layout: Layout) -> int | None:
    """The logical dim that walks the innermost storage dim with unit stride (its run from
    index 0 holds at least two elements), innermost logical dim first; None if none does."""
    for dim in reversed(range(layout.rank)):
        extent = layout.logical_shape[dim]
        if extent is not None and extent > 1 and contiguous_run(layout, dim, extent, 0) > 1:
            return dim
    return None
