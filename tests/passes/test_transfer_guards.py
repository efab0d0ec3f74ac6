"""`vector.transfer_read/write` that may run out of bounds, or are masked, on layout-typed
memrefs (`heterolayout/passes/lower/transfer_guards.py`): lanes past the logical end of the walked
dim read the padding and are not written, also where the physical buffer has pad slots there
(nChw8c with C = 5 or 13).

Each program runs four ways that must print the same: unlowered on the interp engine (the
transfers' own semantics), lowered on the compiled engine, and compiled by stock
`mlir-opt-22` + `mlir-runner-22` both lowered and as its layout-free twin (`layout-strip`:
upstream's own transfer lowering). The pad slots of the lowered buffers still hold the pad
value afterwards, and the results equal numpy's.
"""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout.layout import parse_layout
from tests.crosscheck_programs import layout_opt
from tests.mlir_tools import LOWER_TO_LLVM

STOCK = (*LOWER_TO_LLVM[:-1], "--convert-ub-to-llvm", LOWER_TO_LLVM[-1])
"""The native engine's LLVM pipeline (docs/native.md), and `ub.poison` (upstream's transfer lowering leaves it)."""

PERM = "affine_map<(d0, d1, d2, d3) -> (d1)>"
ROWS = "affine_map<(d0, d1, d2, d3) -> (d2, d1)>"
"""Rows along h (3 rows on an extent of 2: the last is padding), lanes along c."""
LANES = "affine_map<(d0, d1, d2, d3) -> (d1, d3)>"
"""Rows along c (past the end in the last block), 2 lanes along w (past it at w = 2)."""
MINOR = "affine_map<(d0, d1, d2, d3) -> (d2, d3)>"
"""Rows along h, lanes along w, masked."""


def _program(layout: str, channels: int, element: str) -> str:
    """Fills a 1xCx2x3 buffer, then reads and writes 8 lanes along c: in a loop over the
    blocks (the last one partial), at run-time starts past the end, masked and not, and as
    rows of 2-D transfers (rows along h or c); prints every vector read and the written
    buffer."""
    memref = f"memref<1x{channels}x2x3x{element}, {layout}>"
    is_float = element.startswith("f")
    convert = "arith.sitofp %i : i32 to" if is_float else "arith.trunci %i : i32 to"
    constant = "-7.0" if is_float else "-7"
    fill = "0.5" if is_float else "3"
    return f"""func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.alloc() : {memref}
  %out = memref.alloc() : {memref}
  %z = arith.constant {fill} : {element}
  affine.for %c = 0 to {channels} {{
    affine.for %h = 0 to 2 {{
      affine.for %w = 0 to 3 {{
        %k = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 6 + d1 * 3 + d2) mod 97)>(%c, %h, %w)
        %i = arith.index_cast %k : index to i32
        %f = {convert} {element}
        memref.store %f, %a[%c0, %c, %h, %w] : {memref}
        memref.store %z, %out[%c0, %c, %h, %w] : {memref}
      }}
    }}
  }}
  %pad = arith.constant {constant} : {element}
  %m = arith.constant dense<[true, false, true, true, false, true, true, true]> : vector<8xi1>
  %m2 = arith.constant dense<[[true, false], [false, true], [true, true]]> : vector<3x2xi1>
  affine.for %c = 0 to {channels} step 8 {{
    affine.for %w = 0 to 3 {{
      %v = vector.transfer_read %a[%c0, %c, %c0, %w], %pad {{permutation_map = {PERM}}} : {memref}, vector<8x{element}>
      vector.print %v : vector<8x{element}>
      vector.transfer_write %v, %out[%c0, %c, %c0, %w] {{permutation_map = {PERM}}} : vector<8x{element}>, {memref}
      %q = vector.transfer_read %a[%c0, %c, %c0, %w], %pad {{permutation_map = {ROWS}}} : {memref}, vector<3x8x{element}>
      vector.print %q : vector<3x8x{element}>
      %r = vector.transfer_read %a[%c0, %c, %c0, %w], %pad {{permutation_map = {LANES}}} : {memref}, vector<8x2x{element}>
      vector.transfer_write %r, %out[%c0, %c, %c1, %w] {{permutation_map = {LANES}}} : vector<8x2x{element}>, {memref}
      %k = vector.transfer_read %a[%c0, %c, %c0, %w], %pad, %m2 {{permutation_map = {MINOR}}} : {memref}, vector<3x2x{element}>
      vector.print %k : vector<3x2x{element}>
      vector.transfer_write %k, %out[%c0, %c, %c0, %w], %m2 {{permutation_map = {MINOR}}} : vector<3x2x{element}>, {memref}
    }}
  }}
  affine.for %s = 0 to {channels + 4} step 3 {{
    %u = vector.transfer_read %a[%c0, %s, %c1, %c2], %pad, %m {{permutation_map = {PERM}}} : {memref}, vector<8x{element}>
    vector.print %u : vector<8x{element}>
    %x = vector.transfer_read %a[%c0, %s, %c1, %c1], %pad {{permutation_map = {PERM}}} : {memref}, vector<8x{element}>
    vector.print %x : vector<8x{element}>
    vector.transfer_write %x, %out[%c0, %s, %c1, %c1], %m {{permutation_map = {PERM}}} : vector<8x{element}>, {memref}
    vector.transfer_write %u, %out[%c0, %s, %c1, %c2] {{permutation_map = {PERM}}} : vector<8x{element}>, {memref}
  }}
  affine.for %c = 0 to {channels} {{
    affine.for %h = 0 to 2 {{
      affine.for %w = 0 to 3 {{
        %e = memref.load %out[%c0, %c, %h, %w] : {memref}
        vector.print %e : {element}
      }}
    }}
  }}
  memref.dealloc %a : {memref}
  memref.dealloc %out : {memref}
  return
}}
"""


