"""A convolution followed by a reduction over its channels (a segmentation head's Softmax or
ArgMax over the classes), imported with nChw16c on its activations: the reduction stays out
of the convolution's epilogue (`fusion._carried_across`; fused, the channel loop carried
its maximum and the convolution ran scalar, 8–15× onnxruntime's time), the convolution is
vectorized along its channels, and the output is onnxruntime's."""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.frontends.reference import compare_output
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.passes.remarks import remarks_collected
from tests.onnx_models import (
    _conv,
    _tensor,
    _weights,
    graph_model,
    onnxruntime_outputs,
    random_input,
    require_frontend,
    with_onednn_layouts,
)

CHANNELS, SIZE = 16, 6


def _head(reduction: str) -> object:
    from onnx import helper

    rng = np.random.default_rng(2)
    weights = [_weights(rng, "w", (CHANNELS, CHANNELS, 3, 3)), _weights(rng, "b", (CHANNELS,))]
    conv = _conv("c", "x", "w", "b", kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    if reduction == "Softmax":
        tail = [helper.make_node("Softmax", ["c"], ["y"], axis=1)]
        out = [1, CHANNELS, SIZE, SIZE]
    else:
        tail = [
            helper.make_node("ArgMax", ["c"], ["index"], axis=1),
            helper.make_node("Cast", ["index"], ["y"], to=1),
        ]
        out = [1, 1, SIZE, SIZE]
    shape = [1, CHANNELS, SIZE, SIZE]
    return graph_model([conv, *tail], [_tensor("x", shape)], [_tensor("y", out)], weights)


@pytest.mark.slow
@pytest.mark.parametrize("reduction", ["Softmax", "ArgMax"])
def test_the_convolution_stays_vectorized(reduction: str) -> None:
    require_frontend()
    model = _head(reduction)
    x = random_input((1, CHANNELS, SIZE, SIZE), seed=5)
    expected = onnxruntime_outputs(model, {"x": x})["y"]
    laid_out, _ = with_onednn_layouts(heterolayout.import_model(model), 16)
    remarks: list[str] = []
    with remarks_collected(remarks):
        lowered = apply_pipeline(
            parse_program(laid_out), "layout-schedule{target=avx2},layout-lower"
        )
    convolution = [r for r in remarks if "nest %conv_2d_nchw_fchw: scheduled" in r]
    assert convolution and "vector<8xf32> along %d1" in convolution[0], remarks
    assert any("across iterations of the outer loops" in r for r in remarks), remarks
    y = np.zeros(expected.shape, np.float32)
    heterolayout.run(str(lowered), "main", args=(x, y), engine="native")
    assert compare_output("y", y, expected).within
