"""Pools with `ceil_mode` or `auto_pad` (`frontends/pool_windows.py`): random MaxPools and
AveragePools of rank 1 to 3, imported and run against onnxruntime. Before the rewrite 54 of
ceil-mode seeds 0–199 imported wrong (an extra row, or AveragePool windows divided by the
wrong count) and 15 were refused; the seeds below include wrong and refused ones."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import heterolayout
from heterolayout.frontends.errors import FrontendError
from heterolayout.frontends.pool_windows import ceil_output_size, pools_to_rewrite
from heterolayout.frontends.reference import compare_output
from tests.onnx_models import onnxruntime_outputs, require_frontend

SEEDS = [5, 7, 14, 17, 19, 21, 2, 20, 24, 33, 44, 141, 174, 249, 251, *range(100, 106)]
"""Wrong before (5, 7, 14, 17, 19, 21, 141, 174, 249, 251), refused before (2, 20, 24, 33,
44), and others."""


def _pool(seed: int) -> tuple[Any, np.ndarray]:
    """The seed's ceil-mode pool (1-3 spatial dims, unequal pads, MaxPool dilations,
    AveragePool with or without `count_include_pad`) and a ReLU, and its input."""
    from onnx import TensorProto, helper

    rng = np.random.default_rng(seed)
    rank = int(rng.choice([1, 2, 2, 3]))
    op = str(rng.choice(["MaxPool", "AveragePool"]))
    kernel = [int(rng.integers(1, 5)) for _ in range(rank)]
    strides = [int(rng.integers(1, 4)) for _ in range(rank)]
    dilations = [int(rng.integers(1, 3)) for _ in range(rank)]
    if op != "MaxPool" or rng.random() >= 0.3:
        dilations = [1] * rank
    pads = [int(rng.integers(0, k)) for k in kernel] + [int(rng.integers(0, k)) for k in kernel]
    size = [int(rng.integers(3, 13)) for _ in range(rank)]
    attributes: dict[str, Any] = {
        "kernel_shape": kernel,
        "strides": strides,
        "pads": pads,
        "ceil_mode": int(rng.random() < 0.8),
    }
    if dilations != [1] * rank:
        attributes["dilations"] = dilations
    if op == "AveragePool":
        attributes["count_include_pad"] = int(rng.integers(0, 2))
    shape = [1, 2, *size]
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], ["p"], **attributes), helper.make_node("Relu", ["p"], ["y"])],
        "pool",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    return model, rng.standard_normal(shape).astype(np.float32)


def _runs_as_onnxruntime(model: Any, x: np.ndarray) -> None:
    """The imported model's output `y` is within tolerance of onnxruntime's."""
    expected = onnxruntime_outputs(model, {"x": x})["y"]
    got = heterolayout.run(heterolayout.import_model(model), {"x": x}, engine="compiled")["y"]
    comparison = compare_output("y", got, expected)
    assert comparison.within, str(comparison)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_ceil_mode_pool_computes_what_onnxruntime_computes(seed: int) -> None:
    require_frontend()
    model, x = _pool(seed)
    _runs_as_onnxruntime(model, x)


def _model(nodes: list[Any], shape: list[int], initializers: list[Any] = ()) -> Any:  # type: ignore[assignment]
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        nodes,
        "pools",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        list(initializers),
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])


def test_chained_pools_are_rewritten_one_after_the_other() -> None:
    """The second pool's input is the first one's output, 6 rows (ONNX's shape inference
    says 7): it is sized from the rewritten first pool. Pads 1 over 11 rows, then over 6."""
    require_frontend()
    from onnx import helper

    window = {"kernel_shape": [2, 2], "strides": [2, 2], "pads": [1, 1, 1, 1], "ceil_mode": 1}
    model = _model(
        [
            helper.make_node("MaxPool", ["x"], ["a"], **window),
            helper.make_node("AveragePool", ["a"], ["y"], count_include_pad=1, **window),
        ],
        [1, 3, 11, 11],
    )
    x = np.random.default_rng(3).standard_normal((1, 3, 11, 11)).astype(np.float32)
    expected = onnxruntime_outputs(model, {"x": x})["y"]
    assert expected.shape == (1, 3, 4, 4)
    got = heterolayout.run(heterolayout.import_model(model), {"x": x}, engine="compiled")["y"]
    assert compare_output("y", got, expected).within


def test_the_rewrite_removes_ceil_mode_and_scales_only_partial_windows() -> None:
    """An AveragePool whose windows all lie inside the padded input needs no Mul; one whose
    last window does gets a Mul by the window size over the cells onnxruntime counts."""
    require_frontend()
    from onnx import helper

    from heterolayout.frontends.onnx_import import with_static_shapes

    def rewritten(size: int) -> Any:
        model = _model(
            [
                helper.make_node(
                    "AveragePool", ["x"], ["y"], kernel_shape=[2], strides=[2], ceil_mode=1
                )
            ],
            [1, 1, size],
        )
        return with_static_shapes(model, {})

    even = rewritten(8)
    assert [n.op_type for n in even.graph.node] == ["AveragePool"]
    assert not pools_to_rewrite(even.graph)
    odd = rewritten(9)
    assert [n.op_type for n in odd.graph.node] == ["AveragePool", "Mul"]
    scale = next(i for i in odd.graph.initializer)
    from onnx import numpy_helper

    assert numpy_helper.to_array(scale).ravel().tolist() == [1, 1, 1, 1, 2]
    assert [d.dim_value for d in odd.graph.output[0].type.tensor_type.shape.dim] == [1, 1, 5]


@pytest.mark.parametrize("size", range(3, 12))
def test_output_sizes_are_onnxruntimes(size: int) -> None:
    """`ceil_output_size` against onnxruntime's output shapes for 1-D MaxPools of every kernel,
    stride, dilation and pair of pads up to 3."""
    require_frontend()
    from onnx import helper

    for kernel in range(1, 4):
        for stride in range(1, 4):
            for dilation in range(1, 3):
                for before in range(kernel):
                    for after in range(kernel):
                        node = helper.make_node(
                            "MaxPool",
                            ["x"],
                            ["y"],
                            kernel_shape=[kernel],
                            strides=[stride],
                            dilations=[dilation],
                            pads=[before, after],
                            ceil_mode=1,
                        )
                        if dilation * (kernel - 1) + 1 > size + before + after:
                            continue
                        x = np.zeros((1, 1, size), np.float32)
                        shape = onnxruntime_outputs(_model([node], [1, 1, size]), {"x": x})[
                            "y"
                        ].shape
                        wanted = ceil_output_size(size, kernel, stride, dilation, before, after)
                        assert shape[-1] == wanted, (kernel, stride, dilation, before, after)


def test_a_pool_whose_input_shape_is_unknown_is_refused() -> None:
    """A ceil-mode pool after a Reshape to a shape known only at run time: one line."""
    require_frontend()
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [
            helper.make_node("Reshape", ["x", "s"], ["r"]),
            helper.make_node("MaxPool", ["r"], ["y"], kernel_shape=[2], ceil_mode=1, name="pool"),
        ],
        "pools",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 8]),
            helper.make_tensor_value_info("s", TensorProto.INT64, [3]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 7])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    with pytest.raises(FrontendError) as refused:
        heterolayout.import_model(model)
    assert str(refused.value) == (
        "MaxPool 'pool' (ceil_mode = 1): its input's shape is not known before import, and "
        "the pool is rewritten with explicit pads from it"
    )


@pytest.mark.parametrize("count_include_pad", [0, 1])
@pytest.mark.parametrize("size", [7, 8, 9, 10])
def test_dilated_average_pools(size: int, count_include_pad: int) -> None:
    """AveragePool's dilations (opset 19): windows of 3 cells 2 apart, pads 1 and 2."""
    require_frontend()
    from onnx import helper

    node = helper.make_node(
        "AveragePool",
        ["x"],
        ["y"],
        kernel_shape=[3],
        strides=[2],
        dilations=[2],
        pads=[1, 2],
        ceil_mode=1,
        count_include_pad=count_include_pad,
    )
    model = _model([node], [1, 2, size])
    x = np.random.default_rng(size).standard_normal((1, 2, size)).astype(np.float32)
    _runs_as_onnxruntime(model, x)


