"""`bench`: time a program and its baseline natively, side by side.

Both sides are the same source program after a pass pipeline each (by default
`layout-lower` against none), compiled with timing drivers (`timing`), run on their own
copies of the same seeded arguments. Each side is warmed up and calibrated to calls per
repetition that last about `min_time` seconds; repetitions alternate the order of the two
sides, so drifts of a shared machine hit both. The report gives milliseconds per call
(median, min–max), GFLOP/s when the flop count is known (`flops`, or the entry function's
`layout.flops` attribute: floating-point operations per call), and the median over
repetitions of the time ratio program/baseline.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import IntegerAttr, ModuleOp

from heterolayout.execution.arguments import random_arguments, side_arguments
from heterolayout.execution.engines import load_module
from heterolayout.execution.entry import find_function
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.native.engine import stripped
from heterolayout.execution.native.library import NativeLibrary
from heterolayout.execution.native.module import compile_module
from heterolayout.execution.native.timing import driver_name, with_timing
from heterolayout.passes.pipeline import apply_pipeline

FLOPS_ATTRIBUTE = "layout.flops"
MAX_CALLS = 1 << 30


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
    """One side's seconds per call, one value per repetition."""

    label: str
    calls: int
    per_call: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.per_call)

    def row(self, flops: int | None) -> list[str]:
        cells = [
            self.label,
            f"{self.median * 1e3:.4g}",
            f"{min(self.per_call) * 1e3:.4g}–{max(self.per_call) * 1e3:.4g}",
            str(self.calls),
        ]
        if flops is not None:
            cells.append(f"{flops / self.median / 1e9:.3g}")
        return cells


@dataclass(frozen=True)
class BenchReport:
    entry: str
    program: Timing
    baseline: Timing | None
    flops: int | None

    @property
    def ratio(self) -> float | None:
        """Median over repetitions of program time / baseline time."""
        if self.baseline is None:
            return None
        pairs = zip(self.program.per_call, self.baseline.per_call, strict=True)
        return statistics.median(p / b for p, b in pairs)

    def __str__(self) -> str:
        header = ["", "ms/call (median)", "min–max", "calls/repetition"]
        if self.flops is not None:
            header.append("GFLOP/s")
        rows = [self.program.row(self.flops)]
        if self.baseline is not None:
            rows.append(self.baseline.row(self.flops))
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        lines = [
            f"@{self.entry}: {len(self.program.per_call)} interleaved repetitions"
            + (f", {self.flops} flop/call" if self.flops is not None else "")
        ]
        for row in [header, *rows]:
            lines.append(
                "  ".join(
                    cell.ljust(width) for cell, width in zip(row, widths, strict=True)
                ).rstrip()
            )
        ratio = self.ratio
        if ratio is not None:
            lines.append(f"program/baseline time: {ratio:.3f} (median of per-repetition ratios)")
        return "\n".join(lines)


def flop_count(module: ModuleOp, entry: str) -> int | None:
    """The entry function's `layout.flops` attribute, if any."""
    attribute = find_function(module, entry).attributes.get(FLOPS_ATTRIBUTE)
    if attribute is None:
        return None
    if not isinstance(attribute, IntegerAttr) or attribute.value.data < 0:
        raise ExecutionError(f"@{entry}: {FLOPS_ATTRIBUTE} must be a non-negative integer")
    return attribute.value.data


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
    layouts), side by side with the program after `baseline` when one is given."""
    if repeat < 1:
        raise ExecutionError(f"repeat must be at least 1, got {repeat}")
    source = load_module(module_or_text)
    source_function = find_function(source, entry)
    logical = random_arguments(source_function, seed)
    sides = [("program", pipeline)] + ([("baseline", baseline)] if baseline is not None else [])
    timed: list[tuple[str, TimedFunction, list[Any]]] = []
    for role, spec in sides:
        module = apply_pipeline(source, spec) if spec else source
        args = side_arguments(logical, source_function, find_function(module, entry), entry)
        label = f"{role} ({spec or 'as written'})"
        timed.append((label, TimedFunction(module, entry), args))
    calls = [function.calibrate(args, min_time) for _, function, args in timed]
    per_call: list[list[float]] = [[] for _ in timed]
    for repetition in range(repeat):
        order = range(len(timed)) if repetition % 2 == 0 else reversed(range(len(timed)))
        for side in order:
            _, function, args = timed[side]
            per_call[side].append(function.seconds(args, calls[side]) / calls[side])
    timings = [
        Timing(label, count, tuple(values))
        for (label, _, _), count, values in zip(timed, calls, per_call, strict=True)
    ]
    return BenchReport(
        entry,
        timings[0],
        timings[1] if len(timings) > 1 else None,
        flops if flops is not None else flop_count(source, entry),
    )
