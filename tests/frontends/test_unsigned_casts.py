"""Casts from floats to uint8 (`frontends/unsigned_casts.py`): torch-mlir's `fptosi` to `i8`
put 225.0 out of range (the Python engines gave 127); through int32 every engine gives
onnxruntime's bits. The outputs come back as the signless memref's int8."""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from tests.onnx_models import onnxruntime_outputs, require_frontend


@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
@pytest.mark.parametrize("source", ["FLOAT", "DOUBLE"])
def test_a_float_to_uint8_cast_gives_onnxruntimes_bits(engine: str, source: str) -> None:
    require_frontend()
    from onnx import TensorProto, helper

    element = getattr(TensorProto, source)
    graph = helper.make_graph(
        [helper.make_node("Cast", ["x"], ["z"], to=TensorProto.UINT8)],
        "cast",
        [helper.make_tensor_value_info("x", element, [8])],
        [helper.make_tensor_value_info("z", TensorProto.UINT8, [8])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    dtype = np.float32 if source == "FLOAT" else np.float64
    x = np.array([1.7, 225.0, 40000.0, -3.9, 255.9, 0.0, 65535.0, 70000.0], dtype)
    expected = onnxruntime_outputs(model, {"x": x})["z"]
    got = heterolayout.run(heterolayout.import_model(model), {"x": x}, engine=engine)["z"]
    np.testing.assert_array_equal(got.view(np.uint8), expected)
