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
- register pressure: the register tile keeps `u·w` accumulators in half the registers; a
  tile that cannot take two vectors along the vector loop (a run shorter than two vectors,
  or a loop shorter than that) halves the tiling gain;
- conversions: bytes converted at the public boundary (every argument whose layout is not
  the plain row-major one, twice for written ones) at a copy bandwidth.

The constants are this project's measurements (benchmarks/RESULTS.md): about 1.5 GFLOP/s
for a scalar f32 nest; about 8 GB/s for the boundary conversions of a convolution into
nChw16c/OIhw16i16o (4.9 MB converted in 0.55 ms, benchmarks/tune.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.ir.affine import AffineExpr

from heterolayout.layout.expressions import linear_form
from heterolayout.layout.model import Layout
from heterolayout.passes.schedule.nest import INDEX, Nest, storage_root
from heterolayout.search.program import Buffer

SCALAR_FLOPS = 1.5e9
CONVERSION_BYTES_PER_SECOND = 8e9
TILING_GAIN = 2.0


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


@dataclass(frozen=True)
class Summary:
    """What the cost model needs from the hot nest."""

    trips: tuple[int, ...]
    accesses: tuple[Access, ...]
    lead: str
    flops: int

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


def summarize(nest: Nest, names: dict[object, str]) -> Summary:
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
        accesses.append(Access(name, access.write, loops, uses, unit))
    stores = sorted((a for a in nest.accesses.values() if a.write), key=lambda a: -a.depth)
    root = storage_root(stores[0].buffer) if stores else None
    lead = "" if root is None else names.get(root, root.name_hint or "")
    trips = tuple(loop.trips for loop in nest.loops)
    arithmetic = [
        op
        for op in nest.body
        if op.name.startswith(("arith.", "math.")) and op.results and op.results[0].type != INDEX
    ]
    return Summary(trips, tuple(accesses), lead, max(1, len(arithmetic)) * math.prod(trips))


@dataclass(frozen=True)
class Estimate:
    seconds: float
    compute: float
    conversion: float
    lanes: int
    """Effective vector lanes of the vector loop (1: scalar)."""
    padding: float
    """Padding share of the leading buffer."""

    def row(self) -> dict[str, float]:
        return {
            "estimate_ms": self.seconds * 1e3,
            "lanes": self.lanes,
            "conversion_ms": self.conversion * 1e3,
        }


def _vector_loop(summary: Summary, lead: Layout) -> int | None:
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
    loop = _vector_loop(summary, lead)
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


def estimate(
    summary: Summary, buffers: list[Buffer], layouts: dict[str, Layout], lanes: int
) -> Estimate:
    """The estimated seconds per call of the program with `layouts` (one per named buffer;
    buffers left out keep the input program's layout, or plain row-major)."""
    vector, run = effective_lanes(summary, layouts, lanes)
    gain = 1.0
    if vector > 1 and summary.reductions():
        gain = TILING_GAIN if run >= 2 * vector else TILING_GAIN / 2
    lead = layouts[summary.lead]
    average: float = vector
    loop = _vector_loop(summary, lead) if vector > 1 else None
    if loop is not None:
        trips = summary.trips[loop]
        average = trips / math.ceil(trips / vector)
    compute = summary.flops / (SCALAR_FLOPS * average * gain) / (1.0 - lead.padding_share)
    converted = 0
    for buffer in buffers:
        layout = layouts[buffer.name]
        if buffer.argument is None or is_row_major(layout):
            continue
        converted += (layout.nbytes + layout.logical_size * layout.dtype.nbytes) * (  # type: ignore[union-attr]
            2 if buffer.written else 1
        )
    conversion = converted / CONVERSION_BYTES_PER_SECOND
    return Estimate(compute + conversion, compute, conversion, vector, lead.padding_share)


def is_row_major(layout: Layout) -> bool:
    """Whether the layout stores the buffer as its plain memref does (no conversion)."""
    shape = [extent or 1 for extent in layout.logical_shape]
    strides = tuple(math.prod(shape[d + 1 :]) for d in range(len(shape)))
    return layout.linear == (strides, 0) and layout.packing is None
