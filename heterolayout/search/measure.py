"""Measuring one joint candidate: the program with its `layout.assign`s, scheduled, lowered,
compiled and timed natively, with the conversions at the public boundary and without them
(the same kernel declared with layout-typed arguments). Results are cached on disk.

The timing is `heterolayout.execution.native`'s: `TimedFunction` drivers (noinline kernel, an opaque
call between calls), calibrated to `min_time` per repetition (at least one call), the two
versions interleaved; the best repetition counts. Repetitions are short (2 ms) and many, as
oneDNN's benchmark calls are: on a shared machine a long repetition is preempted more often
than not, and its best then measured twice the time of the same kernel's best single call
(benchmarks/RESULTS.md, "layout search").
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from heterolayout.execution.arguments import random_arguments, side_arguments
from heterolayout.execution.entry import find_function
from heterolayout.execution.errors import ExecutionError
from heterolayout.layout.errors import LayoutError
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.search.program import Hint, with_layouts


def pipeline(target: str, options: str = "") -> str:
    """The pipeline a candidate is measured through: `options` are more `layout-schedule`
    options (`fma=true reassociate=true`)."""
    inner = " ".join(filter(None, [f"target={target}", options]))
    return f"layout-schedule{{{inner}}},layout-lower"


FAILURES = (LayoutError, ExecutionError, DiagnosticException, VerifyException)
CACHE_VERSION = 3


@dataclass(frozen=True)
class Measurement:
    seconds: float | None
    """Best seconds per call with the boundary conversions (None: it failed)."""
    alone: float | None
    """Best seconds per call of the kernel alone (None without layout-typed arguments)."""
    error: str | None = None


Sides = list[tuple[ModuleOp, ModuleOp]]
"""(source, lowered) per version: the boundary one, then the kernel alone if any."""
Timer = Callable[[Sides, str], list[float]]
"""Best seconds per call of each version's entry function."""


def native_timer(repeat: int = 25, min_time: float = 0.002, max_time: float = 0.5) -> Timer:
    """The native engine's timing loops: `repeat` interleaved repetitions of `min_time`
    (fewer, at least 3, when they would take more than `max_time` per version)."""

    def time(sides: Sides, entry: str) -> list[float]:
        from heterolayout.execution.native.benchmarking import TimedFunction

        prepared = []
        for source, lowered in sides:
            function = find_function(source, entry)
            logical = random_arguments(function, 0)
            args = side_arguments(logical, function, find_function(lowered, entry), entry)
            timed = TimedFunction(lowered, entry)
            prepared.append((timed, args, timed.calibrate(args, min_time)))
        best = [float("inf")] * len(prepared)
        longest = max(timed.seconds(args, calls) for timed, args, calls in prepared)
        for repetition in range(max(3, min(repeat, int(max_time / max(longest, 1e-9))))):
            order = list(enumerate(prepared))
            for index, (timed, args, calls) in order if repetition % 2 == 0 else order[::-1]:
                best[index] = min(best[index], timed.seconds(args, calls) / calls)
        return best

    return time


def measure(
    module: ModuleOp,
    entry: str,
    layouts: dict[str, str],
    timer: Timer,
    *,
    alone: bool,
    target: str = "host",
    options: str = "",
    hint: Hint | None = None,
) -> Measurement:
    """Time the program with `layouts` (buffer name → attribute text) and the `hint`'s
    `layout.schedule` op through `layout-schedule{target options}`, and the kernel alone
    when `alone` (some tuned buffer is an argument); a candidate the passes or the compiler
    refuse is a Measurement with the one-line reason."""
    try:
        steps = pipeline(target, options)
        sides = [_side(module, entry, layouts, steps, hint, typed=False)]
        if alone:
            sides.append(_side(module, entry, layouts, steps, hint, typed=True))
        times = timer(sides, entry)
    except FAILURES as error:
        return Measurement(None, None, _first_line(error))
    return Measurement(times[0], times[1] if len(times) > 1 else None)


def measure_input(module: ModuleOp, entry: str, timer: Timer, target: str = "host") -> float:
    """Seconds per call of the program as it is, through the same pipeline."""
    return timer([(module, apply_pipeline(module, pipeline(target)))], entry)[0]


def _side(
    module: ModuleOp,
    entry: str,
    layouts: dict[str, str],
    steps: str,
    hint: Hint | None,
    *,
    typed: bool,
) -> tuple[ModuleOp, ModuleOp]:
    source = with_layouts(module, entry, layouts, typed=typed, hint=hint)
    return source, apply_pipeline(source, steps)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


class Cache:
    """Measurements on disk, one JSON file per (program, entry, layouts, settings) key, in
    `$HETEROLAYOUT_CACHE_DIR/tune`, else `$XDG_CACHE_HOME/heterolayout/tune`, else
    `~/.cache/heterolayout/tune`. Files are written whole (temporary file, then rename)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or default_directory()

    def key(self, program: str, entry: str, layouts: dict[str, str], settings: str) -> str:
        text = json.dumps(
            [CACHE_VERSION, code_fingerprint(), program, entry, sorted(layouts.items()), settings]
        )
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def get(self, key: str) -> Measurement | None:
        path = self.directory / f"{key}.json"
        try:
            data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            return Measurement(data["seconds"], data["alone"], data["error"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, measurement: Measurement) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        temporary = self.directory / f".{key}.{os.getpid()}.tmp"
        temporary.write_text(json.dumps(asdict(measurement)), encoding="utf-8")
        temporary.replace(self.directory / f"{key}.json")


@functools.cache
def code_fingerprint() -> str:
    """A hash of heterolayout's own source: a measurement made by other code (an upgrade, a
    change to the scheduler) is not reused."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def default_directory() -> Path:
    explicit = os.environ.get("HETEROLAYOUT_CACHE_DIR")
    if explicit:
        return Path(explicit) / "tune"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "heterolayout" / "tune"
