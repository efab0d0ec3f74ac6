"""Views of layout-typed memrefs used the way tiled, bufferized upstream IR uses them.

TILES: tiles whose offsets step to a run-time bound and whose sizes are `affine.min`s,
`memref.copy` between windows of two layouts, into and out of a plain promotion buffer, a
window copied onto itself, `layout.convert` of a window, a `linalg.generic` on windows, a
halo window at a clamped offset. CALLS: views (run-time and static windows) passed to private
callees that read or write them (copied at the call), and a view freed (its root is).
Each program is compared with its numpy meaning (computed here), lowered against unlowered in
both Python engines, and natively against the layout-free program; the lean index code
(unsigned division, no `select`) is proven by translation validation, which fails when it is
not told what the views guarantee.
"""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout.execution.engines import load_module
from heterolayout.passes.pipeline import apply_pipeline

A = '#layout.tag<"HW->hW4h4w">'
OUT = '#layout.tag<"HW->Hw8w">'
SCRATCH = '#layout.tag<"HW->WH">'
C16 = '#layout.tag<"C->C16c">'

TILES = f"""
#min = affine_map<(d0) -> (-d0 + 8, 3)>
func.func @main(%a: memref<8x16xf32, {A}>, %b: memref<?x16xf32>, %out: memref<8x16xf32, {OUT}>, %row: memref<8x16xf32>, %halo: memref<8x16xf32>) {{
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %b, %c0 : memref<?x16xf32>
  %scratch = memref.alloc() : memref<8x16xf32, {SCRATCH}>
  scf.for %t = %c0 to %n step %c3 {{
    %sz = affine.min #min(%t)
    %src = memref.subview %a[%t, 0] [%sz, 16] [1, 1] : memref<8x16xf32, {A}> to memref<?x16xf32, strided<[16, 1], offset: ?>>
    %dst = memref.subview %out[%t, 0] [%sz, 16] [1, 1] : memref<8x16xf32, {OUT}> to memref<?x16xf32, strided<[16, 1], offset: ?>>
    memref.copy %src, %dst : memref<?x16xf32, strided<[16, 1], offset: ?>> to memref<?x16xf32, strided<[16, 1], offset: ?>>
    %bt = memref.subview %b[%t, 0] [%sz, 16] [1, 1] : memref<?x16xf32> to memref<?x16xf32, strided<[16, 1], offset: ?>>
    linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}} ins(%bt : memref<?x16xf32, strided<[16, 1], offset: ?>>) outs(%dst : memref<?x16xf32, strided<[16, 1], offset: ?>>) {{
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }}
    %again = memref.subview %out[%t, 0] [%sz, 16] [1, 1] : memref<8x16xf32, {OUT}> to memref<?x16xf32, strided<[16, 1], offset: ?>>
    memref.copy %dst, %again : memref<?x16xf32, strided<[16, 1], offset: ?>> to memref<?x16xf32, strided<[16, 1], offset: ?>>
    %tmp = memref.alloc(%sz) : memref<?x16xf32>
    memref.copy %dst, %tmp : memref<?x16xf32, strided<[16, 1], offset: ?>> to memref<?x16xf32>
    %sc = memref.subview %scratch[%t, 0] [%sz, 16] [1, 1] : memref<8x16xf32, {SCRATCH}> to memref<?x16xf32, strided<[16, 1], offset: ?>>
    memref.copy %tmp, %sc : memref<?x16xf32> to memref<?x16xf32, strided<[16, 1], offset: ?>>
    memref.dealloc %tmp : memref<?x16xf32>
    %rt = memref.subview %row[%t, 0] [%sz, 16] [1, 1] : memref<8x16xf32> to memref<?x16xf32, strided<[16, 1], offset: ?>>
    layout.convert %sc to %rt : memref<?x16xf32, strided<[16, 1], offset: ?>> to memref<?x16xf32, strided<[16, 1], offset: ?>>
    %c1 = arith.constant 1 : index
    %up = arith.subi %t, %c1 : index
    %lo = arith.maxsi %up, %c0 : index
    %above = memref.subview %a[%lo, 0] [2, 16] [1, 1] : memref<8x16xf32, {A}> to memref<2x16xf32, strided<[16, 1], offset: ?>>
    %ht = memref.subview %halo[%t, 0] [2, 16] [1, 1] : memref<8x16xf32> to memref<2x16xf32, strided<[16, 1], offset: ?>>
    memref.copy %above, %ht : memref<2x16xf32, strided<[16, 1], offset: ?>> to memref<2x16xf32, strided<[16, 1], offset: ?>>
  }}
  memref.dealloc %scratch : memref<8x16xf32, {SCRATCH}>
  func.return
}}
"""


