"""The recipe of docs/real-inputs.md from a tensor-level linalg program, run as CI runs it:
`mlir-opt-22 --one-shot-bufferize` (default options) → `layout.assign`s added to the
bufferized program, as printed → `layout-opt -p layout-lower` → the lowered program computes
numpy's values, bit for bit what the bufferized program without layouts computes, in the
compiled engine and natively (upstream MLIR 22 compiles and runs it)."""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest

import heterolayout
from tests.crosscheck_programs import layout_opt
from tests.paths import REPOSITORY

RECIPE = REPOSITORY / "examples" / "tensor" / "matmul_relu.mlir"

ASSIGNS = (
    # the first argument in 4-wide column blocks, the intermediate buffer in row pairs
    ("%arg0", '#layout.tag<"HW->Hw4w">', "memref<4x8xf32>"),
    ("%alloc", '#layout.tag<"HW->hW2h">', "memref<4x6xf32>"),
)


def _with_assigns(bufferized: str) -> str:
    """Each `layout.assign` right after its buffer's definition (the function's entry for
    an argument), as docs/real-inputs.md says to add them."""
    lines = bufferized.splitlines()
    for buffer, layout, memref_type in ASSIGNS:
        assign = f"    layout.assign {buffer} to {layout} : {memref_type}"
        if buffer.startswith("%arg"):
            at = next(i for i, line in enumerate(lines) if "func.func @main" in line) + 1
        else:
            at = next(i for i, line in enumerate(lines) if f"{buffer} = memref.alloc" in line) + 1
        lines.insert(at, assign)
    return "\n".join(lines) + "\n"


def _bufferize(mlir_opt: str) -> str:
    result = subprocess.run(
        [mlir_opt, "--one-shot-bufferize", str(RECIPE)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("engine", ["compiled", "native"])
def test_recipe_from_tensors_runs_as_numpy(mlir_opt: str, engine: str) -> None:
    bufferized = _bufferize(mlir_opt)
    assert "tensor" not in re.sub(r"//.*", "", bufferized)  # the entry is all buffers
    lowered = layout_opt(_with_assigns(bufferized), "-p", "layout-lower")
    assert lowered.returncode == 0, lowered.stderr
    assert "#layout" not in lowered.stdout and "linalg.matmul" not in lowered.stdout
    assert "memref<2x6x2xf32>" in lowered.stdout  # the intermediate buffer's physical type

    rng = np.random.default_rng(13)
    a = rng.uniform(-1, 1, (4, 8)).astype(np.float32)
    b = rng.uniform(-1, 1, (8, 6)).astype(np.float32)
    out, plain = np.zeros((4, 6), np.float32), np.zeros((4, 6), np.float32)
    heterolayout.run(lowered.stdout, "main", [a, b, out], engine=engine)
    heterolayout.run(bufferized, "main", [a, b, plain], engine=engine)
    expected = np.maximum(a.astype(np.float64) @ b, 0.0)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(out.view(np.int32), plain.view(np.int32))
    # And upstream reads what layout-lower printed.
    check = subprocess.run([mlir_opt, "-"], input=lowered.stdout, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_recipe_check_against_the_layout_free_program(mlir_opt: str) -> None:
    report = heterolayout.check(_with_assigns(_bufferize(mlir_opt)))
    assert report.equal, str(report)
    assert report.compared == 4 * 8 + 8 * 6 + 4 * 6


# ---- the same recipe after upstream tiling: views with run-time windows, copies of tiles ----
TILED = REPOSITORY / "examples" / "tensor" / "tiled_matmul.mlir"
TILING = TILED.with_name("tile_matmul.transform.mlir")
TILED_ASSIGNS = (
    ("%arg0", '#layout.tag<"HW->Hw4w">', "memref<8x16xf32>"),
    ("%arg1", '#layout.tag<"HW->wH4h4w">', "memref<16x12xf32>"),
    ("%alloc", '#layout.tag<"HW->hW2h">', "memref<8x12xf32>"),
)


def _tiled(mlir_opt: str) -> str:
    result = subprocess.run(
        [
            mlir_opt,
            f"--transform-preload-library=transform-library-paths={TILING}",
            "--transform-interpreter",
            "--canonicalize",
            "--one-shot-bufferize",
            str(TILED),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def _with_tiled_assigns(bufferized: str) -> str:
    lines = bufferized.splitlines()
    for buffer, layout, memref_type in TILED_ASSIGNS:
        if buffer.startswith("%arg"):
            at = next(i for i, line in enumerate(lines) if "func.func @main" in line) + 1
        else:
            at = next(i for i, line in enumerate(lines) if f"{buffer} = memref.alloc" in line) + 1
        lines.insert(at, f"    layout.assign {buffer} to {layout} : {memref_type}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("engine", ["compiled", "native"])
def test_tiled_recipe_runs_as_numpy(mlir_opt: str, engine: str) -> None:
    """Upstream's tiled, bufferized matmul (subviews with run-time offsets and `affine.min`
    sizes, linalg on them, each tile copied onto itself) with layouts on both inputs and
    the intermediate buffer: `layout-lower` lowers it as it is, into lean index code."""
    bufferized = _tiled(mlir_opt)
    assert "offset: ?" in bufferized and "memref.copy %subview" in bufferized
    lowered = layout_opt(_with_tiled_assigns(bufferized), "-p", "layout-lower{validate=true}")
    assert lowered.returncode == 0, lowered.stderr
    assert "accesses proven" in lowered.stderr and "not proven" not in lowered.stderr
    assert "#layout" not in lowered.stdout and "linalg" not in lowered.stdout
    assert "floordivsi" not in lowered.stdout and "arith.select" not in lowered.stdout

    rng = np.random.default_rng(17)
    a = rng.uniform(-1, 1, (8, 16)).astype(np.float32)
    b = rng.uniform(-1, 1, (16, 12)).astype(np.float32)
    out, plain = np.zeros((8, 12), np.float32), np.zeros((8, 12), np.float32)
    heterolayout.run(lowered.stdout, "main", [a, b, out], engine=engine)
    heterolayout.run(bufferized, "main", [a, b, plain], engine=engine)
    np.testing.assert_allclose(out, a.astype(np.float64) @ b, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(out.view(np.int32), plain.view(np.int32))
    check = subprocess.run([mlir_opt, "-"], input=lowered.stdout, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
