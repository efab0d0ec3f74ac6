"""Max and Min of floats (`frontends/nan_extrema.py`): torch-mlir's `cmpf` + `select` took
the second operand where the first was NaN (Max(NaN, 1) imported as 1); rewritten, a NaN in
any input gives NaN, as onnxruntime's, with several inputs and broadcasting too; integer Max
and Min are unchanged."""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from tests.onnx_models import graph_model, onnxruntime_outputs, require_frontend

NAN = np.nan


def _model(op: str, element: str, shapes: list[list[int]], out: list[int]) -> object:
    require_frontend()
    from onnx import TensorProto, helper

    kind = getattr(TensorProto, element)
    names = [f"x{i}" for i in range(len(shapes))]
    return graph_model(
        [helper.make_node(op, names, ["y"], name="extremum")],
        [helper.make_tensor_value_info(n, kind, s) for n, s in zip(names, shapes, strict=True)],
        [helper.make_tensor_value_info("y", kind, out)],
    )


def _run(model: object, inputs: dict[str, np.ndarray], engine: str) -> np.ndarray:
    expected = onnxruntime_outputs(model, inputs)["y"]
    got = heterolayout.run(heterolayout.import_model(model), inputs, engine=engine)["y"]
    np.testing.assert_array_equal(got, expected)
    return got


@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
@pytest.mark.parametrize("op", ["Max", "Min"])
def test_a_nan_on_either_side_gives_nan(op: str, engine: str) -> None:
    x = np.array([NAN, 1.0, -1.0, NAN, 0.5], np.float32)
    y = np.array([1.0, NAN, 2.0, NAN, -0.5], np.float32)
    got = _run(_model(op, "FLOAT", [[5], [5]], [5]), {"x0": x, "x1": y}, engine)
    assert np.isnan(got[:2]).all() and np.isnan(got[3])
    assert got[2] == (2.0 if op == "Max" else -1.0)


@pytest.mark.parametrize("op", ["Max", "Min"])
def test_three_inputs_broadcast_and_doubles(op: str) -> None:
    x = np.array([[NAN, 1.0, 3.0, -2.0], [0.0, 5.0, -1.0, 4.0]])
    y = np.array([2.0])
    z = np.array([1.0, NAN, -3.0, 0.5])
    model = _model(op, "DOUBLE", [[2, 4], [1], [4]], [2, 4])
    got = _run(model, {"x0": x, "x1": y, "x2": z}, "compiled")
    assert np.isnan(got[:, 1]).all() and np.isnan(got[0, 0])


@pytest.mark.parametrize("op", ["Max", "Min"])
def test_integers_are_unchanged(op: str) -> None:
    x = np.array([3, -7, 0, 2147483647], np.int32)
    y = np.array([-3, 7, 0, -2147483648], np.int32)
    _run(_model(op, "INT32", [[4], [4]], [4]), {"x0": x, "x1": y}, "compiled")
