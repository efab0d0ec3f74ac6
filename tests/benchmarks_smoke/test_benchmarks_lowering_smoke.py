"""Smoke runs of the two lowering benchmarks (`--quick`): they start, check their own
results, and print their tables. No time is asserted; the index-op counts and checksums the
native benchmark prints are, against numbers computed here."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from tests.benchmarks_smoke import run_python
from tests.mlir_tools import find_mlir_tool, require, require_native_engine


def _run_benchmark(script: str) -> str:
    run = run_python(["-m", f"benchmarks.{script.removesuffix('.py')}", "--quick"], timeout=600)
    assert run.returncode == 0, run.stderr
    return run.stdout


def _table_rows(output: str) -> dict[str, list[str]]:
    return {
        cells[0]: cells[1:]
        for line in output.splitlines()
        if line.startswith("| ") and not line.startswith("| ---")
        for cells in [[cell.strip() for cell in line.strip().strip("|").split("|")]]
    }


@pytest.mark.slow
def test_lower_scale_quick_run_prints_both_sizes_and_their_growth() -> None:
    require(find_mlir_tool("mlir-opt"), "mlir-opt")
    rows = _table_rows(_run_benchmark("lower_scale.py"))
    assert rows["accesses"][:2] == ["functions", "pass CPU s"]
    for accesses in (1000, 2000):
        cells = rows[str(accesses)]
        assert cells[0] == str(accesses // 10)
        # pass, µs/access, layout-opt, mlir-opt, layout-opt/mlir-opt, three wall times
        assert len(cells) == 9
        assert all(float(cell) > 0 for cell in cells[1:]), cells
    growth = rows["1000 → 2000"]
    assert growth[0] == "2.00"
    assert len(growth) == 4 and all(float(cell) > 0 for cell in growth[1:])


def _conv2d_checksum() -> int:
    """Sum of the conv2d output, as sliding windows contracted with the weights (the
    benchmark itself sums per-offset einsums)."""
    c, h, w = np.indices((32, 30, 30))
    image = (c * 7 + h * 3 + w * 5) % 17 - 8
    k, c, kh, kw = np.indices((32, 32, 3, 3))
    weights = (k * 5 + c * 3 + kh * 7 + kw) % 9 - 4
    windows = sliding_window_view(image, (3, 3), axis=(1, 2))  # c, oh, ow, kh, kw
    output = np.tensordot(weights, windows, axes=([1, 2, 3], [0, 3, 4]))
    assert output.shape == (32, 28, 28)
    return int(output.sum())


def _matmul_checksum() -> int:
    i, k = np.indices((128, 128))
    a = (i * 3 + k * 5) % 11 - 5
    b = (i * 7 + k * 2) % 13 - 6  # b[k, n]
    return int(np.einsum("ik,kn->in", a, b).sum())


@pytest.mark.slow
def test_native_overhead_quick_run_prints_equal_checksums_and_index_op_counts() -> None:
    require_native_engine()
    rows = _table_rows(_run_benchmark("native_overhead.py"))
    expected = {"conv2d": _conv2d_checksum(), "matmul": _matmul_checksum()}
    for kernel, checksum in expected.items():
        cells = rows[kernel]
        lowered_ms, hand_ms, ratio = (float(cell) for cell in cells[1:4])
        assert lowered_ms > 0 and hand_ms > 0 and ratio > 0
        # The one layout-typed access needs a block index, an offset in the block and (conv)
        # two window sums: 4 index ops for the 4 accesses of the innermost body, both ways.
        assert cells[5] == "1.00 (4/4)", cells
        assert cells[6] == "1.00 (4/4)", cells
        assert cells[7] == f"{checksum} (equal)", cells
