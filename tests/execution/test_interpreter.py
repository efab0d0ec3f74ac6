"""Semantics of the execution engines: every test runs the interpreter and the compiled
engine on the same program, requires identical results, and checks them against numpy (or
a hand-computed number)."""

from __future__ import annotations

import math
import struct
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from heterolayout import parse_layout, run
from heterolayout.dialects.context import parse_program
from heterolayout.execution import ExecutionError, LayoutMemRef
from heterolayout.layout.element_types import element_type

ENGINES = ("interp", "compiled")


def bits(value: Any) -> Any:
    """Floats by their bits, so that results must be bit-identical."""
    if isinstance(value, float):
        return ("float", struct.pack("<d", value))
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    return (type(value).__name__, value)


def run_both(text: str, args: tuple = (), entry: str = "main") -> tuple:
    """Run `entry` on both engines (fresh copies of array arguments); require identical
    results and identical argument contents afterwards; return them."""
    module = parse_program(text)
    outcomes = []
    for engine in ENGINES:
        copies = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
        results = run(module, entry, copies, engine=engine)
        outcomes.append((results, copies))
    (first, first_args), (second, second_args) = outcomes
    assert [bits(r) for r in first] == [bits(r) for r in second]
    assert [bits(a) for a in first_args] == [bits(a) for a in second_args]
    return first + tuple(a for a in first_args if isinstance(a, np.ndarray))


def error_of_both(text: str, args: tuple = (), entry: str = "main") -> str:
    """The error message, required to be the same on both engines."""
    module = parse_program(text, "prog.mlir")
    messages = []
    for engine in ENGINES:
        copies = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
        with pytest.raises(ExecutionError) as caught:
            run(module, entry, copies, engine=engine)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert "\n" not in messages[0]
    return messages[0]


def binary(op: str, type_: str, attrs: str = "") -> str:
    return f"""
func.func @main(%a: {type_}, %b: {type_}) -> {type_} {{
  %r = {op} %a, %b{attrs} : {type_}
  func.return %r : {type_}
}}"""


# ---- floats round to their own width ---------------------------------------------------------
def test_f32_is_not_computed_in_double() -> None:
    text = """
func.func @main() -> (f32, f64) {
  %big = arith.constant 16777216.0 : f32
  %one = arith.constant 1.0 : f32
  %s = arith.addf %big, %one : f32
  %d = arith.subf %s, %big : f32
  %bigd = arith.constant 16777216.0 : f64
  %oned = arith.constant 1.0 : f64
  %sd = arith.addf %bigd, %oned : f64
  %dd = arith.subf %sd, %bigd : f64
  func.return %d, %dd : f32, f64
}"""
    assert run_both(text) == (0.0, 1.0)


def test_f32_constant_is_rounded() -> None:
    text = """
func.func @main() -> f32 {
  %c = arith.constant 0.1 : f32
  func.return %c : f32
}"""
    (value,) = run_both(text)
    assert value == float(np.float32(0.1)) != 0.1


@pytest.mark.parametrize(
    ("op", "reference"),
    [
        ("arith.addf", np.add),
        ("arith.subf", np.subtract),
        ("arith.mulf", np.multiply),
        ("arith.divf", np.divide),
        ("arith.minnumf", np.fmin),
        ("arith.maxnumf", np.fmax),
    ],
)
@pytest.mark.parametrize("ftype", ["f16", "f32", "f64"])
def test_float_ops_match_numpy(op: str, reference: Any, ftype: str) -> None:
    dtype = element_type(ftype).numpy_dtype
    rng = np.random.default_rng(1)
    pairs = [(float(dtype.type(x)), float(dtype.type(y))) for x, y in rng.normal(0, 100, (8, 2))]
    pairs += [
        (1.0, 0.0),
        (-1.0, 0.0),
        (0.0, 0.0),
        (math.inf, 2.0),
        (math.nan, 1.0),
        (3.0, math.nan),
    ]
    module = parse_program(binary(op, ftype))
    for a, b in pairs:
        with np.errstate(all="ignore"):
            expected = float(reference(dtype.type(a), dtype.type(b)))
        for engine in ENGINES:
            (got,) = run(module, "main", (a, b), engine=engine)
            assert bits(got) == bits(expected) or (math.isnan(got) and math.isnan(expected)), (
                op,
                a,
                b,
            )


def test_f16_overflow_rounds_to_infinity() -> None:
    text = """
func.func @main() -> (f16, f16) {
  %a = arith.constant 60000.0 : f16
  %s = arith.addf %a, %a : f16
  %m = arith.constant 65504.0 : f16
  %t = arith.constant 8.0 : f16
  %u = arith.addf %m, %t : f16
  func.return %s, %u : f16, f16
}"""
    assert run_both(text) == (math.inf, 65504.0)


