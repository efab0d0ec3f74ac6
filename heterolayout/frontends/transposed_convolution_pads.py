"""ConvTransposes with uneven pads, rewritten with even pads and a Slice.

torch-mlir's ONNX lowering of ConvTranspose takes one pad per spatial dim, the same at both
ends. Uneven pads failed upstream ("failed to legalize operation 'torch.operator'"). They
come three ways:

- explicit ones, as tf2onnx writes a Keras `padding='same'` stride-2 transposed
  convolution (`pads = [0, 0, 1, 1]`);
- `auto_pad = SAME_UPPER / SAME_LOWER` whose total padding is odd (a 3×3 kernel of
  stride 2);
- an `output_shape` that asks for them.

A transposed convolution's pads only crop its full output: each output element is the same
sum of products whatever the pads. So each such node is rewritten with the smaller pad of
each dim at both ends, and a Slice crops the rest. The pads are the spec's:

- SAME's output is `input · stride`;
- `output_shape` gives the size;
- the total is the full size less it; SAME_UPPER puts the odd cell at the end, otherwise
  it goes at the start (onnxruntime 1.32 agrees in every case checked:
  tests/frontends/test_transposed_convolution_pads.py).

A total that is negative is refused in one line naming the node: the output would reach
past the full one (SAME with a kernel shorter than its stride, or a larger
`output_shape`).
"""

from __future__ import annotations

from typing import Any, cast

from heterolayout.frontends.errors import FrontendError
from heterolayout.frontends.graph_edits import (
    FreshNames,
    attributes,
    auto_pad,
    default_opset,
    drop_value_info,
    insert_after,
    is_onnx_op,
    kernel_of,
    remove_attributes,
    same_split,
    set_attribute,
    shape_of,
)


def transposed_to_rewrite(graph: Any) -> list[Any]:
    """The graph's ConvTransposes with `auto_pad` SAME, an `output_shape`, or uneven
    explicit pads, in graph order."""
    return [node for node in graph.node if _to_rewrite(node)]


def rewrite_first_transposed(model: Any, inferred: Any) -> None:
    """Rewrite the first such ConvTranspose of `model` in place, its input's shape read off
    the shape-inferred copy `inferred` (one at a time, the caller inferring again between
    them)."""
    import numpy as np
    import onnx

    graph = model.graph
    node = transposed_to_rewrite(graph)[0]
    given = attributes(node)
    source = shape_of(inferred, node.input[0])
    kernel = kernel_of(node, inferred)
    spatial = len(source) - 2 if source is not None else 0
    if source is None or None in source or spatial < 1 or len(kernel) != spatial:
        raise FrontendError(
            f"ConvTranspose {node.name!r} ({_why(given)}): its input's shape and its "
            "kernel's must be known before import to write its pads"
        )
    if None in kernel:
        raise FrontendError(
            f"ConvTranspose {node.name!r} ({_why(given)}): its kernel's shape must be known "
            "before import to write its pads"
        )
    if default_opset(model) < MIN_OPSET:
        raise FrontendError(
            f"ConvTranspose {node.name!r} ({_why(given)}): the model's opset is "
            f"{default_opset(model)}; ConvTranspose is imported from opset {MIN_OPSET}"
        )
    sizes = cast(list[int], source[2:])
    full = _full_sizes(given, sizes, cast(list[int], kernel), spatial)
    before, after = _pads(given, sizes, full)
    if min(before + after) < 0:
        raise FrontendError(
            f"ConvTranspose {node.name!r} ({_why(given)}): its output reaches past the full "
            f"transposed convolution (pads {before + after}); negative pads are not imported"
        )
    even = [min(b, a) for b, a in zip(before, after, strict=True)]
    outputs = [f - b - a for f, b, a in zip(full, before, after, strict=True)]
    remove_attributes(node, "auto_pad", "output_shape")
    set_attribute(node, "pads", even + even)
    drop_value_info(graph, node.output[0])
    if before == after:
        return
    names = FreshNames(graph)
    uncropped = names.new(f"{node.output[0]}_uncropped")
    starts = [b - e for b, e in zip(before, even, strict=True)]
    ends = [s + o for s, o in zip(starts, outputs, strict=True)]
    axes = list(range(2, 2 + spatial))
    inputs = [uncropped]
    for role, values in (("starts", starts), ("ends", ends), ("axes", axes)):
        inputs.append(names.new(f"{node.output[0]}_{role}"))
        graph.initializer.append(
            onnx.numpy_helper.from_array(np.array(values, np.int64), inputs[-1])
        )
    crop = onnx.helper.make_node(
        "Slice", inputs, [node.output[0]], name=names.new(f"{node.name}_crop")
    )
    node.output[0] = uncropped
    insert_after(graph, node, crop)


MIN_OPSET = 11
"""The opset from which torch-mlir lowers ConvTranspose (and Slice takes its bounds as
inputs)."""


def _to_rewrite(node: Any) -> bool:
    if not is_onnx_op(node, "ConvTranspose"):
        return False
    given = attributes(node)
    if auto_pad(given) != "NOTSET" or "output_shape" in given:
        return True
    pads = list(given.get("pads", []))
    half = len(pads) // 2
    return pads[:half] != pads[half:]


def _why(given: dict[str, Any]) -> str:
    if auto_pad(given) != "NOTSET":
        return f"auto_pad = {auto_pad(given)}"
    if "output_shape" in given:
        return f"output_shape = {list(given['output_shape'])}"
    return f"pads = {list(given.get('pads', []))}"


def _full_sizes(
    given: dict[str, Any], sizes: list[int], kernel: list[int], spatial: int
) -> list[int]:
    """The output's size along each spatial dim without pads."""
    strides = list(given.get("strides", [1] * spatial))
    dilations = list(given.get("dilations", [1] * spatial))
    extra = list(given.get("output_padding", [0] * spatial))
    return [
        strides[i] * (sizes[i] - 1) + extra[i] + dilations[i] * (kernel[i] - 1) + 1
        for i in range(spatial)
    ]


def _pads(given: dict[str, Any], sizes: list[int], full: list[int]) -> tuple[list[int], list[int]]:
    """The spec's leading and trailing pads of an output whose unpadded size is `full`."""
    spatial = len(sizes)
    padding = auto_pad(given)
    if padding == "VALID":
        return [0] * spatial, [0] * spatial
    if padding == "NOTSET" and "output_shape" not in given:
        pads = list(given.get("pads", [0] * 2 * spatial))
        return pads[:spatial], pads[spatial:]
    strides = list(given.get("strides", [1] * spatial))
    wanted = list(given.get("output_shape", []))[-spatial:] or [
        size * stride for size, stride in zip(sizes, strides, strict=True)
    ]
    before, after = [], []
    for size, out in zip(full, wanted, strict=True):
        first, last = same_split(size - out, padding == "SAME_UPPER")
        before.append(first)
        after.append(last)
    return before, after
