"""`math.fpowi` by a constant power, scheduled (passes/schedule/powers.py): the multiplications
LLVM makes of `llvm.powi`, vectorized, bit for bit what the program as written computes on
every engine (upstream's lowering takes `fpowi` on scalars only, so a vectorized `fpowi`
did not compile); a power known only at run time keeps its nest scalar, and compiles."""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline

POWER = """
func.func @main(%x: memref<3x21x{t}>, %y: memref<3x21x{t}>) {{
  %p = arith.constant {power} : {w}
  affine.for %i = 0 to 3 {{
    affine.for %j = 0 to 21 {{
      %a = affine.load %x[%i, %j] : memref<3x21x{t}>
      %b = math.fpowi %a, %p : {t}, {w}
      affine.store %b, %y[%i, %j] : memref<3x21x{t}>
    }}
  }}
  func.return
}}
"""

RUN_TIME_POWER = """
func.func @main(%x: memref<3x21xf32>, %y: memref<3x21xf32>, %n: memref<i32>) {
  %p = affine.load %n[] : memref<i32>
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 21 {
      %a = affine.load %x[%i, %j] : memref<3x21xf32>
      %b = math.fpowi %a, %p : f32, i32
      affine.store %b, %y[%i, %j] : memref<3x21xf32>
    }
  }
  func.return
}
"""

PIPELINE = "layout-schedule{target=avx2 plain=true},layout-lower"
POWERS = [-3, -1, 0, 1, 2, 3, 5, 8, 13]


def scheduled(text: str) -> str:
    return str(apply_pipeline(parse_program(text), PIPELINE))


@pytest.mark.parametrize("engine", ["native", "compiled", "interp"])
@pytest.mark.parametrize("element,width", [("f32", "i64"), ("f64", "i32")])
@pytest.mark.parametrize("power", POWERS)
def test_a_constant_power_is_vectorized_bit_for_bit(
    power: int, element: str, width: str, engine: str
) -> None:
    source = POWER.format(t=element, w=width, power=power)
    text = scheduled(source)
    assert "math.fpowi" not in text and "vector<" in text
    report = heterolayout.check(source, pipeline=PIPELINE, engine=engine, seed=power + 20)
    assert report.equal and report.compared > 0, str(report)


SPECIAL = np.array(
    [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, -3e-39, 1.5e19, -2.7e12, 0.3, -7.25],
    np.float32,
)


@pytest.mark.parametrize("power", POWERS)
def test_special_values_match_llvm_powi(power: int) -> None:
    """Zeros, infinities, NaN, denormals and overflow natively through upstream MLIR: the
    scheduled multiplications against the program as written (`llvm.powi`) and against the
    interpreter's `__powisf2`."""
    source = POWER.format(t="f32", w="i32", power=power)
    x = np.resize(SPECIAL, (3, 21)).astype(np.float32)
    results = []
    for text, engine in ((scheduled(source), "native"), (source, "native"), (source, "interp")):
        y = np.zeros((3, 21), np.float32)
        heterolayout.run(text, args=(x.copy(), y), engine=engine)
        results.append(y)
    for other in results[1:]:
        assert np.array_equal(results[0].view(np.uint32), other.view(np.uint32)) or np.array_equal(
            results[0], other, equal_nan=True
        ), (results[0], other)
    if power == 2:
        assert np.array_equal(results[0], x * x, equal_nan=True)


@pytest.mark.parametrize("engine", ["native", "interp"])
def test_a_power_known_at_run_time_stays_scalar_and_compiles(engine: str) -> None:
    text = scheduled(RUN_TIME_POWER)
    assert "math.fpowi" in text and "vector<" not in text
    x = np.linspace(-3, 3, 63, dtype=np.float32).reshape(3, 21)
    y = np.zeros((3, 21), np.float32)
    heterolayout.run(text, args=(x, y, np.array(3, np.int32)), engine=engine)
    assert np.allclose(y, x**3, rtol=1e-6)
