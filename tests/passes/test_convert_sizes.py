"""Conversions right at every size: `layout.convert` between a plain buffer and every layout
kind, and between layouts, on both sides of each size threshold of the conversion code, and
`Layout.pack`/`unpack`, which compile the same conversion for large arrays.

The thresholds: `convert_loops.VECTOR_MIN_SLOTS` (a destination of at least that many slots
takes the tiled or whole-container path, a smaller one the scalar loop nest),
`convert_tiles.STREAMING_BYTES` (tiles store nontemporally from there) and
`execution.native.packing.NATIVE_MIN_ELEMENTS` (`Layout.pack`/`unpack` compile the conversion from
there). Each lowered conversion runs on the compiled engine (and natively above the tiled
size) and its destination is compared, pad slots and unused container bits included, with
the buffer written out here from the Layout's index map (`Layout.offsets`) and containers
assembled bit by bit; each is proven by translation validation (`validate=verbose`).
"""

from __future__ import annotations

import contextlib
import functools
import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import MemRefType, ModuleOp

import heterolayout
from heterolayout import Layout, parse_layout
from heterolayout.dialects.context import make_context, parse_program
from heterolayout.dialects.conversion import layout_of
from heterolayout.execution.arguments import random_arguments
from heterolayout.execution.entry import find_function
from heterolayout.execution.native import packing as native_packing
from heterolayout.execution.runtime.memref import memref_info
from heterolayout.passes.convert.loops import VECTOR_MIN_SLOTS
from heterolayout.passes.convert.packed import packs_whole_containers
from heterolayout.passes.convert.tiles import STREAMING_BYTES, tile_plan
from heterolayout.passes.lower.layout_lower import LayoutLowerPass
from heterolayout.passes.physical import identity_layout
from heterolayout.tools import run as run_tool
from tests import planted_bugs

Family = Callable[[int], tuple[int, ...]]
Spec = str | Callable[[int], str]
"""A layout attribute, or one for each n (an explicit physical shape that grows with it)."""


def spec_at(spec: Spec, n: int) -> str:
    return spec if isinstance(spec, str) else spec(n)


@dataclass(frozen=True)
class Kind:
    spec: Spec
    """The memref's layout attribute."""
    shape: Family
    """Logical shapes, growing with n."""
    element: str
    tiles: tuple[str, ...] = ()
    """The directions ("pack": plain into the layout, "unpack": back) that take the vector
    path (tiles or whole containers) above the tiled size; the others keep the scalar nest."""


