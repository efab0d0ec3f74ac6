"""Models older than opset 17, converted before import (`frontends/opset_upgrade.py`), run as
onnxruntime runs them as written. Each model below was refused before (torch-mlir lowers
these ops from later opsets: "failed to legalize operation 'torch.operator'"; Split with its
sizes as an attribute by mlir-opt with a shape error) or imported wrong (Hardmax over one
axis where opset 11 flattens, Upsample's linear mode)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import heterolayout
from heterolayout.frontends.errors import FrontendError
from heterolayout.frontends.graph_edits import default_opset
from heterolayout.frontends.opset_upgrade import IMPORTED_OPSET, upgraded
from tests.onnx_models import assert_imported_as_onnxruntime, require_frontend

SHAPE = [1, 4, 4, 5]


def _model(
    opset: int, nodes: list[Any], initializers: list[Any] | None = None, typed: bool = False
) -> Any:
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        nodes,
        "old",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, SHAPE)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, SHAPE if typed else None)],
        initializers or [],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7)


def _constant(name: str, values: Any) -> Any:
    from onnx import numpy_helper

    return numpy_helper.from_array(np.asarray(values, np.float32), name)


def _cases() -> dict[str, tuple[int, list[Any], list[Any]]]:
    from onnx import helper

    node = helper.make_node
    return {
        # Before opset 13 Softmax flattens from its axis: one softmax over C·H·W.
        "softmax-coerced-2d": (11, [node("Softmax", ["x"], ["y"], axis=1)], []),
        "softmax-axis-2": (9, [node("Softmax", ["x"], ["y"], axis=2)], []),
        "unsqueeze-squeeze-axes": (
            11,
            [node("Unsqueeze", ["x"], ["u"], axes=[0]), node("Squeeze", ["u"], ["y"], axes=[0])],
            [],
        ),
        "split-sizes": (
            11,
            [
                node("Split", ["x"], ["a", "b"], axis=1, split=[1, 3]),
                node("Add", ["a", "a"], ["twice"]),
                node("Concat", ["b", "twice"], ["y"], axis=1),
            ],
            [],
        ),
        "slice-attributes": (
            9,
            [node("Slice", ["x"], ["y"], starts=[1, 0], ends=[3, 4], axes=[2, 3])],
            [],
        ),
        "batch-normalization": (
            7,
            [node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"])],
            [
                _constant("s", [1, 2, 3, 4]),
                _constant("b", [0, 1, 0, 1]),
                _constant("m", [0.1, 0.2, 0.3, 0.4]),
                _constant("v", [1, 2, 1, 2]),
            ],
        ),
        "dropout": (7, [node("Dropout", ["x"], ["y"], ratio=0.5)], []),
        "resize-10": (
            10,
            [node("Resize", ["x", "s"], ["y"], mode="nearest")],
            [_constant("s", [1, 1, 2, 2])],
        ),
        "reshape-attribute": (4, [node("Reshape", ["x"], ["y"], shape=[1, 16, 5])], []),
        # Before opset 13 Hardmax flattens from its axis too; the converter does not adapt it.
        "hardmax-coerced-2d": (11, [node("Hardmax", ["x"], ["y"], axis=1)], []),
        # Upsample and Resize 10 map coordinates as x / scale (asymmetric); the converter's
        # Resize alone would take half_pixel.
        "upsample-7-linear": (
            7,
            [node("Upsample", ["x"], ["y"], mode="linear", scales=[1.0, 1.0, 1.5, 3.0])],
            [],
        ),
        "upsample-9-linear": (
            9,
            [node("Upsample", ["x", "s"], ["y"], mode="linear")],
            [_constant("s", [1, 1, 2, 2])],
        ),
        "upsample-9-nearest": (
            9,
            [node("Upsample", ["x", "s"], ["y"], mode="nearest")],
            [_constant("s", [1, 1, 2.5, 1.25])],
        ),
        "resize-10-nearest-shrinks": (
            10,
            [node("Resize", ["x", "s"], ["y"], mode="nearest")],
            [_constant("s", [1, 1, 0.5, 0.75])],
        ),
        "resize-10-linear": (
            10,
            [node("Resize", ["x", "s"], ["y"], mode="linear")],
            [_constant("s", [1, 1, 0.6, 1.7])],
        ),
    }


@pytest.mark.parametrize("case", sorted(_cases()))
def test_an_old_model_runs_as_onnxruntime_runs_it(case: str) -> None:
    require_frontend()
    x = np.random.default_rng(0).standard_normal(SHAPE).astype(np.float32)
    assert_imported_as_onnxruntime(_model(*_cases()[case]), {"x": x})


def test_a_nearest_resize_10_that_grows_and_shrinks_is_one_line() -> None:
    """onnxruntime rounds a growing dim down and a shrinking one up; opset 11 has one mode."""
    require_frontend()
    from onnx import helper

    model = _model(
        10,
        [helper.make_node("Resize", ["x", "s"], ["y"], mode="nearest", name="resize")],
        [_constant("s", [1, 1, 0.6, 1.7])],
    )
    with pytest.raises(FrontendError) as refused:
        heterolayout.import_model(model)
    assert str(refused.value) == (
        "Resize 'resize' (opset 10, nearest): scales [1, 1, 0.6, 1.7] grow some dims and "
        "shrink others, which onnxruntime rounds down and up, and one Resize of opset 11 or "
        "later cannot"
    )


def test_a_current_model_is_imported_as_written() -> None:
    require_frontend()
    from onnx import helper

    model = _model(IMPORTED_OPSET + 1, [helper.make_node("Relu", ["x"], ["y"])])
    assert upgraded(model) is model
    old = _model(9, [helper.make_node("Relu", ["x"], ["y"])])
    assert default_opset(upgraded(old)) == IMPORTED_OPSET and default_opset(old) == 9


def test_a_model_the_converter_cannot_convert_is_imported_as_written() -> None:
    """An op without a schema: the converter fails, upstream's lowering names the op."""
    require_frontend()
    from onnx import helper

    model = _model(9, [helper.make_node("NoSuchOp", ["x"], ["y"])], typed=True)
    assert upgraded(model) is model
    with pytest.raises(FrontendError) as refused:
        heterolayout.import_model(model)
    assert "NoSuchOp" in str(refused.value) and "\n" not in str(refused.value)