def test_cmpf_predicates_with_nan() -> None:
    predicates = [
        "oeq",
        "ogt",
        "oge",
        "olt",
        "ole",
        "one",
        "ord",
        "ueq",
        "ugt",
        "uge",
        "ult",
        "ule",
        "une",
        "uno",
    ]
    body = "\n".join(f"  %r{i} = arith.cmpf {p}, %a, %b : f32" for i, p in enumerate(predicates))
    results = ", ".join(f"%r{i}" for i in range(len(predicates)))
    types = ", ".join(["i1"] * len(predicates))
    text = f"""
func.func @main(%a: f32, %b: f32) -> ({types}) {{
{body}
  func.return {results} : {types}
}}"""
    module = parse_program(text)
    for a, b in [(1.0, 2.0), (2.0, 2.0), (3.0, 2.0), (math.nan, 2.0), (1.0, math.nan)]:
        unordered = math.isnan(a) or math.isnan(b)
        expected = (
            a == b, a > b, a >= b, a < b, a <= b, (a != b) and not unordered, not unordered,
            a == b or unordered, a > b or unordered, a >= b or unordered, a < b or unordered,
            a <= b or unordered, a != b, unordered,
        )  # fmt: skip
        for engine in ENGINES:
            assert run(module, "main", (a, b), engine=engine) == tuple(int(e) for e in expected)


# ---- integers wrap at their width ------------------------------------------------------------
def test_i8_wraps() -> None:
    (value,) = run_both(binary("arith.addi", "i8"), (127, 1))
    assert value == -128


def wrap_reference(value: int, width: int) -> int:
    """Two's complement by sign bit (i1 stays 0/1)."""
    low = value % (1 << width)
    if width > 1 and low >= 1 << (width - 1):
        return low - (1 << width)
    return low


def trunc_quotient(a: int, b: int) -> int:
    return math.trunc(Fraction(a, b))


INT_OPS: dict[str, Any] = {
    "arith.addi": lambda a, b, n: a + b,
    "arith.subi": lambda a, b, n: a - b,
    "arith.muli": lambda a, b, n: a * b,
    "arith.divsi": lambda a, b, n: trunc_quotient(a, b),
    "arith.remsi": lambda a, b, n: a - b * trunc_quotient(a, b),
    "arith.divui": lambda a, b, n: (a % 2**n) // (b % 2**n),
    "arith.remui": lambda a, b, n: (a % 2**n) % (b % 2**n),
    "arith.floordivsi": lambda a, b, n: math.floor(Fraction(a, b)),
    "arith.ceildivsi": lambda a, b, n: math.ceil(Fraction(a, b)),
    "arith.ceildivui": lambda a, b, n: math.ceil(Fraction(a % 2**n, b % 2**n)),
    "arith.andi": lambda a, b, n: a & b,
    "arith.ori": lambda a, b, n: a | b,
    "arith.xori": lambda a, b, n: a ^ b,
    "arith.shli": lambda a, b, n: a * 2 ** (b % 2**n) if b % 2**n < n else 0,
    "arith.shrui": lambda a, b, n: (a % 2**n) // 2 ** min(b % 2**n, n),
    "arith.shrsi": lambda a, b, n: math.floor(Fraction(a, 2 ** min(b % 2**n, n))),
    "arith.maxsi": lambda a, b, n: max(a, b),
    "arith.minsi": lambda a, b, n: min(a, b),
    "arith.maxui": lambda a, b, n: a if a % 2**n >= b % 2**n else b,
    "arith.minui": lambda a, b, n: a if a % 2**n <= b % 2**n else b,
}


def signed_value(raw: int, width: int) -> int:
    """The signed reading of an engine value (i1 holds 1 for -1)."""
    return -raw if width == 1 else raw


@pytest.mark.parametrize("op", sorted(INT_OPS))
@pytest.mark.parametrize("width", [1, 4, 6, 8, 32, 64])
def test_integer_ops_against_reference(op: str, width: int) -> None:
    module = parse_program(binary(op, f"i{width}"))
    rng = np.random.default_rng(width)
    low, high = -(2 ** (width - 1)), 2 ** (width - 1)
    samples = [(int(a), int(b)) for a, b in rng.integers(low, high, (6, 2), dtype=np.int64)]
    samples += [(low, -1), (high - 1, 1), (0, 1), (-1, 1), (5 % high, 2 % high)]
    for a_signed, b_signed in samples:
        a_raw, b_raw = wrap_reference(a_signed, width), wrap_reference(b_signed, width)
        a, b = signed_value(a_raw, width), signed_value(b_raw, width)
        if "div" in op or "rem" in op:
            if b == 0:
                continue
            if op.endswith("ui") and b_raw == 0:
                continue
        reference = INT_OPS[op]
        expected = wrap_reference(reference(a, b, width), width)
        for engine in ENGINES:
            (got,) = run(module, "main", (a_raw, b_raw), engine=engine)
            assert got == expected, (op, width, a, b, engine)


