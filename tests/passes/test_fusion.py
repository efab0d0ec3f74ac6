"""Fusion in `layout-schedule` (passes/schedule/fusion.py): a bias broadcast, ReLU and a
residual add written as nests of their own run inside the convolution's or matmul's nest,
on its accumulators, and give what the nests give apart (numpy, and the program before
scheduling bit for bit); nests whose accesses would be reordered stay apart."""

from __future__ import annotations

import contextlib
import io
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline

CONV = """
func.func @main(%x: memref<1x{c}x{h}x{w}xf32>, %f: memref<{k}x{c}x3x3xf32>, %b: memref<{k}xf32>,
                %r: memref<1x{k}x{oh}x{ow}xf32>, %y: memref<1x{k}x{oh}x{ow}xf32>) {{
{assigns}
  %zero = arith.constant 0.0 : f32
  affine.for %n = 0 to 1 {{ affine.for %o = 0 to {k} {{ affine.for %i = 0 to {oh} {{ affine.for %j = 0 to {ow} {{
    %v = affine.load %b[%o] : memref<{k}xf32>
    affine.store %v, %y[%n, %o, %i, %j] : memref<1x{k}x{oh}x{ow}xf32>
  }} }} }} }}
  affine.for %n = 0 to 1 {{ affine.for %o = 0 to {k} {{ affine.for %i = 0 to {oh} {{ affine.for %j = 0 to {ow} {{
    affine.for %c = 0 to {c} {{ affine.for %p = 0 to 3 {{ affine.for %q = 0 to 3 {{
      %a = affine.load %x[%n, %c, %i + %p, %j + %q] : memref<1x{c}x{h}x{w}xf32>
      %e = affine.load %f[%o, %c, %p, %q] : memref<{k}x{c}x3x3xf32>
      %s = affine.load %y[%n, %o, %i, %j] : memref<1x{k}x{oh}x{ow}xf32>
      %m = arith.mulf %a, %e : f32
      %t = arith.addf %s, %m : f32
      affine.store %t, %y[%n, %o, %i, %j] : memref<1x{k}x{oh}x{ow}xf32>
    }} }} }}
  }} }} }} }}
  affine.for %n = 0 to 1 {{ affine.for %o = 0 to {k} {{ affine.for %i = 0 to {oh} {{ affine.for %j = 0 to {ow} {{
    %s = affine.load %y[%n, %o, %i, %j] : memref<1x{k}x{oh}x{ow}xf32>
    %q = affine.load %r[%n, %o, %i, %j] : memref<1x{k}x{oh}x{ow}xf32>
    %t = arith.addf %s, %q : f32
    affine.store %t, %y[%n, %o, %i, %j] : memref<1x{k}x{oh}x{ow}xf32>
  }} }} }} }}
  affine.for %n = 0 to 1 {{ affine.for %o = 0 to {k} {{ affine.for %i = 0 to {oh} {{ affine.for %j = 0 to {ow} {{
    %s = affine.load %y[%n, %o, %i, %j] : memref<1x{k}x{oh}x{ow}xf32>
    %p = arith.cmpf ugt, %s, %zero : f32
    %t = arith.select %p, %s, %zero : f32
    affine.store %t, %y[%n, %o, %i, %j] : memref<1x{k}x{oh}x{ow}xf32>
  }} }} }} }}
  func.return
}}
"""

BLOCKED = """  layout.assign %x to #layout.tag<"NCHW->nChw8c"> : memref<1x{c}x{h}x{w}xf32>
  layout.assign %f to #layout.tag<"OIHW->OIhw8i8o"> : memref<{k}x{c}x3x3xf32>
  layout.assign %r to #layout.tag<"NCHW->nChw8c"> : memref<1x{k}x{oh}x{ow}xf32>
  layout.assign %y to #layout.tag<"NCHW->nChw8c"> : memref<1x{k}x{oh}x{ow}xf32>"""


def conv_text(c: int, k: int, oh: int, ow: int, blocked: bool) -> str:
    sizes = {"c": c, "k": k, "oh": oh, "ow": ow, "h": oh + 2, "w": ow + 2}
    assigns = BLOCKED.format(**sizes) if blocked else ""
    return CONV.format(assigns=assigns, **sizes)


