"""Vectors along a reduction loop (passes/schedule/reductions.py): row sums, maxima and
integer reductions whose rows are contiguous get vectors of partial results, a shorter last
chunk, one `vector.reduction`; results equal numpy's, and the program's own bit for bit
where the combination does not round (min/max, integers) on every engine, upstream
mlir-runner's included; float sums and products only with `reassociate=true`."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from tests.paths import REPOSITORY

ROWS = """
func.func @main(%x: memref<{m}x{n}x{t}>, %y: memref<{m}x{t}>) {{
  affine.for %i = 0 to {m} {{
    affine.for %j = 0 to {n} {{
      %a = affine.load %x[%i, %j] : memref<{m}x{n}x{t}>
      %b = {before}
      %s = affine.load %y[%i] : memref<{m}x{t}>
      %r = {combine} {operands} : {t}
      affine.store %r, %y[%i] : memref<{m}x{t}>
    }}
  }}
  func.return
}}
"""

KINDS = {
    # name: (element, combine, value before it, numpy reduction, numpy of the value)
    "sum of exp": ("f32", "arith.addf", "math.exp %a : f32", np.add, np.exp),
    "sum of squares": ("f32", "arith.addf", "arith.mulf %a, %a : f32", np.add, np.square),
    "product": ("f32", "arith.mulf", "arith.addf %a, %a : f32", np.multiply, lambda v: 2 * v),
    "maximum": ("f32", "arith.maximumf", "arith.addf %a, %a : f32", np.maximum, lambda v: 2 * v),
    "minimum": ("f32", "arith.minimumf", "arith.negf %a : f32", np.minimum, np.negative),
    "integer sum": ("i32", "arith.addi", "arith.muli %a, %a : i32", np.add, np.square),
    "integer maximum": (
        "i32",
        "arith.maxsi",
        "arith.addi %a, %a : i32",
        np.maximum,
        lambda v: 2 * v,
    ),
    "bitwise or": ("i32", "arith.ori", "arith.andi %a, %a : i32", np.bitwise_or, lambda v: v),
}
EXACT = {"maximum", "minimum", "integer sum", "integer maximum", "bitwise or"}
"""The combinations whose result does not depend on the order."""


def program(kind: str, m: int, n: int, accumulator_first: bool = True) -> str:
    element, combine, before, _, _ = KINDS[kind]
    operands = "%s, %b" if accumulator_first else "%b, %s"
    return ROWS.format(m=m, n=n, t=element, before=before, combine=combine, operands=operands)


def data(kind: str, m: int, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    if KINDS[kind][0] == "i32":
        return (
            rng.integers(-1000, 1000, (m, n)).astype(np.int32),
            rng.integers(-1000, 1000, m).astype(np.int32),
        )
    scale = 0.05 if kind == "product" else 1.0
    x = (
        (1 + scale * rng.standard_normal((m, n)))
        if kind == "product"
        else rng.standard_normal((m, n))
    )
    return x.astype(np.float32), rng.standard_normal(m).astype(np.float32)


def expected(kind: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    _, _, _, reduce, value = KINDS[kind]
    wide = x.astype(np.float64) if x.dtype == np.float32 else x.astype(np.int64)
    rows = reduce.reduce(value(wide), axis=1)
    return reduce(y.astype(rows.dtype), rows)


def scheduled(text: str, options: str) -> str:
    return str(apply_pipeline(parse_program(text), f"layout-schedule{{{options}}},layout-lower"))


def run(
    text: str, kind: str, m: int, n: int, engine: str, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    x, y = data(kind, m, n, seed)
    want = expected(kind, x, y)
    heterolayout.run(text, args=(x, y), engine=engine)
    return y, want


def agree(kind: str, got: np.ndarray, want: np.ndarray) -> bool:
    if got.dtype == np.int32:
        return np.array_equal(got, want.astype(np.int32))
    return np.allclose(got, want, rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("engine", ["native", "compiled"])
@pytest.mark.parametrize("n", [3, 8, 9, 100])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_rows_are_reduced_in_vectors_of_partial_results(kind: str, n: int, engine: str) -> None:
    text = scheduled(program(kind, 5, n), "target=avx2 reassociate=true")
    assert "vector.reduction" in text
    length = min(8, n)
    assert f"vector<{length}x" in text
    assert ("vector.shuffle" in text) == bool(n % length)
    got, want = run(text, kind, 5, n, engine)
    assert agree(kind, got, want), (got, want)


@pytest.mark.parametrize("kind", sorted(EXACT))
def test_order_free_combinations_are_vectorized_exactly(kind: str) -> None:
    """Without reassociate: the same bits as the program as written, on every engine."""
    source = program(kind, 4, 37, accumulator_first=False)
    text = scheduled(source, "target=avx512")
    assert "vector<16x" in text and "vector.reduction" in text
    for engine in ("native", "compiled", "interp"):
        report = heterolayout.check(
            source, pipeline="layout-schedule{target=avx512},layout-lower", engine=engine, seed=5
        )
        assert report.equal, str(report)


@pytest.mark.parametrize("kind", ["sum of exp", "product"])
def test_float_sums_and_products_need_reassociate(kind: str) -> None:
    text = scheduled(program(kind, 4, 37), "target=avx2")
    assert "vector.reduction" not in text
    report = heterolayout.check(
        program(kind, 4, 37), pipeline="layout-schedule{target=avx2},layout-lower", seed=5
    )
    assert report.equal, str(report)


@settings(max_examples=25, deadline=None)
@given(
    kind=st.sampled_from(sorted(KINDS)),
    m=st.integers(1, 4),
    n=st.integers(1, 40),
    target=st.sampled_from(["avx2", "avx512", "sse"]),
    accumulator_first=st.booleans(),
    seed=st.integers(0, 1000),
)
def test_any_row_length_and_target_gives_the_row_reduction(
    kind: str, m: int, n: int, target: str, accumulator_first: bool, seed: int
) -> None:
    text = scheduled(program(kind, m, n, accumulator_first), f"target={target} reassociate=true")
    got, want = run(text, kind, m, n, "compiled", seed)
    assert agree(kind, got, want), (got, want)


ARG_MAX = """
func.func @main(%x: memref<4x19xf32>, %y: memref<4xf32>, %k: memref<4xindex>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 19 {
      %a = affine.load %x[%i, %j] : memref<4x19xf32>
      %s = affine.load %y[%i] : memref<4xf32>
      %t = arith.maximumf %a, %s : f32
      affine.store %t, %y[%i] : memref<4xf32>
      %b = arith.cmpf ogt, %a, %s : f32
      %old = affine.load %k[%i] : memref<4xindex>
      %n = arith.select %b, %j, %old : index
      affine.store %n, %k[%i] : memref<4xindex>
    }
  }
  func.return
}
"""


@pytest.mark.parametrize("engine", ["native", "compiled", "interp"])
def test_an_index_chosen_by_data_is_kept_as_data(engine: str) -> None:
    """An arg max's `select %c, %j, %old : index` is no index arithmetic: the scheduled
    nest carries it as an accumulator (it was left pointing at the old loop's counter)."""
    report = heterolayout.check(
        ARG_MAX, pipeline="layout-schedule{target=avx2},layout-lower", engine=engine, seed=3
    )
    assert report.equal and report.compared > 0, str(report)


def function(name: str) -> str:
    """One function of the lit test, as @main."""
    text = (REPOSITORY / "tests/filecheck/passes/layout-schedule/reductions.mlir").read_text()
    start = text.index(f"\nfunc.func @{name}(") + 1
    end = text.index("\n}\n", start) + 3
    return text[start:end].replace(f"@{name}(", "@main(")


@pytest.mark.parametrize("engine", ["native", "compiled", "interp"])
def test_an_unread_index_buffer_is_dropped_and_the_maximum_is_unchanged(engine: str) -> None:
    source = function("unread_index")
    pipeline = "layout-schedule{target=avx2},layout-lower"
    assert "vector.reduction <maximumf>" in str(apply_pipeline(parse_program(source), pipeline))
    report = heterolayout.check(source, pipeline=pipeline, engine=engine, seed=4)
    assert report.equal and report.compared > 0, str(report)


@pytest.mark.parametrize("engine", ["native", "compiled"])
def test_element_wise_code_fused_into_a_reduction_is_vectorized_with_it(engine: str) -> None:
    text = scheduled(function("variance"), "target=avx2 reassociate=true")
    assert "vector.reduction <add>" in text and "affine.vector_store" in text
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 32)).astype(np.float32)
    m = x.mean(axis=1).astype(np.float32)
    d = np.zeros_like(x)
    v = rng.standard_normal(4).astype(np.float32)
    want = v + ((x - m[:, None]) ** 2).sum(axis=1)
    heterolayout.run(text, args=(x, m, d, v), engine=engine)
    assert np.array_equal(d, x - m[:, None])
    assert np.allclose(v, want, rtol=1e-5, atol=1e-5)


