"""Padded buffers filled at their border only (passes/schedule/padding.py): the slabs cover
the buffer minus the window exactly once, and a padded convolution computes what it did
with the whole buffer filled (the program as written, bit for bit, on every engine)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.passes.schedule.padding import border_slabs


@st.composite
def boxes(draw: st.DrawFn) -> tuple[list[int], list[int], list[int]]:
    rank = draw(st.integers(1, 4))
    shape = [draw(st.integers(1, 6)) for _ in range(rank)]
    offsets = [draw(st.integers(0, n - 1)) for n in shape]
    sizes = [draw(st.integers(1, n - o)) for n, o in zip(shape, offsets, strict=True)]
    return shape, offsets, sizes


@settings(max_examples=200, deadline=None)
@given(boxes())
def test_the_slabs_cover_the_border_once(box: tuple[list[int], list[int], list[int]]) -> None:
    shape, offsets, sizes = box
    covered = np.zeros(shape, np.int64)
    for low, extent in border_slabs(shape, offsets, sizes):
        assert all(e > 0 for e in extent)
        covered[tuple(slice(lo, lo + e) for lo, e in zip(low, extent, strict=True))] += 1
    window = np.zeros(shape, np.int64)
    window[tuple(slice(o, o + s) for o, s in zip(offsets, sizes, strict=True))] = 1
    assert np.array_equal(covered, 1 - window)


PADDED = """
func.func @main(%x: memref<1x{c}x{h}x{w}xf32>, %f: memref<{k}x{c}x3x3xf32>, %y: memref<1x{k}x{h}x{w}xf32>) {{
  %zero = arith.constant 0.0 : f32
  %pad = arith.constant {pad} : f32
  %p = memref.alloc() : memref<1x{c}x{hp}x{wp}xf32>
  {assign}
  linalg.fill ins(%pad : f32) outs(%p : memref<1x{c}x{hp}x{wp}xf32>)
  %v = memref.subview %p[0, 0, 1, 1] [1, {c}, {h}, {w}] [1, 1, 1, 1] : memref<1x{c}x{hp}x{wp}xf32> to memref<1x{c}x{h}x{w}xf32, strided<[{s0}, {s1}, {wp}, 1], offset: {offset}>>
  memref.copy %x, %v : memref<1x{c}x{h}x{w}xf32> to memref<1x{c}x{h}x{w}xf32, strided<[{s0}, {s1}, {wp}, 1], offset: {offset}>>
  linalg.fill ins(%zero : f32) outs(%y : memref<1x{k}x{h}x{w}xf32>)
  linalg.conv_2d_nchw_fchw {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins(%p, %f : memref<1x{c}x{hp}x{wp}xf32>, memref<{k}x{c}x3x3xf32>) outs(%y : memref<1x{k}x{h}x{w}xf32>)
  memref.dealloc %p : memref<1x{c}x{hp}x{wp}xf32>
  func.return
}}
"""


def padded(c: int, k: int, h: int, w: int, pad: float, blocked: bool) -> str:
    hp, wp = h + 2, w + 2
    assign = (
        f'layout.assign %p to #layout.tag<"NCHW->nChw8c"> : memref<1x{c}x{hp}x{wp}xf32>'
        if blocked
        else ""
    )
    return PADDED.format(
        c=c,
        k=k,
        h=h,
        w=w,
        hp=hp,
        wp=wp,
        pad=pad,
        assign=assign,
        s0=c * hp * wp,
        s1=hp * wp,
        offset=wp + 1,
    )


@pytest.mark.parametrize(("blocked", "pad"), list(itertools.product([False, True], [0.0, -1.5])))
def test_a_padded_convolution_fills_only_the_border(blocked: bool, pad: float) -> None:
    source = padded(16, 8, 5, 7, pad, blocked)
    pipeline = "layout-schedule{target=avx2},layout-lower"
    scheduled = str(apply_pipeline(parse_program(source), "layout-schedule{target=avx2}"))
    assert scheduled.count("memref.subview %p") == 5  # four border slabs, the interior
    for engine in ("native", "compiled"):
        report = heterolayout.check(source, pipeline=pipeline, engine=engine, seed=7)
        assert report.equal and report.compared > 0, str(report)


def test_a_fill_read_before_the_copy_is_kept_whole() -> None:
    source = padded(8, 8, 4, 4, 0.0, False).replace(
        "  memref.copy %x",
        "  %c0 = arith.constant 0 : index\n"
        "  %first = memref.load %p[%c0, %c0, %c0, %c0] : memref<1x8x6x6xf32>\n"
        "  memref.store %first, %y[%c0, %c0, %c0, %c0] : memref<1x8x4x4xf32>\n  memref.copy %x",
    )
    scheduled = str(apply_pipeline(parse_program(source), "layout-schedule{target=avx2}"))
    assert scheduled.count("memref.subview %p") == 1