def test_i4_and_i6_arithmetic() -> None:
    text = """
func.func @main(%a: i4, %b: i6) -> (i4, i4, i6, i6, i1) {
  %c7 = arith.constant 7 : i4
  %s = arith.addi %a, %c7 : i4
  %m = arith.muli %a, %a : i4
  %c31 = arith.constant 31 : i6
  %t = arith.addi %b, %c31 : i6
  %n = arith.subi %b, %c31 : i6
  %lt = arith.cmpi ult, %s, %a : i4
  func.return %s, %m, %t, %n, %lt : i4, i4, i6, i6, i1
}"""
    # 5 + 7 = 12 -> -4 (i4); 5 * 5 = 25 -> 9 -> -7; 20 + 31 = 51 -> -13; 20 - 31 = -11;
    # -4 read unsigned is 12, not below 5.
    assert run_both(text, (5, 20)) == (-4, -7, -13, -11, 0)


@pytest.mark.parametrize(
    ("predicate", "expected"),
    [
        ("eq", 0),
        ("ne", 1),
        ("slt", 1),
        ("sle", 1),
        ("sgt", 0),
        ("sge", 0),
        ("ult", 0),
        ("ule", 0),
        ("ugt", 1),
        ("uge", 1),
    ],
)
def test_cmpi_signed_and_unsigned(predicate: str, expected: int) -> None:
    # -1 versus 1 in i8: signed -1 < 1, unsigned 255 > 1.
    text = f"""
func.func @main(%a: i8, %b: i8) -> i1 {{
  %r = arith.cmpi {predicate}, %a, %b : i8
  func.return %r : i1
}}"""
    assert run_both(text, (-1, 1)) == (expected,)


def test_casts() -> None:
    text = """
func.func @main(%x: i16, %f: f32, %big: i64) -> (i8, i32, i32, index, i16, f32, i32, f32, f64, f16, i32, f32, i8) {
  %t = arith.trunci %x : i16 to i8
  %es = arith.extsi %x : i16 to i32
  %eu = arith.extui %x : i16 to i32
  %ix = arith.index_cast %x : i16 to index
  %back = arith.index_cast %ix : index to i16
  %sf = arith.sitofp %x : i16 to f32
  %fi = arith.fptosi %f : f32 to i32
  %uf = arith.uitofp %x : i16 to f32
  %ext = arith.extf %f : f32 to f64
  %tr = arith.truncf %f : f32 to f16
  %bc = arith.bitcast %f : f32 to i32
  %lf = arith.sitofp %big : i64 to f32
  %sat = arith.fptosi %sf : f32 to i8
  func.return %t, %es, %eu, %ix, %back, %sf, %fi, %uf, %ext, %tr, %bc, %lf, %sat : i8, i32, i32, index, i16, f32, i32, f32, f64, f16, i32, f32, i8
}"""
    f = float(np.float32(-2.75))
    big = 2**62 + 2**38 + 1  # not representable in double: no double rounding allowed
    result = run_both(text, (-300, f, big))
    expected = (
        int(np.array([-300], np.int16).astype(np.int8)[0]),  # low byte of 0xFED4 = 0xD4 = -44
        -300,
        65536 - 300,
        -300,
        -300,
        -300.0,
        -2,
        float(np.float32(65236.0)),
        f,
        float(np.float16(f)),
        int(np.array([f], np.float32).view(np.int32)[0]),
        float(np.float32(np.int64(big))),
        -128,  # -300 saturates at the i8 minimum (MLIR: poison)
    )
    assert result == expected


def test_select_and_min_max() -> None:
    text = """
func.func @main(%c: i1, %a: i8, %b: i8) -> (i8, i8, i8) {
  %s = arith.select %c, %a, %b : i8
  %mx = arith.maxui %a, %b : i8
  %mn = arith.minsi %a, %b : i8
  func.return %s, %mx, %mn : i8, i8, i8
}"""
    assert run_both(text, (1, -3, 4)) == (-3, -3, -3)
    assert run_both(text, (0, -3, 4)) == (4, -3, -3)


