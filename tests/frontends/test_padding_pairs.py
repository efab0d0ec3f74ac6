"""Random pairs of ONNX ops around padding and strides, imported and run against
onnxruntime: a Pad (constant, reflect, edge), a strided Slice, a Concat with a zero row or a
MaxPool, then a ConvTranspose, a Conv, an AveragePool or a MaxPool. Upstream canonicalization
folds the first op into the second one's padded or zero-stuffed image, where a fold that
forgets a stride puts the image in the wrong place
(`frontends/pads_before_transposed_convolutions.py`: 10 of seeds 0–119 were wrong before it,
none since)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import heterolayout
from heterolayout.frontends.reference import compare_output
from tests.onnx_models import onnxruntime_outputs, require_frontend

SEEDS = [2, 3, 17, 20, 38, 46, 56, 80, 81, 86, *range(4, 16)]
"""Ten that were wrong before the Pad fix (10 of the first 100 seeds), and others."""


def _first(
    rng: np.random.Generator, channels: int, high: int, wide: int
) -> tuple[list[Any], list[Any], int, int]:
    from onnx import helper, numpy_helper

    kind = str(rng.choice(["pad", "pad", "slice", "concat", "maxpool"]))
    if kind == "pad":
        mode = str(rng.choice(["constant", "constant", "reflect", "edge"]))
        widths = [0, 0, *map(int, rng.integers(0, 3, 2)), 0, 0, *map(int, rng.integers(0, 3, 2))]
        if mode != "constant":
            widths = [min(w, 1) for w in widths]
        constant = numpy_helper.from_array(np.array(widths, np.int64), "widths")
        node = helper.make_node("Pad", ["x", "widths"], ["a"], mode=mode)
        return [node], [constant], high + widths[2] + widths[6], wide + widths[3] + widths[7]
    if kind == "slice":
        step, begin = int(rng.integers(1, 3)), int(rng.integers(0, 2))
        bounds = {"starts": [begin] * 2, "ends": [high, wide], "axes": [2, 3], "steps": [step] * 2}
        constants = [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in bounds.items()]
        node = helper.make_node("Slice", ["x", *bounds], ["a"])
        return [node], constants, len(range(begin, high, step)), len(range(begin, wide, step))
    if kind == "concat":
        zeros = numpy_helper.from_array(np.zeros((1, channels, 1, wide), np.float32), "zeros")
        return [helper.make_node("Concat", ["zeros", "x"], ["a"], axis=2)], [zeros], high + 1, wide
    size, stride = int(rng.integers(2, 4)), int(rng.integers(1, 3))
    pad = min(int(rng.integers(0, 2)), size - 1)
    node = helper.make_node(
        "MaxPool", ["x"], ["a"], kernel_shape=[size] * 2, strides=[stride] * 2, pads=[pad] * 4
    )
    return (
        [node],
        [],
        (high + 2 * pad - size) // stride + 1,
        (wide + 2 * pad - size) // stride + 1,
    )


def _second(
    rng: np.random.Generator, channels: int, high: int, wide: int
) -> tuple[list[Any], list[Any], int, int, int]:
    from onnx import helper, numpy_helper

    kind = str(rng.choice(["transposed", "transposed", "conv", "average", "max"]))
    size, stride = int(rng.integers(2, 5)), int(rng.integers(2, 4))
    if kind == "transposed":
        pad = int(rng.integers(0, size // 2 + 1))
        extra = min(int(rng.integers(0, stride)), stride - 1) if rng.random() < 0.3 else 0
        weights = [
            numpy_helper.from_array(
                rng.standard_normal((channels, 3, size, size)).astype(np.float32), "w"
            ),
            numpy_helper.from_array(rng.standard_normal((3,)).astype(np.float32), "b"),
        ]
        node = helper.make_node(
            "ConvTranspose",
            ["a", "w", "b"],
            ["y"],
            kernel_shape=[size] * 2,
            strides=[stride] * 2,
            pads=[pad] * 4,
            output_padding=[extra] * 2,
        )
        return (
            [node],
            weights,
            3,
            (high - 1) * stride - 2 * pad + size + extra,
            (wide - 1) * stride - 2 * pad + size + extra,
        )
    size, stride, pad = int(rng.integers(1, 4)), int(rng.integers(1, 3)), int(rng.integers(0, 2))
    if kind != "conv":
        size, pad = max(size, 2), min(pad, max(size, 2) - 1)
    shape = (
        (high + 2 * pad - size) // stride + 1,
        (wide + 2 * pad - size) // stride + 1,
    )
    window = {"kernel_shape": [size] * 2, "strides": [stride] * 2, "pads": [pad] * 4}
    if kind == "conv":
        weights = [
            numpy_helper.from_array(
                rng.standard_normal((3, channels, size, size)).astype(np.float32), "w"
            )
        ]
        return [helper.make_node("Conv", ["a", "w"], ["y"], **window)], weights, 3, *shape
    if kind == "average":
        window["count_include_pad"] = int(rng.integers(0, 2))
    op = "AveragePool" if kind == "average" else "MaxPool"
    return [helper.make_node(op, ["a"], ["y"], **window)], [], channels, *shape


def _pair(seed: int) -> tuple[Any, np.ndarray] | None:
    """The seed's two-op model and its input; None when its shapes come out empty."""
    from onnx import TensorProto, helper

    rng = np.random.default_rng(seed)
    channels, high, wide = 2, int(rng.integers(4, 8)), int(rng.integers(4, 8))
    first, first_constants, middle_high, middle_wide = _first(rng, channels, high, wide)
    if min(middle_high, middle_wide) < 3:
        return None
    second, second_constants, out, out_high, out_wide = _second(
        rng, channels, middle_high, middle_wide
    )
    if min(out_high, out_wide) < 1:
        return None
    graph = helper.make_graph(
        [*first, *second],
        "pair",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, channels, high, wide])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, out, out_high, out_wide])],
        [*first_constants, *second_constants],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model, rng.standard_normal((1, channels, high, wide)).astype(np.float32)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_a_padding_pair_computes_what_onnxruntime_computes(seed: int) -> None:
    require_frontend()
    drawn = _pair(seed)
    if drawn is None:
        pytest.skip(f"seed {seed} draws an empty shape")
    model, x = drawn
    import onnx

    onnx.checker.check_model(model, full_check=True)
    expected = onnxruntime_outputs(model, {"x": x})["y"]
    got = heterolayout.run(heterolayout.import_model(model), {"x": x}, engine="compiled")["y"]
    comparison = compare_output("y", got, expected)
    assert comparison.within, [node.op_type for node in model.graph.node] + [str(comparison)]