HETEROCL_CYCLIC = "affine_map<(d0, d1) -> (d0 mod 4, d1 mod 4, d0 floordiv 4, d1 floordiv 4)>"
CROUTON = "#layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>"
BOTH = ("pack", "unpack")
KINDS: dict[str, Kind] = {
    "tag-NC8c": Kind('#layout.tag<"NC->NC8c">', lambda n: (n, 60), "f32", BOTH),
    "tag-NC8c-pad": Kind('#layout.tag<"NC->NC8c", pad = -1.0>', lambda n: (n, 61), "f32", BOTH),
    "tag-nChw16c": Kind('#layout.tag<"nChw16c">', lambda n: (1, 20, 9, n), "f32", BOTH),
    "tag-nhwc": Kind('#layout.tag<"nhwc">', lambda n: (1, 5, 9, n), "f64", BOTH),
    "tag-CN": Kind('#layout.tag<"NC->CN">', lambda n: (n, 64), "i16", BOTH),
    "tag-OIhw16i16o": Kind('#layout.tag<"OIhw16i16o">', lambda n: (16, 16, n, 3), "f32", BOTH),
    "chunked-crouton": Kind(CROUTON, lambda n: (1, 8, n, 32), "i8", BOTH),
    "map-tiled": Kind(
        "#layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>",
        lambda n: (n, 64),
        "f32",
        BOTH,
    ),
    "map-heterocl-cyclic": Kind(f"#layout.map<{HETEROCL_CYCLIC}>", lambda n: (n, 64), "f32"),
    "map-rest-innermost": Kind(
        "#layout.map<affine_map<(d0, d1) -> (d1 mod 8, d0, d1 floordiv 8)>>",
        lambda n: (n, 64),
        "i32",
    ),
    "map-strided-innermost": Kind(
        "#layout.map<affine_map<(d0, d1) -> (d0, d1 * 2)>>", lambda n: (n, 64), "f32"
    ),
    "map-reversed": Kind(
        "#layout.map<affine_map<(d0, d1) -> (d0, -d1 + 63)>>", lambda n: (n, 64), "i32"
    ),
    "map-shape": Kind(
        lambda n: (
            f"#layout.map<affine_map<(d0, d1) -> (d1, d0)>, shape = [34, {n + 3}], pad = 5.0>"
        ),
        lambda n: (n, 32),
        "f32",
    ),
    "builtin-tiled": Kind(
        "affine_map<(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)>", lambda n: (n, 64), "f32", BOTH
    ),
    "builtin-cyclic": Kind(
        "affine_map<(d0, d1) -> (d1 mod 4, d0, d1 floordiv 4)>", lambda n: (n, 64), "f32"
    ),
    "partition-cyclic": Kind(
        "#layout.partition<cyclic, dims = [1], factor = 4>", lambda n: (n, 128), "f32"
    ),
    "partition-cyclic-outer": Kind(
        "#layout.partition<cyclic, dims = [0], factor = 4>", lambda n: (n, 64), "f32", BOTH
    ),
    "partition-block": Kind(
        "#layout.partition<block, dims = [1], factor = 4>", lambda n: (n, 100), "f32"
    ),
    "partition-complete": Kind("#layout.partition<complete, dims = [1]>", lambda n: (n, 16), "f32"),
    "partition-two-dims": Kind(
        "#layout.partition<[cyclic, block], dims = [0, 1], factor = [2, 4]>",
        lambda n: (n, 64),
        "i32",
        BOTH,
    ),
    "tpu-aligned": Kind(
        "#layout.tpu<lanes = 4, start = 2, stride = aligned>", lambda n: (n, 6, 5, 7), "f32"
    ),
    "tpu-compact": Kind(
        "#layout.tpu<lanes = 4, start = 1, stride = compact>", lambda n: (n, 6, 5, 7), "f32"
    ),
    "tpu-4N-i32": Kind(
        '#layout.tpu<lanes = 4, start = 0, stride = aligned, mode = "4N", pack = i32>',
        lambda n: (n, 5, 4, 5),
        "i8",
    ),
    "tpu-2IC-vector": Kind(
        '#layout.tpu<lanes = 4, start = 1, stride = compact, mode = "2IC", pack = vector<2xf32>>',
        lambda n: (n, 5, 2, 2),
        "f32",
    ),
    "strided-rows": Kind("strided<[70, 1], offset: 3>", lambda n: (n, 64), "f32", ("unpack",)),
    "strided-columns": Kind("strided<[1, 80]>", lambda n: (64, n), "f32", ("unpack",)),
    "pack-i8-bits": Kind(
        '#layout.tag<"NHWC->NHWC8c", pack = i8>', lambda n: (1, n, 9, 60), "i1", ("pack",)
    ),
    "pack-i8-msb-pad": Kind(
        '#layout.tag<"NHWC->NHWC8c", pack = i8, bit_order = "msb", pad = 1>',
        lambda n: (1, n, 9, 61),
        "i1",
        ("pack",),
    ),
    "pack-i6-bits": Kind(
        '#layout.tag<"NHWC->NHWC6c", pack = i6>', lambda n: (1, n, 4, 12), "i1", ("pack",)
    ),
    "pack-i32-nibbles": Kind(
        '#layout.tag<"NC->NC8c", pack = i32>', lambda n: (n, 60), "i4", ("pack",)
    ),
    "pack-i32-bytes-outer": Kind(
        '#layout.tag<"NC->CN4n", pack = i32>', lambda n: (n, 80), "i8", ("pack",)
    ),
    "pack-vector-bits": Kind(
        '#layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>', lambda n: (1, n, 9, 60), "i1", ("pack",)
    ),
    "pack-vector-f32": Kind(
        '#layout.tag<"MK->MK4k", pack = vector<4xf32>>', lambda n: (n, 62), "f32", ("pack",)
    ),
    "pack-partition-cyclic": Kind(
        "#layout.partition<cyclic, dims = [1], factor = 4, pack = i32>",
        lambda n: (n, 128),
        "i1",
        ("pack",),
    ),
    "pack-map-cyclic-vector": Kind(
        "#layout.map<affine_map<(d0, d1) -> (d1 mod 4, d0, d1 floordiv 4)>, pack = vector<8xi1>>",
        lambda n: (n, 32),
        "i1",
        ("pack",),
    ),
}
BETWEEN: dict[str, tuple[str, str]] = {
    "nChw8c-to-nChw16c": ("tag-nChw16c", '#layout.tag<"nChw8c">'),
    "cyclic-to-CN": ("partition-cyclic", '#layout.tag<"NC->CN">'),
    "heterocl-to-cyclic": (
        "map-heterocl-cyclic",
        "#layout.partition<cyclic, dims = [1], factor = 4>",
    ),
    "tiled-map-to-CN": ("map-tiled", '#layout.tag<"NC->CN">'),
    "CN-to-unit-digit-first": (
        "tag-CN",
        "#layout.map<affine_map<(d0, d1) -> (d0 mod 8, d0 floordiv 8, d1)>>",
    ),
    "nChw16c-to-channels-cyclic": (
        "tag-nChw16c",
        "#layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d1 mod 4, d2, d3, d1 floordiv 4)>>",
    ),
    "block-to-cyclic-outer": (
        "partition-block",
        "#layout.partition<cyclic, dims = [0], factor = 2>",
    ),
    "bits-to-nchw": ("pack-i8-bits", '#layout.tag<"NHWC->NCHW">'),
    "strided-to-NC8c": ("strided-rows", '#layout.tag<"NC->NC8c">'),
    "tpu-to-nhwc": ("tpu-aligned", '#layout.tag<"nhwc">'),
}
"""Conversions between two layouts: a kind and the other side's attribute, each both ways
("there": from the kind to the other layout, "back": the reverse)."""
BETWEEN_TILES = {
    ("nChw8c-to-nChw16c", "there"),
    ("nChw8c-to-nChw16c", "back"),
    ("tiled-map-to-CN", "there"),
    ("tiled-map-to-CN", "back"),
    ("CN-to-unit-digit-first", "there"),
    ("CN-to-unit-digit-first", "back"),
    ("bits-to-nchw", "back"),
    ("strided-to-NC8c", "there"),
}
"""The conversions between layouts that take the vector path above the tiled size."""