def top_nests(text: str) -> int:
    return len(re.findall(r"^    affine\.for", text, re.MULTILINE))


def scheduled(text: str, options: str = "") -> tuple[str, list[str]]:
    """The program after `layout-schedule` and its remarks."""
    stderr = io.StringIO()
    with contextlib.redirect_stderr(stderr):
        module = apply_pipeline(
            parse_program(text), f"layout-schedule{{target=avx2 remarks=true{options}}}"
        )
    return str(module), stderr.getvalue().splitlines()


SHAPES = [(8, 8, 4, 6, False), (8, 16, 5, 5, True), (3, 12, 4, 9, True), (16, 8, 3, 2, False)]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_bias_residual_and_relu_run_on_the_convolutions_accumulators(
    shape: tuple[int, int, int, int, bool],
) -> None:
    c, k, oh, ow, _ = shape
    text = conv_text(*shape)
    fused, remarks = scheduled(text)
    assert sum("fused" in r for r in remarks) == 3, remarks
    assert top_nests(fused) == 1, fused
    apart, _ = scheduled(text, " fuse=false")
    assert top_nests(apart) > 1
    assert heterolayout.check(text, "layout-schedule{target=avx2},layout-lower", engine="native")
    rng = np.random.default_rng(c * k + oh)
    x = rng.uniform(-1, 1, (1, c, oh + 2, ow + 2)).astype(np.float32)
    f = rng.uniform(-1, 1, (k, c, 3, 3)).astype(np.float32)
    b = rng.uniform(-1, 1, (k,)).astype(np.float32)
    r = rng.uniform(-1, 1, (1, k, oh, ow)).astype(np.float32)
    windows = np.lib.stride_tricks.sliding_window_view(x[0].astype(np.float64), (3, 3), (1, 2))
    conv = np.einsum("chwpq,ocpq->ohw", windows, f.astype(np.float64))[None]
    expected = np.maximum(conv + b[None, :, None, None] + r, 0)
    y = np.zeros_like(r)
    lowered = apply_pipeline(parse_program(text), "layout-schedule{target=avx512},layout-lower")
    heterolayout.run(lowered, args=(x, f, b, r, y), engine="native")
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)


def test_the_epilogue_works_on_registers_and_stores_each_element_once() -> None:
    """The residual add and ReLU read the accumulators, not memory: one store per vector
    of the output (`vector.transfer_write` of nChw8c's channel vectors) and no load of it."""
    fused, _ = scheduled(conv_text(8, 8, 2, 4, True))
    laid_out = r"memref<1x8x2x4xf32, #layout"
    writes = re.findall(rf"vector\.transfer_write .*{laid_out}", fused)
    reads = re.findall(rf"vector\.transfer_read .*{laid_out}", fused)
    assert len(writes) == 4, fused  # the loop over rows holds a tile of 4 columns
    assert len(reads) == 4, fused  # of the residual %r only: %y is never read back


SHIFTED = """
func.func @main(%x: memref<9xf32>, %y: memref<9xf32>, %z: memref<8xf32>) {
  affine.for %i = 0 to 8 {
    %a = affine.load %x[%i] : memref<9xf32>
    %b = arith.addf %a, %a : f32
    affine.store %b, %y[%i] : memref<9xf32>
  }
  affine.for %i = 0 to 8 {
    %a = affine.load %y[%i + 1] : memref<9xf32>
    affine.store %a, %z[%i] : memref<8xf32>
  }
  func.return
}
"""


def test_a_consumer_that_reads_a_neighbour_is_not_fused() -> None:
    """%z[i] reads %y[i + 1], which the first nest writes one iteration later."""
    text, remarks = scheduled(SHIFTED)
    assert any("not fused" in r and "%y" in r for r in remarks), remarks
    assert not any(re.search(r"nest %i fused", r) for r in remarks), remarks
    assert text.count("affine.vector_store") == 2, text
    assert heterolayout.check(SHIFTED, "layout-schedule", engine="compiled")


