"""Word-level code for bit-packed buffers (`layout-schedule` then `layout-lower`).

Expectations are numpy's: counts of differing / equal / common bits (`!=`, `==`, `&`
summed over the packed dim) and element-wise maps, never the pass's own formulation. Each
program runs scheduled (logical buffers, both engines) and is checked scheduled-and-lowered
against the program as written (`heterolayout.check`, both engines). Channel counts that do
not fill the last container are included: pad lanes must not count (an xnor would count
them) and stores must leave them at the pad value, which the physical words show.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from tests.passes.test_packed import (
    NativeArg,
    binary_conv_inputs,
    binary_conv_reference,
    run_natively,
)
from tests.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
ENGINES = ("interp", "compiled")
SCHEDULE = "layout-schedule"
LOWER = "layout-schedule,layout-lower"
CONTAINERS = {"i6": 6, "i8": 8, "i32": 32, "i64": 64, "vector<6xi1>": 6, "vector<8xi1>": 8}
COMBINE = {
    "xor": ("arith.xori %x, %y : i1", lambda a, b: a != b),
    "xnor": ("arith.cmpi eq, %x, %y : i1", lambda a, b: a == b),
    "and": ("arith.andi %x, %y : i1", lambda a, b: a & b),
}


def scheduled(text: str, pipeline: str) -> str:
    return str(apply_pipeline(parse_program(text), pipeline))


def count_program(rows: int, cols: int, depth: int, pack: str, combine: str, sign: str) -> str:
    """out[i, j] ±= combine(a[i, k], b[j, k]) over a packed k; `sign` subi counts down."""
    lanes = CONTAINERS[pack]
    a = f'memref<{rows}x{depth}xi1, #layout.tag<"MK->MK{lanes}k", pack = {pack}>>'
    b = f'memref<{cols}x{depth}xi1, #layout.tag<"NK->NK{lanes}k", pack = {pack}>>'
    out = f"memref<{rows}x{cols}xi32>"
    op = "arith.addi %acc, %n" if sign == "add" else "arith.subi %acc, %n"
    return f"""
