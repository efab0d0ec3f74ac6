"""Views of layout-typed memrefs lowered to indexing of the root's physical buffer.

Each program opens views (subviews with static and run-time offsets, rank-reducing ones,
strides, chains, collapse/expand, transpose, reinterpret_cast, transfers) of a buffer with
a layout (nChw16c, the Hexagon crouton, a bit-packed i1 layout, an affine map). It is run
three ways and compared: its numpy meaning (computed here, independently); the lowered
program against the unlowered one in both Python engines (`heterolayout.check`); and
natively, the lowered program compiled by upstream MLIR 22 against the layout-free program
(`layout-strip`, which keeps the views on plain memrefs), also compiled upstream.
The property test checks the lowered index of single accesses against the Layout model.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heterolayout
from heterolayout.execution.engines import load_module
from heterolayout.passes.pipeline import apply_pipeline

NCHW16C = """
func.func @main(%a: memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">>, %o: memref<2x16x2x4xf32>, %row: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant 0.0 : f32
  %hi = memref.subview %a[0, 16, 0, 0] [1, 16, 2, 4] [1, 1, 1, 1] : memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">> to memref<16x2x4xf32, strided<[8, 4, 1], offset: 128>>
  scf.for %b = %c0 to %c2 step %c1 {
    %off = arith.muli %b, %c16 : index
    %blk = memref.subview %a[0, %off, 0, 0] [1, 16, 2, 4] [1, 1, 1, 1] : memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">> to memref<16x2x4xf32, strided<[8, 4, 1], offset: ?>>
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %w = %c0 to %c4 step %c1 {
        %x = vector.transfer_read %blk[%c0, %h, %w], %pad {in_bounds = [true], permutation_map = affine_map<(c, h, w) -> (c)>} : memref<16x2x4xf32, strided<[8, 4, 1], offset: ?>>, vector<16xf32>
        %y = vector.transfer_read %hi[%c0, %h, %w], %pad {in_bounds = [true], permutation_map = affine_map<(c, h, w) -> (c)>} : memref<16x2x4xf32, strided<[8, 4, 1], offset: 128>>, vector<16xf32>
        %s = arith.addf %x, %y : vector<16xf32>
        %ob = memref.subview %o[%b, 0, %h, %w] [1, 16, 1, 1] [1, 1, 1, 1] : memref<2x16x2x4xf32> to memref<16xf32, strided<[8], offset: ?>>
        vector.transfer_write %s, %ob[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32, strided<[8], offset: ?>>
      }
    }
  }
  %line = memref.subview %a[0, 8, 1, 2] [1, 16, 1, 1] [1, 1, 1, 1] : memref<1x32x2x4xf32, #layout.tag<"NCHW->nChw16c">> to memref<16xf32, strided<[8], offset: 70>>
  memref.copy %line, %row : memref<16xf32, strided<[8], offset: 70>> to memref<16xf32>
  %two = arith.constant 2.0 : f32
  memref.store %two, %hi[%c1, %c1, %c1] : memref<16x2x4xf32, strided<[8, 4, 1], offset: 128>>
  func.return
}
"""


def nchw16c_numpy(a: np.ndarray) -> tuple[np.ndarray, ...]:
    o = np.stack([a[0, 16 * b : 16 * b + 16] + a[0, 16:32] for b in range(2)])
    row = a[0, 8:24, 1, 2].copy()
    after = a.copy()
    after[0, 17, 1, 1] = 2.0
    return after, o, row


CROUTON = """
func.func @main(%a: memref<1x8x8x32xf32, #layout.chunked<"R4CroutonLayout">>, %o: memref<4x4x32xf32>, %t: memref<32x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %win = memref.subview %a[0, 2, 3, 0] [1, 4, 4, 32] [1, 1, 1, 1] : memref<1x8x8x32xf32, #layout.chunked<"R4CroutonLayout">> to memref<4x4x32xf32, strided<[256, 32, 1], offset: 608>>
  %tr = memref.transpose %win (h, w, c) -> (c, h, w) : memref<4x4x32xf32, strided<[256, 32, 1], offset: 608>> to memref<32x4x4xf32, strided<[1, 256, 32], offset: 608>>
  %flat = memref.collapse_shape %a [[0, 1, 2], [3]] : memref<1x8x8x32xf32, #layout.chunked<"R4CroutonLayout">> into memref<64x32xf32>
  scf.for %h = %c0 to %c4 step %c1 {
    scf.for %w = %c0 to %c4 step %c1 {
      scf.for %c = %c0 to %c32 step %c1 {
        %x = memref.load %win[%h, %w, %c] : memref<4x4x32xf32, strided<[256, 32, 1], offset: 608>>
        memref.store %x, %o[%h, %w, %c] : memref<4x4x32xf32>
      }
    }
  }
  scf.for %c = %c0 to %c32 step %c1 {
    scf.for %k = %c0 to %c16 step %c1 {
      %kh = arith.divui %k, %c4 : index
      %kw = arith.remui %k, %c4 : index
      %x = memref.load %tr[%c, %kh, %kw] : memref<32x4x4xf32, strided<[1, 256, 32], offset: 608>>
      %p = arith.addi %k, %c16 : index
      %y = memref.load %flat[%p, %c] : memref<64x32xf32>
      %s = arith.subf %x, %y : f32
      memref.store %s, %t[%c, %k] : memref<32x16xf32>
      memref.store %s, %flat[%k, %c] : memref<64x32xf32>
    }
  }
  func.return
}
"""


def crouton_numpy(a: np.ndarray) -> tuple[np.ndarray, ...]:
    o = a[0, 2:6, 3:7, :].copy()
    flat = a.reshape(64, 32).copy()
    t = np.empty((32, 16), np.float32)
    for c in range(32):
        for k in range(16):
            t[c, k] = o[k // 4, k % 4, c] - flat[k + 16, c]
            flat[k, c] = t[c, k]
    return flat.reshape(a.shape), o, t


PACKED = """
func.func @main(%p: memref<4x12xi1, #layout.tag<"HC->HC6c", pack = i6>>, %q: memref<12xi1>, %odd: memref<2x3xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c12 = arith.constant 12 : index
  %true = arith.constant true
  %row = memref.subview %p[2, 0] [1, 12] [1, 1] : memref<4x12xi1, #layout.tag<"HC->HC6c", pack = i6>> to memref<12xi1, strided<[1], offset: 24>>
  %grid = memref.subview %p[1, 3] [2, 3] [2, 3] : memref<4x12xi1, #layout.tag<"HC->HC6c", pack = i6>> to memref<2x3xi1, strided<[24, 3], offset: 15>>
  scf.for %k = %c0 to %c12 step %c1 {
    %b = memref.load %row[%k] : memref<12xi1, strided<[1], offset: 24>>
    memref.store %b, %q[%k] : memref<12xi1>
    %n = arith.xori %b, %true : i1
    memref.store %n, %row[%k] : memref<12xi1, strided<[1], offset: 24>>
  }
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %b = memref.load %grid[%i, %j] : memref<2x3xi1, strided<[24, 3], offset: 15>>
      memref.store %b, %odd[%i, %j] : memref<2x3xi1>
    }
  }
  func.return
}
"""


def packed_numpy(p: np.ndarray) -> tuple[np.ndarray, ...]:
    q = p[2].copy()
    odd = p[1:4:2, 3:12:3].copy()
    after = p.copy()
    after[2] = ~after[2]
    return after, q, odd


MAP = """
func.func @main(%m: memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>>, %o: memref<3x2x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %pad = arith.constant 0.0 : f32
  %s = memref.subview %m[1, 0] [6, 5] [2, 2] : memref<13x10xf32, #layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>>> to memref<6x5xf32, strided<[20, 2], offset: 10>>
  %e = memref.expand_shape %s [[0, 1], [2]] output_shape [3, 2, 5] : memref<6x5xf32, strided<[20, 2], offset: 10>> into memref<3x2x5xf32, strided<[40, 20, 2], offset: 10>>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %v = vector.transfer_read %e[%i, %j, %c0], %pad {in_bounds = [true]} : memref<3x2x5xf32, strided<[40, 20, 2], offset: 10>>, vector<5xf32>
      vector.transfer_write %v, %o[%i, %j, %c0] {in_bounds = [true]} : vector<5xf32>, memref<3x2x5xf32>
    }
  }
  func.return
}
"""


def map_numpy(m: np.ndarray) -> tuple[np.ndarray, ...]:
    return m, m[1:13:2, 0:10:2].reshape(3, 2, 5).copy()


PROGRAMS = {
    "nchw16c": (NCHW16C, nchw16c_numpy),
    "crouton": (CROUTON, crouton_numpy),
    "packed": (PACKED, packed_numpy),
    "map": (MAP, map_numpy),
}


def _arguments(name: str, rng: np.random.Generator) -> list[np.ndarray]:
    text = PROGRAMS[name][0]
    header = text[text.index("(") : text.index(") {")]
    arrays = []
    for shape, element in re.findall(r"memref<([0-9x]+)x(f32|i1)", header):
        dims = tuple(int(d) for d in shape.split("x"))
        if element == "i1":
            arrays.append(rng.integers(0, 2, dims).astype(bool))
        else:
            arrays.append(rng.uniform(-1, 1, dims).astype(np.float32))
    return arrays


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_views_compute_their_numpy_meaning(name: str) -> None:
    text, meaning = PROGRAMS[name]
    arguments = _arguments(name, np.random.default_rng(1))
    expected = meaning(arguments[0])
    heterolayout.run(text, args=arguments, engine="compiled")  # writes the arguments
    for got, want in zip(arguments, expected, strict=True):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_lowered_views_equal_the_unlowered_program(name: str, engine: str) -> None:
    """Python engines: lowered vs unlowered; native: lowered vs the layout-free program,
    both compiled by upstream MLIR 22."""
    report = heterolayout.check(PROGRAMS[name][0], engine=engine)
    assert report.mismatch is None, report.mismatch
    assert report.note is None
    assert report.compared > 0


def test_lowered_views_leave_no_view_of_a_layout() -> None:
    for text, _ in PROGRAMS.values():
        lowered = apply_pipeline(load_module(text), "layout-lower")
        names = {op.name for op in lowered.walk()}
        assert "memref.collapse_shape" not in names and "memref.transpose" not in names
        roots = [
            op
            for op in lowered.walk()
            if op.name == "memref.subview" and "layout" in str(op.operands[0].type)
        ]
        assert roots == []


# ---- property: the lowered index of one access is the layout's at the windowed index ----
@st.composite
def blocked_subviews(draw: st.DrawFn) -> tuple[str, list[int], list[int], list[int], list[int]]:
    rank = draw(st.integers(2, 3))
    names = "ABC"[:rank]
    shape = [draw(st.sampled_from([4, 6, 8, 12])) for _ in range(rank)]
    blocks = "".join(
        f"{draw(st.sampled_from([2, 4]))}{names[d].lower()}"
        for d in draw(st.lists(st.integers(0, rank - 1), max_size=2, unique=True))
    )
    order = "".join(draw(st.permutations(names)))
    tag = f"{names}->{order}{blocks}"
    offsets, sizes, strides, index = [], [], [], []
    for extent in shape:
        stride = draw(st.integers(1, 2))
        size = draw(st.integers(1, (extent - 1) // stride + 1))
        offset = draw(st.integers(0, extent - 1 - (size - 1) * stride))
        offsets.append(offset)
        sizes.append(size)
        strides.append(stride)
        index.append(draw(st.integers(0, size - 1)))
    return tag, shape, offsets, sizes, strides, index  # type: ignore[return-value]


@settings(max_examples=25, deadline=None, derandomize=True)
@given(blocked_subviews())
def test_lowered_subview_access_is_the_layout_at_the_window(case: tuple) -> None:  # type: ignore[type-arg]
    tag, shape, offsets, sizes, strides, index = case
    layout = heterolayout.parse_layout(tag, shape)
    source = "x".join(map(str, shape))
    view = "x".join(map(str, sizes))
    view_strides = [s * t for s, t in zip(_row_major(shape), strides, strict=True)]
    offset = sum(o * s for o, s in zip(offsets, _row_major(shape), strict=True))
    memref = f'memref<{source}xf32, #layout.tag<"{tag}">>'
    view_type = f"memref<{view}xf32, strided<{view_strides}, offset: {offset}>>"
    constants = "\n".join(f"  %i{d} = arith.constant {v} : index" for d, v in enumerate(index))
    text = f"""
func.func @main(%a: {memref}) -> f32 {{
{constants}
  %s = memref.subview %a{offsets} {sizes} {strides} : {memref} to {view_type}
  %v = memref.load %s[{", ".join(f"%i{d}" for d in range(len(index)))}] : {view_type}
  func.return %v : f32
}}"""
    lowered = apply_pipeline(load_module(text), "layout-lower")
    (load,) = [op for op in lowered.walk() if op.name == "memref.load"]
    physical = tuple(op.owner.value.value.data for op in load.operands[1:])  # type: ignore[union-attr]
    root_index = [o + i * s for o, i, s in zip(offsets, index, strides, strict=True)]
    assert physical == layout.physical_index(root_index)


def _row_major(shape: list[int]) -> list[int]:
    strides = [1] * len(shape)
    for d in reversed(range(len(shape) - 1)):
        strides[d] = strides[d + 1] * shape[d + 1]
    return strides
