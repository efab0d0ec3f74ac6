"""Packed and bit-packed layouts through the whole chain: the model, `layout-lower`, both
engines and upstream MLIR 22.

Every expectation is computed here, independently of the Layout model: `np.packbits` for
bits in bytes, a lane-by-lane Python formulation of the container words (lane i at bits
[i·b, (i+1)·b) LSB-first, [K-(i+1)·b, K-i·b) MSB-first), and numpy formulations of the
examples' kernels (the binary convolution as a ±1 correlation over sliding windows, not as
xor-popcount). Lowered programs whose public `@main` takes layout-typed memrefs receive the
physical buffers, so what they leave there — packed words, pad lanes, unused bits — is read
back directly, by both engines and natively.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view
from xdsl.utils.exceptions import DiagnosticException

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.tools.run import main as layout_run
from tests.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
ENGINES = ("interp", "compiled", "native")
BIT_ORDERS = {"lsb": "little", "msb": "big"}
"""Our bit order → np.packbits' bitorder."""


def lower(text: str) -> str:
    return str(apply_pipeline(parse_program(text), "layout-lower"))


def words_by_element(lanes: np.ndarray, bits: int, container: int, order: str) -> np.ndarray:
    """Container words (unsigned) from a trailing lane axis, one lane at a time with Python
    ints."""
    words = np.zeros(lanes.shape[:-1], dtype=np.uint64)
    for index in np.ndindex(*lanes.shape[:-1]):
        word = 0
        for lane, value in enumerate(lanes[index].tolist()):
            shift = lane * bits if order == "lsb" else container - (lane + 1) * bits
            word |= (int(value) % (1 << bits)) << shift
        words[index] = word
    return words


def wrap(values: np.ndarray, bits: int) -> np.ndarray:
    """Two's complement wrap of integers to `bits` bits, as signed values."""
    values = np.asarray(values, dtype=np.int64) % (1 << bits)
    return np.where(values >= 1 << (bits - 1), values - (1 << bits), values)


