"""Smoke tests: upstream MLIR 22 is installed and runs the kind of IR layout-lower emits.

These guard the native cross-checks: if they fail, so would every test that executes
lowered IR with ``run_native``.
"""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.mlir_tools import MLIR_MAJOR, NativeRunError, require, run_native

SUM_OF_SQUARES = """
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant {n} : index
  %zero = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<{n}xf32>
  scf.for %i = %c0 to %cn step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %sq = arith.mulf %f, %f : f32
    memref.store %sq, %m[%i] : memref<{n}xf32>
  }
  %sum = scf.for %i = %c0 to %cn step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %m[%i] : memref<{n}xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  vector.print %sum : f32
  %u = memref.cast %m : memref<{n}xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<{n}xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
"""

# The constructs lowered layout code is made of: affine loops and quasi-affine index maps,
# floordiv of negative values, memrefs of vectors, vector.from_elements/extract,
# vector.transfer_read, strided subviews, memref.global initializers.
LOWERED_CONSTRUCTS = """
memref.global "private" constant @g : memref<2x3xi32> = dense<[[1, 2, 3], [4, 5, 6]]>
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %g = memref.get_global @g : memref<2x3xi32>
  %m = memref.alloc() : memref<3x2xi32>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 3 {
      %v = affine.load %g[%i, %j] : memref<2x3xi32>
      %q = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1) floordiv 2)>(%i, %j)
      %r = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1) mod 2)>(%i, %j)
      memref.store %v, %m[%q, %r] : memref<3x2xi32>
    }
  }
  %neg = arith.constant -7 : index
  %fd = arith.floordivsi %neg, %c2 : index
  %fdi = arith.index_cast %fd : index to i32
  vector.print %fdi : i32
  %vm = memref.alloc() : memref<2xvector<4xi8>>
  %a = arith.constant 3 : i8
  %b = arith.constant 9 : i8
  %vec = vector.from_elements %a, %b, %a, %b : vector<4xi8>
  memref.store %vec, %vm[%c1] : memref<2xvector<4xi8>>
  %l = memref.load %vm[%c1] : memref<2xvector<4xi8>>
  %e = vector.extract %l[1] : i8 from vector<4xi8>
  vector.print %e : i8
  %row = vector.transfer_read %m[%c1, %c0], %fdi : memref<3x2xi32>, vector<2xi32>
  vector.print %row : vector<2xi32>
  %x = memref.load %m[%c2, %c1] : memref<3x2xi32>
  vector.print %x : i32
  %s = memref.subview %m[1, 0] [2, 2] [1, 1]
      : memref<3x2xi32> to memref<2x2xi32, strided<[2, 1], offset: 2>>
  %y = memref.load %s[%c1, %c0] : memref<2x2xi32, strided<[2, 1], offset: 2>>
  vector.print %y : i32
  %u = memref.cast %m : memref<3x2xi32> to memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %m : memref<3x2xi32>
  memref.dealloc %vm : memref<2xvector<4xi8>>
  return
}
func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
"""


def _numbers(text: str) -> list[float]:
    return [float(t) for t in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", text)]


def _memref_data(output: str) -> list[float]:
    """The numbers after 'data =' in printMemref* output."""
    _, _, data = output.partition("data =")
    assert data, f"no printMemref output in:\n{output}"
    return _numbers(data)


def test_mlir_opt_is_version_22(mlir_opt, mlir_runner):
    for tool in (mlir_opt, mlir_runner):
        out = subprocess.run([tool, "--version"], capture_output=True, text=True, check=True)
        text = out.stdout + out.stderr
        assert re.search(rf"version {MLIR_MAJOR}\.", text), (
            f"{tool} is not MLIR {MLIR_MAJOR}:\n{text}"
        )


@pytest.mark.parametrize("n", [4, 13])
def test_sum_of_squares_runs_natively(native_runner, n):
    out = native_runner(SUM_OF_SQUARES.replace("{n}", str(n)))
    first, _, rest = out.partition("\n")
    assert float(first) == sum(float(i * i) for i in range(n)), out
    assert _memref_data(rest) == [float(i * i) for i in range(n)], out


def test_lowered_constructs_run_natively(native_runner):
    g = [1, 2, 3, 4, 5, 6]  # @g flattened; %m is the same values reshaped to 3x2
    m = [g[0:2], g[2:4], g[4:6]]
    out = native_runner(LOWERED_CONSTRUCTS)
    lines = out.splitlines()
    assert int(lines[0]) == -7 // 2, out  # floordivsi rounds toward -inf, like Python
    assert int(lines[1]) == 9, out  # element 1 of (3, 9, 3, 9)
    assert _numbers(lines[2]) == [float(v) for v in m[1]], out  # "( 3, 4 )"
    assert int(lines[3]) == m[2][1], out
    assert int(lines[4]) == m[2][0], out  # subview rows 1..2, element [1, 0]
    assert _memref_data("\n".join(lines[5:])) == [float(v) for v in g], out


def test_run_native_reports_tool_errors(mlir_opt, mlir_runner, mlir_runner_libs):
    bad = "func.func @main() {\n  %0 = arith.addi %x, %x : i32\n  return\n}\n"
    with pytest.raises(NativeRunError, match="mlir-opt failed") as info:
        run_native(bad, mlir_opt=mlir_opt, mlir_runner=mlir_runner, shared_libs=mlir_runner_libs)
    assert "undefined" in str(info.value) or "%x" in str(info.value), str(info.value)


def test_missing_tool_skips_locally(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y mlir-22-tools"):
        require(None, "mlir-opt")


def test_missing_tool_fails_in_ci(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="apt-get install -y mlir-22-tools"):
        require(None, "mlir-opt")
    assert require("/some/mlir-opt", "mlir-opt") == "/some/mlir-opt"
