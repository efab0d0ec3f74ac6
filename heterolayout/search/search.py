"""`tune`: candidates per buffer, the joint space ranked by the cost model, the cheapest
`budget` measured, and the ranked table."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from heterolayout.execution.engines import load_module
from heterolayout.execution.entry import find_function
from heterolayout.layout.element_types import element_type
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.parse import parse_layout
from heterolayout.passes.schedule.layout_schedule import (
    EMBEDDED_BROADCASTS,
    TARGETS,
    host_target,
)
from heterolayout.search.candidates import LETTERS, Candidate, Skipped, generate
from heterolayout.search.cost import Summary, is_row_major, summarize
from heterolayout.search.measure import (
    Cache,
    Measurement,
    Timer,
    measure,
    measure_input,
    native_timer,
    pipeline,
)
from heterolayout.search.program import Buffer, buffer_roots, find_buffers, hot_nest, with_layouts
from heterolayout.search.schedules import parse_tile
from heterolayout.search.space import Joint, joint_space, tied_dims, with_schedules

DEFAULT_SHARE = 0.25
"""Share of the joint space measured when no budget is given."""

Progress = Callable[[int, int, "Row | None"], None]


@dataclass(frozen=True)
class Row:
    layouts: dict[str, str]
    """Buffer name → layout label."""
    specs: dict[str, str]
    """Buffer name → attribute text of the layouts it assigns (buffers kept plain: none)."""
    estimate_ms: float
    ms: float
    alone_ms: float | None
    gflops: float
    padding_share: float
    conversion_share: float | None
    speedup: float
    """Input program time / this time."""
    schedule: str = "default tile"
    """The schedule options that won with these layouts (search/schedules.py)."""
    pipeline: str = ""
    """The pipeline it was measured through."""
    tile: tuple[int, ...] | None = None
    """The register tile (None: the pass's own)."""
    options: str = ""
    """The `layout-schedule` options besides the target."""


@dataclass
class TuneResult:
    entry: str
    buffers: list[str]
    input_ms: float
    flops: int
    space: int
    rows: list[Row]
    """Measured candidates, fastest first."""
    skipped: list[Skipped] = field(default_factory=list)
    program: str = ""
    """The program with the winning layout.assigns and register tile (empty when nothing was
    measured)."""
    fast_math: bool = False
    lead: str = ""
    """The buffer the hot nest stores to (its `layout.schedule` op carries the tile)."""

    @property
    def best(self) -> Row | None:
        return self.rows[0] if self.rows else None

    @property
    def pipeline(self) -> str:
        """The winner's pipeline: what `layout-opt -p` runs on `program` to reproduce it."""
        return self.rows[0].pipeline if self.rows else ""

    def table(self) -> list[dict[str, Any]]:
        """The ranked table as data: one dict per measured candidate."""
        return [{"rank": i + 1, **row.__dict__} for i, row in enumerate(self.rows)]


def resolved(target: str) -> str:
    """The named target `target` means (`host`: the host query's)."""
    if target == "host":
        return host_target()
    if target not in TARGETS:
        raise LayoutError(f"unknown target '{target}' (known: host, {', '.join(TARGETS)})")
    return target


def _lanes(element_bits: int, target: str) -> tuple[int, tuple[int, ...]]:
    width = TARGETS[target][0]
    all_lanes = tuple(sorted({max(1, w // element_bits) for w in (128, 256, 512)}))
    return max(1, width // element_bits), all_lanes


def _input_candidate(buffer: Buffer) -> Candidate:
    if buffer.assigned is not None:
        return Candidate(
            "input",
            buffer.assigned,
            parse_layout(buffer.assigned, buffer.shape, dtype=buffer.element),
        )
    source = LETTERS[: len(buffer.shape)]
    spec = f'#layout.tag<"{source}->{source}">'
    return Candidate("input", spec, parse_layout(spec, buffer.shape, dtype=buffer.element))


@dataclass
class Space:
    """The tuned buffers, the hot nest's summary, the ranked joint candidates, and the
    candidates that did not verify."""

    module: ModuleOp
    buffers: list[Buffer]
    summary: Summary
    joints: list[Joint]
    skipped: list[Skipped]


def search_space(
    module: ModuleOp,
    entry: str,
    names: list[str] | None,
    target: str,
    tile_texts: Sequence[str] = (),
    fast_math: bool = False,
) -> Space:
    """Candidates per buffer and the joint space of layouts × schedules, ranked by the cost
    model; `tile_texts` are register tiles to try (`1x32x1x3`), `fast_math` allows fused
    multiply-adds and reassociated reductions."""
    named = resolved(target)
    chosen = find_buffers(module, entry, names)
    function = find_function(module, entry)
    nest = hot_nest(function)
    if nest is None:
        raise LayoutError(f"@{entry}: no loop nest layout-schedule can read")
    names_of = {b.name for b in chosen}
    every = buffer_roots(function)
    summary = summarize(nest, {root: name for root, name in every.items() if name in names_of})
    if summary.lead not in names_of:
        stored = summarize(nest, every).lead or "?"
        raise LayoutError(f"@{entry}: tune the buffer the hot nest stores to ('{stored}') too")
    tied = tied_dims(summary)
    candidates: dict[str, list[Candidate]] = {}
    skipped: list[Skipped] = []
    lanes = 1
    for buffer in chosen:
        vector, all_lanes = _lanes(element_type(buffer.element).bits, named)
        if buffer.name == summary.lead:
            lanes = vector
        dims = tuple(sorted(tied.get(buffer.name, ())))
        found, refused = generate(buffer.name, buffer.shape, buffer.element, all_lanes, dims)
        candidates[buffer.name] = found
        skipped += refused
    lead = next(b for b in chosen if b.name == summary.lead)
    extra = [parse_tile(text, len(lead.shape), lead.name) for text in tile_texts]
    inputs = {b.name: _input_candidate(b) for b in chosen}
    registers = TARGETS[named][1]
    embedded = named in EMBEDDED_BROADCASTS
    joints = joint_space(chosen, candidates, inputs, summary, lanes, registers, embedded=embedded)
    joints = with_schedules(joints, chosen, summary, lanes, registers, extra, fast_math, embedded)
    return Space(module, chosen, summary, joints, skipped)


def tune(
    program: ModuleOp | str,
    buffers: Sequence[str] | None = None,
    *,
    entry: str = "main",
    budget: int | None = None,
    target: str = "host",
    fast_math: bool = False,
    tiles: Sequence[str] = (),
    timer: Timer | None = None,
    cache: Cache | None = None,
    progress: Progress | None = None,
) -> TuneResult:
    """Search layouts of `buffers` (default: every buffer the hot loop nest touches) of
    `entry` and `layout-schedule`'s options with them: register tiles (the generated ones
    and `tiles`, e.g. "1x32x1x3"), and fused multiply-adds with reassociated reductions
    only when `fast_math` (results may then differ in the last bits). Measures the `budget`
    cheapest joint candidates by the cost model (default a quarter of the space). Returns
    the ranked table and the winning program."""
    if budget is not None and budget < 1:
        raise LayoutError(f"budget must be at least 1, got {budget}")
    module = load_module(program)
    names = list(buffers) if buffers is not None else None
    space = search_space(module, entry, names, target, tiles, fast_math)
    count = budget or max(1, math.floor(DEFAULT_SHARE * len(space.joints)))
    timer = timer or native_timer()
    cache = cache or Cache()
    named = resolved(target)
    settings = f"{pipeline(target)}|{named}|{getattr(timer, '__qualname__', '')}"
    input_ms = _cached_input(cache, str(module), entry, settings, module, timer, target) * 1e3
    rows: list[Row] = []
    skipped = list(space.skipped)
    measuring = _Measuring(module, entry, space, timer, cache, settings, target)
    for index, joint in enumerate(space.joints[:count]):
        result = measuring.measure(joint)
        if result.seconds is None:
            labels = [
                f"{b.name}={c.label}" for b, c in zip(space.buffers, joint.choice, strict=True)
            ]
            labels.append(joint.schedule.label)
            skipped.append(Skipped(", ".join(labels), "measurement", result.error or ""))
        else:
            row = _row(joint, space.buffers, result, space.summary.flops, input_ms)
            options = joint.schedule.options
            layouts = applied(joint, space.buffers)
            rows.append(
                replace(row, specs=layouts, pipeline=pipeline(target, options), options=options)
            )
            rows.sort(key=lambda r: r.ms)
        if progress is not None:
            progress(index + 1, count, rows[0] if rows else None)
    winner = _winner(module, entry, space, rows[0]) if rows else ""
    names = [b.name for b in space.buffers]
    flops, size, lead = space.summary.flops, len(space.joints), space.summary.lead
    return TuneResult(entry, names, input_ms, flops, size, rows, skipped, winner, fast_math, lead)


@dataclass(frozen=True)
class _Measuring:
    """Measures joint candidates of one search, through the cache."""

    module: ModuleOp
    entry: str
    space: Space
    timer: Timer
    cache: Cache
    settings: str
    target: str

    def measure(self, joint: Joint) -> Measurement:
        layouts = applied(joint, self.space.buffers)
        schedule = joint.schedule
        settings = f"{self.settings}|{schedule.options}|{schedule.tile}"
        key = self.cache.key(str(self.module), self.entry, layouts, settings)
        result = self.cache.get(key)
        if result is None:
            result = measure(
                self.module,
                self.entry,
                layouts,
                self.timer,
                alone=any(b.argument is not None for b in self.space.buffers),
                target=self.target,
                options=schedule.options,
                hint=(self.space.summary.lead, schedule.tile),
            )
            self.cache.put(key, result)
        return result


def _winner(module: ModuleOp, entry: str, space: Space, row: Row) -> str:
    """The program with the winner's layouts, its tile as a `layout.schedule` op on the
    stored buffer, and the pipeline that reproduces it in a comment on top."""
    program = with_layouts(module, entry, row.specs, hint=(space.summary.lead, row.tile))
    return f"// layout-tune: layout-opt -p '{row.pipeline}'\n{program!s}"


def applied(joint: Joint, buffers: list[Buffer]) -> dict[str, str]:
    """The layouts a candidate assigns: a buffer the input program leaves plain and the
    candidate keeps row-major gets none (an assign would copy it at the boundary)."""
    return {
        b.name: c.spec
        for b, c in zip(buffers, joint.choice, strict=True)
        if b.assigned is not None or not is_row_major(c.layout)
    }


def _cached_input(
    cache: Cache, text: str, entry: str, settings: str, module: ModuleOp, timer: Timer, target: str
) -> float:
    key = cache.key(text, entry, {}, settings)
    found = cache.get(key)
    if found is not None and found.seconds is not None:
        return found.seconds
    seconds = measure_input(module, entry, timer, target)
    cache.put(key, Measurement(seconds, None))
    return seconds


def _row(
    joint: Joint, buffers: list[Buffer], result: Measurement, flops: int, input_ms: float
) -> Row:
    assert result.seconds is not None
    layouts = [c.layout for c in joint.choice]
    slots = sum(layout.size for layout in layouts)
    padding = 1.0 - sum(layout.logical_size for layout in layouts) / slots
    ms = result.seconds * 1e3
    alone_ms = None if result.alone is None else result.alone * 1e3
    conversion = None if alone_ms is None else max(0.0, (ms - alone_ms) / ms)
    return Row(
        {b.name: c.label for b, c in zip(buffers, joint.choice, strict=True)},
        joint.layouts(buffers),
        joint.estimate.seconds * 1e3,
        ms,
        alone_ms,
        flops / result.seconds / 1e9,
        padding,
        conversion,
        input_ms / ms,
        joint.schedule.label,
        tile=joint.schedule.tile,
    )
