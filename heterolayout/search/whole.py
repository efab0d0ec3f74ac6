"""`tune` (`heterolayout.tune`, `layout-tune`): layouts for every buffer of the program.

The model: one layout per buffer (argument, allocation, private constant global), so no
conversion happens inside the program: a nest that reads one buffer and writes another
(a `memref.copy` into a padded buffer, a transpose) converts by itself and its time says
what that costs; an argument converts at the public boundary (in on entry, back on return
when written: measured per candidate); a global is repacked at compile time, for free.
Each nest is timed alone (graph.py: its function with layout-typed arguments, so no
conversion is timed) for every combination of its buffers' candidates, through the
pipeline the winner will run, cached on disk; identical nests share their measurements.
The choice minimizes the sum of nest times and boundary conversions over all buffers at
once (solve.py: variable elimination, exact; iterated conditional modes past its table
limit). Then the winner, the program as written and the uniform choices (all plain, all
blocked) run whole, and the fastest of them is returned: never slower than not choosing,
as measured.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from xdsl.dialects.builtin import ModuleOp
from xdsl.rewriter import Rewriter

from heterolayout.dialects.layout import AssignOp
from heterolayout.dialects.roots import storage_root
from heterolayout.execution.engines import load_module
from heterolayout.execution.entry import find_function
from heterolayout.layout.element_types import element_type
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.parse import parse_layout
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.passes.schedule.layout_schedule import TARGETS
from heterolayout.search.candidates import Candidate, program_candidates
from heterolayout.search.graph import (
    ProgramBuffer,
    ProgramGraph,
    ProgramNest,
    nest_module,
    read_graph,
)
from heterolayout.search.measure import FAILURES, Cache, Measurement, Timer, native_timer, pipeline
from heterolayout.search.nest_tiles import Hint, nest_tiles, tiled_module
from heterolayout.search.program import buffer_roots, with_layouts, with_tiles
from heterolayout.search.search import resolved
from heterolayout.search.solve import Assignment, Factor, solve, total

FAST_OPTIONS = "fma=true reassociate=true"
NEST_REPEAT, NEST_MIN_TIME = 7, 0.001
"""Repetitions and seconds per repetition timing one nest (short: there are many)."""
PROGRAM_REPEAT, PROGRAM_MIN_TIME = 15, 0.003
"""The same for the whole programs measured at the end."""

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Option:
    """One candidate layout of a buffer."""

    kind: str
    """`plain`, `input` (the program's own), `blocked`, or `fixed` (not tuned)."""
    spec: str | None
    """The `#layout.…` text; None: as the program has it (not tuned, or row-major)."""
    label: str

    @property
    def type_spec(self) -> str | None:
        """The layout a nest's argument is typed with (None: plain)."""
        return None if self.kind == "plain" else self.spec


class Costs(Protocol):
    """Where costs come from (seconds; `math.inf`: the choice does not run). Measured
    natively by default (`MeasuredCosts`); tests inject their own."""

    def nest(self, nest: ProgramNest, layouts: dict[str, str]) -> float: ...

    def boundary(self, buffer: ProgramBuffer, spec: str) -> float: ...

    def tiled(self, nest: ProgramNest, layouts: dict[str, str], hint: Hint | None) -> float: ...

    def program(self, source: ModuleOp, entry: str) -> float: ...


@dataclass
class MeasuredCosts:
    """Native measurement through `pipeline(target, options)`, cached on disk."""

    target: str = "host"
    options: str = ""
    cache: Cache = field(default_factory=Cache)
    nest_timer: Timer = field(default_factory=lambda: native_timer(NEST_REPEAT, NEST_MIN_TIME, 0.1))
    program_timer: Timer = field(
        default_factory=lambda: native_timer(PROGRAM_REPEAT, PROGRAM_MIN_TIME, 1.0)
    )
    errors: dict[str, str] = field(default_factory=dict)
    """Why a measurement failed, by what was measured."""

    @property
    def steps(self) -> str:
        return pipeline(self.target, self.options)

    def _timed(
        self,
        what: str,
        text: str,
        build: Callable[[], ModuleOp],
        timer: Timer,
        entry: str = "main",
    ) -> float:
        key = self.cache.key(text, entry, {}, f"{what}|{self.steps}|{resolved(self.target)}")
        found = self.cache.get(key)
        if found is None:
            try:
                source = build()
                seconds = timer([(source, apply_pipeline(source, self.steps))], entry)[0]
                found = Measurement(seconds, None)
            except FAILURES as error:
                found = Measurement(None, None, str(error).strip().splitlines()[0])
            self.cache.put(key, found)
        if found.seconds is None:
            self.errors[text[:200]] = found.error or "failed"
            return math.inf
        return found.seconds

    def nest(self, nest: ProgramNest, layouts: dict[str, str]) -> float:
        by_position = [layouts.get(name, "") for name in nest.buffers]
        text = f"{nest.key}\n{by_position}"
        return self._timed("nest", text, lambda: nest_module(nest, layouts), self.nest_timer)

    def tiled(self, nest: ProgramNest, layouts: dict[str, str], hint: Hint | None) -> float:
        """The nest alone with a register tile (None: the pass's own, as `nest`)."""
        if hint is None:
            return self.nest(nest, layouts)
        by_position = [layouts.get(name, "") for name in nest.buffers]
        text = f"{nest.key}\n{by_position}\n{hint}"
        return self._timed("nest", text, lambda: tiled_module(nest, layouts, hint), self.nest_timer)

    def boundary(self, buffer: ProgramBuffer, spec: str) -> float:
        source = boundary_program(buffer, spec)
        return self._timed("boundary", source, lambda: load_module(source), self.nest_timer)

    def program(self, source: ModuleOp, entry: str) -> float:
        text = str(source)
        return self._timed("program", text, lambda: source, self.program_timer, entry)


def boundary_program(buffer: ProgramBuffer, spec: str) -> str:
    """A function that converts an argument of `buffer`'s type into `spec` on entry (and
    back on return when the program writes it: a store marks it written); one element read
    into a second argument keeps the conversion from being dead code."""
    memref_type = f"memref<{'x'.join(map(str, buffer.shape))}x{buffer.element}>"
    scalar = f"memref<{buffer.element}>"
    indices = ", ".join(["%i"] * buffer.rank)
    lines = [
        f"func.func @main(%a: {memref_type}, %r: {scalar}) {{",
        f"  layout.assign %a to {spec} : {memref_type}",
        "  %i = arith.constant 0 : index",
        f"  %v = memref.load %a[{indices}] : {memref_type}",
        f"  memref.store %v, %r[] : {scalar}",
    ]
    if buffer.written:
        lines.append(f"  memref.store %v, %a[{indices}] : {memref_type}")
    lines += ["  func.return", "}"]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Contender:
    """A whole program measured at the end: its name, layouts and time."""

    name: str
    choice: dict[str, str]
    """Buffer → layout label."""
    predicted_ms: float
    ms: float
    """Measured whole (inf: it did not run)."""


@dataclass
class ProgramTuneResult:
    entry: str
    pipeline: str
    method: str
    buffers: list[dict[str, Any]]
    nests: list[dict[str, Any]]
    contenders: list[Contender]
    """Measured whole programs, fastest first; the first is the winner."""
    program: str
    """The winner's program, with the pipeline that reproduces it in a comment on top."""
    measurements: int = 0
    skipped: list[str] = field(default_factory=list)
    fast_math: bool = False

    @property
    def winner(self) -> Contender:
        return self.contenders[0]

    def contender(self, name: str) -> Contender | None:
        return next((c for c in self.contenders if c.name == name), None)

    def table(self) -> dict[str, Any]:
        """The report as data: per buffer, per nest, and the whole programs measured."""
        return {
            "entry": self.entry,
            "pipeline": self.pipeline,
            "method": self.method,
            "winner": self.winner.name,
            "measurements": self.measurements,
            "buffers": self.buffers,
            "nests": self.nests,
            "programs": [c.__dict__ for c in self.contenders],
            "skipped": self.skipped,
        }


def _blocks(element: str, target: str) -> tuple[int, ...]:
    """The target's vector lanes for `element` and half of them (a buffer too small for a
    full vector block)."""
    try:
        bits = element_type(element).bits
    except (LayoutError, ValueError, KeyError):
        return ()
    lanes = max(1, TARGETS[target][0] // bits)
    return tuple(sorted({lanes, lanes // 2} - {0, 1}, reverse=True))


def options_of(buffer: ProgramBuffer, tuned: bool, target: str) -> list[Option]:
    """A buffer's options: one (as the program has it) when not tuned; else row-major,
    the program's own layout and the blocked ones of its role."""
    fixed = [
        Option(
            "fixed", buffer.assigned, _label(buffer.assigned) if buffer.assigned else "as written"
        )
    ]
    if not tuned or not buffer.tunable or buffer.rank == 0:
        return fixed
    blocks = _blocks(buffer.element, target)
    try:
        found = program_candidates(
            buffer.shape, buffer.element, buffer.role, blocks, buffer.assigned
        )
    except LayoutError:
        return fixed
    return [_option(c) for c in found] or fixed


def _option(candidate: Candidate) -> Option:
    return Option(candidate.kind, candidate.spec, candidate.label)


def _label(spec: str) -> str:
    if spec.startswith('#layout.tag<"') and spec.endswith('">'):
        return spec[len('#layout.tag<"') : -2]
    return spec.removeprefix("#layout.")


def program_with(module: ModuleOp, entry: str, choice: dict[str, Option]) -> ModuleOp:
    """The program with each buffer's chosen layout: tuned buffers get a `layout.assign`
    (none when row-major: the program's own assign is removed), the others keep theirs."""
    layouts = {n: o.spec for n, o in choice.items() if o.kind != "fixed" and o.spec is not None}
    program = with_layouts(module, entry, layouts)
    plain = {n for n, o in choice.items() if o.kind == "plain"}
    function = find_function(program, entry)
    roots = buffer_roots(function)
    for op in [op for op in function.walk() if isinstance(op, AssignOp)]:
        name = roots.get(storage_root(op.memref))
        if name in plain:
            Rewriter.erase_op(op)
    return program


@dataclass
class _Search:
    graph: ProgramGraph
    options: dict[str, list[Option]]
    costs: Costs
    progress: Progress | None

    def __post_init__(self) -> None:
        self.variables = {n: len(o) for n, o in self.options.items() if len(o) > 1}
        self.tables: dict[int, Factor] = {}
        self.boundaries: dict[str, Factor] = {}
        self.errors: list[str] = []
        self.measured = 0

    def layouts(self, choice: dict[str, Option], names: Sequence[str]) -> dict[str, str]:
        return {n: s for n in names if (s := choice[n].type_spec) is not None}

    def nest_factor(self, nest: ProgramNest) -> Factor:
        scope = tuple(n for n in nest.buffers if n in self.variables)
        fixed = {n: self.options[n][0] for n in nest.buffers if n not in self.variables}
        table: dict[tuple[int, ...], float] = {}
        for values in itertools.product(*(range(self.variables[n]) for n in scope)):
            choice = {
                **fixed,
                **{n: self.options[n][v] for n, v in zip(scope, values, strict=True)},
            }
            table[values] = self.costs.nest(nest, self.layouts(choice, nest.buffers))
            self.measured += 1
        return Factor(scope, table)

    def boundary_factor(self, buffer: ProgramBuffer) -> Factor:
        table: dict[tuple[int, ...], float] = {
            (i,): 0.0
            if option.kind == "plain" or option.spec is None
            else self.costs.boundary(buffer, option.spec)
            for i, option in enumerate(self.options[buffer.name])
        }
        self.measured += len(table)
        return Factor((buffer.name,), table)

    def factors(self) -> list[Factor]:
        found: list[Factor] = []
        nests = [n for n in self.graph.nests if n.module is not None]
        for position, nest in enumerate(nests):
            if self.progress is not None:
                self.progress(f"[{position + 1}/{len(nests)}] {nest.name}")
            factor = self.nest_factor(nest)
            self.tables[nest.index] = factor
            found.append(factor)
        for name in self.variables:
            buffer = self.graph.buffers[name]
            if buffer.kind == "argument":
                self.boundaries[name] = self.boundary_factor(buffer)
                found.append(self.boundaries[name])
        return found


def _uniform(options: dict[str, list[Option]], variables: dict[str, int], kind: str) -> Assignment:
    """Every variable's first option of `kind` (`plain`, `blocked`, `input`), else its first."""
    return {n: next((i for i, o in enumerate(options[n]) if o.kind == kind), 0) for n in variables}


@dataclass
class Problem:
    """The search's variables and factors: each buffer's options, the nests' cost tables
    and the arguments' boundary conversions."""

    graph: ProgramGraph
    options: dict[str, list[Option]]
    search: _Search
    factors: list[Factor]


def build_problem(
    module: ModuleOp,
    entry: str,
    buffers: Sequence[str] | None,
    target: str,
    costs: Costs,
    progress: Progress | None = None,
) -> Problem:
    """Read the program, give each buffer its options (`buffers`: only those are tuned)
    and measure every nest's table (`target`: a named target, as `resolved` gives)."""
    graph = read_graph(module, entry)
    if buffers is not None:
        unknown = [n for n in buffers if n not in graph.buffers]
        if unknown:
            known = ", ".join(graph.buffers) or "none"
            raise LayoutError(f"@{entry}: no buffer named '{unknown[0]}' (buffers: {known})")
        for name in buffers:
            refusal = graph.buffers[name].refusal
            if refusal:
                raise LayoutError(f"@{entry}: buffer '{name}' {refusal}")
    if not any(n.buffers for n in graph.nests):
        raise LayoutError(f"@{entry}: no nest reads or writes a buffer")
    selected = set(graph.buffers if buffers is None else buffers)
    options = {
        name: options_of(buffer, name in selected, target) for name, buffer in graph.buffers.items()
    }
    search = _Search(graph, options, costs, progress)
    return Problem(graph, options, search, search.factors())


def tune(
    program: ModuleOp | str,
    buffers: Sequence[str] | None = None,
    *,
    entry: str = "main",
    target: str = "host",
    fast_math: bool = False,
    costs: Costs | None = None,
    cache: Cache | None = None,
    progress: Progress | None = None,
) -> ProgramTuneResult:
    """Choose a layout for every buffer of `entry` (or only `buffers`, by name: `x`,
    `alloc_0`, `@weights`), measuring each nest natively with its buffers' candidates and
    each argument's boundary conversion, minimizing their sum over the whole program,
    and returning the fastest, measured whole, of the winner, the program as written and
    the uniform choices. `fast_math` schedules with fused multiply-adds and reassociated
    reductions, and f32 exp/erf/tanh/log as polynomials (results may differ in the last
    bits)."""
    module = load_module(program)
    named = resolved(target)
    options_text = FAST_OPTIONS if fast_math else ""
    steps = pipeline(target, options_text)
    if costs is None:
        costs = MeasuredCosts(target, options_text, cache or Cache())
    problem = build_problem(module, entry, buffers, named, costs, progress)
    graph, options, search = problem.graph, problem.options, problem.search
    factors, variables = problem.factors, search.variables
    starts = {
        "all plain": _uniform(options, variables, "plain"),
        "all blocked": _uniform(options, variables, "blocked"),
        "as written": _uniform(options, variables, "input"),
    }
    solution = solve(variables, factors, list(starts.values()), log=progress)
    proposals: dict[str, Assignment] = {"searched": solution.assignment, **starts}
    contenders = []
    seen: dict[str, Contender] = {}
    for name, assignment in proposals.items():
        choice = _choice(options, assignment)
        try:
            source = module if name == "as written" else program_with(module, entry, choice)
        except FAILURES as error:
            search.errors.append(f"{name}: {error}")
            continue
        text = str(source)
        predicted = total(factors, assignment) * 1e3
        if text in seen:
            ms = seen[text].ms
        else:
            if progress is not None:
                progress(f"whole program: {name}")
            ms = costs.program(source, entry) * 1e3
        contender = Contender(name, {n: o.label for n, o in choice.items()}, predicted, ms)
        seen.setdefault(text, contender)
        contenders.append(contender)
    order = {"as written": 0, "all plain": 1, "all blocked": 2, "searched": 3}
    contenders.sort(key=lambda c: (c.ms, order[c.name]))
    winner = contenders[0]
    if math.isinf(winner.ms):
        raise LayoutError(f"@{entry}: no program could be measured")
    chosen = _choice(options, proposals[winner.name])
    best = module if winner.name == "as written" else program_with(module, entry, chosen)
    layouts = {n: t for n, o in chosen.items() if (t := o.type_spec) is not None}
    tiles, schedules = nest_tiles(graph, layouts, named, costs.tiled, progress)
    tiled_wins = False
    if tiles:
        tiled = with_tiles(program_with(module, entry, chosen), entry, tiles)
        if progress is not None:
            progress(f"whole program: {winner.name}, tiled")
        ms = costs.program(tiled, entry) * 1e3
        tiled_wins = ms < winner.ms
        if tiled_wins:
            name = f"{winner.name}, tiled"
            contenders.insert(0, Contender(name, winner.choice, winner.predicted_ms, ms))
            best = tiled
    if not tiled_wins:
        schedules = dict.fromkeys(schedules, "default tile")
    text = f"// layout-tune: layout-opt -p '{steps}'\n{best!s}"
    return ProgramTuneResult(
        entry,
        steps,
        solution.method,
        _buffer_rows(graph, options, proposals, winner.name),
        _nest_rows(graph, search, proposals, winner.name, schedules),
        contenders,
        text,
        search.measured,
        [f"{n.name}: {n.reason}" for n in graph.nests if n.module is None] + search.errors,
        fast_math,
    )


def _choice(options: dict[str, list[Option]], assignment: Assignment) -> dict[str, Option]:
    return {n: options[n][assignment.get(n, 0)] for n in options}


def _buffer_rows(
    graph: ProgramGraph,
    options: dict[str, list[Option]],
    proposals: dict[str, Assignment],
    winner: str,
) -> list[dict[str, Any]]:
    rows = []
    for name, buffer in graph.buffers.items():
        chosen = options[name][proposals[winner].get(name, 0)]
        written = options[name][proposals["as written"].get(name, 0)]
        rows.append(
            {
                "buffer": name,
                "kind": buffer.kind,
                "shape": list(buffer.shape),
                "element": buffer.element,
                "role": buffer.role,
                "candidates": [o.label for o in options[name]],
                "input": written.label,
                "chosen": chosen.label,
                "padding": _padding(buffer, chosen),
            }
        )
    return rows


def _padding(buffer: ProgramBuffer, option: Option) -> float:
    if option.spec is None or option.kind == "fixed":
        return 0.0
    try:
        return parse_layout(option.spec, buffer.shape, dtype=buffer.element).padding_share
    except LayoutError:
        return 0.0


def _nest_rows(
    graph: ProgramGraph,
    search: _Search,
    proposals: dict[str, Assignment],
    winner: str,
    schedules: dict[int, str],
) -> list[dict[str, Any]]:
    rows = []
    for nest in graph.nests:
        factor = search.tables.get(nest.index)

        def ms(name: str, factor: Factor | None = factor) -> float | None:
            if factor is None:
                return None
            return factor.cost(proposals[name]) * 1e3

        rows.append(
            {
                "nest": nest.name,
                "buffers": list(nest.buffers),
                "writes": sorted(nest.written),
                "ms": ms(winner),
                "input_ms": ms("as written"),
                "plain_ms": ms("all plain"),
                "blocked_ms": ms("all blocked"),
                "schedule": schedules.get(nest.index, "default tile"),
                "measured": nest.module is not None,
            }
        )
    for name, factor in search.boundaries.items():
        rows.append(
            {
                "nest": f"boundary {name}",
                "buffers": [name],
                "writes": [name] if graph.buffers[name].written else [],
                **{
                    key: factor.cost(proposals[proposal]) * 1e3
                    for key, proposal in (
                        ("ms", winner),
                        ("input_ms", "as written"),
                        ("plain_ms", "all plain"),
                        ("blocked_ms", "all blocked"),
                    )
                },
                "measured": True,
            }
        )
    return rows
