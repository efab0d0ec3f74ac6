"""`layout-run` and the engines on the IR real pipelines produce: linalg programs without
layouts, upstream's bufferized output, dynamic-dim arguments, and views of layout-typed
memrefs (which the interpreter sees through the window, then the layout)."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest

import heterolayout
from heterolayout.tools.run import main as layout_run
from tests.paths import TESTS

BUFFERIZED = TESTS / "roundtrip" / "bufferized.mlir"

LINALG = """
func.func @main(%A: memref<4x8xf32>, %B: memref<8x6xf32>, %C: memref<4x6xf32>) {
  linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x6xf32>) outs(%C : memref<4x6xf32>)
  return
}
"""

DYNAMIC = """
func.func @main(%A: memref<?x8xf32, #layout.tag<"NC->CN">>) -> index {
  %c0 = arith.constant 0 : index
  %rows = memref.dim %A, %c0 : memref<?x8xf32, #layout.tag<"NC->CN">>
  %one = arith.constant 1.0 : f32
  memref.store %one, %A[%c0, %c0] : memref<?x8xf32, #layout.tag<"NC->CN">>
  return %rows : index
}
"""

LAYOUT_VIEWS = """
func.func @main(%A: memref<4x8xf32, #layout.tag<"HW->WH4h">>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %s = memref.subview %A[1, 2] [2, 3] [1, 2] : memref<4x8xf32, #layout.tag<"HW->WH4h">> to memref<2x3xf32, strided<[?, ?], offset: ?>>
  %x = memref.load %s[%c1, %c2] : memref<2x3xf32, strided<[?, ?], offset: ?>>
  %row = memref.subview %A[%c3, 0] [1, 8] [1, 1] : memref<4x8xf32, #layout.tag<"HW->WH4h">> to memref<8xf32, strided<[?], offset: ?>>
  %y = memref.load %row[%c3] : memref<8xf32, strided<[?], offset: ?>>
  %flat = memref.collapse_shape %A [[0, 1]] : memref<4x8xf32, #layout.tag<"HW->WH4h">> into memref<32xf32, strided<[?], offset: ?>>
  %z = memref.load %flat[%c3] : memref<32xf32, strided<[?], offset: ?>>
  %ten = arith.constant 10.0 : f32
  memref.store %ten, %s[%c0, %c0] : memref<2x3xf32, strided<[?, ?], offset: ?>>
  %xy = arith.addf %x, %y : f32
  %sum = arith.addf %xy, %z : f32
  return %sum : f32
}
"""


def _run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = layout_run(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("engine", ["interp", "compiled"])
def test_check_runs_linalg_programs_without_layouts(tmp_path: Path, engine: str) -> None:
    path = tmp_path / "matmul.mlir"
    path.write_text(LINALG)
    code, out, err = _run_cli(str(path), "--check", "--engine", engine)
    assert (code, err) == (0, "")
    assert out.strip() == f"OK: {4 * 8 + 8 * 6 + 4 * 6} elements compared"


def test_linalg_program_computes_the_matrix_product() -> None:
    rng = np.random.default_rng(3)
    a, b = (
        rng.uniform(-1, 1, (4, 8)).astype(np.float32),
        rng.uniform(-1, 1, (8, 6)).astype(np.float32),
    )
    c = np.zeros((4, 6), dtype=np.float32)
    heterolayout.run(LINALG, args=(a, b, c))
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("extent", [None, "3", "0"])
def test_check_sizes_dynamic_dims_of_layout_arguments(tmp_path: Path, extent: str | None) -> None:
    path = tmp_path / "dynamic.mlir"
    path.write_text(DYNAMIC)
    options = [] if extent is None else ["--dynamic-extent", extent]
    rows = 8 if extent is None else int(extent)
    if rows == 0:  # an empty buffer is valid, but it has no element to store to
        code, out, err = _run_cli(str(path), "--check", *options)
        assert code == 1
        assert err.strip() == (
            f"layout-run: error: out-of-bounds access in memref.store at {path}:6:3: "
            "logical index [0, 0] outside logical bounds [0, 8]"
        )
        return
    code, out, err = _run_cli(str(path), "--check", *options)
    assert (code, err) == (0, ""), err
    assert out.strip() == f"OK: {rows * 8 + 1} elements compared"
    code, out, _ = _run_cli(str(path), *options)
    assert (code, out.strip()) == (0, str(rows))


def test_help_says_how_dynamic_dims_are_sized() -> None:
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit):
        layout_run(["--help"])
    assert "--dynamic-extent N" in out.getvalue()
    assert "'?' dim of a memref argument (default: 8)" in " ".join(out.getvalue().split())


def test_negative_dynamic_extent_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "dynamic.mlir"
    path.write_text(DYNAMIC)
    code, _, err = _run_cli(str(path), "--dynamic-extent", "-1")
    assert code == 1
    assert (
        err.strip() == "layout-run: error: the extent of dynamic dims must not be negative, got -1"
    )


@pytest.mark.parametrize("engine", ["interp", "compiled"])
def test_bufferized_upstream_output_runs(engine: str) -> None:
    """mlir-opt --one-shot-bufferize's output: fully dynamic strided arguments, static
    strided subviews and copies between views and buffers."""
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (4, 8)).astype(np.float32)
    b = rng.uniform(-1, 1, (8, 16)).astype(np.float32)
    bias = rng.uniform(-1, 1, 16).astype(np.float32)
    (out,) = heterolayout.run(BUFFERIZED.read_text(), "matmul_bias", (a, b, bias), engine=engine)
    expected = np.maximum(a.astype(np.float64) @ b + bias, 0.0)
    expected[2:4, 0:8] = expected[0:2, 4:12]
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("engine", ["interp", "compiled"])
def test_views_of_layout_typed_memrefs_go_through_window_then_layout(engine: str) -> None:
    a = np.arange(32, dtype=np.float32).reshape(4, 8)
    (total,) = heterolayout.run(LAYOUT_VIEWS, args=(a,), engine=engine)
    assert total == a[1:3, 2:8:2][1, 2] + a[3, 3] + a.reshape(32)[3]
    assert a[1, 2] == 10.0  # the store through the window reached the root, in logical form
