"""`layout-bench`: time a program's entry function natively next to honest baselines.

    layout-bench FILE [-p PIPELINE] [--baseline PIPELINE] [--entry main] [--repeat N]
                 [--flops N] [--seed N] [--min-time SECONDS] [--json]

A layout pays off only if the program beats the same program without it, so one run times
three forms of FILE side by side: `program` (FILE after PIPELINE, default `layout-lower`),
`scheduled without layouts` (FILE after `layout-strip`, then PIPELINE: the same schedule
passes on plain buffers) and `layout-free` (FILE after `layout-strip`: plain logical buffers,
as written); `--baseline PIPELINE` adds a fourth form, FILE after that pipeline. Forms whose
pipelines make the same program (`-p ''`, `-p layout-strip`, `--baseline layout-strip`) are
timed once and reported "same as" the other. All are compiled with upstream MLIR 22 (-O3,
host CPU) into timing loops that keep the entry function from being folded away, warmed up,
and timed in interleaved repetitions on the same seeded arguments. It prints per form the
pipeline, ms per call (median, min, max), GFLOP/s when the flop count is known (`--flops`,
or the entry function's `layout.flops` attribute) and the time ratio to the layout-free form,
then the program's ratio to the scheduled form (what the layout itself earns). `--json`
prints the same as one JSON object and nothing else. Errors are one line on stderr, exit 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from heterolayout.tools.run import report_errors


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="layout-bench",
        description="Time an MLIR program natively next to the same program without layouts.",
    )
    parser.add_argument("file", help="MLIR file ('-' reads stdin)")
    parser.add_argument(
        "-p",
        "--pipeline",
        default="layout-lower",
        help="the program's pipeline (default: layout-lower)",
    )
    parser.add_argument(
        "--baseline", help="an extra form: FILE after this pipeline (e.g. layout-schedule)"
    )
    parser.add_argument("--entry", default="main", help="function to time (default: main)")
    parser.add_argument(
        "--repeat", type=int, default=11, help="interleaved repetitions (default: 11)"
    )
    parser.add_argument("--flops", type=int, help="floating-point operations per call")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random arguments")
    parser.add_argument(
        "--min-time", type=float, default=0.05, help="seconds each repetition lasts at least"
    )
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    return parser.parse_args(argv)


def _bench(args: argparse.Namespace) -> int:
    from heterolayout.dialects.context import parse_program
    from heterolayout.execution.native.benchmarking import bench

    if args.file == "-":
        text, name = sys.stdin.read(), "<stdin>"
    else:
        with open(args.file, encoding="utf-8") as stream:
            text, name = stream.read(), args.file
    report = bench(
        parse_program(text, name),
        args.entry,
        pipeline=args.pipeline,
        baseline=args.baseline,
        repeat=args.repeat,
        seed=args.seed,
        flops=args.flops,
        min_time=args.min_time,
    )
    if args.json:
        print(json.dumps(report.as_json(), indent=2, allow_nan=False))
    else:
        print(report)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point; returns the exit code."""
    args = _arguments(argv)
    return report_errors("layout-bench", lambda: _bench(args))


if __name__ == "__main__":
    sys.exit(main())
