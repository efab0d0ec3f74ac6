"""`bench`: time a program natively next to the same program without its layouts.

A layout's worth is only visible against honest baselines, so one run times three forms of
the same source program (and an optional fourth):

- `program`: the source after `pipeline` (by default `layout-lower`);
- `scheduled without layouts`: the source after `layout-strip`, then the same `pipeline`:
  the schedule passes run on plain buffers, so the program/this ratio is what the layout
  itself earns, not what the schedule earns;
- `layout-free`: the source after `layout-strip` alone (plain logical buffers, as written);
- `baseline`: the source after `baseline`, when one is given (an extra form).

Each form is compiled with a timing driver (`timing`) and run on its own copy of the same
seeded arguments (the forms made from the stripped source take them in logical form, the
others as their pipeline's result types hold them: a lowered layout's physical buffer); each is warmed up and calibrated to calls per repetition lasting about
`min_time` seconds; repetitions go round-robin over the forms, alternating the order, so
drifts of a shared machine hit all of them. Two forms whose pipelines make the same program
(`-p ''` or `-p layout-strip`: the program is the layout-free one) are timed once, and the
report says which is the same as which. The report gives milliseconds per call (median, min,
max), GFLOP/s when the flop count is known (`flops`, or the entry function's `layout.flops`
attribute: floating-point operations per call), and medians over repetitions of the time
ratios of each form to the layout-free one and of the program to the scheduled one
(`BenchReport.ratio`, kept from when the baseline was the only other form: program/baseline,
program/layout-free without one).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from heterolayout.execution.arguments import random_arguments, side_arguments
from heterolayout.execution.engines import load_module
from heterolayout.execution.entry import find_function
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.native.engine import stripped
from heterolayout.execution.native.library import NativeLibrary
from heterolayout.execution.native.module import compile_module
from heterolayout.execution.native.timing import driver_name, with_timing
from heterolayout.passes.pipeline import apply_pipeline, pipeline_passes
from heterolayout.passes.schedule.layout_schedule import host_target

FLOPS_ATTRIBUTE = "layout.flops"
MAX_CALLS = 1 << 30
STRIP = "layout-strip"

PROGRAM = "program"
SCHEDULED = "scheduled without layouts"
LAYOUT_FREE = "layout-free"
BASELINE = "baseline"
FORMS = (PROGRAM, SCHEDULED, LAYOUT_FREE, BASELINE)
"""The forms in the order they are reported."""
REPRESENTATIVES = (LAYOUT_FREE, SCHEDULED, PROGRAM, BASELINE)
"""Who is timed when forms are the same program: the first of them here (the program that is
the layout-free one is reported "same as layout-free", not the other way round)."""


class TimedFunction:
    """One function of a module, compiled with its timing driver."""

    def __init__(self, module: ModuleOp, entry: str) -> None:
        self.entry = entry
        self.library: NativeLibrary = compile_module(with_timing(stripped(module), [entry]))

    def seconds(self, args: Sequence[Any], calls: int) -> float:
        """Wall seconds of `calls` back-to-back calls (the timing loop's clock)."""
        (elapsed,) = self.library.call(driver_name(self.entry), [*args, calls])
        return float(elapsed)

    def calibrate(self, args: Sequence[Any], min_time: float) -> int:
        """Calls per repetition that last at least `min_time` (the runs warm up too)."""
        calls = 1
        while True:
            elapsed = self.seconds(args, calls)
            if elapsed >= min_time or calls >= MAX_CALLS:
                return calls
            factor = min(100.0, 1.5 * min_time / max(elapsed, 1e-9))
            calls = min(MAX_CALLS, max(calls + 1, math.ceil(calls * factor)))


@dataclass(frozen=True)
class Timing:
    """One timed program's seconds per call, one value per repetition."""

    label: str
    calls: int
    per_call: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.per_call)

    @property
    def minimum(self) -> float:
        return min(self.per_call)

    @property
    def maximum(self) -> float:
        return max(self.per_call)

    def gflops(self, flops: int | None) -> float | None:
        """GFLOP/s at the median time, when the flop count is known."""
        if flops is None or self.median <= 0:
            return None
        return flops / self.median / 1e9


