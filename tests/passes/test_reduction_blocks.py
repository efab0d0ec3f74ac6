"""A long sum walked block by block around the tiles (`passes/schedule/reduction_blocks.py`,
tests/filecheck/passes/layout-schedule/reduction-blocks.mlir): the exact mode's additions keep
their order, so the scheduled program equals the one before scheduling bit for bit (random
floats, where another order rounds differently), with its zeroed or bias-seeded output
before the sums and a residual add and ReLU after them, fused or written in the nest, over
2, 3 and 4 blocks (the first, those between, the last), natively and in the interpreter. A
tile whose reads fit L1 keeps its blocks inside, and so does one around which a loop carries
a dependence, or whose statements before the sums compute a value used after them."""

from __future__ import annotations

import contextlib
import io

import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.passes.schedule import reduction_blocks
from tests.passes.test_fusion import conv_text

WRITTEN = """
func.func @main(%x: memref<1x{c}x4x6xf32>, %w: memref<{k}x{c}x3x3xf32>, %b: memref<{k}xf32>,
                %y: memref<1x{k}x2x4xf32>) {{
  layout.assign %x to #layout.tag<"NCHW->nChw16c"> : memref<1x{c}x4x6xf32>
  layout.assign %w to #layout.tag<"OIHW->OIhw16i16o"> : memref<{k}x{c}x3x3xf32>
  layout.assign %y to #layout.tag<"NCHW->nChw16c"> : memref<1x{k}x2x4xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to {k} {{ affine.for %oh = 0 to 2 {{ affine.for %ow = 0 to 4 {{
    affine.store %zero, %y[0, %k, %oh, %ow] : memref<1x{k}x2x4xf32>
    affine.for %c = 0 to {c} {{ affine.for %kh = 0 to 3 {{ affine.for %kw = 0 to 3 {{
      %a = affine.load %x[0, %c, %oh + %kh, %ow + %kw] : memref<1x{c}x4x6xf32>
      %e = affine.load %w[%k, %c, %kh, %kw] : memref<{k}x{c}x3x3xf32>
      %s = affine.load %y[0, %k, %oh, %ow] : memref<1x{k}x2x4xf32>
      %p = arith.mulf %a, %e : f32
      %t = arith.addf %s, %p : f32
      affine.store %t, %y[0, %k, %oh, %ow] : memref<1x{k}x2x4xf32>
    }} }} }}
    %v = affine.load %y[0, %k, %oh, %ow] : memref<1x{k}x2x4xf32>
    %bk = affine.load %b[%k] : memref<{k}xf32>
    %u = arith.addf %v, %bk : f32
    %r = arith.maximumf %u, %zero : f32
    affine.store %r, %y[0, %k, %oh, %ow] : memref<1x{k}x2x4xf32>
  }} }} }}
  func.return
}}
"""

EXACT = "layout-schedule{target=avx2},layout-lower"


def remarks(text: str, options: str = "") -> list[str]:
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        apply_pipeline(parse_program(text), f"layout-schedule{{target=avx2 remarks=true{options}}}")
    return stderr.getvalue().splitlines()


def moved(text: str, options: str = "") -> list[str]:
    return [line for line in remarks(text, options) if "runs around the tile" in line]


@pytest.mark.parametrize(
    ("channels", "engine"), [(32, "native"), (48, "native"), (64, "native"), (64, "interp")]
)
def test_blocks_keep_every_sum_bit_for_bit(channels: int, engine: str) -> None:
    text = WRITTEN.format(c=channels, k=32)
    assert moved(text), remarks(text)
    report = heterolayout.check(text, EXACT, engine=engine)
    assert report.equal, report


@pytest.mark.parametrize("engine", ["native", "interp"])
def test_fused_bias_residual_and_relu_run_with_the_first_and_last_blocks(engine: str) -> None:
    """test_fusion's program (bias-seeded output, then a residual add and ReLU in nests of
    their own) in nChw8c: the sums start from the bias in the first block, the epilogue runs
    after the last; the blocks are `%c/8`."""
    text = conv_text(48, 32, 2, 4, True)
    found = remarks(text)
    assert sum("fused" in line for line in found) == 3, found
    assert any("%c/8 runs around the tile" in line for line in found), found
    report = heterolayout.check(text, EXACT, engine=engine)
    assert report.equal, report


def test_a_tile_whose_reads_fit_keeps_its_blocks() -> None:
    text = WRITTEN.format(c=32, k=16)
    assert not moved(text)
    assert reduction_blocks.L1_BYTES == 32 * 1024


def test_reassociated_sums_keep_their_own_blocks() -> None:
    assert not moved(WRITTEN.format(c=64, k=32), " fma=true reassociate=true")


ROWS = (
    WRITTEN.replace("%b: memref<{k}xf32>", "%b: memref<{k}xf32>, %z: memref<1x{k}x1x4xf32>")
    .replace(
        "  %zero = arith.constant",
        '  layout.assign %z to #layout.tag<"NCHW->nChw16c"> : memref<1x{k}x1x4xf32>\n'
        "  %zero = arith.constant",
    )
    .replace(
        "    affine.store %zero, %y[0, %k, %oh, %ow] : memref<1x{k}x2x4xf32>",
        "    %z0 = affine.load %z[0, %k, 0, %ow] : memref<1x{k}x1x4xf32>\n"
        "    affine.store %z0, %y[0, %k, %oh, %ow] : memref<1x{k}x2x4xf32>",
    )
    .replace(
        "    affine.store %r, %y[0, %k, %oh, %ow] : memref<1x{k}x2x4xf32>",
        "    affine.store %r, %y[0, %k, %oh, %ow] : memref<1x{k}x2x4xf32>\n"
        "    affine.store %r, %z[0, %k, 0, %ow] : memref<1x{k}x1x4xf32>",
    )
)


def test_a_loop_that_carries_a_dependence_keeps_the_blocks_inside() -> None:
    """Each row's sums start from the row before it (through %z): %oh carries that
    dependence, so the channel blocks may not move out past it (row 1's first block would
    read %z before row 0's last block wrote it)."""
    text = ROWS.format(c=64, k=32)
    assert not moved(text), remarks(text)
    assert any("scheduled" in line for line in remarks(text))
    report = heterolayout.check(text, EXACT, engine="native")
    assert report.equal, report


EARLY_BIAS = WRITTEN.replace(
    "    affine.store %zero, %y[0, %k, %oh, %ow] : memref<1x{k}x2x4xf32>",
    "    affine.store %zero, %y[0, %k, %oh, %ow] : memref<1x{k}x2x4xf32>\n"
    "    %early = affine.load %b[%k] : memref<{k}xf32>",
).replace("%u = arith.addf %v, %bk : f32", "%u = arith.addf %v, %early : f32")


def test_a_value_loaded_before_the_sums_and_used_after_them_keeps_the_blocks_inside() -> None:
    """Only the first block runs the statements before the reduction loops: the bias they
    load would be missing where the last block adds it."""
    text = EARLY_BIAS.format(c=64, k=32)
    assert "%early" in text
    assert not moved(text), remarks(text)
    report = heterolayout.check(text, EXACT, engine="native")
    assert report.equal, report
