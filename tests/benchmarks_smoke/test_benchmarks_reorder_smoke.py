"""Smoke run of benchmarks/reorder.py: it builds, checks every conversion against numpy's
reference before timing, and prints one row per conversion (oneDNN is a benchmark-only
extra, left out here). No time is asserted; the ratios only have to be positive."""

from __future__ import annotations

import subprocess
import sys

from tests.mlir_tools import require_native_engine
from tests.paths import REPOSITORY

ROWS = (
    "NCHW→nChw16c",
    "nChw16c→NCHW",
    "NCHW→NHWC",
    "OIHW→OIhw16i16o (3×3 weights)",
    "NHWC→HTP crouton, pad 31",
    "i1→i8 bit-packed (NHWC8c)",
)


def _reorder(*options: str) -> subprocess.CompletedProcess[str]:
    """benchmarks/reorder.py, one repetition of a millisecond, with these options."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.reorder",
            "--repeat",
            "1",
            "--min-time",
            "0.001",
            *options,
        ],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_reorder_benchmark_quick_run_prints_every_conversion() -> None:
    require_native_engine()
    run = _reorder("--quick", "--no-onednn")
    assert run.returncode == 0, run.stderr
    rows = {
        cells[0]: cells[1:]
        for line in run.stdout.splitlines()
        if line.startswith("| ") and not line.startswith(("| conversion", "| ---"))
        for cells in [[cell.strip() for cell in line.strip("|").split("|")]]
    }
    assert tuple(rows) == ROWS
    for name, cells in rows.items():
        assert float(cells[2]) > 0 and float(cells[3]) > 0 and float(cells[5]) > 0, (name, cells)
        assert float(cells[8]) > 0, (name, cells)
        assert cells[4] == cells[6] == cells[7] == cells[9] == "—", (name, cells)  # no oneDNN


def test_reorder_benchmark_takes_a_shape() -> None:
    """`--shape` replaces the default shape (here planes of 32×32 f32 pixels, 4 KiB apart,
    which the conversions read in line tiles); a malformed one is refused in one line."""
    require_native_engine()
    run = _reorder("--no-onednn", "--only", "NCHW→", "--shape", "1,16,32,32")
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if line.startswith("| NCHW→")]
    assert [row.split("|")[2].strip() for row in rows] == ["1×16×32×32 f32"] * 2
    bad = _reorder("--shape", "1,16,32")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.splitlines()[-1].endswith(
        "--shape 1,16,32: expected N,C,H,W with C >= 5 and H, W >= 3"
    )
