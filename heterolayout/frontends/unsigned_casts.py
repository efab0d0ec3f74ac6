"""Casts from floats to `uint8`, through `int32`.

torch-mlir lowers an ONNX Cast from a float to `uint8` as `arith.fptosi` to `i8`: a value
past the signed half (225.0) is out of that conversion's range, poison in LLVM (the native
engine happened to give 225's bits, the Python engines saturate to 127), where onnxruntime
gives 225 and wraps what lies past the unsigned range too (40000.0 to 64). Each such Cast
becomes a Cast to `int32` and a Cast from it to `uint8`, which torch-mlir lowers as a
truncation: onnxruntime's values. (torch-mlir refuses casts to `uint16` either way.)
"""

from __future__ import annotations

from typing import Any

from heterolayout.frontends.graph_edits import (
    FLOAT_ELEMENTS,
    FreshNames,
    attributes,
    element_of,
    is_onnx_op,
    rewrite_nodes,
)

UNSIGNED = (2,)
"""ONNX's UINT8."""
WIDE = 6
"""ONNX's INT32."""


def split_unsigned_casts(model: Any, inferred: Any) -> None:
    """Rewrite each float-to-`uint8` Cast of `model`, its input's element type read off the
    shape-inferred copy `inferred`."""
    import onnx

    names = FreshNames(model.graph)

    def through_int32(node: Any) -> list[Any] | None:
        if not _casts_to_uint8(node) or element_of(inferred, node.input[0]) not in FLOAT_ELEMENTS:
            return None
        target = int(attributes(node)["to"])
        wide = names.new(f"{node.output[0]}_int32")
        base = node.name or node.output[0]
        return [
            onnx.helper.make_node("Cast", [node.input[0]], [wide], to=WIDE, name=node.name),
            onnx.helper.make_node(
                "Cast", [wide], [node.output[0]], to=target, name=names.new(f"{base}_wrap")
            ),
        ]

    rewrite_nodes(model.graph, through_int32)


def has_unsigned_casts(graph: Any) -> bool:
    """Whether the graph casts to `uint8`, which torch-mlir converts floats to wrongly."""
    return any(_casts_to_uint8(node) for node in graph.node)


def _casts_to_uint8(node: Any) -> bool:
    return is_onnx_op(node, "Cast") and int(attributes(node).get("to", 0)) in UNSIGNED
