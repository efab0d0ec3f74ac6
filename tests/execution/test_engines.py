"""The two engines against each other and against numpy, and `check` against lowerings that
are right and lowerings that are deliberately wrong."""

from __future__ import annotations

import gc
import struct
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from heterolayout import check, run
from heterolayout.dialects.context import parse_program
from heterolayout.execution import ExecutionError, compare_programs
from heterolayout.execution.arguments import random_arguments
from heterolayout.execution.compiled.engine import EMITTERS, CompiledEngine
from heterolayout.execution.compiled.writer import TERMINATORS
from heterolayout.execution.engines import engine_for, load_module
from heterolayout.execution.entry import SUPPORTED_OPS, find_function
from heterolayout.execution.interp.engine import all_functions
from heterolayout.execution.runtime.semantics import VALUE_OPS
from heterolayout.passes.pipeline import PipelineError, apply_pipeline
from tests.planted_bugs import SwapStoreIndices

ENGINES = ("interp", "compiled")
CHECK_ENGINES = (*ENGINES, "native")
"""`check` runs in the native engine too (stripped source against the lowered program)."""


def bits(value: Any) -> Any:
    """Floats by their bits (any NaN stands for all NaNs: numpy and the engines may pick
    different NaN payloads)."""
    if isinstance(value, float):
        return "nan" if value != value else struct.pack("<d", value)
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    return value


# ---- random straight-line programs: both engines and numpy agree ------------------------------
INT_TYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}
FLOAT_TYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
INT_OPS = {
    "arith.addi": np.add,
    "arith.subi": np.subtract,
    "arith.muli": np.multiply,
    "arith.andi": np.bitwise_and,
    "arith.ori": np.bitwise_or,
    "arith.xori": np.bitwise_xor,
    "arith.maxsi": np.maximum,
    "arith.minsi": np.minimum,
}
FLOAT_OPS = {
    "arith.addf": np.add,
    "arith.subf": np.subtract,
    "arith.mulf": np.multiply,
    "arith.divf": np.divide,
}


@st.composite
def straight_line_programs(
    draw: st.DrawFn,
) -> tuple[str, str, list[tuple[str, int, int]], list[Any]]:
    """A type, ops over a growing pool of values (two arguments first), and the arguments."""
    type_name = draw(st.sampled_from(sorted(INT_TYPES) + sorted(FLOAT_TYPES)))
    ops = INT_OPS if type_name in INT_TYPES else FLOAT_OPS
    steps = []
    for position in range(draw(st.integers(1, 12))):
        name = draw(st.sampled_from(sorted(ops)))
        steps.append((name, draw(st.integers(0, position + 1)), draw(st.integers(0, position + 1))))
    if type_name in INT_TYPES:
        info = np.iinfo(INT_TYPES[type_name])
        arguments = [draw(st.integers(int(info.min), int(info.max))) for _ in range(2)]
    else:
        dtype = FLOAT_TYPES[type_name]
        finite = st.floats(-1e4, 1e4, allow_nan=False, width=min(32, np.finfo(dtype).bits))  # type: ignore[arg-type]
        arguments = [float(dtype(draw(finite))) for _ in range(2)]
    lines = [
        f"  %v{i + 2} = {name} %v{a}, %v{b} : {type_name}" for i, (name, a, b) in enumerate(steps)
    ]
    count = len(steps) + 2
    values = ", ".join(f"%v{i}" for i in range(count))
    types = ", ".join([type_name] * count)
    text = (
        f"func.func @main(%v0: {type_name}, %v1: {type_name}) -> ({types}) {{\n"
        + "\n".join(lines)
        + f"\n  func.return {values} : {types}\n}}"
    )
    return text, type_name, steps, arguments


