"""Smoke run of benchmarks/fma_peak.py: a row per vector width this CPU runs, each a
positive rate, and code that keeps every chain (a chain the compiler drops inflates the
rate by the chains it counts). No time is asserted."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from benchmarks.fma_peak import CHAINS, ISAS, source, supported
from heterolayout.execution.native.toolchain import find_c_compiler
from tests.benchmarks_smoke import run_python


def _compiler() -> str:
    compiler = find_c_compiler()
    if compiler is None:
        pytest.skip("needs a C compiler")
    return compiler


def test_benchmark_prints_a_rate_per_vector_width_the_cpu_runs() -> None:
    _compiler()
    isas = [isa for isa in ISAS if supported(isa)]
    if not isas:
        pytest.skip("this CPU has neither AVX-512 nor AVX2")
    run = run_python(["-m", "benchmarks.fma_peak", "--seconds", "0.01"], timeout=120)
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if re.match(r"\| avx", line)]
    assert [row.split()[1] for row in rows] == isas
    assert all(float(row.strip("| ").split("|")[-1]) > 0 for row in rows), rows


@pytest.mark.parametrize("isa", ISAS)
def test_every_chain_is_in_the_timed_loop(isa: str, tmp_path: Path) -> None:
    compiler = _compiler()
    (tmp_path / "peak.c").write_text(source(isa))
    flags = ISAS[isa][3]
    assembly = subprocess.run(
        [compiler, "-O2", *flags, "-S", "-o", "-", str(tmp_path / "peak.c")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert len(re.findall(r"\bvfmadd\w*ps\b", assembly)) == CHAINS


def test_a_bad_length_is_one_line() -> None:
    run = run_python(["-m", "benchmarks.fma_peak", "--seconds", "-1"], timeout=60)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines()[-1] == (
        "fma_peak.py: error: --seconds -1.0: expected a positive length"
    )