INDEX = st.sampled_from(["%i, %j", "%j, %i", "%i, 0", "%i, %j + 1", "%j + 1, %i"])


@settings(max_examples=25, deadline=None)
@given(
    first_read=INDEX,
    first_write=INDEX,
    second_read=INDEX,
    second_write=INDEX,
    buffers=st.tuples(*[st.sampled_from("abc")] * 4),
)
def test_fusion_never_changes_what_two_nests_compute(
    first_read: str, first_write: str, second_read: str, second_write: str, buffers: tuple
) -> None:
    """Two element-wise nests over the same loops, reading and writing any of three
    buffers at permuted and shifted indices: fused or not, the same results."""
    r1, w1, r2, w2 = buffers
    text = f"""
func.func @main(%a: memref<5x5xf32>, %b: memref<5x5xf32>, %c: memref<5x5xf32>) {{
  affine.for %i = 0 to 4 {{
    affine.for %j = 0 to 4 {{
      %v = affine.load %{r1}[{first_read}] : memref<5x5xf32>
      %s = arith.addf %v, %v : f32
      affine.store %s, %{w1}[{first_write}] : memref<5x5xf32>
    }}
  }}
  affine.for %i = 0 to 4 {{
    affine.for %j = 0 to 4 {{
      %v = affine.load %{r2}[{second_read}] : memref<5x5xf32>
      %s = arith.mulf %v, %v : f32
      affine.store %s, %{w2}[{second_write}] : memref<5x5xf32>
    }}
  }}
  func.return
}}
"""
    report = heterolayout.check(text, "layout-schedule{vectorize=false}", engine="interp")
    assert report, str(report)


FORWARDED = """
memref.global "private" constant @w : memref<4x8xf32> = dense<[
  [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5],
  [-1.0, -2.0, -3.0, -4.0, -5.0, -6.0, -7.0, -8.0], [2.0, 0.0, 2.0, 0.0, 2.0, 0.0, 2.0, 0.0]]>
func.func @main(%x: memref<1x3x4xf32>, %y: memref<1x3x8xf32>) {
  %w = memref.get_global @w : memref<4x8xf32>
  layout.assign %w to #layout.tag<"KN->Nk8n"> : memref<4x8xf32>
  %t = memref.alloc() : memref<1x4x8xf32>
  affine.for %b = 0 to 1 { affine.for %k = 0 to 4 { affine.for %n = 0 to 8 {
    %v = affine.load %w[%k, %n] : memref<4x8xf32>
    affine.store %v, %t[%b, %k, %n] : memref<1x4x8xf32>
  } } }
  %zero = arith.constant 0.0 : f32
  affine.for %b = 0 to 1 { affine.for %m = 0 to 3 { affine.for %n = 0 to 8 {
    affine.store %zero, %y[%b, %m, %n] : memref<1x3x8xf32>
    affine.for %k = 0 to 4 {
      %a = affine.load %x[%b, %m, %k] : memref<1x3x4xf32>
      %e = memref.load %t[%b, %k, %n] : memref<1x4x8xf32>
      %s = affine.load %y[%b, %m, %n] : memref<1x3x8xf32>
      %p = arith.mulf %a, %e : f32
      %q = arith.addf %s, %p : f32
      affine.store %q, %y[%b, %m, %n] : memref<1x3x8xf32>
    }
  } } }
  memref.dealloc %t : memref<1x4x8xf32>
  func.return
}
"""


def test_a_broadcast_copy_of_a_constant_is_read_in_place() -> None:
    """The weights' copy that fits a batch matmul is dropped: the matmul reads the global in
    its own blocked layout, and computes what it did."""
    text, remarks = scheduled(FORWARDED)
    assert any("a copy of @w forwarded: 1 load(s)" in r for r in remarks), remarks
    assert "memref.alloc" not in text and "memref.dealloc" not in text
    assert heterolayout.check(FORWARDED, "layout-schedule,layout-lower", engine="compiled")