def numpy_reference(
    type_name: str, steps: list[tuple[str, int, int]], arguments: list[Any]
) -> list[Any]:
    dtype = {**INT_TYPES, **FLOAT_TYPES}[type_name]
    ops = {**INT_OPS, **FLOAT_OPS}
    pool = [np.array([a], dtype=dtype) for a in arguments]
    with np.errstate(all="ignore"):
        for name, a, b in steps:
            pool.append(ops[name](pool[a], pool[b]).astype(dtype))
    return [v.item() for v in pool]


@settings(max_examples=60, deadline=None)
@given(straight_line_programs())
def test_random_programs_agree_with_numpy(program: tuple[str, str, list, list]) -> None:
    text, type_name, steps, arguments = program
    module = parse_program(text)
    expected = numpy_reference(type_name, steps, arguments)
    for engine in ENGINES:
        got = run(module, "main", tuple(arguments), engine=engine)
        assert [bits(v) for v in got] == [
            bits(float(e) if type_name in FLOAT_TYPES else e) for e in expected
        ]


# ---- loop nests with memory: bit-identical and equal to numpy ---------------------------------
MATMUL = """
func.func @main(%A: memref<5x7xf32>, %B: memref<7x3xf32>, %C: memref<5x3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %z = arith.constant 0.0 : f32
  %total = scf.for %i = %c0 to %c5 step %c1 iter_args(%t = %z) -> (f32) {
    %row = scf.for %j = %c0 to %c3 step %c1 iter_args(%rt = %t) -> (f32) {
      %acc = scf.for %k = %c0 to %c7 step %c1 iter_args(%s = %z) -> (f32) {
        %a = memref.load %A[%i, %k] : memref<5x7xf32>
        %b = memref.load %B[%k, %j] : memref<7x3xf32>
        %p = arith.mulf %a, %b : f32
        %n = arith.addf %s, %p : f32
        scf.yield %n : f32
      }
      memref.store %acc, %C[%i, %j] : memref<5x3xf32>
      %nt = arith.addf %rt, %acc : f32
      scf.yield %nt : f32
    }
    scf.yield %row : f32
  }
  func.return %total : f32
}"""


def test_matmul_bit_identical_and_rounded_like_float32() -> None:
    rng = np.random.default_rng(7)
    a = rng.normal(size=(5, 7)).astype(np.float32)
    b = rng.normal(size=(7, 3)).astype(np.float32)
    expected = np.zeros((5, 3), np.float32)
    total = np.float32(0)
    for i in range(5):
        for j in range(3):
            s = np.float32(0)
            for k in range(7):
                s = np.float32(s + np.float32(a[i, k] * b[k, j]))
            expected[i, j] = s
            total = np.float32(total + s)
    module = parse_program(MATMUL)
    outputs = []
    for engine in ENGINES:
        c = np.zeros((5, 3), np.float32)
        (result,) = run(module, "main", (a, b, c), engine=engine)
        outputs.append((bits(result), bits(c)))
        assert result == float(total)
        np.testing.assert_array_equal(c, expected)
    assert outputs[0] == outputs[1]


CONV = """
func.func @main(%x: memref<1x3x6x6xi8, #layout.tag<"NCHW->nChw2c">>, %w: memref<4x3x3x3xi8>, %y: memref<1x4x4x4xi32>) {
  affine.for %o = 0 to 4 {
    affine.for %h = 0 to 4 {
      affine.for %q = 0 to 4 {
        %z = arith.constant 0 : i32
        %sum = affine.for %c = 0 to 3 iter_args(%s0 = %z) -> (i32) {
          %s1 = affine.for %kh = 0 to 3 iter_args(%s2 = %s0) -> (i32) {
            %s3 = affine.for %kw = 0 to 3 iter_args(%s4 = %s2) -> (i32) {
              %xv = affine.load %x[0, %c, %h + %kh, %q + %kw] : memref<1x3x6x6xi8, #layout.tag<"NCHW->nChw2c">>
              %wv = affine.load %w[%o, %c, %kh, %kw] : memref<4x3x3x3xi8>
              %xe = arith.extsi %xv : i8 to i32
              %we = arith.extsi %wv : i8 to i32
              %p = arith.muli %xe, %we : i32
              %n = arith.addi %s4, %p : i32
              affine.yield %n : i32
            }
            affine.yield %s3 : i32
          }
          affine.yield %s1 : i32
        }
        affine.store %sum, %y[0, %o, %h, %q] : memref<1x4x4x4xi32>
      }
    }
  }
  func.return
}"""


