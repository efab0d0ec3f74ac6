"""Random models against onnxruntime: the standing on models nobody picked.

Each seed draws a model as exporters write them (`tests/fuzz/models.py`: CNNs of one to four
layers, with or without a classifier head, and transformer encoder layers), imports it,
assigns the oneDNN-style layouts (`with_onednn_layouts`, channel blocks of 4, 8 or 16 drawn
with the model), and runs it natively through both schedules, `layout-schedule{fma=true
reassociate=true},layout-lower` and `layout-schedule,layout-lower`, on a seeded input; each
output must be within `compare_output`'s tolerance of onnxruntime's. With `--time`, the fast
form (blocks of 16) and the layout-free program are also timed against onnxruntime
(ORT_ENABLE_ALL, one thread), interleaved (`benchmarks/models.py`), and the ratios printed.

    python -m benchmarks.model_fuzz [--count N] [--seed S] [--scale K] [--time] [--rounds R]

`--scale K` multiplies the drawn image sides, channel counts, tokens and widths by K (the
default 1 keeps each model to a few seconds' checking; 4 makes models worth timing).

Prints one line per model and a summary; exits 1 when an output differs or a model fails to
import, schedule, lower or run (the generator draws only ops the importer takes).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import heterolayout
from benchmarks.models import (
    EXACT,
    FAST,
    heterolayout_contender,
    interleave,
    onnxruntime_contender,
)
from heterolayout.dialects.context import parse_program
from heterolayout.frontends.reference import compare_output
from heterolayout.passes.pipeline import apply_pipeline
from tests.fuzz.models import RandomModel, random_model
from tests.onnx_models import onnxruntime_outputs, random_input, with_onednn_layouts

BLOCKS = (4, 8, 16)
PIPELINES = {"fast": FAST, "exact": EXACT}
TIMED_BLOCK = 16
LARGE_MS = 0.05
"""Models onnxruntime runs in at least this long are summarized apart: below it, fixed
costs (its session's dispatch, the layouts' boundary conversions) dominate."""


@dataclass
class Outcome:
    drawn: RandomModel
    block: int
    failure: str | None = None
    onnxruntime_ms: float | None = None
    ratios: tuple[float, float] | None = None
    """Fast form with layouts, and without, over onnxruntime's time."""


def check(drawn: RandomModel, imported: str, block: int) -> str | None:
    """Why the model's outputs are not onnxruntime's (None: both schedules agree)."""
    x = random_input(drawn.shape, seed=drawn.seed)
    expected = onnxruntime_outputs(drawn.model, {"x": x})["y"]
    laid_out, _ = with_onednn_layouts(imported, block)
    for label, pipeline in PIPELINES.items():
        lowered = apply_pipeline(parse_program(laid_out), pipeline)
        found = heterolayout.run(str(lowered), {"x": x}, engine="native")["y"]
        compared = compare_output("y", found, expected)
        if not compared.within:
            return f"{label}: {compared}"
    return None


def timed(
    drawn: RandomModel, imported: str, rounds: int, min_time: float
) -> tuple[float, tuple[float, float]]:
    x = random_input(drawn.shape, seed=drawn.seed)
    reference = onnxruntime_contender(drawn.model, x)
    laid_out, _ = with_onednn_layouts(imported, TIMED_BLOCK)
    shape = reference.output.shape
    contenders = [
        reference,
        heterolayout_contender("layouts", laid_out, FAST, x, shape),
        heterolayout_contender("no layouts", imported, FAST, x, shape),
    ]
    interleave(contenders, rounds, min_time)
    base = reference.median_ms
    ratios = (contenders[1].median_ms / base, contenders[2].median_ms / base)
    return base, ratios


def run_seed(seed: int, scale: int, time_it: bool, rounds: int, min_time: float) -> Outcome:
    drawn = random_model(seed, scale)
    block = BLOCKS[seed % len(BLOCKS)]
    outcome = Outcome(drawn, block)
    try:
        imported = heterolayout.import_model(drawn.model)
        outcome.failure = check(drawn, imported, block)
        if outcome.failure is None and time_it:
            outcome.onnxruntime_ms, outcome.ratios = timed(drawn, imported, rounds, min_time)
    except Exception as error:  # a model the pipeline cannot take is a finding
        last = traceback.extract_tb(error.__traceback__)[-1]
        outcome.failure = (
            f"{type(error).__name__}: {error} ({Path(last.filename).name}:{last.lineno})"
        )
    return outcome


def describe(outcome: Outcome) -> str:
    drawn = outcome.drawn
    text = f"seed {drawn.seed}: {drawn.kind} {list(drawn.shape)} blocks of {outcome.block}: "
    text += ", ".join(drawn.layers) or "no layer"
    if outcome.failure is not None:
        return f"{text}: FAILED: {outcome.failure}"
    if outcome.ratios is not None:
        fast, plain = outcome.ratios
        text += (
            f": onnxruntime {outcome.onnxruntime_ms:.4f} ms, blocks of {TIMED_BLOCK} "
            f"{fast:.2f}x, no layouts {plain:.2f}x"
        )
    return f"{text}: ok"


def summary(outcomes: list[Outcome], seconds: float) -> list[str]:
    failed = [o for o in outcomes if o.failure is not None]
    lines = [f"{len(outcomes)} models in {seconds:.0f} s, {len(failed)} failed"]
    timings = [
        (o.drawn.seed, o.onnxruntime_ms, o.ratios[0])
        for o in outcomes
        if o.onnxruntime_ms is not None and o.ratios is not None
    ]
    for label, chosen in (
        (f"onnxruntime >= {LARGE_MS} ms", [t for t in timings if t[1] >= LARGE_MS]),
        (f"onnxruntime < {LARGE_MS} ms", [t for t in timings if t[1] < LARGE_MS]),
    ):
        if not chosen:
            continue
        ratios = [ratio for _, _, ratio in chosen]
        above = [seed for seed, _, ratio in chosen if ratio > 1.0]
        lines.append(
            f"{label}: {len(chosen)} models, layouts/onnxruntime median "
            f"{statistics.median(ratios):.2f}, worst {max(ratios):.2f}, "
            f"above 1.0: {above or 'none'}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100, help="models (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--scale", type=int, default=1, help="size multiplier (default 1)")
    parser.add_argument("--time", action="store_true", help="also time against onnxruntime")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds (default 3)")
    parser.add_argument("--min-time", type=float, default=0.1, help="seconds a round (0.1)")
    args = parser.parse_args(argv)
    if min(args.count, args.rounds, args.scale) < 1:
        parser.error("--count, --rounds and --scale take a positive number")
    start = time.perf_counter()
    outcomes = []
    for seed in range(args.seed, args.seed + args.count):
        outcome = run_seed(seed, args.scale, args.time, args.rounds, args.min_time)
        outcomes.append(outcome)
        print(describe(outcome), flush=True)
    for line in summary(outcomes, time.perf_counter() - start):
        print(line)
    return 1 if any(o.failure is not None for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
