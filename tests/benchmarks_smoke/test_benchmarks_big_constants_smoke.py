"""Smoke run of benchmarks/big_constants.py at a tiny size (both forms of the weights): it
prints its table and its results equal numpy's. No time is asserted."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.paths import REPOSITORY

BENCHMARK = REPOSITORY / "benchmarks" / "big_constants.py"


@pytest.mark.slow
@pytest.mark.parametrize("form", ["hex", "resource"])
def test_benchmark_runs_small(form: str, native_engine: None) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--mb", "0.05", "--form", form],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("# big constants: 21 weights of ResNet-18's shapes")
    assert f"as {form};" in lines[0]
    steps = [
        line.split("|")[1].strip() for line in lines if re.match(r"\| \S.* \| [\d.]+ \|", line)
    ]
    for step in ("parse_program", "layout-lower", "native: code generation", "native: load"):
        assert any(s.startswith(step) for s in steps), (step, steps)
    error = float(lines[-1].rsplit(" ", 1)[1])
    assert lines[-1].startswith("results against numpy") and error < 1e-3