# ---- vectors -----------------------------------------------------------------------------------
def test_vector_ops_on_memref_of_vector_i1() -> None:
    text = """
func.func @main(%m: memref<4xvector<6xi1>>, %x: i1) -> (vector<6xi1>, i1, vector<2x3xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = memref.load %m[%c1] : memref<4xvector<6xi1>>
  %e = vector.extract %v[%c2] : i1 from vector<6xi1>
  %w = vector.insert %x, %v[5] : i1 into vector<6xi1>
  %n = arith.xori %w, %v : vector<6xi1>
  memref.store %n, %m[%c2] : memref<4xvector<6xi1>>
  %b = vector.broadcast %x : i1 to vector<6xi1>
  memref.store %b, %m[%c1] : memref<4xvector<6xi1>>
  %f = arith.constant 1.5 : f32
  %g = arith.constant -2.0 : f32
  %fv = "vector.from_elements"(%f, %g, %f, %g, %f, %g) : (f32, f32, f32, f32, f32, f32) -> vector<2x3xf32>
  func.return %w, %e, %fv : vector<6xi1>, i1, vector<2x3xf32>
}"""
    memref = np.zeros((4, 6), np.uint8)
    memref[1] = [1, 0, 1, 1, 0, 0]
    module_text = text
    w, e, fv, after = run_both_unregistered(module_text, (memref, 1))
    assert w.tolist() == [1, 0, 1, 1, 0, 1]
    assert e == 1
    assert fv.dtype == np.float32 and fv.tolist() == [[1.5, -2.0, 1.5], [-2.0, 1.5, -2.0]]
    expected = memref.copy()
    expected[2] = [0, 0, 0, 0, 0, 1]
    expected[1] = 1
    np.testing.assert_array_equal(after, expected)


def run_both_unregistered(text: str, args: tuple) -> tuple:
    """`run_both` for a program parsed by a context that knows only xDSL's own dialects, so
    that vector.from_elements (which xDSL 0.74 lacks) is an unregistered op."""
    from xdsl.context import Context
    from xdsl.dialects import arith, func, memref, vector

    ctx = Context(allow_unregistered=True)
    for dialect in (arith.Arith, func.Func, memref.MemRef, vector.Vector):
        ctx.load_dialect(dialect)
    module = parse_program(text, ctx=ctx)
    assert any(type(op).__name__ == "UnregisteredOpWithNameOp" for op in module.walk())
    outcomes = []
    for engine in ENGINES:
        copies = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
        outcomes.append((run(module, "main", copies, engine=engine), copies))
    assert [bits(r) for r in outcomes[0][0]] == [bits(r) for r in outcomes[1][0]]
    assert [bits(a) for a in outcomes[0][1]] == [bits(a) for a in outcomes[1][1]]
    return outcomes[0][0] + tuple(a for a in outcomes[0][1] if isinstance(a, np.ndarray))


def test_vector_from_elements_pretty_syntax() -> None:
    text = """
func.func @main(%a: i4, %b: i4) -> vector<2x2xi4> {
  %s = arith.addi %a, %b : i4
  %v = vector.from_elements %a, %b, %s, %s : vector<2x2xi4>
  func.return %v : vector<2x2xi4>
}"""
    (v,) = run_both(text, (7, 3))
    assert v.tolist() == [[7, 3], [-6, -6]]  # 7 + 3 = 10 wraps to -6 in i4


def test_vector_load_store_and_elementwise_wrap() -> None:
    text = """
func.func @main(%m: memref<2x8xi8>) -> vector<4xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %v = vector.load %m[%c1, %c3] : memref<2x8xi8>, vector<4xi8>
  %s = arith.addi %v, %v : vector<4xi8>
  vector.store %s, %m[%c0, %c0] : memref<2x8xi8>, vector<4xi8>
  func.return %s : vector<4xi8>
}"""
    memref = (np.arange(16, dtype=np.int64) * 20 - 100).astype(np.int8).reshape(2, 8)
    result, after = run_both(text, (memref,))
    expected = (memref[1, 3:7].astype(np.int16) * 2).astype(np.int8)  # numpy wraps too
    np.testing.assert_array_equal(result, expected)
    np.testing.assert_array_equal(after[0, :4], expected)
    np.testing.assert_array_equal(after[1], memref[1])


# ---- affine --------------------------------------------------------------------------------------
def test_affine_load_with_symbol_indices() -> None:
    # xDSL parses the SSA indices of the pretty syntax as symbols: ()[s0, s1] -> (s0 + 1, s1).
    text = """
func.func @main(%m: memref<3x4xi32>, %i: index, %j: index) -> (i32, i32) {
  %a = affine.load %m[%i + 1, %j] : memref<3x4xi32>
  %b = affine.load %m[%i * 2, %j floordiv 2 + 1] : memref<3x4xi32>
  affine.store %a, %m[%i, %j + 1] : memref<3x4xi32>
  func.return %a, %b : i32, i32
}"""
    memref = np.arange(12, dtype=np.int32).reshape(3, 4) * 10
    a, b, after = run_both(text, (memref, 1, 2))
    assert (a, b) == (memref[2, 2], memref[2, 2])
    assert after[1, 3] == memref[2, 2]