def memref_type(spec: str, shape: tuple[int, ...], element: str) -> str:
    dims = "x".join(str(e) for e in shape)
    return f"memref<{dims}x{element}{', ' + spec if spec else ''}>"


def convert_program(source: str, destination: str) -> str:
    return (
        f"func.func @main(%a: {source}, %b: {destination}) {{\n"
        f"  layout.convert %a to %b : {source} to {destination}\n"
        "  func.return\n}\n"
    )


@dataclass(frozen=True)
class Case:
    source: Spec
    destination: Spec
    shape: Family
    element: str
    tiles: bool

    def program(self, n: int) -> str:
        shape = self.shape(n)
        return convert_program(
            memref_type(spec_at(self.source, n), shape, self.element),
            memref_type(spec_at(self.destination, n), shape, self.element),
        )


def case_of(name: str, direction: str) -> Case:
    if direction in ("pack", "unpack"):
        kind = KINDS[name]
        sides = ("", kind.spec) if direction == "pack" else (kind.spec, "")
        return Case(*sides, kind.shape, kind.element, direction in kind.tiles)
    kind_name, other = BETWEEN[name]
    kind = KINDS[kind_name]
    sides = (kind.spec, other) if direction == "there" else (other, kind.spec)
    return Case(*sides, kind.shape, kind.element, (name, direction) in BETWEEN_TILES)


def layouts(text: str) -> tuple[Layout, Layout, MemRefType]:
    """The source's and destination's Layouts (plain memrefs: the identity), and the
    destination's type."""
    function = find_function(parse_program(text), "main")
    types = function.function_type.inputs.data
    found = [layout_of(t) or identity_layout(t) for t in types]  # type: ignore[arg-type]
    return found[0], found[1], types[1]  # type: ignore[return-value]


def destination_size(case: Case, n: int) -> int:
    return layouts(case.program(n))[1].size


@functools.cache
def last_below(name: str, direction: str, threshold: int) -> int:
    """The largest n whose destination has fewer than `threshold` slots."""
    case = case_of(name, direction)
    low, high = 1, 2
    assert destination_size(case, low) < threshold, f"{name}: the family starts too large"
    while destination_size(case, high) < threshold:
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if destination_size(case, middle) < threshold else (low, middle)
    return low


