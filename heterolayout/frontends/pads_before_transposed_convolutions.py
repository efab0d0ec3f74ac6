"""Zero Pads before strided ConvTransposes, moved to the convolution's output.

torch-mlir writes a ConvTranspose of stride s as a convolution of a zero-stuffed image: its
input inserted, with stride s, into a buffer filled with zeros. When that input is a
zero `Pad`, upstream canonicalization (`FoldInsertPadIntoFill`) inserts the Pad's input
instead and adds the Pad's leading pads to the offsets without multiplying them by the
stride: the image lands `(s − 1) · pad` rows early and the results are wrong (a Pad of 2 rows
before a ConvTranspose of stride 2: every output wrong). Before import such a pair is
rewritten into the same function without the Pad in front: zero input rows contribute no
products, so a Pad of `p` leading rows only shifts the ConvTranspose's full output by `s · p`
rows, which its pads crop (`pads − s · p`, and so for the trailing ones); where that is
negative the convolution's output is padded instead, and the bias, which the padded rows
still receive, is added after that pad. A pair the rewrite cannot express (ConvTranspose with
`auto_pad` or `output_shape`, a Pad of its batch or channel dims, pads or a pad value known
only at run time) is refused with the two nodes named, never imported wrong.

Whatever the frontend, the torch-dialect module is checked before it is lowered
(`check_torch_module`): a `constant_pad_nd` with a leading spatial pad into a strided
transposed `aten.convolution` that is still there (a PyTorch program's `F.pad` before a
`ConvTranspose2d`) is refused, one line, rather than lowered wrong.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from heterolayout.frontends.errors import FrontendError
from heterolayout.frontends.graph_edits import (
    FreshNames,
    attributes,
    auto_pad,
    default_opset,
    set_attribute,
    text,
)

MIN_OPSET = 11
"""The opset whose Pad and Slice take their pads and bounds as inputs."""


def move_pads_past_transposed_convolutions(model: Any) -> Any:
    """The model with each zero Pad whose leading spatial pads feed a strided ConvTranspose
    moved to that ConvTranspose's output (the model itself when there is none)."""
    import onnx

    found = _pairs(model.graph)
    if not found:
        return model
    opset = default_opset(model)
    if opset < MIN_OPSET:
        pad, convolution = found[0]
        raise FrontendError(
            f"Pad {pad.name!r} before ConvTranspose {convolution.name!r}: upstream lowering "
            "misplaces a zero-padded input of a strided transposed convolution, and moving "
            f"the Pad to its output needs opset {MIN_OPSET} (the model has {opset})"
        )
    rewritten = onnx.ModelProto()
    rewritten.CopyFrom(model)
    graph = rewritten.graph
    constants = _Constants(graph)
    names = FreshNames(graph)
    pairs = _pairs(graph)
    for pad, convolution in pairs:
        _rewrite(graph, pad, convolution, constants, names)
    _drop_unread(graph, [pad for pad, _ in pairs])
    return rewritten


class _Constants:
    """The graph's initializers as arrays, each converted when first asked for (a model's
    weights are not copied to find its Pads)."""

    def __init__(self, graph: Any) -> None:
        self.tensors = {i.name: i for i in graph.initializer}
        self.arrays: dict[str, Any] = {}

    def __contains__(self, name: str) -> bool:
        return name in self.tensors

    def __iter__(self) -> Iterator[str]:
        return iter(self.tensors)

    def __getitem__(self, name: str) -> Any:
        import onnx

        if name not in self.arrays:
            self.arrays[name] = onnx.numpy_helper.to_array(self.tensors[name])
        return self.arrays[name]

    def get(self, name: str) -> Any:
        return self[name] if name in self.tensors else None


def _pairs(graph: Any) -> list[tuple[Any, Any]]:
    """(Pad, ConvTranspose) pairs that upstream would lower wrong (through Identities,
    which it drops)."""
    producers = {o: n for n in graph.node for o in n.output}
    constants = _Constants(graph)
    pairs = []
    for node in graph.node:
        if node.op_type != "ConvTranspose" or not node.input:
            continue
        pad = producers.get(node.input[0])
        while pad is not None and pad.op_type == "Identity":
            pad = producers.get(pad.input[0])
        if pad is not None and pad.op_type == "Pad" and _misplaced(pad, node, constants):
            pairs.append((pad, node))
    return pairs


def _spatial(convolution: Any, constants: _Constants) -> int:
    """The ConvTranspose's spatial dims: from its per-dim attributes, else its weights."""
    given = attributes(convolution)
    for name in ("kernel_shape", "strides", "dilations", "output_padding"):
        if name in given:
            return len(given[name])
    if "pads" in given:
        return len(given["pads"]) // 2
    weights = constants.get(convolution.input[1]) if len(convolution.input) > 1 else None
    if weights is None:
        raise FrontendError(
            f"ConvTranspose {convolution.name!r}: give kernel_shape or constant weights"
        )
    return int(weights.ndim) - 2


