"""The engines against upstream mlir-runner: the cross-check programs (one per layout kind,
`@main()` printing with `vector.print` and `printMemref*`) run unlowered and lowered in both
engines, and what the engines print is read with the same `parse_output` as mlir-runner's
output and compared with the numpy expectation exactly. Where MLIR 22 is installed, each
program also runs natively once, and the native printed values (and text, apart from the
buffer addresses) must equal the engines'.

The printing itself is checked against hand-written text: the formats of `vector.print`
(NaN signs, infinities, -0, index and i1, nested vectors) and `printMemref*` (ranks 0 to 4,
size-1 dims, the spacing of MemRefDataPrinter), and the scalar runner-utils functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import pytest
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.passes import ModulePass

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.execution import ExecutionError
from heterolayout.execution.arguments import random_arguments
from heterolayout.execution.entry import find_function
from heterolayout.tools.run import main as layout_run
from tests.crosscheck_programs import (
    PROGRAMS,
    STORED,
    describe_mismatches,
    layout_opt,
    parse_output,
)

ENGINES = ("interp", "compiled", "native")
OPTION_SETS = {
    "default": "",
    "index-affine": "{index=affine}",
    "flatten": "{flatten=true}",
    "affine-flatten": "{index=affine flatten=true}",
}
SUBSETS = {
    "default": tuple(PROGRAMS),
    "index-affine": (
        "tag_nchw8c",
        "chunked_alias_crouton",
        "map_skew",
        "map_explicit_shape",
        "builtin_strided",
    ),
    "flatten": ("named_nchw4", "chunked_crouton2x2", "builtin_affine_map"),
    "affine-flatten": ("named_oihw16i16o", "strided"),
}
ADDRESS = re.compile(r"base@ = 0x[0-9a-f]+")


@cache
def lowered(name: str, options: str) -> str:
    result = layout_opt(PROGRAMS[name].text, "-p", f"layout-lower{OPTION_SETS[options]}")
    assert result.returncode == 0, result.stderr
    return result.stdout


@cache
def printed(text: str, engine: str) -> str:
    output = heterolayout.run(text, engine=engine, capture=True).output
    assert output is not None
    return output


def with_trailing_spaces(text: str) -> str:
    """printMemref ends its header (`data = `) and every row but a dimension's last
    (`], `) with a space; the expected texts below leave them out for legibility."""
    return re.sub(r"([=,])$", r"\1 ", text, flags=re.MULTILINE)


def without_addresses(text: str) -> str:
    return ADDRESS.sub("base@ = 0x?", text)


# ---- the cross-check programs -------------------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", PROGRAMS)
def test_unlowered_program_prints_the_numpy_expectation(name: str, engine: str) -> None:
    program = PROGRAMS[name]
    actual = parse_output(printed(program.text, engine))
    assert actual == program.expected, describe_mismatches(program.expected, actual)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("name", "options"),
    [pytest.param(n, o, id=f"{n}-{o}") for o, names in SUBSETS.items() for n in names],
)
def test_lowered_program_prints_the_numpy_expectation(name: str, options: str, engine: str) -> None:
    program = PROGRAMS[name]
    text = lowered(name, options)
    assert "layout." not in text and "#layout" not in text
    actual = parse_output(printed(text, engine))
    assert actual == program.expected, describe_mismatches(program.expected, actual)
    assert printed(text, engine) == printed(program.text, engine)


@pytest.mark.parametrize("name", PROGRAMS)
def test_native_run_prints_what_the_engines_print(name: str, native_runner) -> None:
    text = lowered(name, "default")
    native = native_runner(text)
    for engine in ENGINES:
        assert parse_output(native) == parse_output(printed(text, engine))
        assert without_addresses(native) == without_addresses(printed(text, engine))


# ---- printing, as mlir-runner prints ----------------------------------------------------------
VECTOR_PRINT = """
func.func @main() {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %negative_nan = arith.constant 0xFFC00000 : f32
  %inf = arith.divf %one, %zero : f32
  %ninf = arith.negf %inf : f32
  %nzero = arith.negf %zero : f32
  %big = arith.constant 1.0e20 : f32
  %small = arith.constant 1.25e-7 : f32
  %pi = arith.constant 3.14159265 : f32
  %large = arith.constant 123456789.0 : f32
  %d = arith.constant 3.141592653589793 : f64
  %h = arith.constant 3.140625 : f16
  %t = arith.constant 1 : i1
  %m = arith.constant -5 : i8
  %idx = arith.constant -1 : index
  %min = arith.constant -9223372036854775808 : i64
  %v2 = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : vector<2x3xi32>
  %vb = arith.constant dense<[true, false]> : vector<2xi1>
  %v1 = arith.constant dense<[7]> : vector<1xi64>
  %vf = arith.constant dense<[1.5, -2.0]> : vector<2xf32>
  %vi = arith.constant dense<[-1, 3]> : vector<2xindex>
  %v0 = arith.constant dense<2.5> : vector<f32>
  %v3 = arith.constant dense<[[[1]], [[2]]]> : vector<2x1x1xi8>
  "vector.print"(%nan) : (f32) -> ()
  "vector.print"(%negative_nan) : (f32) -> ()
  "vector.print"(%inf) : (f32) -> ()
  "vector.print"(%ninf) : (f32) -> ()
  "vector.print"(%nzero) : (f32) -> ()
  "vector.print"(%big) : (f32) -> ()
  "vector.print"(%small) : (f32) -> ()
  "vector.print"(%pi) : (f32) -> ()
  "vector.print"(%large) : (f32) -> ()
  "vector.print"(%d) : (f64) -> ()
  "vector.print"(%h) : (f16) -> ()
  "vector.print"(%t) : (i1) -> ()
  "vector.print"(%m) : (i8) -> ()
  "vector.print"(%idx) : (index) -> ()
  "vector.print"(%min) : (i64) -> ()
  "vector.print"(%v2) : (vector<2x3xi32>) -> ()
  "vector.print"(%vb) : (vector<2xi1>) -> ()
  "vector.print"(%v1) : (vector<1xi64>) -> ()
  "vector.print"(%vf) : (vector<2xf32>) -> ()
  "vector.print"(%vi) : (vector<2xindex>) -> ()
  "vector.print"(%v0) : (vector<f32>) -> ()
  "vector.print"(%v3) : (vector<2x1x1xi8>) -> ()
  func.return
}
"""
VECTOR_PRINT_TEXT = """\
nan
-nan
inf
-inf
-0
1e+20
1.25e-07
3.14159
1.23457e+08
3.14159
3.14062
1
-5
18446744073709551615
-9223372036854775808
( ( 1, 2, 3 ), ( 4, 5, 6 ) )
( 1, 0 )
( 7 )
( 1.5, -2 )
( 18446744073709551615, 3 )
( 2.5 )
( ( ( 1 ) ), ( ( 2 ) ) )
"""

PRINT_MEMREF = """
func.func private @printMemrefI16(memref<*xi16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF16(memref<*xf16>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func private @printMemrefInd(memref<*xindex>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %pi = arith.constant 3.14159265 : f32
  %scalar = memref.alloc() : memref<f32>
  memref.store %pi, %scalar[] : memref<f32>
  %u0 = "memref.cast"(%scalar) : (memref<f32>) -> memref<*xf32>
  func.call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %s = arith.constant -300 : i16
  %one = memref.alloc() : memref<1x1xi16>
  memref.store %s, %one[%c0, %c0] : memref<1x1xi16>
  %u1 = "memref.cast"(%one) : (memref<1x1xi16>) -> memref<*xi16>
  func.call @printMemrefI16(%u1) : (memref<*xi16>) -> ()
  %d = arith.constant 3.141592653589793 : f64
  %e = arith.constant -2.5e-300 : f64
  %cube = memref.alloc() : memref<2x1x2xf64>
  memref.store %d, %cube[%c0, %c0, %c0] : memref<2x1x2xf64>
  memref.store %d, %cube[%c0, %c0, %c1] : memref<2x1x2xf64>
  memref.store %d, %cube[%c1, %c0, %c0] : memref<2x1x2xf64>
  memref.store %e, %cube[%c1, %c0, %c1] : memref<2x1x2xf64>
  %u2 = "memref.cast"(%cube) : (memref<2x1x2xf64>) -> memref<*xf64>
  func.call @printMemrefF64(%u2) : (memref<*xf64>) -> ()
  %minus = arith.constant -1 : index
  %indices = memref.alloc() : memref<2xindex>
  memref.store %minus, %indices[%c0] : memref<2xindex>
  memref.store %c2, %indices[%c1] : memref<2xindex>
  %u3 = "memref.cast"(%indices) : (memref<2xindex>) -> memref<*xindex>
  func.call @printMemrefInd(%u3) : (memref<*xindex>) -> ()
  %h = arith.constant 3.140625 : f16
  %hmin = arith.constant -65504.0 : f16
  %halves = memref.alloc() : memref<2xf16>
  memref.store %h, %halves[%c0] : memref<2xf16>
  memref.store %hmin, %halves[%c1] : memref<2xf16>
  %u4 = "memref.cast"(%halves) : (memref<2xf16>) -> memref<*xf16>
  func.call @printMemrefF16(%u4) : (memref<*xf16>) -> ()
  %nan = arith.constant 0xFFC00000 : f32
  %big = arith.constant 1.0e20 : f32
  %zero = arith.constant 0.0 : f32
  %nzero = arith.negf %zero : f32
  %column = memref.alloc() : memref<3x1xf32>
  memref.store %nan, %column[%c0, %c0] : memref<3x1xf32>
  memref.store %big, %column[%c1, %c0] : memref<3x1xf32>
  memref.store %nzero, %column[%c2, %c0] : memref<3x1xf32>
  %u5 = "memref.cast"(%column) : (memref<3x1xf32>) -> memref<*xf32>
  func.call @printMemrefF32(%u5) : (memref<*xf32>) -> ()
  func.call @printMemrefF32(%u0) : (memref<*xf32>) -> ()
  %tesseract = memref.alloc() : memref<2x2x2x2xi64>
  %k = arith.constant 1000000000000 : i64
  %min = arith.constant -9223372036854775808 : i64
  %z = arith.constant 0 : i64
  %u6 = "memref.cast"(%tesseract) : (memref<2x2x2x2xi64>) -> memref<*xi64>
  scf.for %a = %c0 to %c2 step %c1 {
    scf.for %b = %c0 to %c2 step %c1 {
      scf.for %c = %c0 to %c2 step %c1 {
        scf.for %dd = %c0 to %c2 step %c1 {
          memref.store %z, %tesseract[%a, %b, %c, %dd] : memref<2x2x2x2xi64>
        }
      }
    }
  }
  memref.store %k, %tesseract[%c1, %c0, %c1, %c0] : memref<2x2x2x2xi64>
  memref.store %min, %tesseract[%c1, %c1, %c1, %c1] : memref<2x2x2x2xi64>
  func.call @printMemrefI64(%u6) : (memref<*xi64>) -> ()
  func.return
}
"""
PRINT_MEMREF_TEXT = with_trailing_spaces("""\
Unranked Memref base@ = 0x1000 rank = 0 offset = 0 sizes = [] strides = [] data =
[3.14159]
Unranked Memref base@ = 0x2000 rank = 2 offset = 0 sizes = [1, 1] strides = [1, 1] data =
[[-300]]
Unranked Memref base@ = 0x3000 rank = 3 offset = 0 sizes = [2, 1, 2] strides = [2, 2, 1] data =
[[[3.14159,    3.14159]],
 [[3.14159,    -2.5e-300]]]
Unranked Memref base@ = 0x4000 rank = 1 offset = 0 sizes = [2] strides = [1] data =
[18446744073709551615,  2]
Unranked Memref base@ = 0x5000 rank = 1 offset = 0 sizes = [2] strides = [1] data =
[3.14062,  -65504]
Unranked Memref base@ = 0x6000 rank = 2 offset = 0 sizes = [3, 1] strides = [1, 1] data =
[[-nan],
 [1e+20],
 [-0]]
Unranked Memref base@ = 0x1000 rank = 0 offset = 0 sizes = [] strides = [] data =
[3.14159]
Unranked Memref base@ = 0x7000 rank = 4 offset = 0 sizes = [2, 2, 2, 2] strides = [8, 4, 2, 1] data =
[[[[0,     0],
   [0,     0]],
  [[0,     0],
   [0,     0]]],
 [[[0,     0],
   [1000000000000,     0]],
  [[0,     0],
   [0,     -9223372036854775808]]]]
""")

SCALAR_PRINTERS = """
func.func private @printI64(i64)
func.func private @printU64(i64)
func.func private @printF32(f32)
func.func private @printF64(f64)
func.func private @printNewline()
func.func private @printComma()
func.func private @printOpen()
func.func private @printClose()
func.func @main() {
  %a = arith.constant -42 : i64
  %f = arith.constant 0xFFC00000 : f32
  %d = arith.constant 2.5e-10 : f64
  func.call @printOpen() : () -> ()
  func.call @printI64(%a) : (i64) -> ()
  func.call @printComma() : () -> ()
  func.call @printU64(%a) : (i64) -> ()
  func.call @printComma() : () -> ()
  func.call @printF32(%f) : (f32) -> ()
  func.call @printComma() : () -> ()
  func.call @printF64(%d) : (f64) -> ()
  func.call @printClose() : () -> ()
  func.call @printNewline() : () -> ()
  func.return
}
"""
SCALAR_PRINTERS_TEXT = "( -42, 18446744073709551574, -nan, 2.5e-10 )\n"

PRINTING = {
    "vector_print": (VECTOR_PRINT, VECTOR_PRINT_TEXT),
    "print_memref": (PRINT_MEMREF, PRINT_MEMREF_TEXT),
    "scalar_printers": (SCALAR_PRINTERS, SCALAR_PRINTERS_TEXT),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", PRINTING)
def test_engines_print_as_mlir_runner(name: str, engine: str) -> None:
    text, expected = PRINTING[name]
    assert printed(text, engine) == expected


@pytest.mark.parametrize("name", PRINTING)
def test_native_printing_matches_the_expected_text(name: str, native_runner) -> None:
    """The hand-written text is mlir-runner's (its buffers' addresses aside)."""
    text, expected = PRINTING[name]
    assert without_addresses(native_runner(text)) == without_addresses(expected)


def test_print_memref_of_a_strided_layout_shows_its_strides_and_offset() -> None:
    """A layout-typed buffer prints its logical elements; a strided layout's descriptor
    metadata is what upstream's memref would carry."""
    text = """
func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %m = memref.alloc() : memref<2x3xi32, strided<[10, 2], offset: 5>>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 9 : i32
  memref.store %v, %m[%c1, %c2] : memref<2x3xi32, strided<[10, 2], offset: 5>>
  %u = "memref.cast"(%m) : (memref<2x3xi32, strided<[10, 2], offset: 5>>) -> memref<*xi32>
  func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  func.return
}
"""
    expected = (
        "Unranked Memref base@ = 0x1000 rank = 2 offset = 5 sizes = [2, 3] strides = [10, 2] data = \n"
        "[[0,   0,   0], \n"
        " [0,   0,   9]]\n"
    )
    for engine in ("interp", "compiled"):
        assert printed(text, engine) == expected
    # The native engine runs the program stripped of its layout: a plain 2x3 buffer, whose
    # unwritten elements are whatever malloc left there (MLIR does not initialise allocs).
    header, *rows = printed(text, "native").splitlines()
    assert (
        header
        == "Unranked Memref base@ = 0x1000 rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = "
    )
    assert rows[1].endswith("9]]")


# ---- the API and layout-run ---------------------------------------------------------------------
PRINT_AND_RETURN = """
func.func @main(%x: i32) -> i32 {
  %two = arith.constant 2 : i32
  %y = arith.muli %x, %two : i32
  "vector.print"(%y) : (i32) -> ()
  func.return %y : i32
}
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_run_prints_to_stdout_unless_captured(
    engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = heterolayout.run(PRINT_AND_RETURN, args=[21], engine=engine)
    assert (tuple(shown), shown.output, capsys.readouterr().out) == ((42,), None, "42\n")
    captured = heterolayout.run(PRINT_AND_RETURN, args=[-4], engine=engine, capture=True)
    assert (captured, captured.output, capsys.readouterr().out) == ((-8,), "-8\n", "")


@pytest.mark.parametrize("engine", ENGINES)
def test_layout_run_prints_the_program_output_then_the_results(
    engine: str, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "print.mlir"
    path.write_text(PROGRAMS["map_skew"].text)
    assert layout_run([str(path), "--engine", engine]) == 0
    out = capsys.readouterr().out
    assert parse_output(out) == PROGRAMS["map_skew"].expected
    assert out == printed(PROGRAMS["map_skew"].text, engine)  # no results: nothing after it
    path.write_text(PRINT_AND_RETURN)
    assert layout_run([str(path), "--engine", engine, "--seed", "3"]) == 0
    (x,) = random_arguments(find_function(parse_program(PRINT_AND_RETURN), "main"), 3)
    assert capsys.readouterr().out == f"{2 * x}\n{2 * x}\n"


@dataclass(frozen=True)
class BumpStoredConstant(ModulePass):
    """A planted bug after the lowering: the value the program stores, reads back and
    prints becomes one larger."""

    name = "test-bump-stored-constant"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for constant in op.walk():
            if (
                isinstance(constant, arith.ConstantOp)
                and isinstance(constant.value, IntegerAttr)
                and constant.value.value.data == STORED["i32"]
            ):
                constant.value = IntegerAttr(STORED["i32"] + 1, constant.value.type)
                return
        raise AssertionError("no stored constant")


@pytest.mark.parametrize("engine", ENGINES)
def test_check_compares_what_the_programs_print(engine: str) -> None:
    program = PROGRAMS["strided"]
    lines = len(printed(program.text, engine).splitlines())
    assert str(heterolayout.check(program.text, engine=engine)) == f"OK: {lines} elements compared"
    report = heterolayout.check(program.text, ["layout-lower", BumpStoredConstant()], engine=engine)
    line = program.spec.rank + len(program.spec.probes) + 1
    assert str(report) == f"MISMATCH in printed line {line}: unlowered '77777', lowered '77778'"
    assert report.compared == line


@pytest.mark.parametrize("engine", ENGINES)
def test_an_external_function_the_engines_lack_is_an_error_naming_it(engine: str) -> None:
    text = """
func.func private @printMemrefI32(memref<*xi32>)
func.func private @kernel(i64) -> i64
func.func @main() -> i64 {
  %a = arith.constant 1 : i64
  %r = func.call @kernel(%a) : (i64) -> i64
  func.return %r : i64
}
"""
    with pytest.raises(
        ExecutionError,
        match=r"^func\.call at .*: @kernel is external \(it has no body\) and cannot be run",
    ):
        heterolayout.run(text, engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_runner_function_declared_with_another_signature_is_an_error(engine: str) -> None:
    text = """
func.func private @printMemrefF32(memref<*xf64>)
func.func @main() {
  %m = memref.alloc() : memref<2xf64>
  %u = "memref.cast"(%m) : (memref<2xf64>) -> memref<*xf64>
  func.call @printMemrefF32(%u) : (memref<*xf64>) -> ()
  func.return
}
"""
    with pytest.raises(
        ExecutionError,
        match=r"@printMemrefF32 is declared as \(memref<\*xf64>\) -> \(\), but the runner utils' "
        r"@printMemrefF32 takes \(memref<\*xf32>\) -> \(\)$",
    ):
        heterolayout.run(text, engine=engine)
