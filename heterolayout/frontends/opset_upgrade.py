"""Models of an older opset, converted to opset 17 before import.

torch-mlir's ONNX lowering registers each op from some opset on, and many from later ones
than the exporters of their day wrote: BatchNormalization from opset 15 (so a ResNet of
opset 13 was refused with "failed to legalize operation 'torch.operator'"), ConvTranspose
from 11. ONNX's own version converter rewrites a model's ops into a newer opset, and IREE's
importer offers it (`iree-import-onnx --opset-version N`). Opset 17 is where every op of the
models checked here lowers (tests/onnx_models.py writes it). A model of opset 17 or later is
imported as it is; an older one as converted. When the converter cannot convert a model (an
op it has no adapter for), the model is imported as it was written, and upstream's lowering
has the last word.

Two of the converter's adaptations change the meaning, checked against onnxruntime on the
model as written (tests/frontends/test_opset_upgrade.py), and are made right here: a
Hardmax before opset 13 reads its input flattened to 2-D at its axis, which the converter
keeps as a Hardmax over the one axis (`_flattened_hardmaxes`); an Upsample or a Resize of
opset 10 becomes a Resize with opset 11's default `half_pixel` coordinates, where they map
`x / scale` (`_keep_asymmetric_coordinates`).
"""

from __future__ import annotations

from typing import Any

from heterolayout.frontends.errors import FrontendError
from heterolayout.frontends.graph_edits import (
    FreshNames,
    attributes,
    constant_value,
    default_opset,
    is_onnx_op,
    rewrite_nodes,
    set_attribute,
    text,
)

IMPORTED_OPSET = 17
"""The opset older models are converted to."""


ASYMMETRIC_RESIZES = ("Upsample", "Resize")
"""Ops that map output to input coordinates as `x / scale` before opset 11 (Upsample, and
Resize of opset 10), as Resize of opset 11 on does only with `coordinate_transformation_mode
= asymmetric`; the converter leaves its default, `half_pixel`."""


def upgraded(model: Any) -> Any:
    """`model` in opset `IMPORTED_OPSET` when it is older and the converter can convert it,
    else `model` itself."""
    from onnx import version_converter

    opset = default_opset(model)
    if not 0 < opset < IMPORTED_OPSET:
        return model
    source = _flattened_hardmaxes(model) if opset < 13 else model
    try:
        converted = version_converter.convert_version(source, IMPORTED_OPSET)
    except Exception:  # the converter's ConvertError, RuntimeError and its assertions
        return model
    if opset < 11:
        _keep_asymmetric_coordinates(model, converted)
    return converted


def _flattened_hardmaxes(model: Any) -> Any:
    """A copy of `model` whose Hardmaxes are written out as they read before opset 13: the
    input flattened to 2-D at `axis`, the maximum over each row, the result reshaped back
    (the converter adapts Softmax and LogSoftmax so, not Hardmax)."""
    import onnx

    if not any(_is_hardmax(node) for node in model.graph.node):
        return model
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    names = FreshNames(copy.graph)

    def flattened(node: Any) -> list[Any] | None:
        if not _is_hardmax(node):
            return None
        axis = int(attributes(node).get("axis", 1))
        base = node.name or node.output[0]
        flat, rows, shape = (
            names.new(f"{node.output[0]}_{part}") for part in ("2d", "max", "shape")
        )
        make = onnx.helper.make_node
        return [
            make("Flatten", [node.input[0]], [flat], axis=axis, name=names.new(f"{base}_flatten")),
            make("Hardmax", [flat], [rows], axis=1, name=node.name),
            make("Shape", [node.input[0]], [shape], name=names.new(f"{base}_shape")),
            make("Reshape", [rows, shape], [node.output[0]], name=names.new(f"{base}_reshape")),
        ]

    rewrite_nodes(copy.graph, flattened)
    return copy


def _is_hardmax(node: Any) -> bool:
    return is_onnx_op(node, "Hardmax")


def _keep_asymmetric_coordinates(original: Any, converted: Any) -> None:
    """Give each Resize the converter made of an Upsample or an opset-10 Resize the
    coordinates and the nearest rounding onnxruntime gives those: `x / scale`, rounded down
    along a dim that grows and up along one that shrinks (`_nearest_mode`)."""
    old = {
        node.output[0]: node
        for node in original.graph.node
        if is_onnx_op(node, *ASYMMETRIC_RESIZES)
    }
    for node in converted.graph.node:
        if node.op_type == "Resize" and node.output[0] in old:
            set_attribute(node, "coordinate_transformation_mode", "asymmetric")
            set_attribute(node, "nearest_mode", _nearest_mode(original, old[node.output[0]]))


def _nearest_mode(model: Any, node: Any) -> str:
    """`floor` where every scaled dim grows (Upsample's scales are at least 1), `ceil` where
    every one shrinks; FrontendError for a nearest Resize whose dims do both or whose scales
    are not constants."""
    if text(attributes(node).get("mode", b"nearest")) != "nearest" or node.op_type == "Upsample":
        return "floor"
    scales = constant_value(model, node.input[1]) if len(node.input) > 1 else None
    if scales is None:
        raise FrontendError(
            f"Resize {node.name!r} (opset 10, nearest): its scales are not constants; "
            "onnxruntime rounds a dim that grows down and one that shrinks up"
        )
    scaled = [float(scale) for scale in scales.ravel() if scale != 1]
    if all(scale > 1 for scale in scaled):
        return "floor"
    if all(scale < 1 for scale in scaled):
        return "ceil"
    raise FrontendError(
        f"Resize {node.name!r} (opset 10, nearest): scales "
        f"[{', '.join(f'{float(v):g}' for v in scales.ravel())}] grow some dims and shrink "
        "others, which onnxruntime rounds down and up, and one Resize of opset 11 or later "
        "cannot"
    )
