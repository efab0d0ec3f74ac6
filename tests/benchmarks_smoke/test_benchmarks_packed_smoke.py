"""Smoke run of benchmarks/packed.py (`--quick`): it starts, checks its convolutions against
numpy itself, and prints both tables. No time is asserted; the byte counts are, against
numbers computed here, and the convolution checksum against a numpy formulation of its own."""

from __future__ import annotations

import numpy as np
import pytest

from tests.benchmarks_smoke import run_python
from tests.mlir_tools import find_mlir_tool, find_runner_utils, require


def _rows(output: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in output.splitlines()
        if line.startswith("| ") and not line.startswith("| ---")
    ]


def _checksum() -> int:
    """Sum of the benchmark's binary conv output: 432 taps minus twice the differing bits."""
    c, h, w = np.indices((48, 34, 34))
    x = (c * 7 + h * 3 + w * 5) % 11 < 5
    k, c, kh, kw = np.indices((32, 48, 3, 3))
    weights = (k * 5 + c * 3 + kh * 7 + kw) % 13 < 6
    total = 0
    for dh in range(3):
        for dw in range(3):
            window = x[:, dh : dh + 32, dw : dw + 32]  # c, oh, ow
            differ = window[None] != weights[:, :, dh, dw][:, :, None, None]
            total += int(differ.sum())
    return 432 * 32 * 32 * 32 - 2 * total


def _matmul_checksum() -> int:
    """Sum of the binary matmul's output: equal bits of rows of a and b over 2000 columns."""
    i, k = np.indices((64, 2000))
    a = (i * 7 + k * 3) % 11 < 5
    j, k = np.indices((64, 2000))
    b = (j * 5 + k * 3) % 13 < 6
    return int(
        (
            a.astype(np.int64) @ b.T.astype(np.int64)
            + (~a).astype(np.int64) @ (~b).T.astype(np.int64)
        ).sum()
    )


@pytest.mark.slow
def test_packed_benchmark_quick_run_prints_bytes_and_ratios() -> None:
    require(find_mlir_tool("mlir-opt"), "mlir-opt")
    require(find_mlir_tool("mlir-runner"), "mlir-runner")
    require(find_runner_utils(), "MLIR runner utils")
    run = run_python(["-m", "benchmarks.packed", "--quick"], timeout=600)
    assert run.returncode == 0, run.stderr
    rows = _rows(run.stdout)
    by_layout = {(row[0], row[1]): row[2:] for row in rows if len(row) == 9}
    # elements, lowered memref, bytes (model), bytes (native), bytes unpacked, ratio
    expected = {
        ("bits, n = 1001", '"W->W8w", pack = i8'): [
            "1001",
            "memref<126xi8>",
            "126",
            "126",
            "1001",
            "7.94",
        ],
        ("bits, n = 55488", '"W->W8w", pack = i8'): [
            "55488",
            "memref<6936xi8>",
            "6936",
            "6936",
            "55488",
            "8.00",
        ],
        ("conv input 1x48x34x34 i1", '"NCHW->NHWC6c", pack = i6'): [
            "55488",
            "memref<1x34x34x8xi6>",
            "9248",
            "9248",
            "55488",
            "6.00",
        ],
        ("conv input 1x48x34x34 i1", '"NCHW->NHWC6c", pack = vector<6xi1>'): [
            "55488",
            "memref<1x34x34x8xvector<6xi1>>",
            "9248",
            "9248",
            "55488",
            "6.00",
        ],
        ("seed NHW(C6) 4x6x8x8 i1", '"NCHW->NHWC6c", pack = i6'): [
            "1536",
            "memref<4x8x8x1xi6>",
            "256",
            "256",
            "1536",
            "6.00",
        ],
        ("int4 weights 16x8", '"KN->NK2k", pack = i8'): [
            "128",
            "memref<8x8xi8>",
            "64",
            "64",
            "128",
            "2.00",
        ],
    }
    for key, cells in expected.items():
        assert key in by_layout, (key, sorted(by_layout))
        assert by_layout[key][:6] == cells, (key, by_layout[key])
    versions = {row[0]: row[1:] for row in rows if len(row) == 7 and row[0] != "version"}
    conv = [
        "plain",
        "int",
        "vector",
        "int_words",
        "vector_words",
        "popcount",
        "i64_words",
        "popcount64",
    ]
    matmul = [
        "mm_plain",
        "mm_i64",
        "mm_i32_words",
        "mm_popcount32",
        "mm_i64_words",
        "mm_popcount64",
    ]
    assert list(versions) == conv + matmul
    checksums = {
        **dict.fromkeys(conv, f"{_checksum()} (equal)"),
        **dict.fromkeys(matmul, f"{_matmul_checksum()} (equal)"),
    }
    for version, cells in versions.items():
        milliseconds, ratio = float(cells[1]), float(cells[2])
        assert milliseconds > 0 and ratio > 0, cells
        assert cells[5] == checksums[version], (version, cells)
    assert float(versions["plain"][2]) == 1 and float(versions["mm_plain"][2]) == 1
    assert versions["int_words"][4].endswith("× popcount")
    assert versions["mm_i64_words"][4].endswith("× mm_popcount64")
