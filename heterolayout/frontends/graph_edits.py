"""Edits of ONNX graphs shared by the rewrites done before import: fresh value names, a
node's attributes read and replaced, what shape inference typed a value, the model's
opset, and the spec's rule for SAME pads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

FLOAT_ELEMENTS = (1, 10, 11, 16)
"""ONNX's element types with a NaN: FLOAT, FLOAT16, DOUBLE and BFLOAT16 (`TensorProto`'s
numbers, which the spec fixes)."""


class FreshNames:
    """Names no value or initializer of the graph has, each given once."""

    def __init__(self, graph: Any) -> None:
        self.taken = {v for n in graph.node for v in [*n.input, *n.output]}
        self.taken |= {i.name for i in graph.initializer}
        self.taken |= {v.name for v in (*graph.input, *graph.output)}

    def new(self, base: str) -> str:
        name, number = base, 0
        while name in self.taken:
            number += 1
            name = f"{base}_{number}"
        self.taken.add(name)
        return name


def attributes(node: Any) -> dict[str, Any]:
    """The node's attributes as Python values (strings as `bytes`, as onnx gives them)."""
    import onnx

    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


DEFAULT_DOMAINS = ("", "ai.onnx")
"""The names of ONNX's default operator domain."""


def is_onnx_op(node: Any, *op_types: str) -> bool:
    """Whether the node is one of ONNX's own ops `op_types` (of the default domain)."""
    return node.op_type in op_types and node.domain in DEFAULT_DOMAINS


def default_opset(model: Any) -> int:
    """The model's opset of the default domain (`""` or `ai.onnx`); 0 when it has none."""
    return max((o.version for o in model.opset_import if o.domain in DEFAULT_DOMAINS), default=0)


def kernel_of(node: Any, inferred: Any) -> list[int | None]:
    """The node's `kernel_shape`, else its weights' spatial dims as the shape-inferred
    `inferred` types them (ONNX reads the kernel off the weights when it is not given);
    empty when neither is known."""
    given = attributes(node).get("kernel_shape")
    if given:
        return [int(k) for k in given]
    weights = shape_of(inferred, node.input[1]) if len(node.input) > 1 else None
    return list(weights[2:]) if weights is not None else []


def text(value: bytes | str) -> str:
    """A string attribute's value as text."""
    return value.decode() if isinstance(value, bytes) else value


def auto_pad(given: dict[str, Any]) -> str:
    """The `auto_pad` of a node's `attributes` (NOTSET when absent or empty)."""
    return text(given.get("auto_pad", b"NOTSET")) or "NOTSET"


def same_split(total: int, upper: bool) -> tuple[int, int]:
    """SAME's leading and trailing pads for `total` padding: the odd cell at the end for
    SAME_UPPER (`upper`), at the start for SAME_LOWER (ONNX's Conv, pools and
    ConvTranspose alike)."""
    small, large = total // 2, total - total // 2
    return (small, large) if upper else (large, small)


def remove_attributes(node: Any, *names: str) -> None:
    """Drop the node's attributes of these names."""
    kept = [a for a in node.attribute if a.name not in names]
    del node.attribute[:]
    node.attribute.extend(kept)


def set_attribute(node: Any, name: str, value: Any) -> None:
    """Give the node attribute `name` this value, replacing any it had."""
    import onnx

    remove_attributes(node, name)
    node.attribute.append(onnx.helper.make_attribute(name, value))


def value_of(model: Any, name: str) -> Any:
    """The graph input, value_info or output that types value `name` (None if none does)."""
    graph = model.graph
    for value in (*graph.input, *graph.value_info, *graph.output):
        if value.name == name:
            return value
    return None


def shape_of(model: Any, name: str) -> list[int | None] | None:
    """Value `name`'s dims as typed in `model`, or an initializer's (None for a dim of
    unknown size; None for an untyped value)."""
    value = value_of(model, name)
    if value is None:
        found = [list(i.dims) for i in model.graph.initializer if i.name == name]
        return cast(list[int | None], found[0]) if found else None
    if not value.type.tensor_type.HasField("shape"):
        return None
    return [
        d.dim_value if d.HasField("dim_value") else None for d in value.type.tensor_type.shape.dim
    ]


def constant_value(model: Any, name: str) -> Any:
    """Value `name` as a numpy array when an initializer or a Constant node's `value` gives
    it, else None."""
    import onnx

    for initializer in model.graph.initializer:
        if initializer.name == name:
            return onnx.numpy_helper.to_array(initializer)
    for node in model.graph.node:
        if node.op_type == "Constant" and list(node.output) == [name]:
            given = attributes(node)
            if "value" in given:
                return onnx.numpy_helper.to_array(given["value"])
    return None


def element_of(model: Any, name: str) -> int:
    """Value `name`'s ONNX element type (float where the model does not type it)."""
    import onnx

    value = value_of(model, name)
    return value.type.tensor_type.elem_type if value is not None else onnx.TensorProto.FLOAT


def drop_value_info(graph: Any, name: str) -> None:
    """Forget what shape inference said of value `name` (a rewrite changed it)."""
    kept = [v for v in graph.value_info if v.name != name]
    del graph.value_info[:]
    graph.value_info.extend(kept)


def insert_after(graph: Any, node: Any, added: Any) -> None:
    """Put node `added` just after `node` in the graph's order."""
    nodes = list(graph.node)
    position = nodes.index(node)
    del graph.node[:]
    graph.node.extend([*nodes[: position + 1], added, *nodes[position + 1 :]])


def rewrite_nodes(graph: Any, rewrite: Callable[[Any], list[Any] | None]) -> None:
    """Put in place of each node the nodes `rewrite` gives for it (None: the node stays), in
    the graph's order."""
    nodes: list[Any] = []
    for node in graph.node:
        replaced = rewrite(node)
        nodes.extend([node] if replaced is None else replaced)
    del graph.node[:]
    graph.node.extend(nodes)
