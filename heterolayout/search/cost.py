"""The cost model: an estimate of a joint candidate's time, so only the promising ones are
measured.

It follows what `layout-schedule` does with the hot nest (docs/schedule.md): the leading
buffer (the one the innermost statements store to) is walked in its memory order, and the
loop that indexes the logical dim of its innermost physical dim becomes vectors, as long as
every buffer that loop walks is contiguous along it. Every layout question goes to the
`Layout` model (`contiguous_run`, `padding_share`, `nbytes`, `blocked_terms`). The terms:

- compute: flops / (scalar rate · effective lanes · register-tiling gain), where the
  effective lanes are the vector lanes cut to the shortest contiguous run along the vector
  loop (1 when a buffer is not contiguous along it: the schedule then refuses vectors),
  averaged over the vector loop's trips (54 columns in vectors of 8 are 7 vectors: 7.7
  lanes on average);
- padding waste: compute over the leading buffer's padded slots too (÷ 1 − padding share);
- register tiling (search/schedules.py): `u` vectors along the vector loop times `w` steps
  of the reuse loop give `u·w` independent accumulators; the gain is PEAK_TILING_GAIN times
  min(1, u·w / IN_FLIGHT) (multiply-adds in flight: 5 cycles of latency on 2 pipes) times
  min(1, u / 2) (with one vector per step, each broadcast operand feeds one multiply-add
  and the broadcasts, one per cycle, bound the loop; not where the target's multiplies take
  the broadcast from memory, AVX-512's `{1to16}`); the pass's own tile is
  `register_tiling.tile_counts`'s (one vector where `one_vector_tiles` says so). Measured
  on the conv in nChw16c with fused multiply-adds on AVX2 (single
  calls, best of 45, benchmarks/RESULTS.md): 16×4 (8 accumulators) 2.38 ms, 32×3 (12)
  2.17 ms, 16×2 (4) 4.3 ms, 8×4 … 8×12 (one vector) 4.4–4.7 ms. A run shorter than two
  vectors halves the gain;
- fused multiply-adds (`fast`): compute ÷ FMA_GAIN when the nest multiplies and adds
  (the same conv: 2.82 ms exact, 2.37 ms fused and reassociated);
- conversions: bytes converted at the public boundary (every argument whose layout is not
  the plain row-major one, twice for written ones) at a copy bandwidth.

The constants are this project's measurements (benchmarks/RESULTS.md): about 1.5 GFLOP/s
for a scalar f32 nest; about 8 GB/s for the boundary conversions of a convolution into
nChw16c/OIhw16i16o (4.9 MB converted in 0.55 ms, benchmarks/tune.py).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineExpr

from heterolayout.dialects.roots import storage_root
from heterolayout.layout.expressions import linear_form
from heterolayout.layout.model import Layout
from heterolayout.passes.schedule.nest import INDEX, Nest
from heterolayout.passes.schedule.reduction_blocks import L1_BYTES
from heterolayout.passes.schedule.register_tiling import (
    folds_into_multiply,
    one_vector_tiles,
    tile_counts,
)
from heterolayout.passes.schedule.vectorization import element_bits
from heterolayout.search.program import Buffer

SCALAR_FLOPS = 4e9
CONVERSION_BYTES_PER_SECOND = 32e9
LINE_BYTES = 64
CACHES = ((L1_BYTES, 8, 0.35e-9), (512 * 1024, 8, 0.9e-9))
"""(bytes, ways, seconds per line that misses it) of L1 and L2: this machine's AMD EPYC
(`/sys/devices/system/cpu/cpu0/cache`); the costs from the matmul's B along k in 32-column
panels (128 B apart: +0.5 ms over 16-column panels) and row-major (2 KB: +1.3 ms)."""
PEAK_TILING_GAIN = 2.5
IN_FLIGHT = 10
FMA_GAIN = 1.2


@dataclass(frozen=True)
class Access:
    buffer: str
    write: bool
    loops: tuple[int | None, ...]
    """Per logical dim: the loop whose counter alone indexes it (unit stride), else None."""
    uses: tuple[frozenset[int], ...]
    """Per logical dim: every loop its index uses."""
    unit: tuple[frozenset[int], ...]
    """Per logical dim: the loops whose counter steps its index by exactly one."""
    bits: int = 32
    """Bits of the buffer's elements."""


