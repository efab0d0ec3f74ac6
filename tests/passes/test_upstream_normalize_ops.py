"""Ops of upstream's `--normalize-memrefs` tests (mlir/test/Dialect/MemRef/normalize-memrefs*.mlir)
on memrefs with builtin `affine_map` layouts: both engines run them, and `layout-lower`
lowers them to what the unlowered program computes.

- `reinterpret_cast` to a memref typed with a strided `affine_map` (upstream's
  `test_reinterpret_cast`): the result is upstream's description of a view of plain memory,
  which the compiled engine reads like the interpreter does (it called the layout-aware
  accessor of a numpy view);
- `affine.parallel` (upstream's `affine_parallel_norm`): both engines run it, its scalar
  reductions as mlir-runner computes them, and its "assign" of a layout-typed buffer lowers;
- `affine.prefetch` / `memref.prefetch` (upstream's `prefetch_normalize`): lowered onto the
  physical buffer, the program computing what it did;
- `affine.if` yielding a buffer a `layout.assign` laid out: its result takes the layout.
"""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout.execution import ExecutionError

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


# ---- affine.parallel ----------------------------------------------------------------------------
def _reductions(kinds: list[str], element: str) -> str:
    """Each reduction over a 2-D iteration space with max/min bounds and a step, printed."""
    results = ", ".join(element for _ in kinds)
    quoted = ", ".join(f'"{k}"' for k in kinds)
    names = [f"%r{i}" for i in range(len(kinds))]
    prints = "".join(f"  vector.print {n} : {element}\n" for n in names)
    return f"""func.func @main() {{
  %m = memref.alloc() : memref<6x5x{element}>
  affine.for %i = 0 to 6 {{
    affine.for %j = 0 to 5 {{
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 5 + d1)>(%i, %j)
      %w = arith.index_cast %k : index to i32
      %c = arith.constant 9 : i32
      %x = arith.muli %w, %c : i32
      %y = arith.constant 37 : i32
      %z = arith.remsi %x, %y : i32
      %q = arith.constant 5 : i32
      %e = arith.subi %z, %q : i32
      {"%v = arith.sitofp %e : i32 to " + element if element.startswith("f") else "%v = arith.trunci %e : i32 to " + element}
      memref.store %v, %m[%i, %j] : memref<6x5x{element}>
    }}
  }}
  %four = arith.constant 4 : index
  {", ".join(names)} = affine.parallel (%a, %b) = (max(0, 1), 0) to (6, min(5, %four + 1)) step (1, 2) reduce ({quoted}) -> ({results}) {{
    %v = memref.load %m[%a, %b] : memref<6x5x{element}>
    affine.yield {", ".join("%v" for _ in kinds)} : {results}
  }}
{prints}  memref.dealloc %m : memref<6x5x{element}>
  return
}}
"""


REDUCTION_CASES = {
    "float": (["addf", "mulf", "maximumf", "minimumf"], "f32"),
    "integer": (["addi", "muli", "andi", "ori"], "i8"),
}


@pytest.mark.parametrize("case", sorted(REDUCTION_CASES))
def test_affine_parallel_reductions_print_what_mlir_runner_prints(case: str, native_runner) -> None:
    kinds, element = REDUCTION_CASES[case]
    program = _reductions(kinds, element)
    expected = native_runner(program)
    assert len(expected.split()) == len(kinds)
    for engine in ENGINES:
        assert heterolayout.run(program, engine=engine, capture=True).output == expected


def test_affine_parallel_reductions_equal_numpy() -> None:
    k = np.arange(30).reshape(6, 5)
    values = ((k * 9) % 37 - 5)[1:6, 0:5:2].astype(np.float32)
    program = _reductions(["addf", "maximumf", "minimumf"], "f32")
    for engine in ENGINES:
        output = heterolayout.run(program, engine=engine, capture=True).output
        assert output is not None
        printed = [float(x) for x in output.split()]
        assert printed == [values.sum(), values.max(), values.min()]