def test_affine_for_with_non_constant_bounds_and_iter_args() -> None:
    text = """
func.func @main(%m: memref<10xi32>, %lo: index, %hi: index) -> (i32, index) {
  %z = arith.constant 0 : i32
  %s = affine.for %i = max affine_map<(d0)[s0] -> (d0, s0 - 3)>(%lo)[%hi] to min affine_map<(d0) -> (d0, 9)>(%hi) step 2 iter_args(%acc = %z) -> (i32) {
    %v = affine.load %m[%i] : memref<10xi32>
    %n = arith.addi %acc, %v : i32
    affine.yield %n : i32
  }
  %k = affine.apply affine_map<(d0)[s0] -> (d0 * 3 + s0 mod 4)>(%lo)[%hi]
  func.return %s, %k : i32, index
}"""
    memref = (np.arange(10, dtype=np.int32) + 1) ** 2
    result = run_both(text, (memref, 2, 12))
    lower, upper = max(2, 12 - 3), min(12, 9)
    assert result[:2] == (int(memref[lower:upper:2].sum()), 2 * 3 + 12 % 4)


def test_affine_if_and_min() -> None:
    # xDSL 0.74 has no custom syntax for affine.if: generic form.
    text = """
func.func @main(%i: index, %n: index) -> (index, index) {
  %m = affine.min affine_map<(d0)[s0] -> (d0 + 4, s0)>(%i)[%n]
  %r = "affine.if"(%i, %n) <{condition = affine_set<(d0)[s0] : (s0 - d0 - 1 >= 0)>}> ({
    affine.yield %m : index
  }, {
    affine.yield %n : index
  }) : (index, index) -> index
  func.return %m, %r : index, index
}"""
    assert run_both(text, (3, 5)) == (5, 5)
    assert run_both(text, (1, 9)) == (5, 5)
    assert run_both(text, (9, 9)) == (9, 9)


# ---- memref --------------------------------------------------------------------------------------
def test_memref_copy_dim_alloca_cast() -> None:
    # xDSL 0.74 has no custom syntax for memref.copy, cast, rank (nor global): generic form.
    text = """
func.func @main(%src: memref<?x3xf32>) -> (index, memref<?x3xf32>, index) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %src, %c0 : memref<?x3xf32>
  %dst = memref.alloc(%n) : memref<?x3xf32>
  "memref.copy"(%src, %dst) : (memref<?x3xf32>, memref<?x3xf32>) -> ()
  %tmp = memref.alloca() : memref<2xindex>
  %st = "memref.cast"(%dst) : (memref<?x3xf32>) -> memref<5x3xf32>
  %r = "memref.rank"(%st) : (memref<5x3xf32>) -> index
  func.return %n, %dst, %r : index, memref<?x3xf32>, index
}"""
    source = np.linspace(-1, 1, 15, dtype=np.float32).reshape(5, 3)
    n, dst, rank, _ = run_both(text, (source,))
    assert (n, rank) == (5, 2)
    np.testing.assert_array_equal(dst, source)


GLOBALS = """
"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<2x3xi8>, initial_value = dense<[[1, 2, -1], [127, 4, 5]]> : tensor<2x3xi8>}> : () -> ()
"memref.global"() <{sym_name = "splat", sym_visibility = "private", type = memref<4xf32>, initial_value = dense<1.5> : tensor<4xf32>}> : () -> ()
"memref.global"() <{sym_name = "flags", sym_visibility = "private", type = memref<2xi1>, initial_value = dense<[true, false]> : tensor<2xi1>}> : () -> ()
func.func @bump() {
  %g = memref.get_global @table : memref<2x3xi8>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = memref.load %g[%c1, %c2] : memref<2x3xi8>
  %w = arith.addi %v, %v : i8
  memref.store %w, %g[%c1, %c2] : memref<2x3xi8>
  func.return
}
func.func @main() -> (i8, i8, f32, i1) {
  func.call @bump() : () -> ()
  func.call @bump() : () -> ()
  %g = memref.get_global @table : memref<2x3xi8>
  %s = memref.get_global @splat : memref<4xf32>
  %f = memref.get_global @flags : memref<2xi1>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.load %g[%c1, %c2] : memref<2x3xi8>
  %b = memref.load %g[%c0, %c2] : memref<2x3xi8>
  %x = memref.load %s[%c2] : memref<4xf32>
  %y = memref.load %f[%c0] : memref<2xi1>
  func.return %a, %b, %x, %y : i8, i8, f32, i1
}"""