def with_pad(values: np.ndarray, lanes: int, pad: int) -> np.ndarray:
    """Logical rows grouped into `lanes`-wide containers, the last one filled with `pad`."""
    rows, width = values.shape
    padded = np.full((rows, -(-width // lanes) * lanes), pad, dtype=np.int64)
    padded[:, :width] = values
    return padded.reshape(rows, -1, lanes)


# ---- native runs ----------------------------------------------------------------------------
@dataclass(frozen=True)
class NativeArg:
    """One memref argument of a native run: its data and MLIR element type. Physical words
    print unsigned; vector containers keep their lanes as the trailing numpy axis."""

    values: np.ndarray
    element: str
    unsigned: bool = False
    lanes: int = 0

    @property
    def shape(self) -> tuple[int, ...]:
        return self.values.shape[:-1] if self.lanes else self.values.shape

    def memref(self, element: str | None = None) -> str:
        stored = element or (f"vector<{self.lanes}x{self.element}>" if self.lanes else self.element)
        return f"memref<{'x'.join(map(str, self.shape))}x{stored}>"

    def wide(self) -> str:
        return f"memref<{'x'.join(map(str, self.values.shape))}xi64>"


def _dense(values: np.ndarray) -> str:
    def nested(array: np.ndarray) -> str:
        if array.ndim == 0:
            return str(int(array))
        return "[" + ", ".join(nested(a) for a in array) + "]"

    return f"dense<{nested(values.astype(np.int64))}>"


def _loops(shape: Sequence[int], name: str) -> tuple[list[str], list[str], list[str]]:
    opening, closing, ivs = [], [], []
    for dim, extent in enumerate(shape):
        iv = f"%{name}_{dim}"
        opening.append("  " * dim + f"  scf.for {iv} = %c0 to %c{extent} step %c1 {{")
        closing.insert(0, "  " * dim + "  }")
        ivs.append(iv)
    return opening, closing, ivs


def native_entry(lowered: str, args: Sequence[NativeArg]) -> str:
    """The lowered module plus @entry: every argument filled from an i64 global (truncated to
    its element type), @main called, every argument printed widened to i64."""
    extents = sorted({1, *(e for a in args for e in a.values.shape)})
    body = ["func.func @entry() {", "  %c0 = arith.constant 0 : index"]
    body += [f"  %c{e} = arith.constant {e} : index" for e in extents]
    globals_ = []
    for k, arg in enumerate(args):
        globals_.append(
            f'memref.global "private" constant @arg{k} : {arg.wide()} = {_dense(arg.values)}'
        )
        body += [
            f"  %g{k} = memref.get_global @arg{k} : {arg.wide()}",
            f"  %a{k} = memref.alloc() : {arg.memref()}",
        ]
        opening, closing, ivs = _loops(arg.shape, f"f{k}")
        pad = "  " * (len(ivs) + 1)
        index = ", ".join(ivs)
        inner: list[str] = []
        if arg.lanes:
            vector = f"vector<{arg.lanes}x{arg.element}>"
            inner.append(f"{pad}%z{k} = arith.constant dense<0> : {vector}")
            current = f"%z{k}"
            for lane in range(arg.lanes):
                inner += [
                    f"{pad}%l{k}_{lane} = memref.load %g{k}[{index}, %c{lane}] : {arg.wide()}",
                    f"{pad}%t{k}_{lane} = arith.trunci %l{k}_{lane} : i64 to {arg.element}",
                    f"{pad}%v{k}_{lane} = vector.insert %t{k}_{lane}, {current} [{lane}] : {arg.element} into {vector}",
                ]
                current = f"%v{k}_{lane}"
            inner.append(f"{pad}memref.store {current}, %a{k}[{index}] : {arg.memref()}")
        else:
            inner += [
                f"{pad}%l{k} = memref.load %g{k}[{index}] : {arg.wide()}",
                f"{pad}%t{k} = arith.trunci %l{k} : i64 to {arg.element}",
                f"{pad}memref.store %t{k}, %a{k}[{index}] : {arg.memref()}",
            ]
        body += [*opening, *inner, *closing]
    operands = ", ".join(f"%a{k}" for k in range(len(args)))
    types = ", ".join(a.memref() for a in args)
    body.append(f"  func.call @main({operands}) : ({types}) -> ()")
    for k, arg in enumerate(args):
        body.append(f"  %o{k} = memref.alloc() : {arg.wide()}")
        opening, closing, ivs = _loops(arg.shape, f"p{k}")
        pad = "  " * (len(ivs) + 1)
        index = ", ".join(ivs)
        widen = "arith.extui" if arg.unsigned or arg.element == "i1" else "arith.extsi"
        inner = [f"{pad}%e{k} = memref.load %a{k}[{index}] : {arg.memref()}"]
        if arg.lanes:
            for lane in range(arg.lanes):
                inner += [
                    f"{pad}%x{k}_{lane} = vector.extract %e{k}[{lane}] : {arg.element} from vector<{arg.lanes}x{arg.element}>",
                    f"{pad}%w{k}_{lane} = {widen} %x{k}_{lane} : {arg.element} to i64",
                    f"{pad}memref.store %w{k}_{lane}, %o{k}[{index}, %c{lane}] : {arg.wide()}",
                ]
        else:
            inner += [
                f"{pad}%w{k} = {widen} %e{k} : {arg.element} to i64",
                f"{pad}memref.store %w{k}, %o{k}[{index}] : {arg.wide()}",
            ]
        body += [*opening, *inner, *closing]
        body += [
            f"  %u{k} = memref.cast %o{k} : {arg.wide()} to memref<*xi64>",
            f"  func.call @printMemrefI64(%u{k}) : (memref<*xi64>) -> ()",
        ]
    body += ["  func.return", "}"]
    declaration = (
        "func.func private @printMemrefI64(memref<*xi64>) attributes {llvm.emit_c_interface}"
    )
    module = lowered.rstrip()
    assert module.endswith("}"), module[-200:]
    return module[:-1] + "\n".join([*globals_, declaration, *body]) + "\n}\n"


def printed_arrays(stdout: str) -> list[np.ndarray]:
    """Every printMemref dump of `stdout` as an int64 array of its printed sizes."""
    arrays = []
    for block in stdout.split("Unranked Memref")[1:]:
        sizes = re.search(r"sizes = \[([^\]]*)\]", block)
        assert sizes is not None, block
        shape = tuple(int(s) for s in sizes.group(1).split(",") if s.strip())
        data = [int(t) for t in re.findall(r"-?\d+", block.split("data =", 1)[1])]
        arrays.append(np.array(data, dtype=np.int64).reshape(shape))
    return arrays


def run_natively(
    native_runner: Callable[..., str], lowered: str, args: Sequence[NativeArg]
) -> list[np.ndarray]:
    arrays = printed_arrays(native_runner(native_entry(lowered, args), entry="entry"))
    assert len(arrays) == len(args)
    return arrays


def run_lowered(lowered: str, args: Sequence[np.ndarray], engine: str) -> list[np.ndarray]:
    """Run the lowered @main on copies of `args`; the arrays after the call."""
    arrays = [a.copy() for a in args]
    assert heterolayout.run(lowered, args=arrays, engine=engine) == ()
    return arrays


# ---- the model against np.packbits and the lane-by-lane formulation ---------------------------
@pytest.mark.parametrize("order", BIT_ORDERS)
def test_bits_in_bytes_pack_like_np_packbits(order: str) -> None:
    bits = np.random.default_rng(1).integers(0, 2, (3, 40), dtype=np.uint8)
    layout = heterolayout.parse_layout(
        "RW->RW8w", bits.shape, dtype="i1", pack="i8", bit_order=order
    )
    words = layout.pack(bits)
    assert words.dtype == np.uint8 and words.shape == (3, 5)
    assert np.array_equal(words, np.packbits(bits, axis=-1, bitorder=BIT_ORDERS[order]))
    assert np.array_equal(layout.unpack(words), bits)


@pytest.mark.parametrize(
    ("spec", "shape", "dtype", "container", "order", "pad"),
    [
        ("NHWC->NHWC6c", (1, 2, 3, 11), "i1", "i6", "lsb", 1),
        ("RW->RW3w", (2, 7), "i4", "i16", "msb", -3),
        ("RW->RW6w", (2, 12), "i2", "i16", "lsb", 0),
        ("W->W2w", (9,), "i4", "i8", "msb", 7),
        ("W->W64w", (100,), "i1", "i64", "msb", 0),
        ("W->W4w", (10,), "i8", "i32", "lsb", -128),
    ],
)
def test_integer_containers_equal_the_lane_by_lane_words(
    spec: str, shape: tuple[int, ...], dtype: str, container: str, order: str, pad: int
) -> None:
    bits = heterolayout.element_type(dtype).bits
    raw = np.random.default_rng(2).integers(0, 1 << bits, shape)
    values = raw if dtype == "i1" else wrap(raw, bits)  # i1 holds 0 and 1
    layout = heterolayout.parse_layout(
        spec, shape, dtype=dtype, pack=container, bit_order=order, pad=pad
    )
    lanes = layout.physical_shape[-1]
    flat = values.reshape(-1, shape[-1])
    expected = words_by_element(with_pad(flat, lanes, pad), bits, int(container[1:]), order)
    words = layout.pack(values)
    assert words.shape == layout.storage_shape
    assert np.array_equal(words.reshape(expected.shape).astype(np.uint64), expected)
    assert np.array_equal(layout.unpack(words), values.astype(layout.dtype.numpy_dtype))


def test_heterocl_nhw_c6_shapes_from_the_seed() -> None:
    """The seed's NHW(C6) of a 4x6x8x8 bit tensor: memref<4x8x8x1xi6> or
    memref<4x8x8x1xvector<6xi1>>."""
    for container in ("i6", "vector<6xi1>"):
        layout = heterolayout.parse_layout("NCHW->NHWC6c", (4, 6, 8, 8), dtype="i1", pack=container)
        assert layout.storage_shape == (4, 8, 8, 1)
        assert layout.physical_shape == (4, 8, 8, 1, 6)
    for name in ("int", "vector"):
        lowered = lower((EXAMPLES / f"binary_conv_nhwc6_{name}.mlir").read_text())
        element = "i6" if name == "int" else "vector<6xi1>"
        assert f"memref.alloc() : memref<4x8x8x1x{element}>" in lowered


# ---- physical words, pad lanes and unused bits, read back from the lowered program ---------------
BITS_LSB = '#layout.tag<"RW->RW8w", pack = i8>'
BITS_MSB = '#layout.tag<"RW->RW8w", pack = i8, bit_order = "msb">'
NIBBLES = '#layout.tag<"RW->RW3w", pack = i16, bit_order = "msb", pad = -3>'
CRUMBS = '#layout.tag<"RW->RW3w", pack = vector<3xi2>, pad = -1>'
GLOBAL = '#layout.tag<"RW->RW2w", pack = i8, bit_order = "msb", pad = -3>'
GLOBAL_VALUES = np.array([[1, -2, 3, -4, 5], [-6, 7, -8, 0, 2]])

PHYSICAL = f"""
"memref.global"() <{{sym_name = "g", sym_visibility = "private", type = memref<2x5xi4, {GLOBAL}>, initial_value = dense<[[1, -2, 3, -4, 5], [-6, 7, -8, 0, 2]]> : tensor<2x5xi4>}}> : () -> ()
func.func @main(%bits: memref<3x40xi1>, %lsb: memref<3x40xi1, {BITS_LSB}>,
                %msb: memref<3x40xi1, {BITS_MSB}>, %stored: memref<3x40xi1, {BITS_MSB}>,
                %back: memref<3x40xi1>, %nib: memref<2x5xi4>, %padded: memref<2x5xi4, {NIBBLES}>,
                %fresh: memref<2x5xi4, {NIBBLES}>, %crumb: memref<2x5xi2>,
                %crumbs: memref<2x5xi2, {CRUMBS}>, %gout: memref<2x5xi4, {GLOBAL}>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c40 = arith.constant 40 : index
  %one = arith.constant 1 : i4
  %six = arith.constant 6 : i4
  layout.convert %bits to %lsb : memref<3x40xi1> to memref<3x40xi1, {BITS_LSB}>
  layout.convert %bits to %msb : memref<3x40xi1> to memref<3x40xi1, {BITS_MSB}>
  scf.for %r = %c0 to %c3 step %c1 {{
    scf.for %w = %c0 to %c40 step %c1 {{
      %b = memref.load %bits[%r, %w] : memref<3x40xi1>
      memref.store %b, %stored[%r, %w] : memref<3x40xi1, {BITS_MSB}>
    }}
  }}
  layout.convert %msb to %back : memref<3x40xi1, {BITS_MSB}> to memref<3x40xi1>
  layout.convert %nib to %padded : memref<2x5xi4> to memref<2x5xi4, {NIBBLES}>
  %t = memref.alloc() : memref<2x5xi4, {NIBBLES}>
  affine.for %i = 0 to 2 {{
    affine.for %j = 0 to 5 {{
      %v = affine.load %nib[%i, %j] : memref<2x5xi4>
      %v1 = arith.addi %v, %one : i4
      affine.store %v1, %t[%i, %j] : memref<2x5xi4, {NIBBLES}>
    }}
  }}
  "memref.copy"(%t, %fresh) : (memref<2x5xi4, {NIBBLES}>, memref<2x5xi4, {NIBBLES}>) -> ()
  memref.dealloc %t : memref<2x5xi4, {NIBBLES}>
  layout.convert %crumb to %crumbs : memref<2x5xi2> to memref<2x5xi2, {CRUMBS}>
  %g = memref.get_global @g : memref<2x5xi4, {GLOBAL}>
  memref.store %six, %g[%c0, %c1] : memref<2x5xi4, {GLOBAL}>
  "memref.copy"(%g, %gout) : (memref<2x5xi4, {GLOBAL}>, memref<2x5xi4, {GLOBAL}>) -> ()
  func.return
}}
"""


@dataclass(frozen=True)
class PhysicalCase:
    """The physical program's arguments (lowered form) and what each holds after the call."""

    before: list[np.ndarray]
    after: list[np.ndarray]
    elements: list[str]
    unsigned: list[bool]
    lanes: list[int]


def physical_case() -> PhysicalCase:
    rng = np.random.default_rng(3)
    bits = rng.integers(0, 2, (3, 40), dtype=np.uint8)
    garbage = rng.integers(0, 256, (3, 5), dtype=np.uint8)
    nib = wrap(rng.integers(0, 16, (2, 5)), 4).astype(np.int8)
    crumb = wrap(rng.integers(0, 4, (2, 5)), 2).astype(np.int8)
    # A caller's buffer of NIBBLES: every lane (pad lanes too) 0xF, the unused low 4 bits 0.
    all_lanes = np.full((2, 2), 0xFFF0, dtype=np.uint16)
    global_values = GLOBAL_VALUES.copy()
    global_values[0, 1] = 6
    before = [
        bits,
        garbage.copy(),
        garbage.copy(),
        garbage.copy(),
        np.zeros_like(bits),
        nib,
        all_lanes,
        np.full((2, 2), 0xFFFF, dtype=np.uint16),
        crumb,
        np.ones((2, 2, 3), dtype=np.int8),
        np.zeros((2, 3), dtype=np.uint8),
    ]
    after = [
        bits,
        np.packbits(bits, axis=-1, bitorder="little"),
        np.packbits(bits, axis=-1, bitorder="big"),
        np.packbits(bits, axis=-1, bitorder="big"),
        bits,
        nib,
        words_by_element(with_pad(nib, 3, -3), 4, 16, "msb"),
        words_by_element(with_pad(wrap(nib + 1, 4), 3, -3), 4, 16, "msb"),
        crumb,
        with_pad(crumb, 3, -1),
        words_by_element(with_pad(global_values, 2, -3), 4, 8, "msb"),
    ]
    elements = ["i1", "i8", "i8", "i8", "i1", "i4", "i16", "i16", "i2", "i2", "i8"]
    unsigned = [False, True, True, True, False, False, True, True, False, False, True]
    lanes = [0] * 9 + [3, 0]
    return PhysicalCase(before, [a.astype(np.int64) for a in after], elements, unsigned, lanes)


def test_hand_computed_words_of_the_physical_program() -> None:
    """Spot checks of the independent expectations, worked out by hand."""
    # 1 in lane 0 LSB-first is bit 0; MSB-first it is bit 7.
    one_hot = np.array([[1, 0, 0, 0, 0, 0, 0, 0]], dtype=np.uint8)
    assert np.packbits(one_hot, axis=-1, bitorder="little").tolist() == [[1]]
    assert np.packbits(one_hot, axis=-1, bitorder="big").tolist() == [[128]]
    # NIBBLES, MSB-first in i16: lanes at bits 12-15, 8-11, 4-7; bits 0-3 unused (0).
    # Row [3, -1 | pad -3]: 0x3 << 12 | 0xF << 8 | 0xD << 4 = 0x3FD0.
    words = words_by_element(with_pad(np.array([[1, 2, 3, 3, -1]]), 3, -3), 4, 16, "msb")
    assert words.tolist() == [[0x1230, 0x3FD0]]
    # GLOBAL after the store of 6 at [0, 1]: [1, 6] -> 0x16, [3, -4] -> 0x3C, [5, pad] -> 0x5D.
    assert words_by_element(
        with_pad(np.array([[1, 6, 3, -4, 5]]), 2, -3), 4, 8, "msb"
    ).tolist() == [[0x16, 0x3C, 0x5D]]


def test_lowered_physical_program_signature() -> None:
    lowered = lower(PHYSICAL)
    assert (
        "func.func @main(%bits: memref<3x40xi1>, %lsb: memref<3x5xi8>, %msb: memref<3x5xi8>, "
        "%stored: memref<3x5xi8>, %back: memref<3x40xi1>, %nib: memref<2x5xi4>, "
        "%padded: memref<2x2xi16>, %fresh: memref<2x2xi16>, %crumb: memref<2x5xi2>, "
        "%crumbs: memref<2x2xvector<3xi2>>, %gout: memref<2x3xi8>)"
    ) in lowered
    # The global's initializer is repacked at compile time: [1, -2] -> 0x1E = 30, [3, -4] -> 60,
    # [5, pad -3] -> 0x5D = 93; [-6, 7] -> 0xA7 = -89, [-8, 0] -> -128, [2, pad] -> 0x2D = 45.
    assert (
        'memref.global "private" @g : memref<2x3xi8> = dense<[[30, 60, 93], [-89, -128, 45]]>'
        in lowered
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_physical_program_in_both_engines(engine: str) -> None:
    case = physical_case()
    after = run_lowered(lower(PHYSICAL), case.before, engine)
    for k, (actual, expected) in enumerate(zip(after, case.after, strict=True)):
        bits = int(case.elements[k][1:])
        actual = (
            actual.astype(np.int64) & ((1 << bits) - 1)
            if case.unsigned[k]
            else actual.astype(np.int64)
        )
        assert np.array_equal(actual, expected), (
            f"argument {k}: {actual.tolist()} != {expected.tolist()}"
        )


def test_physical_program_natively(native_runner) -> None:  # type: ignore[no-untyped-def]
    case = physical_case()
    args = [
        NativeArg(before, element, unsigned, lanes)
        for before, element, unsigned, lanes in zip(
            case.before, case.elements, case.unsigned, case.lanes, strict=True
        )
    ]
    for k, (actual, expected) in enumerate(
        zip(run_natively(native_runner, lower(PHYSICAL), args), case.after, strict=True)
    ):
        assert np.array_equal(actual, expected), (
            f"argument {k}: {actual.tolist()} != {expected.tolist()}"
        )


@pytest.mark.parametrize("engine", ENGINES)
def test_physical_program_check_in_both_engines(engine: str) -> None:
    report = heterolayout.check(PHYSICAL, seed=4, engine=engine)
    # memref arguments: 3·40 · 5 + 10 · 3 + 10 · 2 + 10 = 600 + 30 + 20 + 10
    assert str(report) == "OK: 660 elements compared"


def test_vector_packed_global_is_refused() -> None:
    text = (
        '"memref.global"() <{sym_name = "v", sym_visibility = "private", type = memref<2x5xi2, '
        f"{CRUMBS}>, initial_value = dense<1> : tensor<2x5xi2>}}> : () -> ()"
    )
    with pytest.raises(
        DiagnosticException,
        match=re.escape(
            "layout-lower: memref.global @v has a vector-packed layout; MLIR's dense initializers "
            "cannot hold vectors (use an integer container)"
        ),
    ):
        lower(text)


# ---- sub-byte values across a lowered call boundary ---------------------------------------------
NIB_BYTES = '#layout.tag<"W->W2w", pack = i8>'
NIB_WORDS = '#layout.tag<"W->W4w", pack = i16, bit_order = "msb">'
BIT_VECTORS = '#layout.tag<"RW->RW6w", pack = vector<6xi1>>'

BOUNDARY = f"""
func.func private @get(%m: memref<8xi4, {NIB_BYTES}>, %i: index) -> i4 {{
  %v = memref.load %m[%i] : memref<8xi4, {NIB_BYTES}>
  func.return %v : i4
}}
func.func private @put(%m: memref<8xi4, {NIB_WORDS}>, %i: index, %v: i4) {{
  memref.store %v, %m[%i] : memref<8xi4, {NIB_WORDS}>
  func.return
}}
func.func private @ramp(%base: i4) -> memref<8xi4, {NIB_WORDS}> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %m = memref.alloc() : memref<8xi4, {NIB_WORDS}>
  scf.for %i = %c0 to %c8 step %c1 {{
    %n = arith.index_cast %i : index to i4
    %v = arith.addi %base, %n : i4
    memref.store %v, %m[%i] : memref<8xi4, {NIB_WORDS}>
  }}
  func.return %m : memref<8xi4, {NIB_WORDS}>
}}
func.func private @parity(%m: memref<2x12xi1, {BIT_VECTORS}>, %r: index) -> i1 {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %false = arith.constant false
  %p = scf.for %j = %c0 to %c12 step %c1 iter_args(%acc = %false) -> (i1) {{
    %x = memref.load %m[%r, %j] : memref<2x12xi1, {BIT_VECTORS}>
    %y = arith.xori %acc, %x : i1
    scf.yield %y : i1
  }}
  func.return %p : i1
}}
func.func @main(%a: memref<8xi4>, %bits: memref<2x12xi1>, %neg: memref<8xi4>,
                %ramp: memref<8xi4>, %parity: memref<2xi1>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i4
  %base = arith.constant -5 : i4
  %t = memref.alloc() : memref<8xi4, {NIB_BYTES}>
  layout.convert %a to %t : memref<8xi4> to memref<8xi4, {NIB_BYTES}>
  %u = memref.alloc() : memref<8xi4, {NIB_WORDS}>
  scf.for %i = %c0 to %c8 step %c1 {{
    %v = func.call @get(%t, %i) : (memref<8xi4, {NIB_BYTES}>, index) -> i4
    %n = arith.subi %zero, %v : i4
    func.call @put(%u, %i, %n) : (memref<8xi4, {NIB_WORDS}>, index, i4) -> ()
  }}
  layout.convert %u to %neg : memref<8xi4, {NIB_WORDS}> to memref<8xi4>
  %r = func.call @ramp(%base) : (i4) -> memref<8xi4, {NIB_WORDS}>
  layout.convert %r to %ramp : memref<8xi4, {NIB_WORDS}> to memref<8xi4>
  %p = memref.alloc() : memref<2x12xi1, {BIT_VECTORS}>
  layout.convert %bits to %p : memref<2x12xi1> to memref<2x12xi1, {BIT_VECTORS}>
  scf.for %row = %c0 to %c2 step %c1 {{
    %q = func.call @parity(%p, %row) : (memref<2x12xi1, {BIT_VECTORS}>, index) -> i1
    memref.store %q, %parity[%row] : memref<2xi1>
  }}
  func.return
}}
"""


def boundary_case() -> tuple[list[np.ndarray], list[np.ndarray]]:
    a = np.array([-8, -3, 0, 1, 7, -1, 5, -6], dtype=np.int8)
    bits = np.array(
        [[1, 0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 1], [0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1]], dtype=np.uint8
    )
    before = [a, bits, np.zeros(8, np.int8), np.zeros(8, np.int8), np.zeros(2, np.uint8)]
    # -(-8) wraps to -8 in i4; the ramp counts from -5; the rows hold 7 and 4 ones.
    after = [a, bits, np.array([-8, 3, 0, -1, -7, 1, -5, 6]), np.arange(-5, 3), np.array([1, 0])]
    assert np.array_equal(after[2], wrap(-a.astype(np.int64), 4))
    assert np.array_equal(after[4], np.bitwise_xor.reduce(bits, axis=1))
    return before, after


def test_lowered_boundary_signatures_are_physical() -> None:
    lowered = lower(BOUNDARY)
    for signature in (
        "func.func private @get(%m: memref<4xi8>, %i: index) -> i4",
        "func.func private @put(%m: memref<2xi16>, %i: index, %v: i4)",
        "func.func private @ramp(%base: i4) -> memref<2xi16>",
        "func.func private @parity(%m: memref<2x2xvector<6xi1>>, %r: index) -> i1",
        "func.func @main(%a: memref<8xi4>, %bits: memref<2x12xi1>, %neg: memref<8xi4>, "
        "%ramp: memref<8xi4>, %parity: memref<2xi1>)",
    ):
        assert signature in lowered, signature


@pytest.mark.parametrize("engine", ENGINES)
def test_boundary_program_in_both_engines(engine: str) -> None:
    before, after = boundary_case()
    for source in (BOUNDARY, lower(BOUNDARY)):
        actual = run_lowered(source, before, engine)
        for k, (got, expected) in enumerate(zip(actual, after, strict=True)):
            assert np.array_equal(got.astype(np.int64), expected), f"argument {k}: {got.tolist()}"


def test_boundary_program_natively(native_runner) -> None:  # type: ignore[no-untyped-def]
    before, after = boundary_case()
    args = [NativeArg(b, e) for b, e in zip(before, ("i4", "i1", "i4", "i4", "i1"), strict=True)]
    actual = run_natively(native_runner, lower(BOUNDARY), args)
    for k, (got, expected) in enumerate(zip(actual, after, strict=True)):
        assert np.array_equal(got, expected), f"argument {k}: {got.tolist()}"


# ---- every access kind, in both implementations -----------------------------------------------------
ACCESS_KINDS = """
func.func @main(%x: memref<2x12xi2>, %out: memref<2x12xi2>, %row: memref<12xi2>) -> (index, i2) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c11 = arith.constant 11 : index
  %one = arith.constant 1 : i2
  %t = memref.alloc() : memref<2x12xi2, LAYOUT>
  layout.convert %x to %t : memref<2x12xi2> to memref<2x12xi2, LAYOUT>
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 12 step 2 {
      %a = affine.load %t[%i, %j] : memref<2x12xi2, LAYOUT>
      %b = arith.addi %a, %one : i2
      affine.store %b, %t[%i, %j] : memref<2x12xi2, LAYOUT>
    }
  }
  %cst = arith.constant dense<[1, -1, -2]> : vector<3xi2>
  vector.store %cst, %t[%c0, %c5] : memref<2x12xi2, LAYOUT>, vector<3xi2>
  %v = vector.load %t[%c1, %c4] : memref<2x12xi2, LAYOUT>, vector<4xi2>
  vector.store %v, %row[%c0] : memref<12xi2>, vector<4xi2>
  %d = memref.dim %t, %c1 : memref<2x12xi2, LAYOUT>
  %e = memref.load %t[%c1, %c11] : memref<2x12xi2, LAYOUT>
  %u = memref.alloc() : memref<2x12xi2, LAYOUT>
  "memref.copy"(%t, %u) : (memref<2x12xi2, LAYOUT>, memref<2x12xi2, LAYOUT>) -> ()
  layout.convert %u to %out : memref<2x12xi2, LAYOUT> to memref<2x12xi2>
  memref.dealloc %t : memref<2x12xi2, LAYOUT>
  memref.dealloc %u : memref<2x12xi2, LAYOUT>
  func.return %d, %e : index, i2
}
"""
ACCESS_LAYOUTS = {
    "int-i16": '#layout.tag<"RW->RW6w", pack = i16>',
    "vector": '#layout.tag<"RW->RW6w", pack = vector<6xi2>>',
    "int-i8-msb": '#layout.tag<"RW->RW4w", pack = i8, bit_order = "msb">',
}


def access_kinds_expectation(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    t = x.astype(np.int64)
    t[:, ::2] = wrap(t[:, ::2] + 1, 2)
    t[0, 5:8] = [1, -1, -2]
    row = np.zeros(12, dtype=np.int64)
    row[:4] = t[1, 4:8]
    return t, row, (12, int(t[1, 11]))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("layout", ACCESS_LAYOUTS)
def test_every_access_kind(layout: str, engine: str) -> None:
    text = ACCESS_KINDS.replace("LAYOUT", ACCESS_LAYOUTS[layout])
    lowered = lower(text)
    assert "#layout" not in lowered and "layout." not in lowered
    x = wrap(np.random.default_rng(5).integers(0, 4, (2, 12)), 2).astype(np.int8)
    out, row, results = access_kinds_expectation(x)
    for source in (text, lowered):
        arrays = [x.copy(), np.zeros((2, 12), np.int8), np.zeros(12, np.int8)]
        assert heterolayout.run(source, args=arrays, engine=engine) == results
        assert np.array_equal(arrays[1].astype(np.int64), out)
        assert np.array_equal(arrays[2].astype(np.int64), row)
    assert str(heterolayout.check(text, seed=6, engine=engine)) == "OK: 62 elements compared"


# ---- the examples -------------------------------------------------------------------------------
PACKED_EXAMPLES = {
    # elements compared by --check: every memref argument after the call
    "binary_conv_nhwc6_int.mlir": 4 * 6 * 8 * 8 + 2 * 6 * 3 * 3 + 4 * 2 * 6 * 6,
    "binary_conv_nhwc6_vector.mlir": 4 * 6 * 8 * 8 + 2 * 6 * 3 * 3 + 4 * 2 * 6 * 6,
    "matmul_int4_weights.mlir": 4 * 16 + 16 * 8 + 4 * 8,
    "tensor_int8_4n.mlir": 6 * 5 * 4 * 5 + 5 + 6 * 5 * 4 * 5,
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("example", PACKED_EXAMPLES)
def test_example_layout_run_check(
    example: str, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert layout_run([str(EXAMPLES / example), "--check", "--engine", engine]) == 0
    assert capsys.readouterr().out == f"OK: {PACKED_EXAMPLES[example]} elements compared\n"


def binary_conv_inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    return rng.integers(0, 2, (4, 6, 8, 8), dtype=np.uint8), rng.integers(
        0, 2, (2, 6, 3, 3), dtype=np.uint8
    )


def binary_conv_reference(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Bits as ±1 (0 → +1, 1 → -1), correlated over 3x3 windows."""
    signs_x = 1 - 2 * x.astype(np.int64)
    signs_w = 1 - 2 * w.astype(np.int64)
    windows = sliding_window_view(signs_x, (3, 3), axis=(2, 3))  # n, c, oh, ow, kh, kw
    return np.einsum("ncyxhw,kchw->nkyx", windows, signs_w)


def matmul_inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(8)
    a = rng.integers(-128, 128, (4, 16)).astype(np.int8)
    b = rng.integers(-8, 8, (16, 8)).astype(np.int8)
    return a, b


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("implementation", ["int", "vector"])
def test_binary_conv_lowered_equals_numpy(implementation: str, engine: str) -> None:
    lowered = lower((EXAMPLES / f"binary_conv_nhwc6_{implementation}.mlir").read_text())
    x, w = binary_conv_inputs()
    *_, output = run_lowered(lowered, [x, w, np.zeros((4, 2, 6, 6), np.int32)], engine)
    expected = binary_conv_reference(x, w)
    assert np.abs(expected).max() <= 54 and len(np.unique(expected)) > 10
    assert np.array_equal(output, expected)


@pytest.mark.parametrize("implementation", ["int", "vector"])
def test_binary_conv_natively_equals_numpy(implementation: str, native_runner) -> None:  # type: ignore[no-untyped-def]
    lowered = lower((EXAMPLES / f"binary_conv_nhwc6_{implementation}.mlir").read_text())
    pattern = {"int": r"arith\.shrui .* : i6", "vector": r"vector\.extract .* from vector<6xi1>"}
    assert re.search(pattern[implementation], lowered), lowered
    x, w = binary_conv_inputs()
    args = [
        NativeArg(x, "i1"),
        NativeArg(w, "i1"),
        NativeArg(np.zeros((4, 2, 6, 6), np.int64), "i32"),
    ]
    *_, output = run_natively(native_runner, lowered, args)
    assert np.array_equal(output, binary_conv_reference(x, w))


@pytest.mark.parametrize("engine", ENGINES)
def test_int4_matmul_lowered_equals_numpy(engine: str) -> None:
    lowered = lower((EXAMPLES / "matmul_int4_weights.mlir").read_text())
    # 16x8 int4 weights, two per byte: 64 bytes, read with a shift and a truncation to i4.
    assert "memref.alloc() : memref<8x8xi8>" in lowered
    assert re.search(r"arith\.trunci %\w+ : i8 to i4", lowered)
    a, b = matmul_inputs()
    *_, c = run_lowered(lowered, [a, b, np.zeros((4, 8), np.int32)], engine)
    assert np.array_equal(c, a.astype(np.int64) @ b.astype(np.int64))


def test_int4_matmul_natively_equals_numpy(native_runner) -> None:  # type: ignore[no-untyped-def]
    lowered = lower((EXAMPLES / "matmul_int4_weights.mlir").read_text())
    a, b = matmul_inputs()
    args = [NativeArg(a, "i8"), NativeArg(b, "i4"), NativeArg(np.zeros((4, 8), np.int64), "i32")]
    *_, c = run_natively(native_runner, lowered, args)
    assert np.array_equal(c, a.astype(np.int64) @ b.astype(np.int64))


@pytest.mark.parametrize("engine", ENGINES)
def test_int8_4n_tensor_lowered_equals_numpy(engine: str) -> None:
    lowered = lower((EXAMPLES / "tensor_int8_4n.mlir").read_text())
    # 4 lanes of 128 i32 words: 2 N-words x 64 (N stride), 2 channel rows x 32 (C stride).
    assert "memref.alloc() : memref<4x128xi32>" in lowered
    rng = np.random.default_rng(9)
    x = rng.integers(-128, 128, (6, 5, 4, 5)).astype(np.int8)
    bias = rng.integers(-128, 128, 5).astype(np.int8)
    *_, out = run_lowered(lowered, [x, bias, np.zeros((6, 5, 4, 5), np.int8)], engine)
    expected = np.maximum(wrap(x.astype(np.int64) + bias[None, :, None, None], 8), 0)
    assert np.array_equal(out.astype(np.int64), expected)


def test_every_packed_example_has_a_public_main_with_memref_arguments() -> None:
    for example in PACKED_EXAMPLES:
        text = (EXAMPLES / example).read_text()
        match = re.search(r"func\.func @main\(([^)]*)\)", text)
        assert match is not None, example
        arguments = [a.strip() for a in match.group(1).split(",")]
        assert all(": memref<" in a for a in arguments), (example, arguments)
        assert "pack = " in text and f"layout-run examples/{example} --check" in text


# ---- Sophgo storage modes 2N and 2IC ------------------------------------------------------------
MODES = {
    # mode: (layout, shape, element, compute %z from %x, numpy of the same)
    "2N": (
        '#layout.tpu<lanes = 4, start = 3, mode = "2N", pack = i32, pad = -7>',
        (3, 5, 4, 5),
        "i16",
        "%z = arith.muli %x, %k : i16",
        lambda x: wrap(x.astype(np.int64) * 3, 16),
    ),
    "2IC": (
        '#layout.tpu<lanes = 4, mode = "2IC", pack = vector<2xf32>>',
        (3, 5, 2, 2),
        "f32",
        "%z = arith.mulf %x, %k : f32",
        lambda x: x * np.float32(3),
    ),
}

MODE_PROGRAM = """
func.func @main(%in: memref<SHAPE>, %out: memref<SHAPE>) {
  %k = arith.constant THREE : ELEMENT
  %t = memref.alloc() : memref<SHAPE, LAYOUT>
  affine.for %i = 0 to D0 {
    affine.for %j = 0 to D1 {
      affine.for %h = 0 to D2 {
        affine.for %w = 0 to D3 {
          %x = affine.load %in[%i, %j, %h, %w] : memref<SHAPE>
          COMPUTE
          affine.store %z, %t[%i, %j, %h, %w] : memref<SHAPE, LAYOUT>
        }
      }
    }
  }
  layout.convert %t to %out : memref<SHAPE, LAYOUT> to memref<SHAPE>
  func.return
}
"""


def mode_program(mode: str) -> str:
    layout, shape, element, compute, _ = MODES[mode]
    text = MODE_PROGRAM.replace("SHAPE", "x".join(map(str, shape)) + "x" + element)
    for dim, extent in enumerate(shape):
        text = text.replace(f"D{dim}", str(extent))
    three = "3.0" if element == "f32" else "3"
    return (
        text.replace("LAYOUT", layout)
        .replace("ELEMENT", element)
        .replace("THREE", three)
        .replace("COMPUTE", compute)
    )


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("mode", MODES)
def test_storage_modes_2n_and_2ic(mode: str, engine: str) -> None:
    _, shape, element, _, reference = MODES[mode]
    text = mode_program(mode)
    lowered = lower(text)
    # 2N: N = 3 in 2 words; C = 5 from lane 3 takes 2 rows of 32 words (H·W = 20 rounded up
    # to 128 bytes): 2 · 64. 2IC: I = 3 in 2 words, 2 rows of 16 (H·W = 4 rounded up): 2 · 32.
    storage = {"2N": "memref<4x128xi32>", "2IC": "memref<4x64xvector<2xf32>>"}[mode]
    assert f"memref.alloc() : {storage}" in lowered
    rng = np.random.default_rng(10)
    if element == "f32":
        x = rng.uniform(-1, 1, shape).astype(np.float32)
    else:
        x = rng.integers(-(1 << 15), 1 << 15, shape).astype(np.int16)
    *_, out = run_lowered(lowered, [x, np.zeros_like(x)], engine)
    assert np.array_equal(out.astype(np.float64), reference(x).astype(np.float64))
    assert (
        str(heterolayout.check(text, seed=11, engine=engine))
        == f"OK: {2 * math.prod(shape)} elements compared"
    )


# ---- bugs found ---------------------------------------------------------------------------------------
UNSIGNED = """
func.func @main(%x: memref<8xui4, #layout.tag<"W->W2w", pack = i8>>, %y: memref<8xui4>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %v = memref.load %x[%c3] : memref<8xui4, #layout.tag<"W->W2w", pack = i8>>
  memref.store %v, %y[%c0] : memref<8xui4>
  func.return
}
"""


def test_unsigned_packed_elements_are_refused_by_name(tmp_path: Path) -> None:
    """Upstream arith shifts and truncates signless integers only: a packed ui4 is refused
    with a message naming the type, never lowered into IR that mlir-opt rejects."""
    from heterolayout.tools.opt import main as layout_opt

    source = tmp_path / "unsigned.mlir"
    source.write_text(UNSIGNED)
    output = io.StringIO()
    with contextlib.redirect_stderr(output), contextlib.redirect_stdout(io.StringIO()):
        code = layout_opt([str(source), "-p", "layout-lower"])
    assert code == 1
    assert "signless lanes only" in output.getvalue()
    assert "ui4" in output.getvalue()


def test_any_bit_order_on_a_vector_pack_is_refused() -> None:
    text = """
func.func @f(%m: memref<2x12xi1, #layout.tag<"RW->RW6w", pack = vector<6xi1>, bit_order = "lsb">>) {
  func.return
}
"""
    with pytest.raises(Exception, match="a vector container has no bit order"):
        parse_program(text)
