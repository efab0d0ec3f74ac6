"""Checks in scheduled nests (tests/filecheck/passes/layout-schedule/checks.mlir): the
vectorized `cf.assert` passes where every element passes, natively and in both Python
engines, and fails with the program's message where one element does not."""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.execution.errors import ExecutionError
from heterolayout.passes.pipeline import apply_pipeline
from tests.paths import REPOSITORY

SOURCE = (REPOSITORY / "tests/filecheck/passes/layout-schedule/checks.mlir").read_text()


@pytest.fixture(scope="module")
def lowered() -> str:
    return str(apply_pipeline(parse_program(SOURCE), "layout-schedule{target=avx2},layout-lower"))


@pytest.mark.parametrize("engine", ["native", "interp", "compiled"])
def test_a_checked_reciprocal_runs_vectorized(lowered: str, engine: str) -> None:
    x = np.random.default_rng(1).uniform(0.5, 2, (1, 16, 3, 3)).astype(np.float32)
    y = np.zeros_like(x)
    heterolayout.run(lowered, "reciprocal", args=(x, y), engine=engine)
    np.testing.assert_array_equal(y, np.float32(1) / x)


@pytest.mark.parametrize("engine", ["interp", "compiled"])
@pytest.mark.parametrize("lane", [0, 5, 13])
def test_one_zero_in_a_vector_fails_the_check(lowered: str, engine: str, lane: int) -> None:
    x = np.random.default_rng(2).uniform(0.5, 2, (1, 16, 3, 3)).astype(np.float32)
    x[0, lane, 1, 2] = 0
    with pytest.raises(ExecutionError, match="unimplemented: tensor with zero element"):
        heterolayout.run(lowered, "reciprocal", args=(x, np.zeros_like(x)), engine=engine)


@pytest.mark.parametrize("engine", ["native", "interp"])
@pytest.mark.parametrize("function", ["same_message", "other_messages"])
def test_fused_or_apart_the_checked_nests_compute_the_same(
    lowered: str, function: str, engine: str
) -> None:
    x = np.random.default_rng(3).uniform(0.5, 2, 16).astype(np.float32)
    y = np.zeros_like(x)
    heterolayout.run(lowered, function, args=(x, y), engine=engine)
    first = np.float32(1) / x
    expected = np.float32(1) / first if function == "same_message" else np.sqrt(first)
    np.testing.assert_array_equal(y, expected)
