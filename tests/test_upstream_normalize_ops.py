"""Ops of upstream's `--normalize-memrefs` tests (mlir/test/Dialect/MemRef/normalize-memrefs*.mlir)
on memrefs with builtin `affine_map` layouts: both engines run them, and `layout-lower`
lowers them to what the unlowered program computes.

- `reinterpret_cast` to a memref typed with a strided `affine_map` (upstream's
  `test_reinterpret_cast`): the result is upstream's description of a view of plain memory,
  which the compiled engine reads like the interpreter does (it called the layout-aware
  accessor of a numpy view);
"""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout

ENGINES = ["interp", "compiled"]

STRIDED = "affine_map<(d0, d1) -> (d0 * 7 + d1)>"

# upstream's test_reinterpret_cast, and the same view passed to a function that reads it
REINTERPRET_CAST = f"""#map_strided = {STRIDED}
func.func private @subtract(%0: memref<5x7xf32, #map_strided>, %arg1: memref<5x7xf32>, %arg2: memref<5x7xf32>) {{
  affine.for %arg5 = 0 to 5 {{
    affine.for %arg6 = 0 to 7 {{
      %1 = affine.load %0[%arg5, %arg6] : memref<5x7xf32, #map_strided>
      %2 = affine.load %arg1[%arg5, %arg6] : memref<5x7xf32>
      %3 = arith.subf %1, %2 : f32
      affine.store %3, %arg2[%arg5, %arg6] : memref<5x7xf32>
    }}
  }}
  return
}}
func.func @main(%arg0: memref<5x7xf32>, %arg1: memref<5x7xf32>, %arg2: memref<5x7xf32>, %arg3: memref<5x7xf32>) {{
  %0 = memref.reinterpret_cast %arg0 to offset: [0], sizes: [5, 7], strides: [7, 1] : memref<5x7xf32> to memref<5x7xf32, #map_strided>
  affine.for %arg5 = 0 to 5 {{
    affine.for %arg6 = 0 to 7 {{
      %1 = affine.load %0[%arg5, %arg6] : memref<5x7xf32, #map_strided>
      %2 = affine.load %arg1[%arg5, %arg6] : memref<5x7xf32>
      %3 = arith.subf %1, %2 : f32
      affine.store %3, %arg2[%arg5, %arg6] : memref<5x7xf32>
    }}
  }}
  %4 = memref.reinterpret_cast %arg1 to offset: [0], sizes: [5, 7], strides: [7, 1] : memref<5x7xf32> to memref<5x7xf32, #map_strided>
  func.call @subtract(%4, %arg0, %arg3) : (memref<5x7xf32, #map_strided>, memref<5x7xf32>, memref<5x7xf32>) -> ()
  return
}}
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_reinterpret_cast_to_a_strided_map_reads_the_view(engine: str) -> None:
    rng = np.random.default_rng(3)
    a, b = (rng.integers(-50, 50, (5, 7)).astype(np.float32) for _ in range(2))
    first, second = np.zeros((5, 7), np.float32), np.zeros((5, 7), np.float32)
    heterolayout.run(REINTERPRET_CAST, "main", [a, b, first, second], engine=engine)
    np.testing.assert_array_equal(first, a - b)
    np.testing.assert_array_equal(second, b - a)


@pytest.mark.parametrize("engine", ENGINES)
def test_reinterpret_cast_to_a_strided_map_checks_against_its_lowering(engine: str) -> None:
    report = heterolayout.check(REINTERPRET_CAST, engine=engine)
    assert report.equal, report
    assert report.compared == 4 * 35
