"""DepthToSpace in CRD mode (`frontends/depth_to_space.py`), what PixelShuffle exports: as
torch-mlir lowered it, right only where channels / blocksize² equals the blocksize (its own
test's 8 channels of 2); written out as the spec's reshapes, equal to onnxruntime."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import heterolayout
from heterolayout.frontends.errors import FrontendError
from tests.onnx_models import assert_imported_as_onnxruntime, require_frontend


def _model(shape: list[int], block: int, mode: str, before: list[Any] | None = None) -> Any:
    from onnx import TensorProto, helper

    nodes = before or [helper.make_node("Relu", ["x"], ["r"], name="relu")]
    nodes.append(
        helper.make_node("DepthToSpace", ["r"], ["y"], blocksize=block, mode=mode, name="d2s")
    )
    graph = helper.make_graph(
        nodes,
        "pixel_shuffle",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


@pytest.mark.parametrize(
    ("shape", "block", "mode"),
    [
        ([1, 4, 4, 5], 2, "CRD"),  # wrong before: 1 channel out
        ([1, 12, 2, 3], 2, "CRD"),  # wrong before: 3 channels out
        ([2, 18, 2, 2], 3, "CRD"),  # wrong before: 2 channels out of blocks of 3
        ([1, 8, 2, 3], 2, "CRD"),  # right before: 2 channels out of blocks of 2
        ([2, 18, 2, 2], 3, "DCR"),  # not rewritten
    ],
)
def test_depth_to_space_runs_as_onnxruntime(shape: list[int], block: int, mode: str) -> None:
    require_frontend()
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    assert_imported_as_onnxruntime(_model(shape, block, mode), {"x": x})


def test_crd_becomes_the_specs_reshapes() -> None:
    from heterolayout.frontends.onnx_import import with_static_shapes

    require_frontend()
    nodes = with_static_shapes(_model([1, 12, 2, 3], 2, "CRD"), {}).graph.node
    assert [n.op_type for n in nodes] == ["Relu", "Reshape", "Transpose", "Reshape"]
    assert [list(a.ints) for a in nodes[2].attribute if a.name == "perm"] == [[0, 1, 4, 2, 5, 3]]
    nodes = with_static_shapes(_model([1, 12, 2, 3], 2, "DCR"), {}).graph.node
    assert [n.op_type for n in nodes] == ["Relu", "DepthToSpace"]


def test_an_input_of_unknown_shape_is_one_line() -> None:
    require_frontend()
    from onnx import TensorProto, helper

    reshape = [helper.make_node("Reshape", ["x", "s"], ["r"], name="reshape")]
    model = _model([1, 8, 2, 3], 2, "CRD", reshape)
    model.graph.input.append(helper.make_tensor_value_info("s", TensorProto.INT64, [4]))
    with pytest.raises(FrontendError) as refused:
        heterolayout.import_model(model)
    assert str(refused.value) == (
        "DepthToSpace 'd2s' (mode CRD): its input's shape is not known before import, and it "
        "is written out with the spec's reshapes from it"
    )