LAID_OUT = """
func.func @main(%x: memref<6x{n}xf32>, %y: memref<6xf32>) {{
  layout.assign %x to #layout.tag<"{tag}"> : memref<6x{n}xf32>
  affine.for %i = 0 to 6 {{
    affine.for %j = 0 to {n} {{
      %a = affine.load %x[%i, %j] : memref<6x{n}xf32>
      %s = affine.load %y[%i] : memref<6xf32>
      %t = arith.maximumf %s, %a : f32
      affine.store %t, %y[%i] : memref<6xf32>
    }}
  }}
  func.return
}}
"""


@pytest.mark.parametrize("target", ["avx2", "avx512"])
@pytest.mark.parametrize("n", [37, 40])
@pytest.mark.parametrize("tag", ["KN->Nk16n", "KN->Kn8n"])
def test_rows_blocked_along_the_reduction_are_reduced_in_their_blocks(
    tag: str, n: int, target: str
) -> None:
    """Rows stored in blocks of 16 or 8 (the last one short): vectors within a block."""
    source = LAID_OUT.format(tag=tag, n=n)
    pipeline = f"layout-schedule{{target={target}}},layout-lower"
    assert "vector.reduction" in str(apply_pipeline(parse_program(source), pipeline))
    for engine in ("native", "compiled"):
        report = heterolayout.check(source, pipeline=pipeline, engine=engine, seed=1)
        assert report.equal and report.compared > 0, str(report)


DEAD_LOAD = """
func.func @main(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  %k = memref.alloca() : memref<4x8xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %a = affine.load %x[%i, %j] : memref<4x8xf32>
      %unused = affine.load %k[%i, %j] : memref<4x8xf32>
      %b = arith.addf %a, %a : f32
      affine.store %b, %y[%i, %j] : memref<4x8xf32>
      affine.store %a, %k[%i, %j] : memref<4x8xf32>
    }
  }
  func.return
}
"""


@pytest.mark.parametrize("engine", ["native", "interp"])
def test_an_unread_buffer_with_a_load_nothing_uses_is_dropped(engine: str) -> None:
    """A load whose value nothing uses goes with the buffer (it was reached from no store,
    and the buffer's erasure failed: fuzz seed 570226, after fusion forwarded its reader)."""
    lowered = str(apply_pipeline(parse_program(DEAD_LOAD), "layout-schedule{target=avx2}"))
    assert "memref.alloca" not in lowered
    report = heterolayout.check(
        DEAD_LOAD, pipeline="layout-schedule{target=avx2},layout-lower", engine=engine, seed=1
    )
    assert report.equal and report.compared > 0, str(report)
