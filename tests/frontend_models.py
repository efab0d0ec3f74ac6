"""Small ONNX models for the frontend tests (`test_frontend_ops.py`), each with a numpy
reference, and the import commands of issue 27 that turn them into the checked-in
`tests/frontends/imported/<name>.mlir`.

A model is written here without onnx (nodes, graph inputs, weights from a generator seeded by
its name), so that a test can build it with `onnx.helper` and run it with onnxruntime where
they are installed, and compute the same graph with numpy (`numpy_reference`) where they are
not. The checked-in files are what the import commands make of the models:

    iree-import-onnx M.onnx -o M.onnx.mlir
    iree-opt --pass-pipeline='builtin.module(torch-onnx-to-torch-backend-pipeline,torch-backend-to-linalg-on-tensors-backend-pipeline)' M.onnx.mlir -o M.linalg.mlir
    mlir-opt-22 [--convert-tensor-to-linalg] --one-shot-bufferize=… --buffer-results-to-out-params=… --buffer-deallocation-pipeline --canonicalize M.linalg.mlir -o M.mlir

(`<name>.nopad.mlir`: without `--convert-tensor-to-linalg`, so `tensor.pad` becomes
`linalg.map`). `python tests/frontend_models.py` writes them again (it needs onnx,
iree-base-compiler and mlir-opt-22).
"""

from __future__ import annotations

import itertools
import math
import shutil
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

FRONTEND = Path(__file__).resolve().parent / "frontends" / "imported"

BUFFERIZE = (
    "--one-shot-bufferize=bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map",
    "--buffer-results-to-out-params=hoist-static-allocs modify-public-functions",
    "--buffer-deallocation-pipeline",
    "--canonicalize",
)
TO_LINALG = (
    "builtin.module(torch-onnx-to-torch-backend-pipeline,"
    "torch-backend-to-linalg-on-tensors-backend-pipeline)"
)


@dataclass(frozen=True)
class Node:
    op: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    attributes: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Input:
    name: str
    shape: tuple[int, ...]
    dtype: str = "float32"
    high: int = 0
    """Integer inputs (indices) are drawn from [0, high)."""


@dataclass(frozen=True)
class Model:
    name: str
    nodes: tuple[Node, ...]
    inputs: tuple[Input, ...]
    outputs: tuple[str, ...]
    weights: Callable[[np.random.Generator], dict[str, np.ndarray]]
    opset: int = 17
    variants: tuple[str, ...] = ("",)
    """"" and/or "nopad" (imported without --convert-tensor-to-linalg)."""
    ops: str = ""
    """The ONNX ops the model covers, for the file's header."""

    def initializers(self) -> dict[str, np.ndarray]:
        return self.weights(np.random.default_rng(zlib.crc32(self.name.encode())))

    def feeds(self, seed: int = 0) -> dict[str, np.ndarray]:
        rng = np.random.default_rng(seed)
        feeds = {}
        for graph_input in self.inputs:
            if graph_input.dtype == "float32":
                feeds[graph_input.name] = rng.standard_normal(graph_input.shape).astype(np.float32)
            else:
                feeds[graph_input.name] = rng.integers(
                    0, graph_input.high, graph_input.shape
                ).astype(graph_input.dtype)
        return feeds


def _n(op: str, inputs: str, outputs: str, **attributes: Any) -> Node:
    """A node; inputs separated by one space (two spaces: an omitted optional input)."""
    return Node(op, tuple(inputs.split(" ")), tuple(outputs.split(" ")), attributes)


def _f(*shape: int) -> Callable[[np.random.Generator], np.ndarray]:
    return lambda rng: rng.standard_normal(shape).astype(np.float32)