# ---- the physical buffers, written out independently ----------------------------------------
def physical_image(layout: Layout, logical: np.ndarray) -> np.ndarray:
    """The physical buffer holding `logical`: each element at its slot of the index map
    (`Layout.offsets`, memory order), the pad value in every other slot; an integer
    container is the OR of its lanes' bits shifted to their places, unused bits zero."""
    flat = np.full(layout.size, layout.pad).astype(logical.dtype)
    flat[layout.offsets().ravel()] = logical.ravel()
    slots = flat.reshape(layout.static_physical_shape)
    packing = layout.packing
    if packing is None or packing.is_vector:
        return slots
    assert layout.dtype is not None
    bits, width = layout.dtype.bits, packing.container_bits
    words = np.zeros(slots.shape[:-1], dtype=np.uint64)
    for lane in range(slots.shape[-1]):
        shift = lane * bits if packing.bit_order == "lsb" else width - (lane + 1) * bits
        field = slots[..., lane].astype(np.int64) & ((1 << bits) - 1)
        words |= field.astype(np.uint64) << np.uint64(shift)
    return words


def container_bits(array: np.ndarray, width: int) -> np.ndarray:
    """The low `width` bits of each container, as unsigned numbers."""
    unsigned = array.astype(np.int64).astype(np.uint64)
    return unsigned & np.uint64((1 << width) - 1) if width < 64 else unsigned


def argument(image: np.ndarray, lowered: MemRefType, layout: Layout) -> np.ndarray:
    """`image` as the lowered function's argument of type `lowered`."""
    info = memref_info(lowered)
    packing = layout.packing
    if packing is not None and not packing.is_vector:
        width = packing.container_bits
        signed = image.astype(np.int64)
        if width < 64:
            signed = np.where(signed >= 1 << (width - 1), signed - (1 << width), signed)
        image = signed
    shape = tuple(e for e in info.shape if e is not None) + info.lanes
    return np.ascontiguousarray(image.astype(info.element.numpy_dtype).reshape(shape))


def same_buffer(actual: np.ndarray, expected: np.ndarray, layout: Layout) -> str | None:
    """None when the buffers hold the same bits (containers: their low bits), else where
    they first differ."""
    packing = layout.packing
    if packing is not None and not packing.is_vector:
        width = packing.container_bits
        actual, expected = container_bits(actual, width), container_bits(expected, width)
    actual = np.ascontiguousarray(actual).reshape(-1)
    expected = np.ascontiguousarray(expected.astype(actual.dtype)).reshape(-1)
    differs = actual.view(np.uint8).reshape(actual.size, -1) != expected.view(np.uint8).reshape(
        expected.size, -1
    )
    wrong = np.flatnonzero(differs.any(axis=1))
    if not wrong.size:
        return None
    slot = int(wrong[0])
    held = layout.inverse().at_offset(slot) if packing is None else None
    return (
        f"{wrong.size} of {actual.size} slots differ; slot {slot} (logical {held}) holds "
        f"{actual[slot]!r}, expected {expected[slot]!r}"
    )


# ---- lowering and running -------------------------------------------------------------------
@functools.cache
def lowered_program(
    text: str, options: tuple[tuple[str, object], ...] = ()
) -> tuple[ModuleOp, str]:
    """`layout-lower{validate=verbose}` of `text`: the module and the validator's remarks."""
    module = parse_program(text)
    remarks = io.StringIO()
    with contextlib.redirect_stderr(remarks):
        LayoutLowerPass(validate="verbose", **dict(options)).apply(make_context(), module)  # type: ignore[arg-type]
    return module, remarks.getvalue()


def check_moves(
    text: str, engine: str, options: tuple[tuple[str, object], ...] = ()
) -> tuple[ModuleOp, str]:
    """Lower the conversion, prove it, run it on seeded data with a destination full of a
    sentinel, and compare the destination with the buffer written out from the index map."""
    source, destination, _ = layouts(text)
    logical = random_arguments(find_function(parse_program(text), "main"), 5)[0]
    module, remarks = lowered_program(text, options)
    elements = math.prod(source.static_logical_shape)
    assert f"layout.convert proven exhaustively over {elements} element accesses" in remarks, (
        remarks
    )
    lowered_types = find_function(module, "main").function_type.inputs.data
    source_buffer = argument(physical_image(source, logical), lowered_types[0], source)  # type: ignore[arg-type]
    expected = argument(physical_image(destination, logical), lowered_types[1], destination)  # type: ignore[arg-type]
    sentinel = 2 if expected.dtype.kind in "ub" else -3
    destination_buffer = np.full(expected.shape, sentinel).astype(expected.dtype)
    heterolayout.run(module, "main", [source_buffer, destination_buffer], engine=engine)
    difference = same_buffer(destination_buffer, expected, destination)
    assert difference is None, f"{engine}: {difference}\n{text}"
    return module, remarks


