"""GroupNormalization: per-group scale and bias before opset 21, and its output typed.

GroupNormalization of opset 18 scales and shifts each group by one value (`scale`, `bias` of
`num_groups`); opset 21 each channel. torch-mlir's lowering reads them per channel at every
opset, so a model of opset 18 to 20 imported wrong (3 groups of 2 channels: max abs error
6.8 against onnxruntime), and onnx's converter keeps the per-group inputs when it converts
to 21. Such a node gets per-channel inputs here, each group's value repeated over its
channels (Unsqueeze, Expand, Reshape, which fold for initializers).

ONNX's shape inference (onnx 1.23) also leaves the node's output untyped at either opset
(a function op it does not expand), so the model was refused for an output of unknown
rank; the output is typed as the input, which the op preserves.
"""

from __future__ import annotations

from typing import Any

from heterolayout.frontends.errors import FrontendError
from heterolayout.frontends.graph_edits import (
    FreshNames,
    attributes,
    default_opset,
    is_onnx_op,
    rewrite_nodes,
    shape_of,
    value_of,
)

PER_CHANNEL_OPSET = 21
"""The opset from which GroupNormalization's scale and bias are per channel."""


def group_normalizations(graph: Any) -> list[Any]:
    """The graph's GroupNormalization nodes."""
    return [node for node in graph.node if _is_group_normalization(node)]


def _is_group_normalization(node: Any) -> bool:
    return is_onnx_op(node, "GroupNormalization")


def per_channel(model: Any, inferred: Any) -> None:
    """Give each GroupNormalization of `model` per-channel scale and bias where its opset
    has them per group, and type its output as its input; shapes read off the
    shape-inferred copy `inferred`."""
    graph = model.graph
    names = FreshNames(graph)
    opset = default_opset(model)

    def repeated(node: Any) -> list[Any] | None:
        if not _is_group_normalization(node):
            return None
        _type_as_input(graph, inferred, node)
        if opset >= PER_CHANNEL_OPSET:
            return None
        return [*_repeat_over_channels(graph, names, inferred, node, opset), node]

    rewrite_nodes(graph, repeated)


def _repeat_over_channels(
    graph: Any, names: FreshNames, inferred: Any, node: Any, opset: int
) -> list[Any]:
    """The nodes that repeat the node's per-group scale and bias over each group's channels
    (Unsqueeze, Expand, Reshape), the node rewired to read them."""
    import numpy as np
    import onnx

    source = shape_of(inferred, node.input[0])
    groups = int(attributes(node).get("num_groups", 0))
    channels = source[1] if source is not None and len(source) > 1 else None
    if channels is None or groups < 1 or channels % groups:
        raise FrontendError(
            f"GroupNormalization {node.name!r} (opset {opset}): its input's channels are not "
            "known before import, and its per-group scale and bias are repeated over them"
        )
    base = node.name or node.output[0]
    axis, spread, flat = (names.new(f"{base}_{part}") for part in ("axis", "spread", "channels"))
    graph.initializer.extend(
        [
            onnx.numpy_helper.from_array(np.array([1], np.int64), axis),
            onnx.numpy_helper.from_array(np.array([groups, channels // groups], np.int64), spread),
            onnx.numpy_helper.from_array(np.array([channels], np.int64), flat),
        ]
    )
    added = []
    for position in (1, 2):
        given = node.input[position]
        column, wide, repeated = (
            names.new(f"{given}_{part}") for part in ("column", "wide", "per_channel")
        )
        added += [
            onnx.helper.make_node("Unsqueeze", [given, axis], [column]),
            onnx.helper.make_node("Expand", [column, spread], [wide]),
            onnx.helper.make_node("Reshape", [wide, flat], [repeated]),
        ]
        node.input[position] = repeated
    return added


def _type_as_input(graph: Any, inferred: Any, node: Any) -> None:
    """Type the node's output as its input where shape inference left it untyped."""
    typed = value_of(inferred, node.input[0])
    output = value_of(inferred, node.output[0])
    if typed is None or (output is not None and output.type.tensor_type.HasField("shape")):
        return
    for value in graph.output:
        if value.name == node.output[0]:
            value.type.CopyFrom(typed.type)
            return
    info = graph.value_info.add()
    info.name = node.output[0]
    info.type.CopyFrom(typed.type)
