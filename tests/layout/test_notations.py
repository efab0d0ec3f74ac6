"""Every notation of the Layout model, checked against hand-computed maps, shapes and offsets.

Expected index maps and physical shapes are derived by hand from DESIGN.md's digit rule (the
sizeless term of a dim with blocks b1 … bk is `d floordiv (b1⋯bk)`, block j is
`(d floordiv (b(j+1)⋯bk)) mod bj`); expected offsets are explicit stride formulas written
out per case (the seeds' formulas where they give one), never the model's own arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from heterolayout import Layout, Packing, parse_layout
from heterolayout.layout.expressions import format_map

Grids = tuple[np.ndarray, ...]


def _grids(shape: tuple[int, ...]) -> Grids:
    return tuple(np.indices(shape))


def _assert_offsets(layout: Layout, formula: Callable[..., np.ndarray]) -> None:
    """Every logical index lands where the hand-written formula says."""
    shape = tuple(int(e) for e in layout.logical_shape)  # type: ignore[arg-type]
    expected = formula(*_grids(shape))
    np.testing.assert_array_equal(layout.offsets(), expected)


# ---- tags with SRC-> --------------------------------------------------------------------

TAG_CASES = [
    pytest.param(
        "NCHW->nChw16c",
        (2, 17, 5, 4),
        "affine_map<(d0, d1, d2, d3) -> (d0, d1 floordiv 16, d2, d3, d1 mod 16)>",
        (2, 2, 5, 4, 16),
        lambda n, c, h, w: (
            n * (2 * 5 * 4 * 16) + (c // 16) * (5 * 4 * 16) + h * (4 * 16) + w * 16 + c % 16
        ),
        id="nChw16c-C17-padded",
    ),
    pytest.param(
        "NCHW->nChw16c",
        (2, 32, 5, 4),
        "affine_map<(d0, d1, d2, d3) -> (d0, d1 floordiv 16, d2, d3, d1 mod 16)>",
        (2, 2, 5, 4, 16),
        lambda n, c, h, w: (
            n * (2 * 5 * 4 * 16) + (c // 16) * (5 * 4 * 16) + h * (4 * 16) + w * 16 + c % 16
        ),
        id="nChw16c-C32-exact",
    ),
    pytest.param(
        "OIHW->OIhw16i16o",
        (40, 20, 3, 3),
        "affine_map<(d0, d1, d2, d3) -> (d0 floordiv 16, d1 floordiv 16, d2, d3, d1 mod 16, d0 mod 16)>",
        (3, 2, 3, 3, 16, 16),
        lambda o, i, h, w: (
            (o // 16) * (2 * 9 * 256)
            + (i // 16) * (9 * 256)
            + h * (3 * 256)
            + w * 256
            + (i % 16) * 16
            + o % 16
        ),
        id="OIhw16i16o-O-and-I-padded",
    ),
    pytest.param(
        "NCHW->CHWN4c",
        (2, 6, 3, 3),
        "affine_map<(d0, d1, d2, d3) -> (d1 floordiv 4, d2, d3, d0, d1 mod 4)>",
        (2, 3, 3, 2, 4),
        lambda n, c, h, w: (
            (c // 4) * (3 * 3 * 2 * 4) + h * (3 * 2 * 4) + w * (2 * 4) + n * 4 + c % 4
        ),
        id="CHWN4c",
    ),
    pytest.param(
        "NHWC->NHWC8h2w32c2w",
        (1, 9, 10, 40),
        "affine_map<(d0, d1, d2, d3) -> (d0, d1 floordiv 8, d2 floordiv 4, d3 floordiv 32, "
        "d1 mod 8, (d2 floordiv 2) mod 2, d3 mod 32, d2 mod 2)>",
        (1, 2, 3, 2, 8, 2, 32, 2),
        lambda n, h, w, c: (
            n * 12288
            + (h // 8) * 6144
            + (w // 4) * 2048
            + (c // 32) * 1024
            + (h % 8) * 128
            + ((w // 2) % 2) * 64
            + (c % 32) * 2
            + w % 2
        ),
        id="two-blocks-of-w",
    ),
    pytest.param(
        "NC->NC16c16n",
        (20, 40),
        "affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d1 mod 16, d0 mod 16)>",
        (2, 3, 16, 16),
        lambda n, c: (n // 16) * 768 + (c // 16) * 256 + (c % 16) * 16 + n % 16,
        id="NC16c16n",
    ),
]


@pytest.mark.parametrize(("spec", "shape", "index_map", "physical", "formula"), TAG_CASES)
def test_tag(
    spec: str,
    shape: tuple[int, ...],
    index_map: str,
    physical: tuple[int, ...],
    formula: Callable[..., np.ndarray],
) -> None:
    layout = parse_layout(spec, shape)
    assert format_map(layout.index_map) == index_map
    assert layout.physical_shape == physical
    assert layout.logical_shape == shape
    _assert_offsets(layout, formula)


def test_tag_padding_share_counts_the_block_padding() -> None:
    """17 channels in blocks of 16 occupy 32 channel slots."""
    padded = parse_layout("NCHW->nChw16c", (2, 17, 5, 4))
    assert padded.size == 2 * 32 * 5 * 4
    assert padded.padding_share == pytest.approx(1 - 17 / 32)
    assert parse_layout("NCHW->nChw16c", (2, 32, 5, 4)).padding_share == 0.0


def test_tag_blocks_of_one_dim_are_digits_most_significant_first() -> None:
    """w = 4·rest + 2·(first 2w) + (last 2w): the blocks of w read as w's base-2 digits."""
    layout = parse_layout("NHWC->NHWC8h2w32c2w", (1, 9, 10, 40))
    for w in range(10):
        physical = layout.physical_index((0, 0, w, 0))
        assert (physical[2], physical[5], physical[7]) == (w // 4, (w // 2) % 2, w % 2)


def test_tag_case_is_ignored() -> None:
    """oneDNN spelling, all-lowercase source with uppercase blocks, and TVM spelling agree."""
    onednn = parse_layout("NCHW->nChw16c", "2x17x5x4")
    assert parse_layout("nchw->NCHW16C", "2x17x5x4") == onednn
    assert parse_layout("NCHW->NCHW16c", "2x17x5x4") == onednn
    assert parse_layout("nChw16c", "2x17x5x4") == onednn


# ---- named formats ----------------------------------------------------------------------

NAMED_FORMATS = [
    ("nchw", "NCHW->nchw", (2, 3, 4, 5), "(d0, d1, d2, d3)"),
    ("nhwc", "NCHW->nhwc", (2, 3, 4, 5), "(d0, d2, d3, d1)"),
    ("chwn", "NCHW->chwn", (2, 3, 4, 5), "(d1, d2, d3, d0)"),
    ("nChw8c", "NCHW->nChw8c", (2, 17, 4, 5), "(d0, d1 floordiv 8, d2, d3, d1 mod 8)"),
    ("nChw16c", "NCHW->nChw16c", (2, 17, 4, 5), "(d0, d1 floordiv 16, d2, d3, d1 mod 16)"),
    (
        "OIhw16i16o",
        "OIHW->OIhw16i16o",
        (40, 20, 3, 3),
        "(d0 floordiv 16, d1 floordiv 16, d2, d3, d1 mod 16, d0 mod 16)",
    ),
    ("Ohwi16o", "OIHW->Ohwi16o", (20, 3, 4, 5), "(d0 floordiv 16, d2, d3, d1, d0 mod 16)"),
    ("nCdhw8c", "NCDHW->nCdhw8c", (2, 9, 3, 4, 5), "(d0, d1 floordiv 8, d2, d3, d4, d1 mod 8)"),
    ("ncdhw", "NCDHW->ncdhw", (2, 9, 3, 4, 5), "(d0, d1, d2, d3, d4)"),
    ("oihw", "OIHW->oihw", (2, 3, 4, 5), "(d0, d1, d2, d3)"),
    ("hwio", "OIHW->hwio", (2, 3, 4, 5), "(d2, d3, d1, d0)"),
    ("goihw", "GOIHW->goihw", (2, 3, 4, 5, 6), "(d0, d1, d2, d3, d4)"),
    ("NCHW4", "NCHW->NCHW4c", (2, 9, 4, 5), "(d0, d1 floordiv 4, d2, d3, d1 mod 4)"),
    ("NCHW32", "NCHW->NCHW32c", (2, 9, 4, 5), "(d0, d1 floordiv 32, d2, d3, d1 mod 32)"),
    ("NCHW64", "NCHW->NCHW64c", (2, 9, 4, 5), "(d0, d1 floordiv 64, d2, d3, d1 mod 64)"),
    ("NCHW88", "NCHW->NCHW8c", (2, 9, 4, 5), "(d0, d1 floordiv 8, d2, d3, d1 mod 8)"),
    ("CHWN4", "NCHW->CHWN4c", (2, 9, 4, 5), "(d1 floordiv 4, d2, d3, d0, d1 mod 4)"),
]


@pytest.mark.parametrize(("name", "tag", "shape", "results"), NAMED_FORMATS)
def test_named_format_has_its_canonical_logical_order(
    name: str, tag: str, shape: tuple[int, ...], results: str
) -> None:
    layout = parse_layout(name, shape)
    assert layout == parse_layout(tag, shape)
    dims = ", ".join(f"d{i}" for i in range(len(shape)))
    assert format_map(layout.index_map) == f"affine_map<({dims}) -> {results}>"


def test_onednn_plain_formats_follow_the_seed_offset_functions() -> None:
    n_, c_, h_, w_ = 2, 3, 4, 5
    shape = (n_, c_, h_, w_)
    _assert_offsets(
        parse_layout("nchw", shape), lambda n, c, h, w: n * c_ * h_ * w_ + c * h_ * w_ + h * w_ + w
    )
    _assert_offsets(
        parse_layout("nhwc", shape), lambda n, c, h, w: n * h_ * w_ * c_ + h * w_ * c_ + w * c_ + c
    )
    _assert_offsets(
        parse_layout("chwn", shape), lambda n, c, h, w: c * h_ * w_ * n_ + h * w_ * n_ + w * n_ + n
    )


def test_onednn_nchw8c_with_17_channels_pads_to_24() -> None:
    """The seed's padded example: C = 17 rounds up to div_up(17, 8) · 8 = 24."""
    n_, h_, w_ = 2, 3, 4
    layout = parse_layout("nChw8c", (n_, 17, h_, w_))
    assert layout.physical_shape == (n_, 3, h_, w_, 8)
    assert layout.size == n_ * 24 * h_ * w_
    _assert_offsets(
        layout,
        lambda n, c, h, w: n * 24 * h_ * w_ + (c // 8) * h_ * w_ * 8 + h * w_ * 8 + w * 8 + c % 8,
    )
    assert parse_layout("nChw8c", (n_, 17, h_, w_), dtype="f32").nbytes == 4 * n_ * 24 * h_ * w_


MEGENGINE_SHAPE = (2, 64, 3, 3)


def _megengine_values() -> np.ndarray:
    """The seed numbers each element by its NCHW position: 0000 … 1151."""
    return np.arange(2 * 64 * 3 * 3).reshape(MEGENGINE_SHAPE)


@pytest.mark.parametrize(
    ("name", "memory_order_start"),
    [
        ("NCHW", [0, 1, 2, 3]),
        ("nhwc", [0, 9, 18, 27]),
        ("NCHW4", [0, 9, 18, 27, 1, 10, 19, 28]),
        ("NCHW32", [c * 9 for c in range(32)] + [1, 10]),
        ("NCHW64", [c * 9 for c in range(64)] + [1, 10]),
        ("CHWN4", [0, 9, 18, 27, 576, 585, 594, 603, 1, 10]),
    ],
)
def test_megengine_formats_store_the_seed_order(name: str, memory_order_start: list[int]) -> None:
    spec = "NCHW->NCHW" if name == "NCHW" else name
    stored = parse_layout(spec, MEGENGINE_SHAPE).pack(_megengine_values()).ravel()
    assert stored[: len(memory_order_start)].tolist() == memory_order_start


# ---- HTP chunked ------------------------------------------------------------------------

CROUTON = "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>"


@pytest.mark.parametrize(
    "spec",
    [
        CROUTON,
        "ChunkedMemoryLayout<4,0,0,1,0,2,0,3,0,1,8,2,8,3,32>",
        "ChunkedMemoryLayout<4, 0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32>",
        "R4CroutonLayout",
        "#layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32]>",
    ],
)
def test_crouton_spellings_agree(spec: str) -> None:
    layout = parse_layout(spec, (2, 9, 20, 50))
    assert format_map(layout.index_map) == (
        "affine_map<(d0, d1, d2, d3) -> (d0, d1 floordiv 8, d2 floordiv 8, d3 floordiv 32, "
        "d1 mod 8, d2 mod 8, d3 mod 32)>"
    )
    assert layout.physical_shape == (2, 2, 3, 2, 8, 8, 32)


def test_crouton_2x9x20x50_follows_the_seed_walk() -> None:
    """Padded to 2x16x24x64; chunks of 8x8x32 = 2048 slots, d3 chunks inside d2 inside d1."""
    layout = parse_layout(CROUTON, (2, 9, 20, 50))
    assert layout.size == 2 * 16 * 24 * 64
    walk = {
        (0, 0, 0, 31): 31,
        (0, 0, 1, 0): 32,
        (0, 1, 0, 0): 256,
        (0, 7, 7, 31): 2047,
        (0, 0, 0, 32): 2048,
        (0, 0, 8, 0): 2 * 2048,
        (0, 0, 8, 32): 3 * 2048,
        (0, 0, 16, 0): 4 * 2048,
        (0, 8, 0, 0): 6 * 2048,
        (1, 0, 0, 0): 12 * 2048,
    }
    for index, offset in walk.items():
        assert layout.offset(index) == offset, index
    _assert_offsets(
        layout,
        lambda n, h, w, c: (
            n * 12 * 2048
            + (h // 8) * 6 * 2048
            + (w // 8) * 2 * 2048
            + (c // 32) * 2048
            + (h % 8) * 256
            + (w % 8) * 32
            + c % 32
        ),
    )


def test_crouton_1x3x5x30_pads_to_one_chunk() -> None:
    layout = parse_layout("R4CroutonLayout", (1, 3, 5, 30))
    assert layout.physical_shape == (1, 1, 1, 1, 8, 8, 32)
    assert layout.size == 8 * 8 * 32
    assert layout.offset((0, 0, 1, 0)) == 32
    assert layout.offset((0, 2, 4, 29)) == 2 * 256 + 4 * 32 + 29
    assert layout.logical_index(30) is None
    assert layout.logical_index(5 * 32) is None
    assert layout.logical_index(2 * 256 + 4 * 32 + 29) == (0, 2, 4, 29)


def test_flat_memory_layout_is_c_order() -> None:
    layout = parse_layout("FlatMemoryLayout<4>", (2, 3, 5, 30))
    assert format_map(layout.index_map) == "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    assert layout.physical_shape == (2, 3, 5, 30)
    np.testing.assert_array_equal(layout.offsets().ravel(), np.arange(2 * 3 * 5 * 30))
    assert parse_layout("ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0>", (2, 3, 5, 30)) == layout


CONV_WEIGHTS = "ChunkedMemoryLayout<4, 3,0, 2,0, 0,0, 1,0, 2,8, 3,32, 2,4>"


def test_conv_weight_layout_3x3x32x32_follows_the_seed_walk() -> None:
    layout = parse_layout(CONV_WEIGHTS, (3, 3, 32, 32))
    assert format_map(layout.index_map) == (
        "affine_map<(d0, d1, d2, d3) -> (d3 floordiv 32, d2 floordiv 32, d0, d1, "
        "(d2 floordiv 4) mod 8, d3 mod 32, d2 mod 4)>"
    )
    walk = [(0, 0, 0, 0), (0, 0, 1, 0), (0, 0, 2, 0), (0, 0, 3, 0), (0, 0, 0, 1), (0, 0, 1, 1)]
    assert [layout.offset(i) for i in walk] == list(range(len(walk)))
    assert layout.offset((0, 0, 3, 31)) == 127
    assert layout.offset((0, 0, 4, 0)) == 128
    assert layout.offset((0, 0, 31, 31)) == 1023
    assert layout.offset((0, 1, 0, 0)) == 1024
    assert layout.offset((1, 0, 0, 0)) == 3 * 1024


def test_conv_weight_layout_pads_and_orders_chunks_as_the_seed_lists() -> None:
    """3x3x32x50 pads to 3x3x32x64; on 3x3x64x96 the d2 chunks run inside the d3 chunks."""
    chunk = 3 * 3 * 32 * 32
    padded = parse_layout(CONV_WEIGHTS, (3, 3, 32, 50))
    assert padded.size == 3 * 3 * 32 * 64
    assert padded.offset((0, 0, 0, 32)) == chunk
    big = parse_layout(CONV_WEIGHTS, (3, 3, 64, 96))
    starts = [
        (0, 0, 0, 0),
        (0, 0, 32, 0),
        (0, 0, 0, 32),
        (0, 0, 32, 32),
        (0, 0, 0, 64),
        (0, 0, 32, 64),
    ]
    assert [big.offset(i) for i in starts] == [k * chunk for k in range(6)]
    assert big.offset((2, 2, 31, 31)) == chunk - 1


ALIASES = [
    ("R4FlatMemoryLayout", "FlatMemoryLayout<4>", "NHWC->NHWC"),
    ("R4NCHWMemoryLayout", "ChunkedMemoryLayout<4, 0,0, 3,0, 2,0, 1,0>", "NHWC->NCWH"),
    (
        "R4Depth32MemoryLayout",
        "ChunkedMemoryLayout<4, 0,0, 1,0, 3,0, 2,0, 2,4, 3,32>",
        "NHWC->NHCW4w32c",
    ),
    ("R4CroutonLayout", CROUTON, "NHWC->NHWC8h8w32c"),
    (
        "R4Crouton4x1Layout",
        "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,4>",
        "NHWC->NHWC8h2w32c4w",
    ),
    (
        "R4Crouton2x2Layout",
        "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,4, 2,4, 3,32, 1,2, 2,2>",
        "NHWC->NHWC4h4w32c2h2w",
    ),
    (
        "R4Crouton2Layout",
        "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,2>",
        "NHWC->NHWC8h2w32c2w",
    ),
]


@pytest.mark.parametrize(("alias", "chunked", "tag"), ALIASES)
def test_alias_is_its_literal_pairs_and_equals_the_tag(alias: str, chunked: str, tag: str) -> None:
    """R4NCHWMemoryLayout follows the table's literal pairs (N, C, W, H): the seed's slip."""
    shape = (1, 9, 10, 40)
    layout = parse_layout(alias, shape)
    assert layout == parse_layout(chunked, shape)
    assert layout.pad == 0
    as_tag = parse_layout(tag, shape)
    assert layout.physical_shape == as_tag.physical_shape
    assert layout.equivalent(as_tag)


def test_crouton_alias_with_pad_31_equals_the_tag_with_pad_31() -> None:
    """HTP's automatic crouton pad is spelled explicitly; channel 40 is the first pad slot of
    the second channel chunk (offset 2048 + 8)."""
    chunked = parse_layout("R4CroutonLayout", (1, 9, 10, 40), dtype="ui8", pad=31)
    tagged = parse_layout("NHWC->NHWC8h8w32c", (1, 9, 10, 40), dtype="ui8", pad=31)
    assert chunked.equivalent(tagged)
    assert not chunked.equivalent(parse_layout("NHWC->NHWC8h8w32c", (1, 9, 10, 40), dtype="ui8"))
    packed = chunked.pack(np.zeros((1, 9, 10, 40), dtype=np.uint8)).ravel()
    assert packed[2048 + 7] == 0
    assert packed[2048 + 8] == 31


# ---- affine maps ------------------------------------------------------------------------

TILED = "affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>"


def test_affine_map_extents_are_exact() -> None:
    layout = parse_layout(TILED, (13, 10))
    assert format_map(layout.index_map) == TILED
    assert layout.physical_shape == (3, 4, 4, 4)
    _assert_offsets(layout, lambda i, j: (j // 4) * 64 + (i // 4) * 16 + (j % 4) * 4 + i % 4)


@pytest.mark.parametrize(
    ("spec", "physical_shape"),
    [
        (TILED, (3, 5, 4, 4)),
        (f"#layout.map<{TILED}, shape = [3, 5, 4, 4]>", None),
    ],
)
def test_affine_map_explicit_shape_adds_room(
    spec: str, physical_shape: tuple[int, ...] | None
) -> None:
    layout = parse_layout(spec, (13, 10), physical_shape=physical_shape)
    assert layout.physical_shape == (3, 5, 4, 4)
    assert layout.size == 240
    _assert_offsets(layout, lambda i, j: (j // 4) * 80 + (i // 4) * 16 + (j % 4) * 4 + i % 4)


def test_affine_map_extent_smaller_than_the_modulus() -> None:
    """`d0 mod 8` on 5 elements reaches 4. MLIR's builtin `affine_map<…>` is sized as
    upstream --normalize-memrefs sizes it: extent 8 (pad slots 5..7); `#layout.map` takes
    the exact extent, 5."""
    builtin = parse_layout("affine_map<(d0) -> (d0 mod 8)>", (5,))
    assert builtin.physical_shape == (8,)
    np.testing.assert_array_equal(builtin.offsets(), np.arange(5))
    assert builtin.logical_index(6) is None
    exact = parse_layout("#layout.map<affine_map<(d0) -> (d0 mod 8)>>", (5,))
    assert exact.physical_shape == (5,)


def test_affine_map_with_a_gap_leaves_pad_slots() -> None:
    layout = parse_layout("affine_map<(d0, d1) -> (d0 * 7 + d1)>", (3, 5))
    assert layout.physical_shape == (2 * 7 + 4 + 1,)
    _assert_offsets(layout, lambda i, j: i * 7 + j)
    assert layout.logical_index(5) is None
    assert layout.logical_index(8) == (1, 1)


# ---- strided ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec", ["strided<[40, 1], offset: 3>", "#layout.strided<[40, 1], offset = 3>"]
)
def test_strided_with_offset(spec: str) -> None:
    layout = parse_layout(spec, (4, 5))
    assert format_map(layout.index_map) == "affine_map<(d0, d1) -> (d0 * 40 + d1 + 3)>"
    assert layout.physical_shape == (3 + 3 * 40 + 4 + 1,)
    _assert_offsets(layout, lambda i, j: 3 + 40 * i + j)
    assert layout.logical_index(0) is None
    assert layout.logical_index(3) == (0, 0)
    assert layout.logical_index(43) == (1, 0)
    assert layout.logical_index(127) == (3, 4)


def test_strided_column_major() -> None:
    layout = parse_layout("strided<[1, 4]>", (4, 5))
    assert layout.physical_shape == (20,)
    values = np.arange(20).reshape(4, 5)
    np.testing.assert_array_equal(layout.pack(values), values.ravel(order="F"))


def test_strided_megengine_byte_example() -> None:
    """The seed's 2x5 int32 tensor: byte strides (20, 4), element [1][2] at byte 28."""
    layout = parse_layout("strided<[5, 1]>", (2, 5), dtype="i32")
    assert layout.nbytes == 40
    assert layout.offset((1, 2)) * 4 == 28


def test_strided_nchw_equals_the_plain_format_offsets() -> None:
    """oneDNN: nchw is strided with (CHW, HW, W, 1)."""
    shape = (2, 3, 4, 5)
    strided = parse_layout("strided<[60, 20, 5, 1]>", shape)
    np.testing.assert_array_equal(strided.offsets(), parse_layout("nchw", shape).offsets())
    assert strided.physical_shape == (120,)


# ---- #layout.… attribute text and notations() -------------------------------------------


def test_tag_attribute_with_every_parameter() -> None:
    text = '#layout.tag<"NHWC->NHWC6c", pad = 1, pack = i6, bit_order = "msb">'
    layout = parse_layout(text, (1, 4, 4, 12), dtype="i1")
    assert layout == parse_layout(
        "NHWC->NHWC6c", (1, 4, 4, 12), dtype="i1", pad=1, pack="i6", bit_order="msb"
    )
    assert layout.pad == 1
    assert layout.packing == Packing("i6", "msb")
    assert layout.physical_shape == (1, 4, 4, 2, 6)
    assert layout.storage_shape == (1, 4, 4, 2)


def test_tag_attribute_with_a_vector_container() -> None:
    layout = parse_layout(
        '#layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>', (1, 4, 4, 12), dtype="i1"
    )
    assert layout.packing == Packing("vector<6xi1>")
    assert layout.storage_shape == (1, 4, 4, 2)


def test_chunked_attribute_with_pad() -> None:
    text = "#layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>"
    layout = parse_layout(text, (1, 9, 10, 40), dtype="i8")
    assert layout == parse_layout("R4CroutonLayout", (1, 9, 10, 40), dtype="i8", pad=31)


def test_map_attribute_with_shape_and_pad() -> None:
    layout = parse_layout(
        f"#layout.map<{TILED}, shape = [4, 4, 4, 4], pad = -1>", (13, 10), dtype="f32"
    )
    assert layout.physical_shape == (4, 4, 4, 4)
    assert layout.pad == -1.0
    physical = layout.pack(np.ones((13, 10), dtype=np.float32))
    assert int(np.count_nonzero(physical == -1.0)) == 256 - 130


def test_strided_attribute_with_pad() -> None:
    layout = parse_layout("#layout.strided<[40, 1], offset = 3, pad = 5>", (4, 5), dtype="i8")
    assert layout.pad == 5
    physical = layout.pack(np.zeros((4, 5), dtype=np.int8))
    assert physical[:3].tolist() == [5, 5, 5]
    assert physical[3:8].tolist() == [0, 0, 0, 0, 0]
    assert physical[8] == 5


def test_notations_of_a_padded_blocked_layout() -> None:
    layout = parse_layout("nChw8c", (2, 17, 5, 4), dtype="i8", pad=31)
    assert layout.notations() == {
        "tag": '#layout.tag<"NCHW->NCHW8c", pad = 31>',
        "chunked": "#layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8], pad = 31>",
        "map": "#layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d1 floordiv 8, d2, d3, d1 mod 8)>, "
        "shape = [2, 3, 5, 4, 8], pad = 31>",
    }


def test_notations_of_a_packed_layout_carry_pack_and_bit_order() -> None:
    layout = parse_layout("NHWC->NHWC6c", (1, 4, 4, 12), dtype="i1", pack="i6", bit_order="msb")
    assert layout.notations()["tag"] == '#layout.tag<"NHWC->NHWC6c", pack = i6, bit_order = "msb">'
    vector = parse_layout("NHWC->NHWC6c", (1, 4, 4, 12), dtype="i1", pack="vector<6xi1>")
    assert vector.notations()["chunked"] == (
        "#layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 3, 6], pack = vector<6xi1>>"
    )


def test_notations_of_a_strided_layout_have_no_tag() -> None:
    layout = parse_layout("strided<[40, 1], offset: 3>", (4, 5))
    assert layout.notations() == {
        "map": "#layout.map<affine_map<(d0, d1) -> (d0 * 40 + d1 + 3)>, shape = [128]>",
        "strided": "#layout.strided<[40, 1], offset = 3>",
    }


def test_notations_of_a_permutation_map_include_a_tag() -> None:
    layout = parse_layout("affine_map<(d0, d1) -> (d1, d0)>", (4, 5))
    assert set(layout.notations()) == {"tag", "chunked", "map"}
    assert layout.notations()["tag"] == '#layout.tag<"AB->BA">'
    assert layout.notations()["chunked"] == "#layout.chunked<[1, 0, 0, 0]>"


def test_notations_of_a_map_with_extra_room_are_only_the_map() -> None:
    layout = parse_layout("affine_map<(d0, d1) -> (d1, d0)>", (4, 5), physical_shape=(6, 4))
    assert layout.notations() == {
        "map": "#layout.map<affine_map<(d0, d1) -> (d1, d0)>, shape = [6, 4]>"
    }


@pytest.mark.parametrize(
    ("spec", "shape", "params"),
    [
        ("nChw8c", (2, 17, 5, 4), {"dtype": "i8", "pad": 31}),
        ("NHWC->NHWC6c", (1, 4, 4, 12), {"dtype": "i1", "pack": "i6", "bit_order": "msb"}),
        ("R4Crouton2x2Layout", (1, 9, 10, 40), {"dtype": "f32", "pad": 1.5}),
        ("strided<[40, 1], offset: 3>", (4, 5), {}),
        (TILED, (13, 10), {}),
        ("NCHW->nhwc", (None, 3, 4, 5), {}),
    ],
)
def test_every_notation_parses_back_to_the_same_layout(
    spec: str, shape: tuple[int | None, ...], params: dict[str, object]
) -> None:
    layout = parse_layout(spec, shape, **params)  # type: ignore[arg-type]
    for kind, text in layout.notations().items():
        assert parse_layout(text, shape, dtype=params.get("dtype")) == layout, kind  # type: ignore[arg-type]


# ---- parameters -------------------------------------------------------------------------


def test_pad_defaults_to_zero_and_pad_argument_overrides() -> None:
    values = np.arange(1, 7, dtype=np.float32).reshape(1, 3, 1, 2)
    default = parse_layout("nChw8c", (1, 3, 1, 2), dtype="f32")
    assert default.pad == 0
    expected = np.zeros((1, 1, 1, 2, 8), dtype=np.float32)
    expected[0, 0, 0, 0, :3] = [1, 3, 5]
    expected[0, 0, 0, 1, :3] = [2, 4, 6]
    np.testing.assert_array_equal(default.pack(values), expected)

    padded = parse_layout("nChw8c", (1, 3, 1, 2), dtype="f32", pad=-1)
    assert padded.pad == -1
    expected[..., 3:] = -1
    np.testing.assert_array_equal(padded.pack(values), expected)

    expected[..., 3:] = 9
    np.testing.assert_array_equal(padded.pack(values, pad=9), expected)
    np.testing.assert_array_equal(padded.unpack(padded.pack(values, pad=9)), values)


def test_pad_in_the_spec_and_the_same_pad_argument_agree() -> None:
    spec = '#layout.tag<"NCHW->nChw8c", pad = 31>'
    assert parse_layout(spec, (1, 3, 1, 2), pad=31).pad == 31


@pytest.mark.parametrize(
    ("bit_order", "words"), [("lsb", [0b001101, 0b100000]), ("msb", [0b101100, 0b000001])]
)
def test_integer_pack_bit_order(bit_order: str, words: list[int]) -> None:
    """Lane i at bits [i, i+1) LSB-first, at [5-i, 6-i) MSB-first in an i6."""
    layout = parse_layout("NHWC->NHWC6c", (1, 1, 1, 12), dtype="i1", pack="i6", bit_order=bit_order)
    bits = np.array([1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1]).reshape(1, 1, 1, 12)
    packed = layout.pack(bits)
    assert packed.dtype == np.uint8
    assert packed.ravel().tolist() == words
    np.testing.assert_array_equal(layout.unpack(packed), bits)


def test_vector_pack_keeps_the_lane_axis() -> None:
    layout = parse_layout("NHWC->NHWC6c", (1, 1, 1, 12), dtype="i1", pack="vector<6xi1>")
    bits = np.array([1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1]).reshape(1, 1, 1, 12)
    packed = layout.pack(bits)
    assert packed.shape == (1, 1, 1, 2, 6)
    np.testing.assert_array_equal(packed.reshape(2, 6), bits.reshape(2, 6))


def test_dynamic_batch_dim() -> None:
    layout = parse_layout("NCHW->nhwc", "?x3x4x5")
    assert layout.logical_shape == (None, 3, 4, 5)
    assert layout.physical_shape == (None, 4, 5, 3)
    assert layout.is_dynamic
    static = layout.specialize((2, 3, 4, 5))
    assert static == parse_layout("NCHW->nhwc", (2, 3, 4, 5))
    _assert_offsets(static, lambda n, c, h, w: n * 60 + h * 15 + w * 3 + c)


def test_dynamic_dim_beside_a_blocked_dim() -> None:
    layout = parse_layout("NCHW->nChw8c", "?x16x4x5")
    assert layout.physical_shape == (None, 2, 4, 5, 8)
    assert layout.specialize((3, 16, 4, 5)).physical_shape == (3, 2, 4, 5, 8)
