"""Smoke run of benchmarks/accuracy.py at tiny sizes: each model's table has onnxruntime's
and both pipelines' rows, every run within the default tolerance of the float64 evaluation
and of onnxruntime (at these sizes the rounding errors are far inside it)."""

from __future__ import annotations

import pytest

from tests.onnx_models import require_frontend

RUNS = ("onnxruntime", "heterolayout fast", "heterolayout exact")


@pytest.mark.slow
def test_benchmark_runs_small(capsys: pytest.CaptureFixture[str]) -> None:
    require_frontend()
    from benchmarks import accuracy

    assert accuracy.main(["--small"]) == 0
    lines = capsys.readouterr().out.splitlines()
    models = ("block", "mlp", "mobilenet", "encoder")
    headers = [line for line in lines if line.startswith("## ")]
    assert [h.split()[1] for h in headers] == list(models), lines
    rows = [line.split("|")[1:-1] for line in lines if line.startswith("| ") and "---" not in line]
    runs = [cells for cells in rows if cells[0].strip() in RUNS]
    assert [cells[0].strip() for cells in runs] == list(RUNS) * len(models)
    for cells in runs:
        largest, mean, over_exact, over_reference = (c.strip() for c in cells[1:])
        assert 0 < float(mean) <= float(largest) < 1e-3, cells
        assert (over_exact, over_reference) == ("0", "0"), cells
