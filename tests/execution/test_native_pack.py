"""`Layout.pack` / `unpack` by the compiled conversion give numpy's results bit for bit, and
large arrays take that path by default when MLIR 22 is installed."""

from __future__ import annotations

import numpy as np
import pytest

from heterolayout import parse_layout
from heterolayout.execution.native import packing

pytestmark = pytest.mark.usefixtures("native_engine")

LAYOUTS = {
    "nChw16c-pad": ("NCHW->nChw16c", (2, 20, 5, 7), {"dtype": "f32", "pad": -1.5}),
    "nhwc-i32": ("nhwc", (2, 3, 4, 5), {"dtype": "i32"}),
    "crouton-31": ("R4CroutonLayout", (1, 10, 9, 60), {"dtype": "i8", "pad": 31}),
    "tiles-map": (
        "affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>",
        (13, 10),
        {"dtype": "f64"},
    ),
    "strided": ("strided<[40, 1], offset: 3>", (10, 32), {"dtype": "i16"}),
    "bits-msb": ("NHWC->NHWC8c", (2, 3, 4, 13), {"dtype": "i1", "pack": "i8"}),
    "vector-lanes": ("NHWC->NHWC6c", (1, 4, 4, 12), {"dtype": "i1", "pack": "vector<6xi1>"}),
    "vector-f32-8": ("ABC->ABC8c", (1, 8, 24), {"dtype": "f32", "pack": "vector<8xf32>"}),
    "i4-pairs": ("NC->NC2c", (3, 5), {"dtype": "i4", "pack": "i8"}),
    "f16-weights": ("OIhw16i16o", (32, 48, 3, 3), {"dtype": "f16"}),
    # containers of every width up to 64 bits, both bit orders (i64 words overflowed the mask)
    "i64-words": ("HW->HW64w", (3, 128), {"dtype": "i1", "pack": "i64"}),
    "i64-words-msb": ("HW->HW64w", (3, 128), {"dtype": "i1", "pack": "i64", "bit_order": "msb"}),
    "i63-words": ("HW->HW63w", (3, 126), {"dtype": "i1", "pack": "i63"}),
    "i32-words-msb": ("HW->HW32w", (3, 64), {"dtype": "i1", "pack": "i32", "bit_order": "msb"}),
    "i8-words-msb": ("HW->HW8w", (3, 64), {"dtype": "i1", "pack": "i8", "bit_order": "msb"}),
    "i32-pairs-in-i64": ("NC->NC2c", (3, 6), {"dtype": "i32", "pack": "i64"}),
    # containers with bits above their lanes, and pad lanes (written lane by lane: the
    # unused bits are the destination buffer's, zero as in numpy's result)
    "i64-half-used": ("BCDA->BCDA32a", (26, 1, 10, 16), {"dtype": "i1", "pack": "i64"}),
    "i32-24-lanes-msb": ("HW->HW24w", (5, 40), {"dtype": "i1", "pack": "i32", "bit_order": "msb"}),
}


def random_logical(layout, rng: np.random.Generator) -> np.ndarray:  # type: ignore[no-untyped-def]
    element = layout.dtype
    shape = layout.logical_shape
    if element.is_float:
        return rng.uniform(-1, 1, shape).astype(element.numpy_dtype)
    low = -(2 ** (element.bits - 1)) if element.holds_negative else 0
    high = 2 ** (element.bits - 1) if element.holds_negative else 2**element.bits
    return rng.integers(low, high, shape).astype(element.numpy_dtype)


@pytest.mark.parametrize("name", LAYOUTS)
def test_native_pack_and_unpack_equal_numpy(name: str) -> None:
    spec, shape, options = LAYOUTS[name]
    layout = parse_layout(spec, shape, **options)
    logical = random_logical(layout, np.random.default_rng(7))
    expected = layout.pack(logical, native=False)
    packed = layout.pack(logical, native=True)
    assert packed.dtype == expected.dtype and packed.shape == expected.shape
    assert np.array_equal(packed, expected)
    unpacked = layout.unpack(expected, native=True)
    assert unpacked.dtype == logical.dtype and np.array_equal(unpacked, logical)


def test_a_large_array_packs_into_i64_words_by_default() -> None:
    """The issue's call: 2^20 bits take the native path (no `native=`) into `pack = i64`."""
    layout = parse_layout("HW->HW64w", (1024, 1024), dtype="i1", pack="i64")
    logical = np.random.default_rng(5).integers(0, 2, (1024, 1024)).astype(np.int8)
    packed = layout.pack(logical)
    expected = layout.pack(logical, native=False)
    assert packed.dtype == np.uint64 and np.array_equal(packed, expected)
    assert np.array_equal(layout.unpack(packed), logical)


def test_a_pad_override_reaches_the_native_path() -> None:
    layout = parse_layout("NCHW->nChw16c", (1, 20, 2, 3), dtype="f32")
    logical = np.ones((1, 20, 2, 3), np.float32)
    assert np.array_equal(
        layout.pack(logical, pad=7.0, native=True), layout.pack(logical, pad=7.0, native=False)
    )


def test_small_arrays_stay_in_numpy_and_large_ones_go_native() -> None:
    layout = parse_layout("nChw16c", (1, 16, 4, 4), dtype="f32")
    element = layout.dtype
    assert element is not None
    assert not packing.wants_native(layout, element, layout.logical_size, None)
    assert packing.wants_native(layout, element, packing.NATIVE_MIN_ELEMENTS, None)
    assert not packing.wants_native(layout, element, packing.NATIVE_MIN_ELEMENTS, False)
