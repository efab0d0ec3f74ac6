"""The seeds' worked examples, with the seeds' own numbers.

Expected values come from the seeds and from hand-written offset formulas (numpy), never
from the code under test. Where a seed contradicts itself, only what it states
unambiguously is asserted; docs/notations.md records each slip next to the rule that
resolves it.
"""

from __future__ import annotations

import doctest
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from heterolayout import Layout, parse_layout
from tests.paths import REPOSITORY

NOTATIONS_DOC = REPOSITORY / "docs" / "notations.md"

Index = tuple[int, ...]
OffsetFormula = Callable[[Index], int]


# ---- memory walks, written the way the seeds list them -------------------------------------
@dataclass(frozen=True)
class WalkStep:
    """One listed position and how it follows the previous one: right after it, or later."""

    index: Index
    right_after: bool


_WALK_TOKEN = re.compile(r"\(([\d,\s]+)\)|\.\.\.")


def parse_walk(text: str) -> list[WalkStep]:
    """A seed listing: `,` and line breaks join adjacent slots, `...` skips ahead.

    A line holding only `...` skips ahead too; blank lines are only for reading.
    """
    steps: list[WalkStep] = []
    skipped = False
    for line in text.strip().splitlines():
        for token in _WALK_TOKEN.finditer(line):
            if token.group(1) is None:
                skipped = True
                continue
            index = tuple(int(part) for part in token.group(1).split(","))
            steps.append(WalkStep(index, right_after=bool(steps) and not skipped))
            skipped = False
    return steps


def check_walk(
    padded: Layout,
    layout: Layout,
    walk: str,
    expected_offset: OffsetFormula,
) -> list[int]:
    """Each listed position sits where the hand formula says, in the listed order, and is
    data or pad as the logical box says. `padded` is the layout on the padded box the seed
    writes its coordinates in; `layout` is the one on the real logical shape."""
    steps = parse_walk(walk)
    offsets: list[int] = []
    for step in steps:
        offset = expected_offset(step.index)
        assert padded.offset(step.index) == offset, step.index
        inside = all(i < e for i, e in zip(step.index, layout.logical_shape, strict=True))
        assert layout.logical_index(offset) == (step.index if inside else None), step.index
        if offsets:
            if step.right_after:
                assert offset == offsets[-1] + 1, step.index
            else:
                assert offset > offsets[-1], step.index
        offsets.append(offset)
    return offsets


def pad_slots(layout: Layout) -> np.ndarray:
    """Offsets that no logical element maps to (independent of `logical_index`)."""
    used = np.zeros(layout.size, dtype=bool)
    used[layout.offsets().ravel()] = True
    return np.flatnonzero(~used)


