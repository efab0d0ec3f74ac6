"""Random ONNX models, written as exporters write CNNs and transformer encoder layers.

The program fuzzer (`programs.py`) draws MLIR programs; this draws what users start from: a
model, imported, laid out and scheduled, to be compared with onnxruntime
(`benchmarks/model_fuzz.py`). Seven in ten are CNNs: an image [N, C, H, W] through one to four
layers drawn from convolutions (1x1, 3x3, 5x5; strides, dilations, symmetric or asymmetric
pads; dense, depthwise with a multiplier, grouped with groups narrower or wider than the
layouts' channel blocks), ConvTranspose (strides, pads, output padding), poolings (three in
ten with `ceil_mode`), batch norms, activations, residual blocks, channel concatenations,
squeeze-excitation, nearest Resize, Pad (constant, reflect, edge), per-channel arithmetic, a
Softmax over channels or a ReduceMean over the image, and sometimes a classifier head
(GlobalAveragePool, Flatten, Gemm, Softmax). The others are encoder layers [1, T, W] with 1,
2 or 4 heads, an optional causal mask, post-norm LayerNormalization and a feed-forward block
with GELU (Erf), ReLU or SiLU. Weights and inputs are seeded uniform in [-1, 1].
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from heterolayout.frontends.pool_windows import ceil_output_size
from tests.onnx_models import _constant, _feed_forward, _tensor, _weights, graph_model

CNN_SHARE = 0.7
"""The share of CNNs among the drawn models; the rest are encoder layers."""
CEIL_SHARE = 0.3
"""The share of pools drawn with `ceil_mode` (as PyTorch exports `ceil_mode=True`)."""

LAYERS = (
    "conv",
    "conv",
    "conv",
    "depthwise",
    "grouped",
    "pool",
    "batch norm",
    "activation",
    "residual",
    "concat",
    "conv transpose",
    "squeeze-excitation",
    "resize",
    "pad",
    "channel arithmetic",
    "channel reduction",
)
"""What a CNN layer may be (dense convolutions drawn three times as often)."""

ACTIVATIONS = ("Relu", "Sigmoid", "Tanh", "LeakyRelu", "Clip", "HardSwish", "Elu", "Softplus")


@dataclass(frozen=True)
class RandomModel:
    """One drawn model: the ONNX model, its input's shape, and what it is made of."""

    seed: int
    kind: str
    """"cnn" or "encoder"."""
    model: Any
    shape: tuple[int, ...]
    layers: tuple[str, ...]


def random_model(seed: int, scale: int = 1) -> RandomModel:
    """The seed's model; `scale` multiplies its image sides, channel counts, tokens and widths
    (small models check quickly, larger ones are worth timing)."""
    rng = np.random.default_rng(seed)
    if rng.random() < CNN_SHARE:
        return _Cnn(rng, scale).build(seed)
    return _encoder(rng, seed, scale)


def _output_size(
    size: int, kernel: int, stride: int, before: int, after: int, dilation: int
) -> int:
    return (size + before + after - dilation * (kernel - 1) - 1) // stride + 1


