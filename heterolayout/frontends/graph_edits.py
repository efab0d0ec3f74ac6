"""Edits of ONNX graphs shared by the rewrites done before import: fresh value names, and a
node's attributes read and replaced."""

from __future__ import annotations

from typing import Any


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


def text(value: bytes | str) -> str:
    """A string attribute's value as text."""
    return value.decode() if isinstance(value, bytes) else value


def set_attribute(node: Any, name: str, value: Any) -> None:
    """Give the node attribute `name` this value, replacing any it had."""
    import onnx

    kept = [a for a in node.attribute if a.name != name]
    del node.attribute[:]
    node.attribute.extend([*kept, onnx.helper.make_attribute(name, value)])