def test_a_copy_that_is_written_again_is_not_forwarded() -> None:
    """A buffer another nest writes after the copy holds other values than the global."""
    written = FORWARDED.replace(
        "  %zero = arith.constant 0.0 : f32\n",
        "  %zero = arith.constant 0.0 : f32\n"
        "  affine.store %zero, %t[0, 0, 0] : memref<1x4x8xf32>\n",
    )
    _, remarks = scheduled(written)
    assert not any("forwarded" in r for r in remarks), remarks
    assert heterolayout.check(written, "layout-schedule,layout-lower", engine="compiled")


STRIDED = """
func.func @main(%x: memref<1x16x13x13xf32>, %w: memref<16x16x3x3xf32>, %y: memref<1x16x5x5xf32>) {
  layout.assign %x to #layout.tag<"NCHW->nChw8c"> : memref<1x16x13x13xf32>
  layout.assign %w to #layout.tag<"OIHW->OIhw8i8o"> : memref<16x16x3x3xf32>
  layout.assign %y to #layout.tag<"NCHW->nChw8c"> : memref<1x16x5x5xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1x16x5x5xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
    ins(%x, %w : memref<1x16x13x13xf32>, memref<16x16x3x3xf32>) outs(%y : memref<1x16x5x5xf32>)
  func.return
}
"""


def test_a_strided_dilated_linalg_convolution_takes_its_fill_and_is_scheduled() -> None:
    text, remarks = scheduled(STRIDED)
    assert any(
        "nest %fill fused before the inner loops of nest %conv_2d_nchw_fchw" in r for r in remarks
    )
    assert "vector<8xf32>" in text and "linalg." not in text
    assert heterolayout.check(STRIDED, "layout-schedule{target=avx2},layout-lower", engine="native")


def test_remarks_are_shown_for_their_own_run_only(tmp_path) -> None:
    """`remarks=true` (and `layout-opt -v`) print the remarks of that run: the logger is as it
    was afterwards, so a later run in the same process prints nothing (tests that compare a
    command's stderr with '' ran after one and saw its remarks)."""
    from heterolayout.tools.opt import main as layout_opt

    text = conv_text(8, 8, 4, 6, False)
    _, remarks = scheduled(text)
    assert remarks
    quiet = io.StringIO()
    with contextlib.redirect_stderr(quiet):
        apply_pipeline(parse_program(text), "layout-schedule{target=avx2}")
    assert quiet.getvalue() == ""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        program = tmp_path / "conv.mlir"
        program.write_text(text)
        assert layout_opt(["-v", str(program), "-p", "layout-schedule{target=avx2}"]) == 0
    assert "remark: layout-schedule" in err.getvalue()
    with contextlib.redirect_stderr(quiet):
        apply_pipeline(parse_program(text), "layout-schedule{target=avx2}")
    assert quiet.getvalue() == ""


def test_remarks_collected_are_the_ones_shown_and_nothing_is_printed() -> None:
    """`remarks_collected` gives a program the lines `remarks=true` prints, prints nothing,
    and leaves the logger as it was."""
    from heterolayout.passes.remarks import remarks_collected

    text = conv_text(8, 8, 4, 6, False)
    _, shown = scheduled(text)
    collected: list[str] = []
    quiet = io.StringIO()
    with contextlib.redirect_stderr(quiet), remarks_collected(collected):
        apply_pipeline(parse_program(text), "layout-schedule{target=avx2}")
    assert collected == shown
    assert quiet.getvalue() == ""
    with contextlib.redirect_stderr(quiet):
        apply_pipeline(parse_program(text), "layout-schedule{target=avx2}")
    assert quiet.getvalue() == "" and len(collected) == len(shown)


