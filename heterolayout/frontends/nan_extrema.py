"""Max and Min of floats that keep a NaN, as onnxruntime's do.

onnxruntime's Max and Min give NaN wherever an input is NaN, as PyTorch's `maximum` and
`minimum` do. torch-mlir lowers them as `aten.maximum` / `aten.minimum`, and those as
`arith.cmpf ogt|olt` and an `arith.select` of the first operand, which takes the second one
when the first is NaN: Max(NaN, 1) imported as 1. Each Max or Min of floats becomes a chain
over its inputs, two at a time, each step NaN where either operand is:
`Where(IsNaN(a), a, Where(IsNaN(b), b, Max(a, b)))` (`IsNaN` is `cmpf uno`, exact). The
other elements are the same Max or Min, so signed zeros come out as before. Integer Max and
Min have no NaN and stay as they are.
"""

from __future__ import annotations

from typing import Any

from heterolayout.frontends.graph_edits import (
    FLOAT_ELEMENTS,
    FreshNames,
    element_of,
    is_onnx_op,
    rewrite_nodes,
)


def has_extrema(graph: Any) -> bool:
    """Whether the graph has a Max or Min of two inputs or more."""
    return any(_is_extremum(node) for node in graph.node)


def keep_nans(model: Any, inferred: Any) -> None:
    """Rewrite each float Max or Min of `model` (its element type read off the
    shape-inferred copy `inferred`) as the chain of NaN-keeping steps."""
    import onnx

    graph = model.graph
    names = FreshNames(graph)

    def chain(node: Any) -> list[Any] | None:
        if not _is_extremum(node) or element_of(inferred, node.output[0]) not in FLOAT_ELEMENTS:
            return None
        nodes: list[Any] = []
        result = node.input[0]
        for number, operand in enumerate(node.input[1:], start=1):
            last = number == len(node.input) - 1
            target = node.output[0] if last else names.new(f"{node.output[0]}_{number}")
            nodes += _step(onnx.helper, names, node, result, operand, target)
            result = target
        return nodes

    rewrite_nodes(graph, chain)


def _step(helper: Any, names: FreshNames, node: Any, a: str, b: str, target: str) -> list[Any]:
    """`target` = `node`'s op of `a` and `b`, NaN where either is."""
    base = f"{node.name or target}_nan"
    plain, a_nan, b_nan, kept = (names.new(f"{base}_{part}") for part in "mabk")
    return [
        helper.make_node(node.op_type, [a, b], [plain], name=names.new(base)),
        helper.make_node("IsNaN", [a], [a_nan], name=names.new(f"{base}_a")),
        helper.make_node("IsNaN", [b], [b_nan], name=names.new(f"{base}_b")),
        helper.make_node("Where", [b_nan, b, plain], [kept], name=names.new(f"{base}_kept")),
        helper.make_node("Where", [a_nan, a, kept], [target], name=names.new(f"{base}_where")),
    ]


def _is_extremum(node: Any) -> bool:
    return is_onnx_op(node, "Max", "Min") and len(node.input) > 1