def index_grids(shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    return tuple(np.indices(shape))


# ==== htp-core-memory-layout.txt ============================================================
def flat_offset(index: Index) -> int:
    """Row-major offset on 2x3x5x30: dim 3 fastest."""
    n, h, w, c = index
    return ((n * 3 + h) * 5 + w) * 30 + c


# The seed's row `(0,1,0,0), (0,0,0,1), … (0,1,0,29)` has a slip (see docs/notations.md):
# only its ends are kept.
FLAT_WALK_2x3x5x30 = """
(0,0,0,0), (0,0,0,1) ... (0,0,0,29),
(0,0,1,0), (0,0,1,1) ... (0,0,1,29),
...
(0,0,4,0), (0,0,4,1), ... (0,0,4,29),
(0,1,0,0) ... (0,1,0,29),
(0,1,1,0), (0,1,1,1), ... (0,1,1,29),
...
(0,2,1,0), (0,2,1,1), ... (0,2,1,29),
...
(0,2,4,0), (0,2,4,1), ... (0,2,4,29),
(1,0,0,0), (1,0,0,1), ... (1,0,0,29),
...
(1,2,4,0), (1,2,4,1), ... (1,2,4,29),
"""


@pytest.mark.parametrize(
    "spec", ["FlatMemoryLayout<4>", "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0>"]
)
def test_htp_flat_walk(spec: str) -> None:
    layout = parse_layout(spec, (2, 3, 5, 30))
    assert layout.physical_shape == (2, 3, 5, 30)
    offsets = check_walk(layout, layout, FLAT_WALK_2x3x5x30, flat_offset)
    assert offsets[0] == 0 and offsets[-1] == 2 * 3 * 5 * 30 - 1
    # consecutive offsets walk the listed rows element by element
    for offset in range(0, 2 * 3 * 5 * 30, 7):
        expected = tuple(int(i) for i in np.unravel_index(offset, (2, 3, 5, 30)))
        assert layout.logical_index(offset) == expected


def test_htp_flat_walk_slip_resolved_by_dim3_fastest() -> None:
    """The seed's fifth row starts `(0,1,0,0), (0,0,0,1)`; the pair rule puts (0,1,0,1) there."""
    layout = parse_layout("FlatMemoryLayout<4>", (2, 3, 5, 30))
    assert layout.offset((0, 1, 0, 0)) == 150
    assert layout.logical_index(151) == (0, 1, 0, 1)
    assert layout.offset((0, 0, 0, 1)) == 1


def test_htp_flat_is_the_nhwc_memory_order() -> None:
    x = np.arange(2 * 3 * 5 * 30).reshape(2, 3, 5, 30)
    layout = parse_layout("R4FlatMemoryLayout", x.shape)
    np.testing.assert_array_equal(layout.pack(x).ravel(), np.arange(x.size))


def test_htp_nhwc_tensor_stored_in_nchw_order() -> None:
    """`ChunkedMemoryLayout<4, 0,0, 3,0, 1,0, 2,0>`: NHWC dims, NCHW memory order."""
    shape = (2, 3, 5, 30)
    layout = parse_layout("ChunkedMemoryLayout<4, 0,0, 3,0, 1,0, 2,0>", shape)
    x = np.arange(np.prod(shape)).reshape(shape)
    np.testing.assert_array_equal(layout.pack(x).ravel(), x.transpose(0, 3, 1, 2).ravel())
    n, h, w, c = index_grids(shape)
    np.testing.assert_array_equal(layout.offsets(), ((n * 30 + c) * 3 + h) * 5 + w)


def crouton_offset(padded_shape: Index) -> OffsetFormula:
    """1x8x8x32 chunks in (n, h-chunk, w-chunk, c-chunk) order, (h, w, c) inside a chunk."""
    _, height, width, depth = padded_shape

    def offset(index: Index) -> int:
        n, h, w, c = index
        chunk = ((n * (height // 8) + h // 8) * (width // 8) + w // 8) * (depth // 32) + c // 32
        return chunk * 2048 + (h % 8) * 256 + (w % 8) * 32 + c % 32

    return offset


# The seed's second row ends `(0,0,0,30), (0,0,0,31)`, a slip for this row's pad: dropped.
CROUTON_WALK_1x3x5x30 = """
(0,0,0,0), (0,0,0,1), ... (0,0,0,29),  (0,0,0,30), (0,0,0,31),
(0,0,1,0), (0,0,1,1), ... (0,0,1,29),
...
(0,0,4,0), (0,0,4,1), ... (0,0,4,29), (0,0,4,30), (0,0,4,31),
(0,0,5,0), (0,0,5,1), ... (0,0,5,31),
...
(0,0,7,0), (0,0,7,1), ... (0,0,7,31),
(0,1,0,0), (0,1,0,1), ... (0,1,0,31),
(0,1,1,0), (0,1,1,1), ... (0,1,1,31),
...
(0,2,1,0), (0,2,1,1), ... (0,2,1,31),
...
(0,2,4,0), (0,2,4,1), ... (0,2,4,29), (0,2,4,30), (0,2,4,31)
"""


def test_htp_crouton_walk_1x3x5x30() -> None:
    layout = parse_layout("R4CroutonLayout", (1, 3, 5, 30))
    padded = parse_layout("R4CroutonLayout", (1, 8, 8, 32))
    assert layout.physical_shape == padded.physical_shape == (1, 1, 1, 1, 8, 8, 32)
    assert layout.size == 8 * 8 * 32 == 2048
    check_walk(padded, layout, CROUTON_WALK_1x3x5x30, crouton_offset((1, 8, 8, 32)))
    assert layout.logical_index(30) is None and layout.logical_index(31) is None
    assert layout.offset((0, 0, 1, 0)) == 32
    assert layout.offset((0, 0, 4, 29)) == 157
    assert layout.offset((0, 1, 0, 0)) == 256
    assert layout.offset((0, 2, 4, 29)) == 669


def test_htp_crouton_pad_ranges_1x3x5x30() -> None:
    """The pad the seed lists: (0,0,4,30)…(0,0,7,31) and (0,2,4,30)…(0,7,7,31)."""
    layout = parse_layout("R4CroutonLayout", (1, 3, 5, 30))
    pad = set(pad_slots(layout).tolist())
    assert {30, 31} <= pad
    assert set(range(158, 256)) <= pad  # (0,0,4,30) = 4*32+30 … (0,0,7,31) = 255
    assert set(range(670, 2048)) <= pad  # (0,2,4,30) = 2*256+4*32+30 … (0,7,7,31)
    assert all(layout.logical_index(o) is None for o in (158, 255, 670, 767, 768, 2047))
    assert len(pad) == 2048 - 1 * 3 * 5 * 30


def test_htp_crouton_walk_slip_resolved_by_pair_rule() -> None:
    """The seed's second row ends `(0,0,1,29), (0,0,0,30), (0,0,0,31)`: those slots are the
    pad of row w = 1, offsets 62 and 63; (0,0,0,30) and (0,0,0,31) are 30 and 31."""
    padded = parse_layout("R4CroutonLayout", (1, 8, 8, 32))
    assert padded.offset((0, 0, 1, 29)) == 61
    assert padded.logical_index(62) == (0, 0, 1, 30)
    assert padded.logical_index(63) == (0, 0, 1, 31)
    assert padded.offset((0, 0, 0, 30)) == 30
    layout = parse_layout("R4CroutonLayout", (1, 3, 5, 30))
    assert layout.logical_index(62) is None and layout.logical_index(63) is None


def test_htp_crouton_pad_31() -> None:
    """HTP pads croutons with 31: the alias carries no pad, `pad = 31` says it."""
    assert parse_layout("R4CroutonLayout", (1, 3, 5, 30)).pad == 0
    layout = parse_layout(
        "#layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>",
        (1, 3, 5, 30),
        dtype="i8",
    )
    assert layout == parse_layout("R4CroutonLayout", (1, 3, 5, 30), dtype="i8", pad=31)
    flat = layout.pack(np.ones((1, 3, 5, 30), dtype=np.int8)).ravel()
    assert flat.size == 2048
    assert (flat == 31).sum() == 2048 - 450 and (flat == 1).sum() == 450
    assert flat[29] == 1 and flat[30] == 31 and flat[31] == 31 and flat[32] == 1


# The seed's last two lines list h = 8 whole before h = 15 (a slip); only their ends are kept.
CROUTON_WALK_2x9x20x50 = """
(0,0,0,0) ... (0,0,0,31)
(0,0,1,0) ... (0,0,1,31)
...
(0,0,7,0) ... (0,0,7,31)
(0,1,0,0) ... (0,1,7,31)
...
(0,7,7,0) ... (0,7,7,31)

(0,0,0,32) ... (0,0,0,63)
(0,0,1,32) ... (0,0,1,63)
...
(0,0,7,32) ... (0,0,7,63)
(0,1,0,32) ... (0,1,7,63)
...
(0,7,7,32) ... (0,7,7,63)

(0,0,8,0) ...  (0,0,8,31)
(0,0,9,0) ...  (0,0,9,31)
...
(0,0,15,0) ... (0,0,15,31)
(0,1,8,0) ...  (0,1,15,31)
...
(0,7,8,0) ...  (0,7,15,31)

(0,0,8,32) ... (0,0,15,63)
...
(0,7,8,32) ... (0,7,15,63)
(0,0,16,0) ... (0,0,23,63)
...
(0,7,16,32) ... (0,7,23,63)

(0,8,0,0) ... (0,15,23,63)
(1,0,0,0) ... (1,15,23,63)
"""


def test_htp_crouton_walk_2x9x20x50() -> None:
    layout = parse_layout("R4CroutonLayout", (2, 9, 20, 50))
    padded = parse_layout("R4CroutonLayout", (2, 16, 24, 64))
    assert layout.physical_shape == padded.physical_shape == (2, 2, 3, 2, 8, 8, 32)
    assert layout.size == 2 * 16 * 24 * 64 == 49152
    offsets = check_walk(padded, layout, CROUTON_WALK_2x9x20x50, crouton_offset((2, 16, 24, 64)))
    assert offsets[-1] == 49151
    assert len(pad_slots(layout)) == 49152 - 2 * 9 * 20 * 50


@pytest.mark.parametrize(
    ("last", "first", "offset"),
    [
        ((0, 7, 7, 31), (0, 0, 0, 32), 2048),  # end of the first chunk, next c-chunk
        ((0, 7, 7, 63), (0, 0, 8, 0), 4096),  # all 64 of dim 3 done, next w-chunk
        ((0, 7, 15, 31), (0, 0, 8, 32), 6144),
        ((0, 7, 15, 63), (0, 0, 16, 0), 8192),
        ((0, 7, 23, 63), (0, 8, 0, 0), 12288),  # all 24 of dim 2 done, next h-chunk
        ((0, 15, 23, 63), (1, 0, 0, 0), 24576),  # all 16 of dim 1 done, next batch
    ],
)
def test_htp_crouton_chunk_boundaries_2x9x20x50(last: Index, first: Index, offset: int) -> None:
    padded = parse_layout("R4CroutonLayout", (2, 16, 24, 64))
    assert padded.offset(last) == offset - 1
    assert padded.offset(first) == offset
    assert offset % 2048 == 0


def test_htp_crouton_walk_slip_second_h_chunk() -> None:
    """The seed writes `(0,8,0,0) ... (0,8,23,63) (0,15,0,0) ... (0,15,23,63)` as if row
    h = 8 came whole before h = 15; a chunk holds h = 8…15 together, so (0,15,0,0)
    precedes (0,8,23,63). Both lie in the second h-chunk of batch 0: [12288, 24576)."""
    padded = parse_layout("R4CroutonLayout", (2, 16, 24, 64))
    assert padded.offset((0, 15, 0, 0)) == 12288 + 7 * 256
    assert padded.offset((0, 8, 23, 63)) == 12288 + 5 * 2048 + 7 * 32 + 31
    assert padded.offset((0, 15, 0, 0)) < padded.offset((0, 8, 23, 63))
    assert padded.offset((1, 8, 23, 63)) == 24576 + padded.offset((0, 8, 23, 63))


def test_htp_crouton_matches_numpy_blocking() -> None:
    """Second formulation: pad to 2x16x24x64, split h, w, c into chunks, transpose."""
    x = np.arange(2 * 9 * 20 * 50).reshape(2, 9, 20, 50)
    layout = parse_layout("R4CroutonLayout", x.shape, pad=-1)
    padded = np.full((2, 16, 24, 64), -1)
    padded[:2, :9, :20, :50] = x
    blocks = padded.reshape(2, 2, 8, 3, 8, 2, 32).transpose(0, 1, 3, 5, 2, 4, 6)
    np.testing.assert_array_equal(layout.pack(x), blocks)
    np.testing.assert_array_equal(layout.unpack(blocks), x)


CONV_WEIGHTS = "ChunkedMemoryLayout<4, 3,0, 2,0, 0,0, 1,0, 2,8, 3,32, 2,4>"


def weight_offset(shape: Index) -> OffsetFormula:
    """(h, w, i, o): o-chunks, i-chunks, h, w, then 8 groups of 4 i, 32 o, 4 i."""
    height, width, inputs, _ = shape
    i_chunks = -(-inputs // 32)

    def offset(index: Index) -> int:
        h, w, i, o = index
        outer = (((o // 32) * i_chunks + i // 32) * height + h) * width + w
        return ((outer * 8 + (i // 4) % 8) * 32 + o % 32) * 4 + i % 4

    return offset


WEIGHT_WALK_3x3x32x32 = """
(0,0,0,0), (0,0,1,0), (0,0,2,0), (0,0,3,0),
(0,0,0,1), (0,0,1,1), (0,0,2,1), (0,0,3,1),
(0,0,0,2) ...                    (0,0,3,31),
(0,0,4,0), (0,0,5,0), (0,0,6,0), (0,0,7,0),
(0,0,4,1), (0,0,5,1), (0,0,6,1), (0,0,7,1),
(0,0,4,2) ... (0,0,7,31), ...   (0,0,31,31),
(0,1,0,0), (0,1,1,0), ...       (0,1,31,31),
...
(0,2,0,0), ...                  (0,2,31,31),
(1,0,0,0), ...                  (1,0,31,31)
"""


def test_htp_weight_walk_3x3x32x32() -> None:
    layout = parse_layout(CONV_WEIGHTS, (3, 3, 32, 32))
    assert layout.physical_shape == (1, 1, 3, 3, 8, 32, 4)
    offsets = check_walk(layout, layout, WEIGHT_WALK_3x3x32x32, weight_offset((3, 3, 32, 32)))
    assert offsets[:8] == list(range(8))
    assert layout.offset((0, 0, 4, 0)) == 128
    assert layout.offset((0, 1, 0, 0)) == 1024


def test_htp_weight_formula_every_index() -> None:
    shape = (3, 3, 64, 96)
    h, w, i, o = index_grids(shape)
    expected = ((((o // 32) * 2 + i // 32) * 3 + h) * 3 + w) * 8 + (i // 4) % 8
    expected = (expected * 32 + o % 32) * 4 + i % 4
    np.testing.assert_array_equal(parse_layout(CONV_WEIGHTS, shape).offsets(), expected)


WEIGHT_WALK_3x3x32x50 = """
(0,0,0,0) ... (2,2,31,31)
(0,0,0,32) ... (2,2,31,63)
"""


def test_htp_weight_walk_3x3x32x50() -> None:
    layout = parse_layout(CONV_WEIGHTS, (3, 3, 32, 50))
    padded = parse_layout(CONV_WEIGHTS, (3, 3, 32, 64))
    assert layout.physical_shape == padded.physical_shape == (2, 1, 3, 3, 8, 32, 4)
    assert layout.size == 3 * 3 * 32 * 64
    offsets = check_walk(padded, layout, WEIGHT_WALK_3x3x32x50, weight_offset((3, 3, 32, 64)))
    assert offsets == [0, 9215, 9216, 18431]
    assert len(pad_slots(layout)) == 3 * 3 * 32 * (64 - 50)


WEIGHT_WALK_3x3x64x96 = """
(0,0,0,0)...(2,2,31,31),
(0,0,32,0)...(2,2,63,31),
(0,0,0,32)...(2,2,31,63),
(0,0,32,32)...(2,2,63,63),
(0,0,0,64)...(2,2,31,95),
(0,0,32,64)...(2,2,63,95),
"""


def test_htp_weight_walk_3x3x64x96() -> None:
    layout = parse_layout(CONV_WEIGHTS, (3, 3, 64, 96))
    assert layout.physical_shape == (3, 2, 3, 3, 8, 32, 4)
    offsets = check_walk(layout, layout, WEIGHT_WALK_3x3x64x96, weight_offset((3, 3, 64, 96)))
    run = 3 * 3 * 32 * 32
    assert offsets == [k for r in range(6) for k in (r * run, (r + 1) * run - 1)]


@pytest.mark.parametrize(
    ("run", "i_block", "o_block"),
    [(0, 0, 0), (1, 1, 0), (2, 0, 1), (3, 1, 1), (4, 0, 2), (5, 1, 2)],
)
def test_htp_weight_runs_3x3x64x96(run: int, i_block: int, o_block: int) -> None:
    """Each listed run is exactly one 3x3x32x32 box: input chunks vary faster than output."""
    offsets = parse_layout(CONV_WEIGHTS, (3, 3, 64, 96)).offsets()
    box = offsets[:, :, 32 * i_block : 32 * (i_block + 1), 32 * o_block : 32 * (o_block + 1)]
    size = 3 * 3 * 32 * 32
    np.testing.assert_array_equal(np.sort(box.ravel()), np.arange(run * size, (run + 1) * size))


# The seed's table, copied pair for pair.
HTP_ALIASES = {
    "R4FlatMemoryLayout": "FlatMemoryLayout<4>",
    "R4NCHWMemoryLayout": "ChunkedMemoryLayout<4, 0,0, 3,0, 2,0, 1,0>",
    "R4Depth32MemoryLayout": "ChunkedMemoryLayout<4, 0,0, 1,0, 3,0, 2,0, 2,4, 3,32>",
    "R4CroutonLayout": "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>",
    "R4Crouton4x1Layout": "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,4>",
    "R4Crouton2x2Layout": "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,4, 2,4, 3,32, 1,2, 2,2>",
    "R4Crouton2Layout": "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,2, 3,32, 2,2>",
}
ALIAS_PAIRS = {
    "R4FlatMemoryLayout": [0, 0, 1, 0, 2, 0, 3, 0],
    "R4NCHWMemoryLayout": [0, 0, 3, 0, 2, 0, 1, 0],
    "R4Depth32MemoryLayout": [0, 0, 1, 0, 3, 0, 2, 0, 2, 4, 3, 32],
    "R4CroutonLayout": [0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32],
    "R4Crouton4x1Layout": [0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 2, 3, 32, 2, 4],
    "R4Crouton2x2Layout": [0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2],
    "R4Crouton2Layout": [0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 2, 3, 32, 2, 2],
}


@pytest.mark.parametrize("alias", sorted(HTP_ALIASES))
@pytest.mark.parametrize("shape", [(1, 3, 5, 30), (2, 9, 20, 50)])
def test_htp_alias_is_its_literal_pairs(alias: str, shape: Index) -> None:
    layout = parse_layout(alias, shape)
    assert layout == parse_layout(HTP_ALIASES[alias], shape)
    pairs = ", ".join(str(v) for v in ALIAS_PAIRS[alias])
    assert layout == parse_layout(f"#layout.chunked<[{pairs}]>", shape)
    assert layout.notations()["chunked"] == f"#layout.chunked<[{pairs}]>"


def _alias_offsets(alias: str, shape: Index) -> np.ndarray:
    """Hand formulas of the table's pairs on an NHWC tensor: (digit, extent), outermost first."""
    n, h, w, c = index_grids(shape)
    batch, height, width, depth = shape

    def up(extent: int, block: int) -> int:
        return -(-extent // block)

    chunks = [(n, batch), (h // 8, up(height, 8)), (w // 8, up(width, 8)), (c // 32, up(depth, 32))]
    digits = {
        "R4FlatMemoryLayout": [(n, batch), (h, height), (w, width), (c, depth)],
        "R4NCHWMemoryLayout": [(n, batch), (c, depth), (w, width), (h, height)],
        "R4Depth32MemoryLayout": [
            (n, batch),
            (h, height),
            (c // 32, up(depth, 32)),
            (w // 4, up(width, 4)),
            (w % 4, 4),
            (c % 32, 32),
        ],
        "R4CroutonLayout": [*chunks, (h % 8, 8), (w % 8, 8), (c % 32, 32)],
        "R4Crouton4x1Layout": [*chunks, (h % 8, 8), ((w // 4) % 2, 2), (c % 32, 32), (w % 4, 4)],
        "R4Crouton2x2Layout": [
            *chunks,
            ((h // 2) % 4, 4),
            ((w // 2) % 4, 4),
            (c % 32, 32),
            (h % 2, 2),
            (w % 2, 2),
        ],
        "R4Crouton2Layout": [
            (n, batch),
            (h // 8, up(height, 8)),
            (w // 4, up(width, 4)),
            (c // 32, up(depth, 32)),
            (h % 8, 8),
            ((w // 2) % 2, 2),
            (c % 32, 32),
            (w % 2, 2),
        ],
    }[alias]
    total = np.zeros(shape, dtype=np.int64)
    for value, extent in digits:
        total = total * extent + value
    return total


@pytest.mark.parametrize("alias", sorted(HTP_ALIASES))
def test_htp_alias_offsets_by_hand(alias: str) -> None:
    shape = (2, 9, 20, 50)
    np.testing.assert_array_equal(
        parse_layout(alias, shape).offsets(), _alias_offsets(alias, shape)
    )


def test_htp_r4nchw_table_pairs_are_n_c_w_h() -> None:
    """The table's pairs `0,0, 3,0, 2,0, 1,0` read N, C, W, H; the prose's NCHW order is
    `0,0, 3,0, 1,0, 2,0`. The alias follows the table; the two differ."""
    shape = (2, 3, 5, 30)
    table = parse_layout("R4NCHWMemoryLayout", shape)
    prose = parse_layout("ChunkedMemoryLayout<4, 0,0, 3,0, 1,0, 2,0>", shape)
    assert table.offset((0, 0, 1, 0)) == 3  # w = 1 after the 3 rows of h
    assert prose.offset((0, 0, 1, 0)) == 1
    assert not table.equivalent(prose)


def test_htp_detail_structs() -> None:
    """The three `ChunkedMemoryLayout<…>` structs written out at the seed's end."""
    shape = (1, 8, 8, 32)
    channel_major = "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>"
    spatial_xy = "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,4, 2,4, 3,32, 1,2, 2,2>"
    spatial_x = "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,4, 2,2, 3,32, 2,4>"
    assert parse_layout(channel_major, shape) == parse_layout("R4CroutonLayout", shape)
    assert parse_layout(spatial_xy, shape) == parse_layout("R4Crouton2x2Layout", shape)
    # SpatialXMajor's first block is 1,4 (its comment says "8 high"): 4 rows, 2x4 columns
    x_major = parse_layout(spatial_x, shape)
    assert x_major.physical_shape == (1, 2, 1, 1, 4, 2, 32, 4)
    assert x_major != parse_layout("R4Crouton4x1Layout", shape)


# ==== megengine-tensor-memory-layout.txt ====================================================
MEGENGINE_SHAPE = (2, 64, 3, 3)


def megengine_values() -> np.ndarray:
    """value(n, c, h, w) = n*CHW + c*HW + h*W + w: the numbers 0000…1151 of the seed."""
    n, c, h, w = index_grids(MEGENGINE_SHAPE)
    return n * 576 + c * 9 + h * 3 + w


def megengine_memory(spec: str) -> np.ndarray:
    return parse_layout(spec, MEGENGINE_SHAPE).pack(megengine_values()).ravel()


def test_megengine_nchw_stores_0000_to_1151() -> None:
    np.testing.assert_array_equal(megengine_memory("NCHW"), np.arange(1152))


def test_megengine_nhwc_stores_channels_first() -> None:
    memory = megengine_memory("NHWC")
    np.testing.assert_array_equal(memory[:64], np.arange(0, 64 * 9, 9))  # 0000, 0009, … 0567
    assert list(memory[64:66]) == [1, 10]  # then 0001, 0010
    np.testing.assert_array_equal(memory, megengine_values().transpose(0, 2, 3, 1).ravel())
    # the seed's "until 1143" ends the channel run of pixel (0, 0) in batch 1, not batch 0
    assert int(np.flatnonzero(memory == 1143)[0]) == 576 + 63


@pytest.mark.parametrize("block", [4, 32, 64])
def test_megengine_nchwx_stores_x_channels_first(block: int) -> None:
    memory = megengine_memory(f"NCHW{block}")
    np.testing.assert_array_equal(memory[:block], np.arange(0, block * 9, 9))
    assert memory[block] == 1 and memory[block + 1] == 10
    expected = megengine_values().reshape(2, 64 // block, block, 3, 3).transpose(0, 1, 3, 4, 2)
    np.testing.assert_array_equal(memory, expected.ravel())


def test_megengine_nchw4_first_eight() -> None:
    assert list(megengine_memory("NCHW4")[:8]) == [0, 9, 18, 27, 1, 10, 19, 28]


def test_megengine_nchw64_equals_nhwc_when_c_is_64() -> None:
    np.testing.assert_array_equal(megengine_memory("NCHW64"), megengine_memory("NHWC"))


def test_megengine_chwn4_stores_n_after_four_channels() -> None:
    memory = megengine_memory("CHWN4")
    assert list(memory[:4]) == [0, 9, 18, 27]
    assert list(memory[4:8]) == [576, 585, 594, 603]  # 0576 … 0603 along N
    assert list(memory[8:10]) == [1, 10]  # then along W
    expected = megengine_values().reshape(2, 16, 4, 3, 3).transpose(1, 3, 4, 0, 2)
    np.testing.assert_array_equal(memory, expected.ravel())
    assert parse_layout("CHWN4", MEGENGINE_SHAPE).physical_shape == (16, 3, 3, 2, 4)


def test_megengine_int32_strides() -> None:
    """x = [[0..4], [5..9]] int32: 40 bytes, byte strides (20, 4), x[1][2] at byte 28."""
    x = np.arange(10, dtype=np.int32).reshape(2, 5)
    layout = parse_layout("strided<[5, 1], offset: 0>", (2, 5), dtype="i32")
    itemsize = 4
    byte_offsets = layout.offsets() * itemsize
    strides = (
        int(byte_offsets[1, 0] - byte_offsets[0, 0]),
        int(byte_offsets[0, 1] - byte_offsets[0, 0]),
    )
    assert strides == (20, 4) == x.strides
    assert byte_offsets[1, 2] == 1 * 20 + 2 * 4 == 28
    assert layout.nbytes == 40
    buffer = layout.pack(x)
    assert buffer.view(np.uint8)[28:32].view(np.int32)[0] == 7


def test_megengine_row_major_table() -> None:
    """Offsets 0…8 of a 3x3 hold a11, a12, a13, a21, …, a33 in row-major order."""
    names = np.array([[f"a{i}{j}" for j in (1, 2, 3)] for i in (1, 2, 3)])
    table = ["a11", "a12", "a13", "a21", "a22", "a23", "a31", "a32", "a33"]
    for spec in ("strided<[3, 1], offset: 0>", "FlatMemoryLayout<2>", "nc"):
        layout = parse_layout(spec, (3, 3))
        for offset, value in enumerate(table):
            index = layout.logical_index(offset)
            assert index == divmod(offset, 3)
            assert names[index] == value


def test_megengine_row_major_stride_formula() -> None:
    """s_k = itemsize · prod(d_j, j > k), the byte offset is Σ s_k n_k."""
    shape = (2, 3, 4, 5)
    layout = parse_layout("strided<[60, 20, 5, 1], offset: 0>", shape, dtype="f32")
    assert np.zeros(shape, dtype=np.float32).strides == (240, 80, 20, 4)
    n = index_grids(shape)
    expected = n[0] * 240 + n[1] * 80 + n[2] * 20 + n[3] * 4
    np.testing.assert_array_equal(layout.offsets() * 4, expected)


# ==== onednn-memory-formats.txt =============================================================
N, C, H, W = 2, 16, 5, 4


def onednn_grids(channels: int = C) -> tuple[np.ndarray, ...]:
    return index_grids((N, channels, H, W))


def test_onednn_nchw_offset_is_the_value() -> None:
    n, c, h, w = onednn_grids()
    value = n * C * H * W + c * H * W + h * W + w
    layout = parse_layout("nchw", (N, C, H, W))
    np.testing.assert_array_equal(layout.offsets(), value)
    np.testing.assert_array_equal(layout.pack(value).ravel(), np.arange(N * C * H * W))


@pytest.mark.parametrize("spec", ["nhwc", "NCHW->NHWC", "NCHW->nhwc"])
def test_onednn_nhwc_offset(spec: str) -> None:
    n, c, h, w = onednn_grids()
    expected = n * H * W * C + h * W * C + w * C + c
    np.testing.assert_array_equal(parse_layout(spec, (N, C, H, W)).offsets(), expected)


def test_onednn_chwn_offset() -> None:
    n, c, h, w = onednn_grids()
    expected = c * H * W * N + h * W * N + w * N + n
    np.testing.assert_array_equal(parse_layout("chwn", (N, C, H, W)).offsets(), expected)


@pytest.mark.parametrize(
    ("spec", "strides"),
    [
        ("nchw", (C * H * W, H * W, W, 1)),
        ("nhwc", (H * W * C, 1, W * C, C)),
        ("chwn", (1, H * W * N, W * N, N)),
    ],
)
def test_onednn_plain_formats_are_strided(spec: str, strides: Index) -> None:
    strided = parse_layout(f"strided<[{', '.join(map(str, strides))}], offset: 0>", (N, C, H, W))
    np.testing.assert_array_equal(strided.offsets(), parse_layout(spec, (N, C, H, W)).offsets())
    assert strided.size == N * C * H * W


@pytest.mark.parametrize(("block", "padded_c"), [(8, 24), (16, 32)])
def test_onednn_blocked_c17(block: int, padded_c: int) -> None:
    c_count = 17
    assert padded_c == -(-c_count // block) * block
    spec = f"nChw{block}c"
    layout = parse_layout(spec, (N, c_count, H, W), dtype="f32")
    assert layout == parse_layout(f"NCHW->nChw{block}c", (N, c_count, H, W), dtype="f32")
    assert layout.logical_shape == (N, c_count, H, W)
    assert layout.physical_shape == (N, padded_c // block, H, W, block)
    assert layout.nbytes == 4 * N * padded_c * H * W
    n, c, h, w = onednn_grids(c_count)
    expected = (
        n * padded_c * H * W + (c // block) * H * W * block + h * W * block + w * block + c % block
    )
    offsets = layout.offsets()
    np.testing.assert_array_equal(offsets, expected)
    stride_n = offsets[1, 0, 0, 0] - offsets[0, 0, 0, 0]
    stride_big_c = offsets[0, block, 0, 0] - offsets[0, 0, 0, 0]
    stride_h = offsets[0, 0, 1, 0] - offsets[0, 0, 0, 0]
    stride_w = offsets[0, 0, 0, 1] - offsets[0, 0, 0, 0]
    stride_block = offsets[0, 1, 0, 0] - offsets[0, 0, 0, 0]
    assert (stride_n, stride_big_c, stride_h, stride_w, stride_block) == (
        padded_c * H * W,
        H * W * block,
        W * block,
        block,
        1,
    )


@pytest.mark.parametrize(("block", "padded_c"), [(8, 24), (16, 32)])
def test_onednn_zero_padding(block: int, padded_c: int) -> None:
    """The channel tail is padded with zeros (a value of 0 never changes a convolution)."""
    layout = parse_layout(f"nChw{block}c", (N, 17, H, W), dtype="f32")
    x = np.arange(1, N * 17 * H * W + 1, dtype=np.float32).reshape(N, 17, H, W)
    physical = layout.pack(x)
    as_nchw = physical.transpose(0, 1, 4, 2, 3).reshape(N, padded_c, H, W)
    np.testing.assert_array_equal(as_nchw[:, :17], x)
    assert (as_nchw[:, 17:] == 0).all()
    assert (physical == 0).sum() == N * (padded_c - 17) * H * W
    np.testing.assert_array_equal(layout.unpack(physical), x)


def test_onednn_nchw8c_seed_formula_needs_padded_c() -> None:
    """The seed's first nChw8c formula steps n by C*H*W; with C = 17 the step is
    C_padded*H*W = 24*5*4 = 480, as its later code (`expect_stride_n`) says."""
    layout = parse_layout("nChw8c", (N, 17, H, W))
    assert layout.offset((1, 0, 0, 0)) == 480 != 17 * H * W


def test_onednn_nchw8c_inner_blocking() -> None:
    """One blocked dim (c, logical dim 1), block 8, innermost."""
    terms = parse_layout("nChw8c", (N, 17, H, W)).blocked_terms
    assert terms is not None
    blocks = [(t.dim, t.size) for t in terms if t.size is not None]
    assert blocks == [(1, 8)] and terms[-1].size == 8


# ==== heterocl-layout-rfc.txt ===============================================================
NHWC6 = "NHWC->NHWC6c"


@pytest.mark.parametrize("bit_order", ["lsb", "msb"])
def test_heterocl_nhwc6_integer_pack(bit_order: str) -> None:
    layout = parse_layout(NHWC6, (1, 4, 4, 12), dtype="i1", pack="i6", bit_order=bit_order)
    assert layout.storage_shape == (1, 4, 4, 2)
    assert layout.physical_shape == (1, 4, 4, 2, 6)
    assert layout.physical_index((0, 1, 2, 7)) == (0, 1, 2, 1, 1)
    x = np.random.default_rng(6).integers(0, 2, size=(1, 4, 4, 12))
    words = layout.pack(x)
    assert words.shape == (1, 4, 4, 2)
    n, h, w, c = index_grids(x.shape)
    bit = c % 6 if bit_order == "lsb" else 5 - c % 6
    np.testing.assert_array_equal((words[n, h, w, c // 6].astype(int) >> bit) & 1, x)
    assert (words.astype(int) >> 6 == 0).all()
    np.testing.assert_array_equal(layout.unpack(words), x)


def test_heterocl_nhwc6_vector_pack() -> None:
    layout = parse_layout(NHWC6, (1, 4, 4, 12), dtype="i1", pack="vector<6xi1>")
    assert layout.storage_shape == (1, 4, 4, 2)
    x = np.random.default_rng(7).integers(0, 2, size=(1, 4, 4, 12))
    physical = layout.pack(x)
    assert physical.shape == (1, 4, 4, 2, 6)
    n, h, w, c = index_grids(x.shape)
    np.testing.assert_array_equal(physical[n, h, w, c // 6, c % 6], x)


def test_heterocl_nhwc6_attribute_text() -> None:
    shape = (1, 4, 4, 12)
    integer = parse_layout('#layout.tag<"NHWC->NHWC6c", pack = i6>', shape, dtype="i1")
    vector = parse_layout('#layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>', shape, dtype="i1")
    assert integer == parse_layout(NHWC6, shape, dtype="i1", pack="i6")
    assert vector == parse_layout(NHWC6, shape, dtype="i1", pack="vector<6xi1>")


@pytest.mark.parametrize("pack", ["vector<6xi1>", "i6"])
def test_heterocl_rfc_memref_4x8x8x1(pack: str) -> None:
    """`memref<4x8x8x1xvector<6xi1>>` / `memref<4x8x8x1xi6>` hold a 4x8x8x6 NHWC i1 tensor."""
    layout = parse_layout(NHWC6, (4, 8, 8, 6), dtype="i1", pack=pack)
    assert layout.storage_shape == (4, 8, 8, 1)
    assert layout.physical_index((3, 7, 7, 5)) == (3, 7, 7, 0, 5)


# ==== docs/notations.md =====================================================================
def test_notations_doc_examples() -> None:
    """Every `>>>` example in the notation documentation runs and prints what it shows."""
    result = doctest.testfile(
        str(NOTATIONS_DOC),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        verbose=False,
        report=True,
    )
    assert result.attempted > 0
    assert result.failed == 0


def test_notations_doc_names_every_alias() -> None:
    text = NOTATIONS_DOC.read_text()
    for alias, literal in HTP_ALIASES.items():
        assert alias in text and literal in text
