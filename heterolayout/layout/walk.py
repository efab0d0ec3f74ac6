"""The memory walk: which logical index every physical slot holds, in memory order.

The HTP seed lists a layout this way, one memory row per line, folding runs of indices that
step by +1 in one coordinate into `first, second ... last`. Here a memory row is the
innermost physical dim (trailing extents of 1 merged into it); a 1-D physical buffer with an
affine offset is cut at its smallest stride above 1 (the leading dimension of a padded
matrix), otherwise it is one row.

Pad slots of blocked layouts (tags, chunked) have a coordinate in the padded logical box
(the digit model read backwards), so they print like data, prefixed `pad`:
`pad(0,0,0,30)`. Other layouts have no such coordinate; their pad runs print as `pad x3`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import format_index, format_shape
from heterolayout.layout.model import Layout

Index = tuple[int, ...]

FOLD_AT = 5
"""Runs this long or longer print as `first, second ... last`; shorter runs list every index."""


@dataclass(frozen=True)
class Run:
    """Consecutive slots whose indices step by +1 in one logical dim, all data or all pad.

    `indices` holds every index of a short run and the first, second and last of a long one
    (`FOLD_AT`); it is empty for pad slots that have no padded coordinate.
    """

    indices: tuple[Index, ...]
    length: int
    pad: bool

    def text(self) -> str:
        if not self.indices:
            return f"pad x{self.length}"
        marked = [("pad" if self.pad else "") + format_index(i) for i in self.indices]
        if self.length >= FOLD_AT:
            return f"{marked[0]}, {marked[1]} ... {marked[2]}"
        return ", ".join(marked)


@dataclass(frozen=True)
class Slots:
    """A range of physical slots: `indices[k]` is slot k's logical (or padded) index, `pad[k]`
    whether it is a pad slot, `located[k]` whether it has an index at all (pad slots of
    layouts that are not a blocking have none; their row of `indices` is meaningless)."""

    indices: np.ndarray
    pad: np.ndarray
    located: np.ndarray

    def index(self, k: int) -> Index | None:
        """Slot k's index; None for a pad slot without a coordinate."""
        if not self.located[k]:
            return None
        return tuple(int(v) for v in self.indices[k])


class MemoryWalk:
    """The slots of one (static) layout in memory order, cut into memory rows.

    Rows are computed on demand, so the first lines of a walk over millions of slots cost
    only what those lines hold.
    """

    def __init__(self, layout: Layout, row_length: int | None = None) -> None:
        if layout.is_dynamic:
            raise LayoutError(
                f"the memory walk needs a static shape, not {format_shape(layout.logical_shape)}"
            )
        self.layout = layout
        self.row_length = row_length if row_length is not None else _natural_row_length(layout)
        if self.row_length <= 0:
            raise LayoutError(f"memory rows must hold at least one slot, not {self.row_length}")

    @property
    def row_count(self) -> int:
        return -(-self.layout.size // self.row_length)

    def slots(self, start: int, stop: int) -> Slots:
        """Slots [start, stop) of the physical buffer."""
        layout = self.layout
        offsets = np.arange(max(start, 0), min(stop, layout.size), dtype=np.int64)
        inverse = layout.inverse()
        if inverse.index_map is not None:
            indices = inverse.padded_indices(offsets)
            logical = np.asarray(layout.logical_shape, dtype=np.int64)
            pad = np.asarray((indices >= logical).any(axis=1))
            return Slots(indices, pad, np.ones_like(pad))
        flat = inverse.table[offsets]
        pad = flat < 0
        if layout.rank == 0:
            indices = np.zeros((len(flat), 0), dtype=np.int64)
        else:
            unravelled = np.unravel_index(np.where(pad, 0, flat), layout.static_logical_shape)
            indices = np.stack(unravelled, axis=-1).astype(np.int64)
        return Slots(indices, pad, ~pad)

    def runs(self, row: int) -> list[Run]:
        """The runs of memory row `row`, left to right."""
        if not 0 <= row < self.row_count:
            raise LayoutError(f"row {row} is outside the walk's {self.row_count} rows")
        slots = self.slots(row * self.row_length, (row + 1) * self.row_length)
        keys = _step_keys(slots, self.layout.rank)
        changes = np.flatnonzero(keys[1:] != keys[:-1])
        count = len(slots.pad)
        runs: list[Run] = []
        start = 0
        while start < count:
            if start == count - 1 or keys[start] < 0:
                end = start
            else:
                later = np.searchsorted(changes, start)
                end = (int(changes[later]) if later < len(changes) else count - 2) + 1
            runs.append(_run(slots, start, end))
            start = end + 1
        return runs

    def line(self, row: int) -> str:
        """One memory row as the seed prints it, ending with a comma."""
        return ", ".join(run.text() for run in self.runs(row)) + ","

    def lines(self, limit: int | None = None) -> Iterator[str]:
        """The first `limit` lines (all when None)."""
        rows = self.row_count if limit is None else min(limit, self.row_count)
        for row in range(rows):
            yield self.line(row)


def memory_walk(layout: Layout, limit: int | None = None) -> list[str]:
    """The walk's first `limit` lines (all when None), without a summary line."""
    return list(MemoryWalk(layout).lines(limit))


def _natural_row_length(layout: Layout) -> int:
    physical: tuple[int, ...] = layout.physical_shape  # type: ignore[assignment]
    if len(physical) == 1:
        linear = layout.linear
        strides = sorted(s for s in linear[0] if s > 1) if linear is not None else []
        return min(strides[0], physical[0]) if strides else physical[0]
    length = 1
    for extent in reversed(physical):
        length *= extent
        if extent > 1:
            break
    return length


def _step_keys(slots: Slots, rank: int) -> np.ndarray:
    """For each pair of neighbouring slots: the dim in which the index steps by +1 when both
    are data or both padded coordinates, `rank` when both are pad without coordinates, -1
    when the pair cannot share a run."""
    if len(slots.pad) < 2:
        return np.zeros(0, dtype=np.int64)
    steps = slots.indices[1:] - slots.indices[:-1]
    moved = steps != 0
    one_step = (moved.sum(axis=1) == 1) & (steps.sum(axis=1) == 1)
    same_kind = slots.pad[1:] == slots.pad[:-1]
    step_dims = moved.argmax(axis=1) if rank else np.zeros(len(moved), dtype=np.int64)
    keys = np.where(one_step & same_kind, step_dims, -1)
    unlocated = ~slots.located
    keys[unlocated[1:] | unlocated[:-1]] = -1
    keys[unlocated[1:] & unlocated[:-1]] = rank
    return keys


def _run(slots: Slots, start: int, end: int) -> Run:
    length = end - start + 1
    first = slots.index(start)
    if first is None:
        return Run((), length, True)
    picks = [start, start + 1, end] if length >= FOLD_AT else list(range(start, end + 1))
    return Run(tuple(slots.index(k) for k in picks), length, bool(slots.pad[start]))  # type: ignore[misc]
