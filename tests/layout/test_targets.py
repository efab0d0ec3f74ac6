"""Target layouts: Sophgo TPU local memory (`#layout.tpu`) and FPGA partitions
(`#layout.partition`).

Every worked example of the TPU seed (sophgo-tpu-local-memory.txt) with its own numbers, the
Vivado / HeteroCL / Allo partition semantics, the notation round trips (Python text, attribute
text, the dialect, `layout_of` / `layout_attr`), the diagnostics, and `layout-explain`.

Expected values come from the seed or from offset formulas written out here with numpy (the
seed's "A = Q·S + R", "lane (Q + c) mod X, offset n·Ns + …", Vivado's "element i goes to bank
i mod f"), never from the code under test.
"""

from __future__ import annotations

import math
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, f32, i32
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from heterolayout import LayoutError, check, parse_layout, run
from heterolayout.dialects import (
    PartitionLayoutAttr,
    TpuLayoutAttr,
    layout_attr,
    layout_of,
    load,
    parse_layout_attribute,
    preferred_kind,
)
from heterolayout.layout.element_types import element_type
from heterolayout.layout.expressions import format_map
from heterolayout.layout.partition import PartitionParams
from heterolayout.layout.partition import map_symbols as partition_symbols
from heterolayout.layout.tpu import TpuParams, channels_per_lane, split_address
from heterolayout.layout.tpu import map_symbols as tpu_symbols
from heterolayout.tools.explain import main as explain_main

Index = tuple[int, ...]

X = 4
"""The seed's examples set the number of NPUs (lanes) to 4."""


def physical_from_formula(
    shape: Index, physical: Index, place: Callable[[np.ndarray], tuple[np.ndarray, ...]]
) -> np.ndarray:
    """The flat physical offset of every logical index, from a hand-written placement."""
    grids = np.indices(shape)
    coordinates = place(grids)
    return np.ravel_multi_index(coordinates, physical)