CASES = {
    "nChw8c-C5": ('#layout.tag<"NCHW->nChw8c", pad = 9.0>', 5, "f32"),
    "nChw8c-C13": ('#layout.tag<"NCHW->nChw8c", pad = 9.0>', 13, "f32"),
    "nChw4c-packed-i32": ('#layout.tag<"NCHW->nChw4c", pad = 9, pack = i32>', 11, "i8"),
    "builtin-tiled-map": ("affine_map<(n, c, h, w) -> (n, c floordiv 4, h, w, c mod 4)>", 7, "f32"),
    "nhwc": ('#layout.tag<"NCHW->nhwc">', 6, "f32"),
}


def _lowered(program: str, options: str = "") -> str:
    result = layout_opt(program, "-p", f"layout-lower{options}")
    assert result.returncode == 0, result.stderr
    return result.stdout


def _stripped(program: str) -> str:
    result = layout_opt(program, "-p", "layout-strip")
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_guarded_transfers_print_what_upstream_prints(case: str, native_runner) -> None:
    program = _program(*CASES[case])
    expected = heterolayout.run(program, engine="interp", capture=True).output
    assert expected is not None and "-7" in expected
    lowered = _lowered(program)
    assert "vector.transfer" not in lowered
    assert heterolayout.run(lowered, engine="compiled", capture=True).output == expected
    assert native_runner(lowered, pipeline=STOCK) == expected
    assert native_runner(_stripped(program), pipeline=STOCK) == expected


@pytest.mark.slow
@pytest.mark.parametrize("options", ["{index=affine}", "{flatten=true}", "{validate=true}"])
def test_guarded_transfers_under_every_option(options: str) -> None:
    program = _program(*CASES["nChw8c-C13"])
    expected = heterolayout.run(program, engine="interp", capture=True).output
    lowered = _lowered(program, options)
    for engine in ("interp", "compiled"):
        assert heterolayout.run(lowered, engine=engine, capture=True).output == expected