def tiles_numpy(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, ...]:
    out = (b + a).astype(np.float32)
    halo = np.zeros_like(a)
    for t in range(0, 8, 3):  # two rows from the one above each tile (the first: its own)
        halo[t : t + 2] = a[max(t - 1, 0) : max(t - 1, 0) + 2]
    return out, out.copy(), halo


CALLS = f"""
func.func private @scale(%x: memref<16xf32, strided<[1], offset: ?>>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {{
    %v = memref.load %x[%i] : memref<16xf32, strided<[1], offset: ?>>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %x[%i] : memref<16xf32, strided<[1], offset: ?>>
  }}
  func.return
}}
func.func private @sum(%x: memref<4x4xf32, strided<[12, 1], offset: ?>>) -> f32 {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) {{
    %r2 = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc2 = %acc) -> (f32) {{
      %v = memref.load %x[%i, %j] : memref<4x4xf32, strided<[12, 1], offset: ?>>
      %s = arith.addf %acc2, %v : f32
      scf.yield %s : f32
    }}
    scf.yield %r2 : f32
  }}
  func.return %r : f32
}}
func.func private @ends(%x: memref<4xf32, strided<[1], offset: 20>>) -> f32 {{
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %v = memref.load %x[%c0] : memref<4xf32, strided<[1], offset: 20>>
  %w = memref.load %x[%c3] : memref<4xf32, strided<[1], offset: 20>>
  %s = arith.addf %v, %w : f32
  func.return %s : f32
}}
func.func @main(%a: memref<64xf32, {C16}>, %m: memref<8x12xf32, #layout.tag<"HW->hW2h">>, %o: memref<2xf32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c24 = arith.constant 24 : index
  %n = memref.dim %o, %c0 : memref<2xf32>
  scf.for %k = %c0 to %n step %c1 {{
    %off = arith.muli %k, %c24 : index
    %s = memref.subview %a[%off] [16] [1] : memref<64xf32, {C16}> to memref<16xf32, strided<[1], offset: ?>>
    func.call @scale(%s) : (memref<16xf32, strided<[1], offset: ?>>) -> ()
  }}
  %t = memref.subview %m[%c2, 4] [4, 4] [1, 1] : memref<8x12xf32, #layout.tag<"HW->hW2h">> to memref<4x4xf32, strided<[12, 1], offset: ?>>
  %sum = func.call @sum(%t) : (memref<4x4xf32, strided<[12, 1], offset: ?>>) -> f32
  memref.store %sum, %o[%c0] : memref<2xf32>
  %u = memref.subview %m[1, 8] [1, 4] [1, 1] : memref<8x12xf32, #layout.tag<"HW->hW2h">> to memref<4xf32, strided<[1], offset: 20>>
  %e = func.call @ends(%u) : (memref<4xf32, strided<[1], offset: 20>>) -> f32
  memref.store %e, %o[%c1] : memref<2xf32>
  %scratch = memref.alloc() : memref<64xf32, {C16}>
  %w = memref.subview %scratch[%c24] [16] [1] : memref<64xf32, {C16}> to memref<16xf32, strided<[1], offset: ?>>
  memref.dealloc %w : memref<16xf32, strided<[1], offset: ?>>
  func.return
}}
"""


