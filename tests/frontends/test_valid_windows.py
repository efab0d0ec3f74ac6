"""Windows longer than their input under `auto_pad = VALID` (`frontends/valid_windows.py`):
refused in one line naming the node, where iree-opt refused them with a `tensor.cast`
message; a window that fits runs as onnxruntime runs it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import heterolayout
from heterolayout.frontends.errors import FrontendError
from tests.onnx_models import assert_imported_as_onnxruntime, onnxruntime_outputs, require_frontend


def _model(op: str, size: list[int], weights: list[int] | None = None, **attributes: Any) -> Any:
    from onnx import TensorProto, helper, numpy_helper

    inputs, initializers = ["x"], []
    if weights is not None:
        kernel = np.random.default_rng(0).standard_normal(weights).astype(np.float32)
        initializers.append(numpy_helper.from_array(kernel, "w"))
        inputs.append("w")
    graph = helper.make_graph(
        [helper.make_node(op, inputs, ["y"], name="window", auto_pad="VALID", **attributes)],
        "valid",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, *size])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        initializers,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])


def test_a_dilated_max_pool_longer_than_its_input_is_one_line() -> None:
    """Kernel 4, dilation 2 (7 cells) over 5 rows, stride 3: the spec gives 0 rows,
    onnxruntime and ONNX's shape inference 1 (the auto_pad sweep's seed 243)."""
    require_frontend()
    model = _model("MaxPool", [5, 9], kernel_shape=[4, 4], dilations=[2, 2], strides=[3, 2])
    x = np.ones((1, 2, 5, 9), np.float32)
    assert onnxruntime_outputs(model, {"x": x})["y"].shape == (1, 2, 1, 2)
    with pytest.raises(FrontendError) as refused:
        heterolayout.import_model(model)
    assert str(refused.value) == (
        "MaxPool 'window': auto_pad = VALID with a window of 7 cells (kernel 4, dilation 2) "
        "over 5 along spatial dim 0: the spec gives no output there, ONNX's shape "
        "inference 1"
    )


def test_a_conv_reads_its_kernel_off_its_weights() -> None:
    """No kernel_shape: the weights' 1×4 kernel over 3 columns is too long along dim 1."""
    require_frontend()
    model = _model("Conv", [6, 3], weights=[3, 2, 1, 4])
    with pytest.raises(FrontendError) as refused:
        heterolayout.import_model(model)
    assert str(refused.value).startswith(
        "Conv 'window': auto_pad = VALID with a window of 4 cells (kernel 4, dilation 1) "
        "over 3 along spatial dim 1: the spec gives no output there"
    )


@pytest.mark.parametrize(
    ("op", "size", "weights", "attributes"),
    [
        ("MaxPool", [7, 5], None, {"kernel_shape": [4, 3], "dilations": [2, 2]}),
        ("AveragePool", [4, 6], None, {"kernel_shape": [4, 2], "strides": [2, 2]}),
        ("Conv", [5, 5], [3, 2, 3, 3], {"dilations": [2, 1], "strides": [1, 2]}),
    ],
)
def test_a_window_that_fits_runs_as_onnxruntime(
    op: str, size: list[int], weights: list[int] | None, attributes: dict[str, Any]
) -> None:
    """Spans equal to the input (7 of 7, 4 of 4, 5 of 5) give one output, as everyone agrees."""
    require_frontend()
    model = _model(op, size, weights, **attributes)
    x = np.random.default_rng(1).standard_normal((1, 2, *size)).astype(np.float32)
    assert onnxruntime_outputs(model, {"x": x})["y"].shape[2] == 1
    assert_imported_as_onnxruntime(model, {"x": x})
