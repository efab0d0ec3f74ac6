"""Views whose offset is known only at run time, scheduled: their type's strides decide
contiguity (tests/filecheck/passes/layout-schedule/strided-views.mlir); both functions of
that file, run natively and by the interpreter, against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from tests.paths import REPOSITORY

SOURCE = (REPOSITORY / "tests/filecheck/passes/layout-schedule/strided-views.mlir").read_text()


@pytest.mark.parametrize("engine", ["native", "interp"])
@pytest.mark.parametrize(("function", "step"), [("every_other", 2), ("unit_stride", 1)])
def test_a_view_with_a_run_time_offset_reads_its_own_elements(
    function: str, step: int, engine: str
) -> None:
    lowered = apply_pipeline(parse_program(SOURCE), "layout-schedule{target=avx2},layout-lower")
    x = np.arange(128, dtype=np.float32).reshape(8, 16)
    y = np.zeros((8, 8), np.float32)
    offset = 1
    heterolayout.run(str(lowered), function, args=(x, y, offset), engine=engine)
    expected = 2 * x[:, offset : offset + step * 8 : step]
    np.testing.assert_array_equal(y, expected)