@dataclass(frozen=True)
class Form:
    """One form of the program: the pipeline that makes it from the source, and its timing.
    A form that is the same program as another (`same_as`, its name) shares its timing
    instead of being timed twice."""

    name: str
    pipeline: str
    timing: Timing
    same_as: str | None = None


def _ratio(numerator: Timing, denominator: Timing) -> float | None:
    """Median over repetitions of the per-repetition time ratio (the forms ran side by side
    in each repetition, so the ratio cancels the machine's drifts); None without a time."""
    if numerator is denominator:
        return 1.0
    pairs = zip(numerator.per_call, denominator.per_call, strict=True)
    ratios = [n / d for n, d in pairs if d > 0]
    return statistics.median(ratios) if ratios else None


def _milliseconds(seconds: float) -> str:
    return f"{seconds * 1e3:.4g}"


@dataclass(frozen=True)
class BenchReport:
    """The forms of one `bench` run; `str()` is `layout-bench`'s table, `as_json()` its
    `--json` object."""

    entry: str
    forms: tuple[Form, ...]
    flops: int | None
    repeat: int
    seed: int = 0
    min_time: float = 0.05
    host_target: str | None = None
    """What `layout-schedule`'s `target=host` (its default) meant in this run, when a form's
    pipeline schedules for it: the same pipeline makes other code on another kind of CPU."""

    def form(self, name: str) -> Form | None:
        """The form called `name` (see `FORMS`), if the run has it."""
        return next((form for form in self.forms if form.name == name), None)

    def _timing(self, name: str) -> Timing:
        form = self.form(name)
        assert form is not None, name
        return form.timing

    @property
    def program(self) -> Timing:
        return self._timing(PROGRAM)

    @property
    def scheduled(self) -> Timing:
        return self._timing(SCHEDULED)

    @property
    def layout_free(self) -> Timing:
        return self._timing(LAYOUT_FREE)

    @property
    def baseline(self) -> Timing | None:
        """The `baseline=` form's timing; None when none was asked for."""
        form = self.form(BASELINE)
        return None if form is None else form.timing

    @property
    def ratio(self) -> float | None:
        """Program time / baseline time (the `baseline=` form, else the layout-free one)."""
        return _ratio(self.program, self.baseline or self.layout_free)

    @property
    def layout_ratio(self) -> float | None:
        """Program time / scheduled-without-layouts time: what the layout itself earns."""
        return _ratio(self.program, self.scheduled)

    def ratios(self) -> dict[str, float | None]:
        """The program's time ratios to the other forms, named "program / FORM"."""
        return {
            f"{PROGRAM} / {form.name}": _ratio(self.program, form.timing)
            for form in self.forms
            if form.name != PROGRAM
        }

    def as_json(self) -> dict[str, Any]:
        """The report as data: per form its pipeline, ms per call, GFLOP/s (None without a
        flop count) and time ratio to the layout-free form; the program's ratios."""
        forms = {}
        for form in self.forms:
            timing = form.timing
            forms[form.name] = {
                "pipeline": form.pipeline,
                "same_as": form.same_as,
                "calls_per_repetition": timing.calls,
                "median_ms": timing.median * 1e3,
                "min_ms": timing.minimum * 1e3,
                "max_ms": timing.maximum * 1e3,
                "gflops": timing.gflops(self.flops),
                "ratio_to_layout_free": _ratio(timing, self.layout_free),
            }
        return {
            "entry": self.entry,
            "repeat": self.repeat,
            "seed": self.seed,
            "min_time": self.min_time,
            "flops": self.flops,
            "host_target": self.host_target,
            "forms": forms,
            "ratios": self.ratios(),
        }

    def __str__(self) -> str:
        header = ["form", "pipeline", "ms/call", "min", "max", "calls/rep"]
        if self.flops is not None:
            header.append("GFLOP/s")
        header.append("/ layout-free")
        rows: list[list[str]] = []
        for form in self.forms:
            pipeline = form.pipeline or "(as written)"
            if form.same_as is not None:
                rows.append([form.name, pipeline, f"same as {form.same_as} (timed once)"])
                continue
            timing = form.timing
            row = [
                form.name,
                pipeline,
                _milliseconds(timing.median),
                _milliseconds(timing.minimum),
                _milliseconds(timing.maximum),
                str(timing.calls),
            ]
            if self.flops is not None:
                gflops = timing.gflops(self.flops)
                row.append("-" if gflops is None else f"{gflops:.3g}")
            row.append(_ratio_text(_ratio(timing, self.layout_free)))
            rows.append(row)
        full = [header, *(row for row in rows if len(row) == len(header))]
        widths = [max(len(row[i]) for row in full) for i in range(len(header))]
        widths[:2] = [max(len(row[i]) for row in [header, *rows]) for i in range(2)]
        lines = [
            f"@{self.entry}: {self.repeat} interleaved repetitions, seed {self.seed}"
            + (f", {self.flops} flop/call" if self.flops is not None else "")
            + (
                f", layout-schedule target=host: {self.host_target}"
                if self.host_target is not None
                else ""
            )
            + "; ms per call: median, min, max"
        ]
        for row in [header, *rows]:
            lines.append(
                "  ".join(
                    cell.ljust(width) for cell, width in zip(row, widths, strict=False)
                ).rstrip()
            )
        scheduled = self.layout_ratio
        lines.append(
            f"program / {SCHEDULED}: {_ratio_text(scheduled)}"
            + (
                " (the same program)"
                if self.program is self.scheduled
                else " (what the layout earns; median of per-repetition ratios)"
            )
        )
        if self.baseline is not None:
            lines.append(f"program / {BASELINE}: {_ratio_text(self.ratio)}")
        return "\n".join(lines)


