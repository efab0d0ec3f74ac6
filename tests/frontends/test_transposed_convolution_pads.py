"""ConvTransposes with uneven pads (`frontends/transposed_convolution_pads.py`): random ones
of rank 1 to 3 (explicit pads, `auto_pad` SAME_UPPER / SAME_LOWER, `output_shape` with and
without them, `output_padding`, dilations) imported and run against onnxruntime. Before the
rewrite 154 of seeds 0–199 were refused by upstream lowering ("failed to legalize operation
'torch.operator'", or a linalg shape error) and 43 imported; after it 170 import and run
equal, and the 27 whose output would reach past the full convolution (negative pads) are
refused in one line."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import heterolayout
from heterolayout.frontends.errors import FrontendError
from heterolayout.frontends.reference import compare_output
from tests.onnx_models import onnxruntime_outputs, require_frontend

SEEDS = [0, 1, 3, 4, 5, 6, 7, 9, 10, 13, 14, 15, 16, 21, 23, 24]
NEGATIVE = [2, 8, 11, 12]


def _transposed(seed: int) -> tuple[Any, np.ndarray]:
    """The seed's ConvTranspose (with a bias) and a ReLU, and its input."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    rank = int(rng.choice([1, 2, 2, 3]))
    kernel = [int(rng.integers(1, 5)) for _ in range(rank)]
    strides = [int(rng.integers(1, 4)) for _ in range(rank)]
    dilations = [int(rng.integers(1, 3)) if rng.random() < 0.2 else 1 for _ in range(rank)]
    size = [int(rng.integers(2, 8)) for _ in range(rank)]
    channels, filters = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    attributes: dict[str, Any] = {"kernel_shape": kernel, "strides": strides}
    if dilations != [1] * rank:
        attributes["dilations"] = dilations
    kind = str(rng.choice(["pads", "same_upper", "same_lower", "output_shape"]))
    extra = [0] * rank
    if rng.random() < 0.3:
        extra = [int(rng.integers(0, max(s, d))) for s, d in zip(strides, dilations, strict=True)]
        attributes["output_padding"] = extra
    full = [
        s * (n - 1) + e + d * (k - 1) + 1
        for s, n, e, d, k in zip(strides, size, extra, dilations, kernel, strict=True)
    ]
    if kind == "pads":
        attributes["pads"] = [int(rng.integers(0, k)) for k in kernel * 2]
    elif kind == "output_shape":
        attributes["output_shape"] = [max(1, f - int(rng.integers(0, 4))) for f in full]
        if rng.random() < 0.5:
            attributes["auto_pad"] = str(rng.choice(["SAME_UPPER", "SAME_LOWER"]))
    else:
        attributes["auto_pad"] = kind.upper()
    weights = rng.standard_normal((channels, filters, *kernel)).astype(np.float32)
    bias = rng.standard_normal((filters,)).astype(np.float32)
    shape = [1, channels, *size]
    graph = helper.make_graph(
        [
            helper.make_node("ConvTranspose", ["x", "w", "b"], ["t"], name="up", **attributes),
            helper.make_node("Relu", ["t"], ["y"]),
        ],
        "transposed",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(weights, "w"), numpy_helper.from_array(bias, "b")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    return model, rng.standard_normal(shape).astype(np.float32)


def _runs_as_onnxruntime(model: Any, x: np.ndarray) -> str:
    """The imported model's output `y` is within tolerance of onnxruntime's; the text."""
    expected = onnxruntime_outputs(model, {"x": x})["y"]
    text = heterolayout.import_model(model)
    got = heterolayout.run(text, {"x": x}, engine="compiled")["y"]
    comparison = compare_output("y", got, expected)
    assert comparison.within, str(comparison)
    return text


@pytest.mark.parametrize("seed", SEEDS)
def test_a_transposed_convolution_computes_what_onnxruntime_computes(seed: int) -> None:
    require_frontend()
    _runs_as_onnxruntime(*_transposed(seed))


@pytest.mark.parametrize("seed", NEGATIVE)
def test_negative_pads_are_refused_in_one_line(seed: int) -> None:
    require_frontend()
    model, _ = _transposed(seed)
    with pytest.raises(FrontendError) as refused:
        heterolayout.import_model(model)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith("ConvTranspose 'up' (")
    assert "negative pads are not imported" in message


def _keras_same(opset: int, pads: list[int], kernel_shape: bool = True) -> tuple[Any, np.ndarray]:
    """What tf2onnx writes for Keras' Conv2DTranspose(3, strides=2, padding='same')
    (`kernel_shape` left out: ONNX then reads it off the weights)."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(3)
    weights = rng.standard_normal((4, 2, 3, 3)).astype(np.float32)
    given: dict[str, Any] = {"strides": [2, 2], "pads": pads}
    if kernel_shape:
        given["kernel_shape"] = [3, 3]
    graph = helper.make_graph(
        [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="up", **given)],
        "keras",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 6, 5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(weights, "w")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return model, rng.standard_normal((1, 4, 6, 5)).astype(np.float32)


@pytest.mark.parametrize("kernel_shape", [True, False])
def test_keras_same_padding_is_cropped_by_a_slice(kernel_shape: bool) -> None:
    require_frontend()
    text = _runs_as_onnxruntime(*_keras_same(13, [0, 0, 1, 1], kernel_shape))
    assert "memref<1x2x12x10xf32>" in text


def test_a_model_before_opset_11_is_converted_and_runs() -> None:
    """Opset 9 becomes 17 before import (`opset_upgrade`), whose ConvTranspose torch-mlir
    lowers."""
    require_frontend()
    _runs_as_onnxruntime(*_keras_same(9, [0, 0, 1, 1]))


def test_a_model_left_before_opset_11_is_refused_in_one_line() -> None:
    """Where the converter could not convert it, the rewrite refuses the node."""
    from heterolayout.frontends.onnx_import import with_static_shapes

    require_frontend()
    model, _ = _keras_same(9, [0, 0, 1, 1])
    with pytest.raises(FrontendError) as refused:
        with_static_shapes(model, {})
    assert str(refused.value) == (
        "ConvTranspose 'up' (pads = [0, 0, 1, 1]): the model's opset is 9; ConvTranspose is "
        "imported from opset 11"
    )


def test_even_pads_need_no_slice() -> None:
    from heterolayout.frontends.graph_edits import set_attribute
    from heterolayout.frontends.onnx_import import with_static_shapes

    require_frontend()
    model, x = _keras_same(13, [0, 0, 1, 1])
    rewritten = with_static_shapes(model, {}).graph.node
    assert [n.op_type for n in rewritten] == ["ConvTranspose", "Slice"]
    assert [list(a.ints) for a in rewritten[0].attribute if a.name == "pads"] == [[0, 0, 0, 0]]
    set_attribute(model.graph.node[0], "pads", [1, 1, 1, 1])
    assert [n.op_type for n in with_static_shapes(model, {}).graph.node] == ["ConvTranspose"]
    _runs_as_onnxruntime(model, x)
