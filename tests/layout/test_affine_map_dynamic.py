"""`?` dims tiled by builtin `affine_map` layouts, against upstream: each case runs
`mlir-opt-22 --normalize-memrefs` and `layout-opt -p layout-lower` on the same program (an
allocation of run-time sizes, returned) and compares the physical types and the buffers both
allocate at several sizes (both outputs run in the compiled engine); then the lowered programs
run natively against numpy."""

from __future__ import annotations

import random
import re
import subprocess

import numpy as np
import pytest

from heterolayout import check, parse_layout, run
from heterolayout.layout.dynamic import evaluate_extents
from tests.crosscheck_programs import layout_opt

# (map, logical shape): 1-d and 2-d tiles with one or both dims dynamic, offsets and strides
# inside the tile, an untiled dynamic dim beside a tile, nChw16c as a map, upstream's own
# 4-d test map.
CASES = [
    ("(d0) -> (d0 floordiv 4, d0 mod 4)", "?"),
    ("(d0) -> (d0 mod 4, d0 floordiv 4)", "?"),
    ("(d0, d1) -> (d0 floordiv 32, d1 floordiv 64, d0 mod 32, d1 mod 64)", "?x?"),
    ("(d0, d1) -> (d0 floordiv 32, d1 floordiv 64, d0 mod 32, d1 mod 64)", "?x128"),
    ("(d0, d1) -> (d0 floordiv 32, d1 floordiv 64, d0 mod 32, d1 mod 64)", "70x?"),
    ("(d0) -> ((d0 + 3) floordiv 4, (d0 + 3) mod 4)", "?"),
    ("(d0) -> ((d0 * 2) floordiv 4, (d0 * 2) mod 4)", "?"),
    ("(d0, d1) -> (d0 + 2, d1 floordiv 4, d1 mod 4)", "?x10"),
    ("(d0, d1) -> (d1, d0 floordiv 8, d0 mod 8)", "?x?"),
    ("(d0, d1, d2, d3) -> (d0, d1 floordiv 16, d2, d3, d1 mod 16)", "1x?x5x5"),
    (
        "(d0, d1, d2, d3) -> (d0, d1, d2 floordiv 32, d3 floordiv 64, d2 mod 32, d3 mod 64)",
        "1x?x?x14",
    ),
]

SIZES = [1, 5, 8, 33]


def _program(cases: list[tuple[str, str]]) -> str:
    functions = []
    for i, (index_map, shape) in enumerate(cases):
        memref = f"memref<{shape}xf32, affine_map<{index_map}>>"
        sizes = ", ".join(f"%s{d}: index" for d in range(shape.count("?")))
        operands = ", ".join(f"%s{d}" for d in range(shape.count("?")))
        functions.append(
            f"func.func @f{i}({sizes}) -> {memref} {{\n"
            f"  %a = memref.alloc({operands}) : {memref}\n"
            f"  %b = memref.alloca({operands}) : {memref}\n"
            f"  return %a : {memref}\n}}\n"
        )
    return "".join(functions)


def _result_types(text: str) -> dict[str, str]:
    return dict(re.findall(r"func\.func @(\w+)\([^)]*\) -> (memref<[^>]*>)", text))


def _lower_both(mlir_opt: str, module: str) -> tuple[str, str]:
    upstream = subprocess.run(
        [mlir_opt, "--normalize-memrefs", "-"], input=module, capture_output=True, text=True
    )
    assert upstream.returncode == 0, upstream.stderr
    lowered = layout_opt(module, "-p", "layout-lower")
    assert lowered.returncode == 0, lowered.stderr
    accepted = subprocess.run([mlir_opt, "-"], input=lowered.stdout, capture_output=True, text=True)
    assert accepted.returncode == 0, accepted.stderr
    return upstream.stdout, lowered.stdout


def _compare(mlir_opt: str, cases: list[tuple[str, str]], sizes: list[int]) -> None:
    upstream, ours = _lower_both(mlir_opt, _program(cases))
    expected, got = _result_types(upstream), _result_types(ours)
    assert got == expected
    assert ours.count("memref.alloca(") == len(cases)
    for i, (index_map, shape) in enumerate(cases):
        layout = parse_layout(f"affine_map<{index_map}>", _shape(shape))
        for n in sizes:
            args = [n + d for d in range(shape.count("?"))]
            theirs = run(upstream, f"f{i}", args)[0].shape
            mine = run(ours, f"f{i}", args)[0].shape
            assert mine == theirs, (index_map, shape, args)
            logical = iter(args)
            concrete = [next(logical) if e is None else e for e in layout.logical_shape]
            assert mine == evaluate_extents(layout.extents, concrete)


def _shape(text: str) -> list[int | None]:
    return [None if e == "?" else int(e) for e in text.split("x")]


@pytest.mark.slow
def test_tiled_dynamic_dims_sized_as_upstream(mlir_opt: str) -> None:
    _compare(mlir_opt, CASES, SIZES)


