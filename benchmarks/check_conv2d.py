"""Benchmark: wall time of `layout-run --check` on the valid (unpadded) conv2d example.

examples/conv2d_nchw16c.mlir: input 1x16x14x14 (NCHW logical, nChw16c physical), weights
16x16x3x3, output 1x16x12x12. Goal of the execution issue: `layout-run --check --engine
compiled` takes at most 30 s of wall time. Each sample runs the console script in a fresh
process (interpreter start-up, imports, parsing, `layout-lower`, both runs and the
comparison included) and must print `OK: 7744 elements compared`. As a baseline the same
command runs on a program that does nothing, so the table also shows how much of the time
is start-up; samples of the three commands are interleaved.

    python benchmarks/check_conv2d.py [--repeat N] [--engine compiled|interp|both]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
CONV2D = REPOSITORY / "examples" / "conv2d_nchw16c.mlir"
EXPECTED = "OK: 7744 elements compared"
GOAL_SECONDS = 30.0
EMPTY_PROGRAM = "func.func @main() {\n  func.return\n}\n"


def layout_run_command() -> list[str]:
    """The installed console script, or the module when it is not on PATH."""
    script = shutil.which("layout-run")
    return [script] if script else [sys.executable, "-m", "heterolayout.tools.run"]


def timed_run(argv: list[str], expected: str) -> float:
    start = time.perf_counter()
    run = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=REPOSITORY)
    elapsed = time.perf_counter() - start
    if run.returncode != 0 or run.stdout.strip() != expected:
        raise SystemExit(f"{' '.join(argv)} failed (exit {run.returncode}):\n{run.stdout}{run.stderr}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="samples per command (default 3)")
    parser.add_argument("--engine", choices=("compiled", "interp", "both"), default="both")
    args = parser.parse_args(argv)
    engines = ("compiled", "interp") if args.engine == "both" else (args.engine,)
    command = layout_run_command()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"python {platform.python_version()}, {platform.machine()}, load average {load:.2f}")
    print()
    with tempfile.TemporaryDirectory(prefix="check-conv2d-") as directory:
        empty = Path(directory) / "empty.mlir"
        empty.write_text(EMPTY_PROGRAM)
        runs = {
            "start-up (empty program, --check)": ([*command, str(empty), "--check"], "OK: 0 elements compared"),
            **{
                f"conv2d --check --engine {engine}": (
                    [*command, str(CONV2D), "--check", "--engine", engine],
                    EXPECTED,
                )
                for engine in engines
            },
        }
        samples: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.repeat):
            for name, (run_argv, expected) in runs.items():
                samples[name].append(timed_run(run_argv, expected))
    print("| command | samples (s) | median (s) | goal |")
    print("| --- | --- | --- | --- |")
    for name, values in samples.items():
        goal = f"≤ {GOAL_SECONDS:.0f} s" if name.endswith("compiled") else ""
        listed = ", ".join(f"{v:.2f}" for v in values)
        print(f"| {name} | {listed} | {statistics.median(values):.2f} | {goal} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