MASKED = """
func.func @main(%x: memref<1x16x4x4xf32>, %s: memref<16xf32>, %y: memref<1x16x4x4xf32>) {
  layout.assign %x to #layout.tag<"NCHW->nChw8c"> : memref<1x16x4x4xf32>
  layout.assign %y to #layout.tag<"NCHW->nChw8c"> : memref<1x16x4x4xf32>
  %m = memref.alloc() : memref<1x16x4x4xi1>
  %zero = arith.constant 0.0 : f32
  affine.for %n = 0 to 1 { affine.for %c = 0 to 16 { affine.for %h = 0 to 4 { affine.for %w = 0 to 4 {
    %a = affine.load %x[%n, %c, %h, %w] : memref<1x16x4x4xf32>
    %k = affine.load %s[%c] : memref<16xf32>
    %p = arith.mulf %a, %k : f32
    affine.store %p, %y[%n, %c, %h, %w] : memref<1x16x4x4xf32>
  } } } }
  affine.for %n = 0 to 1 { affine.for %c = 0 to 16 { affine.for %h = 0 to 4 { affine.for %w = 0 to 4 {
    %a = affine.load %x[%n, %c, %h, %w] : memref<1x16x4x4xf32>
    %b = arith.cmpf olt, %a, %zero : f32
    affine.store %b, %m[%n, %c, %h, %w] : memref<1x16x4x4xi1>
  } } } }
  affine.for %n = 0 to 1 { affine.for %c = 0 to 16 { affine.for %h = 0 to 4 { affine.for %w = 0 to 4 {
    %b = affine.load %m[%n, %c, %h, %w] : memref<1x16x4x4xi1>
    %p = affine.load %y[%n, %c, %h, %w] : memref<1x16x4x4xf32>
    %a = affine.load %x[%n, %c, %h, %w] : memref<1x16x4x4xf32>
    %r = arith.select %b, %p, %a : f32
    affine.store %r, %y[%n, %c, %h, %w] : memref<1x16x4x4xf32>
  } } } }
  memref.dealloc %m : memref<1x16x4x4xi1>
  func.return
}
"""


@pytest.mark.parametrize("engine", ["native", "compiled", "interp"])
def test_a_mask_between_fused_nests_stays_in_registers(engine: str) -> None:
    """PReLU as torch-mlir writes it: the slope product, a comparison into an i1 buffer of
    its own (no layout), a select. The three nests fuse (a fused pair meets the nest before
    it), each load of what the same iteration stored reads the stored value, the product's
    store that the select overwrites goes, and the mask buffer, written but never read, is
    dropped: one vectorized nest, one trip through memory."""
    text, remarks = scheduled(MASKED)
    assert sum("fused into the body" in r for r in remarks) == 2, remarks
    assert any("dropped a memref<1x16x4x4xi1> buffer" in r for r in remarks), remarks
    assert top_nests(text) == 1 and "xi1>" not in text.replace("vector<8xi1>", "")
    assert text.count("vector.transfer_write") == 1
    pipeline = "layout-schedule{target=avx2},layout-lower"
    report = heterolayout.check(MASKED, pipeline=pipeline, engine=engine, seed=6)
    assert report.equal and report.compared > 0, str(report)


def test_a_store_through_another_view_keeps_the_load() -> None:
    """A store to another view of the same buffer between a store and a load of one element
    may write that element: the load stays a load."""
    from heterolayout.passes.schedule.fusion import forward_stored_values

    text = """
func.func @main(%y: memref<8xf32>, %v: f32, %w: f32, %i: index) -> f32 {
  %view = memref.subview %y[1] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 1>>
  memref.store %v, %y[%i] : memref<8xf32>
  memref.store %w, %view[%i] : memref<4xf32, strided<[1], offset: 1>>
  %r = memref.load %y[%i] : memref<8xf32>
  %s = memref.load %view[%i] : memref<4xf32, strided<[1], offset: 1>>
  %t = arith.addf %r, %s : f32
  func.return %t : f32
}
"""
    module = parse_program(text)
    block = next(iter(module.ops)).body.blocks.first  # type: ignore[attr-defined]
    assert forward_stored_values(block) == 1  # only %s, stored last through %view
    printed = str(module)
    assert "memref.load %y[%i]" in printed and "memref.load %view" not in printed
    assert printed.count("memref.store") == 2