def _ratio_text(ratio: float | None) -> str:
    return "-" if ratio is None else f"{ratio:.3f}"


def flop_count(module: ModuleOp, entry: str) -> int | None:
    """The entry function's `layout.flops` attribute, if any."""
    attribute = find_function(module, entry).attributes.get(FLOPS_ATTRIBUTE)
    if attribute is None:
        return None
    if not isinstance(attribute, IntegerAttr) or attribute.value.data < 0:
        raise ExecutionError(f"@{entry}: {FLOPS_ATTRIBUTE} must be a non-negative integer")
    return attribute.value.data


@dataclass(frozen=True)
class _Plan:
    """How a form's program is made: from the stripped source (`from_stripped`) or the
    source, by `passes`; `key` names the program it makes, equal for forms that make the
    same one."""

    from_stripped: bool
    passes: tuple[ModulePass, ...]
    key: tuple[str, ...]


def _plan(pipeline: str) -> _Plan:
    """The program `pipeline` makes, read as the timed module is made: the source after
    `pipeline`, then stripped (`TimedFunction` strips what layouts are left). So a repeated
    `layout-strip` counts once, a final one not at all (`''` is `layout-strip`), and a first
    one means the rest runs on the stripped source, whose plain logical arguments it takes."""
    passes = pipeline_passes(pipeline) if pipeline else []
    specs = [str(one.pipeline_pass_spec()) for one in passes]
    kept = [
        i for i, spec in enumerate(specs) if not (spec == STRIP and i > 0 and specs[i - 1] == STRIP)
    ]
    while kept and specs[kept[-1]] == STRIP:
        kept.pop()
    from_stripped = not kept or specs[kept[0]] == STRIP
    rest = kept[1:] if kept and specs[kept[0]] == STRIP else kept
    key = (STRIP, *(specs[i] for i in rest)) if from_stripped else tuple(specs[i] for i in kept)
    return _Plan(from_stripped, tuple(passes[i] for i in rest), key)