def test_globals_keep_stores_within_a_run() -> None:
    # 5 doubled twice is 20 (xDSL's get_global made a fresh copy each time: 5 again).
    assert run_both(GLOBALS) == (20, -1, 1.5, 1)
    assert run_both(GLOBALS) == (20, -1, 1.5, 1)  # a new run starts from the initializer


# ---- scf and func ------------------------------------------------------------------------------
def test_scf_while_if_and_recursive_call() -> None:
    text = """
func.func @gcd(%a: i32, %b: i32) -> i32 {
  %z = arith.constant 0 : i32
  %r:2 = scf.while (%x = %a, %y = %b) : (i32, i32) -> (i32, i32) {
    %nz = arith.cmpi ne, %y, %z : i32
    scf.condition(%nz) %x, %y : i32, i32
  } do {
  ^bb0(%x2: i32, %y2: i32):
    %m = arith.remsi %x2, %y2 : i32
    scf.yield %y2, %m : i32, i32
  }
  func.return %r#0 : i32
}
func.func @fact(%n: i64) -> i64 {
  %one = arith.constant 1 : i64
  %le = arith.cmpi sle, %n, %one : i64
  %r = scf.if %le -> (i64) {
    scf.yield %one : i64
  } else {
    %m = arith.subi %n, %one : i64
    %f = func.call @fact(%m) : (i64) -> i64
    %p = arith.muli %n, %f : i64
    scf.yield %p : i64
  }
  func.return %r : i64
}
func.func @main(%a: i32, %b: i32, %n: i64) -> (i32, i64) {
  %g = func.call @gcd(%a, %b) : (i32, i32) -> i32
  %f = func.call @fact(%n) : (i64) -> i64
  func.return %g, %f : i32, i64
}"""
    assert run_both(text, (1071, 462, 21)) == (
        math.gcd(1071, 462),
        wrap_reference(math.factorial(21), 64),
    )


def test_scf_for_with_iter_args_and_empty_trip() -> None:
    text = """
func.func @main(%lo: index, %hi: index) -> (index, index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %s:2 = scf.for %i = %lo to %hi step %c1 iter_args(%a = %c0, %b = %c1) -> (index, index) {
    %n = arith.addi %a, %i : index
    scf.yield %b, %n : index, index
  }
  func.return %s#0, %s#1 : index, index
}"""
    a, b = 0, 1
    for i in range(2, 9):
        a, b = b, a + i
    assert run_both(text, (2, 9)) == (a, b)
    assert run_both(text, (5, 5)) == (0, 1)