def calls_numpy(a: np.ndarray, m: np.ndarray) -> tuple[np.ndarray, ...]:
    after = a.copy()
    after[0:16] *= 2
    after[24:40] *= 2
    total = np.float32(0)
    for value in m[2:6, 4:8].ravel():  # the callee's order, in f32
        total = np.float32(total + value)
    return after, m, np.array([total, m[1, 8] + m[1, 11]], np.float32)


def test_views_passed_to_calls_compute_their_numpy_meaning() -> None:
    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, 64).astype(np.float32)
    m = rng.uniform(-1, 1, (8, 12)).astype(np.float32)
    for engine in ("compiled", "native"):
        arguments = [a.copy(), m.copy(), np.zeros(2, np.float32)]
        heterolayout.run(CALLS, args=arguments, engine=engine)
        for got, want in zip(arguments, calls_numpy(a, m), strict=True):
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
def test_views_passed_to_calls_equal_the_unlowered_program(engine: str) -> None:
    report = heterolayout.check(CALLS, engine=engine)
    assert report.mismatch is None, report.mismatch
    assert report.compared == 64 + 96 + 2


def test_tiled_copies_compute_their_numpy_meaning() -> None:
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (8, 16)).astype(np.float32)
    b = rng.uniform(-1, 1, (8, 16)).astype(np.float32)
    for engine in ("compiled", "native"):
        outputs = [np.zeros((8, 16), np.float32) for _ in range(3)]
        heterolayout.run(TILES, args=[a, b, *outputs], engine=engine)
        for got, want in zip(outputs, tiles_numpy(a, b), strict=True):
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
def test_tiled_copies_equal_the_unlowered_program(engine: str) -> None:
    report = heterolayout.check(TILES, engine=engine)
    assert report.mismatch is None, report.mismatch
    assert report.compared == 5 * 8 * 16


def test_tiled_copies_lower_to_lean_proven_index_code(capsys: pytest.CaptureFixture[str]) -> None:
    lowered = apply_pipeline(load_module(TILES), "layout-lower{validate=true}")
    text = str(lowered)
    assert "memref.copy" not in text and "layout.convert" not in text and "linalg" not in text
    viewed = {op.operands[0].name_hint for op in lowered.walk() if op.name == "memref.subview"}
    assert viewed <= {"b", "row", "halo"}  # only the views of plain memrefs stay
    assert "floordivsi" not in text and "arith.select" not in text and "remsi" not in text
    assert "divui" in text
    summary = capsys.readouterr().err
    assert "accesses proven" in summary and "not proven" not in summary


def test_validation_needs_what_the_views_guarantee(monkeypatch: pytest.MonkeyPatch) -> None:
    """Unsigned division of `offset + index` is right only because upstream keeps a view
    inside its source: without that fact the validator finds the code unproven."""
    from heterolayout.passes.validate import domain as validation_domain

    monkeypatch.setattr(validation_domain.Access, "fact", lambda self, term: None)
    with pytest.raises(Exception, match="not proven"):
        apply_pipeline(load_module(TILES), "layout-lower{validate=true}")


def test_a_freed_view_frees_its_root_in_the_engines() -> None:
    """As upstream's lowering frees a view's allocated pointer (its root's): reading the
    root after freeing a view of it is a use after free, before and after lowering."""
    text = f"""
func.func @main() -> f32 {{
  %a = memref.alloc() : memref<64xf32, {C16}>
  %s = memref.subview %a[16] [16] [1] : memref<64xf32, {C16}> to memref<16xf32, strided<[1], offset: 16>>
  memref.dealloc %s : memref<16xf32, strided<[1], offset: 16>>
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<64xf32, {C16}>
  func.return %v : f32
}}"""
    lowered_text = str(apply_pipeline(load_module(text), "layout-lower"))
    assert "memref.dealloc %a" in lowered_text
    for engine in ("interp", "compiled"):
        with pytest.raises(Exception, match="deallocated"):
            heterolayout.run(text, engine=engine)
    with pytest.raises(Exception, match="deallocated"):
        heterolayout.run(lowered_text, engine="interp")


