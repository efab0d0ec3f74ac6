"""Where upstream `mlir-opt --normalize-memrefs` is wrong or silently gives up, and
`layout-lower` (which accepts MLIR's builtin `affine_map<…>` memref layouts) is right.

Each case runs both tools on the same input and asserts upstream's actual (wrong) result
next to ours, executing the lowered programs natively where they can run:
(a) `memref.dim` of a tiled memref: upstream answers the tile count, not the logical size;
(b) `affine.vector_load` across a tile boundary: upstream reads one physical row;
(c) an external declaration: upstream silently changes its ABI, we refuse naming it;
(d) an op it cannot rewrite: upstream gives up on the whole function without a word (even
    on another buffer), we fail naming the op.
"""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest

from tests.crosscheck_programs import layout_opt, numbers

TILED = "affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>"
HEADER = f"#tiled = {TILED}\n"

DIM = (
    HEADER
    + """func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %A = memref.alloc() : memref<10x16xf32, #tiled>
  %d0 = memref.dim %A, %c0 : memref<10x16xf32, #tiled>
  %d1 = memref.dim %A, %c1 : memref<10x16xf32, #tiled>
  %e0 = arith.index_cast %d0 : index to i64
  %e1 = arith.index_cast %d1 : index to i64
  "vector.print"(%e0) : (i64) -> ()
  "vector.print"(%e1) : (i64) -> ()
  memref.dealloc %A : memref<10x16xf32, #tiled>
  return
}
"""
)

VECTOR_LOAD = (
    HEADER
    + """func.func @main() {
  %c100 = arith.constant 100 : i32
  %A = memref.alloc() : memref<8x16xf32, #tiled>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      %ii = arith.index_cast %i : index to i32
      %jj = arith.index_cast %j : index to i32
      %r = arith.muli %ii, %c100 : i32
      %s = arith.addi %r, %jj : i32
      %f = arith.sitofp %s : i32 to f32
      affine.store %f, %A[%i, %j] : memref<8x16xf32, #tiled>
    }
  }
  %v = affine.vector_load %A[0, 2] : memref<8x16xf32, #tiled>, vector<4xf32>
  "vector.print"(%v) : (vector<4xf32>) -> ()
  memref.dealloc %A : memref<8x16xf32, #tiled>
  return
}
"""
)

EXTERNAL = (
    HEADER
    + """func.func private @ext(memref<8x16xf32, #tiled>)
func.func @main() {
  %A = memref.alloc() : memref<8x16xf32, #tiled>
  func.call @ext(%A) : (memref<8x16xf32, #tiled>) -> ()
  memref.dealloc %A : memref<8x16xf32, #tiled>
  return
}
"""
)

UNSUPPORTED_OP = (
    HEADER
    + """func.func @main() {
  %one = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<8x16xf32, #tiled>
  %B = memref.alloc() : memref<8x16xf32, #tiled>
  affine.store %one, %B[3, 5] : memref<8x16xf32, #tiled>
  %p = "memref.extract_aligned_pointer_as_index"(%A) : (memref<8x16xf32, #tiled>) -> index
  "vector.print"(%p) : (index) -> ()
  %x = affine.load %B[3, 5] : memref<8x16xf32, #tiled>
  "vector.print"(%x) : (f32) -> ()
  memref.dealloc %A : memref<8x16xf32, #tiled>
  memref.dealloc %B : memref<8x16xf32, #tiled>
  return
}
"""
)


def upstream_normalize(mlir_opt: str, text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [mlir_opt, "--normalize-memrefs"], input=text, capture_output=True, text=True, check=False
    )


def normalized(mlir_opt: str, text: str) -> str:
    result = upstream_normalize(mlir_opt, text)
    assert result.returncode == 0, result.stderr
    return result.stdout


def lowered(text: str) -> str:
    result = layout_opt(text, "-p", "layout-lower")
    assert result.returncode == 0, result.stderr
    return result.stdout


