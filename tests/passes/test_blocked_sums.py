"""Long sums added in blocks (tests/filecheck/passes/layout-schedule/blocked-sums.mlir,
`passes/schedule/blocked_sums.py`), run natively and by the interpreter: on whole numbers
every order gives numpy's exact sums, so a term dropped or added twice shows; on random data
the matmul equals, bit for bit, numpy's emulation of the documented order (blocks of 64
from -0.0, each added to the total), and is closer to the float64 product than the terms
added one by one."""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout import parse_layout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.passes.schedule.blocked_sums import SUM_BLOCK
from tests.paths import REPOSITORY

SOURCE = (REPOSITORY / "tests/filecheck/passes/layout-schedule/blocked-sums.mlir").read_text()
BLOCKED = "layout-schedule{target=avx512 reassociate=true},layout-lower"
EXACT = "layout-schedule{target=avx512},layout-lower"


@pytest.fixture(scope="module")
def lowered() -> dict[str, str]:
    return {
        pipeline: str(apply_pipeline(parse_program(SOURCE), pipeline))
        for pipeline in (BLOCKED, EXACT)
    }


def _whole(shape: tuple[int, ...], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(-8, 9, shape).astype(np.float32)


def _conv(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    _, _, height, width = x.shape
    out = np.zeros((1, w.shape[0], height - 2, width - 2))
    for kh in range(3):
        for kw in range(3):
            window = x[0, :, kh : kh + height - 2, kw : kw + width - 2].astype(np.float64)
            out[0] += np.einsum("kc,chw->khw", w[:, :, kh, kw].astype(np.float64), window)
    return out.astype(np.float32)


@pytest.mark.parametrize("engine", ["native", "interp"])
def test_whole_numbers_sum_exactly(lowered: dict[str, str], engine: str) -> None:
    a, b = _whole((8, 300), 1), _whole((300, 16), 2)
    c = np.zeros((8, 16), np.float32)
    heterolayout.run(lowered[BLOCKED], "matmul", args=(a, b, c), engine=engine)
    np.testing.assert_array_equal(c, a @ b)
    x, w = _whole((1, 32, 6, 10), 3), _whole((16, 32, 3, 3), 4)
    activations = parse_layout("NCHW->nChw16c", (1, 32, 6, 10), dtype="f32")
    weights = parse_layout("OIHW->OIhw16i16o", (16, 32, 3, 3), dtype="f32")
    output = parse_layout("NCHW->nChw16c", (1, 16, 4, 8), dtype="f32")
    y = output.pack(np.zeros((1, 16, 4, 8), np.float32))
    heterolayout.run(
        lowered[BLOCKED], "conv", args=(activations.pack(x), weights.pack(w), y), engine=engine
    )
    np.testing.assert_array_equal(output.unpack(y), _conv(x, w))


def _blocked_order(a: np.ndarray, b: np.ndarray, block: int) -> np.ndarray:
    total = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for start in range(0, a.shape[1], block):
        partial = np.full_like(total, -0.0)
        for k in range(start, min(start + block, a.shape[1])):
            partial = partial + a[:, k : k + 1] * b[k : k + 1, :]
        total = total + partial
    return total


@pytest.mark.parametrize("engine", ["native", "interp"])
def test_the_matmul_adds_in_the_documented_order(lowered: dict[str, str], engine: str) -> None:
    rng = np.random.default_rng(7)
    a = rng.standard_normal((8, 300)).astype(np.float32)
    b = rng.standard_normal((300, 16)).astype(np.float32)
    blocked, exact = np.zeros((8, 16), np.float32), np.zeros((8, 16), np.float32)
    heterolayout.run(lowered[BLOCKED], "matmul", args=(a, b, blocked), engine=engine)
    heterolayout.run(lowered[EXACT], "matmul", args=(a, b, exact), engine=engine)
    np.testing.assert_array_equal(blocked, _blocked_order(a, b, SUM_BLOCK))
    np.testing.assert_array_equal(exact, _blocked_order(a, b, a.shape[1]))
    truth = a.astype(np.float64) @ b.astype(np.float64)
    assert np.abs(blocked - truth).mean() < np.abs(exact - truth).mean()