@dataclass(frozen=True)
class Summary:
    """What the cost model needs from the hot nest."""

    trips: tuple[int, ...]
    accesses: tuple[Access, ...]
    lead: str
    flops: int
    multiply_adds: bool = False
    """Whether the nest multiplies and adds floats (fused by `fma=true`)."""

    def walked(self, loop: int) -> list[tuple[str, int]]:
        """The (buffer, dim) pairs loop `loop` indexes."""
        return sorted(
            {(a.buffer, d) for a in self.accesses for d, u in enumerate(a.uses) if loop in u}
        )

    def vector_loops(self) -> set[int]:
        """Loops that index a dim of the leading buffer's stores alone."""
        return {
            loop
            for a in self.accesses
            if a.buffer == self.lead and a.write
            for loop in a.loops
            if loop is not None
        }

    def reductions(self) -> set[int]:
        lead = [a for a in self.accesses if a.buffer == self.lead and a.write]
        used = set().union(*(u for a in lead for u in a.uses)) if lead else set()
        return set(range(len(self.trips))) - used


def _unit_loops(expr: AffineExpr, rank: int) -> frozenset[int]:
    form = linear_form(expr, rank)
    return frozenset() if form is None else frozenset(i for i, c in enumerate(form[0]) if c == 1)


def _unit_loop(expr: AffineExpr, rank: int) -> int | None:
    form = linear_form(expr, rank)
    if form is None:
        return None
    nonzero = [i for i, c in enumerate(form[0]) if c]
    return nonzero[0] if len(nonzero) == 1 and form[0][nonzero[0]] == 1 else None


def summarize(nest: Nest, names: Mapping[SSAValue, str]) -> Summary:
    """The nest's accesses to named buffers (`names`: buffer value → name)."""
    accesses = []
    for access in nest.accesses.values():
        name = names.get(storage_root(access.buffer))
        if name is None:
            continue
        loops = tuple(_unit_loop(e, nest.rank) for e in access.exprs)
        uses = tuple(
            frozenset(d for d in e.used_dims() if d < len(nest.loops)) for e in access.exprs
        )
        unit = tuple(_unit_loops(e, nest.rank) for e in access.exprs)
        accesses.append(Access(name, access.write, loops, uses, unit, element_bits(access.buffer)))
    stores = sorted((a for a in nest.accesses.values() if a.write), key=lambda a: -a.depth)
    root = storage_root(stores[0].buffer) if stores else None
    lead = "" if root is None else names.get(root, root.name_hint or "")
    trips = tuple(loop.trips for loop in nest.loops)
    arithmetic = [
        op
        for op in nest.body
        if op.name.startswith(("arith.", "math.")) and op.results and op.results[0].type != INDEX
    ]
    flops = max(1, len(arithmetic)) * math.prod(trips)
    names_of = {op.name for op in arithmetic}
    return Summary(trips, tuple(accesses), lead, flops, {"arith.mulf", "arith.addf"} <= names_of)


@dataclass(frozen=True)
class Estimate:
    seconds: float
    compute: float
    conversion: float
    lanes: int
    """Effective vector lanes of the vector loop (1: scalar)."""
    padding: float
    """Padding share of the leading buffer."""
    locality: float = 0.0
    """Seconds of strided reduction walks (`strided_seconds`)."""

    def row(self) -> dict[str, float]:
        return {
            "estimate_ms": self.seconds * 1e3,
            "lanes": self.lanes,
            "conversion_ms": self.conversion * 1e3,
        }


def vector_loop(summary: Summary, lead: Layout) -> int | None:
    """The loop that indexes the logical dim of the leading buffer's innermost physical dim."""
    used = lead.index_map.results[-1].used_dims()
    if len(used) != 1:
        return None
    (dim,) = used
    loops = {a.loops[dim] for a in summary.accesses if a.buffer == summary.lead and a.write}
    return loops.pop() if len(loops) == 1 else None


def effective_lanes(summary: Summary, layouts: dict[str, Layout], lanes: int) -> tuple[int, int]:
    """(lanes the vector loop gets, the shortest contiguous run along it)."""
    lead = layouts[summary.lead]
    loop = vector_loop(summary, lead)
    if loop is None:
        return 1, 1
    run = summary.trips[loop]
    for buffer, dim in summary.walked(loop):
        if any(loop not in a.unit[dim] for a in summary.accesses if a.buffer == buffer):
            return 1, 1  # not a unit-stride walk along the vector loop
        run = min(run, layouts[buffer].contiguous_run(dim))
    if run <= 1:
        return 1, 1
    return min(lanes, 1 << (run.bit_length() - 1)), run


