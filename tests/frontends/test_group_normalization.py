"""GroupNormalization (`frontends/group_normalization.py`): opset 18's per-group scale and bias,
which torch-mlir read per channel (wrong where the output was typed: max abs error 6.8), and
its output, which ONNX's shape inference leaves untyped (refused: "no known rank")."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import heterolayout
from heterolayout.frontends.errors import FrontendError
from tests.onnx_models import assert_imported_as_onnxruntime, require_frontend


def _model(opset: int, groups: int, shape: list[int], typed: bool, before: Any = None) -> Any:
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(groups)
    count = groups if opset < 21 else shape[1]
    weights = [
        numpy_helper.from_array(rng.standard_normal(count).astype(np.float32), name)
        for name in ("scale", "bias")
    ]
    nodes = before or []
    source = nodes[-1].output[0] if nodes else "x"
    nodes += [
        helper.make_node(
            "GroupNormalization",
            [source, "scale", "bias"],
            ["n"],
            num_groups=groups,
            epsilon=1e-3,
            name="norm",
        ),
        helper.make_node("Relu", ["n"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "group_norm",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape if typed else None)],
        weights,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


@pytest.mark.parametrize(
    ("opset", "groups", "shape", "typed"),
    [
        (18, 3, [2, 6, 4, 3], True),  # wrong before
        (18, 3, [2, 6, 4, 3], False),  # refused before
        (20, 4, [1, 8, 5], False),
        (18, 1, [2, 4, 3], True),
        (21, 3, [2, 6, 4, 3], False),  # refused before
        (21, 2, [1, 8, 5], True),  # refused before: the Relu typed, the norm not
    ],
)
def test_group_normalization_runs_as_onnxruntime(
    opset: int, groups: int, shape: list[int], typed: bool
) -> None:
    require_frontend()
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    assert_imported_as_onnxruntime(_model(opset, groups, shape, typed), {"x": x})


def test_only_per_group_inputs_are_repeated() -> None:
    from heterolayout.frontends.onnx_import import with_static_shapes

    require_frontend()
    old = with_static_shapes(_model(18, 3, [2, 6, 4], False), {}).graph.node
    assert [n.op_type for n in old][-2:] == ["GroupNormalization", "Relu"]
    assert [n.op_type for n in old].count("Expand") == 2
    new = with_static_shapes(_model(21, 3, [2, 6, 4], False), {}).graph.node
    assert [n.op_type for n in new] == ["GroupNormalization", "Relu"]


def test_unknown_channels_are_one_line() -> None:
    require_frontend()
    from onnx import TensorProto, helper

    reshape = [helper.make_node("Reshape", ["x", "s"], ["r"], name="reshape")]
    model = _model(18, 3, [2, 6, 4], False, reshape)
    model.graph.input.append(helper.make_tensor_value_info("s", TensorProto.INT64, [3]))
    with pytest.raises(FrontendError) as refused:
        heterolayout.import_model(model)
    assert str(refused.value) == (
        "GroupNormalization 'norm' (opset 18): its input's channels are not known before "
        "import, and its per-group scale and bias are repeated over them"
    )
