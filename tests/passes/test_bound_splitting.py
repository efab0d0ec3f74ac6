"""Index-set splitting in `layout-schedule` (passes/schedule/bound_splitting.py): padded
convolutions written with `max`/`min` kernel bounds, as the README's conv2d example is, are
split into interior and border nests with constant bounds, every one scheduled; the result
equals numpy's convolution and the program before scheduling. A nest whose outer iterations
share an element of a written buffer is left whole."""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline

CONV = """
func.func @main(%x: memref<1x{c}x{h}x{w}xf32>, %f: memref<{k}x{c}x{r}x{s}xf32>,
                %y: memref<1x{k}x{oh}x{ow}xf32>) {{
  layout.assign %x to #layout.tag<"NCHW->nChw4c"> : memref<1x{c}x{h}x{w}xf32>
  layout.assign %f to #layout.tag<"OIHW->OIhw4i4o"> : memref<{k}x{c}x{r}x{s}xf32>
  layout.assign %y to #layout.tag<"NCHW->nChw4c"> : memref<1x{k}x{oh}x{ow}xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to {k} {{
    affine.for %i = 0 to {oh} {{
      affine.for %j = 0 to {ow} {{
        affine.store %zero, %y[0, %k, %i, %j] : memref<1x{k}x{oh}x{ow}xf32>
        affine.for %c = 0 to {c} {{
          affine.for %p = max affine_map<(d0) -> (0, {pad} - d0 * {stride})>(%i) to min affine_map<(d0) -> ({r}, {h} + {pad} - d0 * {stride})>(%i) {{
            affine.for %q = max affine_map<(d0) -> (0, {pad} - d0 * {stride})>(%j) to min affine_map<(d0) -> ({s}, {w} + {pad} - d0 * {stride})>(%j) {{
              %a = affine.load %x[0, %c, %i * {stride} + %p - {pad}, %j * {stride} + %q - {pad}] : memref<1x{c}x{h}x{w}xf32>
              %b = affine.load %f[%k, %c, %p, %q] : memref<{k}x{c}x{r}x{s}xf32>
              %acc = affine.load %y[0, %k, %i, %j] : memref<1x{k}x{oh}x{ow}xf32>
              %m = arith.mulf %a, %b : f32
              %t = arith.addf %acc, %m : f32
              affine.store %t, %y[0, %k, %i, %j] : memref<1x{k}x{oh}x{ow}xf32>
            }}
          }}
        }}
      }}
    }}
  }}
  func.return
}}
"""

SHAPES = [
    # c, k, h, w, r, s, stride, pad
    (4, 8, 9, 7, 3, 3, 1, 1),
    (3, 4, 8, 8, 3, 3, 2, 1),
    (4, 4, 11, 11, 7, 7, 2, 3),
    (8, 4, 6, 5, 5, 3, 1, 2),
    (4, 8, 5, 5, 1, 1, 1, 0),
]


def conv_text(c: int, k: int, h: int, w: int, r: int, s: int, stride: int, pad: int) -> str:
    oh, ow = (h + 2 * pad - r) // stride + 1, (w + 2 * pad - s) // stride + 1
    return CONV.format(c=c, k=k, h=h, w=w, r=r, s=s, stride=stride, pad=pad, oh=oh, ow=ow)