def tpu_formula(
    start: int, strides: tuple[int, int, int, int], lanes: int = X, base: int = 0
) -> Callable[[np.ndarray], tuple[np.ndarray, ...]]:
    """The seed's placement of an NCHW tensor starting on lane `start`."""
    ns, cs, hs, ws = strides

    def place(g: np.ndarray) -> tuple[np.ndarray, ...]:
        n, c, h, w = g
        lane = (start + c) % lanes
        offset = base + n * ns + ((start + c) // lanes) * cs + h * hs + w * ws
        return lane, offset

    return place


def holds(layout, values: np.ndarray, pad: float = -1) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The physical buffer of `values`, pad slots marked."""
    return layout.pack(values, pad=pad)


# ---- the seed: addresses ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("address", "lane", "offset"),
    [(340, 0, 340), (1472, 1, 448), (2300, 2, 252), (3088, 3, 16)],
)
def test_seed_addresses_split_into_lane_and_offset(address: int, lane: int, offset: int) -> None:
    # X = 4 NPUs of S = 1024 bytes: A = Q·S + R. The figure draws 4-byte blocks.
    assert split_address(address, 1024) == (lane, offset)
    tensor = parse_layout(
        f"tpu<lanes = 4, lmem = 1024, address = {address}, stride = compact>",
        (1, 2, 3, 4),
        dtype="f32",
    )
    assert tensor.physical_shape == (4, 1024 // 4)
    assert tensor.physical_index((0, 0, 0, 0)) == (lane, offset // 4)
    # The flat address form: A = lane · S + offset · bytes.
    assert tensor.offset((0, 0, 0, 0)) * 4 == address
    # The next channel: the next lane, or lane 0 one channel row (C stride 3·4) further.
    next_lane, row = divmod(lane + 1, 4)[::-1]
    assert tensor.offset((0, 1, 0, 0)) * 4 == next_lane * 1024 + offset + row * 12 * 4
    assert tensor.offset((0, 0, 2, 3)) * 4 == address + (2 * 4 + 3) * 4


def test_address_gives_the_start_lane() -> None:
    written = parse_layout(
        "tpu<lanes = 4, lmem = 1024, address = 2300, stride = compact>", (1, 1, 1, 1), dtype="f32"
    )
    attribute = parse_layout_attribute(
        "#layout.tpu<lanes = 4, lmem = 1024, address = 2300, stride = compact>"
    )
    assert attribute.params.data == TpuParams(4, 2, "compact", 1024, 2300)  # type: ignore[attr-defined]
    assert str(attribute) == (
        "#layout.tpu<lanes = 4, start = 2, stride = compact, lmem = 1024, address = 2300>"
    )
    assert attribute.to_layout((1, 1, 1, 1), "f32") == written


# ---- the seed: channels per NPU -------------------------------------------------------------------
def lane_rows(lanes: int, start: int, channels: int) -> np.ndarray:
    """Which channel each (lane, channel row) block holds for n = 0, -1 for an empty block:
    a compact 1-pixel tensor, so every block is one slot."""
    layout = parse_layout(
        f"tpu<lanes = {lanes}, start = {start}, stride = compact>",
        (2, channels, 1, 1),
        dtype="f32",
    )
    ids = np.broadcast_to(np.arange(channels).reshape(1, channels, 1, 1), (2, channels, 1, 1))
    physical = layout.pack(ids, pad=-1)
    rows = channels_per_lane(lanes, start, channels)
    assert physical.shape == (lanes, 2 * rows)  # N stride = C stride · rows = rows
    assert np.array_equal(physical[:, rows:], physical[:, :rows])  # (1, c) on the lane of (0, c)
    return physical[:, :rows]


@pytest.mark.parametrize("lanes", [4, 8, 64])
def test_seed_channels_per_npu_for_c_x_minus_1(lanes: int) -> None:
    channels = lanes - 1
    # Start at NPU 0: nothing on NPU X - 1; ceil((0 + X - 1) / X) = 1.
    blocks = lane_rows(lanes, 0, channels)
    assert channels_per_lane(lanes, 0, channels) == 1
    assert blocks[lanes - 1, 0] == -1
    assert list(blocks[: lanes - 1, 0]) == list(range(channels))
    # Start at NPU 1: nothing on NPU 0; still 1 channel per NPU.
    blocks = lane_rows(lanes, 1, channels)
    assert channels_per_lane(lanes, 1, channels) == 1
    assert blocks[0, 0] == -1
    assert list(blocks[1:, 0]) == list(range(channels))
    # (1, 0) is on the NPU of (0, 0), not on NPU X - 1.
    layout = parse_layout(
        f"tpu<lanes = {lanes}, stride = compact>", (2, channels, 1, 1), dtype="f32"
    )
    assert layout.physical_index((1, 0, 0, 0))[0] == 0


@pytest.mark.parametrize("lanes", [4, 8, 64])
def test_seed_channels_per_npu_for_c_x_plus_2(lanes: int) -> None:
    channels = lanes + 2
    # Start at NPU 0: (*, X) and (*, X + 1) on NPUs 0 and 1, X - 2 empty blocks in row 2.
    blocks = lane_rows(lanes, 0, channels)
    assert channels_per_lane(lanes, 0, channels) == 2
    assert (blocks[0, 1], blocks[1, 1]) == (lanes, lanes + 1)
    assert int((blocks[:, 1] == -1).sum()) == lanes - 2
    # Start at NPU X - 1: three rows, X - 1 empty blocks in the first and the third.
    blocks = lane_rows(lanes, lanes - 1, channels)
    assert channels_per_lane(lanes, lanes - 1, channels) == 3
    assert [int((blocks[:, r] == -1).sum()) for r in range(3)] == [lanes - 1, 0, lanes - 1]


def test_seed_features_share_an_npu_iff_channels_agree_mod_x() -> None:
    channels = X + 2
    layout = parse_layout("tpu<lanes = 4, stride = compact>", (3, channels, 2, 2), dtype="f32")
    lane = {c: {layout.physical_index((n, c, 1, 1))[0] for n in range(3)} for c in range(channels)}
    assert all(len(lanes) == 1 for lanes in lane.values())  # (*, c) on one NPU
    for c0 in range(channels):
        for c1 in range(channels):
            assert (lane[c0] == lane[c1]) == (c0 % X == c1 % X)


def test_channels_per_lane_is_the_seed_formula() -> None:
    for lanes in (1, 3, 4, 64):
        for start in range(lanes):
            for channels in (1, lanes - 1 or 1, lanes, lanes + 2, 3 * lanes + 1):
                assert channels_per_lane(lanes, start, channels) == math.ceil(
                    (start + channels) / lanes
                )


# ---- the seed: explicit strides -----------------------------------------------------------------
def test_seed_explicit_strides_2x5x3x4_from_lane_0() -> None:
    # W stride 2, H stride 16, C stride 56, N stride 120; fp32, 4-byte blocks.
    shape = (2, 5, 3, 4)
    layout = parse_layout(
        "tpu<lanes = 4, start = 0, stride = [120, 56, 16, 2]>", shape, dtype="f32"
    )
    assert channels_per_lane(4, 0, 5) == 2
    assert layout.physical_shape == (4, 2 * 120)
    expected = physical_from_formula(shape, (4, 240), tpu_formula(0, (120, 56, 16, 2)))
    assert np.array_equal(layout.offsets(), expected)
    assert layout.physical_index((0, 4, 0, 0)) == (0, 56)  # channel X is back on NPU 0
    assert layout.physical_index((1, 0, 0, 0)) == (0, 120)
    assert layout.physical_index((0, 1, 2, 3)) == (1, 2 * 16 + 3 * 2)
    data = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    assert np.array_equal(layout.unpack(layout.pack(data)), data)


def test_seed_explicit_strides_2x3x1x10_from_lane_1() -> None:
    # W stride 2, N stride 120; H = 1 and ceil((1 + 3) / 4) = 1 channel per NPU: the H and
    # C strides make no sense, so any value gives the same layout.
    shape = (2, 3, 1, 10)
    assert channels_per_lane(4, 1, 3) == 1
    layouts = [
        parse_layout(
            f"tpu<lanes = 4, start = 1, stride = [120, {cs}, {hs}, 2]>", shape, dtype="f32"
        )
        for cs, hs in [(0, 0), (56, 16), (999, 7)]
    ]
    assert layouts[0] == layouts[1] == layouts[2]
    expected = physical_from_formula(shape, (4, 240), tpu_formula(1, (120, 0, 0, 2)))
    assert np.array_equal(layouts[0].offsets(), expected)
    lanes = {
        layouts[0].physical_index((n, c, 0, w))[0]
        for n in range(2)
        for c in range(3)
        for w in range(10)
    }
    assert lanes == {1, 2, 3}  # nothing on NPU 0


def test_explicit_strides_reserve_n_times_the_n_stride_or_up_to_the_last_element() -> None:
    # N innermost: the strides reach further than N · Ns.
    layout = parse_layout("tpu<lanes = 2, stride = [1, 0, 8, 2]>", (2, 2, 3, 4), dtype="f32")
    assert layout.physical_shape == (2, 2 * 8 + 3 * 2 + 1 + 1)
    expected = physical_from_formula((2, 2, 3, 4), (2, 24), tpu_formula(0, (1, 0, 8, 2), lanes=2))
    assert np.array_equal(layout.offsets(), expected)


# ---- the seed: aligned and compact layouts -------------------------------------------------------------
@pytest.mark.parametrize(
    ("stride", "start", "strides"),
    [
        # C stride ceil(4·5 / 32)·32 = 32; 1 channel per NPU from lane 0, 2 from lane 2.
        ("aligned", 0, (32, 32, 5, 1)),
        ("aligned", 2, (64, 32, 5, 1)),
        # compact: C stride H·W = 20.
        ("compact", 0, (20, 20, 5, 1)),
        ("compact", 2, (40, 20, 5, 1)),
    ],
)
def test_seed_aligned_and_compact_2x3x4x5(
    stride: str, start: int, strides: tuple[int, ...]
) -> None:
    shape = (2, 3, 4, 5)
    spec = f"tpu<lanes = 4, start = {start}, stride = {stride}>"
    layout = parse_layout(spec, shape, dtype="f32")
    assert TpuParams(4, start, stride).strides(shape, element_type("f32")) == strides
    assert layout.physical_shape == (4, 2 * strides[0])  # L = N · N stride
    expected = physical_from_formula(shape, (4, 2 * strides[0]), tpu_formula(start, strides))  # type: ignore[arg-type]
    assert np.array_equal(layout.offsets(), expected)


def test_seed_aligned_appends_12_empty_blocks_to_each_feature() -> None:
    layout = parse_layout("tpu<lanes = 4, stride = aligned>", (2, 3, 4, 5), dtype="f32")
    buffer = holds(layout, np.zeros((2, 3, 4, 5)))
    for lane in range(3):
        row = buffer[lane]
        assert list(row[:20]) == [0] * 20 and list(row[20:32]) == [-1] * 12  # (0, c)
        assert list(row[32:52]) == [0] * 20 and list(row[52:64]) == [-1] * 12  # (1, c)
    assert (buffer[3] == -1).all()  # C = 3: NPU 3 is empty


@pytest.mark.parametrize(
    ("dtype", "channel_stride"),
    [("f32", 32), ("i32", 32), ("f16", 64), ("i16", 64), ("ui8", 128), ("i8", 128), ("f64", 32)],
)
def test_aligned_c_stride_is_128_bytes_worth_of_elements(dtype: str, channel_stride: int) -> None:
    # H·W = 21: ceil(21 / 32)·32 for 32-bit, ·64 for 16-bit, ·128 for 8-bit (f64: ·16).
    spec = TpuParams(4)
    assert spec.strides((1, 1, 3, 7), element_type(dtype)) == (channel_stride,) * 2 + (7, 1)
    assert channel_stride * element_type(dtype).nbytes % 128 == 0


def test_aligned_layout_address_must_be_a_multiple_of_128() -> None:
    with pytest.raises(
        LayoutError, match="address 1472 is not a multiple of 128 bytes, as aligned needs"
    ):
        parse_layout("tpu<lanes = 4, lmem = 1024, address = 1472>", (1, 1, 2, 2), dtype="f32")
    with pytest.raises(
        LayoutError, match="address 1026 is not a multiple of 4 bytes, as compact needs"
    ):
        parse_layout(
            "tpu<lanes = 4, lmem = 1024, address = 1026, stride = compact>",
            (1, 1, 2, 2),
            dtype="i8",
        )
    ok = parse_layout("tpu<lanes = 4, lmem = 1024, address = 1408>", (1, 1, 2, 2), dtype="f32")
    assert ok.physical_index((0, 0, 0, 0)) == (1, (1408 - 1024) // 4)


# ---- the seed: matrix layout -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("width", "lanes_with_data", "row_blocks", "last_lane_row"),
    [
        (40, {0}, 64, 40),  # C = 1: ceil(40/32)·32 = 64 blocks per row
        (20, {0, 1}, 32, 20),
        (10, {0, 1, 2, 3}, 32, 10),
        (8, {0, 1, 2, 3}, 64, 8),  # C = 5 > 4 NPUs: two channel rows, 2 · 32 blocks
        (15, {0, 1, 2}, 32, 10),  # the last channel holds 40 - 15·2 = 10 columns
        (6, {0, 1, 2, 3}, 64, 4),  # C = 7
    ],
)
def test_seed_matrix_layout_2x40(
    width: int, lanes_with_data: set[int], row_blocks: int, last_lane_row: int
) -> None:
    layout = parse_layout(f"tpu<lanes = 4, matrix = {width}>", (2, 40), dtype="f32")
    channels = math.ceil(40 / width)
    # (N, ceil(M/W), 1, W) in the aligned layout: C stride ceil(W/32)·32, N stride = one row.
    assert TpuParams(4, matrix=width).view_shape((2, 40)) == (2, channels, 1, width)
    assert layout.physical_shape == (4, 2 * row_blocks)
    counts = np.bincount(layout.offsets().ravel() // layout.physical_shape[1], minlength=4)
    assert {lane for lane in range(4) if counts[lane]} == lanes_with_data
    assert layout.nbytes // 4 == 2 * row_blocks * 4  # bytes per lane: 2 rows of 4-byte blocks
    # Which columns lane (C - 1) mod 4 holds of row 0: the last channel's.
    last = (channels - 1) % 4
    row = [m for m in range(40) if layout.physical_index((0, m))[0] == last]
    assert row[-last_lane_row:] == list(range(40 - last_lane_row, 40))
    channel_stride = math.ceil(width / 32) * 32
    expected = physical_from_formula(
        (2, 40),
        (4, 2 * row_blocks),
        lambda g: (
            (g[1] // width) % 4,
            g[0] * row_blocks + ((g[1] // width) // 4) * channel_stride + g[1] % width,
        ),
    )
    assert np.array_equal(layout.offsets(), expected)


def test_seed_matrix_w6_takes_more_memory_than_w15() -> None:
    sizes = {
        w: parse_layout(f"tpu<lanes = 4, matrix = {w}>", (2, 40), dtype="f32").nbytes
        for w in (6, 15)
    }
    assert sizes[6] > sizes[15]


# ---- the seed: storage modes ---------------------------------------------------------------------------
def test_seed_4n_mode_6x5x4x5_int8_is_2x5x4x5_int8x4() -> None:
    shape = (6, 5, 4, 5)
    spec = TpuParams(4, mode="4N")
    assert spec.view_shape(shape) == (2, 5, 4, 5)
    # Strides against the 32-bit int8x4 words: C stride ceil(20/32)·32, 2 channels per NPU.
    assert spec.strides(shape, element_type("i8")) == (64, 32, 5, 1)
    packed = parse_layout('tpu<lanes = 4, mode = "4N", pack = i32>', shape, dtype="i8")
    assert packed.storage_shape == (4, 128)
    data = (np.arange(np.prod(shape)) % 251 - 125).astype(np.int8).reshape(shape)
    words = packed.pack(data)
    assert words.dtype == np.uint32 and words.shape == (4, 128)
    # int8x4 element (1, 0, 0, 0): int8 (4, 0, 0, 0) and (5, 0, 0, 0), then two dummies.
    word = int(words[0, 64])
    assert word & 0xFF == int(data[4, 0, 0, 0]) & 0xFF
    assert (word >> 8) & 0xFF == int(data[5, 0, 0, 0]) & 0xFF
    assert word >> 16 == 0
    # (4m, c, h, w) … (4m + 3, c, h, w) are continuous in storage.
    plain = parse_layout('tpu<lanes = 4, mode = "4N">', shape, dtype="i8")
    assert plain.physical_shape == (4, 128, 4)
    for c, h, w in [(0, 0, 0), (3, 2, 4), (4, 3, 1)]:
        run = [plain.offset((n, c, h, w)) for n in range(4)]
        assert run == list(range(run[0], run[0] + 4))
    assert np.array_equal(packed.unpack(words), data)


def test_seed_2n_mode_3x5x4x5_int16_is_2x5x4x5() -> None:
    shape = (3, 5, 4, 5)
    spec = TpuParams(4, mode="2N")
    assert spec.view_shape(shape) == (2, 5, 4, 5)
    layout = parse_layout('tpu<lanes = 4, mode = "2N", pack = i32>', shape, dtype="i16")
    data = (np.arange(np.prod(shape)) * 97 - 30000).astype(np.int16).reshape(shape)
    words = layout.pack(data)
    # int16x2 element (1, 0, 0, 0): the int16 at (2, 0, 0, 0) and a dummy.
    offset = layout.physical_index((2, 0, 0, 0))[1]
    assert layout.physical_index((2, 0, 0, 0)) == (0, 64, 0)
    assert int(words[0, offset]) == int(data[2, 0, 0, 0]) & 0xFFFF
    assert [layout.offset((2 * m, 1, 2, 3)) + 1 for m in range(1)] == [layout.offset((1, 1, 2, 3))]
    assert np.array_equal(layout.unpack(words), data)


def test_2ic_mode_pairs_input_channels_into_fp32x2() -> None:
    # A conv weight [I, O, H, W] = (3, 5, 2, 2) fp32: (2j, o, h, w) and (2j + 1, o, h, w) in one
    # 64-bit word; J = 2; aligned against 8-byte words: C stride ceil(4 / 16)·16 = 16.
    shape = (3, 5, 2, 2)
    spec = TpuParams(4, mode="2IC")
    assert spec.view_shape(shape) == (2, 5, 2, 2)
    assert spec.strides(shape, element_type("f32")) == (32, 16, 2, 1)
    layout = parse_layout('tpu<lanes = 4, mode = "2IC", pack = vector<2xf32>>', shape, dtype="f32")
    assert layout.storage_shape == (4, 64)
    data = np.arange(np.prod(shape), dtype=np.float32).reshape(shape) + 0.5
    vectors = layout.pack(data)
    assert vectors.shape == (4, 64, 2)
    lane, word, _ = layout.physical_index((2, 3, 1, 0))
    assert (lane, word) == (3, 32 + 2)
    assert list(vectors[lane, word]) == [data[2, 3, 1, 0], 0.0]  # I = 3 is odd: one dummy
    assert np.array_equal(layout.unpack(vectors), data)


# ---- FPGA partitions ----------------------------------------------------------------------------------
def vivado_bank(
    kind: str, i: np.ndarray, extent: int, factor: int
) -> tuple[np.ndarray, np.ndarray]:
    """Vivado's `array_partition` placement: (bank, index in the bank)."""
    if kind == "cyclic":  # element i into bank i mod f, one element per bank in turn
        return i % factor, i // factor
    if kind == "block":  # f equal blocks of consecutive elements
        return i // (extent // factor), i % (extent // factor)
    return i, np.zeros_like(i)  # complete: one element per bank


@pytest.mark.parametrize(
    ("kind", "extent", "factor", "physical"),
    [
        ("cyclic", 12, 4, (4, 3)),
        ("cyclic", 13, 4, (4, 4)),
        ("cyclic", 3, 4, (4, 1)),  # the bank extent is f even when a bank is empty
        ("block", 12, 4, (4, 3)),
        ("block", 12, 12, (12, 1)),
        ("complete", 5, 5, (5, 1)),
    ],
)
def test_partition_of_one_dim_follows_vivado(
    kind: str, extent: int, factor: int, physical: Index
) -> None:
    factor_text = "" if kind == "complete" else f", factor = {factor}"
    layout = parse_layout(f"partition<{kind}, dims = [0]{factor_text}>", (extent,))
    assert layout.physical_shape == physical
    expected = physical_from_formula(
        (extent,), physical, lambda g: vivado_bank(kind, g[0], extent, factor)
    )
    assert np.array_equal(layout.offsets(), expected)


def test_cyclic_bank_beyond_the_extent_is_empty() -> None:
    layout = parse_layout("partition<cyclic, dims = [0], factor = 4>", (3,))
    assert layout.pack(np.array([7, 8, 9]), pad=-1).tolist() == [[7], [8], [9], [-1]]


def test_two_partitions_of_one_buffer_compose() -> None:
    # cyclic 2 on dim 0 and block 4 on dim 1 of a 6x8 array: 8 banks, bank dims first.
    shape = (6, 8)
    layout = parse_layout("partition<[cyclic, block], dims = [0, 1], factor = [2, 4]>", shape)
    assert layout.physical_shape == (2, 4, 3, 2)

    def place(g: np.ndarray) -> tuple[np.ndarray, ...]:
        b0, i0 = vivado_bank("cyclic", g[0], 6, 2)
        b1, i1 = vivado_bank("block", g[1], 8, 4)
        return b0, b1, i0, i1

    assert np.array_equal(layout.offsets(), physical_from_formula(shape, (2, 4, 3, 2), place))
    # Every bank holds 6 elements, and element (i, j) is in bank (i mod 2, j floordiv 2).
    data = np.arange(48).reshape(shape)
    banks = layout.pack(data).reshape(8, 6)
    for i in range(6):
        for j in range(8):
            assert data[i, j] in banks[(i % 2) * 4 + j // 2]


def test_partition_maps_equal_allo_hcl_dialect_tests() -> None:
    # allo/mlir/tests/Transforms/memory/partition.mlir on memref<1024x1024xf32>:
    # CyclicPartition dim 0 (all dims) factor 4, and BlockPartition dim 2 factor 2 after dim 1
    # factor 4 (their dims count from 1; ours from 0).
    cyclic = parse_layout("partition<cyclic, dims = [0, 1], factor = 4>", (1024, 1024))
    assert format_map(cyclic.index_map) == (
        "affine_map<(d0, d1) -> (d0 mod 4, d1 mod 4, d0 floordiv 4, d1 floordiv 4)>"
    )
    block = parse_layout("partition<block, dims = [0, 1], factor = [4, 2]>", (1024, 1024))
    assert format_map(block.index_map) == (
        "affine_map<(d0, d1) -> (d0 floordiv 256, d1 floordiv 512, d0 mod 256, d1 mod 512)>"
    )


def test_complete_partition_in_a_factor_list_takes_the_extent() -> None:
    layout = parse_layout("partition<[complete, cyclic], dims = [1, 0], factor = [3, 2]>", (4, 3))
    assert layout.physical_shape == (3, 2, 2, 1)
    assert layout.physical_index((3, 2)) == (2, 1, 1, 0)
    one_factor = parse_layout("partition<[complete, cyclic], dims = [1, 0], factor = 2>", (4, 3))
    assert one_factor == layout
    written = parse_layout_attribute(
        "#layout.partition<[complete, cyclic], dims = [1, 0], factor = [3, 2]>"
    )
    assert written.params.data == PartitionParams(("complete", "cyclic"), (1, 0), (3, 2))  # type: ignore[attr-defined]
    assert str(written) == "#layout.partition<[complete, cyclic], dims = [1, 0], factor = [3, 2]>"


def test_partition_keeps_unpartitioned_dims_dynamic() -> None:
    layout = parse_layout("partition<cyclic, dims = [1], factor = 2>", "?x6")
    assert layout.physical_shape == (2, None, 3)
    static = layout.specialize((5, 6))
    assert static.physical_index((4, 5)) == (1, 4, 2)


# ---- notations, attributes, round trips -------------------------------------------------------------
SPECS = [
    ("tpu<lanes = 4, start = 2, stride = aligned>", (2, 3, 4, 5), "f32", {}),
    ("tpu<lanes = 4, stride = [120, 56, 16, 2]>", (2, 5, 3, 4), "f32", {"pad": 0.5}),
    ("tpu<lanes = 4, stride = compact, lmem = 1024, address = 3088>", (1, 2, 3, 4), "f32", {}),
    ("tpu<lanes = 4, matrix = 15>", (2, 40), "f32", {}),
    ('tpu<lanes = 4, mode = "4N", pack = i32>', (6, 5, 4, 5), "i8", {}),
    ('tpu<lanes = 4, start = 3, mode = "2N">', (3, 5, 4, 5), "ui16", {"pad": 7}),
    ('tpu<lanes = 4, mode = "2IC", pack = vector<2xf32>>', (3, 5, 2, 2), "f32", {}),
    ("partition<cyclic, dims = [0], factor = 4>", (10,), "i32", {}),
    ("partition<[cyclic, block], dims = [0, 1], factor = [2, 4]>", (6, 8), "f32", {"pad": 1.5}),
    ("partition<complete, dims = [1]>", (3, 4), "i8", {}),
    ("partition<block, dims = [1], factor = 2, pack = i8>", (3, 4), "i4", {}),
]


def _parse_attribute(text: str):  # type: ignore[no-untyped-def]
    ctx = Context()
    load(ctx)
    return Parser(ctx, text).parse_attribute()


def _memref(shape: Index, dtype: str, attribute_text: str) -> MemRefType:
    ctx = Context()
    load(ctx)
    dims = "x".join(str(e) for e in shape)
    parsed = Parser(ctx, f"memref<{dims}x{dtype}, {attribute_text}>").parse_type()
    assert isinstance(parsed, MemRefType)
    return parsed


@pytest.mark.parametrize(("spec", "shape", "dtype", "params"), SPECS, ids=[s[0] for s in SPECS])
def test_every_spelling_means_the_same_layout(
    spec: str, shape: Index, dtype: str, params: dict
) -> None:
    layout = parse_layout(spec, shape, dtype=dtype, **params)
    kind = spec.split("<")[0]
    assert parse_layout("#layout." + spec, shape, dtype=dtype, **params) == layout
    # The attribute, with the parameters given as arguments, prints what parses back.
    written = parse_layout_attribute("#layout." + spec)
    assert kind == written.KIND
    attribute = type(written)(
        written.params.data,  # type: ignore[attr-defined]
        pad=params.get("pad", written.pad_value),
        pack=None if layout.packing is None else layout.packing.container,
        bit_order=None if layout.packing is None else layout.packing.bit_order,
    )
    text = str(attribute)
    assert _parse_attribute(text) == attribute
    again = parse_layout(text, shape, dtype=dtype)
    assert again == layout
    assert layout_of(_memref(shape, dtype, text)) == layout
    # The map notation says the same; a Layout is what it does, not which notation built it.
    notations = layout.notations()
    assert kind not in notations
    assert parse_layout(notations["map"], shape, dtype=dtype) == layout
    assert layout_attr(layout).KIND in notations
    # get_affine_map(): the shape-generic map, equal to the layout's with the shape's values.
    generic = attribute.get_affine_map()
    values = (
        tpu_symbols(written.params.data, shape, layout.dtype)  # type: ignore[attr-defined]
        if kind == "tpu"
        else partition_symbols(written.params.data, shape)  # type: ignore[attr-defined]
    )
    for index in np.ndindex(*shape):
        assert generic.eval(list(index), list(values)) == layout.physical_index(index)
    data = np.arange(math.prod(shape)).reshape(shape) % 5
    assert np.array_equal(layout.unpack(layout.pack(data)), data)


def test_attributes_print_canonically_and_parse_back_equal() -> None:
    written = _parse_attribute("#layout.tpu<stride = [1, 2, 3, 4], lanes = 8, start = 0>")
    assert str(written) == "#layout.tpu<lanes = 8, start = 0, stride = [1, 2, 3, 4]>"
    bare = _parse_attribute("#layout.tpu<lanes = 8>")
    assert str(bare) == "#layout.tpu<lanes = 8, start = 0, stride = aligned>"
    assert bare == TpuLayoutAttr(TpuParams(8))
    from_address = _parse_attribute(
        '#layout.tpu<lanes = 4, lmem = 512, address = 1536, mode = "2N">'
    )
    assert str(from_address) == (
        '#layout.tpu<lanes = 4, start = 3, stride = aligned, lmem = 512, address = 1536, mode = "2N">'
    )
    same = _parse_attribute("#layout.partition<[cyclic, cyclic], dims = [0, 1], factor = [4, 4]>")
    assert str(same) == "#layout.partition<cyclic, dims = [0, 1], factor = 4>"
    assert same == PartitionLayoutAttr(PartitionParams(("cyclic", "cyclic"), (0, 1), 4))
    padded = _parse_attribute("#layout.partition<complete, dims = [0], pad = 3 : i64>")
    assert str(padded) == "#layout.partition<complete, dims = [0], pad = 3>"


def test_target_attributes_give_their_map_with_the_shape_as_symbols() -> None:
    attribute = _parse_attribute("#layout.tpu<lanes = 4>")
    assert format_map(attribute.get_affine_map()) == (
        "affine_map<(d0, d1, d2, d3)[s0, s1, s2] -> "
        "(d1 mod 4, d0 * s0 + (d1 floordiv 4) * s1 + d2 * s2 + d3)>"
    )
    explicit = _parse_attribute("#layout.tpu<lanes = 2, start = 1, stride = [9, 4, 2, 1]>")
    assert format_map(explicit.get_affine_map()) == (
        "affine_map<(d0, d1, d2, d3) -> "
        "((d1 + 1) mod 2, d0 * 9 + ((d1 + 1) floordiv 2) * 4 + d2 * 2 + d3)>"
    )
    banks = _parse_attribute("#layout.partition<[block, cyclic], dims = [1, 0], factor = 2>")
    assert format_map(banks.get_affine_map()) == (
        "affine_map<(d0, d1)[s0] -> (d1 floordiv s0, d0 mod 2, d0 floordiv 2, d1 mod s0)>"
    )
    memref = MemRefType(f32, [2, 3, 4, 5], attribute)
    assert layout_of(memref).physical_shape == (4, 64)  # type: ignore[union-attr]
    partition = MemRefType(
        i32, [10], _parse_attribute("#layout.partition<cyclic, dims = [0], factor = 4>")
    )
    assert layout_of(partition).physical_shape == (4, 3)  # type: ignore[union-attr]


def test_a_layout_is_what_it_does_not_which_notation_built_it() -> None:
    # (d1, d0) on 4x5 is also a TPU matrix layout with W = 1, and "A->4aA" a cyclic partition:
    # the target notations are written from their parameters, never read off a Layout.
    transpose = parse_layout("affine_map<(d0, d1) -> (d1, d0)>", (4, 5))
    assert set(transpose.notations()) == {"tag", "chunked", "map"}
    cyclic_tag = parse_layout("A->4aA", (10,))
    cyclic = parse_layout("partition<cyclic, dims = [0], factor = 4>", (10,))
    assert cyclic_tag == cyclic and cyclic.notations() == cyclic_tag.notations()
    assert preferred_kind(cyclic) == "chunked" and preferred_kind(cyclic_tag) == "tag"
    with pytest.raises(LayoutError, match="the tpu notation cannot express"):
        layout_attr(cyclic, "tpu")


# ---- diagnostics ------------------------------------------------------------------------------------
DIAGNOSTICS = [
    (
        "tpu<lanes = 4, start = 4>",
        (1, 1, 1, 1),
        "f32",
        "start lane 4 is out of range: lanes are 0 to 3",
    ),
    (
        "tpu<lanes = 4, stride = [8, 0, 2, 1]>",
        (2, 3, 2, 3),
        "f32",
        r"stride = \[8, 0, 2, 1\] overlaps within lane 0: \(0,0,0,2\) and \(0,0,1,0\) are both at offset 2",
    ),
    (
        "tpu<lanes = 4>",
        (5, 4, 3),
        "f32",
        r"#layout.tpu needs a 4-D NCHW memref, not 5x4x3 \(rank 3\)",
    ),
    ("tpu<lanes = 4, matrix = 8>", (2, 3, 4, 5), "f32", "the matrix layout needs a 2-D N×M memref"),
    (
        "tpu<lanes = 4, matrix = 41>",
        (2, 40),
        "f32",
        r"matrix = 41 is wider than the matrix's 40 columns",
    ),
    ("tpu<lanes = 4>", (1, 2, 3, 4), None, r"stride = aligned needs the element type \(dtype\)"),
    ("tpu<lanes = 4, stride = compact, pack = i32>", (1, 2, 3, 4), "i8", "needs a storage mode"),
    ('tpu<lanes = 4, mode = "4N">', (4, 2, 3, 4), "i16", r'mode = "4N" stores an 8-bit integer'),
    ('tpu<lanes = 4, mode = "2IC">', (4, 2, 3, 4), "i32", 'mode = "2IC" stores f32, not i32'),
    ('tpu<lanes = 4, mode = "8N">', (4, 2, 3, 4), "i8", "is not a storage mode"),
    (
        "tpu<lanes = 4, stride = [8, 0, 2, 1]>",
        (2, 5, 1, 1),
        "f32",
        r"overlaps within lane 0: \(0,0,0,0\) and \(0,4,0,0\) are both at offset 0",
    ),
    (
        "tpu<lanes = 4, stride = [1, 2, 3]>",
        (1, 1, 1, 1),
        "f32",
        r"needs 4 strides \[Ns, Cs, Hs, Ws\]",
    ),
    ("tpu<lanes = 4, stride = [1, -2, 3, 4]>", (1, 1, 1, 1), "f32", "stride -2 is negative"),
    ("tpu<lanes = 4, address = 100>", (1, 1, 1, 1), "f32", "address = 100 needs lmem"),
    (
        "tpu<lanes = 4, lmem = 64, address = 256>",
        (1, 1, 1, 1),
        "f32",
        r"outside local memory \[0, 255\]",
    ),
    ("tpu<lanes = 4, start = 1, lmem = 64, address = 128>", (1, 1, 1, 1), "f32", "is on lane 2"),
    (
        "tpu<lanes = 4, lmem = 252>",
        (2, 3, 4, 5),
        "f32",
        r"needs 64 words \(256 bytes\) per lane from offset 0, more than lmem = 252 bytes",
    ),
    ("tpu<lanes = 4, stride = sparse>", (1, 1, 1, 1), "f32", "stride = sparse"),
    ("tpu<lanes = 0>", (1, 1, 1, 1), "f32", "lanes = 0 must be positive"),
    ("tpu<start = 1>", (1, 1, 1, 1), "f32", "needs lanes ="),
    ("tpu<lanes = 4, factor = 2>", (1, 1, 1, 1), "f32", "unknown parameter 'factor'"),
    ("tpu<lanes = 4, shape = [4, 8]>", (1, 1, 1, 1), "f32", "unknown parameter 'shape'"),
    (
        "partition<block, dims = [0], factor = 4>",
        (13,),
        None,
        "block factor 4 does not divide dim 0 of extent 13",
    ),
    (
        "partition<cyclic, dims = [2], factor = 4>",
        (8, 8),
        None,
        r"dim 2 is out of range for the 2-D shape 8x8",
    ),
    ("partition<cyclic, dims = [-1], factor = 4>", (8, 8), None, "dim -1 is negative"),
    ("partition<cyclic, dims = [0], factor = 0>", (8,), None, "factor 0 is not a partition factor"),
    ("partition<cyclic, dims = [0]>", (8,), None, "a cyclic partition needs factor"),
    (
        "partition<complete, dims = [0], factor = 4>",
        (8,),
        None,
        "a complete partition takes no factor",
    ),
    (
        "partition<[complete, cyclic], dims = [0, 1], factor = [4, 2]>",
        (8, 8),
        None,
        "makes 8 banks",
    ),
    ("partition<cyclic, dims = [0, 0], factor = 2>", (8,), None, "dim 0 is partitioned twice"),
    ("partition<cyclic, dims = [0, 1], factor = [2]>", (8, 8), None, "has 1 entries for 2 dims"),
    (
        "partition<[cyclic, block, block], dims = [0, 1], factor = 2>",
        (8, 8),
        None,
        "3 kinds for 2 dims",
    ),
    (
        "partition<strided, dims = [0], factor = 2>",
        (8,),
        None,
        r"expected a partition kind \(cyclic, block or complete\), not 'strided'",
    ),
    ("partition<cyclic, factor = 2>", (8,), None, "needs dims ="),
    (
        "partition<dims = [0], factor = 2>",
        (8,),
        None,
        r"expected a partition kind \(cyclic, block or complete\), not 'dims'",
    ),
    ("partition<cyclic, dims = [0], factor = 2>", "?x4", None, "dim 0 is dynamic"),
]


@pytest.mark.parametrize(
    ("spec", "shape", "dtype", "message"),
    DIAGNOSTICS,
    ids=[d[0] + "@" + str(d[1]) for d in DIAGNOSTICS],
)
def test_diagnostic(spec: str, shape: Index | str, dtype: str | None, message: str) -> None:
    with pytest.raises(LayoutError, match=message) as caught:
        parse_layout(spec, shape, dtype=dtype)
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith(f"layout '{spec}'")


def test_physical_shape_argument_must_agree() -> None:
    with pytest.raises(LayoutError, match="physical shape 4x9 contradicts the physical shape 4x3"):
        parse_layout("partition<cyclic, dims = [0], factor = 4>", (10,), physical_shape=(4, 9))
    assert (
        parse_layout("partition<cyclic, dims = [0], factor = 4>", (10,), physical_shape=(4, 3)).size
        == 12
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#layout.tpu<lanes = 4, start = 4>", "start lane 4 is out of range"),
        ("#layout.tpu<lanes = 4, stride = dense>", "aligned, compact or"),
        ("#layout.partition<cyclic, dims = [0], factor = 0>", "factor 0 is not a partition factor"),
        ("#layout.partition<round, dims = [0]>", "expected a partition kind"),
        (
            "#layout.partition<cyclic, dims = [0], factor = 2, lanes = 4>",
            "unknown parameter 'lanes'",
        ),
    ],
)
def test_dialect_rejects_bad_attributes_at_parse_time(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        _parse_attribute(text)


# ---- properties: the model against the formulas ---------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    lanes=st.integers(1, 6),
    data=st.data(),
    shape=st.tuples(st.integers(1, 3), st.integers(1, 9), st.integers(1, 3), st.integers(1, 4)),
    stride=st.sampled_from(["aligned", "compact"]),
    dtype=st.sampled_from(["f32", "i16", "i8", "f64"]),
)
def test_tpu_offsets_equal_the_seed_formula(lanes, data, shape, stride, dtype) -> None:  # type: ignore[no-untyped-def]
    start = data.draw(st.integers(0, lanes - 1))
    n, c, h, w = shape
    rows = math.ceil((start + c) / lanes)
    per_line = 128 // element_type(dtype).nbytes
    channel = h * w if stride == "compact" else math.ceil(h * w / per_line) * per_line
    strides = (channel * rows, channel, w, 1)
    layout = parse_layout(
        f"tpu<lanes = {lanes}, start = {start}, stride = {stride}>", shape, dtype=dtype
    )
    physical = (lanes, n * strides[0])
    assert layout.physical_shape == physical
    assert np.array_equal(
        layout.offsets(), physical_from_formula(shape, physical, tpu_formula(start, strides, lanes))
    )


@settings(max_examples=60, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 12), st.integers(1, 12)),
    kinds=st.tuples(
        st.sampled_from(["cyclic", "block", "complete"]),
        st.sampled_from(["cyclic", "block", "complete"]),
    ),
    data=st.data(),
)
def test_partition_offsets_equal_vivado(shape, kinds, data) -> None:  # type: ignore[no-untyped-def]
    factors = []
    for kind, extent in zip(kinds, shape, strict=True):
        if kind == "block":
            factors.append(
                data.draw(st.sampled_from([f for f in range(1, extent + 1) if extent % f == 0]))
            )
        elif kind == "cyclic":
            factors.append(data.draw(st.integers(1, extent + 2)))
        else:
            factors.append(extent)
    layout = parse_layout(
        f"partition<[{kinds[0]}, {kinds[1]}], dims = [0, 1], factor = [{factors[0]}, {factors[1]}]>",
        shape,
    )
    banks = [
        vivado_bank(k, np.arange(e), e, f) for k, e, f in zip(kinds, shape, factors, strict=True)
    ]
    inner = [
        int(b[1].max()) + 1 if k != "cyclic" else math.ceil(e / f)
        for b, k, e, f in zip(banks, kinds, shape, factors, strict=True)
    ]
    physical = (factors[0], factors[1], inner[0], inner[1])
    assert layout.physical_shape == physical
    expected = physical_from_formula(
        shape,
        physical,
        lambda g: (banks[0][0][g[0]], banks[1][0][g[1]], banks[0][1][g[0]], banks[1][1][g[1]]),
    )
    assert np.array_equal(layout.offsets(), expected)