COLLAPSED = """
func.func @main(%a: memref<?x4x16xf32, #layout.tag<"NHC->NHC8c">>, %out: memref<?x4x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %s = memref.collapse_shape %a [[0, 1], [2]] : memref<?x4x16xf32, #layout.tag<"NHC->NHC8c">> into memref<?x16xf32>
  %t = memref.transpose %a (n, h, c) -> (h, n, c) : memref<?x4x16xf32, #layout.tag<"NHC->NHC8c">> to memref<4x?x16xf32, strided<[16, 64, 1]>>
  %o = memref.collapse_shape %out [[0, 1], [2]] : memref<?x4x16xf32> into memref<?x16xf32>
  %n = memref.dim %s, %c0 : memref<?x16xf32>
  %m = memref.dim %t, %c1 : memref<4x?x16xf32, strided<[16, 64, 1]>>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %c = %c0 to %c16 step %c1 {
      %v = memref.load %s[%i, %c] : memref<?x16xf32>
      %h = arith.remui %i, %m : index
      %w = memref.load %t[%c1, %h, %c] : memref<4x?x16xf32, strided<[16, 64, 1]>>
      %x = arith.addf %v, %w : f32
      memref.store %x, %o[%i, %c] : memref<?x16xf32>
    }
  }
  func.return
}
"""


def test_collapsed_dynamic_dim_computes_its_numpy_meaning() -> None:
    """A '?' dim collapsed with static inner extents (its size: the root's run-time extent
    times 4), and a transposed '?' dim (its size: the root's)."""
    a = np.random.default_rng(9).uniform(-1, 1, (3, 4, 16)).astype(np.float32)
    flat = a.reshape(12, 16)
    want = np.stack([flat[i] + a[i % 3, 1] for i in range(12)]).reshape(3, 4, 16)
    for engine in ("compiled", "native"):
        out = np.zeros((3, 4, 16), np.float32)
        heterolayout.run(COLLAPSED, args=[a, out], engine=engine)
        np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
def test_collapsed_dynamic_dim_equals_the_unlowered_program(engine: str) -> None:
    report = heterolayout.check(COLLAPSED, engine=engine)
    assert report.mismatch is None, report.mismatch
    assert report.compared == 2 * 8 * 4 * 16


STATIC_WINDOWS = """
func.func private @ends(%x: memref<4x4xf32, strided<[12, 1], offset: ?>>) -> f32 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %v = memref.load %x[%c0, %c3] : memref<4x4xf32, strided<[12, 1], offset: ?>>
  %w = memref.load %x[%c3, %c0] : memref<4x4xf32, strided<[12, 1], offset: ?>>
  %s = arith.addf %v, %w : f32
  memref.store %s, %x[%c0, %c0] : memref<4x4xf32, strided<[12, 1], offset: ?>>
  func.return %s : f32
}
func.func @main(%m: memref<8x12xf32, #layout.tag<"HW->hW2h">>, %b: memref<4x4xf32>) -> f32 {
  %t = memref.subview %m[2, 4] [4, 4] [1, 1] : memref<8x12xf32, #layout.tag<"HW->hW2h">> to memref<4x4xf32, strided<[12, 1], offset: 28>>
  memref.copy %b, %t : memref<4x4xf32> to memref<4x4xf32, strided<[12, 1], offset: 28>>
  %u = memref.subview %m[4, 0] [4, 4] [1, 1] : memref<8x12xf32, #layout.tag<"HW->hW2h">> to memref<4x4xf32, strided<[12, 1], offset: 48>>
  %c = memref.cast %u : memref<4x4xf32, strided<[12, 1], offset: 48>> to memref<4x4xf32, strided<[12, 1], offset: ?>>
  %r = func.call @ends(%c) : (memref<4x4xf32, strided<[12, 1], offset: ?>>) -> f32
  func.return %r : f32
}
"""


