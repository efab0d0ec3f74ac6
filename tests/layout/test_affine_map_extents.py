"""Builtin `affine_map` layouts get the physical types upstream `--normalize-memrefs` gives
them: each case runs `mlir-opt-22 --normalize-memrefs` and `layout-opt -p layout-lower` on
the same input and compares the physical memref types (and `normalized_extents` directly on
seeded random quasi-affine maps)."""

from __future__ import annotations

import contextlib
import io
import random
import re
import subprocess

import pytest

from heterolayout.layout.errors import LayoutError
from heterolayout.layout.maps import parse_affine_map
from heterolayout.layout.normalize import normalized_extents
from tests.crosscheck_programs import layout_opt

# (map, logical shape): tilings, mod results smaller than their modulus, shifted and scaled
# results, ceildiv, nested tiles, transposes, unused symbols.
CASES = [
    ("(d0) -> (d0 floordiv 4, d0 mod 4)", "3"),
    ("(d0) -> (d0 floordiv 4, d0 mod 4)", "6"),
    ("(d0) -> (d0 mod 4, d0 floordiv 4)", "3"),
    ("(d0) -> (d0 floordiv 4, (d0 mod 4) floordiv 2, d0 mod 2)", "3"),
    ("(d0) -> (d0 floordiv 8, d0 mod 8)", "17"),
    ("(d0) -> (d0 * 2 + 1)", "3"),
    ("(d0) -> ((d0 + 2) floordiv 8, (d0 + 2) mod 8)", "5"),
    ("(d0) -> (d0 ceildiv 4, d0 mod 4)", "6"),
    ("(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)", "10x16"),
    ("(d0, d1) -> (d0 floordiv 2, d1 floordiv 4, d0 mod 2, d1 mod 4)", "3x5"),
    ("(d0, d1) -> (d1, d0)", "3x7"),
    ("(d0, d1) -> (d1 floordiv 32, d0, d1 mod 32)", "5x40"),
    ("(d0, d1, d2, d3) -> (d0, d1 floordiv 16, d2, d3, d1 mod 16)", "2x17x5x4"),
    ("(d0, d1, d2, d3) -> (d0, d1 floordiv 8, d2, d3, d1 mod 8)", "1x12x3x3"),
    ("(d0, d1) -> (d0 * 5 + d1)", "3x5"),
    ("(d0, d1) -> (d0 * 8 + d1 + 3)", "3x5"),
    ("(d0)[s0] -> (d0 floordiv 4, d0 mod 4)", "7"),
]


def _function(name: str, index_map: str, shape: str) -> str:
    memref = f"memref<{shape}xf32, affine_map<{index_map}>>"
    zeros = ", ".join("0" for _ in shape.split("x"))
    # Upstream crashes on a function argument whose map has symbols: allocations only.
    argument, symbols = (f"%a: {memref}, ", "") if "[s0]" not in index_map else ("", "[%n]")
    source = "%a" if argument else "%b"
    return (
        f"func.func @{name}({argument}%n: index) -> f32 {{\n"
        f"  %b = memref.alloc(){symbols} : {memref}\n"
        f"  %v = affine.load {source}[{zeros}] : {memref}\n"
        f"  affine.store %v, %b[{zeros}] : {memref}\n"
        f"  memref.dealloc %b : {memref}\n"
        f"  return %v : f32\n}}\n"
    )


def _physical_types(text: str) -> dict[str, list[str]]:
    """Per function: the memref types of its signature and of its allocation."""
    found = {}
    for match in re.finditer(
        r"func\.func @(\w+)\(([^)]*)\).*?memref\.alloc\(\) : ([^\n]*)", text, re.S
    ):
        found[match.group(1)] = re.findall(r"memref<[^>]*>", match.group(2) + match.group(3))
    return found