def reuse_dim(summary: Summary, lead: Layout, loop: int) -> int | None:
    """The leading buffer's dim, other than the vector loop's, whose loop the register tile
    unrolls: indexed by a parallel loop one read uses and another does not, innermost in the
    leading buffer's memory order (as `register_tiling.py` chooses it)."""
    reads = [a for a in summary.accesses if not a.write]
    stores = [a for a in summary.accesses if a.buffer == summary.lead and a.write]
    best: tuple[int, int] | None = None
    for dim, other in enumerate(stores[0].loops if stores else ()):
        if other is None or other == loop or summary.trips[other] < 2:
            continue
        users = [any(other in uses for uses in a.uses) for a in reads]
        if not any(users) or all(users):
            continue
        digits = lead.dim_digits(dim)
        position = max(p for p, _ in digits) if digits else dim
        if best is None or position > best[0]:
            best = (position, dim)
    return None if best is None else best[1]


@dataclass(frozen=True)
class Tile:
    """The register tile a schedule gives the nest: `vectors` along the vector loop (`loop`)
    times `steps` of the reuse loop (`reuse`, None without one)."""

    loop: int | None
    reuse: int | None
    vectors: int
    steps: int
    folded: bool = False
    """One vector per step on a target with embedded broadcasts: each broadcast folds into
    its multiply and does not bound the loop."""