def _auto_padded(seed: int) -> tuple[Any, np.ndarray]:
    """The seed's pool with `auto_pad` (SAME_UPPER, SAME_LOWER, or VALID with `ceil_mode`),
    drawn where onnxruntime 1.32 follows the spec: no dilations, and SAME windows that do
    not overreach the input (where they do, onnxruntime pads by a negative amount and shifts
    them; with dilations it pads for the undilated window)."""
    from onnx import TensorProto, helper

    rng = np.random.default_rng(seed)
    rank = int(rng.choice([1, 2]))
    op = str(rng.choice(["MaxPool", "AveragePool"]))
    auto_pad = str(rng.choice(["SAME_UPPER", "SAME_LOWER", "VALID"]))
    kernel = [int(rng.integers(1, 5)) for _ in range(rank)]
    strides = [int(rng.integers(1, k + 1)) for k in kernel]
    size = [int(rng.integers(3, 12)) for _ in range(rank)]
    attributes: dict[str, Any] = {
        "kernel_shape": kernel,
        "strides": strides,
        "auto_pad": auto_pad,
        "ceil_mode": 1 if auto_pad == "VALID" else int(rng.integers(0, 2)),
    }
    if op == "AveragePool":
        attributes["count_include_pad"] = int(rng.integers(0, 2))
    shape = [1, 2, *size]
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], ["y"], **attributes)],
        "pool",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    return model, rng.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("seed", range(24))
def test_an_auto_padded_pool_computes_what_onnxruntime_computes(seed: int) -> None:
    require_frontend()
    model, x = _auto_padded(seed)
    _runs_as_onnxruntime(model, x)
