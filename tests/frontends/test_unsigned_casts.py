"""Casts from floats to uint8 (`frontends/unsigned_casts.py`): torch-mlir's `fptosi` to `i8`
put 225.0 out of range (the Python engines gave 127); through int32 every engine gives
onnxruntime's values. An unsigned graph value is marked `heterolayout.unsigned` on its
signless memref argument, and its named output comes back unsigned."""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from tests.onnx_models import graph_model, onnxruntime_outputs, require_frontend


@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
@pytest.mark.parametrize("source", ["FLOAT", "DOUBLE"])
def test_a_float_to_uint8_cast_gives_onnxruntimes_bits(engine: str, source: str) -> None:
    require_frontend()
    from onnx import TensorProto, helper

    element = getattr(TensorProto, source)
    model = graph_model(
        [helper.make_node("Cast", ["x"], ["z"], to=TensorProto.UINT8)],
        [helper.make_tensor_value_info("x", element, [8])],
        [helper.make_tensor_value_info("z", TensorProto.UINT8, [8])],
    )
    dtype = np.float32 if source == "FLOAT" else np.float64
    x = np.array([1.7, 225.0, 40000.0, -3.9, 255.9, 0.0, 65535.0, 70000.0], dtype)
    expected = onnxruntime_outputs(model, {"x": x})["z"]
    got = heterolayout.run(heterolayout.import_model(model), {"x": x}, engine=engine)["z"]
    assert got.dtype == np.uint8
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("pipeline", ["", "layout-schedule,layout-lower"])
def test_unsigned_inputs_and_outputs_keep_their_type(pipeline: str) -> None:
    """A uint8 image in, its square out as float and as uint8 (40000 wraps to 64)."""
    require_frontend()
    from onnx import TensorProto, helper

    from heterolayout.dialects.context import parse_program
    from heterolayout.passes.pipeline import apply_pipeline

    model = graph_model(
        [
            helper.make_node("Cast", ["x"], ["f"], to=TensorProto.FLOAT),
            helper.make_node("Mul", ["f", "f"], ["y"]),
            helper.make_node("Cast", ["y"], ["z"], to=TensorProto.UINT8),
        ],
        [helper.make_tensor_value_info("x", TensorProto.UINT8, [4])],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [4]),
            helper.make_tensor_value_info("z", TensorProto.UINT8, [4]),
        ],
    )
    x = np.array([1, 2, 200, 15], np.uint8)
    text = heterolayout.import_model(model)
    assert text.count("heterolayout.unsigned") == 2  # x and z, not y
    program = str(apply_pipeline(parse_program(text), pipeline)) if pipeline else text
    got = heterolayout.run(program, {"x": x}, engine="compiled")
    expected = onnxruntime_outputs(model, {"x": x})
    assert got["z"].dtype == np.uint8 and got["y"].dtype == np.float32
    np.testing.assert_array_equal(got["z"], expected["z"])
    np.testing.assert_array_equal(got["y"], expected["y"])
