"""Smoke run of benchmarks/hot_loops.py for one target: a row per kernel, mode and CPU,
every hot loop found (it has multiply-adds) and none touching the stack."""

from __future__ import annotations

from benchmarks.hot_loops import CPUS, MODES, tool
from tests.benchmarks_smoke import run_python
from tests.mlir_tools import require


def test_hot_loops_benchmark_prints_a_row_per_kernel_mode_and_cpu() -> None:
    for name in ("llc", "llvm-mca", "mlir-translate", "mlir-opt"):
        require(tool(name), f"{name}-22 (apt-get install llvm-22)")
    run = run_python(["-m", "benchmarks.hot_loops", "--target", "avx2"], timeout=600)
    assert run.returncode == 0, run.stderr
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in run.stdout.splitlines()
        if line.startswith("| avx2 ")
    ]
    assert len(rows) == 2 * len(MODES) * len(CPUS["avx2"])
    for row in rows:
        assert int(row[5]) > 0 and int(row[6]) == 0, row
        assert float(row[7]) > 0, row
