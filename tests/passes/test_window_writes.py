"""A producer written straight into the window of a padded buffer
(tests/filecheck/passes/layout-schedule/window-writes.mlir): every function of that file,
scheduled and lowered, run natively and by the interpreter against numpy, whether its copy
went or stayed."""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from tests.paths import REPOSITORY

SOURCE = (REPOSITORY / "tests/filecheck/passes/layout-schedule/window-writes.mlir").read_text()
FUNCTIONS = ["same_layout", "into_a_layout", "plain", "other_layout", "read_after"]


def _padded(x: np.ndarray) -> np.ndarray:
    return np.pad(np.maximum(x, 0), ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-1)


@pytest.fixture(scope="module")
def lowered() -> str:
    return str(apply_pipeline(parse_program(SOURCE), "layout-schedule{target=avx2},layout-lower"))


@pytest.mark.parametrize("engine", ["native", "interp"])
@pytest.mark.parametrize("function", FUNCTIONS)
def test_the_padded_buffer_holds_the_producers_values(
    lowered: str, function: str, engine: str
) -> None:
    x = np.random.default_rng(5).standard_normal((1, 16, 4, 4)).astype(np.float32)
    y = np.zeros((1, 16, 6, 6), np.float32)
    args: tuple[np.ndarray, ...] = (x, y)
    if function == "read_after":
        z = np.zeros((1, 16, 4, 4), np.float32)
        args = (x, y, z)
    heterolayout.run(lowered, function, args=args, engine=engine)
    np.testing.assert_array_equal(y, _padded(x))
    if function == "read_after":
        np.testing.assert_array_equal(z, np.maximum(x, 0))


@pytest.mark.parametrize("engine", ["native", "interp"])
@pytest.mark.parametrize("function", ["padded_read_between", "constant_above"])
def test_a_second_output_holds_the_pad_value(lowered: str, function: str, engine: str) -> None:
    """`padded_read_between` copies the padded buffer out before the copy into it (which
    stays); `constant_above` fills its third argument with the pad value before the
    producer (whose buffer goes, the value's definition staying where it was)."""
    x = np.random.default_rng(6).standard_normal((1, 16, 4, 4)).astype(np.float32)
    y = np.zeros((1, 16, 6, 6), np.float32)
    z = np.zeros((1, 16, 6, 6), np.float32)
    heterolayout.run(lowered, function, args=(x, y, z), engine=engine)
    np.testing.assert_array_equal(y, _padded(x))
    np.testing.assert_array_equal(z, np.full_like(z, -1))
