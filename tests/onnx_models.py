"""Small ONNX models with seeded random weights, built with `onnx.helper`, for the import
tests (tests/test_import.py, tests/test_run_models.py), and what the tests need around them:
the skips, onnxruntime's outputs, and layouts inserted into an imported program."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from tests.mlir_tools import require_native_engine

OPSET = 17


def require_frontend() -> None:
    """Skip the test visibly unless the onnx extra (onnx, iree-base-compiler, onnxruntime)
    and MLIR 22 are installed; under CI=true, which installs them, fail it instead."""
    missing = []
    for module in ("onnx", "onnxruntime", "iree.compiler"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        message = f"needs {', '.join(missing)}: pip install -e '.[onnx]'"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message} (CI=true installs the onnx extra)", pytrace=False)
        pytest.skip(message)
    require_native_engine()


def _weights(rng: np.random.Generator, name: str, shape: tuple[int, ...]) -> Any:
    from onnx import numpy_helper

    return numpy_helper.from_array(rng.uniform(-1, 1, shape).astype(np.float32), name)


def graph_model(
    nodes: list[Any], inputs: list[Any], outputs: list[Any], weights: Sequence[Any] = ()
) -> Any:
    """The checked model of one graph of the default domain at `OPSET`."""
    from onnx import checker, helper

    graph = helper.make_graph(nodes, "graph", inputs, outputs, list(weights))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    checker.check_model(model)
    return model


def _tensor(name: str, shape: list[int | str]) -> Any:
    from onnx import TensorProto, helper

    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def mlp(
    seed: int = 0,
    *,
    batch: int | str = 4,
    perturb: float = 0.0,
    widths: tuple[int, int, int] = (8, 16, 6),
) -> Any:
    """x[batch,K] → MatMul w1[K,H] → Add b1 → Relu → MatMul w2[H,N] → y for `widths`
    (K, H, N); `perturb` adds to one weight of w2 (a model that computes something else)."""
    from onnx import helper, numpy_helper

    k, h, n = widths
    rng = np.random.default_rng(seed)
    weights = [_weights(rng, "w1", (k, h)), _weights(rng, "b1", (h,))]
    w2 = rng.uniform(-1, 1, (h, n)).astype(np.float32)
    w2[3, 2] += perturb
    weights.append(numpy_helper.from_array(w2, "w2"))
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h"]),
        helper.make_node("Add", ["h", "b1"], ["hb"]),
        helper.make_node("Relu", ["hb"], ["r"]),
        helper.make_node("MatMul", ["r", "w2"], ["y"]),
    ]
    return graph_model(nodes, [_tensor("x", [batch, k])], [_tensor("y", [batch, n])], weights)


def conv_block(seed: int = 0) -> Any:
    """x[1,4,6,6] → Conv 3x3 pad 1 + bias → Relu → Add x (the residual) → y."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    weights = [_weights(rng, "w", (4, 4, 3, 3)), _weights(rng, "b", (4,))]
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("Add", ["r", "x"], ["y"]),
    ]
    shape: list[int | str] = [1, 4, 6, 6]
    return graph_model(nodes, [_tensor("x", shape)], [_tensor("y", shape)], weights)


def two_by_two() -> Any:
    """Inputs zeta, alpha (not in sorted order) and outputs sum, diff: zeta + alpha, zeta - alpha."""
    from onnx import helper

    nodes = [
        helper.make_node("Add", ["zeta", "alpha"], ["sum"]),
        helper.make_node("Sub", ["zeta", "alpha"], ["diff"]),
    ]
    return graph_model(
        nodes,
        [_tensor("zeta", [2, 3]), _tensor("alpha", [2, 3])],
        [_tensor("sum", [2, 3]), _tensor("diff", [2, 3])],
        [],
    )