def takes_vector_path(text: str) -> bool:
    """What the conversion code chooses for this conversion: tiles of vectors or whole
    containers (asked of it, not read off the output)."""
    source, destination, kind = layouts(text)
    if destination.size < VECTOR_MIN_SLOTS:
        return False
    return tile_plan(source, destination, kind.element_type) is not None or packs_whole_containers(
        source, destination
    )


SIZE_CASES = [
    (name, direction, side, engine)
    for name in KINDS
    for direction in ("pack", "unpack")
    for side, engines in (("below", ("compiled",)), ("above", ("compiled", "native")))
    for engine in engines
] + [
    (name, direction, side, engine)
    for name in BETWEEN
    for direction in ("there", "back")
    for side, engines in (("below", ("compiled",)), ("above", ("compiled", "native")))
    for engine in engines
]


@pytest.mark.parametrize(("name", "direction", "side", "engine"), SIZE_CASES)
def test_conversions_on_both_sides_of_the_tiled_size(
    name: str, direction: str, side: str, engine: str
) -> None:
    """Just under `VECTOR_MIN_SLOTS` destination slots (the scalar nest) and just over it
    (tiles or whole containers where the layouts allow, the scalar nest otherwise)."""
    case = case_of(name, direction)
    n = last_below(name, direction, VECTOR_MIN_SLOTS) + (side == "above")
    text = case.program(n)
    assert (destination_size(case, n) >= VECTOR_MIN_SLOTS) == (side == "above")
    assert takes_vector_path(text) == (case.tiles and side == "above"), text
    check_moves(text, engine)


OPTION_CASES = [
    "tag-nChw16c",
    "map-heterocl-cyclic",
    "partition-cyclic",
    "pack-i8-msb-pad",
    "pack-vector-bits",
]


@pytest.mark.parametrize("direction", ["pack", "unpack"])
@pytest.mark.parametrize("name", OPTION_CASES)
def test_conversions_with_flat_buffers_and_affine_index_code(name: str, direction: str) -> None:
    case = case_of(name, direction)
    text = case.program(last_below(name, direction, VECTOR_MIN_SLOTS) + 1)
    check_moves(text, "compiled", (("flatten", True), ("index", "affine")))


GPU_CASES = ["tag-nChw16c", "partition-cyclic", "map-heterocl-cyclic", "tag-CN"]


@pytest.mark.parametrize("direction", ["pack", "unpack"])
@pytest.mark.parametrize("name", GPU_CASES)
def test_gpu_conversions_above_the_tiled_size(name: str, direction: str) -> None:
    """`convert=gpu` (a kernel in the destination's memory order, or a shared-memory tile
    transpose), run by the compiled engine against the program before lowering."""
    case = case_of(name, direction)
    n = last_below(name, direction, VECTOR_MIN_SLOTS) + 1
    report = heterolayout.check(case.program(n), "layout-lower{convert=gpu}", seed=3)
    assert str(report) == f"OK: {2 * math.prod(case.shape(n))} elements compared"


# ---- the programs of issue 26 ----------------------------------------------------------------
REGRESSIONS = {
    "vivado-cyclic-partition": """
func.func @main(%a: memref<64x128xf32>) -> memref<64x128xf32, #layout.partition<cyclic, dims = [1], factor = 4>> {
  %b = memref.alloc() : memref<64x128xf32, #layout.partition<cyclic, dims = [1], factor = 4>>
  layout.convert %a to %b : memref<64x128xf32> to memref<64x128xf32, #layout.partition<cyclic, dims = [1], factor = 4>>
  return %b : memref<64x128xf32, #layout.partition<cyclic, dims = [1], factor = 4>>
}
""",
    "vivado-cyclic-partition-copy": """
func.func @main(%a: memref<64x128xf32>, %b: memref<64x128xf32, #layout.partition<cyclic, dims = [1], factor = 4>>) {
  memref.copy %a, %b : memref<64x128xf32> to memref<64x128xf32, #layout.partition<cyclic, dims = [1], factor = 4>>
  return
}
""",
    "heterocl-cyclic-map": """
func.func @main(%a: memref<256x256xf32>, %b: memref<256x256xf32, #layout.map<MAP>>) {
  layout.convert %a to %b : memref<256x256xf32> to memref<256x256xf32, #layout.map<MAP>>
  return
}
""".replace("MAP", HETEROCL_CYCLIC),
}


