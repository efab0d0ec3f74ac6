"""`layout-schedule{approximate=true}` (passes/schedule/approximation.py): f32 `math.exp`,
`math.erf`, `math.tanh` and `math.log` as polynomials, vectorized with their nest, against
libm (Python's `math`, in double) over their whole range and at their special values, on the
native engine and the Python one; without the option (and without `reassociate=true`, which
implies it), and in nests the pass leaves alone, they stay libm calls."""

from __future__ import annotations

import math

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline

PROGRAM = """
func.func @main(%x: memref<{n}xf32>, %y: memref<{n}xf32>) {{
  affine.for %i = 0 to {n} {{
    %a = affine.load %x[%i] : memref<{n}xf32>
    %b = math.{name} %a : f32
    affine.store %b, %y[%i] : memref<{n}xf32>
  }}
  func.return
}}
"""

ULP_ONE = 2.0**-23


SPECIAL = [math.inf, -math.inf, math.nan]


def inputs(name: str, n: int) -> np.ndarray:
    if name == "exp":
        edges = [-1e30, -100.0, -87.4, -87.3, 0.0, -0.0, 1e-30, 88.3, 88.5, 1e30]
        values = np.linspace(-90, 90, n - len(edges))
    elif name == "erf":
        edges = [-1e30, -4.5, -4.0, -1e-30, 0.0, 1e-30, 3.99, 4.0, 6.0, 1e30]
        values = np.linspace(-5, 5, n - len(edges))
    elif name == "tanh":
        edges = [s * v for v in (1e-30, 0.0004, 7.9, 9.0, 1e30) for s in (1, -1)]
        edges += [0.0, -0.0, 5.126039, 5.827876, *SPECIAL]
        values = np.linspace(-10, 10, n - len(edges))
    else:
        edges = [1e-45, 1e-40, 1.1754942e-38, 2.0**-126, 1.0, 1 - 2.0**-24, 1 + 2.0**-23]
        edges += [2.8025229, 2.8045027, 3.4028235e38, 0.0, -0.0, -1e-30, -1.0, *SPECIAL]
        dense = (n - len(edges)) // 2
        values = np.concatenate(
            [np.linspace(0.01, 4, dense), np.geomspace(1e-45, 3e38, n - len(edges) - dense)]
        )
    return np.concatenate([values, edges]).astype(np.float32)


def expected(name: str, x: np.ndarray) -> np.ndarray:
    if name == "exp":
        with np.errstate(over="ignore"):
            return np.exp(x.astype(np.float64))
    if name == "log":
        return np.array([math.log(float(v)) if np.isfinite(v) and v > 0 else np.nan for v in x])
    function = getattr(math, name)
    return np.array([function(float(v)) for v in x])


def check(name: str, y: np.ndarray, x: np.ndarray) -> None:
    """tanh and log: their largest errors over every positive f32, fused or not (4.10e-7
    absolute at 5.827876; 8.16e-8 relative at 2.8025229, fused), rounded up; the inputs
    hold where they occur."""
    reference = expected(name, x)
    if name == "exp":
        normal = (x >= -87.3) & (x <= 88.3)
        relative = np.abs(y[normal] - reference[normal]) / reference[normal]
        assert relative.max() <= 1.5 * 2.0**-24, relative.max()
        assert np.all(y[x < -87.34] == 0.0)
        assert np.all(np.isfinite(y)) and np.all(y[x > 88.4] > 1e38)
    elif name == "erf":
        assert np.abs(y - reference).max() <= 4.3e-7, np.abs(y - reference).max()
        assert np.all(np.abs(y[np.abs(x) >= 4.0]) <= 1.0)
    elif name == "tanh":
        finite = np.isfinite(x)
        error = np.abs(y[finite] - reference[finite])
        assert error.max() <= 4.2e-7, error.max()
        assert np.all(np.abs(y[finite]) <= 1.0)
        assert np.array_equal(y[np.abs(x) < 0.0004], x[np.abs(x) < 0.0004])
        assert np.array_equal(np.signbit(y[x == 0]), np.signbit(x[x == 0]))
        assert list(y[np.isinf(x)]) == [1.0, -1.0] and np.isnan(y[np.isnan(x)]).all()
    else:
        positive = np.isfinite(x) & (x > 0) & (x != 1)
        relative = np.abs(y[positive] - reference[positive]) / np.abs(reference[positive])
        assert relative.max() <= 1.4 * 2.0**-24, relative.max()
        assert np.all(y[x == 1] == 0.0) and np.all(y[x == 0] == -np.inf)
        assert np.isnan(y[(x < 0) | np.isnan(x)]).all() and np.all(y[x == np.inf] == np.inf)


@pytest.mark.parametrize("name", ["exp", "erf", "tanh", "log"])
@pytest.mark.parametrize("engine", ["native", "compiled"])
@pytest.mark.parametrize("options", ["approximate=true", "fma=true reassociate=true"])
def test_the_polynomials_are_within_a_few_ulp_of_libm(name: str, engine: str, options: str) -> None:
    """Within the same bounds with the Horner steps fused (`fma=true`, layout-tune
    --fast-math), where tanh's quotient at its clamp is no longer exactly 1."""
    n = 1024 if engine == "native" else 202
    text = PROGRAM.format(n=n, name=name)
    module = apply_pipeline(
        parse_program(text), f"layout-schedule{{target=avx2 {options}}},layout-lower"
    )
    assert f"math.{name}" not in str(module)
    assert "vector<8xf32>" in str(module)
    assert ("vector.fma" in str(module)) == ("fma=true" in options)
    x = inputs(name, n)
    y = np.zeros_like(x)
    heterolayout.run(module, args=(x, y), engine=engine)
    check(name, y, x)


@pytest.mark.parametrize(
    ("options", "approximated"),
    [
        ("", False),
        ("fma=true", False),
        ("reassociate=true", True),
        ("reassociate=true approximate=false", False),
        ("approximate=true", True),
        ("approximate=true plain=false", False),  # a nest the pass leaves alone keeps libm
    ],
)
def test_reassociate_implies_approximate_unless_it_is_turned_off(
    options: str, approximated: bool
) -> None:
    text = PROGRAM.format(n=64, name="erf")
    scheduled = str(apply_pipeline(parse_program(text), f"layout-schedule{{{options}}}"))
    assert ("math.erf" not in scheduled) == approximated
