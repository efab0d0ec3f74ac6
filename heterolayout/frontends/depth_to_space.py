"""DepthToSpace in CRD mode, written out as the spec defines it before import.

torch-mlir's ONNX lowering of a CRD DepthToSpace (what `torch.nn.PixelShuffle` exports)
reshapes the input to `[N, b, b, C / b², H, W]` where the spec reshapes it to
`[N, C / b², b, b, H, W]`, then transposes as the spec does: the result is right only where
`C / b² = b` (its own test's 8 channels of blocksize 2) and wrong otherwise (4 channels of
blocksize 2, 12 of 2, 18 of 3: every output element but the first rows moved). Each such
node becomes the spec's Reshape, Transpose `[0, 1, 4, 2, 5, 3]` and Reshape, which
torch-mlir lowers right. DCR mode, and SpaceToDepth, were right and stay as they are.
"""

from __future__ import annotations

from typing import Any

from heterolayout.frontends.errors import FrontendError
from heterolayout.frontends.graph_edits import (
    FreshNames,
    attributes,
    is_onnx_op,
    rewrite_nodes,
    shape_of,
    text,
)


def crd_nodes(graph: Any) -> list[Any]:
    """The graph's DepthToSpace nodes in CRD mode."""
    return [node for node in graph.node if _is_crd(node)]


def _is_crd(node: Any) -> bool:
    return is_onnx_op(node, "DepthToSpace") and text(attributes(node).get("mode", b"DCR")) == "CRD"


def write_out_crd(model: Any, inferred: Any) -> None:
    """Replace each CRD DepthToSpace of `model` by the spec's Reshape, Transpose and
    Reshape, its input's shape read off the shape-inferred copy `inferred`."""
    import numpy as np
    import onnx

    graph = model.graph
    names = FreshNames(graph)

    def spec(node: Any) -> list[Any] | None:
        if not _is_crd(node):
            return None
        block = int(attributes(node).get("blocksize", 0))
        source = shape_of(inferred, node.input[0])
        if source is None or len(source) != 4 or None in source or block < 1:
            raise FrontendError(
                f"DepthToSpace {node.name!r} (mode CRD): its input's shape is not known "
                "before import, and it is written out with the spec's reshapes from it"
            )
        batch, channels, height, width = (int(size or 0) for size in source)
        inner = channels // (block * block)
        base = node.name or node.output[0]
        split, moved = names.new(f"{base}_blocks"), names.new(f"{base}_moved")
        first, last = names.new(f"{base}_blocks_shape"), names.new(f"{base}_shape")
        graph.initializer.extend(
            [
                onnx.numpy_helper.from_array(
                    np.array([batch, inner, block, block, height, width], np.int64), first
                ),
                onnx.numpy_helper.from_array(
                    np.array([batch, inner, height * block, width * block], np.int64), last
                ),
            ]
        )
        return [
            onnx.helper.make_node(
                "Reshape", [node.input[0], first], [split], name=names.new(f"{base}_reshape")
            ),
            onnx.helper.make_node(
                "Transpose", [split], [moved], perm=[0, 1, 4, 2, 5, 3], name=node.name
            ),
            onnx.helper.make_node(
                "Reshape", [moved, last], [node.output[0]], name=names.new(f"{base}_merge")
            ),
        ]

    rewrite_nodes(graph, spec)