def numpy_conv(x: np.ndarray, f: np.ndarray, stride: int, pad: int) -> np.ndarray:
    _, c, h, w = x.shape
    k, _, r, s = f.shape
    padded = np.zeros((c, h + 2 * pad, w + 2 * pad), np.float64)
    padded[:, pad : pad + h, pad : pad + w] = x[0]
    oh, ow = (h + 2 * pad - r) // stride + 1, (w + 2 * pad - s) // stride + 1
    y = np.zeros((1, k, oh, ow))
    for i in range(oh):
        for j in range(ow):
            window = padded[:, i * stride : i * stride + r, j * stride : j * stride + s]
            y[0, :, i, j] = np.tensordot(f, window, axes=([1, 2, 3], [0, 1, 2]))
    return y


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_padded_convolutions_are_split_scheduled_and_right(shape: tuple[int, ...]) -> None:
    c, k, h, w, r, s, stride, pad = shape
    text = conv_text(*shape)
    scheduled = str(apply_pipeline(parse_program(text), "layout-schedule{target=avx2}"))
    assert "max" not in scheduled and "min" not in scheduled
    assert "vector<4xf32>" in scheduled or "vector<8xf32>" in scheduled
    report = heterolayout.check(text, "layout-schedule{target=avx2},layout-lower", engine="native")
    assert report, str(report)
    rng = np.random.default_rng(sum(shape))
    x = rng.uniform(-1, 1, (1, c, h, w)).astype(np.float32)
    f = rng.uniform(-1, 1, (k, c, r, s)).astype(np.float32)
    expected = numpy_conv(x, f, stride, pad)
    y = np.zeros(expected.shape, np.float32)
    lowered = apply_pipeline(parse_program(text), "layout-schedule{target=avx512},layout-lower")
    heterolayout.run(lowered, args=(x, f, y), engine="native")
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)


def test_the_interior_gets_constant_bounds_and_each_border_its_own() -> None:
    module = apply_pipeline(
        parse_program(conv_text(4, 4, 8, 8, 3, 3, 1, 1)), "layout-schedule{vectorize=false}"
    )
    text = str(module)
    assert text.count("func.return") == 1 and "max" not in text
    nests = [
        op for op in module.walk() if op.name == "affine.for" and op.parent_op().name == "func.func"
    ]
    assert len(nests) == 9  # three ranges of rows (0, 1..6, 7) times three of columns


SHARED = """
func.func @main(%x: memref<8x8xf32>, %y: memref<8xf32>) {
  layout.assign %y to #layout.tag<"A->A"> : memref<8xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %p = max affine_map<(d0) -> (0, 1 - d0)>(%i) to min affine_map<(d0) -> (3, 9 - d0)>(%i) {
        %a = affine.load %x[%i, %j] : memref<8x8xf32>
        %acc = affine.load %y[%j] : memref<8xf32>
        %t = arith.addf %acc, %a : f32
        affine.store %t, %y[%j] : memref<8xf32>
      }
    }
  }
  func.return
}
"""


def test_a_nest_whose_rows_share_an_output_is_not_split() -> None:
    """Rows %i all add into %y[%j]: running them range by range would reorder the sums."""
    text = str(apply_pipeline(parse_program(SHARED), "layout-schedule"))
    assert text.count("max affine_map") == 1
    assert heterolayout.check(SHARED, "layout-schedule,layout-lower", engine="compiled")


SIBLINGS = """
func.func @main(%x: memref<8x8xf32>, %y: memref<8x8xf32>, %z: memref<8xf32>) {
  layout.assign %y to #layout.tag<"AB->BA"> : memref<8x8xf32>
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %p = max affine_map<(d0) -> (0, 1 - d0)>(%j) to min affine_map<(d0) -> (3, 9 - d0)>(%j) {
        %a = affine.load %x[%i, %j] : memref<8x8xf32>
        %acc = affine.load %y[%i, %j] : memref<8x8xf32>
        %t = arith.addf %acc, %a : f32
        affine.store %t, %y[%i, %j] : memref<8x8xf32>
      }
    }
    affine.for %k = 0 to 8 {
      %b = affine.load %z[%k] : memref<8xf32>
      %c = arith.addf %b, %b : f32
      affine.store %c, %z[%k] : memref<8xf32>
    }
  }
  func.return
}
"""


def test_a_nest_with_a_second_loop_beside_the_split_one_is_not_split() -> None:
    """A copy per range of %j would run the %k loop beside it again in each copy: %z's
    indices do not hold %j (nor %i), so the legality check keeps the nest whole."""
    text = str(apply_pipeline(parse_program(SIBLINGS), "layout-schedule"))
    assert text.count("max affine_map") == 1
    assert heterolayout.check(SIBLINGS, "layout-schedule,layout-lower", engine="compiled")
