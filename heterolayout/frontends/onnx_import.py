"""ONNX models to the torch dialect, with iree-base-compiler's ONNX importer (the one
`iree-import-onnx` runs; torch-mlir ships the same): one function per graph, named `main`,
its arguments the graph inputs (initializers are weights, not inputs) and its results the
graph outputs, in graph order, each carrying its graph name (`GRAPH_INPUT`, `GRAPH_OUTPUT`).

Shapes must be static: a symbolic dim (a batch size `N`) is given a size by `dims`
(`layout-import --dim N=1`), then ONNX's shape inference types every value, as the importer
needs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from heterolayout.dialects.functions import GRAPH_INPUT, GRAPH_OUTPUT
from heterolayout.frontends.depth_to_space import crd_nodes, write_out_crd
from heterolayout.frontends.errors import ONNX_EXTRA, FrontendError, MissingFrontend
from heterolayout.frontends.graph_edits import DEFAULT_DOMAINS
from heterolayout.frontends.group_normalization import group_normalizations, per_channel
from heterolayout.frontends.nan_extrema import has_extrema, keep_nans
from heterolayout.frontends.opset_upgrade import upgraded
from heterolayout.frontends.pads_before_transposed_convolutions import (
    move_pads_past_transposed_convolutions,
)
from heterolayout.frontends.pool_windows import pools_to_rewrite, rewrite_first
from heterolayout.frontends.reciprocals import as_divisions, has_reciprocals
from heterolayout.frontends.signature import Signature, graph_names, one_line
from heterolayout.frontends.transposed_convolution_pads import (
    rewrite_first_transposed,
    transposed_to_rewrite,
)
from heterolayout.frontends.unsigned_casts import has_unsigned_casts, split_unsigned_casts
from heterolayout.frontends.valid_windows import check_valid_windows

GRAPH_REWRITES: tuple[tuple[Callable[[Any], object], Callable[[Any, Any], None]], ...] = (
    (crd_nodes, write_out_crd),
    (group_normalizations, per_channel),
    (has_unsigned_casts, split_unsigned_casts),
    (has_reciprocals, as_divisions),
    (has_extrema, keep_nans),
)
"""Rewrites of ONNX nodes torch-mlir lowers wrong, each with what says the graph has one:
run in order on the model, its shapes (the shape-inferred copy) inferred again after each."""


def require_onnx() -> Any:
    """The `onnx` package, or MissingFrontend saying what to install."""
    try:
        import onnx
    except ImportError:
        raise MissingFrontend(
            f"importing ONNX models needs the onnx package: {ONNX_EXTRA}"
        ) from None
    return onnx


def _require_importer() -> tuple[Any, Any]:
    """iree-base-compiler's ONNX importer and its MLIR bindings."""
    try:
        from iree.compiler import ir
        from iree.compiler.extras import onnx_importer
    except ImportError:
        raise MissingFrontend(
            f"importing ONNX models needs iree-base-compiler: {ONNX_EXTRA}"
        ) from None
    return onnx_importer, ir


def load_model(model: str | os.PathLike[str] | Any) -> Any:
    """An ONNX ModelProto from a file (its external data beside it) or as given."""
    onnx = require_onnx()
    if isinstance(model, onnx.ModelProto):
        return model
    path = Path(model)
    if not path.is_file():
        raise FrontendError(f"{path}: no such model file")
    try:
        return onnx.load(str(path))
    except Exception as error:  # protobuf's DecodeError and onnx's own, as one line
        raise FrontendError(f"{path}: not an ONNX model ({one_line(error)})") from None


def with_static_shapes(model: Any, dims: Mapping[str, int]) -> Any:
    """A copy of the model whose symbolic dims named in `dims` have those sizes, its pools
    with `ceil_mode` or SAME pads rewritten with explicit ones (`pool_windows`), its
    ConvTransposes with uneven pads with even ones and a Slice (`transposed_convolution_pads`),
    its CRD DepthToSpaces written out as the spec's reshapes (`depth_to_space`), its
    GroupNormalizations given per-channel scale and bias and a typed output
    (`group_normalization`), its casts from floats to uint8 made through int32
    (`unsigned_casts`), its Reciprocals written as a Div of one (`reciprocals`), every value
    typed by ONNX's shape inference; FrontendError for a graph input or output left with a
    dim of unknown size, or a VALID window longer than its input (`valid_windows`)."""
    onnx = require_onnx()
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    graph = copy.graph
    used: set[str] = set()
    for value in (*graph.input, *graph.output, *graph.value_info):
        for dim in value.type.tensor_type.shape.dim:
            if dim.HasField("dim_param") and dim.dim_param in dims:
                used.add(dim.dim_param)
                dim.dim_value = dims[dim.dim_param]
    symbols = {
        dim.dim_param
        for value in (*graph.input, *graph.output)
        for dim in value.type.tensor_type.shape.dim
        if dim.HasField("dim_param")
    }
    unused = sorted(set(dims) - used)
    if unused:
        raise FrontendError(f"--dim {unused[0]}: the graph's inputs and outputs have no such dim")
    inferred = _inferred(onnx, copy)
    for _ in pools_to_rewrite(graph):
        rewrite_first(copy, inferred)
        inferred = _inferred(onnx, copy)
    for _ in transposed_to_rewrite(graph):
        rewrite_first_transposed(copy, inferred)
        inferred = _inferred(onnx, copy)
    for present, rewrite in GRAPH_REWRITES:
        if present(graph):
            rewrite(copy, inferred)
            inferred = _inferred(onnx, copy)
    check_valid_windows(inferred)
    initializers = {i.name for i in inferred.graph.initializer}
    unknown = _unknown_ops(onnx, inferred)
    for role, values in (("input", inferred.graph.input), ("output", inferred.graph.output)):
        for value in values:
            if value.name not in initializers:
                _check_static(value, role, symbols, unknown)
    return inferred


