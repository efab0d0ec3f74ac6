"""Smoke run of benchmarks/startup.py: it runs every command once and prints its table in the
documented form. No time is asserted; the ratios only have to be positive numbers."""

from __future__ import annotations

import gc
import re
from pathlib import Path

import pytest

from tests.benchmarks_smoke import run_python
from tests.mlir_tools import find_mlir_tool, require
from tests.paths import REPOSITORY

NUMBER = r"\d+\.\d+"


@pytest.mark.slow
def test_startup_benchmark_prints_its_table_and_ratios() -> None:
    require(find_mlir_tool("mlir-opt"), "mlir-opt")
    run = run_python(["-m", "benchmarks.startup", "--repeat", "1"], timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("# start-up: examples/conv2d_nchw16c.mlir, 1 runs each")
    assert lines[2] == "| command | wall s (median) | CPU s (median) |"
    rows = {line.split("|")[1].strip(): line for line in lines[4:]}
    for command in (
        "layout-opt",
        "layout-opt -p layout-lower",
        "mlir-opt-22 --normalize-memrefs",
        "xDSL floor (parse, verify, print)",
    ):
        assert re.fullmatch(rf"\| {re.escape(command)} \| {NUMBER} \| {NUMBER} \|", rows[command])
    for ratio in (
        "ratio layout-opt / xDSL floor",
        "ratio layout-opt -p layout-lower / xDSL floor",
        "ratio layout-opt -p layout-lower / mlir-opt",
        "ratio xDSL floor / mlir-opt",
    ):
        cells = [c.strip() for c in rows[ratio].strip("|").split("|")]
        assert [float(c) > 0 for c in cells[1:]] == [True, True]


LOADED_ONLY_WHEN_NEEDED = (
    "numpy",
    "heterolayout.execution",
    "heterolayout.passes.lower.linalg_loops",
    "heterolayout.passes.convert.gpu_tiles",
    "xdsl.dialects.linalg",
)
"""What `layout-opt -p layout-lower` on a program without linalg ops or `convert=gpu` must not
import: each cost a tenth of a second or more of start-up when it was imported eagerly. (The
vector dialect, 5-10 ms, is loaded by the lowering's checks of vector accesses.)"""


def test_lowering_a_small_program_imports_only_what_it_uses() -> None:
    script = (
        "import sys\n"
        "from heterolayout.tools.opt import main\n"
        "sys.argv = ['layout-opt', 'examples/conv2d_nchw16c.mlir', '-p', 'layout-lower',"
        " '-o', '/dev/null']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(sorted(m for m in {LOADED_ONLY_WHEN_NEEDED!r} if m in sys.modules))\n"
    )
    run = run_python(["-c", script], timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "[]"


def test_layout_opt_unfreezes_what_it_froze_for_its_run(tmp_path: Path) -> None:
    """`main` keeps the collector off the start-up's objects only during its run: a caller in
    the same process (these tests) gets them back, and one that froze objects keeps them."""
    from heterolayout.tools.opt import main

    arguments = [str(REPOSITORY / "examples" / "conv2d_nchw16c.mlir"), "-o", str(tmp_path / "out")]
    assert gc.get_freeze_count() == 0
    assert main(arguments) == 0
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        assert main([*arguments, "-p", "layout-lower"]) == 0
        assert gc.get_freeze_count() > 0  # some of the caller's objects may have been freed
    finally:
        gc.unfreeze()
    assert "layout.assign" not in (tmp_path / "out").read_text()
