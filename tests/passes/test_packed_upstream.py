"""Sub-byte and packed programs, lowered by `layout-lower`, compute under stock upstream MLIR 22
what the program computes before lowering.

The lowered module is compiled by `mlir-opt` with the LLVM pipeline of docs/native.md
(`mlir_tools.LOWER_TO_LLVM`) and run by `mlir-runner`: no heterolayout code between the
printed IR and the machine. The reference is the interp engine on the program before
lowering (numpy where the interpreter would take minutes). Upstream stores a `memref<…xi1>`
one element per byte but moves a `vector<64xi1>` as 64 packed bits, so every vector access to
sub-byte elements that the lowering and the schedule emit (tiled conversions, packed words,
grouped container stores, vector containers) is where these programs went wrong.

Covered: every example in examples/ with sub-byte elements or `pack =` (globbed), the
fuzzer's saved cases with them, the binary (Hamming) matmul at 64×64×2048 bits, conversions
above the tiled path's threshold for i1, i2, i4, i12 and i1, i3 and i12 in vector containers
(of more than 64 bits too), and vector accesses a program writes on layout-typed sub-byte
memrefs.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import AnyFloat, IntegerType, MemRefType

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.dialects.conversion import layout_of
from heterolayout.execution.arguments import random_arguments
from heterolayout.execution.entry import find_function
from heterolayout.passes.pipeline import apply_pipeline
from tests.fuzz.corpus import corpus_cases
from tests.passes.test_packed import printed_arrays
from tests.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
PIPELINES = ("layout-lower", "layout-schedule{target=avx2},layout-lower")
SUB_BYTE_MEMREF = re.compile(r"memref<[^>]*?x(?:vector<\d+x)?[su]?i(\d+)\b")


def packed_or_sub_byte(text: str) -> bool:
    """Whether a program has packed layouts or memrefs of integers narrower than a byte
    multiple (i1 … i7, i12, …; bit vectors too)."""
    return "pack =" in text or any(int(w) % 8 for w in SUB_BYTE_MEMREF.findall(text))


def _packed_examples() -> list[Path]:
    return [p for p in sorted(EXAMPLES.glob("*.mlir")) if packed_or_sub_byte(p.read_text())]


def _packed_corpus() -> list[Path]:
    return [p for p in corpus_cases() if packed_or_sub_byte(p.read_text())]


# ---- running @main natively on given arguments ----------------------------------------------
def _loops(shape: tuple[int, ...], name: str) -> tuple[list[str], list[str], str]:
    opening, closing = [], []
    for dim, extent in enumerate(shape):
        opening.append("  " * (dim + 1) + f"scf.for %{name}{dim} = %c0 to %c{extent} step %c1 {{")
        closing.insert(0, "  " * (dim + 1) + "}")
    return opening, closing, ", ".join(f"%{name}{d}" for d in range(len(shape)))


def _literal(values: np.ndarray) -> str:
    flat = values.reshape(-1)
    items = ", ".join(repr(float(v)) if flat.dtype.kind == "f" else str(int(v)) for v in flat)
    return f"dense<[{items}]>"


def native_entry(lowered: str, types: list[MemRefType], args: list[np.ndarray]) -> str:
    """The lowered module plus @entry: each argument of @main filled from a 1-D global of
    i64 (integers, truncated) or f64 (floats, truncated), @main called, then each argument
    printed with printMemrefI64: integers widened (i1 unsigned, the others signed), floats as
    their bits."""
    extents = sorted({1, *(e for t in types for e in t.get_shape())})
    body = ["func.func @entry() {", "  %c0 = arith.constant 0 : index"]
    body += [f"  %c{e} = arith.constant {e} : index" for e in extents if e]
    globals_ = []
    for k, (memref_type, values) in enumerate(zip(types, args, strict=True)):
        shape = tuple(memref_type.get_shape())
        element = memref_type.element_type
        is_float = isinstance(element, AnyFloat)
        wide = "f64" if is_float else "i64"
        flat = f"memref<{values.size}x{wide}>"
        globals_.append(f'memref.global "private" constant @arg{k} : {flat} = {_literal(values)}')
        opening, closing, ivs = _loops(shape, f"f{k}_")
        linear = (
            " + ".join(f"d{d} * {int(np.prod(shape[d + 1 :]))}" for d in range(len(shape))) or "0"
        )
        dims = ", ".join(f"d{d}" for d in range(len(shape)))
        pad = "  " * (len(shape) + 1)
        narrow = "arith.truncf" if is_float else "arith.trunci"
        convert = [f"{pad}%t{k} = {narrow} %l{k} : {wide} to {element}"]
        stored = f"%t{k}" if str(element) != wide else f"%l{k}"
        body += [
            f"  %g{k} = memref.get_global @arg{k} : {flat}",
            f"  %a{k} = memref.alloc() : {memref_type}",
            *opening,
            f"{pad}%p{k} = affine.apply affine_map<({dims}) -> ({linear})>({ivs})",
            f"{pad}%l{k} = memref.load %g{k}[%p{k}] : {flat}",
            *(convert if str(element) != wide else []),
            f"{pad}memref.store {stored}, %a{k}[{ivs}] : {memref_type}",
            *closing,
        ]
    operands = ", ".join(f"%a{k}" for k in range(len(types)))
    body.append(f"  func.call @main({operands}) : ({', '.join(map(str, types))}) -> ()")
    for k, memref_type in enumerate(types):
        shape = tuple(memref_type.get_shape())
        element = memref_type.element_type
        printed = f"memref<{'x'.join(map(str, shape))}xi64>"
        opening, closing, ivs = _loops(shape, f"o{k}_")
        pad = "  " * (len(shape) + 1)
        inner = [f"{pad}%e{k} = memref.load %a{k}[{ivs}] : {memref_type}"]
        value = f"%e{k}"
        if isinstance(element, AnyFloat):
            bits = element.bitwidth
            inner.append(f"{pad}%b{k} = arith.bitcast %e{k} : {element} to i{bits}")
            value = f"%b{k}"
            element = IntegerType(bits)
            widen = "arith.extui"
        else:
            widen = "arith.extui" if element.width.data == 1 else "arith.extsi"
        if str(element) != "i64":
            inner.append(f"{pad}%w{k} = {widen} {value} : {element} to i64")
            value = f"%w{k}"
        inner.append(f"{pad}memref.store {value}, %o{k}[{ivs}] : {printed}")
        body += [f"  %o{k} = memref.alloc() : {printed}", *opening, *inner, *closing]
        body += [
            f"  %u{k} = memref.cast %o{k} : {printed} to memref<*xi64>",
            f"  func.call @printMemrefI64(%u{k}) : (memref<*xi64>) -> ()",
        ]
    body += ["  func.return", "}"]
    declaration = (
        "func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}"
    )
    module = lowered.rstrip()
    assert module.endswith("}"), module[-200:]
    return module[:-1] + "\n".join([*globals_, declaration, *body]) + "\n}\n"


def as_printed(values: np.ndarray) -> np.ndarray:
    """What @entry prints for an array: integers as they are, floats as their bits."""
    if values.dtype.kind == "f":
        return values.view(np.dtype(f"uint{values.dtype.itemsize * 8}")).astype(np.int64)
    return values.astype(np.int64)


def run_upstream(native_runner, lowered: str, types: list[MemRefType], args: list[np.ndarray]):  # type: ignore[no-untyped-def]
    """@main of the lowered module run by stock mlir-runner on `args`: the arguments after."""
    stdout = native_runner(native_entry(lowered, types, args), entry="entry")
    arrays = printed_arrays(stdout)
    assert len(arrays) == len(args), stdout[-2000:]
    return arrays


def check_against_interp(native_runner, text: str, pipeline: str, seed: int = 3) -> str:  # type: ignore[no-untyped-def]
    """Lower `text`, run it upstream and the program unlowered on the interp engine with the
    same seeded arguments; every memref argument must be equal after the call. The lowered
    text is returned."""
    module = parse_program(text)
    main = find_function(module, "main")
    types = list(main.function_type.inputs.data)
    assert all(isinstance(t, MemRefType) and layout_of(t) is None for t in types), types
    assert not main.function_type.outputs.data
    args = [np.ascontiguousarray(a) for a in random_arguments(main, seed)]
    expected = [a.copy() for a in args]
    heterolayout.run(module, "main", expected, engine="interp")
    lowered = str(apply_pipeline(parse_program(text), pipeline))
    actual = run_upstream(native_runner, lowered, types, args)  # type: ignore[arg-type]
    for position, (got, want) in enumerate(zip(actual, expected, strict=True)):
        wrong = np.argwhere(got != as_printed(want))
        assert not wrong.size, (
            f"argument {position}: {len(wrong)} elements differ, first at "
            f"{tuple(wrong[0])}: upstream {got[tuple(wrong[0])]}, interp "
            f"{as_printed(want)[tuple(wrong[0])]}"
        )
    return lowered


# ---- the examples and the fuzzer's saved cases --------------------------------------------------
def test_the_packed_examples_and_corpus_cases_are_found() -> None:
    names = {p.stem for p in _packed_examples()}
    assert {"binary_matmul_packed_i64", "binary_conv_nhwc6_vector", "matmul_int4_weights"} <= names
    assert _packed_corpus(), "no packed or sub-byte case in tests/fuzz/corpus"


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("path", _packed_examples(), ids=lambda p: p.stem)
def test_packed_example_upstream_equals_interp(path: Path, pipeline: str, native_runner) -> None:  # type: ignore[no-untyped-def]
    text = path.read_text()
    if "gpu.launch" in text:
        pytest.skip("GPU kernels: stock mlir-runner runs host code (tests/test_cuda_engine.py)")
    check_against_interp(native_runner, text, pipeline)


@pytest.mark.parametrize("pipeline", PIPELINES)
@pytest.mark.parametrize("path", _packed_corpus(), ids=lambda p: p.stem)
def test_packed_corpus_case_upstream_prints_what_interp_prints(
    path: Path, pipeline: str, native_runner
) -> None:  # type: ignore[no-untyped-def]
    text = path.read_text()
    expected = heterolayout.run(text, "main", engine="interp", capture=True).output
    lowered = str(apply_pipeline(parse_program(text), pipeline))
    assert native_runner(lowered) == expected


# ---- sizes that take the tiled and word-level paths ---------------------------------------------
def hamming_program(rows: int, cols: int, depth: int) -> str:
    """examples/binary_matmul_packed_i64.mlir at another size."""
    text = (EXAMPLES / "binary_matmul_packed_i64.mlir").read_text()
    for old, new in (
        ("5x100", f"{rows}x{depth}"),
        ("3x100", f"{cols}x{depth}"),
        ("5x3", f"{rows}x{cols}"),
    ):
        text = text.replace(old, new)
    for old, new in (
        ("0 to 5 ", f"0 to {rows} "),
        ("0 to 3 ", f"0 to {cols} "),
        ("0 to 100 ", f"0 to {depth} "),
    ):
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_hamming_matmul_of_64x64x2048_bits_upstream_equals_numpy(
    pipeline: str, native_runner
) -> None:  # type: ignore[no-untyped-def]
    """The issue's case: the operands' conversions into `pack = i64` words take the tiled
    path (vector<64xi1> loads of the i1 arguments)."""
    text = hamming_program(64, 64, 2048)
    lowered = str(apply_pipeline(parse_program(text), pipeline))
    rng = np.random.default_rng(26)
    a = rng.integers(0, 2, (64, 2048), dtype=np.uint8)
    b = rng.integers(0, 2, (64, 2048), dtype=np.uint8)
    types = list(find_function(parse_program(text), "main").function_type.inputs.data)
    out = np.zeros((64, 64), np.int32)
    *_, actual = run_upstream(native_runner, lowered, types, [a, b, out])  # type: ignore[arg-type]
    expected = (a[:, None, :] == b[None, :, :]).sum(axis=-1)
    assert np.array_equal(actual, expected), (int(actual.sum()), int(expected.sum()))


ROUND_TRIP = """
func.func @main(%src: memref<{shape}x{element}>, %out: memref<{shape}x{element}>, %first: memref<1x{element}>) {{
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : memref<{shape}x{element}, {layout}>
  layout.convert %src to %t : memref<{shape}x{element}> to memref<{shape}x{element}, {layout}>
  %x = memref.load %t[{zeros}] : memref<{shape}x{element}, {layout}>
  memref.store %x, %first[%c0] : memref<1x{element}>
  layout.convert %t to %out : memref<{shape}x{element}, {layout}> to memref<{shape}x{element}>
  memref.dealloc %t : memref<{shape}x{element}, {layout}>
  func.return
}}
"""

CONVERSIONS = [
    ("64x256", "i1", '#layout.tag<"MK->MK64k", pack = i64>'),
    ("1x8x16x64", "i1", '#layout.tag<"NHWC->NHWC8c", pack = i8>'),
    ("1x8x16x48", "i1", '#layout.tag<"NHWC->NHWC6c", pack = i6>'),
    ("1x8x16x48", "i1", '#layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>'),
    ("64x128", "i4", '#layout.tag<"NK->NK2k", pack = i8>'),
    ("64x128", "i2", '#layout.tag<"RW->RW8w", pack = i16>'),
    ("32x256", "i3", '#layout.tag<"RW->RW2w", pack = i8>'),
    ("64x96", "i12", '#layout.tag<"RW->RW6w", pack = vector<6xi12>>'),
    ("64x96", "i3", '#layout.tag<"RW->RW24w", pack = vector<24xi3>>'),
]
"""Layouts whose conversions from the logical buffer load the lanes of several containers as
one vector of sub-byte elements (and, for i6 words, store a group of containers as one
vector of them); bit vectors of more than 64 bits, which LLVM 22 loads and stores wrong."""


@pytest.mark.parametrize(("shape", "element", "layout"), CONVERSIONS)
def test_tiled_conversions_of_sub_byte_elements_upstream_equal_interp(
    shape: str, element: str, layout: str, native_runner
) -> None:  # type: ignore[no-untyped-def]
    """Into and out of the layout (the tiled path: 4096 slots and more), with a load between
    so that the two conversions do not fold into one copy."""
    zeros = ", ".join(["%c0"] * len(shape.split("x")))
    text = ROUND_TRIP.format(shape=shape, element=element, layout=layout, zeros=zeros)
    lowered = check_against_interp(native_runner, text, "layout-lower")
    assert re.search(r"vector\.(load|store) [^\n]*vector<\d+xi(8|16)>", lowered), lowered


USER_VECTORS = """
func.func @main(%a: memref<4x24x{e}>, %b: memref<4x24x{e}>) {{
  %t = memref.alloc() : memref<4x24x{e}, #layout.tag<"RW->WR">>
  %u = memref.alloc() : memref<4x24x{e}, #layout.tag<"RW->RW8w">>
  layout.convert %a to %t : memref<4x24x{e}> to memref<4x24x{e}, #layout.tag<"RW->WR">>
  layout.convert %a to %u : memref<4x24x{e}> to memref<4x24x{e}, #layout.tag<"RW->RW8w">>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : {e}
  %v = vector.load %u[%c1, %c8] : memref<4x24x{e}, #layout.tag<"RW->RW8w">>, vector<8x{e}>
  %w = affine.vector_load %u[2, 16] : memref<4x24x{e}, #layout.tag<"RW->RW8w">>, vector<8x{e}>
  %s = arith.addi %v, %w : vector<8x{e}>
  vector.store %s, %u[%c0, %c0] : memref<4x24x{e}, #layout.tag<"RW->RW8w">>, vector<8x{e}>
  affine.vector_store %v, %u[3, 8] : memref<4x24x{e}, #layout.tag<"RW->RW8w">>, vector<8x{e}>
  %x = vector.transfer_read %u[%c3, %c0], %zero {{in_bounds = [true]}} : memref<4x24x{e}, #layout.tag<"RW->RW8w">>, vector<8x{e}>
  %y = vector.load %t[%c1, %c3] : memref<4x24x{e}, #layout.tag<"RW->WR">>, vector<4x{e}>
  %sum = arith.addi %x, %v : vector<8x{e}>
  vector.transfer_write %sum, %u[%c1, %c0] {{in_bounds = [true]}} : vector<8x{e}>, memref<4x24x{e}, #layout.tag<"RW->RW8w">>
  vector.store %y, %u[%c2, %c3] : memref<4x24x{e}, #layout.tag<"RW->RW8w">>, vector<4x{e}>
  layout.convert %u to %b : memref<4x24x{e}, #layout.tag<"RW->RW8w">> to memref<4x24x{e}>
  %p = vector.load %a[%c2, %c8] : memref<4x24x{e}>, vector<8x{e}>
  vector.store %p, %b[%c0, %c3] : memref<4x24x{e}>, vector<8x{e}>
  memref.dealloc %t : memref<4x24x{e}, #layout.tag<"RW->WR">>
  memref.dealloc %u : memref<4x24x{e}, #layout.tag<"RW->RW8w">>
  func.return
}}
"""


@pytest.mark.parametrize("pipeline", ["layout-lower", "layout-lower{flatten=true}"])
@pytest.mark.parametrize("element", ["i2", "i12"])
def test_vector_accesses_a_program_writes_on_sub_byte_memrefs_upstream_equal_interp(
    element: str, pipeline: str, native_runner
) -> None:  # type: ignore[no-untyped-def]
    check_against_interp(native_runner, USER_VECTORS.format(e=element), pipeline)


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["interp", "compiled"])
def test_the_engines_run_the_byte_views_of_these_programs_as_upstream_does(engine: str) -> None:
    """The lowered programs above, byte views included, on both Python engines: `check`
    compares them with the programs before lowering."""
    programs = [USER_VECTORS.format(e=e) for e in ("i2", "i12")]
    for shape, element, layout in CONVERSIONS:
        zeros = ", ".join(["%c0"] * len(shape.split("x")))
        programs.append(ROUND_TRIP.format(shape=shape, element=element, layout=layout, zeros=zeros))
    for text in programs:
        report = heterolayout.check(text, pipeline="layout-lower", engine=engine)
        assert report.equal, str(report)
