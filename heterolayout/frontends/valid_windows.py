"""Windows longer than their input under `auto_pad = VALID`, refused in one line.

The spec's VALID output size is `ceil((size - span + 1) / stride)` for a window spanning
`span = dilation · (kernel - 1) + 1` cells: none (or less) when the span is longer than the
input. ONNX's shape inference (onnx 1.23) and onnxruntime 1.32 truncate a negative quotient
toward zero instead: a MaxPool of kernel 4, dilation 2 and stride 3 over 5 rows gets 1 row
(onnxruntime takes the maximum of the cells the window holds), while torch-mlir's lowering
gives the spec's none. Imported, such a node was refused by iree-opt with a message about a
`tensor.cast` of `0` rows to `1`. Neither size is the model's own, so the node is refused
here in one line that names both.
"""

from __future__ import annotations

from typing import Any

from heterolayout.frontends.errors import FrontendError
from heterolayout.frontends.graph_edits import (
    attributes,
    auto_pad,
    is_onnx_op,
    kernel_of,
    shape_of,
)

WINDOWED = ("Conv", "MaxPool", "AveragePool", "LpPool")
"""Ops whose output size under VALID is the spec's formula over their window's span."""


def check_valid_windows(inferred: Any) -> None:
    """FrontendError for the first windowed node of the shape-inferred `inferred` whose
    VALID window spans more cells than its input has along some spatial dim."""
    for node in inferred.graph.node:
        if not is_onnx_op(node, *WINDOWED):
            continue
        given = attributes(node)
        source = shape_of(inferred, node.input[0])
        if auto_pad(given) != "VALID" or source is None:
            continue
        kernel = kernel_of(node, inferred)
        dilations = list(given.get("dilations", [1] * len(kernel)))
        for dim, (size, k, dilation) in enumerate(zip(source[2:], kernel, dilations, strict=False)):
            if size is None or k is None:
                continue
            span = dilation * (k - 1) + 1
            if span > size:
                typed = shape_of(inferred, node.output[0])
                inferred_size = (
                    typed[2 + dim] if typed is not None and len(typed) > 2 + dim else None
                )
                raise FrontendError(
                    f"{node.op_type} {node.name!r}: auto_pad = VALID with a window of {span} "
                    f"cells (kernel {k}, dilation {dilation}) over {size} along spatial dim "
                    f"{dim}: the spec gives no output there, ONNX's shape inference "
                    + ("no size" if inferred_size is None else str(inferred_size))
                )