@pytest.mark.parametrize("engine", ["compiled", "native"])
@pytest.mark.parametrize("name", sorted(REGRESSIONS))
def test_layout_run_check_of_cyclic_destinations(
    name: str, engine: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 26: into a layout whose innermost physical dim is `d floordiv 4`, the tiled
    path stored logical (0, 4) from source slot 1."""
    path = tmp_path / f"{name}.mlir"
    path.write_text(REGRESSIONS[name])
    code = run_tool.main([str(path), "--check", "--engine", engine])
    out = capsys.readouterr().out
    elements = 2 * 64 * 128 if name.startswith("vivado") else 2 * 256 * 256
    assert (code, out) == (0, f"OK: {elements} elements compared\n")


# ---- Layout.pack / unpack: numpy below NATIVE_MIN_ELEMENTS, the compiled conversion above ------
@pytest.mark.parametrize("rows", [1020, 1024])
def test_pack_and_unpack_of_the_heterocl_cyclic_map(rows: int, native_engine: None) -> None:
    """Issue 26: at 1024x1024 the compiled conversion round-tripped 786,432 of 1,048,576
    elements wrong. 1020 rows stay under the native size on both sides (the physical
    buffer has 255 rows of banks, not 256); 1024 rows reach it on both."""
    layout = parse_layout(HETEROCL_CYCLIC, (rows, 1024), dtype="f32")
    element = layout.dtype
    assert element is not None
    native = rows * 1024 >= native_packing.NATIVE_MIN_ELEMENTS
    assert native_packing.wants_native(layout, element, rows * 1024, None) == native
    assert native_packing.wants_native(layout, element, layout.size, None) == native
    logical = np.arange(rows * 1024, dtype=np.float32).reshape(rows, 1024)
    packed = layout.pack(logical)
    assert np.array_equal(packed, physical_image(layout, logical))
    assert np.array_equal(layout.unpack(packed), logical)
    plain, typed = (
        memref_type(spec, (rows, 1024), "f32") for spec in ("", f"#layout.map<{HETEROCL_CYCLIC}>")
    )
    for text in (convert_program(plain, typed), convert_program(typed, plain)):
        _, remarks = lowered_program(text)
        proven = f"layout.convert proven exhaustively over {rows * 1024} element accesses"
        assert proven in remarks, remarks


@pytest.mark.slow
@pytest.mark.parametrize("width", [127, 128])
def test_streaming_tiles_on_both_sides_of_their_size(width: int, native_engine: None) -> None:
    """1x128x129xW f32: at W = 128 the destinations hold 8 MiB and the tiles store
    nontemporally (into nChw16c always, into NCHW from nChw8c where the buffer is
    line-aligned); at 127 they do not. (129 rows: planes of 128 rows would lie a multiple
    of 4 KiB apart, read in line tiles without streaming stores.) Packed and
    unpacked by the compiled conversion (forced below `NATIVE_MIN_ELEMENTS`) against the
    index map, and proven."""
    from xdsl.dialects.builtin import f32

    shape = (1, 128, 129, width)
    plain = parse_layout("NCHW->NCHW", shape, dtype="f32")
    logical = np.random.default_rng(7).standard_normal(shape).astype(np.float32)
    for tag, streams in (("nChw16c", ("always", "never")), ("nChw8c", ("always", "aligned"))):
        blocked = parse_layout(tag, shape, dtype="f32")
        assert (blocked.size * 4 >= STREAMING_BYTES) == (width == 128)
        pack_plan, unpack_plan = tile_plan(plain, blocked, f32), tile_plan(blocked, plain, f32)
        assert pack_plan is not None and unpack_plan is not None
        wanted = streams if width == 128 else ("never", "never")
        assert (pack_plan.streaming, unpack_plan.streaming) == wanted
        packed = blocked.pack(logical, native=True)
        assert np.array_equal(packed, physical_image(blocked, logical))
        assert np.array_equal(blocked.unpack(packed, native=True), logical)
        typed = f'#layout.tag<"{tag}">'
        for source, destination, plan in (("", typed, pack_plan), (typed, "", unpack_plan)):
            text = convert_program(
                memref_type(source, shape, "f32"), memref_type(destination, shape, "f32")
            )
            _, remarks = lowered_program(text)
            # an alignment test at run time: both branches move every element
            moves = math.prod(shape) * (2 if plan.streaming == "aligned" else 1)
            assert f"layout.convert proven exhaustively over {moves} element accesses" in remarks


# ---- layout-run --check proves the conversions it lowers --------------------------------------
PADDED = """func.func @main(%a: memref<5x13xi32>) -> memref<5x13xi32, #layout.tag<"NC->NC8c">> {
  %b = memref.alloc() : memref<5x13xi32, #layout.tag<"NC->NC8c">>
  layout.convert %a to %b : memref<5x13xi32> to memref<5x13xi32, #layout.tag<"NC->NC8c">>
  return %b : memref<5x13xi32, #layout.tag<"NC->NC8c">>
}
"""


def test_check_proves_the_conversions_it_lowers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A conversion that writes an element into the destination's pad slots: the seeded
    run, compared in logical form, cannot see it; the proof `--check` runs can, and says
    so in one line (exit 1)."""
    path = tmp_path / "padded.mlir"
    path.write_text(PADDED)
    assert run_tool.main([str(path), "--check"]) == 0
    assert capsys.readouterr() == ("OK: 130 elements compared\n", "")
    with planted_bugs.pad_slots_get_an_element():
        assert str(heterolayout.check(PADDED, validate=False)) == "OK: 130 elements compared"
        code = run_tool.main([str(path), "--check"])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "")
    assert err == (
        f"layout-run: error: layout-lower: translation validation: layout.convert at {path}:3:3 "
        "is not proven: 80 elements moved, the layouts have 65\n"
    )