def tiled_values(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """value(i, j) = 100 i + j: the logical array, and the same values in the physical
    memory order of the tiled map (tile rows, tile cols, row in tile, col in tile)."""
    i, j = np.indices((rows, cols))
    logical = (100 * i + j).astype(np.float64)
    physical = np.zeros((rows // 4, cols // 4, 4, 4))
    physical[i // 4, j // 4, i % 4, j % 4] = logical
    return logical, physical.ravel()


# ---- (a) memref.dim ---------------------------------------------------------------------
def test_dim_upstream_gives_the_tile_count_ours_the_logical_size(mlir_opt, native_runner):
    upstream = normalized(mlir_opt, DIM)
    assert "memref<3x4x4x4xf32>" in upstream
    assert numbers(native_runner(upstream)) == (3, 4)  # wrong: the tile counts

    ours = lowered(DIM)
    assert "memref<3x4x4x4xf32>" in ours  # the same physical buffer
    assert numbers(native_runner(ours)) == (10, 16)


# ---- (b) affine.vector_load across a tile ---------------------------------------------
def test_vector_load_upstream_reads_a_physical_row_ours_the_logical_one(mlir_opt, native_runner):
    logical, memory = tiled_values(8, 16)
    upstream = normalized(mlir_opt, VECTOR_LOAD)
    assert "affine.vector_load %alloc[0, 0, 0, 2] : memref<2x4x4x4xf32>" in upstream
    # physical slots 2..5 of memory order: (0, 2), (0, 3), then the tile's next row
    assert tuple(memory[2:6]) == (2, 3, 100, 101)
    assert numbers(native_runner(upstream)) == tuple(memory[2:6])

    ours = lowered(VECTOR_LOAD)
    assert "memref<2x4x4x4xf32>" in ours
    assert numbers(native_runner(ours)) == tuple(logical[0, 2:6]) == (2, 3, 4, 5)


# ---- (c) an external declaration ------------------------------------------------------
def test_external_declaration_upstream_changes_its_abi_ours_refuses(mlir_opt):
    upstream = normalized(mlir_opt, EXTERNAL)
    assert "func.func private @ext(memref<2x4x4x4xf32>)" in upstream
    assert "call @ext(%alloc) : (memref<2x4x4x4xf32>) -> ()" in upstream

    ours = layout_opt(EXTERNAL, "-p", "layout-lower")
    assert ours.returncode == 1
    assert ours.stdout == ""
    first_line = ours.stderr.splitlines()[0]
    assert "external function @ext" in first_line and "ABI" in first_line, ours.stderr
    assert "Traceback" not in ours.stderr


# ---- (d) an op normalize-memrefs cannot rewrite ---------------------------------------
def test_unsupported_op_upstream_gives_up_silently_ours_names_the_op(mlir_opt):
    upstream = upstream_normalize(mlir_opt, UNSUPPORTED_OP)
    assert upstream.returncode == 0 and upstream.stderr == ""
    allocs = [line for line in upstream.stdout.splitlines() if "memref.alloc()" in line]
    assert len(allocs) == 2
    assert all(line.endswith(": memref<8x16xf32, #map>") for line in allocs), allocs
    assert "#map = " + TILED in upstream.stdout
    assert "memref<2x4x4x4xf32>" not in upstream.stdout

    ours = layout_opt(UNSUPPORTED_OP, "-p", "layout-lower")
    assert ours.returncode == 1
    assert ours.stdout == ""
    first_line = ours.stderr.splitlines()[0]
    assert re.search(
        r"input\.mlir:\d+:\d+: error: layout-lower: memref\.extract_aligned_pointer_as_index uses",
        first_line,
    ), first_line
    assert "no lowering" in first_line
    assert "Traceback" not in ours.stderr


@pytest.mark.parametrize("tool", ["upstream", "ours"])
def test_without_the_unsupported_op_both_normalize_b(tool, mlir_opt, native_runner):
    """The control for (d): the op, not B's accesses, makes upstream give up."""
    text = "".join(line for line in UNSUPPORTED_OP.splitlines(keepends=True) if "%p" not in line)
    assert "extract_aligned_pointer" not in text
    output = normalized(mlir_opt, text) if tool == "upstream" else lowered(text)
    assert "#tiled" not in output and "#map = affine_map<(d0, d1) -> (d0 floordiv" not in output
    assert "memref<2x4x4x4xf32>" in output
    assert numbers(native_runner(output)) == (1,)
