"""Every way a layout can be wrong raises `LayoutError` with one line that names the fault.

The command-line tools print these messages as they are, so each test checks the exception
type (nothing but `LayoutError`), that the message is a single line, and the parts of the
text that tell the user what is at fault and where.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import heterolayout
from heterolayout import LayoutError, parse_layout


def _message(build: Callable[[], object]) -> str:
    """The `LayoutError` message of `build()`; any other exception fails the test."""
    with pytest.raises(LayoutError) as caught:
        build()
    assert type(caught.value) is LayoutError
    message = str(caught.value)
    assert message
    assert "\n" not in message, f"multi-line message: {message!r}"
    return message


def _parse_message(spec: str, shape: Any, **params: Any) -> str:
    return _message(lambda: parse_layout(spec, shape, **params))


def test_layout_error_is_a_value_error() -> None:
    assert issubclass(heterolayout.LayoutError, ValueError)
    assert heterolayout.LayoutError is heterolayout.layout.LayoutError


NCHW = (2, 3, 4, 5)
NHWC_C12 = (1, 4, 4, 12)

DIAGNOSTICS = [
    # non-injective maps name both colliding logical indices
    pytest.param(
        "affine_map<(d0, d1) -> (d0 + d1)>",
        (3, 3),
        {},
        ["not injective", "3x3", "(0, 1)", "(1, 0)", "(1,)"],
        id="map-not-injective",
    ),
    pytest.param(
        "strided<[1, 1]>",
        (3, 3),
        {},
        ["not injective", "(0, 1)", "(1, 0)"],
        id="strided-not-injective",
    ),
    pytest.param(
        "strided<[0, 1]>",
        (4, 5),
        {},
        ["not injective", "(0, 0)", "(1, 0)"],
        id="strided-zero-stride",
    ),
    pytest.param(
        "affine_map<(d0) -> (d0 ceildiv 2)>",
        (5,),
        {},
        ["not injective", "(1,)", "(2,)"],
        id="ceildiv-not-injective",
    ),
    # zero and negative blocks
    pytest.param(
        "NCHW->nChw0c",
        NCHW,
        {},
        ["NCHW->nChw0c", "block size 0", "'c'", "positive"],
        id="tag-zero-block",
    ),
    pytest.param(
        "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 3,-2>",
        NCHW,
        {},
        ["block size -2", "dim 3", "positive"],
        id="chunked-negative-block",
    ),
    # letters of a tag
    pytest.param(
        "NCHW->nhw",
        NCHW,
        {},
        ["NCHW->nhw", "'C'", "does not appear"],
        id="tag-letter-missing",
    ),
    pytest.param(
        "NCHW->nCChw",
        NCHW,
        {},
        ["NCHW->nCChw", "'C'", "twice"],
        id="tag-letter-repeated",
    ),
    pytest.param(
        "NNHW->nhw",
        NCHW,
        {},
        ["'N'", "repeated", "source 'NNHW'"],
        id="tag-source-letter-repeated",
    ),
    pytest.param(
        "NCHW->nChwx",
        NCHW,
        {},
        ["'x'", "logical dim", "'NCHW'"],
        id="tag-letter-unknown",
    ),
    pytest.param(
        "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 3,0>",
        NCHW,
        {},
        ["dim 3", "twice"],
        id="chunked-dim-repeated",
    ),
    pytest.param(
        "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 9,0>",
        NCHW,
        {},
        ["dim 9", "out of range", "rank 4"],
        id="chunked-dim-out-of-range",
    ),
    # rank against the shape, for every notation
    pytest.param(
        "NCHW->nChw8c",
        (2, 3, 4),
        {},
        ["rank 4", "2x3x4", "rank 3"],
        id="tag-rank",
    ),
    pytest.param("R4CroutonLayout", (2, 3, 4), {}, ["rank 4", "2x3x4"], id="alias-rank"),
    pytest.param(
        "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0>",
        (2, 3, 4),
        {},
        ["rank 4", "2x3x4"],
        id="chunked-rank",
    ),
    pytest.param(
        "#layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0]>",
        (2, 3, 4),
        {},
        ["dim 3", "rank 3"],
        id="chunked-attribute-rank",
    ),
    pytest.param(
        "affine_map<(d0, d1) -> (d1, d0)>",
        (2, 3, 4),
        {},
        ["2 dims", "2x3x4", "rank 3"],
        id="map-rank",
    ),
    pytest.param(
        "strided<[1, 4]>",
        (2, 3, 4),
        {},
        ["2 strides", "2x3x4", "rank 3"],
        id="strided-rank",
    ),
    # unknown names, with the closest known one
    pytest.param(
        "nChw8x",
        NCHW,
        {},
        ["unknown format 'nChw8x'", "did you mean 'nChw8c'"],
        id="unknown-onednn-format",
    ),
    pytest.param(
        "NCHW5", NCHW, {}, ["'NCHW5'", "did you mean 'NCHW4'"], id="unknown-megengine-format"
    ),
    pytest.param(
        "R4CrotonLayout",
        NCHW,
        {},
        ["unknown alias 'R4CrotonLayout'", "did you mean 'R4CroutonLayout'"],
        id="unknown-alias",
    ),
    pytest.param(
        "#layout.foo<1>",
        NCHW,
        {},
        ["#layout.foo", "tag, chunked, map or strided"],
        id="unknown-attribute-kind",
    ),
    # pad against the element type
    pytest.param(
        "nhwc",
        NCHW,
        {"dtype": "i8", "pad": 300},
        ["pad 300", "i8", "-128 to 255"],
        id="pad-too-large",
    ),
    pytest.param(
        "nhwc",
        NCHW,
        {"dtype": "ui8", "pad": -1},
        ["pad -1", "ui8", "0 to 255"],
        id="pad-negative-unsigned",
    ),
    pytest.param(
        "nhwc",
        NCHW,
        {"dtype": "i8", "pad": 0.5},
        ["pad 0.5", "not an integer", "i8"],
        id="pad-fraction",
    ),
    pytest.param(
        '#layout.tag<"NCHW->nChw8c", pad = 31>',
        NCHW,
        {"dtype": "i1"},
        ["pad 31", "i1", "-1 to 1"],
        id="pad-in-spec-too-large",
    ),
    pytest.param(
        '#layout.tag<"NCHW->nChw8c", pad = 31>',
        NCHW,
        {"pad": 5},
        ["pad = 5", "contradicts", "pad = 31"],
        id="pad-contradicts-spec",
    ),
    pytest.param(
        '#layout.tag<"NCHW->nChw8c", pad = x>',
        NCHW,
        {},
        ["'x'", "not a number"],
        id="pad-not-a-number",
    ),
    # packing
    pytest.param(
        "NHWC->NHWC6c",
        NHWC_C12,
        {"dtype": "i1", "pack": "i4"},
        ["i4", "too small", "6 lanes", "6 bits"],
        id="pack-too-small",
    ),
    pytest.param(
        "NHWC->NHWC4c",
        (1, 4, 4, 12),
        {"dtype": "i8", "pack": "i16"},
        ["i16", "too small", "4 lanes", "32 bits"],
        id="pack-too-small-i8",
    ),
    pytest.param(
        "NHWC->NHWC6c",
        NHWC_C12,
        {"dtype": "f32", "pack": "i32"},
        ["i32", "integer elements only", "f32"],
        id="pack-integer-container-float",
    ),
    pytest.param(
        "NHWC->NHWC6c",
        NHWC_C12,
        {"dtype": "i1", "pack": "vector<4xi1>"},
        ["vector<4xi1>", "4 lanes", "has 6"],
        id="pack-vector-length",
    ),
    pytest.param(
        "NHWC->NHWC6c",
        NHWC_C12,
        {"dtype": "i1", "pack": "vector<6xi8>"},
        ["vector<6xi8>", "holds i8", "i1"],
        id="pack-vector-element-type",
    ),
    pytest.param(
        "NHWC->NHWC6c",
        NHWC_C12,
        {"dtype": "i1", "pack": "vector<6xi1>", "bit_order": "msb"},
        ["vector<6xi1>", "bit_order", "integer containers only"],
        id="bit-order-on-vector",
    ),
    pytest.param(
        '#layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>, bit_order = "msb">',
        NHWC_C12,
        {"dtype": "i1"},
        ["vector<6xi1>", "bit_order", "integer containers only"],
        id="bit-order-on-vector-in-spec",
    ),
    pytest.param(
        "NHWC->NHWC6c",
        NHWC_C12,
        {"dtype": "i1", "bit_order": "msb"},
        ["bit_order", "needs a pack"],
        id="bit-order-without-pack",
    ),
    pytest.param(
        "NHWC->NHWC6c",
        NHWC_C12,
        {"dtype": "i1", "pack": "i6", "bit_order": "mid"},
        ['"lsb" or "msb"', "'mid'"],
        id="bit-order-unknown",
    ),
    pytest.param(
        "nhwc",
        NCHW,
        {"pack": "i8"},
        ["pack = i8", "element type"],
        id="pack-without-dtype",
    ),
    pytest.param(
        '#layout.tag<"NHWC->NHWC6c", pack = i6>',
        NHWC_C12,
        {"dtype": "i1", "pack": "i8"},
        ["pack", "contradicts", "i6"],
        id="pack-contradicts-spec",
    ),
    pytest.param(
        "nhwc",
        NCHW,
        {"dtype": "i8", "pack": "q8"},
        ["pack = q8", "iK", "vector<LxT>"],
        id="pack-unknown-container",
    ),
    # dynamic dims
    pytest.param(
        "affine_map<(d0, d1) -> (d1 * 3 - d0)>",
        (None, 3),
        {},
        ["'d0 * -1'", "falls as a '?' size grows", "negative"],
        id="dynamic-dim-falling",
    ),
    pytest.param(
        "affine_map<(d0) -> (d0 floordiv 8, d0 mod 4)>",
        (None,),
        {},
        ["size 17 stands for every size", "not injective", "(0,) and (4,)"],
        id="dynamic-dim-clash",
    ),
    pytest.param(
        "strided<[1, 4]>",
        (None, 5),
        {},
        ["strided", "static shape", "'?'"],
        id="dynamic-strided",
    ),
    # affine maps
    pytest.param(
        "affine_map<(d0) -> (d0 - 2)>",
        (5,),
        {},
        ["negative", "-2", "logical index (0,)"],
        id="map-negative-result",
    ),
    pytest.param(
        "strided<[-1, 5]>",
        (4, 5),
        {},
        ["negative", "-3", "logical index (3, 0)"],
        id="strided-negative-result",
    ),
    pytest.param(
        "affine_map<(d0)[s0] -> (d0 + s0)>",
        (5,),
        {},
        ["no symbols", "s0"],
        id="map-symbols",
    ),
    pytest.param(
        "affine_map<(d0) -> (d0 +)>",
        (5,),
        {},
        ["affine_map<(d0) -> (d0 +)>", "column 25"],
        id="map-does-not-parse",
    ),
    pytest.param(
        "affine_map<(d0) -> (d0)> junk",
        (5,),
        {},
        ["unexpected text after the map", "column 26"],
        id="map-trailing-junk",
    ),
    pytest.param(
        "affine_map<(d0) -> (d0 floordiv 0)>",
        (5,),
        {},
        ["d0 floordiv 0", "positive"],
        id="map-divide-by-zero",
    ),
    pytest.param(
        "affine_map<(d0) -> (d0 mod -3)>",
        (5,),
        {},
        ["d0 mod -3", "positive"],
        id="map-negative-modulus",
    ),
    pytest.param("affine_map<(d0) -> ()>", (5,), {}, ["no results"], id="map-no-results"),
    # explicit physical shapes
    pytest.param(
        "affine_map<(d0) -> (d0)>",
        (5,),
        {"physical_shape": (3,)},
        ["physical dim 0", "extent 3", "reaches 5"],
        id="physical-shape-too-small",
    ),
    pytest.param(
        "#layout.map<affine_map<(d0) -> (d0)>, shape = [3]>",
        (5,),
        {},
        ["physical dim 0", "extent 3", "reaches 5"],
        id="map-attribute-shape-too-small",
    ),
    pytest.param(
        "strided<[40, 1], offset: 3>",
        (4, 5),
        {"physical_shape": (100,)},
        ["extent 100", "reaches 128"],
        id="strided-physical-shape-too-small",
    ),
    pytest.param(
        "affine_map<(d0) -> (d0)>",
        (5,),
        {"physical_shape": (5, 5)},
        ["rank 2", "1 results"],
        id="physical-shape-rank",
    ),
    pytest.param(
        "NCHW->nChw8c",
        NCHW,
        {"physical_shape": (2, 2, 4, 5, 8)},
        ["2x2x4x5x8", "contradicts", "2x1x4x5x8"],
        id="blocked-physical-shape-contradicts",
    ),
    # `#layout.…` text is read by the dialect, whose tag has no `shape` parameter.
    pytest.param(
        '#layout.tag<"NCHW->nChw8c", shape = [2, 2, 4, 5, 8]>',
        NCHW,
        {},
        ["#layout.tag", "unknown parameter 'shape'"],
        id="tag-attribute-has-no-shape",
    ),
    # element types
    pytest.param(
        "nhwc",
        NCHW,
        {"dtype": "q8"},
        ["unknown element type", "'q8'"],
        id="unknown-element-type",
    ),
    pytest.param("nhwc", NCHW, {"dtype": "i0"}, ["i0", "1 to 64"], id="element-type-width"),
    pytest.param(
        "nhwc",
        NCHW,
        {"dtype": np.complex64},
        ["complex64"],
        id="numpy-dtype-without-counterpart",
    ),
    # shapes
    pytest.param("nhwc", "2xfoo", {}, ["2xfoo", "'foo'", "not an extent"], id="shape-not-a-number"),
    pytest.param("nhwc", (2, -3, 4, 5), {}, ["extent -3", "negative"], id="shape-negative-extent"),
    # attribute text parameters
    pytest.param(
        '#layout.tag<"NCHW->nchw", bogus = 1>',
        NCHW,
        {},
        ["unknown parameter 'bogus'"],
        id="attribute-unknown-parameter",
    ),
    pytest.param(
        '#layout.tag<"NCHW->nchw", pad = 1, pad = 2>',
        NCHW,
        {},
        ["'pad'", "twice"],
        id="attribute-parameter-twice",
    ),
    pytest.param(
        "#layout.tag<NCHW->nchw>",
        NCHW,
        {},
        ["#layout.tag", "quoted string"],
        id="attribute-tag-unquoted",
    ),
]


@pytest.mark.parametrize(("spec", "shape", "params", "fragments"), DIAGNOSTICS)
def test_diagnostic(spec: str, shape: Any, params: dict[str, Any], fragments: list[str]) -> None:
    message = _parse_message(spec, shape, **params)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


# ---- errors of Layout's own queries -----------------------------------------------------

DYNAMIC = parse_layout("NCHW->nhwc", (None, 3, 4, 5))
BLOCKED = parse_layout("nChw8c", NCHW)

QUERIES = [
    pytest.param(
        lambda: DYNAMIC.specialize((2, 4, 4, 5)), ["2x4x4x5", "?x3x4x5"], id="specialize-mismatch"
    ),
    pytest.param(lambda: DYNAMIC.specialize((2, 3, 4)), ["2x3x4", "rank 4"], id="specialize-rank"),
    pytest.param(lambda: DYNAMIC.size, ["dynamic", "specialize"], id="size-of-dynamic"),
    pytest.param(lambda: DYNAMIC.offsets(), ["dynamic", "specialize"], id="offsets-of-dynamic"),
    pytest.param(
        lambda: BLOCKED.physical_index((0, 3, 0, 0)),
        ["(0, 3, 0, 0)", "out of bounds"],
        id="index-out-of-bounds",
    ),
    pytest.param(lambda: BLOCKED.offset((0, 0, 0)), ["(0, 0, 0)", "rank 4"], id="index-rank"),
    pytest.param(
        lambda: BLOCKED.logical_index(320), ["offset 320", "320 slots"], id="offset-outside"
    ),
    pytest.param(lambda: BLOCKED.nbytes, ["element type"], id="nbytes-without-dtype"),
    pytest.param(lambda: BLOCKED.pack(np.zeros((2, 3, 4))), ["2x3x4", "2x3x4x5"], id="pack-shape"),
    pytest.param(
        lambda: BLOCKED.unpack(np.zeros((2, 3, 4))), ["2x3x4", "2x1x4x5x8"], id="unpack-shape"
    ),
    pytest.param(
        lambda: parse_layout("nChw8c", NCHW, dtype="i8").pack(np.zeros(NCHW), pad=500),
        ["pad 500", "i8"],
        id="pack-pad-override-does-not-fit",
    ),
    pytest.param(
        lambda: parse_layout("NHWC->NHWC6c", NHWC_C12, dtype="i1", pack="i6").unpack(
            np.zeros((1, 4, 4, 2, 6))
        ),
        ["1x4x4x2x6", "storage shape 1x4x4x2", "i6"],
        id="unpack-lanes-not-folded",
    ),
]


@pytest.mark.parametrize(("query", "fragments"), QUERIES)
def test_query_diagnostic(query: Callable[[], object], fragments: list[str]) -> None:
    message = _message(query)
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


# ---- messages that must not mislead -----------------------------------------------------


def test_empty_spec_suggests_nothing() -> None:
    message = _parse_message("", NCHW)
    assert "did you mean" not in message


def test_unrelated_spec_suggests_nothing() -> None:
    assert "did you mean" not in _parse_message("((((", NCHW)
    assert "did you mean" not in _parse_message("12345", NCHW)


def test_tag_with_empty_destination_says_so() -> None:
    message = _parse_message("NCHW->", NCHW)
    assert "NCHW->" in message
    assert "unexpected ''" not in message


def test_pad_that_is_not_a_number_is_a_layout_error() -> None:
    assert "'abc'" in _parse_message("nhwc", NCHW, dtype="i8", pad="abc")
    assert "'abc'" in _parse_message("nhwc", NCHW, dtype="f32", pad="abc")
    assert "'abc'" in _parse_message("nhwc", NCHW, pad="abc")


def test_fractional_extent_is_rejected() -> None:
    assert "2.5" in _parse_message("nhwc", (2.5, 3, 4, 5))


# ---- malformed specs: LayoutError and nothing else, always one line ---------------------

MALFORMED = [
    "",
    "   ",
    "->",
    "NCHW->",
    "->nchw",
    "NCHW->NCHW16",
    "NCHW->16",
    "NCHW->n C h w",
    "NC HW->nchw",
    "N1HW->nhw",
    "NCHW->nchw->nchw",
    "NCHW->nChw-8c",
    "NCHW->nChw8ç",
    "xyz",
    "ChunkedMemoryLayout<>",
    "ChunkedMemoryLayout<4, 0>",
    "ChunkedMemoryLayout<4>",
    "ChunkedMemoryLayout",
    "ChunkedMemoryLayout<0>",
    "ChunkedMemoryLayout<a, b>",
    "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0",
    "FlatMemoryLayout<>",
    "FlatMemoryLayout<0>",
    "FlatMemoryLayout<x>",
    "strided<[a]>",
    "strided<[]>",
    "strided<[1, 4]",
    "strided<[1, 4], offset: x>",
    "strided<[?, 1]>",
    "strided",
    "#layout.tag<>",
    "#layout.tag<NCHW>",
    '#layout.tag<"NCHW->nchw"',
    "#layout.foo<1>",
    "#layout.",
    "#layout.tag",
    "#layout.chunked<[0, 0, 1]>",
    "#layout.chunked<[a, b]>",
    "#layout.map<>",
    "#layout.map<(d0) -> (d0)>",
    "#layout.strided<>",
    '#layout.tag<"NCHW->nchw", pack = i0>',
    "affine_map<(d0) -> ()>",
    "affine_map<(d0) -> (d0>",
    "affine_map<(d0 -> (d0)>",
    "affine_map<(d0) -> (d0)",
    "affine_map",
    "affine_map<>",
    "affine_map<(d0) -> (d1)>",
    "affine_set<(d0) : (d0 >= 0)>",
    "((((",
    "<<<>",
    "[[",
    "nChw8c)",
    "R4",
    "Layout",
    "🙂",
    "affine_map<(d0) -> (d0 * d0)>",
    "affine_map<(d0) -> (d0 mod d0)>",
    "NCHW->nChw99999999999999999999c",
    "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 3,99999999999999999999>",
    "ChunkedMemoryLayout<\n4,\n0,0, 1,0>",
    "NCHW->nchw\nfoo",
]


@pytest.mark.parametrize("spec", MALFORMED)
def test_malformed_spec_is_a_one_line_layout_error(spec: str) -> None:
    _parse_message(spec, NCHW)