@contextmanager
def _naming_the_form(name: str, pipeline: str) -> Iterator[None]:
    """A pipeline that fails on one form says which (the scheduled form runs the program's
    pipeline on a program it was perhaps not written for)."""
    try:
        yield
    except DiagnosticException as error:
        if error.args and isinstance(error.args[0], str):
            error.args = (f"{name} ({pipeline}): {error.args[0]}", *error.args[1:])
        raise


def form_pipelines(pipeline: str | None, baseline: str | None) -> list[tuple[str, str]]:
    """(form name, pipeline text) of each form a bench times, in `FORMS` order."""
    program = pipeline or ""
    if not program or program == STRIP or program.startswith(f"{STRIP},"):
        scheduled = program or STRIP  # already without layouts
    else:
        scheduled = f"{STRIP},{program}"
    forms = [
        (PROGRAM, program),
        (SCHEDULED, scheduled),
        (LAYOUT_FREE, STRIP),
    ]
    if baseline is not None:
        forms.append((BASELINE, baseline))
    return forms


def bench(
    module_or_text: ModuleOp | str,
    entry: str = "main",
    *,
    pipeline: str | None = "layout-lower",
    baseline: str | None = None,
    repeat: int = 11,
    seed: int = 0,
    flops: int | None = None,
    min_time: float = 0.05,
) -> BenchReport:
    """Time `entry` after `pipeline` (None or "" for the program as it is, stripped of
    layouts), after `layout-strip` and then `pipeline`, and after `layout-strip` alone;
    after `baseline` too when one is given. See the module's docstring."""
    if repeat < 1:
        raise ExecutionError(f"repeat must be at least 1, got {repeat}")
    if not min_time >= 0 or math.isinf(min_time):
        raise ExecutionError(f"min_time must be a non-negative number of seconds, got {min_time}")
    source = load_module(module_or_text)
    source_function = find_function(source, entry)
    logical = random_arguments(source_function, seed)
    plain = stripped(source)
    named = form_pipelines(pipeline, baseline)
    plans = {name: _plan(text) for name, text in named}
    timed: dict[tuple[str, ...], str] = {}  # the program's key → the form that times it
    for name in REPRESENTATIVES:
        if name in plans:
            timed.setdefault(plans[name].key, name)
    functions: dict[str, tuple[TimedFunction, list[Any]]] = {}
    for name, text in named:
        if timed[plans[name].key] != name:
            continue
        plan = plans[name]
        base = plain if plan.from_stripped else source
        with _naming_the_form(name, text):
            module = apply_pipeline(base, list(plan.passes)) if plan.passes else base
        reference = find_function(base, entry)
        args = side_arguments(logical, reference, find_function(module, entry), entry)
        functions[name] = (TimedFunction(module, entry), args)
    order = list(functions)
    calls = {name: functions[name][0].calibrate(functions[name][1], min_time) for name in order}
    per_call: dict[str, list[float]] = {name: [] for name in order}
    for repetition in range(repeat):
        for name in order if repetition % 2 == 0 else reversed(order):
            function, args = functions[name]
            per_call[name].append(function.seconds(args, calls[name]) / calls[name])
    timings = {name: Timing(name, calls[name], tuple(per_call[name])) for name in order}
    forms = []
    for name, text in named:
        representative = timed[plans[name].key]
        same_as = None if representative == name else representative
        forms.append(Form(name, text, timings[representative], same_as))
    return BenchReport(
        entry,
        tuple(forms),
        flops if flops is not None else flop_count(source, entry),
        repeat,
        seed,
        min_time,
        _host_target(plan for name, plan in plans.items() if timed[plan.key] == name),
    )


def _host_target(plans: Iterable[_Plan]) -> str | None:
    """The target `target=host` names, when one of the timed programs' pipelines schedules
    for it."""
    for plan in plans:
        for one in plan.passes:
            if one.name == "layout-schedule" and getattr(one, "target", None) == "host":
                return host_target()
    return None