def test_conv_on_a_blocked_layout_matches_numpy() -> None:
    rng = np.random.default_rng(11)
    x = rng.integers(-128, 128, (1, 3, 6, 6)).astype(np.int8)
    w = rng.integers(-128, 128, (4, 3, 3, 3)).astype(np.int8)
    windows = np.lib.stride_tricks.sliding_window_view(x[0].astype(np.int64), (3, 3), axis=(1, 2))
    expected = np.einsum("chwij,ocij->ohw", windows, w.astype(np.int64))[None].astype(np.int32)
    module = parse_program(CONV)
    outputs = []
    for engine in ENGINES:
        y = np.zeros((1, 4, 4, 4), np.int32)
        run(module, "main", (x, w, y), engine=engine)
        np.testing.assert_array_equal(y, expected)
        outputs.append(bits(y))
    assert outputs[0] == outputs[1]


# ---- the engines cover the same ops, and fail the same way ------------------------------------
def test_both_engines_implement_every_supported_op() -> None:
    module = parse_program("func.func @main() { func.return }")
    interpreted = {
        op_type.name
        for functions in all_functions(module)
        for op_type, _ in type(functions)._impls()
    } | {"layout.assign", "layout.convert", "layout.schedule", "vector.from_elements"}
    # Bound per module, to the classes it uses (`functions.named_functions`,
    # `linalg.structured_functions`).
    interpreted |= {
        "linalg.yield",
        "linalg.index",
        "memref.transpose",
        "vector.type_cast",
        "affine.delinearize_index",
        "affine.linearize_index",
        "memref.prefetch",
        "affine.prefetch",
    }
    compiled = set(EMITTERS) | set(VALUE_OPS) | TERMINATORS
    assert interpreted >= SUPPORTED_OPS
    assert compiled == SUPPORTED_OPS


def test_compiled_engine_compiles_each_function_once() -> None:
    module = parse_program(MATMUL)
    engine = engine_for(module, "compiled")
    assert isinstance(engine, CompiledEngine)
    args = [np.ones((5, 7), np.float32), np.ones((7, 3), np.float32), np.zeros((5, 3), np.float32)]
    run(module, "main", args, engine="compiled")
    first = engine._functions["main"]
    assert run(module, "main", args, engine="compiled") == (105.0,)
    assert engine._functions["main"] is first
    # Plain memref accesses are inline numpy accesses, loops are Python loops: no dispatch.
    assert "for i" in engine.source and ".item(" in engine.source and "_load(" not in engine.source


def test_unsupported_op_is_reported_before_running() -> None:
    text = """
func.func @main(%m: memref<2xi32>) {
  %c0 = arith.constant 0 : index
  %v = arith.constant 5 : i32
  memref.store %v, %m[%c0] : memref<2xi32>
  %r:2 = arith.addui_extended %v, %v : i32, i1
  func.return
}"""
    module = parse_program(text, "k.mlir")
    for engine in ENGINES:
        m = np.zeros(2, np.int32)
        with pytest.raises(
            ExecutionError, match=r"^unsupported op 'arith.addui_extended' at k.mlir:6:3$"
        ):
            run(module, "main", (m,), engine=engine)
        assert m[0] == 0  # nothing ran


