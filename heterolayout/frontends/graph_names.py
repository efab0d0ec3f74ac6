"""Fresh value names for the ONNX graph rewrites done before import."""

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
