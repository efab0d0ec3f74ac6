"""Smoke run of the benchmark scripts: they start, check their own results, and print their
tables. No timing is asserted; the ratios only have to be positive numbers (printed to three
significant digits: one quick round on a loaded machine can make a ratio 0.004)."""

from __future__ import annotations

from tests.benchmarks_smoke import run_python

PACK_ROWS = ("NCHW->nChw16c", "NCHW->NHWC", "R4CroutonLayout (as NHWC)")


def test_pack_benchmark_quick_run_prints_every_layout_row() -> None:
    run = run_python(["-m", "benchmarks.pack", "--quick", "--repeat", "1"], timeout=120)
    assert run.returncode == 0, run.stderr
    rows = {
        cells[0]: cells[1:]
        for line in run.stdout.splitlines()
        if line.startswith("| ")
        for cells in [[cell.strip() for cell in line.strip("|").split("|")]]
    }
    assert set(PACK_ROWS) <= set(rows)
    for name in PACK_ROWS:
        ratios = [float(cell) for cell in rows[name]]
        assert len(ratios) == 6
        assert all(ratio > 0 for ratio in ratios), (name, ratios)
