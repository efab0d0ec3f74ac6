"""The analyses under `layout-schedule`, each against an independent formulation.

- Dependence analysis: on random small nests, every pair of iterations that touch one
  element (found by enumerating all of them) shows up as a reported dependence with its
  direction vector (the analysis may over-report, never under-report).
- Legality end to end: random stencils (reads and writes of one layout-typed buffer at
  random offsets, so some interchanges are illegal) compute the same bits after
  `layout-schedule` as before.
- `Layout.contiguous_run` and `Layout.dim_digits` against the offsets of every index.
- `vector.fma` in the engines: one rounding of the exact value (checked with fractions).
- `vector.transfer_read/write` as layout-schedule emits them: the engines against numpy, and
  layout-lower keeping a contiguous run one vector load.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heterolayout
from heterolayout import parse_layout
from heterolayout.dialects.context import parse_program
from heterolayout.execution.runtime.values import fma
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.passes.schedule.dependence import dependences
from heterolayout.passes.schedule.nest import extract

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)


# ---- dependences ------------------------------------------------------------------------------
@st.composite
def nests(draw: st.DrawFn) -> tuple[str, list[int], list[tuple[list[int], int]]]:
    """A perfect nest of 2 or 3 loops storing to y[e0] and loading y[e1] (1-D subscripts
    Σ a·i + c), as MLIR text, with the trips and the two subscripts."""
    depth = draw(st.integers(2, 3))
    trips = [draw(st.integers(1, 4)) for _ in range(depth)]
    subscripts = []
    for _ in range(2):
        coefficients = [draw(st.integers(-2, 2)) for _ in range(depth)]
        low = sum(min(0, a * (t - 1)) for a, t in zip(coefficients, trips, strict=True))
        subscripts.append((coefficients, -low + draw(st.integers(0, 2))))
    size = (
        max(
            c + sum(max(0, a * (t - 1)) for a, t in zip(co, trips, strict=True))
            for co, c in subscripts
        )
        + 1
    )
    ivs = [f"%i{d}" for d in range(depth)]
    memref = f'memref<{size}xf32, #layout.tag<"N->N">>'

    def expr(coefficients: list[int], constant: int) -> str:
        terms = [f"d{d} * {a}" for d, a in enumerate(coefficients) if a]
        return " + ".join([*terms, str(constant)])

    dims = ", ".join(f"d{d}" for d in range(depth))
    lines = ["func.func @f(%y: " + memref + ") {"]
    for d, (iv, t) in enumerate(zip(ivs, trips, strict=True)):
        lines.append("  " * (d + 1) + f"affine.for {iv} = 0 to {t} {{")
    indent = "  " * (depth + 1)
    store, load = subscripts
    lines += [
        f"{indent}%a = affine.apply affine_map<({dims}) -> ({expr(*load)})>({', '.join(ivs)})",
        f"{indent}%x = memref.load %y[%a] : {memref}",
        f"{indent}%b = affine.apply affine_map<({dims}) -> ({expr(*store)})>({', '.join(ivs)})",
        f"{indent}memref.store %x, %y[%b] : {memref}",
    ]
    lines += ["  " * (d + 1) + "}" for d in reversed(range(depth))]
    lines += ["  func.return", "}"]
    return "\n".join(lines), trips, subscripts


def _value(subscript: tuple[list[int], int], point: tuple[int, ...]) -> int:
    coefficients, constant = subscript
    return constant + sum(a * i for a, i in zip(coefficients, point, strict=True))


@given(nests())
@SETTINGS
def test_every_dependence_is_reported_with_its_direction(case) -> None:
    text, trips, (store, load) = case
    module = parse_program(text, "nest")
    top = next(op for op in module.walk() if op.name == "affine.for")
    nest = extract(top)
    found = {(d.source.write, d.sink.write, d.directions) for d in dependences(nest)}
    points = list(itertools.product(*(range(t) for t in trips)))
    # Textual order: the load (statement 0) comes before the store (statement 1).
    for (first, p), (second, q) in itertools.product(enumerate(points), repeat=2):
        for source_is_store, sink_is_store in ((False, True), (True, False), (True, True)):
            a = _value(store if source_is_store else load, p)
            b = _value(store if sink_is_store else load, q)
            earlier = first < second or (first == second and not source_is_store and sink_is_store)
            if a != b or not earlier:
                continue
            directions = tuple(
                "<" if x < y else "=" if x == y else ">" for x, y in zip(p, q, strict=True)
            )
            assert (source_is_store, sink_is_store, directions) in found, (text, p, q)


@st.composite
def stencils(draw: st.DrawFn) -> str:
    """y[i + a, j + b] = y[i + c, j + d] * s + x[i, j] over an interior of a layout-typed
    y; the loop order and the layout are random."""
    offsets = [draw(st.integers(-1, 1)) for _ in range(4)]
    layout = draw(st.sampled_from(["MN->MN", "MN->NM", "MN->NM4n", "MN->MN4m4n"]))
    swapped = draw(st.booleans())
    rows, columns = 6, 9
    y = f'memref<{rows}x{columns}xf32, #layout.tag<"{layout}">>'
    x = f"memref<{rows}x{columns}xf32>"
    loops = [("%i", 1, rows - 1), ("%j", 1, columns - 1)]
    if swapped:
        loops.reverse()
    a, b, c, d = offsets
    lines = [f"func.func @main(%y: {y}, %x: {x}, %s: f32) {{"]
    for depth, (iv, low, high) in enumerate(loops):
        lines.append("  " * (depth + 1) + f"affine.for {iv} = {low} to {high} {{")
    indent = "  " * 3
    lines += [
        f"{indent}%r = affine.load %y[%i + {c}, %j + {d}] : {y}",
        f"{indent}%t = affine.load %x[%i, %j] : {x}",
        f"{indent}%p = arith.mulf %r, %s : f32",
        f"{indent}%q = arith.addf %p, %t : f32",
        f"{indent}affine.store %q, %y[%i + {a}, %j + {b}] : {y}",
        "    }",
        "  }",
        "  func.return",
        "}",
    ]
    return "\n".join(lines)


@given(stencils())
@SETTINGS
def test_stencils_compute_the_same_bits_after_schedule(text: str) -> None:
    for pipeline in ("layout-schedule,layout-lower", "layout-schedule{target=sse},layout-lower"):
        report = heterolayout.check(text, pipeline=pipeline, seed=1)
        assert report.equal, f"{report}\n{text}"


# ---- layout queries ---------------------------------------------------------------------------
TAGS = [
    "NCHW->nChw16c",
    "NCHW->nChw8c",
    "NCHW->nhwc",
    "OIHW->OIhw16i16o",
    "OIHW->HWIO",
    "NCHW->NCHW4c2h",
]


@given(
    st.sampled_from(TAGS),
    st.tuples(st.integers(1, 3), st.integers(1, 40), st.integers(1, 5), st.integers(1, 5)),
)
@SETTINGS
def test_contiguous_run_is_the_longest_aligned_unit_stride_run(tag: str, shape) -> None:
    layout = parse_layout(tag, shape)
    offsets = layout.offsets()
    for dim in range(4):
        run = layout.contiguous_run(dim)
        assert _aligned_runs(offsets, dim, run), (tag, shape, dim, run)
        longer = range(run + 1, shape[dim] + 1)
        assert not any(_aligned_runs(offsets, dim, n) for n in longer), (tag, shape, dim, run)


def _aligned_runs(offsets: np.ndarray, dim: int, length: int) -> bool:
    """Every run of `length` along `dim` starting at a multiple of it (the last one cut at
    the extent) steps through consecutive offsets."""
    extent = offsets.shape[dim]
    for start in range(0, extent, length):
        block = np.take(offsets, range(start, min(start + length, extent)), axis=dim)
        steps = np.diff(block, axis=dim)
        if steps.size and not (steps == 1).all():
            return False
    return True


@given(
    st.sampled_from(TAGS),
    st.tuples(st.integers(1, 2), st.integers(1, 40), st.integers(1, 4), st.integers(1, 4)),
)
@SETTINGS
def test_dim_digits_rebuild_every_logical_index(tag: str, shape) -> None:
    layout = parse_layout(tag, shape)
    for index in itertools.product(*(range(e) for e in shape)):
        physical = layout.physical_index(index)
        for dim in range(4):
            digits = layout.dim_digits(dim)
            assert digits is not None
            assert sum(physical[position] * weight for position, weight in digits) == index[dim]


# ---- engines ----------------------------------------------------------------------------------
finite_f32 = st.floats(-1e6, 1e6, width=32, allow_subnormal=True)


@given(finite_f32, finite_f32, finite_f32)
@SETTINGS
def test_fma_rounds_the_exact_value_once(a: float, b: float, c: float) -> None:
    result = fma(a, b, c, 32)
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    nearest = np.float32(result)
    assert float(nearest) == result
    neighbours = [
        np.nextafter(nearest, np.float32(np.inf)),
        np.nextafter(nearest, np.float32(-np.inf)),
    ]
    error = abs(Fraction(float(nearest)) - exact)
    assert all(abs(Fraction(float(n)) - exact) >= error for n in neighbours)


def test_fma_differs_from_multiply_then_add() -> None:
    a = b = float(np.float32(1 + 2**-12))
    c = -float(np.float32(1 + 2**-11))
    separate = float(np.float32(np.float32(a * b) + np.float32(c)))
    assert fma(a, b, c, 32) == 2**-24 != separate == 0.0


TRANSFER = """
func.func @main(%m: memref<2x20x3xf32, #layout.tag<"ABC->AbC8b">>, %o: memref<2x20x3xf32>) -> (vector<8xf32>, vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %pad = arith.constant -1.0 : f32
  %a = vector.transfer_read %m[%c1, %c2, %c1], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2) -> (d1)>} : memref<2x20x3xf32, #layout.tag<"ABC->AbC8b">>, vector<8xf32>
  %b = vector.transfer_read %m[%c0, %c16, %c2], %pad {in_bounds = [false], permutation_map = affine_map<(d0, d1, d2) -> (d1)>} : memref<2x20x3xf32, #layout.tag<"ABC->AbC8b">>, vector<8xf32>
  vector.transfer_write %a, %o[%c0, %c16, %c0] {in_bounds = [false], permutation_map = affine_map<(d0, d1, d2) -> (d1)>} : vector<8xf32>, memref<2x20x3xf32>
  func.return %a, %b : vector<8xf32>, vector<8xf32>
}
"""


@pytest.mark.parametrize("engine", ["interp", "compiled"])
def test_transfers_walk_one_logical_dim_with_padding(engine: str) -> None:
    values = np.arange(2 * 20 * 3, dtype=np.float32).reshape(2, 20, 3)
    out = np.zeros((2, 20, 3), dtype=np.float32)
    a, b = heterolayout.run(TRANSFER, "main", [values, out], engine=engine)
    assert a.tolist() == values[1, 2:10, 1].tolist()
    assert b.tolist() == [*values[0, 16:20, 2].tolist(), -1.0, -1.0, -1.0, -1.0]
    expected = np.zeros((2, 20, 3), dtype=np.float32)
    expected[0, 16:20, 0] = values[1, 2:6, 1]
    assert (out == expected).all()


LOWERED_TRANSFERS = """
func.func @f(%m: memref<2x20x3xf32, #layout.tag<"ABC->AbC8b">>, %i: index) -> (vector<8xf32>, vector<8xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %m[%c1, %c8, %c2], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2) -> (d1)>} : memref<2x20x3xf32, #layout.tag<"ABC->AbC8b">>, vector<8xf32>
  %b = vector.transfer_read %m[%c1, %c2, %c2], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2) -> (d1)>} : memref<2x20x3xf32, #layout.tag<"ABC->AbC8b">>, vector<8xf32>
  func.return %a, %b : vector<8xf32>, vector<8xf32>
}
"""


def test_transfer_lowering_keeps_a_contiguous_run_whole_and_splits_the_rest() -> None:
    module = apply_pipeline(parse_program(LOWERED_TRANSFERS, "transfers"), "layout-lower")
    ops = [op.name for op in module.walk()]
    # b = 8 … 15 is one block of 8: one vector load; b = 2 … 9 crosses blocks: 8 loads.
    assert ops.count("vector.load") == 1
    assert ops.count("memref.load") == 8
    assert ops.count("vector.from_elements") == 1
    assert "vector.transfer_read" not in ops