# ---- check: right lowerings are equal, wrong ones are caught ----------------------------------
# Generic affine.load/store with dim maps: xDSL's lower-affine fails (IndexError) on the
# symbol maps its own parser makes of `affine.load %a[%i, %j]`.
TRANSPOSE = """
func.func @main(%a: memref<3x5xi32>, %b: memref<5x3xi32>) -> i32 {
  %z = arith.constant 0 : i32
  %s = affine.for %i = 0 to 3 iter_args(%acc = %z) -> (i32) {
    %t = affine.for %j = 0 to 5 iter_args(%acc2 = %acc) -> (i32) {
      %v = "affine.load"(%a, %i, %j) <{map = affine_map<(d0, d1) -> (d0, d1)>}> : (memref<3x5xi32>, index, index) -> i32
      "affine.store"(%v, %b, %j, %i) <{map = affine_map<(d0, d1) -> (d0, d1)>}> : (i32, memref<5x3xi32>, index, index) -> ()
      %n = arith.addi %acc2, %v : i32
      affine.yield %n : i32
    }
    affine.yield %t : i32
  }
  func.return %s : i32
}"""


@pytest.mark.parametrize("engine", CHECK_ENGINES)
def test_check_accepts_a_correct_lowering(engine: str) -> None:
    report = check(TRANSPOSE, "lower-affine,canonicalize", seed=3, engine=engine)
    assert report.equal and bool(report)
    assert report.compared == 1 + 15 + 15  # the result and both memref arguments
    assert str(report) == "OK: 31 elements compared"


def test_check_catches_swapped_indices_in_logical_coordinates() -> None:
    # The lowered program writes b[i, j] = a[i, j] for i < 3, j < 3 only (5x3 b, indices
    # swapped: out-of-bounds stores cannot happen for j < 3), so b differs first where the
    # true transpose and the swapped store disagree. Square transposes would hide the bug;
    # use a 3x3 block of a 3x5 input and compute the expectation with numpy.
    text = TRANSPOSE.replace("affine.for %j = 0 to 5", "affine.for %j = 0 to 3")
    reports = {
        engine: check(text, ["lower-affine", SwapStoreIndices()], seed=5, engine=engine)
        for engine in ENGINES
    }
    assert str(reports["interp"]) == str(reports["compiled"])
    report = reports["compiled"]
    assert not report.equal
    (a, b) = random_arguments(find_function(parse_program(text), "main"), 5)
    right, wrong = b.copy(), b.copy()
    right[:3, :3] = a[:3, :3].T
    wrong[:3, :3] = a[:3, :3]
    first = tuple(int(i) for i in np.argwhere(right != wrong)[0])
    assert report.mismatch is not None
    assert report.mismatch.what == "argument 1 (memref<5x3xi32>)"
    assert report.mismatch.index == first
    assert (report.mismatch.expected, report.mismatch.actual) == (right[first], wrong[first])
    assert str(report).startswith(
        f"MISMATCH in argument 1 (memref<5x3xi32>) at [{first[0]}, {first[1]}]: unlowered "
    )


# A layout-typed program and two hand-lowerings of it: NHW(C6) bits packed into i6 words.
PACKED_SOURCE = """
func.func @main(%x: memref<1x2x2x12xi1, #layout.tag<"NHWC->NHWC6c", pack = i6>>, %y: memref<1x2x2x12xi1>) {
  affine.for %h = 0 to 2 {
    affine.for %w = 0 to 2 {
      affine.for %c = 0 to 12 {
        %v = affine.load %x[0, %h, %w, %c] : memref<1x2x2x12xi1, #layout.tag<"NHWC->NHWC6c", pack = i6>>
        %one = arith.constant 1 : i1
        %n = arith.xori %v, %one : i1
        affine.store %n, %y[0, %h, %w, %c] : memref<1x2x2x12xi1>
        %c3 = arith.constant 3 : index
        %r = arith.remui %c, %c3 : index
        %z = arith.constant 0 : index
        %is = arith.cmpi eq, %r, %z : index
        scf.if %is {
          affine.store %n, %x[0, %h, %w, %c] : memref<1x2x2x12xi1, #layout.tag<"NHWC->NHWC6c", pack = i6>>
        }
      }
    }
  }
  func.return
}"""