func.func @main(%a: {a}, %b: {b}, %out: {out}) {{
  affine.for %i = 0 to {rows} {{
    affine.for %j = 0 to {cols} {{
      affine.for %k = 0 to {depth} {{
        %x = affine.load %a[%i, %k] : {a}
        %y = affine.load %b[%j, %k] : {b}
        %acc = affine.load %out[%i, %j] : {out}
        %d = {COMBINE[combine][0]}
        %n = arith.extui %d : i1 to i32
        %s = {op} : i32
        affine.store %s, %out[%i, %j] : {out}
      }}
    }}
  }}
  func.return
}}
"""


CASES = [
    # container, depth (non-multiples leave a partial last word), combine, add/sub
    ("i6", 14, "xnor", "add"),
    ("i8", 8, "xor", "add"),
    ("i32", 70, "xnor", "sub"),
    ("i64", 100, "and", "add"),
    ("i64", 40, "xnor", "add"),
    ("vector<6xi1>", 17, "xnor", "add"),
    ("vector<8xi1>", 16, "xor", "sub"),
]


@pytest.mark.parametrize(("pack", "depth", "combine", "sign"), CASES)
def test_counts_over_packed_words_equal_numpy(
    pack: str, depth: int, combine: str, sign: str
) -> None:
    text = count_program(3, 4, depth, pack, combine, sign)
    lowered = scheduled(text, LOWER)
    assert "math.ctpop" in lowered and "arith.shrui" not in lowered, lowered
    if depth % CONTAINERS[pack] and not pack.startswith("vector"):
        assert re.search(rf"arith\.trunci %\w+ : {pack} to i{depth % CONTAINERS[pack]}\b", lowered)
    rng = np.random.default_rng(depth)
    a = rng.integers(0, 2, (3, depth)).astype(bool)
    b = rng.integers(0, 2, (4, depth)).astype(bool)
    start = rng.integers(-50, 50, (3, 4)).astype(np.int32)
    counts = COMBINE[combine][1](a[:, None, :], b[None, :, :]).sum(axis=-1)
    expected = start + (counts if sign == "add" else -counts)
    program = scheduled(text, SCHEDULE)
    for engine in ENGINES:
        out = start.copy()
        heterolayout.run(program, args=[a.copy(), b.copy(), out], engine=engine)
        assert np.array_equal(out, expected), (engine, out, expected)
        report = heterolayout.check(text, pipeline=LOWER, engine=engine, seed=depth)
        assert report.equal and report.compared > 0, str(report)


CONV = """
func.func @main(%x: memref<1x{c}x5x5xi1, #layout.tag<"NCHW->NHWC{lanes}c", pack = {pack}>>,
                %w: memref<2x{c}x3x3xi1, #layout.tag<"OIHW->OHWI{lanes}i", pack = {pack}>>,
                %out: memref<1x2x3x3xi32>) {{
  %zero = arith.constant 0 : i32
  affine.for %k = 0 to 2 {{
    affine.for %oh = 0 to 3 {{
      affine.for %ow = 0 to 3 {{
        affine.store %zero, %out[0, %k, %oh, %ow] : memref<1x2x3x3xi32>
        affine.for %c = 0 to {c} {{
          affine.for %kh = 0 to 3 {{
            affine.for %kw = 0 to 3 {{
              %a = affine.load %x[0, %c, %oh + %kh, %ow + %kw] : memref<1x{c}x5x5xi1, #layout.tag<"NCHW->NHWC{lanes}c", pack = {pack}>>
              %b = affine.load %w[%k, %c, %kh, %kw] : memref<2x{c}x3x3xi1, #layout.tag<"OIHW->OHWI{lanes}i", pack = {pack}>>
              %acc = affine.load %out[0, %k, %oh, %ow] : memref<1x2x3x3xi32>
              %same = arith.cmpi eq, %a, %b : i1
              %n = arith.extui %same : i1 to i32
              %s = arith.addi %acc, %n : i32
              affine.store %s, %out[0, %k, %oh, %ow] : memref<1x2x3x3xi32>
            }}
          }}
        }}
      }}
    }}
  }}
  func.return
}}
"""


@pytest.mark.parametrize(
    ("pack", "channels"), [("i6", 10), ("vector<6xi1>", 12), ("i32", 40), ("i64", 48)]
)
def test_xnor_conv_over_packed_channels_equals_numpy(pack: str, channels: int) -> None:
    text = CONV.format(c=channels, lanes=CONTAINERS[pack], pack=pack)
    rng = np.random.default_rng(channels)
    x = rng.integers(0, 2, (1, channels, 5, 5)).astype(bool)
    w = rng.integers(0, 2, (2, channels, 3, 3)).astype(bool)
    expected = np.zeros((1, 2, 3, 3), np.int64)
    for kh in range(3):
        for kw in range(3):
            window = x[0, :, kh : kh + 3, kw : kw + 3]  # c, oh, ow
            expected[0] += (window[None] == w[:, :, kh, kw][:, :, None, None]).sum(axis=1)
    program = scheduled(text, SCHEDULE)
    assert "math.ctpop" in program
    for engine in ENGINES:
        out = np.full((1, 2, 3, 3), 99, np.int32)
        heterolayout.run(program, args=[x.copy(), w.copy(), out], engine=engine)
        assert np.array_equal(out, expected), engine
        report = heterolayout.check(text, pipeline=LOWER, engine=engine)
        assert report.equal, str(report)


MAP = """
func.func @main(%v: memref<2x{c}x3xf32>, %m: memref<2x{c}x3xi1, {layout}>,
                %bits: memref<2x{c}x3xi1, {layout}>, %kept: memref<2x{c}x3xi1, {layout}>) {{
  %t = arith.constant 0.25 : f32
  %true = arith.constant true
  affine.for %n = 0 to 2 {{
    affine.for %c = 0 to {c} {{
      affine.for %w = 0 to 3 {{
        %x = affine.load %v[%n, %c, %w] : memref<2x{c}x3xf32>
        %p = arith.cmpf oge, %x, %t : f32
        affine.store %p, %bits[%n, %c, %w] : memref<2x{c}x3xi1, {layout}>
      }}
    }}
  }}
  affine.for %n = 0 to 2 {{
    affine.for %c = 0 to {c} {{
      affine.for %w = 0 to 3 {{
        %p = affine.load %bits[%n, %c, %w] : memref<2x{c}x3xi1, {layout}>
        %q = affine.load %m[%n, %c, %w] : memref<2x{c}x3xi1, {layout}>
        %r = arith.xori %q, %true : i1
        %s = arith.ori %p, %r : i1
        affine.store %s, %kept[%n, %c, %w] : memref<2x{c}x3xi1, {layout}>
      }}
    }}
  }}
  func.return
}}
"""


@pytest.mark.parametrize(
    ("pack", "channels", "pad"), [("i8", 13, 0), ("i32", 40, 1), ("i6", 12, 0)]
)
def test_maps_store_whole_words_and_keep_pad_lanes(pack: str, channels: int, pad: int) -> None:
    lanes = CONTAINERS[pack]
    spec = f'#layout.tag<"NCW->NWC{lanes}c", pack = {pack}, pad = {pad}>'
    text = MAP.format(c=channels, layout=spec)
    lowered = scheduled(text, LOWER)
    assert "arith.shli" not in lowered and "arith.shrui" not in lowered, lowered
    rng = np.random.default_rng(channels)
    v = rng.normal(size=(2, channels, 3)).astype(np.float32)
    m = rng.integers(0, 2, (2, channels, 3)).astype(bool)
    bits = v >= np.float32(0.25)
    kept = bits | ~m
    layout = heterolayout.parse_layout(
        f"NCW->NWC{lanes}c", (2, channels, 3), dtype="i1", pack=pack, pad=pad
    )
    garbage = 0x5A5A5A5A & ((1 << layout.packing.container_bits) - 1)
    words = {
        name: np.full(layout.storage_shape, garbage, layout.packing.storage_dtype)
        for name in ("bits", "kept")
    }
    for engine in ENGINES:
        heterolayout.run(
            lowered, args=[v, layout.pack(m), words["bits"], words["kept"]], engine=engine
        )
        # Whole words: the logical lanes and the pad lanes (the pad value, unused bits 0),
        # read modulo 2^K (the engines hold an i6 as its signed value, in an 8-bit array).
        mask = (1 << layout.packing.container_bits) - 1
        assert np.array_equal(words["bits"] & mask, layout.pack(bits)), engine
        assert np.array_equal(words["kept"] & mask, layout.pack(kept)), engine
        report = heterolayout.check(text, pipeline=LOWER, engine=engine)
        assert report.equal, str(report)


@pytest.mark.parametrize("implementation", ["int", "vector"])
def test_scheduled_binary_conv_examples_natively_equal_numpy(
    implementation: str, native_runner
) -> None:  # type: ignore[no-untyped-def]
    text = (EXAMPLES / f"binary_conv_nhwc6_{implementation}.mlir").read_text()
    lowered = scheduled(text, LOWER)
    assert "math.ctpop" in lowered
    x, w = binary_conv_inputs()
    args = [
        NativeArg(x, "i1"),
        NativeArg(w, "i1"),
        NativeArg(np.zeros((4, 2, 6, 6), np.int64), "i32"),
    ]
    *_, output = run_natively(native_runner, lowered, args)
    assert np.array_equal(output, binary_conv_reference(x, w))


def test_scheduled_xnor_matmul_example_natively_equals_numpy(native_runner) -> None:  # type: ignore[no-untyped-def]
    lowered = scheduled((EXAMPLES / "binary_matmul_packed_i64.mlir").read_text(), LOWER)
    assert re.search(r"math\.ctpop %\w+ : i36", lowered), lowered
    rng = np.random.default_rng(7)
    a = rng.integers(0, 2, (5, 100)).astype(bool)
    b = rng.integers(0, 2, (3, 100)).astype(bool)
    args = [NativeArg(a, "i1"), NativeArg(b, "i1"), NativeArg(np.zeros((5, 3), np.int64), "i32")]
    *_, output = run_natively(native_runner, lowered, args)
    assert np.array_equal(output, (a[:, None, :] == b[None, :, :]).sum(axis=-1))