def test_only_the_stored_element_is_forwarded() -> None:
    """Equal operands under different maps name different elements (`%y[%i]`, `%y[%i + 1]`);
    the store that the last one overwrites goes, the other stays."""
    from heterolayout.passes.schedule.fusion import forward_stored_values

    text = """
func.func @main(%y: memref<8xf32>, %v: f32, %w: f32, %i: index) -> f32 {
  affine.store %v, %y[%i] : memref<8xf32>
  %n = affine.load %y[%i + 1] : memref<8xf32>
  %r = affine.load %y[%i] : memref<8xf32>
  affine.store %w, %y[%i] : memref<8xf32>
  %t = arith.addf %n, %r : f32
  func.return %t : f32
}
"""
    module = parse_program(text)
    block = next(iter(module.ops)).body.blocks.first  # type: ignore[attr-defined]
    assert forward_stored_values(block) == 1
    printed = str(module)
    assert "affine.load %y[%i + 1]" in printed and "affine.load %y[%i] " not in printed
    assert printed.count("affine.store") == 2  # the first store is read by %y[%i + 1]'s load


BATCH_NORM = """
func.func @main(%x: memref<1x8x6x6xf32>, %f: memref<8x8x3x3xf32>, %v: memref<8xf32>,
                %y: memref<1x8x4x4xf32>) {
  layout.assign %y to #layout.tag<"NCHW->nChw8c"> : memref<1x8x4x4xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %n = 0 to 1 { affine.for %o = 0 to 8 { affine.for %i = 0 to 4 { affine.for %j = 0 to 4 {
    affine.store %zero, %y[%n, %o, %i, %j] : memref<1x8x4x4xf32>
  } } } }
  affine.for %n = 0 to 1 { affine.for %o = 0 to 8 { affine.for %i = 0 to 4 { affine.for %j = 0 to 4 {
    affine.for %c = 0 to 8 { affine.for %p = 0 to 3 { affine.for %q = 0 to 3 {
      %a = affine.load %x[%n, %c, %i + %p, %j + %q] : memref<1x8x6x6xf32>
      %w = affine.load %f[%o, %c, %p, %q] : memref<8x8x3x3xf32>
      %s = affine.load %y[%n, %o, %i, %j] : memref<1x8x4x4xf32>
      %m = arith.mulf %a, %w : f32
      %t = arith.addf %s, %m : f32
      affine.store %t, %y[%n, %o, %i, %j] : memref<1x8x4x4xf32>
    } } }
  } } } }
  %scale = memref.alloc() : memref<8xf32>
  %eps = arith.constant 1.0e-05 : f32
  affine.for %o = 0 to 8 {
    %a = affine.load %v[%o] : memref<8xf32>
    %b = arith.addf %a, %eps : f32
    %r = math.sqrt %b : f32
    affine.store %r, %scale[%o] : memref<8xf32>
  }
  affine.for %n = 0 to 1 { affine.for %o = 0 to 8 { affine.for %i = 0 to 4 { affine.for %j = 0 to 4 {
    %a = affine.load %y[%n, %o, %i, %j] : memref<1x8x4x4xf32>
    %r = affine.load %scale[%o] : memref<8xf32>
    %d = arith.divf %a, %r : f32
    affine.store %d, %y[%n, %o, %i, %j] : memref<1x8x4x4xf32>
  } } } }
  memref.dealloc %scale : memref<8xf32>
  func.return
}
"""


@pytest.mark.parametrize("engine", ["native", "compiled", "interp"])
def test_a_nest_between_a_producer_and_its_consumer_moves_up(engine: str) -> None:
    """BatchNorm as torch-mlir writes it: the scale (sqrt of the variance plus epsilon, from
    constants) is computed between the convolution and the nest that divides its output by
    it. That nest moves above the fill and the convolution (keeping those two together), so
    the fill fuses before the convolution's inner loops and the division after them."""
    _, remarks = scheduled(BATCH_NORM)
    assert any("fused before the inner loops" in r for r in remarks), remarks
    assert any("fused after the inner loops" in r for r in remarks), remarks
    pipeline = "layout-schedule{target=avx2},layout-lower"
    report = heterolayout.check(BATCH_NORM, pipeline=pipeline, engine=engine, seed=2)
    assert report.equal and report.compared > 0, str(report)