def _strides(convolution: Any, spatial: int) -> list[int]:
    return list(attributes(convolution).get("strides", [1] * spatial))


def _pads_of(pad: Any, rank: int, constants: _Constants, where: str) -> list[int] | None:
    """The Pad's begin-then-end pads over all `rank` dims; None when they are not constants."""
    given = attributes(pad)
    if len(pad.input) > 1 and pad.input[1]:
        if pad.input[1] not in constants:
            return None
        values = [int(v) for v in constants[pad.input[1]].reshape(-1)]
    else:
        values = [int(v) for v in given.get("pads", [])]
    if len(pad.input) > 3 and pad.input[3]:
        if pad.input[3] not in constants:
            return None
        axes = [int(a) % rank for a in constants[pad.input[3]].reshape(-1)]
        full = [0] * (2 * rank)
        for position, axis in enumerate(axes):
            full[axis] = values[position]
            full[rank + axis] = values[len(axes) + position]
        values = full
    if len(values) != 2 * rank:
        raise FrontendError(f"{where}: {len(values)} pads for a tensor of rank {rank}")
    return values


def _zero_value(pad: Any, constants: _Constants) -> bool | None:
    """Whether the Pad pads with zeros (None: its value is known only at run time)."""
    given = attributes(pad)
    if text(given.get("mode", b"constant")) != "constant":
        return False
    if len(pad.input) > 2 and pad.input[2]:
        if pad.input[2] not in constants:
            return None
        return bool((constants[pad.input[2]] == 0).all())
    return float(given.get("value", 0.0)) == 0.0


def _misplaced(pad: Any, convolution: Any, constants: _Constants) -> bool:
    """Whether upstream would place the padded image wrong: a zero Pad with a leading pad
    in a spatial dim the ConvTranspose strides by more than 1 (FrontendError when the pair
    may be and the rewrite cannot express it)."""
    spatial = _spatial(convolution, constants)
    rank = spatial + 2
    where = f"Pad {pad.name!r} before ConvTranspose {convolution.name!r}"
    pads = _pads_of(pad, rank, constants, where)
    zero = _zero_value(pad, constants)
    strides = _strides(convolution, spatial)
    if zero is False:
        return False
    if pads is not None and not any(pads[2 + i] > 0 and strides[i] > 1 for i in range(spatial)):
        return False
    given = attributes(convolution)
    why = None
    if pads is None or zero is None:
        why = "its pads or its pad value are known only at run time"
    elif any(pads[d] or pads[rank + d] for d in (0, 1)):
        why = "it pads the batch or channel dims"
    elif auto_pad(given) != "NOTSET":
        why = "the ConvTranspose has auto_pad"
    elif "output_shape" in given:
        why = "the ConvTranspose has output_shape"
    if why is not None:
        raise FrontendError(
            f"{where}: upstream lowering misplaces a zero-padded input of a strided "
            f"transposed convolution, and {why}, so the Pad cannot be moved to its output"
        )
    return True