PACKED_LOWERED = """
func.func @main(%x: memref<1x2x2x2xi6>, %y: memref<1x2x2x12xi1>) {
  affine.for %h = 0 to 2 {
    affine.for %w = 0 to 2 {
      affine.for %c = 0 to 12 {
        %word = affine.load %x[0, %h, %w, %c floordiv 6] : memref<1x2x2x2xi6>
        %lane = affine.apply affine_map<(d0) -> (SHIFT)>(%c)
        %shift = arith.index_cast %lane : index to i6
        %moved = arith.shrui %word, %shift : i6
        %v = arith.trunci %moved : i6 to i1
        %one = arith.constant 1 : i1
        %n = arith.xori %v, %one : i1
        affine.store %n, %y[0, %h, %w, %c] : memref<1x2x2x12xi1>
        %c3 = arith.constant 3 : index
        %r = arith.remui %c, %c3 : index
        %z = arith.constant 0 : index
        %is = arith.cmpi eq, %r, %z : index
        scf.if %is {
          %bit = arith.constant 1 : i6
          %mask = arith.shli %bit, %shift : i6
          %flipped = arith.xori %word, %mask : i6
          affine.store %flipped, %x[0, %h, %w, %c floordiv 6] : memref<1x2x2x2xi6>
        }
      }
    }
  }
  func.return
}"""


@pytest.mark.parametrize("engine", CHECK_ENGINES)
def test_compare_programs_with_a_correct_packed_lowering(engine: str) -> None:
    source = parse_program(PACKED_SOURCE)
    lowered = parse_program(PACKED_LOWERED.replace("SHIFT", "d0 mod 6"))
    report = compare_programs(source, lowered, seed=1, engine=engine)
    assert report.equal, str(report)
    assert report.compared == 48 + 48


