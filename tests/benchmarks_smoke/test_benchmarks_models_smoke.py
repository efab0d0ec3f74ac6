"""Smoke run of benchmarks/models.py at tiny sizes: every model's table is printed, every
form's output having matched onnxruntime's first. No time is asserted."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.onnx_models import require_frontend
from tests.paths import REPOSITORY

FORMS = (
    "onnxruntime (ORT_ENABLE_ALL)",
    "heterolayout: layouts, scheduled",
    "heterolayout: layouts, scheduled, libm",
    "heterolayout: layouts, scheduled, exact",
    "heterolayout: no layouts, scheduled",
    "heterolayout: loops first, layouts, scheduled",
)


@pytest.mark.slow
def test_benchmark_runs_small() -> None:
    require_frontend()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.models",
            "--small",
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
    assert lines[0].startswith("# models: ")
    models = ("block", "mlp", "mobilenet", "encoder")
    for model in models:
        assert any(
            line.startswith(f"## {model} (") and line.endswith("outputs equal onnxruntime's")
            for line in lines
        ), done.stdout
    rows = [
        line.split("|")[1].strip() for line in lines if line.startswith("| ") and "ms" not in line
    ]
    for form in FORMS:
        assert rows.count(form) == len(models), (form, rows)
    ratios = [line.rsplit("|", 2)[1].strip() for line in lines if line.startswith("| onnxruntime")]
    assert ratios == ["1.00"] * len(models)