ASSIGN = """#tile = affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>
func.func @main(%x: memref<6xf32>, %n: index) -> (f32, f32) {
  %a = memref.alloc() : memref<6xf32, #tile>
  %b = memref.alloc() : memref<2x17xf32>
  layout.assign %b to #layout.tag<"NC->NC8c", pad = -1.0> : memref<2x17xf32>
  %ra, %rb, %s = affine.parallel (%i) = (0) to (6) reduce ("assign", "assign", "addf") -> (memref<6xf32, #tile>, memref<2x17xf32>, f32) {
    %v = affine.load %x[%i] : memref<6xf32>
    affine.store %v, %a[%i] : memref<6xf32, #tile>
    affine.store %v, %b[1, %i + 11] : memref<2x17xf32>
    affine.yield %a, %b, %v : memref<6xf32, #tile>, memref<2x17xf32>, f32
  }
  %c = affine.if affine_set<(d0) : (d0 - 3 >= 0)>(%n) -> memref<6xf32, #tile> {
    affine.yield %ra : memref<6xf32, #tile>
  } else {
    affine.yield %a : memref<6xf32, #tile>
  }
  %u = affine.load %c[5] : memref<6xf32, #tile>
  %w = affine.load %rb[1, 16] : memref<2x17xf32>
  %t = arith.addf %u, %w : f32
  memref.dealloc %a : memref<6xf32, #tile>
  memref.dealloc %b : memref<2x17xf32>
  return %t, %s : f32, f32
}
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_affine_parallel_assigns_a_layout_typed_buffer(engine: str) -> None:
    x = np.arange(1, 7, dtype=np.float32) / 4
    assert tuple(heterolayout.run(ASSIGN, "main", [x, 3], engine=engine)) == (2 * x[5], x.sum())
    report = heterolayout.check(ASSIGN, engine=engine)
    assert report.equal and report.compared == 1 + 1 + 6, report


def test_affine_parallel_without_iterations_has_no_assigned_value() -> None:
    program = """func.func @main(%n: index) -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  %r = affine.parallel (%i) = (0) to (%n) reduce ("assign") -> memref<4xf32> {
    affine.yield %a : memref<4xf32>
  }
  return %r : memref<4xf32>
}
"""
    for engine in ENGINES:
        with pytest.raises(
            ExecutionError, match='runs no iteration, so its "assign" result has no value'
        ):
            heterolayout.run(program, "main", [0], engine=engine)


# ---- prefetch -----------------------------------------------------------------------------------
PREFETCH = """#tile = affine_map<(d0) -> (d0 floordiv 32, d0 mod 32)>
func.func @main(%arg0: memref<512xf32, #tile>, %b: memref<4x12xi1, #layout.tag<"NC->NC6c", pack = i6>>) -> (f32, i1) {
  affine.for %arg3 = 0 to 8 {
    affine.prefetch %arg0[%arg3 * 40 + 1], read, locality<3>, data : memref<512xf32, #tile>
    memref.prefetch %arg0[%arg3], write, locality<1>, data : memref<512xf32, #tile>
    affine.prefetch %b[%arg3 floordiv 2, %arg3 + 3], read, locality<0>, instr : memref<4x12xi1, #layout.tag<"NC->NC6c", pack = i6>>
  }
  %c = arith.constant 33 : index
  %c1 = arith.constant 1 : index
  %v = memref.load %arg0[%c] : memref<512xf32, #tile>
  %w = memref.load %b[%c1, %c1] : memref<4x12xi1, #layout.tag<"NC->NC6c", pack = i6>>
  return %v, %w : f32, i1
}
"""


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("options", ["", "{index=affine}", "{flatten=true}"])
def test_prefetches_lower_onto_the_physical_buffer(engine: str, options: str) -> None:
    report = heterolayout.check(PREFETCH, f"layout-lower{options}", engine=engine)
    assert report.equal and report.compared == 2 + 512 + 48, report


AFFINE_IF = """func.func @main(%n: index) -> f32 {
  %c = arith.constant 23.0 : f32
  %a = memref.alloc() : memref<8xf32>
  layout.assign %a to #layout.tag<"W->W4w", pad = 5.0> : memref<8xf32>
  %1 = affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%n) -> memref<8xf32> {
    affine.yield %a : memref<8xf32>
  } else {
    affine.yield %a : memref<8xf32>
  }
  affine.store %c, %1[5] : memref<8xf32>
  %v = affine.load %a[5] : memref<8xf32>
  memref.dealloc %a : memref<8xf32>
  return %v : f32
}
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_affine_if_yielding_an_assigned_buffer_takes_its_layout(engine: str) -> None:
    """layout-apply retypes the affine.if result with the buffer it yields (it kept the
    plain type, and the store through it indexed the physical buffer logically)."""
    report = heterolayout.check(AFFINE_IF, engine=engine)
    assert report.equal and report.compared == 1, report
    assert heterolayout.run(AFFINE_IF, "main", [1], engine=engine) == (23.0,)