def tile_shape(
    summary: Summary,
    lead: Layout,
    vector: int,
    tile: tuple[int, ...] | None,
    registers: int,
    run: int = 0,
    fast: bool = False,
    embedded: bool = False,
) -> Tile:
    """The tile of `tile` (None: the pass's own, `register_tiling.tile_counts` for reads
    whose shortest contiguous run along the vector loop is `run`, one vector where
    `register_tiling.one_vector_tiles` says so); `embedded`: the target's multiplies
    take a broadcast memory operand."""
    loop = vector_loop(summary, lead) if vector > 1 else None
    stores = [a for a in summary.accesses if a.buffer == summary.lead and a.write]
    if loop is None or not stores or not summary.reductions():
        return Tile(loop, None, 1, 1)
    dim = reuse_dim(summary, lead, loop)
    reuse = None if dim is None else stores[0].loops[dim]
    reuse_trips = 1 if reuse is None else summary.trips[reuse]
    available = math.ceil(summary.trips[loop] / vector)
    if tile is None:
        block = max(1, run // vector) if 0 < run < summary.trips[loop] else available
        if one_vector_tiles(embedded, fast, _broadcast_moves(summary, loop, reuse)):
            available = block = 1
        vectors, steps = tile_counts(available, block, reuse_trips, registers, fast)
        return Tile(loop, reuse, vectors, steps, embedded and vectors == 1)
    along = [d for d, other in enumerate(stores[0].loops) if other == loop]
    vectors = min(available, max(1, tile[along[0]] // vector)) if along else 1
    steps = 1 if dim is None else min(reuse_trips, tile[dim])
    return Tile(loop, reuse, vectors, steps, embedded and vectors == 1)


def _broadcast_moves(summary: Summary, loop: int, reuse: int | None) -> bool:
    """Whether a read the vector loop does not index (broadcast to every lane) moves with
    the reuse loop, of elements a multiply's memory operand broadcasts (as
    `register_tiling` asks)."""
    return reuse is not None and any(
        not a.write
        and folds_into_multiply(a.bits)
        and not any(loop in uses for uses in a.uses)
        and any(reuse in uses for uses in a.uses)
        for a in summary.accesses
    )


def tiling_gain(shape: Tile) -> float:
    """The register tile's speed-up over untiled vectors (see the module docstring)."""
    if shape.loop is None:
        return 1.0
    broadcasts = 1.0 if shape.folded else min(1.0, shape.vectors / 2)
    efficiency = min(1.0, shape.vectors * shape.steps / IN_FLIGHT) * broadcasts
    return max(1.0, PEAK_TILING_GAIN * efficiency)


def strided_seconds(
    summary: Summary, layouts: dict[str, Layout], shape: Tile, vector: int
) -> float:
    """The locality term: the lines a read touches along the innermost reduction loop must
    stay in cache while the tile walks them (and for the next tile, which reuses them). A
    stride of `s` lines maps them to `sets / gcd(s, sets)` sets of a cache level; when
    they need more lines than those sets hold, every step misses that level (a matmul's
    row-major B along k: 2 KB apart, 512 rows in 2 sets of L1 and 32 of L2)."""
    reductions = summary.reductions()
    if not reductions:
        return 0.0
    inner = max(reductions)
    steps = math.prod(summary.trips) / (max(1, vector) * shape.vectors * shape.steps)
    seconds = 0.0
    for access in summary.accesses:
        walked = [d for d, uses in enumerate(access.uses) if inner in uses]
        if access.write or not walked:
            continue
        layout = layouts[access.buffer]
        element = layout.dtype.nbytes  # type: ignore[union-attr]
        step = [1 if d in walked else 0 for d in range(layout.rank)]
        stride = abs(layout.offset(step) - layout.offset([0] * layout.rank)) * element
        used = set().union(*access.uses)
        per_step = element * (max(1, vector) * shape.vectors if shape.loop in used else 1)
        per_step *= shape.steps if shape.reuse in used else 1
        lines = math.ceil(per_step / LINE_BYTES)
        seconds += steps * lines * _miss_seconds(stride, summary.trips[inner] * lines)
    return seconds


def _miss_seconds(stride: int, lines: int) -> float:
    """Seconds per line of a walk of `lines` lines `stride` bytes apart: the cost of the
    deepest cache level (CACHES) whose sets that stride reaches cannot hold them."""
    if stride <= LINE_BYTES or stride % LINE_BYTES:
        return 0.0
    cost = 0.0
    for size, ways, miss in CACHES:
        sets = size // (ways * LINE_BYTES)
        if lines > sets // math.gcd(stride // LINE_BYTES, sets) * ways:
            cost = miss
    return cost


def estimate(
    summary: Summary,
    buffers: list[Buffer],
    layouts: dict[str, Layout],
    lanes: int,
    tile: tuple[int, ...] | None = None,
    fast: bool = False,
    registers: int = 16,
    embedded: bool = False,
) -> Estimate:
    """The estimated seconds per call of the program with `layouts` (one per named buffer;
    buffers left out keep the input program's layout, or plain row-major) and the schedule
    options `tile` (None: the pass's) and `fast` (fused multiply-adds), on a target of
    `registers` vector registers whose multiplies take a broadcast memory operand if
    `embedded`."""
    vector, run = effective_lanes(summary, layouts, lanes)
    lead = layouts[summary.lead]
    shape = tile_shape(summary, lead, vector, tile, registers, run, fast, embedded)
    gain = tiling_gain(shape)
    if gain > 1.0 and run < 2 * vector:
        gain = max(1.0, gain / 2)
    if fast and vector > 1 and summary.multiply_adds:
        gain *= FMA_GAIN
    average: float = vector
    loop = vector_loop(summary, lead) if vector > 1 else None
    if loop is not None:
        trips = summary.trips[loop]
        average = trips / math.ceil(trips / vector)
    compute = summary.flops / (SCALAR_FLOPS * average * gain) / (1.0 - lead.padding_share)
    locality = strided_seconds(summary, layouts, shape, vector)
    conversion = _conversion_bytes(buffers, layouts) / CONVERSION_BYTES_PER_SECOND
    return Estimate(
        compute + locality + conversion, compute, conversion, vector, lead.padding_share, locality
    )


def _conversion_bytes(buffers: list[Buffer], layouts: dict[str, Layout]) -> int:
    converted = 0
    for buffer in buffers:
        layout = layouts[buffer.name]
        if buffer.argument is None or is_row_major(layout):
            continue
        converted += (layout.nbytes + layout.logical_size * layout.dtype.nbytes) * (  # type: ignore[union-attr]
            2 if buffer.written else 1
        )
    return converted


def is_row_major(layout: Layout) -> bool:
    """Whether the layout stores the buffer as its plain memref does (no conversion)."""
    shape = [extent or 1 for extent in layout.logical_shape]
    strides = tuple(math.prod(shape[d + 1 :]) for d in range(len(shape)))
    return layout.linear == (strides, 0) and layout.packing is None