# ---- layout-explain -------------------------------------------------------------------------------------
def test_explain_shows_the_lane_of_every_element(capsys: pytest.CaptureFixture[str]) -> None:
    code = explain_main(
        [
            "tpu<lanes = 4, start = 2, stride = aligned>",
            "--shape",
            "2x3x4x5",
            "--dtype",
            "f32",
            "--walk-limit",
            "0",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert "  tpu:          #layout.tpu<lanes = 4, start = 2, stride = aligned>" in lines
    assert "lanes:          4 lanes of 128 slots" in lines
    # C = 3 from lane 2: channels 0, 1, 2 on lanes 2, 3, 0; lane 1 empty; 2 rows · 20 per n.
    assert lines[lines.index("lanes:          4 lanes of 128 slots") + 1 :][:4] == [
        "  lane 0: 40 elements, 88 pad slots",
        "  lane 1: 0 elements, 128 pad slots",
        "  lane 2: 40 elements, 88 pad slots",
        "  lane 3: 40 elements, 88 pad slots",
    ]
    placement = {
        line.split(" -> ")[0].strip(): line.split(" -> ")[1]
        for line in lines
        if " -> lane " in line
    }
    assert len(placement) == 120
    for n, c, h, w in [(0, 0, 0, 0), (1, 2, 3, 4), (0, 1, 2, 0)]:
        lane, offset = (2 + c) % 4, n * 64 + ((2 + c) // 4) * 32 + h * 5 + w
        assert placement[f"({n},{c},{h},{w})"] == f"lane {lane}, offset {offset}"
    assert "lane 1: pad x128," in lines
    assert "N 64, C 32, H 5, W 1" in out


def test_explain_draws_banks(capsys: pytest.CaptureFixture[str], tmp_path) -> None:  # type: ignore[no-untyped-def]
    svg = tmp_path / "banks.svg"
    code = explain_main(
        ["partition<cyclic, dims = [0], factor = 4>", "--shape", "10", "--svg", str(svg)]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "  (9) -> bank 1, index (2)" in out.splitlines()
    assert "bank 2: (2), (6), pad(10)," in out.splitlines()
    picture = out.splitlines()[out.splitlines().index("      0    1    2") + 1 :][:4]
    assert picture == [
        "0 |   0    4    8",
        "1 |   1    5    9",
        "2 |   2    6  pad",
        "3 |   3    7  pad",
    ]
    cells = [
        c
        for c in ET.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}rect")
        if "cell" in (c.get("class") or "")
    ]
    fills: dict[int, set[str]] = {}
    for cell in cells:
        if cell.get("class") == "cell":
            fills.setdefault(int(cell.get("data-index")) % 4, set()).add(cell.get("fill"))  # type: ignore[arg-type]
    assert all(len(f) == 1 for f in fills.values())  # one colour per bank
    assert len(set().union(*fills.values())) == 4


def test_explain_of_other_layouts_names_no_lanes(capsys: pytest.CaptureFixture[str]) -> None:
    code = explain_main(["A->4aA", "--shape", "10"])
    out = capsys.readouterr().out
    assert code == 0 and "target:" not in out and "bank" not in out


# ---- both engines ----------------------------------------------------------------------------------
def engine_program(shape: Index, element: str, source: str, result: str, scale: str) -> str:
    """@main(%A: source layout, %B: result layout) -> sum of A: B = A · scale, element-wise."""
    memref_a = f"memref<{'x'.join(map(str, shape))}x{element}, {source}>"
    memref_b = f"memref<{'x'.join(map(str, shape))}x{element}, {result}>"
    add, mul = ("arith.addf", "arith.mulf") if element == "f32" else ("arith.addi", "arith.muli")
    zero = "0.0" if element == "f32" else "0"
    lines = [
        f"func.func @main(%A: {memref_a}, %B: {memref_b}) -> {element} {{",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        *[f"  %e{d} = arith.constant {e} : index" for d, e in enumerate(shape)],
        f"  %k = arith.constant {scale} : {element}",
        f"  %zero = arith.constant {zero} : {element}",
    ]
    carried = "%zero"
    for d in range(len(shape)):
        lines.append(
            f"  %s{d} = scf.for %i{d} = %c0 to %e{d} step %c1 iter_args(%a{d} = {carried}) -> ({element}) {{"
        )
        carried = f"%a{d}"
    index = ", ".join(f"%i{d}" for d in range(len(shape)))
    lines += [
        f"  %x = memref.load %A[{index}] : {memref_a}",
        f"  %y = {mul} %x, %k : {element}",
        f"  memref.store %y, %B[{index}] : {memref_b}",
        f"  %t = {add} {carried}, %x : {element}",
        "  scf.yield %t : " + element,
    ]
    for d in reversed(range(len(shape))):
        lines.append("  }")
        if d:
            lines.append(f"  scf.yield %s{d} : {element}")
    lines += [f"  func.return %s0 : {element}", "}"]
    return "\n".join(lines)


ENGINE_CASES = [
    pytest.param(
        (2, 5, 3, 4),
        "f32",
        "#layout.tpu<lanes = 4, start = 0, stride = [120, 56, 16, 2]>",
        "#layout.tpu<lanes = 4, start = 2, stride = aligned, pad = -1.5>",
        (4, 128),
        tpu_formula(2, (64, 32, 4, 1)),
        -1.5,
        id="tpu",
    ),
    pytest.param(
        (6, 8),
        "i32",
        "#layout.partition<[cyclic, block], dims = [0, 1], factor = [2, 4]>",
        "#layout.partition<[complete, cyclic], dims = [1, 0], factor = [8, 4], pad = -7>",
        (8, 4, 2, 1),
        lambda g: (g[1], g[0] % 4, g[0] // 4, np.zeros_like(g[0])),
        -7,
        id="partition",
    ),
]


@pytest.mark.parametrize("engine", ["interp", "compiled"])
@pytest.mark.parametrize(
    ("shape", "element", "source", "result", "physical", "place", "pad"), ENGINE_CASES
)
def test_target_program_runs_in_both_engines(  # type: ignore[no-untyped-def]
    engine, shape, element, source, result, physical, place, pad
) -> None:
    text = engine_program(shape, element, source, result, "3.0" if element == "f32" else "3")
    dtype = np.float32 if element == "f32" else np.int32
    a = ((np.arange(math.prod(shape)) % 13) * 2 - 9).astype(dtype).reshape(shape)
    b = np.zeros(shape, dtype)
    # The program as written: logical semantics.
    (total,) = run(text, args=[a, b], engine=engine)
    assert total == a.sum() and np.array_equal(b, a * 3)
    report = check(text, engine=engine)
    assert report.equal and report.compared == 1 + 2 * a.size, str(report)
    # The lowered program on physical buffers: B lands where the hand placement says.
    lowered = subprocess.run(
        ["layout-opt", "-p", "layout-lower"], input=text, capture_output=True, text=True, check=True
    ).stdout
    source_layout = parse_layout(source, shape, dtype=element)
    result_buffer = np.full(physical, pad, dtype)  # as the caller packs it: pad slots hold pad
    (total,) = run(lowered, args=[source_layout.pack(a), result_buffer], engine=engine)
    assert total == a.sum()
    expected = np.full(math.prod(physical), pad, dtype)
    expected[physical_from_formula(shape, physical, place).ravel()] = (a * 3).ravel()
    assert np.array_equal(result_buffer.ravel(), expected)
