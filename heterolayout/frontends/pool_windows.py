"""Pools with `ceil_mode` or `auto_pad`, rewritten with explicit pads, rounding down.

ONNX's MaxPool and AveragePool with `ceil_mode = 1` round the output size up and ignore a
last window that would start in the right padding (PyTorch's rule; onnxruntime and ONNX's
reference evaluator follow it): a 2×2 pool of stride 2 and pads 1 over 11 rows gives 6.
Imported as they are, such pools went wrong three ways: ONNX's shape inference (onnx 1.17
to 1.23) rounds up alone and typed that pool 7 rows, which the importer takes as its result
type (a MaxPool refused by iree-opt, an AveragePool imported with a 7th row); upstream
lowering refused MaxPools with unequal pads; and AveragePools whose last window passes the
padded input divided by the whole window, not by the cells onnxruntime counts (a quarter of
random ceil-mode AveragePools wrong, up to every output). With `auto_pad`, `ceil_mode`
under VALID went the same way, and an AveragePool under SAME_UPPER whose pads are odd
counted its windows wrong.

Each such pool is rewritten into the same function with explicit pads and without
`ceil_mode`: SAME pads are the spec's (`ceil(size / stride)` windows, the odd cell at the
end for SAME_UPPER, at the start for SAME_LOWER), VALID's none, and the trailing pads grow
until rounding down gives the spec's size. A MaxPool is then done: its pads are
never the maximum. An AveragePool counts every padded cell (`count_include_pad = 1`, so it
divides each window's sum by the whole window) and a Mul by constant factors (the window's
size over the cells onnxruntime divides by: those inside the input, or inside the input and
its pads with `count_include_pad`) gives each window its own divisor; the Mul is left out
where every factor is 1. With dilations, SAME pads follow the spec (the dilated window);
onnxruntime 1.32 pads for the undilated one and gives other sizes (a kernel of 4, dilation 2
and stride 2 over 8 rows: 2 windows, where the spec and onnx's reference evaluator say 4).
"""

from __future__ import annotations

import math
from typing import Any, cast

from heterolayout.frontends.errors import FrontendError
from heterolayout.frontends.graph_edits import (
    FreshNames,
    attributes,
    auto_pad,
    drop_value_info,
    element_of,
    insert_after,
    is_onnx_op,
    same_split,
    set_attribute,
    shape_of,
)

POOLS = ("MaxPool", "AveragePool")


def pools_to_rewrite(graph: Any) -> list[Any]:
    """The graph's pools with `ceil_mode = 1` or SAME pads, in graph order."""
    return [node for node in graph.node if _to_rewrite(node)]


