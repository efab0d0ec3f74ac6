"""Smoke run of benchmarks/tune_models.py on the tiny MLP: the model is tuned, its winner's
output matched onnxruntime's, and the table is printed. No time is asserted."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.onnx_models import require_frontend
from tests.paths import REPOSITORY


@pytest.mark.slow
def test_tune_models_runs_small() -> None:
    require_frontend()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.tune_models",
            "--small",
            "--model",
            "mlp",
            "--rounds",
            "1",
            "--min-time",
            "0.01",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=REPOSITORY,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(
        line.startswith("## mlp: tuned in ") and line.endswith("outputs equal onnxruntime's")
        for line in lines
    ), done.stdout
    assert any(line.startswith("layouts: ") and "arg0=" in line for line in lines)
    rows = [line.split("|")[1].strip() for line in lines if line.startswith("| ")]
    for form in ("heterolayout: tuned", "heterolayout: hand-picked (oneDNN, 16)"):
        assert form in rows, rows
