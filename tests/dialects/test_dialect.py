"""The layout dialect: attributes <-> Layout, memref types -> Layout, the verification walk,
and `layout-opt`'s error behaviour.

Expected maps, shapes and offsets are written out by hand from DESIGN.md's rules (digit
model, strides) or computed with numpy formulas per case; attribute texts must parse back
into the same attribute and the same Layout.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    BFloat16Type,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    Signedness,
    StridedLayoutAttr,
    VectorType,
    f32,
    i1,
    i8,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.parser import Parser
from xdsl.universe import Universe
from xdsl.utils.exceptions import ParseError, VerifyException

from heterolayout import LayoutError, parse_layout
from heterolayout.dialects import (
    AssignOp,
    ChunkedLayoutAttr,
    LayoutDialect,
    MapLayoutAttr,
    TagLayoutAttr,
    element_dtype,
    layout_attr,
    layout_of,
    load,
    preferred_kind,
    verify_layouts,
)
from heterolayout.dialects import (
    StridedLayoutAttr as LayoutStridedAttr,
)
from heterolayout.dialects.diagnostics import one_line
from heterolayout.dialects.upstream.parser import UpstreamParser
from heterolayout.layout.chunked import ALIASES
from heterolayout.layout.element_types import format_number
from heterolayout.tools.opt import main as layout_opt_main
from tests.paths import REPOSITORY

D = [AffineExpr.dimension(i) for i in range(4)]


def _context() -> Context:
    from xdsl.dialects import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    load(ctx)
    return ctx


CTX = _context()


def _parse_attribute(text: str):
    return Parser(CTX, text).parse_attribute()


def _memref(shape: str, element: str, layout: str | None = None) -> MemRefType:
    text = f"memref<{shape}x{element}" + (f", {layout}>" if layout else ">")
    parsed = Parser(CTX, text).parse_type()
    assert isinstance(parsed, MemRefType)
    return parsed


def _module(text: str) -> ModuleOp:
    return Parser(CTX, text, "test.mlir").parse_module()


# ---- attribute <-> Layout --------------------------------------------------------------------

SPECS = [
    ("NCHW->nChw8c", "2x17x5x4", "f32", {}),
    ("NCHW->nChw16c", "2x3x5x5", "f16", {"pad": -1.5}),
    ("OIhw16i16o", "32x20x3x3", "f32", {}),
    ("NHWC->NHWC8h2w32c2w", "1x16x8x64", "bf16", {}),
    ("nhwc", "2x?x3x4", "f32", {}),
    ("NCHW4", "1x6x2x2", "si8", {"pad": -3}),
    ("R4CroutonLayout", "1x9x10x40", "i8", {"pad": 31}),
    ("R4Crouton2x2Layout", "1x8x8x64", "ui8", {"pad": 255}),
    ("ChunkedMemoryLayout<2, 1,0, 0,0, 0,4>", "10x3", "index", {}),
    ("NHWC->NHWC6c", "1x4x4x12", "i1", {"pack": "i6"}),
    ("NHWC->NHWC6c", "1x4x4x12", "i1", {"pack": "i8", "bit_order": "msb", "pad": 1}),
    ("NHWC->NHWC6c", "1x4x4x12", "i1", {"pack": "vector<6xi1>"}),
    ("NC->NC2c", "3x4", "i4", {"pack": "i8", "pad": -8}),
    ("NC->NC4c", "3x8", "f32", {"pack": "vector<4xf32>", "pad": 0.25}),
    (
        "affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>",
        "13x10",
        "f32",
        {},
    ),
    ("affine_map<(d0, d1) -> (d1, d0)>", "4x6", "i2", {"pad": 1}),
    ("strided<[40, 1], offset: 3>", "4x30", "f32", {"pad": 2.5}),
    ("strided<[1, 3]>", "3x4", "i8", {"pad": 7}),
    ("strided<[3, 1], offset: 2>", "2x3", "i1", {"pack": "i16", "bit_order": "msb"}),
]


def _case_id(case: tuple) -> str:
    spec, shape, dtype, params = case
    return f"{spec}@{shape}x{dtype}" + "".join(f",{k}={v}" for k, v in params.items())


@pytest.mark.parametrize("case", SPECS, ids=[_case_id(c) for c in SPECS])
def test_every_notation_round_trips_through_the_attribute(case: tuple) -> None:
    spec, shape, dtype, params = case
    layout = parse_layout(spec, shape, dtype=dtype, **params)
    notations = layout.notations()
    assert "map" in notations
    for kind, text in notations.items():
        attribute = layout_attr(layout, kind)
        assert kind == attribute.KIND
        assert str(attribute) == text
        assert _parse_attribute(text) == attribute
        memref_type = _memref(shape, dtype, text)
        assert layout_of(memref_type) == layout, kind
        assert memref_type.layout.get_affine_map() == layout.index_map


def test_printing_drops_defaults_and_parses_back_equal() -> None:
    written = '#layout.tag<"NHWC->NHWC6c", bit_order = "lsb", pack = i6, pad = 0>'
    attribute = _parse_attribute(written)
    assert str(attribute) == '#layout.tag<"NHWC->NHWC6c", pack = i6>'
    assert attribute == TagLayoutAttr("NHWC->NHWC6c", pack="i6")
    typed_pad = _parse_attribute("#layout.chunked<[0,0, 1,0, 1,8], pad = 31 : i64>")
    assert str(typed_pad) == "#layout.chunked<[0, 0, 1, 0, 1, 8], pad = 31>"
    colon = _parse_attribute("#layout.strided<[40, 1], offset: 3>")
    assert str(colon) == "#layout.strided<[40, 1], offset = 3>"
    assert colon == LayoutStridedAttr([40, 1], 3)
    assert str(LayoutStridedAttr([30, 1])) == "#layout.strided<[30, 1], offset = 0>"


def test_integer_and_float_pads_stay_distinct_and_floats_keep_a_point() -> None:
    assert format_number(31) == "31"
    assert format_number(31.0) == "31.0"
    assert format_number(1e-20) == "1.0e-20"
    assert format_number(-2.5e30) == "-2.5e+30"
    for pad in (31, 31.0, -0.5, 1e-20, -2.5e30):
        attribute = TagLayoutAttr("NC->NC8c", pad=pad)
        reparsed = _parse_attribute(str(attribute))
        assert reparsed == attribute
        assert reparsed.pad_value == pad
        assert type(reparsed.pad_value) is type(pad)


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_chunked_attribute_takes_htp_text(alias: str) -> None:
    """`#layout.chunked<"R4CroutonLayout">` is the attribute of the alias's literal pairs, and
    its layout is the one `parse_layout` makes of the alias on the same memref."""
    memref_type = _memref("1x9x10x40", "i8", f'#layout.chunked<"{alias}", pad = 31>')
    layout = layout_of(memref_type)
    assert layout == parse_layout(alias, (1, 9, 10, 40), dtype="i8", pad=31)
    verbatim = _memref("1x9x10x40", "i8", f'#layout.chunked<"{ALIASES[alias]}", pad = 31>')
    assert memref_type == verbatim
    pairs = re.findall(r"(\d+),(\d+)", ALIASES[alias]) or [(d, "0") for d in range(4)]
    listed = ", ".join(f"{d}, {s}" for d, s in pairs)
    assert str(memref_type.layout) == f"#layout.chunked<[{listed}], pad = 31>"


def test_get_affine_map_is_the_multi_result_index_map() -> None:
    n, c, h, w = D
    assert TagLayoutAttr("NCHW->nChw8c").get_affine_map() == AffineMap(
        4, 0, (n, c // 8, h, w, c % 8)
    )
    crouton = ChunkedLayoutAttr([0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32])
    assert crouton.get_affine_map() == AffineMap(
        4, 0, (n, c // 8, h // 8, w // 32, c % 8, h % 8, w % 32)
    )
    # Two blocks on one dim: the later block is the less significant digit.
    assert TagLayoutAttr("NHWC->NHWC8h2w32c2w").get_affine_map() == AffineMap(
        4, 0, (n, c // 8, h // 4, w // 32, c % 8, (h // 2) % 2, w % 32, h % 2)
    )
    d0, d1 = D[:2]
    assert LayoutStridedAttr([40, 1], 3).get_affine_map() == AffineMap(2, 0, (d0 * 40 + d1 + 3,))
    tiles = AffineMap(2, 0, (d1 // 4, d0 // 4, d1 % 4, d0 % 4))
    assert MapLayoutAttr(tiles).get_affine_map() == tiles
    assert LayoutStridedAttr([40, 1], 3).get_strides() == (40, 1)
    assert LayoutStridedAttr([40, 1], 3).get_offset() == 3


def test_layout_of_tag_matches_the_stride_formula() -> None:
    layout = layout_of(_memref("2x17x5x4", "f32", '#layout.tag<"NCHW->nChw8c">'))
    assert layout is not None
    assert layout.physical_shape == (2, 3, 5, 4, 8)
    n, c, h, w = np.indices((2, 17, 5, 4))
    expected = (((n * 3 + c // 8) * 5 + h) * 4 + w) * 8 + c % 8
    np.testing.assert_array_equal(layout.offsets(), expected)


def test_layout_of_crouton_with_htp_pad() -> None:
    memref_type = _memref(
        "1x9x10x40", "i8", "#layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>"
    )
    layout = layout_of(memref_type)
    assert layout is not None
    assert layout.physical_shape == (1, 2, 2, 2, 8, 8, 32)
    assert layout.pad == 31
    assert layout.size == 2 * 2 * 2 * 8 * 8 * 32
    b, c, h, w = np.indices((1, 9, 10, 40))
    expected = (
        (((((b * 2 + c // 8) * 2 + h // 8) * 2 + w // 32) * 8 + c % 8) * 8 + h % 8) * 32
    ) + w % 32
    np.testing.assert_array_equal(layout.offsets(), expected)


def test_layout_of_packed_memrefs() -> None:
    vector = layout_of(
        _memref("1x4x4x12", "i1", '#layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>')
    )
    integer = layout_of(
        _memref("1x4x4x12", "i1", '#layout.tag<"NHWC->NHWC6c", pack = i6, bit_order = "msb">')
    )
    assert vector is not None and integer is not None
    assert vector.physical_shape == integer.physical_shape == (1, 4, 4, 2, 6)
    assert vector.storage_shape == integer.storage_shape == (1, 4, 4, 2)
    assert vector.packing is not None and vector.packing.container == "vector<6xi1>"
    assert integer.packing is not None and integer.packing.bit_order == "msb"


def test_layout_of_builtin_affine_map_is_a_map_layout() -> None:
    tiles = "affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>"
    layout = layout_of(_memref("13x10", "f32", tiles))
    assert layout == parse_layout(tiles, "13x10", dtype="f32")
    assert layout is not None
    assert layout.physical_shape == (3, 4, 4, 4)  # ceil(10/4), ceil(13/4), 4, 4
    i, j = np.indices((13, 10))
    np.testing.assert_array_equal(layout.offsets(), ((j // 4 * 4 + i // 4) * 4 + j % 4) * 4 + i % 4)


def test_layout_of_builtin_strided_is_a_one_dimensional_buffer() -> None:
    layout = layout_of(_memref("4x30", "f32", "strided<[40, 1], offset: 3>"))
    assert layout is not None
    assert layout.physical_shape == (3 * 40 + 29 + 3 + 1,)
    assert layout.offset((1, 2)) == 40 + 2 + 3
    assert layout == layout_of(_memref("4x30", "f32", "#layout.strided<[40, 1], offset = 3>"))


@pytest.mark.parametrize(
    "memref_type",
    [
        MemRefType(f32, [4, 30]),
        MemRefType(f32, [4, 30], StridedLayoutAttr([30, 1])),
        MemRefType(f32, [4, 30], StridedLayoutAttr([30, 1], 0)),
        MemRefType(f32, [-1, 30], StridedLayoutAttr([30, 1])),
        MemRefType(f32, [4, 30], AffineMapAttr(AffineMap.identity(2))),
    ],
    ids=["none", "strided", "strided-offset-0", "strided-dynamic-outer", "identity-map"],
)
def test_identity_layouts_have_no_layout(memref_type: MemRefType) -> None:
    assert layout_of(memref_type) is None


def test_builtin_layouts_known_only_at_run_time_are_left_to_upstream() -> None:
    """A `?` in a builtin strided layout or in the shape it lays out, and an affine map with
    symbols, describe memory upstream addresses at run time: no heterolayout layout."""
    assert layout_of(MemRefType(f32, [4, 30], StridedLayoutAttr([None, 1], 0))) is None
    assert layout_of(MemRefType(f32, [4, 30], StridedLayoutAttr([64, 1], None))) is None
    assert layout_of(MemRefType(f32, [DYNAMIC_INDEX, 30], StridedLayoutAttr([64, 1], 3))) is None
    with_symbol = AffineMap(
        2, 1, (AffineExpr.dimension(0) + AffineExpr.symbol(0), AffineExpr.dimension(1))
    )
    assert layout_of(MemRefType(f32, [2, 4], AffineMapAttr(with_symbol))) is None
    static = layout_of(MemRefType(f32, [4, 30], StridedLayoutAttr([64, 1], 3)))
    assert static is not None and static.offset((1, 2)) == 64 + 2 + 3


def test_element_types() -> None:
    assert element_dtype(IntegerType(8, Signedness.SIGNED), required=True) == "si8"
    assert element_dtype(IntegerType(4, Signedness.UNSIGNED), required=True) == "ui4"
    assert element_dtype(IndexType(), required=True) == "index"
    assert element_dtype(BFloat16Type(), required=True) == "bf16"
    assert element_dtype(VectorType(f32, [4]), required=False) is None
    with pytest.raises(LayoutError, match=r"element type vector<4xf32> is not supported"):
        layout_of(MemRefType(VectorType(f32, [4]), [4, 4], TagLayoutAttr("NC->CN")))
    # Builtin layouts over vector elements stay usable: they simply carry no dtype.
    vectors = layout_of(MemRefType(VectorType(f32, [4]), [4, 4], StridedLayoutAttr([1, 4])))
    assert vectors is not None and vectors.dtype is None and vectors.offset((1, 2)) == 9


def test_layout_attr_prefers_the_most_telling_notation() -> None:
    assert preferred_kind(parse_layout("NCHW->nChw8c", "2x17x5x4")) == "tag"
    assert preferred_kind(parse_layout("R4CroutonLayout", "1x9x10x40")) == "chunked"
    assert preferred_kind(parse_layout("strided<[40, 1], offset: 3>", "4x30")) == "strided"
    tiles = "affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>"
    assert preferred_kind(parse_layout(tiles, "13x10")) == "chunked"  # a map that is a blocking
    skewed = "affine_map<(d0, d1) -> (d0 + d1, d1)>"
    assert preferred_kind(parse_layout(skewed, "3x4")) == "map"
    # Tags render canonically: the rest of a dim in uppercase, blocks as size + lowercase.
    named = layout_attr(parse_layout("nChw8c", "2x17x5x4", pad=3))
    assert named == TagLayoutAttr("NCHW->NCHW8c", pad=3)
    assert str(named) == '#layout.tag<"NCHW->NCHW8c", pad = 3>'
    with pytest.raises(LayoutError, match="the strided notation cannot express"):
        layout_attr(parse_layout("NCHW->nChw8c", "2x17x5x4"), "strided")


# ---- attribute checks that need no shape -----------------------------------------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: TagLayoutAttr("NC->NC8x"), "letter 'x' does not name a logical dim"),
        (lambda: TagLayoutAttr("NC->NC8c", bit_order="msb"), "needs a pack"),
        (lambda: TagLayoutAttr("NC->NC8c", pack="vector<8xf32>", bit_order="msb"), "no bit order"),
        (lambda: TagLayoutAttr("NC->NC8c", pack="f32"), "expected an integer container"),
        (lambda: TagLayoutAttr("NC->NC8c", pad=float("nan")), "not a finite number"),
        (lambda: ChunkedLayoutAttr([0, 0, 1]), "expected \\(dim, size\\) pairs"),
        (lambda: ChunkedLayoutAttr([0, 0, 1, 8]), "dim 1 does not appear without a size"),
        (lambda: MapLayoutAttr(AffineMap(2, 1, (D[0], D[1] + AffineExpr.symbol(0)))), "no symbols"),
        (lambda: MapLayoutAttr(AffineMap(2, 0, (D[1], D[0])), [4]), "1 extents but the map has 2"),
        (lambda: LayoutStridedAttr([]), "at least one stride"),
    ],
)
def test_attribute_constructors_verify(build, message: str) -> None:
    with pytest.raises(VerifyException, match=message):
        build()


def test_parse_errors_carry_the_position() -> None:
    source = 'func.func @f(%a: memref<4x4xf32, #layout.tag<"NC->NC8c", pad = 1, pad = 2>>)'
    with pytest.raises(ParseError) as caught:
        Parser(CTX, source, "f.mlir").parse_module()
    assert str(caught.value.span.get_location()) == "f.mlir:1:67"
    assert caught.value.msg == "#layout.tag: parameter 'pad' is given twice"


# ---- the verification walk ------------------------------------------------------------------


def _walk_error(text: str) -> str:
    module = _module(text)
    module.verify()
    with pytest.raises(VerifyException) as caught:
        verify_layouts(module)
    return str(caught.value)


def test_walk_reports_rank_injectivity_capacity_pad_and_dynamic_dims() -> None:
    assert _walk_error(
        'func.func @f(%a: memref<2x17xf32, #layout.tag<"NCHW->nChw8c">>) {\n func.return\n}'
    ) == (
        "invalid layout in func.func (property 'function_type'): "
        'memref<2x17xf32, #layout.tag<"NCHW->nChw8c">>: '
        "the layout has rank 4 but the memref shape 2x17 has rank 2"
    )
    injective = _walk_error(
        "func.func @f() {\n"
        "  %m = memref.alloc() : memref<4x4xf32, #layout.map<affine_map<(d0, d1) -> (d0 + d1)>>>\n"
        "  func.return\n}"
    )
    assert injective.startswith("invalid layout in memref.alloc (result %m)")
    assert "logical indices (0, 1) and (1, 0) both map to physical index (1,)" in injective
    capacity = _walk_error(
        'func.func @f(%a: memref<1x4x4x12xi1, #layout.tag<"NHWC->NHWC6c", pack = i4>>) {\n'
        " func.return\n}"
    )
    assert capacity.endswith("pack container i4 is too small: 6 lanes x 1 bits = 6 bits")
    pad = _walk_error(
        'func.func @f(%a: memref<16xi4, #layout.tag<"C->C8c", pad = 16>>) {\n func.return\n}'
    )
    assert pad.endswith("pad 16 does not fit element type i4 (allowed: -8 to 15)")
    dynamic = _walk_error(
        "func.func @f(%a: memref<?xf32, #layout.map<affine_map<(d0) -> (d0 floordiv 8, d0 mod 4)>>>) {\n func.return\n}"
    )
    assert "(size 17 stands for every size): the map is not injective on 17" in dynamic


def test_walk_accepts_valid_layouts_and_redundant_assigns() -> None:
    module = _module(
        'func.func @f(%a: memref<16xi4, #layout.tag<"C->C8c", pad = -8>>, %m: memref<2x17x5x4xf32>) {\n'
        '  %c = "memref.cast"(%m) : (memref<2x17x5x4xf32>) -> memref<?x17x5x4xf32>\n'
        '  layout.assign %m to #layout.tag<"NCHW->nChw8c"> : memref<2x17x5x4xf32>\n'
        "  layout.assign %c to #layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d1 floordiv 8, d2, d3, d1 mod 8)>> : memref<?x17x5x4xf32>\n"
        "  func.return\n}"
    )
    module.verify()
    verify_layouts(module)  # the second assign is the same layout, written as a map


def test_walk_rejects_two_different_assigns_through_a_cast() -> None:
    message = _walk_error(
        "func.func @f(%m: memref<2x17x5x4xf32>) {\n"
        '  %c = "memref.cast"(%m) : (memref<2x17x5x4xf32>) -> memref<?x17x5x4xf32>\n'
        '  layout.assign %m to #layout.tag<"NCHW->nChw8c"> : memref<2x17x5x4xf32>\n'
        '  layout.assign %c to #layout.tag<"NCHW->nhwc"> : memref<?x17x5x4xf32>\n'
        "  func.return\n}"
    )
    assert message == (
        "two different layouts assigned to one buffer in layout.assign: "
        '#layout.tag<"NCHW->nhwc"> here, #layout.tag<"NCHW->nChw8c"> by an earlier layout.assign'
    )


def test_walk_names_the_offending_op_by_its_place_not_the_module() -> None:
    text = 'func.func @f(%a: memref<4xf32, #layout.tag<"NC->CN">>) {\n func.return\n}'
    located = UpstreamParser(CTX, "\n\n" + text, "k.mlir").parse_module()
    with pytest.raises(VerifyException) as caught:
        verify_layouts(located)
    assert not getattr(caught.value, "__notes__", None)
    assert one_line(caught.value).startswith("k.mlir:3:1: error: invalid layout in func.func")
    with pytest.raises(VerifyException) as caught:
        verify_layouts(_module(text))  # xDSL's own parser records no locations
    assert one_line(caught.value).startswith("@f: error: invalid layout in func.func")


def test_assign_op_built_in_python() -> None:
    function = FuncOp("f", ([MemRefType(i8, [4, 8])], []))
    assign = AssignOp(function.body.block.args[0], TagLayoutAttr("NC->NC4c", pad=-1))
    function.body.block.add_ops([assign, ReturnOp()])
    assert str(assign) == 'layout.assign %0 to #layout.tag<"NC->NC4c", pad = -1> : memref<4x8xi8>'
    assign.verify()
    bad = AssignOp(function.body.block.args[0], TagLayoutAttr("NCHW->nChw8c"))
    function.body.block.insert_op_before(bad, assign)
    with pytest.raises(VerifyException, match="the layout has rank 4 but the memref shape 4x8"):
        bad.verify()


# ---- loading the dialect --------------------------------------------------------------------


def test_load_makes_an_existing_context_parse_layout_ir() -> None:
    ctx = Context()
    load(ctx)
    load(ctx)  # idempotent
    parsed = Parser(ctx, 'memref<4x8xi1, #layout.tag<"NC->NC8c", pack = i8>>').parse_type()
    assert isinstance(parsed, MemRefType) and isinstance(parsed.layout, TagLayoutAttr)
    other = Context()
    other.load_dialect(LayoutDialect)
    assert Parser(other, "#layout.strided<[1]>").parse_attribute() == LayoutStridedAttr([1])


def test_universe_entry_point_provides_dialect_and_passes() -> None:
    multiverse = Universe.get_multiverse()
    assert multiverse.all_dialects["layout"]() is LayoutDialect
    assert multiverse.all_passes["layout-verify"]().name == "layout-verify"


# ---- layout-opt ------------------------------------------------------------------------------

BAD_RANK = 'func.func @f(%a: memref<2x17xf32, #layout.tag<"NCHW->nChw8c">>) {\n  func.return\n}\n'
GOOD = 'func.func @f(%a: memref<2x17xf32, #layout.tag<"NC->NC8c">>) {\n  func.return\n}\n'


def _layout_opt(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "heterolayout.tools.opt", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "HETEROLAYOUT_TRACEBACK": ""},
    )


def test_cli_failure_exits_1_without_traceback_and_writes_no_output(tmp_path: Path) -> None:
    source = tmp_path / "bad.mlir"
    source.write_text(BAD_RANK)
    output = tmp_path / "out.mlir"
    result = _layout_opt(str(source), "-o", str(output))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(
        f"{source}:1:1: error: invalid layout in func.func (property 'function_type'): "
        'memref<2x17xf32, #layout.tag<"NCHW->nChw8c">>: the layout has rank 4'
    )
    assert result.stderr.count("\n") == 1
    assert result.stdout == ""
    assert not output.exists()
    assert source.read_text() == BAD_RANK
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mlir"]


def test_cli_parse_error_names_file_line_and_column(tmp_path: Path) -> None:
    source = tmp_path / "typo.mlir"
    source.write_text('func.func @f(%a: memref<4x4xf32, #layout.tag<"NC->NC8c", pda = 1>>) {\n}\n')
    result = _layout_opt(str(source))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert result.stderr == (
        f"layout-opt: error: {source}:1:58: "
        "#layout.tag: unknown parameter 'pda' (expected pad, pack, bit_order)\n"
    )


def test_cli_in_process_success_failure_and_version(tmp_path: Path, capsys) -> None:
    good, bad = tmp_path / "good.mlir", tmp_path / "bad.mlir"
    good.write_text(GOOD)
    bad.write_text(BAD_RANK)
    output = tmp_path / "out.mlir"
    output.write_text("previous contents\n")

    assert layout_opt_main([str(bad), "-o", str(output)]) == 1
    assert output.read_text() == "previous contents\n"  # untouched, not truncated

    assert layout_opt_main([str(good), "-o", str(output)]) == 0
    assert output.read_text() == (
        "builtin.module {\n"
        '  func.func @f(%a: memref<2x17xf32, #layout.tag<"NC->NC8c">>) {\n'
        "    func.return\n"
        "  }\n"
        "}\n\n"  # xdsl-opt's output, byte for byte
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mlir", "good.mlir", "out.mlir"]

    assert layout_opt_main([str(good), "-o", str(good)]) == 1
    assert good.read_text() == GOOD
    assert layout_opt_main([str(good), "-p", "no-such-pass"]) == 1
    assert layout_opt_main([str(tmp_path / "missing.mlir")]) == 1
    errors = capsys.readouterr().err
    assert "-o " + str(good) + " is the input file" in errors
    assert "Unrecognized passes: ['no-such-pass']" in errors
    assert "No such file or directory" in errors

    with pytest.raises(SystemExit) as exit_info:
        layout_opt_main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == "layout-opt (heterolayout) 0.1.0\n"


def test_cli_layout_verify_pass_and_split_input(tmp_path: Path, capsys) -> None:
    source = tmp_path / "split.mlir"
    source.write_text(GOOD + "// -----\n" + BAD_RANK)
    assert layout_opt_main([str(source), "--split-input-file", "--verify-diagnostics"]) == 0
    out = capsys.readouterr().out
    assert out.count("builtin.module") == 1  # the good module printed, the bad one named
    assert "the layout has rank 4 but the memref shape 2x17 has rank 2" in out
    assert layout_opt_main([str(source), "--split-input-file"]) == 1
    capsys.readouterr()
    assert (
        layout_opt_main([str(tmp_path / "split.mlir"), "-p", "layout-verify", "--split-input-file"])
        == 1
    )


def test_memref_types_compare_by_every_parameter() -> None:
    plain = MemRefType(i1, [1, 4, 4, 12], TagLayoutAttr("NHWC->NHWC6c", pack="vector<6xi1>"))
    packed = MemRefType(i1, [1, 4, 4, 12], TagLayoutAttr("NHWC->NHWC6c", pack="i6"))
    assert plain != packed
    assert layout_of(plain) != layout_of(packed)


def test_docs_example_output_is_what_layout_opt_prints(tmp_path: Path, capsys) -> None:
    page = (REPOSITORY / "docs" / "dialect.md").read_text()
    section = page[page.index("## Attributes and ops") :]
    source = section.split("$ cat scale.mlir\n", 1)[1].split("$ layout-opt scale.mlir\n", 1)
    program, printed = source[0], source[1].split("```", 1)[0]
    (tmp_path / "scale.mlir").write_text(program)
    assert layout_opt_main([str(tmp_path / "scale.mlir")]) == 0
    assert capsys.readouterr().out.strip() == printed.strip()


def test_attribute_text_writes_float_pads_that_mlir_can_lex() -> None:
    # A float literal needs a point: `1e-20` would lex as the integer 1 followed by `e-20`.
    layout = parse_layout("NC->NC8c", "4x8", dtype="f32", pad=1e-20)
    text = str(layout_attr(layout, "tag"))
    assert text == '#layout.tag<"NC->NC8c", pad = 1.0e-20>'
    assert _parse_attribute(text) == layout_attr(layout, "tag")
