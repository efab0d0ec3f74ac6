"""Schedule options tuned with the layouts: the register tile of `layout-schedule` and, when
the user allows results to change in the last bits (`fast_math`), fused multiply-adds with
reassociated reductions.

A register tile is `u` vectors along the vector loop times `w` steps of the *reuse loop*:
the innermost (in the leading buffer's memory order) parallel loop that one read depends on
and another does not, so copies share that other read (a convolution's output columns share
the weights, its output channels the input pixel); `register_tiling.py` unrolls the same
loop. The generated tiles fill three quarters of the vector registers with accumulators
(`u·w`, the rest hold operands) for `u` = 1, 2, 4; `None` is the pass's own choice.
"""

from __future__ import annotations

from dataclasses import dataclass

from heterolayout.layout.errors import LayoutError
from heterolayout.layout.model import Layout
from heterolayout.search.cost import Summary, reuse_dim, vector_loop

TILE_VECTORS = (1, 2, 4)
"""Vectors along the vector loop of the generated tiles."""


@dataclass(frozen=True)
class Schedule:
    """`layout-schedule` options of one candidate."""

    tile: tuple[int, ...] | None = None
    """Register tile in elements along the leading buffer's logical dims (None: the pass's)."""
    fast: bool = False
    """`fma=true reassociate=true`: one rounding per multiply-add, reductions reordered."""

    @property
    def options(self) -> str:
        """The pass options (besides the target); the tile goes in a `layout.schedule` op."""
        return "fma=true reassociate=true" if self.fast else ""

    @property
    def label(self) -> str:
        tile = "default tile" if self.tile is None else "tile " + "x".join(map(str, self.tile))
        return tile + (", fma+reassociate" if self.fast else "")


def parse_tile(text: str, rank: int, lead: str) -> tuple[int, ...]:
    """A tile as the user writes it (`1x32x1x3` or `1,32,1,3`): `rank` positive sizes."""
    parts = text.replace(",", "x").split("x")
    if not all(part.strip().isdigit() for part in parts):
        raise LayoutError(f"tile '{text}': expected sizes like 1x32x1x3")
    sizes = tuple(int(part) for part in parts)
    if len(sizes) != rank:
        raise LayoutError(
            f"tile '{text}' has {len(sizes)} sizes but the stored buffer '{lead}' has rank {rank}"
        )
    if any(size < 1 for size in sizes):
        raise LayoutError(f"tile '{text}': sizes must be positive")
    return sizes


def tiles(summary: Summary, lead: Layout, lanes: int, registers: int) -> list[tuple[int, ...]]:
    """Register tiles to try (beside the pass's own) for `lanes`-wide vectors."""
    loop = vector_loop(summary, lead)
    if loop is None or lanes < 2 or not summary.reductions():
        return []
    stores = [a for a in summary.accesses if a.buffer == summary.lead and a.write]
    along = [d for d, other in enumerate(stores[0].loops) if other == loop]
    reuse = reuse_dim(summary, lead, loop)
    if len(along) != 1 or reuse is None:
        return []
    found: list[tuple[int, ...]] = []
    accumulators = registers * 3 // 4
    for vectors in TILE_VECTORS:
        if (vectors - 1) * lanes >= summary.trips[loop]:
            break
        reuse_loop = stores[0].loops[reuse]
        trips = 1 if reuse_loop is None else summary.trips[reuse_loop]
        steps = min(trips, max(1, accumulators // vectors))
        tile = [1] * lead.rank
        tile[along[0]] = vectors * lanes
        tile[reuse] = steps
        found.append(tuple(tile))
    return found


def variants(
    generated: list[tuple[int, ...]], extra: list[tuple[int, ...]], fast_math: bool
) -> list[Schedule]:
    """The schedules besides the pass's own: the generated and the user's tiles, and each
    (the pass's own tile too) with fused multiply-adds when `fast_math` allows them."""
    sizes = list(dict.fromkeys([*generated, *extra]))
    exact = [Schedule(tile) for tile in sizes]
    return exact + ([Schedule(tile, fast=True) for tile in [None, *sizes]] if fast_math else [])
