"""`layout-run`: printed results, seeded arguments, `--check`, and one-line errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from heterolayout.dialects.context import parse_program
from heterolayout.execution.arguments import random_arguments
from heterolayout.execution.entry import find_function
from heterolayout.passes import pipeline
from heterolayout.passes.pipeline import available_passes
from heterolayout.tools.run import main
from tests.planted_bugs import SwapStoreIndices

CONSTANTS = """
func.func @main() -> (i32, i1, f32, f64, f16, index, vector<3xi8>, i8) {
  %a = arith.constant -42 : i32
  %b = arith.constant true
  %c = arith.constant 0.1 : f32
  %d = arith.constant 0.1 : f64
  %e = arith.constant 65504.0 : f16
  %f = arith.constant 7 : index
  %g = arith.constant dense<[1, -2, 127]> : vector<3xi8>
  %h = arith.constant 200 : i8
  func.return %a, %b, %c, %d, %e, %f, %g, %h : i32, i1, f32, f64, f16, index, vector<3xi8>, i8
}"""

ECHO = """
func.func @main(%m: memref<2x3xf32>, %n: i8) -> (memref<2x3xf32>, i8) {
  func.return %m, %n : memref<2x3xf32>, i8
}"""

TRANSPOSE = """
func.func @main(%a: memref<3x4xi32>, %b: memref<4x3xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %v = memref.load %a[%i, %j] : memref<3x4xi32>
      memref.store %v, %b[%j, %i] : memref<4x3xi32>
    }
  }
  func.return
}"""


def write(tmp_path: Path, text: str, name: str = "prog.mlir") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
def test_prints_results_one_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str
) -> None:
    code, out, err = run_cli([write(tmp_path, CONSTANTS), "--engine", engine], capsys)
    assert (code, err) == (0, "")
    # f32 0.1 prints as the shortest f32 digits, f64 0.1 as Python's repr, 200 wraps in i8.
    assert out.splitlines() == ["-42", "1", "0.1", "0.1", "65500.0", "7", "[  1  -2 127]", "-56"]


def test_arguments_are_seeded_random_data(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, ECHO)
    outputs = {}
    for seed in (0, 0, 1):
        code, out, _ = run_cli([path, "--seed", str(seed)], capsys)
        assert code == 0
        outputs.setdefault(seed, []).append(out)
    assert outputs[0][0] == outputs[0][1] != outputs[1][0]
    m, n = random_arguments(find_function(parse_program(ECHO), "main"), 0)
    assert m.dtype == np.float32 and m.shape == (2, 3) and np.all((m >= -1) & (m < 1))
    assert outputs[0][0] == f"{m}\n{n}\n"


@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
def test_check_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str) -> None:
    code, out, err = run_cli(
        [write(tmp_path, TRANSPOSE), "--check", "-p", "canonicalize,cse", "--engine", engine],
        capsys,
    )
    assert (code, out, err) == (0, "OK: 24 elements compared\n", "")


def test_check_mismatch_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    passes = available_passes()
    monkeypatch.setattr(
        pipeline,
        "available_passes",
        lambda: {**passes, SwapStoreIndices.name: lambda: SwapStoreIndices},
    )
    path = write(tmp_path, TRANSPOSE)
    code, out, err = run_cli(
        [path, "--check", "-p", "test-swap-store-indices", "--seed", "4"], capsys
    )
    a, b = random_arguments(find_function(parse_program(TRANSPOSE), "main"), 4)
    right, wrong = b.copy(), b.copy()
    right[:3, :3] = a[:3, :3].T
    wrong[:3, :3] = a[:3, :3]
    i, j = np.argwhere(right != wrong)[0]
    assert code == 1 and err == ""
    assert out == (
        f"MISMATCH in argument 1 (memref<4x3xi32>) at [{i}, {j}]: unlowered {right[i, j]}, lowered {wrong[i, j]}\n"
    )


def test_pipeline_runs_before_printing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = """
func.func @main() -> index {
  %r = affine.apply affine_map<() -> (7 floordiv 2 + 7 mod 2)>()
  func.return %r : index
}"""
    for argv in ([], ["-p", "lower-affine"]):
        code, out, _ = run_cli([write(tmp_path, text), *argv], capsys)
        assert (code, out) == (0, "4\n")


ERRORS = {
    "entry": (
        "func.func @main() { func.return }",
        ["--entry", "kernel"],
        "no function @kernel in the module (functions: @main)",
    ),
    "unsupported": (
        "func.func @main(%a: i32) -> i32 {\n  %r = math.ctlz %a : i32\n  func.return %r : i32\n}",
        [],
        "unsupported op 'math.ctlz' at {path}:2:3",
    ),
    "bounds": (
        "func.func @main(%m: memref<4xi8>) -> i8 {\n  %c = arith.constant 9 : index\n"
        "  %v = memref.load %m[%c] : memref<4xi8>\n  func.return %v : i8\n}",
        [],
        "out-of-bounds access in memref.load at {path}:3:3: index [9] outside bounds [4]",
    ),
    "zero": (
        "func.func @main(%a: i32) -> i32 {\n  %z = arith.constant 0 : i32\n"
        "  %r = arith.remui %a, %z : i32\n  func.return %r : i32\n}",
        [],
        "division by zero in arith.remui at {path}:3:3",
    ),
    "pipeline": (
        "func.func @main() { func.return }",
        ["-p", "no-such-pass"],
        "pipeline 'no-such-pass': Unrecognized passes: ['no-such-pass']",
    ),
}


@pytest.mark.parametrize("case", sorted(ERRORS))
@pytest.mark.parametrize("engine", ["interp", "compiled"])
def test_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, engine: str
) -> None:
    text, argv, message = ERRORS[case]
    path = write(tmp_path, text)
    code, out, err = run_cli([path, "--engine", engine, *argv], capsys)
    assert (code, out) == (1, "")
    assert err == f"layout-run: error: {message.format(path=path)}\n"


def test_subprocess_error_has_no_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, ERRORS["zero"][0])
    result = subprocess.run(
        [sys.executable, "-m", "heterolayout.tools.run", path, "--engine", "interp"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr == f"layout-run: error: division by zero in arith.remui at {path}:3:3\n"


def test_parse_error_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli([write(tmp_path, "func.func @main( {")], capsys)
    assert (
        code == 1 and out == "" and err.startswith("layout-run: error: ") and "Traceback" not in err
    )
    code, _, err = run_cli([str(tmp_path / "missing.mlir")], capsys)
    assert code == 1 and err.startswith("layout-run: error: ") and "missing.mlir" in err