def onnxruntime_outputs(model: Any, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    import onnxruntime

    session = onnxruntime.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    names = [o.name for o in session.get_outputs()]
    return dict(zip(names, session.run(None, inputs), strict=True))


def assert_imported_as_onnxruntime(model: Any, inputs: dict[str, np.ndarray]) -> None:
    """The model imported and run (the compiled engine) gives every output within
    onnxruntime's tolerance of onnxruntime's."""
    import heterolayout
    from heterolayout.frontends.reference import compare_output

    expected = onnxruntime_outputs(model, inputs)
    got = heterolayout.run(heterolayout.import_model(model), inputs, engine="compiled")
    for name, value in expected.items():
        comparison = compare_output(name, got[name], value)
        assert comparison.within, str(comparison)


def random_input(shape: tuple[int, ...], seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)


def assign_after(text: str, definition: str, layout: str) -> str:
    """The program with a `layout.assign` of `layout` right after the line that defines
    `definition` (such as `%alloc` or `%0`, a weight's `memref.get_global`)."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(f"{definition} = "):
            memref_type = stripped.rsplit(" : ", 1)[1]
            indent = line[: len(line) - len(line.lstrip())]
            lines.insert(
                index + 1, f"{indent}layout.assign {definition} to {layout} : {memref_type}"
            )
            return "\n".join(lines) + "\n"
    raise AssertionError(f"no definition of {definition} in the program")


def _constant(name: str, value: Any) -> Any:
    from onnx import numpy_helper

    return numpy_helper.from_array(np.asarray(value), name)


def cnn_ops(seed: int = 0) -> Any:
    """The ops of common CNNs in one graph: a ResNet stem (Conv 7x7 stride 2 pad 3 + bias,
    BatchNormalization, Relu, MaxPool 3x3 stride 2 pad 1), a MobileNet inverted residual's
    depthwise Conv (group) and Clip (ReLU6), a ResNeXt grouped Conv (2 groups of 4
    channels), a 1x1 Conv, AveragePool, GlobalAveragePool,
    Flatten, Gemm (transB) and Softmax: x[1,3,12,12] → y[1,5]."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    node = helper.make_node
    weights = [
        _weights(rng, "stem", (8, 3, 7, 7)),
        _weights(rng, "stem_bias", (8,)),
        _weights(rng, "scale", (8,)),
        _weights(rng, "shift", (8,)),
        _weights(rng, "mean", (8,)),
        _constant("variance", rng.uniform(0.5, 1.5, 8).astype(np.float32)),
        _weights(rng, "depthwise", (8, 1, 3, 3)),
        _constant("low", np.float32(0.0)),
        _constant("high", np.float32(6.0)),
        _weights(rng, "grouped", (8, 4, 3, 3)),
        _weights(rng, "pointwise", (4, 8, 1, 1)),
        _weights(rng, "fc", (5, 4)),
        _weights(rng, "fc_bias", (5,)),
    ]
    nodes = [
        node(
            "Conv",
            ["x", "stem", "stem_bias"],
            ["c1"],
            kernel_shape=[7, 7],
            strides=[2, 2],
            pads=[3, 3, 3, 3],
        ),
        node("BatchNormalization", ["c1", "scale", "shift", "mean", "variance"], ["bn"]),
        node("Relu", ["bn"], ["r1"]),
        node("MaxPool", ["r1"], ["p1"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
        node("Conv", ["p1", "depthwise"], ["dw"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=8),
        node("Clip", ["dw", "low", "high"], ["r6"]),
        node("Conv", ["r6", "grouped"], ["gc"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=2),
        node("Conv", ["gc", "pointwise"], ["pw"], kernel_shape=[1, 1]),
        node("AveragePool", ["pw"], ["ap"], kernel_shape=[2, 2]),
        node("GlobalAveragePool", ["ap"], ["gap"]),
        node("Flatten", ["gap"], ["flat"]),
        node("Gemm", ["flat", "fc", "fc_bias"], ["logits"], transB=1),
        node("Softmax", ["logits"], ["y"], axis=-1),
    ]
    return graph_model(nodes, [_tensor("x", [1, 3, 12, 12])], [_tensor("y", [1, 5])], weights)


def _attention(source: str) -> list[Any]:
    """One attention head over `source` (weights wq, wk, wv and the scale `root`): q, k, v,
    Transpose, MatMul, Div, Softmax, MatMul into `mixed`."""
    from onnx import helper

    node = helper.make_node
    return [
        node("MatMul", [source, "wq"], ["q"]),
        node("MatMul", [source, "wk"], ["k"]),
        node("MatMul", [source, "wv"], ["v"]),
        node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
        node("MatMul", ["q", "kt"], ["scores"]),
        node("Div", ["scores", "root"], ["scaled"]),
        node("Softmax", ["scaled"], ["attention"], axis=-1),
        node("MatMul", ["attention", "v"], ["mixed"]),
    ]


def _feed_forward(source: str) -> list[Any]:
    """A feed-forward block over `source` (weights w1, b1, w2 and the constants root2, one,
    half): MatMul + bias, GELU written with Erf, MatMul into `f7`."""
    from onnx import helper

    node = helper.make_node
    return [
        node("MatMul", [source, "w1"], ["f1"]),
        node("Add", ["f1", "b1"], ["f2"]),
        node("Div", ["f2", "root2"], ["f3"]),
        node("Erf", ["f3"], ["f4"]),
        node("Add", ["f4", "one"], ["f5"]),
        node("Mul", ["f2", "f5"], ["f6"]),
        node("Mul", ["f6", "half"], ["gelu"]),
        node("MatMul", ["gelu", "w2"], ["f7"]),
    ]


def transformer_ops(seed: int = 0) -> Any:
    """The ops of a transformer encoder layer in one graph: LayerNormalization, attention
    (MatMul, Transpose, Div, Softmax, MatMul), residual Adds, a LayerNorm written out
    (ReduceMean, Sub, Pow, Sqrt, Div, Mul), a GELU written with Erf, and a second output
    through Sigmoid, Tanh, Concat and Reshape: x[2,4,8] → y[2,4,8], z[2,64]."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    node = helper.make_node
    weights = [
        _weights(rng, "gamma", (8,)),
        _weights(rng, "beta", (8,)),
        _weights(rng, "wq", (8, 8)),
        _weights(rng, "wk", (8, 8)),
        _weights(rng, "wv", (8, 8)),
        _constant("root", np.float32(np.sqrt(8.0))),
        _constant("two", np.float32(2.0)),
        _constant("epsilon", np.float32(1e-5)),
        _constant("half", np.float32(0.5)),
        _constant("one", np.float32(1.0)),
        _constant("root2", np.float32(np.sqrt(2.0))),
        _weights(rng, "w1", (8, 16)),
        _weights(rng, "b1", (16,)),
        _weights(rng, "w2", (16, 8)),
        _constant("shape", np.array([2, 64], dtype=np.int64)),
    ]
    nodes = [
        node("LayerNormalization", ["x", "gamma", "beta"], ["n1"], axis=-1),
        *_attention("n1"),
        node("Add", ["mixed", "x"], ["h1"]),
        node("ReduceMean", ["h1"], ["mu"], axes=[-1]),
        node("Sub", ["h1", "mu"], ["centred"]),
        node("Pow", ["centred", "two"], ["squared"]),
        node("ReduceMean", ["squared"], ["variance"], axes=[-1]),
        node("Add", ["variance", "epsilon"], ["stable"]),
        node("Sqrt", ["stable"], ["deviation"]),
        node("Div", ["centred", "deviation"], ["n2"]),
        *_feed_forward("n2"),
        node("Add", ["f7", "h1"], ["y"]),
        node("Sigmoid", ["y"], ["s"]),
        node("Tanh", ["y"], ["t"]),
        node("Concat", ["s", "t"], ["st"], axis=-1),
        node("Reshape", ["st", "shape"], ["z"]),
    ]
    return graph_model(
        nodes,
        [_tensor("x", [2, 4, 8])],
        [_tensor("y", [2, 4, 8]), _tensor("z", [2, 64])],
        weights,
    )


# ---- the networks of issue 27's point 5: small, with every op their full-size forms have ----
def _conv(node: str, x: str, w: str, b: str | None, **attributes: Any) -> Any:
    from onnx import helper

    return helper.make_node("Conv", [x, w] + ([b] if b else []), [node], **attributes)


def basic_block(seed: int = 0, channels: int = 8, size: int = 8) -> Any:
    """A ResNet basic block: Conv 3x3 pad 1 + bias, Relu, Conv 3x3 pad 1 + bias, Add the
    input (the residual), Relu; x[1,C,H,W] → y[1,C,H,W]."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    c = channels
    weights = [
        _weights(rng, "w1", (c, c, 3, 3)),
        _weights(rng, "b1", (c,)),
        _weights(rng, "w2", (c, c, 3, 3)),
        _weights(rng, "b2", (c,)),
    ]
    same = {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}
    nodes = [
        _conv("c1", "x", "w1", "b1", **same),
        helper.make_node("Relu", ["c1"], ["r1"]),
        _conv("c2", "r1", "w2", "b2", **same),
        helper.make_node("Add", ["c2", "x"], ["s"]),
        helper.make_node("Relu", ["s"], ["y"]),
    ]
    shape: list[int | str] = [1, c, size, size]
    return graph_model(nodes, [_tensor("x", shape)], [_tensor("y", shape)], weights)


def downsampling_block(seed: int = 0, channels: int = 8, size: int = 8) -> Any:
    """A strided ResNet block: Conv 3x3 stride 2 pad 1 (C → 2C) + bias, Relu, Conv 3x3 pad 1
    + bias; the shortcut a 1x1 Conv stride 2 (C → 2C); Add, Relu; x[1,C,H,W] → y[1,2C,H/2,W/2]."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    c, d = channels, 2 * channels
    weights = [
        _weights(rng, "w1", (d, c, 3, 3)),
        _weights(rng, "b1", (d,)),
        _weights(rng, "w2", (d, d, 3, 3)),
        _weights(rng, "b2", (d,)),
        _weights(rng, "ws", (d, c, 1, 1)),
    ]
    nodes = [
        _conv("c1", "x", "w1", "b1", kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        _conv("c2", "r1", "w2", "b2", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        _conv("short", "x", "ws", None, kernel_shape=[1, 1], strides=[2, 2]),
        helper.make_node("Add", ["c2", "short"], ["s"]),
        helper.make_node("Relu", ["s"], ["y"]),
    ]
    return graph_model(
        nodes,
        [_tensor("x", [1, c, size, size])],
        [_tensor("y", [1, d, size // 2, size // 2])],
        weights,
    )


def resnet_stem(seed: int = 0, channels: int = 8, size: int = 32) -> Any:
    """A ResNet stem: Conv 7x7 stride 2 pad 3 (3 → C) + bias, Relu, MaxPool 3x3 stride 2
    pad 1; x[1,3,H,W] → y[1,C,H/4,W/4]."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    weights = [_weights(rng, "w", (channels, 3, 7, 7)), _weights(rng, "b", (channels,))]
    nodes = [
        _conv("c", "x", "w", "b", kernel_shape=[7, 7], pads=[3, 3, 3, 3], strides=[2, 2]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node(
            "MaxPool", ["r"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]
        ),
    ]
    return graph_model(
        nodes,
        [_tensor("x", [1, 3, size, size])],
        [_tensor("y", [1, channels, size // 4, size // 4])],
        weights,
    )


def inverted_residual(seed: int = 0, channels: int = 8, size: int = 8, expand: int = 4) -> Any:
    """A MobileNetV2 inverted residual: Conv 1x1 (C → eC) + bias, Clip 0..6 (ReLU6), a
    depthwise Conv 3x3 pad 1 (group eC) + bias, Clip, Conv 1x1 (eC → C) + bias, Add the input;
    x[1,C,H,W] → y[1,C,H,W]."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    c, e = channels, expand * channels
    weights = [
        _weights(rng, "w1", (e, c, 1, 1)),
        _weights(rng, "b1", (e,)),
        _weights(rng, "wd", (e, 1, 3, 3)),
        _weights(rng, "bd", (e,)),
        _weights(rng, "w2", (c, e, 1, 1)),
        _weights(rng, "b2", (c,)),
        _constant("zero", np.float32(0.0)),
        _constant("six", np.float32(6.0)),
    ]
    nodes = [
        _conv("e", "x", "w1", "b1", kernel_shape=[1, 1]),
        helper.make_node("Clip", ["e", "zero", "six"], ["e6"]),
        _conv("d", "e6", "wd", "bd", kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=e),
        helper.make_node("Clip", ["d", "zero", "six"], ["d6"]),
        _conv("p", "d6", "w2", "b2", kernel_shape=[1, 1]),
        helper.make_node("Add", ["p", "x"], ["y"]),
    ]
    shape: list[int | str] = [1, c, size, size]
    return graph_model(nodes, [_tensor("x", shape)], [_tensor("y", shape)], weights)


def resnext_block(
    seed: int = 0, channels: int = 8, size: int = 8, width: int = 8, groups: int = 4
) -> Any:
    """A ResNeXt bottleneck: Conv 1x1 (C → D) + bias, Relu, a grouped Conv 3x3 pad 1 (D
    channels in `groups` groups) + bias, Relu, Conv 1x1 (D → C) + bias, Add the input, Relu;
    x[1,C,H,W] → y[1,C,H,W]. Groups narrower than the layouts' channel block (2 channels at
    the defaults under nChw4c) keep plain weights (`onednn_tags`)."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    c, d = channels, width
    weights = [
        _weights(rng, "w1", (d, c, 1, 1)),
        _weights(rng, "b1", (d,)),
        _weights(rng, "wg", (d, d // groups, 3, 3)),
        _weights(rng, "bg", (d,)),
        _weights(rng, "w2", (c, d, 1, 1)),
        _weights(rng, "b2", (c,)),
    ]
    node = helper.make_node
    nodes = [
        _conv("r", "x", "w1", "b1", kernel_shape=[1, 1]),
        node("Relu", ["r"], ["r1"]),
        _conv("g", "r1", "wg", "bg", kernel_shape=[3, 3], pads=[1, 1, 1, 1], group=groups),
        node("Relu", ["g"], ["g1"]),
        _conv("e", "g1", "w2", "b2", kernel_shape=[1, 1]),
        node("Add", ["e", "x"], ["s"]),
        node("Relu", ["s"], ["y"]),
    ]
    shape: list[int | str] = [1, c, size, size]
    return graph_model(nodes, [_tensor("x", shape)], [_tensor("y", shape)], weights)


def encoder_layer(seed: int = 0, tokens: int = 8, width: int = 16, hidden: int = 32) -> Any:
    """A transformer encoder layer (one head, post-norm): attention (MatMul q, k, v,
    Transpose, MatMul, Div by sqrt(width), Softmax, MatMul, MatMul out + bias), Add the input,
    LayerNormalization, a feed-forward MatMul + bias, GELU written with Erf, MatMul + bias,
    Add, LayerNormalization; x[1,T,W] → y[1,T,W]."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    node = helper.make_node
    w, h = width, hidden
    weights = [
        _weights(rng, "wq", (w, w)),
        _weights(rng, "wk", (w, w)),
        _weights(rng, "wv", (w, w)),
        _weights(rng, "wo", (w, w)),
        _weights(rng, "bo", (w,)),
        _weights(rng, "gamma1", (w,)),
        _weights(rng, "beta1", (w,)),
        _weights(rng, "w1", (w, h)),
        _weights(rng, "b1", (h,)),
        _weights(rng, "w2", (h, w)),
        _weights(rng, "b2", (w,)),
        _weights(rng, "gamma2", (w,)),
        _weights(rng, "beta2", (w,)),
        _constant("root", np.float32(np.sqrt(float(w)))),
        _constant("root2", np.float32(np.sqrt(2.0))),
        _constant("one", np.float32(1.0)),
        _constant("half", np.float32(0.5)),
    ]
    nodes = [
        *_attention("x"),
        node("MatMul", ["mixed", "wo"], ["o"]),
        node("Add", ["o", "bo"], ["ob"]),
        node("Add", ["ob", "x"], ["h1"]),
        node("LayerNormalization", ["h1", "gamma1", "beta1"], ["n1"], axis=-1),
        *_feed_forward("n1"),
        node("Add", ["f7", "b2"], ["f8"]),
        node("Add", ["f8", "n1"], ["h2"]),
        node("LayerNormalization", ["h2", "gamma2", "beta2"], ["y"], axis=-1),
    ]
    shape: list[int | str] = [1, tokens, width]
    return graph_model(nodes, [_tensor("x", shape)], [_tensor("y", shape)], weights)


def gpt2_mlp(seed: int = 0, tokens: int = 8, width: int = 16, hidden: int = 32) -> Any:
    """A GPT-2 feed-forward block as exporters write it (pre-norm): LayerNorm written out
    (ReduceMean, Sub, Pow 2, ReduceMean, Add epsilon, Sqrt, Div, scale and shift), MatMul +
    bias, GELU's tanh approximation (0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), the cube a
    Pow 3), MatMul + bias, Add the input; x[1,T,W] → y[1,T,W]."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    node = helper.make_node
    w, h = width, hidden
    weights = [
        _weights(rng, "gamma", (w,)),
        _weights(rng, "beta", (w,)),
        _weights(rng, "w1", (w, h)),
        _weights(rng, "b1", (h,)),
        _weights(rng, "w2", (h, w)),
        _weights(rng, "b2", (w,)),
        _constant("two", np.float32(2.0)),
        _constant("three", np.float32(3.0)),
        _constant("epsilon", np.float32(1e-5)),
        _constant("cubic", np.float32(0.044715)),
        _constant("scale", np.float32(np.sqrt(2 / np.pi))),
        _constant("one", np.float32(1.0)),
        _constant("half", np.float32(0.5)),
    ]
    nodes = [
        node("ReduceMean", ["x"], ["mean"], axes=[-1]),
        node("Sub", ["x", "mean"], ["centred"]),
        node("Pow", ["centred", "two"], ["squares"]),
        node("ReduceMean", ["squares"], ["variance"], axes=[-1]),
        node("Add", ["variance", "epsilon"], ["shifted"]),
        node("Sqrt", ["shifted"], ["deviation"]),
        node("Div", ["centred", "deviation"], ["normal"]),
        node("Mul", ["normal", "gamma"], ["scaled"]),
        node("Add", ["scaled", "beta"], ["normed"]),
        node("MatMul", ["normed", "w1"], ["f1"]),
        node("Add", ["f1", "b1"], ["f2"]),
        node("Pow", ["f2", "three"], ["cube"]),
        node("Mul", ["cube", "cubic"], ["f3"]),
        node("Add", ["f2", "f3"], ["f4"]),
        node("Mul", ["f4", "scale"], ["f5"]),
        node("Tanh", ["f5"], ["f6"]),
        node("Add", ["f6", "one"], ["f7"]),
        node("Mul", ["f2", "half"], ["f8"]),
        node("Mul", ["f8", "f7"], ["gelu"]),
        node("MatMul", ["gelu", "w2"], ["f9"]),
        node("Add", ["f9", "b2"], ["f10"]),
        node("Add", ["f10", "x"], ["y"]),
    ]
    shape: list[int | str] = [1, tokens, width]
    return graph_model(nodes, [_tensor("x", shape)], [_tensor("y", shape)], weights)


def onednn_tags(block: int) -> tuple[dict[int, str], dict[int, str]]:
    """oneDNN-style layouts by rank, for activations and for weights: image activations with
    their channels blocked by `block` (nChw16c); matrices and sequences of activations stay
    plain, as oneDNN's matmul keeps them (blocking their last dim is row-major with extra
    index arithmetic); convolution weights blocked on both channels (OIhw16i16o), depthwise
    weights on theirs, grouped convolution weights (importers reshape them to [groups,
    outputs, inputs of a group, kh, kw]) on both channels within each group (gOIhw16i16o),
    matmul weights blocked by output columns (Nk16n: each block of columns a row-major
    panel); a dim that is not a multiple of `block` is padded."""
    b = block
    activations = {4: f"NCHW->nChw{b}c"}
    weights = {
        2: f"KN->Nk{b}n",
        3: f"CHW->Chw{b}c",
        4: f"OIHW->OIhw{b}i{b}o",
        5: f"GOIHW->GOIhw{b}i{b}o",
    }
    return activations, weights


def transposed_matrix_tag(tag: str) -> str:
    """The tag of a matrix stored transposed (`KN->Nk16n` → `NK->Nk16n`): the same physical
    blocks, for weights kept [N, K] as Gemm's `transB=1` (PyTorch's Linear) keeps them, which
    importers transpose at run time."""
    source, destination = tag.split("->")
    return f"{source[::-1]}->{destination}"


_TRANSPOSED = re.compile(
    r"linalg\.transpose ins\((%\w+) : memref<\d+x\d+xf32>\).*permutation = \[1, 0\]"
)
_FILTER = re.compile(r"linalg\.conv_2d_nchw_fchw\b.*\bins\(%\w+, (%\w+) :")
_VIEW = re.compile(r"^\s*(%\w+) = memref\.subview (%\w+)\[", re.MULTILINE)
_FUNCTION = re.compile(r"^\s*func\.func @main\((.*)\)\s*\{\s*$")
_ARGUMENT = re.compile(r"(%\w+): (memref<[^>]*xf32>)")
_DEFINITION = re.compile(r"^\s*(%\w+) = memref\.(alloc|get_global)\b.*: (memref<[^>]*xf32>)\s*$")


def _assign(value: str, memref: str, tags: dict[int, str]) -> str | None:
    """The `layout.assign` of `value`'s tag by rank, less the blocks of dims shorter than
    their block (as oneDNN's first convolution blocks only the output channels of its
    3-channel weights: `Oihw16o`); none when no block is left (a 3-channel image, a
    reduction's kept dim of 1), which oneDNN keeps plain too."""
    rank = memref.count("x")
    if rank not in tags:
        return None
    source, destination = tags[rank].split("->")
    extents = [int(e) for e in memref.removeprefix("memref<").split("x")[:-1]]
    for size, letter in re.findall(r"(\d+)([a-z])", destination):
        if extents[source.index(letter.upper())] < int(size):
            destination = destination.replace(f"{size}{letter}", "")
            destination = destination.replace(letter.upper(), letter)
    if not any(c.isdigit() for c in destination):
        return None
    tag = f"{source}->{destination}"
    return f'    layout.assign {value} to #layout.tag<"{tag}"> : {memref}'


def _viewed(views: dict[str, str], value: str) -> str:
    """The buffer a value is a view of (itself if it is none)."""
    while value in views:
        value = views[value]
    return value


def with_onednn_layouts(text: str, block: int = 4) -> tuple[str, int]:
    """The imported program with a `layout.assign` of `onednn_tags(block)` on every f32
    argument, allocation and weight global of rank 2 to 5 (a matrix the program transposes
    gets the transposed tag: its readers see the blocks `onednn_tags` means; a buffer a
    convolution reads as its filter, or views of it, the weights' tag: ConvTranspose's flipped
    weights, read by the convolutions of its output phases), and how many it got."""
    activations, weights = onednn_tags(block)
    transposed = {**weights, 2: transposed_matrix_tag(weights[2])}
    read_transposed = set(_TRANSPOSED.findall(text))
    views = dict(_VIEW.findall(text))
    filters = {_viewed(views, f) for f in _FILTER.findall(text)}
    lines: list[str] = []
    assigned = 0
    for line in text.splitlines():
        lines.append(line)
        found: list[tuple[str, str, dict[int, str]]] = []
        if (function := _FUNCTION.match(line)) is not None:
            found = [(v, t, activations) for v, t in _ARGUMENT.findall(function.group(1))]
        elif (definition := _DEFINITION.match(line)) is not None:
            value, kind, memref = definition.groups()
            tags = activations
            if kind == "get_global" or value in filters:
                tags = transposed if value in read_transposed else weights
            found = [(value, memref, tags)]
        for value, memref, tags in found:
            if (assign := _assign(value, memref, tags)) is not None:
                lines.append(assign)
                assigned += 1
    return "\n".join(lines) + "\n", assigned


def resnet18(seed: int = 0, size: int = 224, classes: int = 1000, width: int = 64) -> Any:
    """ResNet-18 with its batch norms folded into the convolutions' biases: the stem (7x7
    stride 2, max-pool), four stages of two basic blocks (`width`, 2·, 4·, 8· channels; the
    first block of stages 2–4 strided, with a 1x1 shortcut), global average pool and the
    classifier; x[1,3,size,size] → y[1,classes]. At the defaults, 11.7 M weights."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    node = helper.make_node
    weights: list[Any] = []
    nodes: list[Any] = []

    def conv(source: str, name: str, cin: int, cout: int, k: int, stride: int) -> str:
        scale = np.sqrt(2.0 / (cin * k * k))
        weights.append(_scaled(rng, f"{name}_w", (cout, cin, k, k), scale))
        weights.append(_scaled(rng, f"{name}_b", (cout,), 0.1))
        pad = k // 2
        nodes.append(
            _conv(
                name,
                source,
                f"{name}_w",
                f"{name}_b",
                kernel_shape=[k, k],
                pads=[pad] * 4,
                strides=[stride, stride],
            )
        )
        return name

    def relu(source: str) -> str:
        nodes.append(node("Relu", [source], [f"{source}_r"]))
        return f"{source}_r"

    x = relu(conv("x", "stem", 3, width, 7, 2))
    nodes.append(node("MaxPool", [x], ["pool"], kernel_shape=[3, 3], pads=[1] * 4, strides=[2, 2]))
    x, channels = "pool", width
    for stage in range(4):
        out = width * 2**stage
        for block in range(2):
            stride = 2 if stage and not block else 1
            name = f"s{stage}b{block}"
            h = relu(conv(x, f"{name}c1", channels, out, 3, stride))
            h = conv(h, f"{name}c2", out, out, 3, 1)
            shortcut = conv(x, f"{name}sc", channels, out, 1, stride) if stride > 1 else x
            nodes.append(node("Add", [h, shortcut], [f"{name}_sum"]))
            x, channels = relu(f"{name}_sum"), out
    nodes.append(node("GlobalAveragePool", [x], ["gap"]))
    nodes.append(node("Flatten", ["gap"], ["flat"]))
    weights.append(_scaled(rng, "fc_w", (classes, channels), np.sqrt(1.0 / channels)))
    weights.append(_scaled(rng, "fc_b", (classes,), 0.1))
    nodes.append(node("Gemm", ["flat", "fc_w", "fc_b"], ["y"], transB=1))
    return graph_model(
        nodes, [_tensor("x", [1, 3, size, size])], [_tensor("y", [1, classes])], weights
    )


def _scaled(rng: np.random.Generator, name: str, shape: tuple[int, ...], scale: float) -> Any:
    from onnx import numpy_helper

    values = rng.uniform(-scale, scale, shape).astype(np.float32)
    return numpy_helper.from_array(values, name)