class _Cnn:
    """A CNN under construction: its nodes, weights and the current activation's shape."""

    def __init__(self, rng: np.random.Generator, scale: int) -> None:
        self.rng = rng
        self.rounding = np.random.default_rng(rng.bit_generator.seed_seq.spawn(1)[0])  # type: ignore[attr-defined]
        """Whether a pool rounds up (`ceil_mode`), drawn from a stream of its own so that
        every seed's other draws stay as they were."""
        self.scale = scale
        self.nodes: list[Any] = []
        self.weights: list[Any] = []
        self.layers: list[str] = []
        self.count = 0
        batch = int(rng.choice([1, 1, 1, 2]))
        channels = int(rng.choice([3, 8 * scale, 16 * scale, 24 * scale, 32 * scale, 40 * scale]))
        height = int(rng.integers(6, 20)) * scale
        width = int(rng.integers(6, 20)) * scale if rng.random() < 0.3 else height
        self.input = [batch, channels, height, width]
        self.shape = list(self.input)
        self.value = "x"

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def weight(self, shape: tuple[int, ...]) -> str:
        name = self.fresh("w")
        self.weights.append(_weights(self.rng, name, shape))
        return name

    def constant(self, value: Any) -> str:
        name = self.fresh("k")
        self.weights.append(_constant(name, value))
        return name

    def node(self, op: str, inputs: list[str], **attributes: Any) -> str:
        from onnx import helper

        output = self.fresh(op.lower())
        self.nodes.append(helper.make_node(op, inputs, [output], **attributes))
        return output

    def build(self, seed: int) -> RandomModel:
        from onnx import helper

        steps: dict[str, Callable[[], bool]] = {
            "conv": self._conv,
            "depthwise": self._depthwise,
            "grouped": self._grouped,
            "pool": self._pool,
            "batch norm": self._batch_norm,
            "activation": self._activation,
            "residual": self._residual,
            "concat": self._concat,
            "conv transpose": self._conv_transpose,
            "squeeze-excitation": self._squeeze_excitation,
            "resize": self._resize,
            "pad": self._pad,
            "channel arithmetic": self._channel_arithmetic,
            "channel reduction": self._channel_reduction,
        }
        for _ in range(int(self.rng.integers(1, 5))):
            layer = str(self.rng.choice(LAYERS))
            if steps[layer]():
                self.layers.append(layer)
        if self.rng.random() < 0.3:
            self._head()
        self.nodes.append(helper.make_node("Identity", [self.value], ["y"]))
        model = graph_model(
            self.nodes, [_tensor("x", list(self.input))], [_tensor("y", self.shape)], self.weights
        )
        return RandomModel(seed, "cnn", model, tuple(self.input), tuple(self.layers))

    def _convolution(self, groups: int, outputs: int) -> bool:
        rng = self.rng
        n, c, h, w = self.shape
        kernel = int(rng.choice([1, 3, 3, 5]))
        stride = int(rng.choice([1, 1, 2]))
        dilation = int(rng.choice([1, 1, 2])) if kernel > 1 else 1
        if rng.random() < 0.2:
            pads = [int(p) for p in rng.integers(0, kernel, 4)]
        else:
            pads = [dilation * (kernel // 2)] * 4
        height = _output_size(h, kernel, stride, pads[0], pads[2], dilation)
        width = _output_size(w, kernel, stride, pads[1], pads[3], dilation)
        if height < 1 or width < 1:
            return False
        inputs = [self.value, self.weight((outputs, c // groups, kernel, kernel))]
        if rng.random() < 0.8:
            inputs.append(self.weight((outputs,)))
        self.value = self.node(
            "Conv",
            inputs,
            kernel_shape=[kernel, kernel],
            strides=[stride, stride],
            pads=pads,
            dilations=[dilation, dilation],
            group=groups,
        )
        self.shape = [n, outputs, height, width]
        return True

    def _conv(self) -> bool:
        outputs = int(self.rng.choice([8, 16, 24, 32, 48, 64])) * self.scale
        return self._convolution(1, outputs)

    def _depthwise(self) -> bool:
        channels = self.shape[1]
        return self._convolution(channels, channels * int(self.rng.choice([1, 2])))

    def _grouped(self) -> bool:
        divisors = [g for g in (2, 4, 8, 16, 32) if self.shape[1] % g == 0]
        if not divisors:
            return False
        groups = int(self.rng.choice(divisors))
        return self._convolution(groups, groups * int(self.rng.choice([1, 2, 4])))

    def _pool(self) -> bool:
        rng = self.rng
        n, c, h, w = self.shape
        kernel, stride = int(rng.choice([2, 3])), int(rng.choice([1, 2]))
        pad = int(rng.integers(0, kernel // 2 + 1))
        ceil = int(self.rounding.random() < CEIL_SHARE)
        if ceil:
            height, width = (ceil_output_size(e, kernel, stride, 1, pad, pad) for e in (h, w))
        else:
            height, width = (_output_size(e, kernel, stride, pad, pad, 1) for e in (h, w))
        if height < 1 or width < 1:
            return False
        op = str(rng.choice(["MaxPool", "AveragePool"]))
        self.value = self.node(
            op,
            [self.value],
            kernel_shape=[kernel, kernel],
            strides=[stride] * 2,
            pads=[pad] * 4,
            ceil_mode=ceil,
        )
        self.shape = [n, c, height, width]
        return True

    def _batch_norm(self) -> bool:
        c = self.shape[1]
        scale, shift, mean = (self.weight((c,)) for _ in range(3))
        variance = self.constant(self.rng.uniform(0.5, 1.5, c).astype(np.float32))
        self.value = self.node("BatchNormalization", [self.value, scale, shift, mean, variance])
        return True

    def _activation(self) -> bool:
        op = str(self.rng.choice(ACTIVATIONS))
        if op == "Clip":
            low, high = self.constant(np.float32(0)), self.constant(np.float32(6))
            self.value = self.node(op, [self.value, low, high])
        elif op == "LeakyRelu":
            self.value = self.node(op, [self.value], alpha=0.1)
        else:
            self.value = self.node(op, [self.value])
        return True

    def _residual(self) -> bool:
        c = self.shape[1]
        branch = self.node(
            "Conv", [self.value, self.weight((c, c, 3, 3))], kernel_shape=[3, 3], pads=[1] * 4
        )
        self.value = self.node("Add", [branch, self.value])
        return True

    def _concat(self) -> bool:
        n, c, h, w = self.shape
        outputs = int(self.rng.choice([8, 16])) * self.scale
        branch = self.node(
            "Conv", [self.value, self.weight((outputs, c, 1, 1))], kernel_shape=[1, 1]
        )
        self.value = self.node("Concat", [self.value, branch], axis=1)
        self.shape = [n, c + outputs, h, w]
        return True

    def _conv_transpose(self) -> bool:
        rng = self.rng
        n, c, h, w = self.shape
        kernel, stride = int(rng.choice([2, 3, 4])), int(rng.choice([1, 2]))
        pad = int(rng.integers(0, kernel // 2 + 1))
        extra = int(rng.integers(0, stride)) if stride > 1 else 0
        outputs = int(rng.choice([8, 16, 24])) * self.scale
        height = (h - 1) * stride - 2 * pad + kernel + extra
        width = (w - 1) * stride - 2 * pad + kernel + extra
        if height < 1 or width < 1:
            return False
        self.value = self.node(
            "ConvTranspose",
            [self.value, self.weight((c, outputs, kernel, kernel)), self.weight((outputs,))],
            kernel_shape=[kernel, kernel],
            strides=[stride, stride],
            pads=[pad] * 4,
            output_padding=[extra, extra],
        )
        self.shape = [n, outputs, height, width]
        return True

    def _squeeze_excitation(self) -> bool:
        c = self.shape[1]
        reduced = max(2, c // 4)
        pooled = self.node("GlobalAveragePool", [self.value])
        squeezed = self.node("Conv", [pooled, self.weight((reduced, c, 1, 1))], kernel_shape=[1, 1])
        relu = self.node("Relu", [squeezed])
        excited = self.node(
            "Conv", [relu, self.weight((c, reduced, 1, 1)), self.weight((c,))], kernel_shape=[1, 1]
        )
        gate = self.node("Sigmoid", [excited])
        self.value = self.node("Mul", [self.value, gate])
        return True

    def _resize(self) -> bool:
        scales = self.constant(np.array([1, 1, 2, 2], np.float32))
        self.value = self.node("Resize", [self.value, "", scales], mode="nearest")
        n, c, h, w = self.shape
        self.shape = [n, c, 2 * h, 2 * w]
        return True

    def _pad(self) -> bool:
        n, c, h, w = self.shape
        top, left, bottom, right = (int(p) for p in self.rng.integers(0, 3, 4))
        if min(h, w) <= max(top, left, bottom, right):
            return False
        pads = self.constant(np.array([0, 0, top, left, 0, 0, bottom, right], np.int64))
        mode = str(self.rng.choice(["constant", "reflect", "edge"]))
        self.value = self.node("Pad", [self.value, pads], mode=mode)
        self.shape = [n, c, h + top + bottom, w + left + right]
        return True

    def _channel_arithmetic(self) -> bool:
        op = str(self.rng.choice(["Mul", "Add", "Sub"]))
        self.value = self.node(op, [self.value, self.weight((self.shape[1], 1, 1))])
        return True

    def _channel_reduction(self) -> bool:
        if self.rng.random() < 0.5:
            self.value = self.node("Softmax", [self.value], axis=1)
        else:
            self.value = self.node("ReduceMean", [self.value], axes=[2, 3], keepdims=1)
            self.shape = [*self.shape[:2], 1, 1]
        return True

    def _head(self) -> None:
        n, c = self.shape[:2]
        self.value = self.node("GlobalAveragePool", [self.value])
        self.shape = [n, c, 1, 1]
        self.layers.append("pool head")
        if self.rng.random() < 0.5:
            classes = int(self.rng.choice([5, 10, 16]))
            flat = self.node("Flatten", [self.value])
            weights, bias = self.weight((classes, c)), self.weight((classes,))
            self.value = self.node("Gemm", [flat, weights, bias], transB=1)
            self.shape = [n, classes]
            self.layers.append("classifier")
            if self.rng.random() < 0.5:
                self.value = self.node("Softmax", [self.value], axis=-1)


def _encoder(rng: np.random.Generator, seed: int, scale: int) -> RandomModel:
    """A post-norm encoder layer: multi-head attention, residual, LayerNormalization, a
    feed-forward block and its residual."""
    from onnx import helper

    node = helper.make_node
    tokens = int(rng.choice([4, 7, 16, 33])) * scale
    width = int(rng.choice([8, 16, 24, 64])) * scale
    hidden = width * int(rng.choice([2, 4]))
    heads = int(rng.choice([h for h in (1, 2, 4) if width % h == 0]))
    head = width // heads
    shapes = {
        "wq": (width, width),
        "wk": (width, width),
        "wv": (width, width),
        "wo": (width, width),
        "bo": (width,),
        "gamma": (width,),
        "beta": (width,),
        "w1": (width, hidden),
        "b1": (hidden,),
        "w2": (hidden, width),
        "b2": (width,),
    }
    weights = [_weights(rng, name, shape) for name, shape in shapes.items()]
    weights += [
        _constant("root", np.float32(np.sqrt(head))),
        _constant("split", np.array([1, tokens, heads, head], np.int64)),
        _constant("merge", np.array([1, tokens, width], np.int64)),
    ]
    nodes = [node("MatMul", ["x", f"w{n}"], [n]) for n in "qkv"]
    for n in "qkv":
        perm = [0, 2, 3, 1] if n == "k" else [0, 2, 1, 3]
        nodes += [
            node("Reshape", [n, "split"], [f"{n}_heads"]),
            node("Transpose", [f"{n}_heads"], [f"{n}_t"], perm=perm),
        ]
    nodes += [node("MatMul", ["q_t", "k_t"], ["scores"]), node("Div", ["scores", "root"], ["s"])]
    layers = [f"{heads} head(s)"]
    if rng.random() < 0.5:
        mask = np.triu(np.full((tokens, tokens), -1e9, np.float32), 1)
        weights.append(_constant("mask", mask))
        nodes.append(node("Add", ["s", "mask"], ["masked"]))
        layers.append("causal")
    else:
        nodes.append(node("Identity", ["s"], ["masked"]))
    nodes += [
        node("Softmax", ["masked"], ["p"], axis=-1),
        node("MatMul", ["p", "v_t"], ["o"]),
        node("Transpose", ["o"], ["o_t"], perm=[0, 2, 1, 3]),
        node("Reshape", ["o_t", "merge"], ["mixed"]),
        node("MatMul", ["mixed", "wo"], ["a"]),
        node("Add", ["a", "bo"], ["ab"]),
        node("Add", ["ab", "x"], ["h1"]),
        node("LayerNormalization", ["h1", "gamma", "beta"], ["n1"], axis=-1),
    ]
    activation = str(rng.choice(["gelu", "relu", "silu"]))
    layers.append(activation)
    feed_forward = _feed_forward("n1")
    if activation == "gelu":
        weights += [
            _constant("half", np.float32(0.5)),
            _constant("one", np.float32(1.0)),
            _constant("root2", np.float32(np.sqrt(2.0))),
        ]
    else:
        activated = (
            [node("Relu", ["f2"], ["act"])]
            if activation == "relu"
            else [node("Sigmoid", ["f2"], ["sg"]), node("Mul", ["f2", "sg"], ["act"])]
        )
        # the same MatMul + bias into f2 and MatMul into f7, another activation between
        feed_forward = [*feed_forward[:2], *activated, node("MatMul", ["act", "w2"], ["f7"])]
    nodes += [
        *feed_forward,
        node("Add", ["f7", "b2"], ["f8"]),
        node("Add", ["f8", "n1"], ["y"]),
    ]
    shape = [1, tokens, width]
    model = graph_model(nodes, [_tensor("x", list(shape))], [_tensor("y", list(shape))], weights)
    return RandomModel(seed, "encoder", model, tuple(shape), tuple(layers))
