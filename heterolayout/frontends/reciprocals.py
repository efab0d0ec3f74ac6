"""Reciprocal, written as a Div of one.

torch-mlir lowers ONNX's Reciprocal with a `cf.assert` that no element is zero ("unimplemented:
tensor with zero element"), where the spec and onnxruntime give an infinity: the Python
engines refused such inputs, and compiled upstream the assertion aborts the process. Each
Reciprocal becomes a Div of a constant one by its input, which torch-mlir lowers as
`arith.divf`: the same quotient, and IEEE's infinities for zeros.
"""

from __future__ import annotations

from typing import Any

from heterolayout.frontends.graph_edits import (
    FreshNames,
    element_of,
    is_onnx_op,
    rewrite_nodes,
)


def has_reciprocals(graph: Any) -> bool:
    """Whether the graph has a Reciprocal."""
    return any(_is_reciprocal(node) for node in graph.node)


def as_divisions(model: Any, inferred: Any) -> None:
    """Rewrite each Reciprocal of `model` as a Div, its element type read off the
    shape-inferred copy `inferred`."""
    import numpy as np
    import onnx

    graph = model.graph
    names = FreshNames(graph)

    def division(node: Any) -> list[Any] | None:
        if not _is_reciprocal(node):
            return None
        one = names.new(f"{node.output[0]}_one")
        dtype = onnx.helper.tensor_dtype_to_np_dtype(element_of(inferred, node.input[0]))
        graph.initializer.append(onnx.numpy_helper.from_array(np.array(1, dtype), one))
        return [
            onnx.helper.make_node("Div", [one, node.input[0]], [node.output[0]], name=node.name)
        ]

    rewrite_nodes(graph, division)


def _is_reciprocal(node: Any) -> bool:
    return is_onnx_op(node, "Reciprocal")