def rewrite_first(model: Any, inferred: Any) -> None:
    """Rewrite the first such pool of `model` in place, its input's shape read off the
    shape-inferred copy `inferred` (whose shapes after that pool may still be wrong: one
    pool at a time, the caller inferring again between them)."""
    import numpy as np
    import onnx

    graph = model.graph
    node = pools_to_rewrite(graph)[0]
    source = shape_of(inferred, node.input[0])
    given = attributes(node)
    spatial = len(source) - 2 if source is not None else 0
    kernel = list(given.get("kernel_shape", []))
    if source is None or None in source or spatial < 1 or len(kernel) != spatial:
        raise FrontendError(
            f"{node.op_type} {node.name!r} ({_why(given)}): its input's shape is not "
            "known before import, and the pool is rewritten with explicit pads from it"
        )
    sizes = cast(list[int], source[2:])
    strides = list(given.get("strides", [1] * spatial))
    dilations = list(given.get("dilations", [1] * spatial))
    spans = [d * (k - 1) + 1 for k, d in zip(kernel, dilations, strict=True)]
    padding = auto_pad(given)
    if padding.startswith("SAME"):
        outputs = [-(-size // stride) for size, stride in zip(sizes, strides, strict=True)]
        pads = _same_pads(sizes, spans, strides, outputs, upper=padding == "SAME_UPPER")
    else:
        pads = (
            list(given.get("pads", [0] * 2 * spatial)) if padding == "NOTSET" else [0] * 2 * spatial
        )
        outputs = [
            ceil_output_size(
                sizes[i], kernel[i], strides[i], dilations[i], pads[i], pads[spatial + i]
            )
            for i in range(spatial)
        ]
    grown = [
        max(pads[spatial + i], (outputs[i] - 1) * strides[i] + spans[i] - sizes[i] - pads[i])
        for i in range(spatial)
    ]
    set_attribute(node, "ceil_mode", 0)
    set_attribute(node, "auto_pad", "NOTSET")
    set_attribute(node, "pads", pads[:spatial] + grown)
    drop_value_info(graph, node.output[0])
    if node.op_type == "MaxPool":
        return
    inside = bool(given.get("count_include_pad", 0))
    counts = [
        np.array(
            [
                _cells(
                    o,
                    sizes[i],
                    kernel[i],
                    strides[i],
                    dilations[i],
                    pads[i],
                    pads[spatial + i],
                    inside,
                )
                for o in range(outputs[i])
            ],
            np.float64,
        )
        for i in range(spatial)
    ]
    divisor = counts[0]
    for count in counts[1:]:
        divisor = np.multiply.outer(divisor, count)
    if (divisor == 0).any():
        raise FrontendError(
            f"AveragePool {node.name!r} ({_why(given)}): a window holds no input cell "
            "(its pads are wider than its kernel)"
        )
    set_attribute(node, "count_include_pad", 1)
    factors = math.prod(kernel) / divisor
    if (factors == 1).all():
        return
    names = FreshNames(graph)
    pooled, scale = names.new(f"{node.output[0]}_pooled"), names.new(f"{node.output[0]}_scale")
    element = element_of(inferred, node.input[0])
    array = factors.reshape(1, 1, *outputs).astype(onnx.helper.tensor_dtype_to_np_dtype(element))
    graph.initializer.append(onnx.numpy_helper.from_array(array, scale))
    multiply = onnx.helper.make_node(
        "Mul", [pooled, scale], [node.output[0]], name=names.new(f"{node.name}_scale")
    )
    node.output[0] = pooled
    insert_after(graph, node, multiply)


def _to_rewrite(node: Any) -> bool:
    if not is_onnx_op(node, *POOLS):
        return False
    given = attributes(node)
    return bool(given.get("ceil_mode", 0)) or auto_pad(given).startswith("SAME")


def _why(given: dict[str, Any]) -> str:
    padding = auto_pad(given)
    if padding.startswith("SAME"):
        return f"auto_pad = {padding}"
    return "ceil_mode = 1" + (f", auto_pad = {padding}" if padding != "NOTSET" else "")


def _same_pads(
    sizes: list[int], spans: list[int], strides: list[int], outputs: list[int], upper: bool
) -> list[int]:
    """SAME pads for `outputs` windows (`ceil(size / stride)`), the odd cell at the end
    (SAME_UPPER) or at the start (SAME_LOWER)."""
    before, after = [], []
    for size, span, stride, out in zip(sizes, spans, strides, outputs, strict=True):
        first, last = same_split(max(0, (out - 1) * stride + span - size), upper)
        before.append(first)
        after.append(last)
    return before + after


def ceil_output_size(
    size: int, kernel: int, stride: int, dilation: int, before: int, after: int
) -> int:
    """The spec's size with `ceil_mode`: rounded up, less a last window that would start in
    the padding."""
    span = dilation * (kernel - 1) + 1
    out = math.ceil((size + before + after - span) / stride) + 1
    if (out - 1) * stride >= size + before:
        out -= 1
    return out


def _cells(
    index: int,
    size: int,
    kernel: int,
    stride: int,
    dilation: int,
    before: int,
    after: int,
    inside_pads: bool,
) -> int:
    """Cells of window `index` that onnxruntime divides by: inside the input, or inside
    the input and its declared pads."""
    low, high = (-before, size + after) if inside_pads else (0, size)
    start = index * stride - before
    return sum(1 for j in range(kernel) if low <= start + j * dilation < high)