def test_compare_programs_catches_a_bit_order_slip() -> None:
    source = parse_program(PACKED_SOURCE)
    lowered = parse_program(PACKED_LOWERED.replace("SHIFT", "5 - d0 mod 6"))  # MSB-first lanes
    report = compare_programs(source, lowered, seed=1)
    # What each program leaves behind, by numpy: the slip reads and flips lane 5 - c mod 6
    # where the source reads and flips lane c mod 6.
    (x, _) = random_arguments(find_function(source, "main"), 1)
    lanes = np.arange(12)
    mirror = (lanes // 6) * 6 + 5 - lanes % 6
    flipped = lanes % 3 == 0
    x_right, x_wrong = x.copy(), x.copy()
    x_right[..., flipped] ^= 1
    x_wrong[..., mirror[flipped]] ^= 1
    y_right, y_wrong = 1 - x, 1 - x[..., mirror]
    if (x_right != x_wrong).any():
        what, right, wrong = "argument 0", x_right, x_wrong
    else:
        what, right, wrong = "argument 1", y_right, y_wrong
    first = tuple(int(i) for i in np.argwhere(right != wrong)[0])
    assert report.mismatch is not None
    assert report.mismatch.what.startswith(what)
    assert report.mismatch.index == first
    assert (report.mismatch.expected, report.mismatch.actual) == (right[first], wrong[first])


VECTOR_LOWERED = """
func.func @main(%x: memref<1x2x2x2xvector<6xi1>>, %y: memref<1x2x2x12xi1>) {
  affine.for %h = 0 to 2 {
    affine.for %w = 0 to 2 {
      affine.for %c = 0 to 12 {
        %block = affine.apply affine_map<(d0) -> (d0 floordiv 6)>(%c)
        %lane = affine.apply affine_map<(d0) -> (d0 mod 6)>(%c)
        %c0 = arith.constant 0 : index
        %vec = memref.load %x[%c0, %h, %w, %block] : memref<1x2x2x2xvector<6xi1>>
        %v = vector.extract %vec[%lane] : i1 from vector<6xi1>
        %one = arith.constant 1 : i1
        %n = arith.xori %v, %one : i1
        affine.store %n, %y[0, %h, %w, %c] : memref<1x2x2x12xi1>
        %c3 = arith.constant 3 : index
        %r = arith.remui %c, %c3 : index
        %z = arith.constant 0 : index
        %is = arith.cmpi eq, %r, %z : index
        scf.if %is {
          %new = vector.insert %n, %vec[%lane] : i1 into vector<6xi1>
          memref.store %new, %x[%c0, %h, %w, %block] : memref<1x2x2x2xvector<6xi1>>
        }
      }
    }
  }
  func.return
}"""


@pytest.mark.parametrize("engine", CHECK_ENGINES)
def test_compare_programs_with_a_vector_container_lowering(engine: str) -> None:
    source = parse_program(PACKED_SOURCE.replace("pack = i6", "pack = vector<6xi1>"))
    report = compare_programs(source, parse_program(VECTOR_LOWERED), seed=2, engine=engine)
    assert report.equal, str(report)
    assert report.compared == 96


def test_check_reports_an_unknown_pass() -> None:
    with pytest.raises(PipelineError, match="pipeline 'no-such-pass'"):
        check(TRANSPOSE, "no-such-pass")


@dataclass(frozen=True)
class CrashingPass(ModulePass):
    """A pass with a bug (xDSL's lower-affine crashed this way on symbol-only access maps,
    which heterolayout's parser no longer produces)."""

    name = "crashing-pass"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise IndexError("list index out of range")


def test_a_crashing_pass_is_a_one_line_error() -> None:
    with pytest.raises(
        PipelineError,
        match=r"^pipeline 'crashing-pass' failed: IndexError: list index out of range$",
    ):
        check(TRANSPOSE, [CrashingPass()])


# ---- layout-lower: the real lowering, and the same lowering with a planted bug ---------------
PACKED_ARGUMENT = """
func.func @main(%x: memref<1x12x2x2xi1, #layout.tag<"NCHW->nChw6c", PACK>>, %y: memref<1x12x2x2xi1>) -> i1 {
  %one = arith.constant 1 : i1
  affine.for %c = 0 to 12 {
    affine.for %h = 0 to 2 {
      affine.for %w = 0 to 2 {
        %v = affine.load %x[0, %c, %h, %w] : memref<1x12x2x2xi1, #layout.tag<"NCHW->nChw6c", PACK>>
        %n = arith.xori %v, %one : i1
        affine.store %n, %y[0, %c, %h, %w] : memref<1x12x2x2xi1>
        affine.store %n, %x[0, %c, %h, %w] : memref<1x12x2x2xi1, #layout.tag<"NCHW->nChw6c", PACK>>
      }
    }
  }
  %c7 = arith.constant 7 : index
  %c0 = arith.constant 0 : index
  %r = memref.load %x[%c0, %c7, %c0, %c0] : memref<1x12x2x2xi1, #layout.tag<"NCHW->nChw6c", PACK>>
  func.return %r : i1
}"""


@pytest.mark.parametrize(
    "pack", ["pack = i6", "pack = vector<6xi1>", 'pack = i8, bit_order = "msb"']
)
@pytest.mark.parametrize("engine", CHECK_ENGINES)
def test_check_layout_lower_on_packed_arguments(pack: str, engine: str) -> None:
    report = check(PACKED_ARGUMENT.replace("PACK", pack), "layout-lower", seed=9, engine=engine)
    assert str(report) == "OK: 97 elements compared"  # the result, x and y (48 each)


BLOCKED = """
func.func @main(%x: memref<1x10x3x3xf32>, %y: memref<1x10x3x3xf32>) {
  layout.assign %x to #layout.tag<"NCHW->nChw8c"> : memref<1x10x3x3xf32>
  %two = arith.constant 2.0 : f32
  affine.for %c = 0 to 10 {
    affine.for %h = 0 to 3 {
      affine.for %w = 0 to 3 {
        %v = affine.load %x[0, %c, %h, %w] : memref<1x10x3x3xf32>
        %d = arith.mulf %v, %two : f32
        affine.store %d, %y[0, %c, %h, %w] : memref<1x10x3x3xf32>
      }
    }
  }
  func.return
}"""


@dataclass(frozen=True)
class SwapLoweredLoadIndices(ModulePass):
    """A planted bug in a lowering's output: swaps indices 2 and 3 (h and w) of the first
    memref.load from a 5-D (blocked, physical) buffer."""

    name = "test-swap-lowered-load-indices"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for load in op.walk():
            if isinstance(load, memref.LoadOp) and len(load.indices) == 5:
                operands = list(load.operands)
                operands[3], operands[4] = operands[4], operands[3]
                load.operands = operands
                return
        raise AssertionError("no 5-D load to break")


@pytest.mark.parametrize("engine", CHECK_ENGINES)
def test_check_catches_a_broken_layout_lower(engine: str) -> None:
    assert check(BLOCKED, "layout-lower", seed=2, engine=engine).equal
    report = check(BLOCKED, ["layout-lower", SwapLoweredLoadIndices()], seed=2, engine=engine)
    # The broken program reads x[n, c, w, h]: y differs from 2x where x is not symmetric in
    # (h, w); x itself is unchanged by both programs.
    (x, _) = random_arguments(find_function(parse_program(BLOCKED), "main"), 2)
    right = x * np.float32(2)
    wrong = x.transpose(0, 1, 3, 2) * np.float32(2)
    first = tuple(int(i) for i in np.argwhere(right != wrong)[0])
    assert report.mismatch is not None
    assert report.mismatch.what == "argument 1 (memref<1x10x3x3xf32>)"
    assert report.mismatch.index == first
    assert (report.mismatch.expected, report.mismatch.actual) == (
        float(right[first]),
        float(wrong[first]),
    )
    assert report.compared == 90 + 90  # x, then y (values are compared whole)


def test_running_a_module_does_not_keep_it_alive() -> None:
    """The engines made for a module live as long as the module: a module that was run, in
    both engines, is freed once nothing else holds it."""
    text = "func.func @main(%x: index) -> index {\n  func.return %x : index\n}\n"
    held = []
    for _ in range(5):
        module = load_module(text)
        assert run(module, args=[3]) == (3,)
        assert run(module, args=[4], engine="interp") == (4,)
        held.append(weakref.ref(module))
    del module
    gc.collect()
    assert [ref() for ref in held] == [None] * 5


FLOOR_MOD_OF_A_DIFFERENCE = """
func.func @main(%i: index) -> f32 {
  %m = memref.alloc() : memref<12xf32, #layout.tag<"C->C4c">>
  %c3 = arith.constant 3 : index
  %j = arith.subi %i, %c3 : index
  %v = arith.constant 2.5 : f32
  memref.store %v, %m[%j] : memref<12xf32, #layout.tag<"C->C4c">>
  %r = memref.load %m[%j] : memref<12xf32, #layout.tag<"C->C4c">>
  memref.dealloc %m : memref<12xf32, #layout.tag<"C->C4c">>
  func.return %r : f32
}
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_module_lowered_in_memory_runs_its_xdsl_op_classes(engine: str) -> None:
    """`layout-lower` builds ops with xDSL's classes (`arith.select` for the floor modulo of
    an index that may be negative), where parsed text gets heterolayout's upstream-syntax
    classes of the same names: both engines run either (found by the fuzzer, seed 0)."""
    lowered = apply_pipeline(parse_program(FLOOR_MOD_OF_A_DIFFERENCE), "layout-lower")
    assert any(op.name == "arith.select" for op in lowered.walk())
    assert run(lowered, args=(7,), engine=engine) == (2.5,)


# ---- byte views of sub-byte elements (`passes.packed.sub_byte_accesses`) ------------------------------
BYTE_VIEWS = """func.func @main(%m: memref<2x4xi2>, %w: memref<2xvector<3xi2>>, %v: i8) -> (vector<4xi8>, i8) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = builtin.unrealized_conversion_cast %m : memref<2x4xi2> to memref<2x4xi8>
  %x = vector.load %b[%c1, %c0] : memref<2x4xi8>, vector<4xi8>
  memref.store %v, %b[%c0, %c1] : memref<2x4xi8>
  %bw = builtin.unrealized_conversion_cast %w : memref<2xvector<3xi2>> to memref<2xi8>
  %y = memref.load %bw[%c0] : memref<2xi8>
  memref.store %v, %bw[%c1] : memref<2xi8>
  func.return %x, %y : vector<4xi8>, i8
}"""


@pytest.mark.parametrize("engine", CHECK_ENGINES)
def test_a_byte_view_reads_and_writes_the_bytes_llvm_keeps(engine: str) -> None:
    """An i2 is its 2 bits, zero above; a vector<3xi2> its lanes packed LSB-first (as LLVM
    lays them out; the native engine compiles the casts as upstream does)."""
    m = np.array([[0, 1, -2, -1], [-1, -2, 1, 0]], np.int8)
    w = np.array([[1, -1, 0], [1, 1, 1]], np.int8)
    x, y = run(BYTE_VIEWS, "main", [m, w, 2], engine=engine)
    assert x.tolist() == [3, 2, 1, 0] and y == 1 + (3 << 2)
    assert m.tolist() == [[0, -2, -2, -1], [-1, -2, 1, 0]]
    assert w.tolist() == [[1, -1, 0], [-2, 0, 0]]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("", r"stores 4 through the i8 view of memref<2x4xi2>: bits above the 2 of an element"),
        (
            "memref<2x4xi2> to memref<2x4xi8>",
            r"builtin.unrealized_conversion_cast of memref<2x4xi2> to memref<2x4xi16>: the "
            r"engines run it only as the byte view",
        ),
        (
            "memref.store %v, %b[%c0, %c1] : memref<2x4xi8>",
            r"memref.copy takes the byte view memref<2x4xi8> of memref<2x4xi2> \(.*\); the "
            r"engines read and write such a view with loads and stores only",
        ),
    ],
)
def test_what_is_no_byte_view_is_refused(change: str, message: str, engine: str) -> None:
    text = BYTE_VIEWS
    if change.startswith("memref<"):
        text = (
            text.replace(change, "memref<2x4xi2> to memref<2x4xi16>")
            .replace(
                "%x = vector.load %b[%c1, %c0] : memref<2x4xi8>, vector<4xi8>",
                "%x = arith.constant dense<0> : vector<4xi8>",
            )
            .replace("memref.store %v, %b[%c0, %c1] : memref<2x4xi8>\n", "")
        )
    elif change:
        text = text.replace(change, "memref.copy %b, %b : memref<2x4xi8> to memref<2x4xi8>")
    m = np.zeros((2, 4), np.int8)
    w = np.zeros((2, 3), np.int8)
    with pytest.raises(ExecutionError, match=message):
        run(text, "main", [m, w, 4], engine=engine)


ZERO_D_GLOBAL = """memref.global "private" constant @g : memref<i32> = dense<7>
func.func @main() {
  %g = memref.get_global @g : memref<i32>
  %a = memref.alloc() : memref<i32>
  memref.copy %g, %a : memref<i32> to memref<i32>
  %v = memref.load %a[] : memref<i32>
  vector.print %v : i32
  return
}
"""


@pytest.mark.parametrize("engine", ["interp", "compiled"])
def test_a_0_d_global_is_a_0_d_buffer(engine: str) -> None:
    """Its initializer was made 1-d (numpy's `ascontiguousarray`), so a copy to a 0-d
    allocation was refused as a shape mismatch; upstream prints 7."""
    assert run(ZERO_D_GLOBAL, engine=engine, capture=True).output == "7\n"