def _unknown_ops(onnx: Any, model: Any) -> list[Any]:
    """The nodes whose op neither ONNX nor the model's own functions define: shape inference
    types nothing after them."""
    local = {(f.domain, f.name) for f in model.functions}
    return [
        node
        for node in model.graph.node
        if (node.domain, node.op_type) not in local
        and not onnx.defs.has(node.op_type, "" if node.domain in DEFAULT_DOMAINS else node.domain)
    ]


def _inferred(onnx: Any, model: Any) -> Any:
    try:
        return onnx.shape_inference.infer_shapes(model, data_prop=True)
    except Exception as error:
        raise FrontendError(f"ONNX shape inference failed: {one_line(error)}") from None


def _check_static(value: Any, role: str, symbols: set[str], unknown: list[Any]) -> None:
    """A graph input or output of static shape; else a line saying how to give a symbolic
    dim of the model (`symbols`) its size, or naming the first op shape inference does not
    know (`unknown`) when the value has no shape."""
    if not value.type.HasField("tensor_type"):
        raise FrontendError(f"graph {role} '{value.name}' is not a tensor")
    shape = value.type.tensor_type.shape
    if not value.type.tensor_type.HasField("shape"):
        why = ""
        if unknown:
            node = unknown[0]
            op = f"{node.domain}.{node.op_type}" if node.domain else node.op_type
            why = f" (ONNX's shape inference does not know op {op} of node {node.name!r})"
        raise FrontendError(f"graph {role} '{value.name}' has no known rank{why}")
    for index, dim in enumerate(shape.dim):
        if dim.HasField("dim_value"):
            continue
        if dim.HasField("dim_param") and dim.dim_param in symbols:
            raise FrontendError(
                f"graph {role} '{value.name}' has the symbolic dim '{dim.dim_param}' "
                f"(dim {index}): give it a size (layout-import --dim {dim.dim_param}=SIZE, "
                f"import_model(dims={{'{dim.dim_param}': SIZE}}))"
            )
        raise FrontendError(
            f"graph {role} '{value.name}' has a dim whose size is known only at run time "
            f"(dim {index}): heterolayout runs static shapes"
        )


def import_onnx(
    model: str | os.PathLike[str] | Any, dims: Mapping[str, int], destination: Path
) -> Signature:
    """Write the model's graph as a torch-dialect module (MLIR bytecode) to `destination`
    (a model older than opset 17 converted to it first: `opset_upgrade`)."""
    onnx_importer, ir = _require_importer()
    proto = with_static_shapes(
        move_pads_past_transposed_convolutions(upgraded(load_model(model))), dims
    )
    try:
        info = onnx_importer.ModelInfo(proto)
        context = ir.Context()
        module = info.create_module(context=context).operation
        onnx_importer.NodeImporter.define_function(info.main_graph, module).import_all()
    except Exception as error:  # the importer's OnnxImportError and its assertions
        raise FrontendError(f"the ONNX importer refused the model: {one_line(error)}") from None
    signature = Signature(
        tuple(info.main_graph.input_map), tuple(o.name for o in proto.graph.output)
    )
    with context:
        function = module.regions[0].blocks[0].operations[0]
        function.attributes["sym_name"] = ir.StringAttr.get("main")
        unsigned = _unsigned_values(proto)
        function.attributes["arg_attrs"] = graph_names(ir, GRAPH_INPUT, signature.inputs, unsigned)
        function.attributes["res_attrs"] = graph_names(
            ir, GRAPH_OUTPUT, signature.outputs, unsigned
        )
        try:
            module.verify()
        except Exception as error:
            raise FrontendError(f"the imported module is not valid: {one_line(error)}") from None
        with open(destination, "wb") as stream:
            module.write_bytecode(stream)
    return signature


UNSIGNED_ELEMENTS = frozenset({2, 4, 12, 13})
"""ONNX's UINT8, UINT16, UINT32 and UINT64."""


def _unsigned_values(model: Any) -> frozenset[str]:
    """The graph inputs and outputs of unsigned integer element types."""
    return frozenset(
        value.name
        for value in (*model.graph.input, *model.graph.output)
        if value.type.tensor_type.elem_type in UNSIGNED_ELEMENTS
    )