def _weights(**makers: Any) -> Callable[[np.random.Generator], dict[str, np.ndarray]]:
    """Weights in a fixed order: a maker (random) or an array (constant) per name."""

    def make(rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {k: v(rng) if callable(v) else np.asarray(v) for k, v in makers.items()}

    return make


def _i64(*values: int) -> np.ndarray:
    return np.array(values, np.int64)


def _scalar(value: float) -> np.ndarray:
    return np.array(value, np.float32)


MODELS: tuple[Model, ...] = (
    Model(
        "conv",
        (
            _n("Conv", "x w b", "c", pads=[1, 2, 1, 0], strides=[2, 1], dilations=[1, 2]),
            _n("Relu", "c", "y"),
        ),
        (Input("x", (1, 2, 7, 8)),),
        ("y",),
        _weights(w=_f(3, 2, 3, 3), b=_f(3)),
        variants=("", "nopad"),
        ops="Conv (asymmetric pads, strides, dilations, bias), Relu",
    ),
    Model(
        "mobilenet",
        (
            _n("Conv", "x dw", "d", pads=[1, 1, 1, 1], strides=[2, 2], group=4),
            _n("BatchNormalization", "d s b m v", "n"),
            _n("Clip", "n lo hi", "r"),
            _n("Conv", "r pw", "y"),
        ),
        (Input("x", (1, 4, 5, 5)),),
        ("y",),
        _weights(
            dw=_f(4, 1, 3, 3),
            s=_f(4),
            b=_f(4),
            m=_f(4),
            v=lambda rng: (np.abs(rng.standard_normal(4)) + 0.5).astype(np.float32),
            lo=_scalar(0.0),
            hi=_scalar(6.0),
            pw=_f(3, 4, 1, 1),
        ),
        ops="Conv (group=C, depthwise; 1x1), BatchNormalization, Clip (ReLU6)",
    ),
    Model(
        "pool",
        (
            _n("LRN", "x", "l", size=3),
            _n("MaxPool", "l", "a", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
            _n("AveragePool", "a", "p", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
            _n("MaxPool", "p", "q", kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
            _n("GlobalAveragePool", "q", "y"),
        ),
        (Input("x", (1, 2, 9, 9)),),
        ("q", "y"),
        _weights(),
        variants=("", "nopad"),
        ops="LRN, MaxPool (pads, ceil_mode), AveragePool (pads not counted), GlobalAveragePool",
    ),
    Model(
        "windows",
        (
            _n("Conv", "x w", "c", pads=[1, 1], strides=[2]),
            _n("MaxPool", "c", "m", kernel_shape=[2]),
            _n("Reshape", "m volume", "u"),
            _n("Conv", "u w3", "v", pads=[0, 1, 1, 0, 1, 1]),
            _n("AveragePool", "v", "y", kernel_shape=[1, 2, 2]),
        ),
        (Input("x", (1, 2, 9)),),
        ("m", "y"),
        _weights(w=_f(4, 2, 3), volume=_i64(1, 1, 4, 2, 2), w3=_f(2, 1, 2, 3, 3)),
        ops="Conv 1-D and 3-D, MaxPool 1-D, AveragePool 3-D",
    ),
    Model(
        "eltwise",
        (
            _n("Relu", "x", "a"),
            _n("Add", "a c", "b"),
            _n("Tanh", "b", "t"),
            _n("Sigmoid", "t", "s"),
            _n("Mul", "s x", "m"),
            _n("Sub", "m c", "d"),
            _n("Div", "d cp", "e"),
            _n("Abs", "e", "f"),
            _n("Sqrt", "f", "g"),
            _n("Pow", "g two", "h"),
            _n("Pow", "g half", "k"),
            _n("Exp", "t", "ex"),
            _n("Log", "s", "lg"),
            _n("Neg", "lg", "ng"),
            _n("LeakyRelu", "d", "lr", alpha=0.1),
            _n("HardSigmoid", "lr", "hs"),
            _n("HardSwish", "x", "hw"),
            _n("Max", "hs hw h", "mx"),
            _n("Min", "mx k", "mn"),
            _n("Softplus", "mn", "sp"),
            _n("Add", "sp ex", "q"),
            _n("Add", "q ng", "q2"),
            _n("Elu", "x", "el"),
            _n("Floor", "el", "fl"),
            _n("Sin", "fl", "sn"),
            _n("Less", "x zero", "lt"),
            _n("Not", "lt", "nt"),
            _n("Where", "nt q2 sn", "y"),
        ),
        (Input("x", (2, 3, 4)),),
        ("y",),
        _weights(
            c=_f(3, 4),
            cp=lambda rng: (np.abs(rng.standard_normal((3, 4))) + 1).astype(np.float32),
            two=_scalar(2.0),
            half=_scalar(1.5),
            zero=_scalar(0.0),
        ),
        ops=(
            "Relu, Add, Sub, Mul, Div (broadcast), Tanh, Sigmoid, Abs, Sqrt, Pow (integer and "
            "fractional), Exp, Log, Neg, LeakyRelu, HardSigmoid, HardSwish, Max, Min, "
            "Softplus, Elu, Floor, Sin, Less, Not, Where"
        ),
    ),
    Model(
        "matmul",
        (
            _n("MatMul", "x w", "a"),
            _n("Add", "a b", "ab"),
            _n("Relu", "ab", "r"),
            _n("Flatten", "r", "f", axis=1),
            _n("Gemm", "f w2 b2", "g", transB=1, alpha=0.5, beta=2.0),
            _n("Einsum", "x w", "e", equation="bij,jk->bik"),
            _n("MatMul", "e w3", "y1"),
            _n("Gemm", "g w4", "y2", transA=1),
        ),
        (Input("x", (2, 3, 4)),),
        ("y1", "y2"),
        _weights(w=_f(4, 5), b=_f(5), w2=_f(6, 15), b2=_f(6), w3=_f(2, 5, 3), w4=_f(2, 3)),
        ops="MatMul (2-D and batched), Gemm (transA, transB, alpha, beta), Flatten, Einsum",
    ),
    Model(
        "norm",
        (
            _n("LayerNormalization", "x s b", "l", axis=-1),
            _n("Softmax", "l", "p", axis=-1),
            _n("ReduceMean", "p", "m", axes=[1], keepdims=1),
            _n("Sub", "p m", "d"),
            _n("ReduceSum", "d ax", "rs", keepdims=1),
            _n("ReduceMax", "x", "rm", axes=[2], keepdims=1),
            _n("Add", "d rs", "e"),
            _n("Add", "e rm", "f"),
            _n("InstanceNormalization", "f si bi", "y1"),
            _n("ArgMax", "x", "y2", axis=2, keepdims=0),
        ),
        (Input("x", (2, 3, 6)),),
        ("y1", "y2"),
        _weights(s=_f(6), b=_f(6), ax=_i64(0), si=_f(3), bi=_f(3)),
        ops=(
            "LayerNormalization, Softmax, ReduceMean, ReduceSum, ReduceMax, "
            "InstanceNormalization, ArgMax"
        ),
    ),
    Model(
        "gelu",
        (
            _n("Div", "x r2", "a"),
            _n("Erf", "a", "e"),
            _n("Add", "e one", "f"),
            _n("Mul", "x f", "g"),
            _n("Mul", "g half", "h"),
            _n("Gelu", "x", "t", approximate="tanh"),
            _n("Add", "h t", "y"),
        ),
        (Input("x", (2, 5)),),
        ("y",),
        _weights(r2=_scalar(math.sqrt(2.0)), one=_scalar(1.0), half=_scalar(0.5)),
        opset=20,
        ops="Erf (GELU as Div, Erf, Add, Mul), Gelu (approximate=tanh)",
    ),
    Model(
        "shapes",
        (
            _n("Transpose", "x", "t", perm=[0, 2, 1]),
            _n("Reshape", "t s", "r"),
            _n("Flatten", "x", "f", axis=1),
            _n("Concat", "r f", "c", axis=1),
            _n("Slice", "c st en ax sp", "sl"),
            _n("Split", "sl sz", "a b", axis=1),
            _n("Mul", "a b", "m"),
            _n("Unsqueeze", "m u", "un"),
            _n("Squeeze", "un u", "sq"),
            _n("Expand", "sq es", "y"),
        ),
        (Input("x", (2, 3, 4)),),
        ("y",),
        _weights(
            s=_i64(2, 12),
            st=_i64(1),
            en=_i64(21),
            ax=_i64(1),
            sp=_i64(2),
            sz=_i64(5, 5),
            u=_i64(0),
            es=_i64(3, 2, 5),
        ),
        ops="Transpose, Reshape, Flatten, Concat, Slice (steps), Split, Unsqueeze, Squeeze, Expand",
    ),
    Model(
        "attention",
        (
            _n("MatMul", "x wq", "q"),
            _n("Reshape", "q s4", "q4"),
            _n("Transpose", "q4", "qt", perm=[0, 2, 1, 3]),
            _n("Transpose", "q4", "kt", perm=[0, 2, 3, 1]),
            _n("MatMul", "qt kt", "sc"),
            _n("Mul", "sc scale", "ss"),
            _n("Where", "mask ss ninf", "sm"),
            _n("Softmax", "sm", "p", axis=-1),
            _n("MatMul", "p qt", "o"),
            _n("Transpose", "o", "ot", perm=[0, 2, 1, 3]),
            _n("Reshape", "ot s3", "r"),
            _n("Add", "r x", "y"),
        ),
        (Input("x", (1, 4, 6)),),
        ("y",),
        _weights(
            wq=_f(6, 6),
            s4=_i64(1, 4, 2, 3),
            s3=_i64(1, 4, 6),
            scale=_scalar(0.5),
            ninf=_scalar(-1e9),
            mask=np.tril(np.ones((4, 4), bool)),
        ),
        ops="an attention head: MatMul, Reshape, Transpose, batched MatMul, Where (causal mask), Softmax, Add",
    ),
    Model(
        "embedding",
        (
            _n("Gather", "emb ids", "e", axis=0),
            _n("Cast", "ids", "c", to=1),
            _n("Unsqueeze", "c u", "cu"),
            _n("Mul", "e cu", "y"),
        ),
        (Input("ids", (2, 3), "int64", high=10),),
        ("y",),
        _weights(emb=_f(10, 8), u=_i64(2)),
        ops="Gather (int64 indices), Cast",
    ),
    Model(
        "upsample",
        (
            _n("Pad", "x pads", "p", mode="constant"),
            _n("Resize", "p  sc", "r", mode="nearest"),
            _n("ConvTranspose", "r w", "c", strides=[2, 2]),
            _n("Max", "c z", "m"),
            _n("Min", "m six", "y"),
        ),
        (Input("x", (1, 2, 2, 2)),),
        ("y",),
        _weights(
            pads=_i64(0, 0, 1, 1, 0, 0, 1, 1),
            sc=np.array([1, 1, 2, 2], np.float32),
            w=_f(2, 3, 2, 2),
            z=_scalar(0.0),
            six=_scalar(6.0),
        ),
        ops="Pad, Resize (nearest), ConvTranspose (strides)",
    ),
)
"""The models, each small (weights of tens of elements) and covering a group of ONNX ops."""

BY_NAME = {m.name: m for m in MODELS}


def frontend_file(model: Model, variant: str = "") -> Path:
    return FRONTEND / f"{model.name}{'.' + variant if variant else ''}.mlir"


# ---- onnx -------------------------------------------------------------------------------------
def onnx_model(model: Model) -> Any:
    """The model as an `onnx.ModelProto` (needs onnx)."""
    import onnx
    from onnx import helper, numpy_helper

    types = {"float32": onnx.TensorProto.FLOAT, "int64": onnx.TensorProto.INT64}
    nodes = [
        helper.make_node(n.op, list(n.inputs), list(n.outputs), **n.attributes) for n in model.nodes
    ]
    graph = helper.make_graph(
        nodes,
        model.name,
        [helper.make_tensor_value_info(i.name, types[i.dtype], i.shape) for i in model.inputs],
        [onnx.ValueInfoProto(name=o) for o in model.outputs],
        [numpy_helper.from_array(a, k) for k, a in model.initializers().items()],
    )
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", model.opset)])
    proto.ir_version = 8
    inferred = onnx.shape_inference.infer_shapes(proto, strict_mode=True)
    known = {v.name: v for v in inferred.graph.output}
    for output in proto.graph.output:
        output.CopyFrom(known[output.name])
    onnx.checker.check_model(proto, full_check=True)
    return proto


def onnxruntime_outputs(model: Model, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    import onnxruntime

    session = onnxruntime.InferenceSession(
        onnx_model(model).SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return list(session.run(list(model.outputs), feeds))


# ---- numpy ------------------------------------------------------------------------------------
def numpy_reference(model: Model, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The model's outputs computed with numpy, op by op as ONNX defines them."""
    values: dict[str, np.ndarray] = {"": np.zeros(0)}
    values.update(model.initializers())
    values.update(feeds)
    for node in model.nodes:
        results = _OPS[node.op](node.attributes, *(values[i] for i in node.inputs))
        if not isinstance(results, tuple):
            results = (results,)
        for name, value in zip(node.outputs, results, strict=True):
            values[name] = np.asarray(value)
    return [values[o] for o in model.outputs]


def _windows(
    x: np.ndarray,
    kernel: Sequence[int],
    strides: Sequence[int],
    dilations: Sequence[int],
    pads: Sequence[int],
    fill: float,
    ceil: bool = False,
) -> tuple[np.ndarray, list[int]]:
    """x ([N, C, *spatial]) padded with `fill`, and the output's spatial extents."""
    rank = len(kernel)
    begin, end = list(pads[:rank]), list(pads[rank:])
    outs = []
    for d in range(rank):
        span = x.shape[2 + d] + begin[d] + end[d] - dilations[d] * (kernel[d] - 1) - 1
        out = (-(-span // strides[d]) if ceil else span // strides[d]) + 1
        if ceil and (out - 1) * strides[d] >= x.shape[2 + d] + begin[d]:
            out -= 1
        outs.append(out)
        needed = (out - 1) * strides[d] + dilations[d] * (kernel[d] - 1) + 1
        end[d] = max(end[d], needed - x.shape[2 + d] - begin[d])
    widths = [(0, 0), (0, 0), *zip(begin, end, strict=True)]
    return np.pad(x, widths, constant_values=fill), outs


def _window_slices(
    offset: Sequence[int], outs: Sequence[int], strides: Sequence[int], dilations: Sequence[int]
) -> tuple[slice, ...]:
    return (
        slice(None),
        slice(None),
        *(
            slice(k * dl, k * dl + (o - 1) * s + 1, s)
            for k, o, s, dl in zip(offset, outs, strides, dilations, strict=True)
        ),
    )


def _spatial(a: dict[str, Any], name: str, rank: int, default: int) -> list[int]:
    return list(a.get(name, [default] * rank))


def _conv(
    a: dict[str, Any], x: np.ndarray, w: np.ndarray, b: np.ndarray | None = None
) -> np.ndarray:
    kernel = list(w.shape[2:])
    rank = len(kernel)
    strides, dilations = _spatial(a, "strides", rank, 1), _spatial(a, "dilations", rank, 1)
    padded, outs = _windows(x, kernel, strides, dilations, _spatial(a, "pads", 2 * rank, 0), 0.0)
    group = a.get("group", 1)
    channels, filters = x.shape[1] // group, w.shape[0] // group
    y = np.zeros((x.shape[0], w.shape[0], *outs), np.float64)
    for g in range(group):
        image = padded[:, g * channels : (g + 1) * channels]
        weights = w[g * filters : (g + 1) * filters]
        for offset in itertools.product(*(range(k) for k in kernel)):
            window = image[_window_slices(offset, outs, strides, dilations)]
            y[:, g * filters : (g + 1) * filters] += np.einsum(
                "nc...,fc->nf...", window, weights[(slice(None), slice(None), *offset)]
            )
    if b is not None:
        y += b.reshape(1, -1, *([1] * rank))
    return y.astype(np.float32)


def _conv_transpose(a: dict[str, Any], x: np.ndarray, w: np.ndarray) -> np.ndarray:
    kernel = list(w.shape[2:])
    strides = _spatial(a, "strides", len(kernel), 1)
    outs = [s * (n - 1) + k for s, n, k in zip(strides, x.shape[2:], kernel, strict=True)]
    y = np.zeros((x.shape[0], w.shape[1], *outs), np.float64)
    for offset in itertools.product(*(range(k) for k in kernel)):
        place = _window_slices(offset, x.shape[2:], strides, [1] * len(kernel))
        y[place] += np.einsum("nc...,cf->nf...", x, w[(slice(None), slice(None), *offset)])
    return y.astype(np.float32)


def _pool(a: dict[str, Any], x: np.ndarray, kind: str) -> np.ndarray:
    kernel = list(a["kernel_shape"])
    rank = len(kernel)
    strides, dilations = _spatial(a, "strides", rank, 1), _spatial(a, "dilations", rank, 1)
    pads = _spatial(a, "pads", 2 * rank, 0)
    ceil = bool(a.get("ceil_mode", 0))
    fill = -np.inf if kind == "max" else 0.0
    padded, outs = _windows(x, kernel, strides, dilations, pads, fill, ceil)
    counted, _ = _windows(np.ones_like(x), kernel, strides, dilations, pads, 0.0, ceil)
    windows = [
        (
            padded[_window_slices(o, outs, strides, dilations)],
            counted[_window_slices(o, outs, strides, dilations)],
        )
        for o in itertools.product(*(range(k) for k in kernel))
    ]
    if kind == "max":
        return np.max([w for w, _ in windows], axis=0)
    total = np.sum([w for w, _ in windows], axis=0, dtype=np.float64)
    if a.get("count_include_pad", 0):
        return (total / math.prod(kernel)).astype(np.float32)
    return (total / np.sum([c for _, c in windows], axis=0)).astype(np.float32)


def _lrn(a: dict[str, Any], x: np.ndarray) -> np.ndarray:
    size, alpha = a["size"], a.get("alpha", 1e-4)
    beta, bias = a.get("beta", 0.75), a.get("bias", 1.0)
    squares = np.zeros_like(x, dtype=np.float64)
    for c in range(x.shape[1]):
        low, high = max(0, c - (size - 1) // 2), min(x.shape[1], c + -(-(size - 1) // 2) + 1)
        squares[:, c] = np.sum(x[:, low:high].astype(np.float64) ** 2, axis=1)
    return (x / (bias + alpha / size * squares) ** beta).astype(np.float32)


def _normalize(x: np.ndarray, axes: tuple[int, ...], epsilon: float) -> np.ndarray:
    x = x.astype(np.float64)
    mean = x.mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=axes, keepdims=True) + epsilon)


def _channel(v: np.ndarray, rank: int) -> np.ndarray:
    return v.reshape(1, -1, *([1] * (rank - 2)))


def _layer_norm(a: dict[str, Any], x: np.ndarray, s: np.ndarray, b: np.ndarray) -> np.ndarray:
    axis = a.get("axis", -1) % x.ndim
    normal = _normalize(x, tuple(range(axis, x.ndim)), a.get("epsilon", 1e-5))
    return (normal * s + b).astype(np.float32)


def _instance_norm(a: dict[str, Any], x: np.ndarray, s: np.ndarray, b: np.ndarray) -> np.ndarray:
    normal = _normalize(x, tuple(range(2, x.ndim)), a.get("epsilon", 1e-5))
    return (normal * _channel(s, x.ndim) + _channel(b, x.ndim)).astype(np.float32)


def _batch_norm(
    a: dict[str, Any], x: np.ndarray, s: np.ndarray, b: np.ndarray, m: np.ndarray, v: np.ndarray
) -> np.ndarray:
    r = x.ndim
    scale = _channel(s, r) / np.sqrt(_channel(v, r).astype(np.float64) + a.get("epsilon", 1e-5))
    return ((x - _channel(m, r)) * scale + _channel(b, r)).astype(np.float32)


def _softmax(a: dict[str, Any], x: np.ndarray) -> np.ndarray:
    shifted = x - x.max(axis=a.get("axis", -1), keepdims=True)
    e = np.exp(shifted.astype(np.float64))
    return (e / e.sum(axis=a.get("axis", -1), keepdims=True)).astype(np.float32)


_ERF = np.vectorize(math.erf, otypes=[np.float64])


def _gelu(a: dict[str, Any], x: np.ndarray) -> np.ndarray:
    x64 = x.astype(np.float64)
    if a.get("approximate", "none") == "tanh":
        inner = math.sqrt(2 / math.pi) * (x64 + 0.044715 * x64**3)
        return (0.5 * x64 * (1 + np.tanh(inner))).astype(np.float32)
    return (0.5 * x64 * (1 + _ERF(x64 / math.sqrt(2)))).astype(np.float32)


def _reduce(function: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    def reduce(a: dict[str, Any], x: np.ndarray, axes: np.ndarray | None = None) -> np.ndarray:
        chosen = a.get("axes", None if axes is None else list(axes))
        chosen = tuple(range(x.ndim)) if chosen is None else tuple(int(c) for c in chosen)
        return function(x, axis=chosen, keepdims=bool(a.get("keepdims", 1)))

    return reduce


def _reshape(a: dict[str, Any], x: np.ndarray, shape: np.ndarray) -> np.ndarray:
    target = [x.shape[i] if s == 0 else int(s) for i, s in enumerate(shape)]
    return x.reshape(target)


def _slice(
    a: dict[str, Any],
    x: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    axes: np.ndarray,
    steps: np.ndarray,
) -> np.ndarray:
    index = [slice(None)] * x.ndim
    for start, end, axis, step in zip(starts, ends, axes, steps, strict=True):
        index[int(axis)] = slice(int(start), int(end), int(step))
    return x[tuple(index)]


def _split(a: dict[str, Any], x: np.ndarray, sizes: np.ndarray) -> tuple[np.ndarray, ...]:
    return tuple(np.split(x, np.cumsum(sizes)[:-1], axis=a.get("axis", 0)))


def _resize(a: dict[str, Any], x: np.ndarray, roi: np.ndarray, scales: np.ndarray) -> np.ndarray:
    """Nearest, half_pixel coordinates, round_prefer_floor (ONNX's defaults)."""
    for axis, scale in enumerate(scales):
        size = int(x.shape[axis] * scale)
        source = np.ceil((np.arange(size) + 0.5) / scale - 0.5 - 0.5).astype(int)
        x = np.take(x, np.clip(source, 0, x.shape[axis] - 1), axis=axis)
    return x


def _pad(a: dict[str, Any], x: np.ndarray, pads: np.ndarray) -> np.ndarray:
    rank = x.ndim
    return np.pad(x, [(int(pads[d]), int(pads[rank + d])) for d in range(rank)])


def _gemm(
    a: dict[str, Any], x: np.ndarray, w: np.ndarray, c: np.ndarray | None = None
) -> np.ndarray:
    x = x.T if a.get("transA", 0) else x
    w = w.T if a.get("transB", 0) else w
    y = a.get("alpha", 1.0) * (x.astype(np.float64) @ w)
    if c is not None:
        y = y + a.get("beta", 1.0) * c
    return y.astype(np.float32)


def _unary(function: Callable[[np.ndarray], np.ndarray]) -> Callable[..., np.ndarray]:
    return lambda a, x: function(x.astype(np.float64)).astype(x.dtype)


def _binary(function: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Callable[..., np.ndarray]:
    return lambda a, x, y: function(x, y)


_OPS: dict[str, Callable[..., Any]] = {
    "Conv": _conv,
    "ConvTranspose": _conv_transpose,
    "MaxPool": lambda a, x: _pool(a, x, "max"),
    "AveragePool": lambda a, x: _pool(a, x, "average"),
    "GlobalAveragePool": lambda a, x: x.mean(axis=tuple(range(2, x.ndim)), keepdims=True),
    "LRN": _lrn,
    "BatchNormalization": _batch_norm,
    "LayerNormalization": _layer_norm,
    "InstanceNormalization": _instance_norm,
    "Softmax": _softmax,
    "Gelu": _gelu,
    "Erf": _unary(_ERF),
    "Relu": _unary(lambda x: np.maximum(x, 0)),
    "LeakyRelu": lambda a, x: np.where(x >= 0, x, a.get("alpha", 0.01) * x).astype(np.float32),
    "HardSigmoid": lambda a, x: np.clip(a.get("alpha", 0.2) * x + a.get("beta", 0.5), 0, 1),
    "HardSwish": _unary(lambda x: x * np.clip(x / 6 + 0.5, 0, 1)),
    "Sigmoid": _unary(lambda x: 1 / (1 + np.exp(-x))),
    "Tanh": _unary(np.tanh),
    "Exp": _unary(np.exp),
    "Log": _unary(np.log),
    "Neg": _unary(np.negative),
    "Abs": _unary(np.abs),
    "Sqrt": _unary(np.sqrt),
    "Softplus": _unary(lambda x: np.log1p(np.exp(x))),
    "Elu": _unary(lambda x: np.where(x < 0, np.expm1(x), x)),
    "Floor": _unary(np.floor),
    "Sin": _unary(np.sin),
    "Pow": lambda a, x, y: np.power(x.astype(np.float64), y).astype(np.float32),
    "Clip": lambda a, x, low, high: np.clip(x, low, high),
    "Add": _binary(np.add),
    "Sub": _binary(np.subtract),
    "Mul": _binary(np.multiply),
    "Div": _binary(np.divide),
    "Less": _binary(np.less),
    "Not": lambda a, x: np.logical_not(x),
    "Where": lambda a, c, x, y: np.where(c, x, y),
    "Max": lambda a, *xs: np.maximum.reduce(np.broadcast_arrays(*xs)),
    "Min": lambda a, *xs: np.minimum.reduce(np.broadcast_arrays(*xs)),
    "MatMul": lambda a, x, y: (x.astype(np.float64) @ y).astype(np.float32),
    "Gemm": _gemm,
    "Einsum": lambda a, *xs: np.einsum(a["equation"], *(x.astype(np.float64) for x in xs)).astype(
        np.float32
    ),
    "ReduceMean": _reduce(np.mean),
    "ReduceSum": _reduce(np.sum),
    "ReduceMax": _reduce(np.max),
    "ArgMax": lambda a, x: (
        np.argmax(x, axis=a.get("axis", 0)).astype(np.int64)
        if not a.get("keepdims", 1)
        else np.expand_dims(np.argmax(x, axis=a.get("axis", 0)), a.get("axis", 0))
    ),
    "Flatten": lambda a, x: x.reshape(math.prod(x.shape[: a.get("axis", 1)]), -1),
    "Reshape": _reshape,
    "Transpose": lambda a, x: np.transpose(x, a["perm"]),
    "Concat": lambda a, *xs: np.concatenate(xs, axis=a["axis"]),
    "Slice": _slice,
    "Split": _split,
    "Unsqueeze": lambda a, x, axes: np.expand_dims(x, tuple(int(i) for i in axes)),
    "Squeeze": lambda a, x, axes: np.squeeze(x, tuple(int(i) for i in axes)),
    "Expand": lambda a, x, shape: np.broadcast_to(x, np.broadcast_shapes(x.shape, tuple(shape))),
    "Cast": lambda a, x: x.astype({1: np.float32, 7: np.int64, 9: np.bool_}[a["to"]]),
    "Gather": lambda a, x, i: np.take(x, i, axis=a.get("axis", 0)),
    "Pad": _pad,
    "Resize": _resize,
}


# ---- the import commands ----------------------------------------------------------------------
def import_commands(
    onnx_path: Path, out: Path, *, tensor_to_linalg: bool = True
) -> list[list[str]]:
    """The three commands of issue 27, from an ONNX file to the bufferized module `out`."""
    torch_level, linalg_level = out.with_suffix(".onnx.mlir"), out.with_suffix(".linalg.mlir")
    first = ["--convert-tensor-to-linalg"] if tensor_to_linalg else []
    return [
        ["iree-import-onnx", str(onnx_path), "-o", str(torch_level)],
        ["iree-opt", f"--pass-pipeline={TO_LINALG}", str(torch_level), "-o", str(linalg_level)],
        ["mlir-opt-22", *first, *BUFFERIZE, str(linalg_level), "-o", str(out)],
    ]


def import_tools_missing() -> str | None:
    """Why the import commands cannot run here, or None."""
    for tool in ("iree-import-onnx", "iree-opt", "mlir-opt-22"):
        if shutil.which(tool) is None:
            return f"{tool} not found (pip install iree-base-compiler onnx; apt-get install mlir-22-tools)"
    try:
        import onnx  # noqa: F401
    except ImportError:
        return "onnx not installed"
    return None


def header(model: Model, variant: str) -> str:
    how = "without --convert-tensor-to-linalg (tensor.pad as linalg.map)" if variant else ""
    lines = [
        f"Model '{model.name}' of tests/frontend_models.py: {model.ops}.",
        f"Imported with issue 27's commands {how}".rstrip() + "; do not edit:",
        "regenerate with `python tests/frontend_models.py`.",
    ]
    return "".join(f"// {line}\n" for line in lines)


def generate(model: Model, variant: str, work: Path) -> str:
    """The model imported by the commands (in `work`), with its header."""
    import onnx

    onnx_path = work / f"{model.name}.onnx"
    onnx.save(onnx_model(model), str(onnx_path))
    out = work / f"{model.name}{variant}.buf.mlir"
    for command in import_commands(onnx_path, out, tensor_to_linalg=variant != "nopad"):
        subprocess.run(command, check=True, capture_output=True, text=True)
    return header(model, variant) + out.read_text()


def main() -> None:
    missing = import_tools_missing()
    if missing is not None:
        sys.exit(f"frontend_models.py: {missing}")
    FRONTEND.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        for model in MODELS:
            for variant in model.variants:
                path = frontend_file(model, variant)
                path.write_text(generate(model, variant, Path(work)))
                print(f"wrote {path.relative_to(FRONTEND.parent.parent)}")


if __name__ == "__main__":
    main()