def _rewrite(
    graph: Any,
    pad: Any,
    convolution: Any,
    constants: _Constants,
    names: FreshNames,
) -> None:
    import numpy as np
    import onnx

    spatial = _spatial(convolution, constants)
    rank = spatial + 2
    pads = _pads_of(pad, rank, constants, "")
    assert pads is not None
    strides = _strides(convolution, spatial)
    kept = list(attributes(convolution).get("pads", [0] * (2 * spatial)))
    leading = [kept[i] - strides[i] * pads[2 + i] for i in range(spatial)]
    trailing = [kept[spatial + i] - strides[i] * pads[rank + 2 + i] for i in range(spatial)]
    inputs = list(convolution.input)
    inputs[0] = pad.input[0]
    bias = inputs[2] if len(inputs) > 2 and inputs[2] else None
    crops = [max(0, min(first, last)) for first, last in zip(leading, trailing, strict=True)]
    set_attribute(convolution, "pads", crops * 2)
    first = [c - p for c, p in zip(crops, leading, strict=True)]
    last = [c - p for c, p in zip(crops, trailing, strict=True)]
    del convolution.input[:]
    if not any([*first, *last]):
        convolution.input.extend(inputs)
        return
    grows = any(w > 0 for w in [*first, *last])
    convolution.input.extend(inputs[:2] if grows else inputs)
    output = convolution.output[0]
    value = names.new(f"{output}_uncropped")
    convolution.output[0] = value
    added = []
    axes = [2 + i for i in range(spatial) if first[i] < 0 or last[i] < 0]
    if axes:
        bounds = [
            [-first[a - 2] if first[a - 2] < 0 else 0 for a in axes],
            [last[a - 2] if last[a - 2] < 0 else _END for a in axes],
            axes,
        ]
        inputs_of_slice = [value]
        for role, numbers in zip(("starts", "ends", "axes"), bounds, strict=True):
            inputs_of_slice.append(names.new(f"{output}_{role}"))
            graph.initializer.append(
                onnx.numpy_helper.from_array(np.array(numbers, np.int64), inputs_of_slice[-1])
            )
        value_out = output if not grows else names.new(f"{output}_cropped")
        added.append(onnx.helper.make_node("Slice", inputs_of_slice, [value_out]))
        value = value_out
    padded = output
    if grows:
        padded = output if bias is None else names.new(f"{output}_padded")
        widths = [0, 0, *(max(w, 0) for w in first), 0, 0, *(max(w, 0) for w in last)]
        pads_name = names.new(f"{output}_pads")
        graph.initializer.append(
            onnx.numpy_helper.from_array(np.array(widths, np.int64), pads_name)
        )
        added.append(onnx.helper.make_node("Pad", [value, pads_name], [padded]))
    if bias is not None and grows:
        shape = names.new(f"{output}_bias_shape")
        graph.initializer.append(
            onnx.numpy_helper.from_array(np.array([1, -1] + [1] * spatial, np.int64), shape)
        )
        reshaped = names.new(f"{output}_bias")
        added.append(onnx.helper.make_node("Reshape", [bias, shape], [reshaped]))
        added.append(onnx.helper.make_node("Add", [padded, reshaped], [output]))
    position = list(graph.node).index(convolution) + 1
    for offset, node in enumerate(added):
        graph.node.insert(position + offset, node)


_END = (1 << 63) - 1
"""Slice's end for "to the end of the dim"."""


def _drop_unread(graph: Any, pads: list[Any]) -> None:
    """The moved Pads whose output nothing reads any more go."""
    read = {v for n in graph.node for v in n.input} | {o.name for o in graph.output}
    for pad in pads:
        if pad.output[0] not in read and pad in graph.node:
            graph.node.remove(pad)


_CONSTANT = re.compile(r"(%[\w.]+) = torch\.constant\.(?:int|float|bool) (\S+)")
_LIST = re.compile(r"(%[\w.]+) = torch\.prim\.ListConstruct ([^:]*?) :")
_PAD = re.compile(r"(%[\w.]+) = torch\.aten\.constant_pad_nd (%[\w.]+), (%[\w.]+), (%[\w.]+) :")
_CONVOLUTION = re.compile(
    r"torch\.aten\.convolution (%[\w.]+), %[\w.]+, %[\w.]+, (%[\w.]+), %[\w.]+, %[\w.]+, "
    r"(%[\w.]+),"
)


def check_torch_module(text: str) -> None:
    """FrontendError when a zero `constant_pad_nd` with a leading spatial pad feeds a
    transposed `aten.convolution` of stride > 1 in that dim (or one whose pads, pad value or
    strides are not constants) in a torch-dialect module's text."""
    constants = dict(_CONSTANT.findall(text))
    lists = {
        name: [v.strip() for v in items.split(",") if v.strip()]
        for name, items in _LIST.findall(text)
    }
    pads = {result: (pad_list, value) for result, _, pad_list, value in _PAD.findall(text)}
    for image, strides_list, transposed in _CONVOLUTION.findall(text):
        if image not in pads or constants.get(transposed) == "false":
            continue
        pad_list, value = pads[image]
        if _nonzero(constants.get(value)):
            continue
        widths = _ints(lists.get(pad_list), constants)
        strides = _ints(lists.get(strides_list), constants)
        if widths is not None and strides is not None:
            spatial = len(strides)
            leading = [
                widths[2 * (spatial - 1 - i)] if 2 * (spatial - 1 - i) < len(widths) else 0
                for i in range(spatial)
            ]
            if not any(p > 0 and s > 1 for p, s in zip(leading, strides, strict=True)):
                continue
        raise FrontendError(
            "a zero pad before a strided transposed convolution (constant_pad_nd into "
            "aten.convolution): upstream lowering places the padded input wrong "
            "(FoldInsertPadIntoFill ignores the stride); pad or crop the convolution's "
            "output instead"
        )


def _ints(items: list[str] | None, constants: dict[str, str]) -> list[int] | None:
    try:
        return None if items is None else [int(constants[v]) for v in items]
    except (KeyError, ValueError):
        return None


def _nonzero(number: str | None) -> bool:
    """A pad value known to be other than zero (one not known may be zero)."""
    try:
        return number is not None and float(number) != 0.0
    except ValueError:
        return False