# ---- layout-aware memrefs ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "shape", "dtype"),
    [
        ("NCHW->nChw8c", (2, 11, 3, 2), "f32"),
        ("NHWC->NHWC6c", (1, 2, 3, 12), "i1"),
        ('#layout.tag<"NHWC->NHWC6c", pack = i6, bit_order = "msb">', (1, 2, 2, 12), "i1"),
        ('#layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>', (1, 2, 2, 12), "i1"),
        ('#layout.tag<"NCHW->NCHW2c", pack = i8>', (1, 4, 2, 2), "i4"),
        ("R4CroutonLayout", (1, 9, 10, 40), "i8"),
        ("strided<[7, 2], offset: 3>", (3, 3), "i32"),
    ],
)
def test_layout_memref_reads_and_writes_logical_elements(
    spec: str, shape: tuple, dtype: str
) -> None:
    layout = parse_layout(spec, shape, dtype=dtype, pad=31 if spec == "R4CroutonLayout" else None)
    element = element_type(dtype)
    rng = np.random.default_rng(3)
    low, high = (0, 2) if element.bits == 1 else (-8, 8)
    logical = rng.integers(low, high, shape).astype(element.numpy_dtype)
    memref = LayoutMemRef.from_logical(layout, element, logical)
    for index in [(0,) * len(shape), tuple(e - 1 for e in shape), tuple(e // 2 for e in shape)]:
        assert memref.load(index, "test") == logical[index]
        new_value = (int(logical[index]) + 1) % 2 if element.bits == 1 else -int(logical[index]) - 1
        memref.store(index, new_value, "test")
        logical[index] = new_value
    # The buffer is exactly what the layout packs the updated logical array into.
    np.testing.assert_array_equal(memref.buffer, layout.pack(logical))
    np.testing.assert_array_equal(memref.logical(), logical)


def test_layout_memref_stores_in_the_physical_slot() -> None:
    layout = parse_layout("NCHW->nChw8c", (1, 10, 2, 2), dtype="f32")
    memref = LayoutMemRef.allocate(layout, element_type("f32"))
    memref.store((0, 9, 1, 0), 2.5, "test")
    # nChw8c: (n, c floordiv 8, h, w, c mod 8) in a 1x2x2x2x8 buffer; C = 10 pads to 16.
    assert memref.buffer.shape == (1, 2, 2, 2, 8)
    assert memref.buffer[0, 1, 1, 0, 1] == 2.5
    assert np.count_nonzero(memref.buffer) == 1


def test_program_on_layout_typed_memrefs() -> None:
    text = """
func.func @main(%a: memref<1x12x2x2xi1, #layout.tag<"NCHW->nChw6c", pack = i6>>, %b: memref<3x5xf32, #layout.tag<"AB->BA">>) -> (i1, f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %v = memref.load %a[%c0, %c7, %c1, %c0] : memref<1x12x2x2xi1, #layout.tag<"NCHW->nChw6c", pack = i6>>
  %t = arith.constant 1 : i1
  %nv = arith.xori %v, %t : i1
  memref.store %nv, %a[%c0, %c7, %c1, %c0] : memref<1x12x2x2xi1, #layout.tag<"NCHW->nChw6c", pack = i6>>
  %f = affine.load %b[%c1 + 1, 4] : memref<3x5xf32, #layout.tag<"AB->BA">>
  %d = memref.dim %a, %c1 : memref<1x12x2x2xi1, #layout.tag<"NCHW->nChw6c", pack = i6>>
  func.return %nv, %f, %d : i1, f32, index
}"""
    a = np.random.default_rng(0).integers(0, 2, (1, 12, 2, 2)).astype(np.uint8)
    b = np.arange(15, dtype=np.float32).reshape(3, 5)
    nv, f, d, a_after, b_after = run_both(text, (a, b))
    assert (nv, f, d) == (1 - a[0, 7, 1, 0], b[2, 4], 12)
    expected = a.copy()
    expected[0, 7, 1, 0] ^= 1
    np.testing.assert_array_equal(a_after, expected)
    np.testing.assert_array_equal(b_after, b)


def test_layout_convert_and_copy_between_layouts() -> None:
    text = """
func.func @main(%a: memref<2x10xf32, #layout.tag<"AB->BA">>) -> (memref<2x10xf32, #layout.tag<"AB->Ba4b", pad = -1.0>>, memref<2x10xf32>) {
  %b = memref.alloc() : memref<2x10xf32, #layout.tag<"AB->Ba4b", pad = -1.0>>
  layout.convert %a to %b : memref<2x10xf32, #layout.tag<"AB->BA">> to memref<2x10xf32, #layout.tag<"AB->Ba4b", pad = -1.0>>
  %c = memref.alloc() : memref<2x10xf32>
  "memref.copy"(%b, %c) : (memref<2x10xf32, #layout.tag<"AB->Ba4b", pad = -1.0>>, memref<2x10xf32>) -> ()
  func.return %b, %c : memref<2x10xf32, #layout.tag<"AB->Ba4b", pad = -1.0>>, memref<2x10xf32>
}"""
    a = np.arange(20, dtype=np.float32).reshape(2, 10)
    b, c, _ = run_both(text, (a,))
    np.testing.assert_array_equal(b, a)
    np.testing.assert_array_equal(c, a)


def test_vector_access_and_dynamic_alloc_on_layout_memrefs() -> None:
    # A vector access on a layout-typed memref covers consecutive *logical* elements, which
    # "AB->Ba4b" scatters over two blocks of the physical buffer.
    text = """
func.func @main(%m: memref<2x10xi16, #layout.tag<"AB->Ba4b">>, %n: index) -> (vector<5xi16>, index, i16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = vector.load %m[%c1, %c2] : memref<2x10xi16, #layout.tag<"AB->Ba4b">>, vector<5xi16>
  %d = arith.addi %v, %v : vector<5xi16>
  vector.store %d, %m[%c0, %c0] : memref<2x10xi16, #layout.tag<"AB->Ba4b">>, vector<5xi16>
  %t = memref.alloc(%n) : memref<?x3xi16, #layout.tag<"AB->BA">>
  %e = vector.extract %d[4] : i16 from vector<5xi16>
  memref.store %e, %t[%c1, %c2] : memref<?x3xi16, #layout.tag<"AB->BA">>
  %r = memref.load %t[%c1, %c2] : memref<?x3xi16, #layout.tag<"AB->BA">>
  %k = memref.dim %t, %c0 : memref<?x3xi16, #layout.tag<"AB->BA">>
  func.return %d, %k, %r : vector<5xi16>, index, i16
}"""
    m = (np.arange(20, dtype=np.int16) * 1000).reshape(2, 10)
    d, k, r, after = run_both(text, (m, 4))
    expected = (m[1, 2:7].astype(np.int32) * 2).astype(np.int16)  # 17000 * 2 wraps in i16
    np.testing.assert_array_equal(d, expected)
    assert (k, r) == (4, expected[4])
    updated = m.copy()
    updated[0, :5] = expected
    np.testing.assert_array_equal(after, updated)


# ---- errors ---------------------------------------------------------------------------------------
def test_division_by_zero_names_op_and_location() -> None:
    message = error_of_both(binary("arith.divsi", "i32"), (7, 0))
    assert message == "division by zero in arith.divsi at prog.mlir:3:3"


@pytest.mark.parametrize(
    "op", ["arith.divui", "arith.remsi", "arith.remui", "arith.floordivsi", "arith.ceildivsi"]
)
def test_every_integer_division_checks_zero(op: str) -> None:
    assert error_of_both(binary(op, "i8"), (7, 0)) == f"division by zero in {op} at prog.mlir:3:3"


def test_out_of_bounds_plain_memref() -> None:
    text = """
func.func @main(%m: memref<4x4xf32>, %i: index) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%i, %c0] : memref<4x4xf32>
  func.return %v : f32
}"""
    message = error_of_both(text, (np.zeros((4, 4), np.float32), 4))
    assert (
        message
        == "out-of-bounds access in memref.load at prog.mlir:4:3: index [4, 0] outside bounds [4, 4]"
    )
    # Negative indices do not wrap around as numpy's would.
    assert "index [-1, 0]" in error_of_both(text, (np.zeros((4, 4), np.float32), -1))


def test_out_of_bounds_layout_memref_in_logical_coordinates() -> None:
    text = """
func.func @main(%m: memref<3x10xf32, #layout.tag<"AB->Ba8b">>, %j: index) {
  %c1 = arith.constant 1 : index
  %v = arith.constant 1.0 : f32
  affine.store %v, %m[%c1, %j] : memref<3x10xf32, #layout.tag<"AB->Ba8b">>
  func.return
}"""
    # Column 12 is inside the physical buffer (10 pads to 16), but outside the logical shape.
    message = error_of_both(text, (np.zeros((3, 10), np.float32), 12))
    assert message == (
        "out-of-bounds access in affine.store at prog.mlir:5:3: logical index [1, 12] outside logical bounds [3, 10]"
    )


def test_unsupported_op_is_named_with_its_location() -> None:
    text = """
func.func @main(%a: i32) -> i32 {
  %r = math.ctlz %a : i32
  func.return %r : i32
}"""
    assert error_of_both(text, (1,)) == "unsupported op 'math.ctlz' at prog.mlir:3:3"


def test_unknown_entry_function() -> None:
    assert error_of_both(binary("arith.addi", "i8"), (1, 2), entry="nope") == (
        "no function @nope in the module (functions: @main)"
    )


def test_bad_argument() -> None:
    text = """
func.func @main(%m: memref<4xi8>) {
  func.return
}"""
    message = error_of_both(text, (np.zeros((5,), np.int8),))
    assert (
        message == "argument 0 of @main: expected an array for memref<4xi8>, got one of shape [5]"
    )


def test_unbounded_recursion_is_a_diagnostic() -> None:
    text = """
func.func @f(%n: i64) -> i64 {
  %r = func.call @f(%n) : (i64) -> i64
  func.return %r : i64
}
func.func @main() -> i64 {
  %c = arith.constant 5 : i64
  %r = func.call @f(%c) : (i64) -> i64
  func.return %r : i64
}"""
    assert error_of_both(text).startswith(
        "@main: calls nest deeper than Python's recursion limit ("
    )


@pytest.mark.parametrize("divisor", [3, -3, 1])
def test_division_by_constants(divisor: int) -> None:
    # The compiled engine pastes constants and divides by a positive one inline: same results.
    ops = [
        "arith.divsi",
        "arith.remsi",
        "arith.divui",
        "arith.remui",
        "arith.floordivsi",
        "arith.ceildivsi",
        "arith.ceildivui",
    ]
    body = "\n".join(f"  %r{i} = {op} %a, %d : i8" for i, op in enumerate(ops))
    results = ", ".join(f"%r{i}" for i in range(len(ops)))
    types = ", ".join(["i8"] * len(ops))
    text = f"""
func.func @main(%a: i8) -> ({types}) {{
  %d = arith.constant {divisor} : i8
{body}
  func.return {results} : {types}
}}"""
    for a in (-128, -7, 0, 7, 127):
        expected = [wrap_reference(INT_OPS[op](a, divisor, 8), 8) for op in ops]
        assert run_both(text, (a,)) == tuple(expected), a