KERNEL = """#nc8 = #layout.tag<"NCHW->nChw8c", pad = 9.0>
func.func @main(%a: memref<1x5x2x3xf32, #nc8>, %out: memref<1x5x2x3xf32, #nc8>, %s: index) -> vector<8xf32> {
  %pad = arith.constant -7.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.constant dense<[true, true, false, true, true, true, true, true]> : vector<8xi1>
  %v = vector.transfer_read %a[%c0, %s, %c1, %c0], %pad {permutation_map = affine_map<(d0, d1, d2, d3) -> (d1)>} : memref<1x5x2x3xf32, #nc8>, vector<8xf32>
  vector.transfer_write %v, %out[%c0, %s, %c0, %c1], %m {permutation_map = affine_map<(d0, d1, d2, d3) -> (d1)>} : vector<8xf32>, memref<1x5x2x3xf32, #nc8>
  return %v : vector<8xf32>
}
"""


@pytest.mark.parametrize("start", [0, 2, 4, 5, 9])
def test_lanes_past_the_end_read_the_padding_and_leave_pad_slots(start: int) -> None:
    layout = parse_layout("NCHW->nChw8c", (1, 5, 2, 3), pad=9.0)
    rng = np.random.default_rng(start)
    a = rng.integers(-50, 50, (1, 5, 2, 3)).astype(np.float32)
    out = rng.integers(-50, 50, (1, 5, 2, 3)).astype(np.float32)
    physical_a, physical_out = layout.pack(a), layout.pack(out)
    (read,) = heterolayout.run(_lowered(KERNEL), "main", [physical_a, physical_out, start])
    lanes = np.arange(start, start + 8)
    inside = lanes < 5
    expected = np.full(8, -7.0, np.float32)
    expected[inside] = a[0, lanes[inside], 1, 0]
    np.testing.assert_array_equal(read, expected)
    written = out.copy()
    for t in range(8):
        if lanes[t] < 5 and t != 2:
            written[0, lanes[t], 0, 1] = expected[t]
    np.testing.assert_array_equal(layout.unpack(physical_out), written)
    pads = layout.offsets().size and np.ones(physical_out.size, bool)
    pads[layout.offsets().ravel()] = False
    assert (physical_out.ravel()[pads] == 9.0).all()
    assert (physical_a.ravel()[pads] == 9.0).all()


VIEW = """#nc8 = #layout.tag<"NC->NC8c", pad = 9.0>
func.func @main(%a: memref<2x16xf32, #nc8>, %o: index, %i: index, %v: vector<8xf32>) -> vector<8xf32> {
  %pad = arith.constant -7.0 : f32
  %c1 = arith.constant 1 : index
  %s = memref.subview %a[%c1, %o] [1, 5] [1, 1] : memref<2x16xf32, #nc8> to memref<5xf32, strided<[1], offset: ?>>
  %w = vector.transfer_read %s[%i], %pad : memref<5xf32, strided<[1], offset: ?>>, vector<8xf32>
  vector.transfer_write %v, %s[%i] : vector<8xf32>, memref<5xf32, strided<[1], offset: ?>>
  return %w : vector<8xf32>
}
"""


@pytest.mark.parametrize(("offset", "start"), [(0, 0), (3, 2), (11, 4), (7, 6)])
def test_transfers_through_a_runtime_view_stop_at_the_views_end(offset: int, start: int) -> None:
    """The view's 5 elements bound the lanes, not the root's 16 (nor its pad slots)."""
    layout = parse_layout("NC->NC8c", (2, 16), pad=9.0)
    a = np.arange(32, dtype=np.float32).reshape(2, 16)
    v = -np.arange(1, 9, dtype=np.float32)
    lanes = np.arange(start, start + 8)
    inside = lanes < 5
    expected_read = np.where(inside, a[1, offset + np.minimum(lanes, 4)], -7.0)
    expected = a.copy()
    expected[1, offset + lanes[inside]] = v[inside]
    logical = a.copy()
    (read,) = heterolayout.run(VIEW, "main", [logical, offset, start, v], engine="interp")
    np.testing.assert_array_equal(read, expected_read)
    np.testing.assert_array_equal(logical, expected)
    physical = layout.pack(a)
    (lowered_read,) = heterolayout.run(_lowered(VIEW), "main", [physical, offset, start, v])
    np.testing.assert_array_equal(lowered_read, expected_read)
    np.testing.assert_array_equal(layout.unpack(physical), expected)
