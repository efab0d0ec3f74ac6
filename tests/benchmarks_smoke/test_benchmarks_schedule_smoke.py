"""Smoke run of benchmarks/schedule.py (`--smoke`: conv 1x16x10x10, matmul 64): it builds
and runs the scheduled and naive kernels natively, checks their outputs against numpy itself
(it exits non-zero otherwise), and prints the table and the vector instructions it found.
No time is asserted. oneDNN rows appear only where the benchmark extra and g++ are there."""

from __future__ import annotations

import pytest

from tests.benchmarks_smoke import run_python
from tests.mlir_tools import find_mlir_tool, find_runner_utils, require


@pytest.mark.slow
def test_schedule_benchmark_smoke_run_prints_every_row() -> None:
    require(find_mlir_tool("mlir-runner"), "mlir-runner")
    require(find_runner_utils(), "MLIR runner utils")
    run = run_python(["-m", "benchmarks.schedule", "--smoke", "--naive"], timeout=600)
    assert run.returncode == 0, run.stderr
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in run.stdout.splitlines()
        if line.startswith("| ") and not line.startswith("| ---")
    ][1:]
    versions = {(row[0], row[1]) for row in rows}
    for kernel in ("conv", "matmul"):
        for version in (
            "with boundary conversions",
            "kernel alone",
            "naive nest, layout-lower only",
        ):
            assert (kernel, version) in versions
    assert all(float(row[3].split()[0]) > 0 for row in rows)
    # The scheduled kernels are vector code: packed multiplies and adds (or FMAs).
    for kernel in ("conv", "matmul"):
        line = next(t for t in run.stdout.splitlines() if t.startswith(f"@{kernel}_alone"))
        assert "mm" in line and "none" not in line, line