def test_lowered_types_equal_upstream_normalize_memrefs(mlir_opt: str) -> None:
    module = "".join(_function(f"f{i}", m, s) for i, (m, s) in enumerate(CASES))
    upstream = subprocess.run(
        [mlir_opt, "--normalize-memrefs", "-"], input=module, capture_output=True, text=True
    )
    assert upstream.returncode == 0, upstream.stderr
    lowered = layout_opt(module, "-p", "layout-lower")
    assert lowered.returncode == 0, lowered.stderr
    ours = lowered.stdout
    expected, got = _physical_types(upstream.stdout), _physical_types(ours)
    assert len(expected) == len(CASES)
    assert got == expected
    # And upstream reads what we print (the alloc's unused symbol operand is gone).
    check = subprocess.run([mlir_opt, "-"], input=ours, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_mod_result_has_its_modulus_as_extent() -> None:
    tiled = parse_affine_map("affine_map<(d0) -> (d0 floordiv 4, d0 mod 4)>")
    assert normalized_extents(tiled, (3,)) == (1, 4)
    assert normalized_extents(tiled, (None,)) == (None, None)


def _random_expr(rng: random.Random, dims: int) -> str:
    dim = f"d{rng.randrange(dims)}"
    term = rng.choice(
        [
            dim,
            f"{dim} * {rng.randint(2, 5)}",
            f"{dim} + d{rng.randrange(dims)} * {rng.randint(1, 3)}",
            f"{dim} + {rng.randint(1, 9)}",
        ]
    )
    divisor = rng.randint(2, 8)
    shaped = rng.choice(
        [
            term,
            f"({term}) floordiv {divisor}",
            f"({term}) ceildiv {divisor}",
            f"({term}) mod {divisor}",
            f"(({term}) mod {divisor}) floordiv {rng.randint(2, 3)}",
            f"({term}) floordiv {divisor} + ({term}) mod {divisor}",
            f"(({term}) mod {divisor}) * {rng.randint(2, 4)} + {rng.randint(0, 3)}",
        ]
    )
    return shaped


def test_random_maps_sized_as_upstream(mlir_opt: str) -> None:
    rng = random.Random(13)
    cases = []
    for _ in range(60):
        rank = rng.randint(1, 3)
        results = ", ".join(_random_expr(rng, rank) for _ in range(rng.randint(1, 3)))
        dims = ", ".join(f"d{i}" for i in range(rank))
        shape = "x".join(str(rng.randint(1, 13)) for _ in range(rank))
        cases.append((f"({dims}) -> ({results})", shape))
    module = "".join(
        f"func.func @f{i}(%a: memref<{s}xf32, affine_map<{m}>>) {{\n  return\n}}\n"
        for i, (m, s) in enumerate(cases)
    )
    upstream = subprocess.run(
        [mlir_opt, "--normalize-memrefs", "-"], input=module, capture_output=True, text=True
    )
    assert upstream.returncode == 0, upstream.stderr
    normalized = dict(re.findall(r"func\.func @(\w+)\(%arg0: memref<([^>]*)>", upstream.stdout))
    for i, (text, shape) in enumerate(cases):
        upstream_type = normalized[f"f{i}"]
        extents = normalized_extents(
            parse_affine_map(f"affine_map<{text}>"), tuple(int(e) for e in shape.split("x"))
        )
        ours = "x".join(str(e) for e in extents) + "xf32"
        if "#map" in upstream_type:
            pytest.fail(f"upstream did not normalize {text} on {shape}")
        assert ours == upstream_type.rstrip(), (text, shape)


# ---- one model: every consumer of a builtin map sizes it as upstream does -----------------------
ISSUE_EXAMPLES = [
    ("(d0, d1, d2) -> (d0 mod 5, -d2 + 8, d1 * 4 + d0 floordiv 5)", (2, 8, 9), (5, 9, 29)),
    ("(d0, d1, d2, d3) -> (d0, d1, d2 mod 4, d3)", (4, 3, 3, 5), (4, 3, 4, 5)),
]


def _allocating(name: str, index_map: str, shape: tuple[int, ...]) -> str:
    memref = f"memref<{'x'.join(map(str, shape))}xf64, affine_map<{index_map}>>"
    zeros = ", ".join("0" for _ in shape)
    return (
        f"func.func @{name}(%a: {memref}) -> f64 {{\n"
        f"  %b = memref.alloc() : {memref}\n"
        f"  %v = affine.load %a[{zeros}] : {memref}\n"
        f"  affine.store %v, %b[{zeros}] : {memref}\n"
        f"  %w = affine.load %b[{zeros}] : {memref}\n"
        f"  memref.dealloc %b : {memref}\n"
        f"  return %w : f64\n}}\n"
    )


def _allocated_shapes(text: str) -> dict[str, tuple[int, ...]]:
    """Per function: the shape of its allocation, which must also be its argument's."""
    found = {}
    for name, argument, allocated in re.findall(
        r"func\.func @(\w+)\(%\w+: memref<([0-9x]+)xf64>\).*?memref\.alloc\(\) : memref<([0-9x]+)xf64>",
        text,
        re.S,
    ):
        assert argument == allocated, name
        found[name] = tuple(int(e) for e in allocated.split("x"))
    return found


def _model_shape(index_map: str, shape: tuple[int, ...]) -> tuple[int | None, ...] | None:
    """`layout_of`'s physical shape (None: an identity map, no layout)."""
    from xdsl.dialects.builtin import AffineMapAttr, Float64Type, MemRefType

    from heterolayout.dialects import layout_of

    parsed = AffineMapAttr(parse_affine_map(f"affine_map<{index_map}>"))
    layout = layout_of(MemRefType(Float64Type(), shape, parsed))
    return None if layout is None else layout.physical_shape


def _agree_with_upstream(mlir_opt: str, cases: list[tuple[str, tuple[int, ...]]]) -> int:
    """layout_of's physical shape, layout-lower's allocation and upstream's are one; the
    number of cases compared."""
    module = "".join(_allocating(f"f{i}", m, s) for i, (m, s) in enumerate(cases))
    upstream = subprocess.run(
        [mlir_opt, "--normalize-memrefs", "-"], input=module, capture_output=True, text=True
    )
    assert upstream.returncode == 0, upstream.stderr
    lowered = layout_opt(module, "-p", "layout-lower")
    assert lowered.returncode == 0, lowered.stderr
    expected, got = _allocated_shapes(upstream.stdout), _allocated_shapes(lowered.stdout)
    assert len(expected) == len(cases), "upstream left a map unnormalized"
    assert got == expected
    for i, (index_map, shape) in enumerate(cases):
        assert _model_shape(index_map, shape) == expected[f"f{i}"], (index_map, shape)
    return len(cases)


@pytest.mark.parametrize(("index_map", "shape", "physical"), ISSUE_EXAMPLES)
def test_every_consumer_sizes_a_mod_shorter_than_its_modulus_as_upstream(
    mlir_opt: str, index_map: str, shape: tuple[int, ...], physical: tuple[int, ...]
) -> None:
    """`d0 mod 5` on 2 elements has extent 5 everywhere: the model (`layout_of`,
    `parse_layout`, `pack`, `layout-explain`), the lowering, the engines' buffers and
    upstream `--normalize-memrefs`."""
    import numpy as np

    from heterolayout.execution.runtime.memref import LayoutMemRef
    from heterolayout.layout import element_type, parse_layout
    from heterolayout.tools.explain import main as explain

    assert _agree_with_upstream(mlir_opt, [(index_map, shape)]) == 1
    assert _model_shape(index_map, shape) == physical
    layout = parse_layout(f"affine_map<{index_map}>", shape)
    assert layout.physical_shape == physical
    logical = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    packed = layout.pack(logical)
    assert packed.shape == physical
    np.testing.assert_array_equal(layout.unpack(packed), logical)
    assert LayoutMemRef.allocate(layout, element_type("f64")).buffer.shape == physical
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        explain(["--shape", "x".join(map(str, shape)), f"affine_map<{index_map}>"])
    assert f"physical shape: {'x'.join(map(str, physical))}\n" in out.getvalue()


def test_random_builtin_maps_are_one_shape_for_model_lowering_and_upstream(mlir_opt: str) -> None:
    """Seeded random quasi-affine maps (those that are injective, which a layout must be):
    `layout_of`, `layout-lower` and upstream allocate one physical shape."""
    rng = random.Random(26)
    cases: list[tuple[str, tuple[int, ...]]] = []
    while len(cases) < 40:
        rank = rng.randint(1, 3)
        results = ", ".join(_random_expr(rng, rank) for _ in range(rng.randint(1, 3)))
        dims = ", ".join(f"d{i}" for i in range(rank))
        shape = tuple(rng.randint(1, 9) for _ in range(rank))
        text = f"({dims}) -> ({results})"
        try:
            if _model_shape(text, shape) is None:  # the identity
                continue
        except LayoutError:  # not injective on the shape: no layout
            continue
        cases.append((text, shape))
    assert _agree_with_upstream(mlir_opt, cases) == 40
