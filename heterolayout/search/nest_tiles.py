"""A schedule per nest for the whole-program search: once the layouts are chosen, each nest
with reduction loops tries the register tiles `schedules.tiles` generates for its loop nest
under those layouts besides `layout-schedule`'s own, each timed alone (cached, like the
layout costs), and keeps the fastest when it beats the pass's own by `GAIN`. The tile goes
in a `layout.schedule` op on the buffer the nest stores to; a buffer two nests would tile
differently keeps the pass's own.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from heterolayout.dialects.schedule_hint import ScheduleOp
from heterolayout.execution.entry import find_function
from heterolayout.layout.element_types import element_type
from heterolayout.layout.parse import parse_layout
from heterolayout.passes.lower.linalg_loops import lower_linalg_on_layouts
from heterolayout.passes.schedule.layout_schedule import TARGETS
from heterolayout.search.candidates import row_major
from heterolayout.search.cost import summarize
from heterolayout.search.graph import ProgramGraph, ProgramNest, nest_module
from heterolayout.search.measure import FAILURES
from heterolayout.search.program import hot_nest
from heterolayout.search.schedules import tiles

GAIN = 0.97
"""A tile replaces the pass's own when it takes less than this share of its time."""

Hint = tuple[str, tuple[int, ...]]
"""A register tile on a buffer: what a `layout.schedule` op says."""
Timed = Callable[[ProgramNest, dict[str, str], Hint | None], float]
"""Seconds of a nest alone with the layouts (buffer → attribute text) and a tile hint (None:
the pass's own)."""


def nest_tiles(
    graph: ProgramGraph,
    layouts: dict[str, str],
    target: str,
    timed: Timed,
    progress: Callable[[str], None] | None = None,
) -> tuple[dict[str, tuple[int, ...]], dict[int, str]]:
    """(buffer → tile for its `layout.schedule`, nest index → the schedule it got)."""
    width, registers = TARGETS[target]
    wanted: dict[str, set[tuple[int, ...] | None]] = {}
    best_of: dict[int, tuple[str, tuple[int, ...] | None]] = {}
    for nest in [n for n in graph.nests if n.module is not None]:
        mine = {n: t for n in nest.buffers if (t := layouts.get(n)) is not None}
        try:
            lead, candidates = _candidates(graph, nest, mine, width, registers)
        except (*FAILURES, PassFailedException):
            continue
        if not candidates:
            continue
        if progress is not None:
            progress(f"tiles of {nest.name}: {len(candidates)} besides the pass's own")
        own = timed(nest, mine, None)
        best, best_seconds = None, own * GAIN
        for tile in candidates:
            seconds = timed(nest, mine, (lead, tile))
            if seconds < best_seconds:
                best, best_seconds = tile, seconds
        wanted.setdefault(lead, set()).add(best)
        best_of[nest.index] = (lead, best)
    chosen: dict[str, tuple[int, ...]] = {}
    for buffer, tiles_wanted in wanted.items():
        if len(tiles_wanted) == 1 and (only := next(iter(tiles_wanted))) is not None:
            chosen[buffer] = only
    labels = {
        index: "tile " + "x".join(map(str, chosen[lead])) if lead in chosen else "default tile"
        for index, (lead, _) in best_of.items()
    }
    return chosen, labels


def _candidates(
    graph: ProgramGraph, nest: ProgramNest, layouts: dict[str, str], width: int, registers: int
) -> tuple[str, list[tuple[int, ...]]]:
    """The buffer the nest stores to and the tiles to try for its loop nest."""
    module = nest_module(nest, layouts)
    lower_linalg_on_layouts(module, every=True)
    function = find_function(module, "main")
    loops = hot_nest(function)
    if loops is None:
        return "", []
    names: dict[SSAValue, str] = dict(zip(function.body.block.args, nest.buffers, strict=True))
    summary = summarize(loops, names)
    if summary.lead not in graph.buffers:
        return "", []
    buffer = graph.buffers[summary.lead]
    spec = layouts.get(summary.lead) or row_major(len(buffer.shape))
    lead = parse_layout(spec, buffer.shape, dtype=buffer.element)
    lanes = max(1, width // element_type(buffer.element).bits)
    return summary.lead, tiles(summary, lead, lanes, registers)


def tiled_module(nest: ProgramNest, layouts: dict[str, str], hint: Hint) -> ModuleOp:
    """The nest alone with its layouts and a `layout.schedule` tile on a buffer."""
    module = nest_module(nest, layouts)
    block = find_function(module, "main").body.block
    argument = block.args[nest.buffers.index(hint[0])]
    assert block.first_op is not None
    Rewriter.insert_op(ScheduleOp(argument, hint[1]), InsertPoint.before(block.first_op))
    return module