def _random_tile_map(rng: random.Random) -> tuple[str, str]:
    """A tiled map as upstream recognizes one: d0, and each other dim or not, split into
    `X floordiv c` and `X mod c` (X the dim, shifted or doubled), results shuffled; at
    least one `?` dim."""
    rank = rng.randint(1, 3)
    results = []
    for dim in range(rank):
        if dim and rng.random() < 0.3:
            results.append(f"d{dim}")
            continue
        # MLIR folds a shift by a multiple of the tile out of the division, and a scale
        # sharing a factor with it into the modulus: no tile pair left for upstream.
        tile = rng.randint(2, 9)
        shift, odd = rng.randint(1, tile - 1), rng.choice([3, 5, 7, 9])
        inner, tile = rng.choice(
            [(f"d{dim}", tile), (f"(d{dim} + {shift})", tile), (f"(d{dim} * 2)", odd)]
        )
        results += [f"{inner} floordiv {tile}", f"{inner} mod {tile}"]
    rng.shuffle(results)
    dims = ", ".join(f"d{i}" for i in range(rank))
    shape = [rng.choice(["?", str(rng.randint(1, 12))]) for _ in range(rank)]
    shape[rng.randrange(rank)] = "?"
    return f"({dims}) -> ({', '.join(results)})", "x".join(shape)


@pytest.mark.slow
def test_random_tiled_maps_sized_as_upstream(mlir_opt: str) -> None:
    rng = random.Random(22)
    cases = []
    while len(cases) < 12:
        index_map, shape = _random_tile_map(rng)
        cases.append((index_map, shape))
    _compare(mlir_opt, cases, [3, 10])


def test_where_upstream_does_not_normalize_or_undersizes(mlir_opt: str) -> None:
    """Upstream leaves a two-level tile alone (no `X floordiv c` / `X mod c` pair) and sizes
    an unpaired `d1 mod 2` result `n mod 2` (0 at even n); heterolayout lowers both with the
    bound each result reaches, which holds every element."""
    cases = [
        ("(d0) -> (d0 floordiv 16, (d0 floordiv 4) mod 4, d0 mod 4)", "?"),
        ("(d0, d1) -> (d0 floordiv 4, d0 mod 4, d1 ceildiv 2, d1 mod 2)", "8x?"),
    ]
    upstream, ours = _lower_both(mlir_opt, _program(cases))
    assert "#map" in _result_types(upstream)["f0"]  # left unnormalized
    assert "affine.apply #map1(%c8, %arg0)" in upstream and "(d0, d1) -> (d1 mod 2)" in upstream
    assert _result_types(ours) == {"f0": "memref<?x?x?xf32>", "f1": "memref<2x4x?x?xf32>"}
    for n in (4, 7):
        assert run(ours, "f0", [n])[0].shape == (-(-n // 16), 4, 4)
        assert run(ours, "f1", [n])[0].shape == (2, 4, n // 2 + 1, 2)


PROGRAM = """
#tile = affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 8, d0 mod 4, d1 mod 8)>
func.func @main(%x: memref<?x?xf32>, %y: memref<?x?xf32, #tile>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?xf32>
  %m = memref.dim %x, %c1 : memref<?x?xf32>
  %t = memref.alloc(%n, %m) : memref<?x?xf32, #tile>
  %z = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %w = memref.load %y[%i, %j] : memref<?x?xf32, #tile>
      %s = arith.mulf %v, %w : f32
      memref.store %s, %t[%i, %j] : memref<?x?xf32, #tile>
    }
  }
  %rows = memref.dim %t, %c0 : memref<?x?xf32, #tile>
  %cols = memref.dim %t, %c1 : memref<?x?xf32, #tile>
  %r = scf.for %i = %c0 to %rows step %c1 iter_args(%acc = %z) -> (f32) {
    %q = scf.for %j = %c0 to %cols step %c1 iter_args(%a = %acc) -> (f32) {
      %v = memref.load %t[%i, %j] : memref<?x?xf32, #tile>
      %b = arith.addf %a, %v : f32
      memref.store %b, %y[%i, %j] : memref<?x?xf32, #tile>
      scf.yield %b : f32
    }
    scf.yield %q : f32
  }
  memref.dealloc %t : memref<?x?xf32, #tile>
  return %r : f32
}
"""


@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
def test_tiled_dynamic_program_checks(engine: str, mlir_opt: str) -> None:
    """`--check` on dynamic tiled arguments (7 elements: partial tiles on both dims)."""
    report = check(PROGRAM, engine=engine, dynamic_extent=7)
    assert report.equal and report.compared == 2 * 49 + 1, report  # x, y, the sum


def test_tiled_dynamic_program_against_numpy(mlir_opt: str) -> None:
    """The lowered program, compiled natively, computes numpy's running sums, and writes the
    tiled argument in the layout (7x9 logical in a 2x2x4x8 buffer, pad slots untouched)."""
    lowered = layout_opt(PROGRAM, "-p", "layout-lower")
    assert lowered.returncode == 0, lowered.stderr
    rng = np.random.default_rng(3)
    x = rng.integers(-4, 5, (7, 9)).astype(np.float32)
    y = rng.integers(-4, 5, (7, 9)).astype(np.float32)
    layout = parse_layout(
        "affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 8, d0 mod 4, d1 mod 8)>", (7, 9)
    )
    physical = layout.pack(y, pad=99)
    (total,) = run(lowered.stdout, "main", [x, physical], engine="native")
    sums = np.cumsum((x * y).ravel()).reshape(7, 9)
    assert total == pytest.approx(float(sums[-1, -1]))
    assert np.array_equal(layout.unpack(physical), sums)
    pads = np.ones(physical.shape, dtype=bool)
    used = np.array([layout.physical_index(i) for i in np.ndindex(7, 9)])
    pads[tuple(used.T)] = False
    assert (physical[pads] == 99).all()
