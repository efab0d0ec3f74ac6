"""Reciprocal (`frontends/reciprocals.py`): torch-mlir asserted that no element is zero (the
Python engines refused, a compiled program aborted); as a Div of one, zeros give onnxruntime's
infinities."""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from tests.onnx_models import graph_model, onnxruntime_outputs, require_frontend


@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
@pytest.mark.parametrize("source", ["FLOAT", "DOUBLE"])
def test_reciprocals_of_zeros_are_infinities(engine: str, source: str) -> None:
    require_frontend()
    from onnx import TensorProto, helper

    element = getattr(TensorProto, source)
    model = graph_model(
        [helper.make_node("Reciprocal", ["x"], ["y"], name="inverse")],
        [helper.make_tensor_value_info("x", element, [5])],
        [helper.make_tensor_value_info("y", element, [5])],
    )
    x = np.array([-0.0, 0.0, 4.0, 0.5, -3.0], np.float32 if source == "FLOAT" else np.float64)
    expected = onnxruntime_outputs(model, {"x": x})["y"]
    got = heterolayout.run(heterolayout.import_model(model), {"x": x}, engine=engine)["y"]
    np.testing.assert_array_equal(got, expected)
    assert np.isneginf(got[0]) and np.isposinf(got[1])