def test_check_names_each_conversion_it_cannot_prove(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A conversion of a dynamic shape has no constant loop bounds to check: a remark on
    stderr, never silence; the seeded comparison still decides."""
    path = tmp_path / "dynamic.mlir"
    path.write_text(
        """func.func @main(%a: memref<?x8xf32>, %b: memref<?x8xf32, #layout.tag<"NC->CN">>) {
  layout.convert %a to %b : memref<?x8xf32> to memref<?x8xf32, #layout.tag<"NC->CN">>
  return
}
"""
    )
    assert run_tool.main([str(path), "--check"]) == 0
    out, err = capsys.readouterr()
    assert out == "OK: 128 elements compared\n"
    assert err == (
        f"{path}:2:3: remark: layout.convert not checked: its loops have no constant bounds "
        "(a dynamic shape)\n"
    )


WRAPPED = [
    "tag-NC8c-pad",
    "chunked-crouton",
    "map-shape",
    "map-heterocl-cyclic",
    "tpu-4N-i32",
    "pack-i8-msb-pad",
    "pack-i6-bits",
    "pack-i32-nibbles",
    "pack-vector-bits",
    "pack-vector-f32",
    "pack-partition-cyclic",
]
"""Kinds whose element type, containers or pad the native pack/unpack handles itself (its
conversions are those of the size tests above)."""


@pytest.mark.parametrize("name", WRAPPED)
def test_pack_and_unpack_by_numpy_and_by_the_compiled_conversion(
    name: str, native_engine: None
) -> None:
    """`Layout.pack`/`unpack` both ways (numpy, and the compiled conversion that large
    arrays take, forced here) at the tiled size, against the buffer written out from the
    index map: the native path's own handling (element types, containers, pads) included."""
    case = case_of(name, "pack")
    text = case.program(last_below(name, "pack", VECTOR_MIN_SLOTS) + 1)
    _, layout, _ = layouts(text)
    logical = random_arguments(find_function(parse_program(text), "main"), 11)[0]
    image = physical_image(layout, logical)
    for native in (False, True):
        packed = layout.pack(logical, native=native)
        assert same_buffer(packed, image, layout) is None, f"native={native}"
        unpacked = layout.unpack(packed, native=native)
        assert unpacked.shape == logical.shape
        assert same_buffer(unpacked, logical, layout.with_params(packing=None)) is None