def test_copies_into_static_windows_leave_the_rest_of_the_root() -> None:
    """A copy into a static window writes the window only (a conversion into the composed
    layout used to fill its pad slots, which are the rest of the root); a static window
    cast to a run-time offset and passed to a callee that writes it."""
    rng = np.random.default_rng(11)
    m = rng.uniform(-1, 1, (8, 12)).astype(np.float32)
    b = rng.uniform(-1, 1, (4, 4)).astype(np.float32)
    want = m.copy()
    want[2:6, 4:8] = b
    total = np.float32(want[4, 3] + want[7, 0])
    want[4, 0] = total
    for engine in ("interp", "compiled", "native"):
        arguments = [m.copy(), b.copy()]
        (result,) = heterolayout.run(STATIC_WINDOWS, args=arguments, engine=engine)
        np.testing.assert_array_equal(arguments[0], want)
        assert np.float32(result) == total
        report = heterolayout.check(STATIC_WINDOWS, engine=engine)
        assert report.mismatch is None, report.mismatch


CARRIED = """
func.func @main(%a: memref<64xf32, #layout.tag<"C->C16c">>, %o: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %o, %c0 : memref<4xf32>
  %v0 = memref.subview %a[0] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1]>>
  %w0 = memref.cast %v0 : memref<16xf32, strided<[1]>> to memref<16xf32, strided<[1], offset: ?>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%w = %w0) -> (memref<16xf32, strided<[1], offset: ?>>) {
    %x = memref.load %w[%c3] : memref<16xf32, strided<[1], offset: ?>>
    memref.store %x, %o[%i] : memref<4xf32>
    %k = arith.muli %i, %c8 : index
    %odd = arith.remui %i, %c4 : index
    %c = arith.cmpi eq, %odd, %c1 : index
    %next = scf.if %c -> (memref<16xf32, strided<[1], offset: ?>>) {
      %s = memref.subview %a[%k] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: ?>>
      scf.yield %s : memref<16xf32, strided<[1], offset: ?>>
    } else {
      %s = memref.subview %a[40] [16] [1] : memref<64xf32, #layout.tag<"C->C16c">> to memref<16xf32, strided<[1], offset: 40>>
      %t = memref.cast %s : memref<16xf32, strided<[1], offset: 40>> to memref<16xf32, strided<[1], offset: ?>>
      scf.yield %t : memref<16xf32, strided<[1], offset: ?>>
    }
    scf.yield %next : memref<16xf32, strided<[1], offset: ?>>
  }
  %y = memref.load %r[%c1] : memref<16xf32, strided<[1], offset: ?>>
  memref.store %y, %o[%c0] : memref<4xf32>
  func.return
}
"""


def test_carried_and_yielded_views_compute_their_numpy_meaning() -> None:
    """A loop carries a window of a layout-typed memref, an scf.if chooses the next one (a
    run-time offset or a static one): the windows' offsets are carried instead."""
    text = CARRIED
    a = np.random.default_rng(13).uniform(-1, 1, 64).astype(np.float32)
    want = np.array([a[41], a[43], a[11], a[43]], np.float32)
    lowered = str(apply_pipeline(load_module(text), "layout-lower{validate=true}"))
    assert "iter_args" in lowered and "memref<16xf32" not in lowered  # offsets carried
    for engine in ("interp", "compiled", "native"):
        out = np.zeros(4, np.float32)
        heterolayout.run(text, args=[a, out], engine=engine)
        np.testing.assert_array_equal(out, want)
        report = heterolayout.check(text, engine=engine)
        assert report.mismatch is None, report.mismatch
