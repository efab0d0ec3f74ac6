"""Small ONNX models with seeded random weights, built with `onnx.helper`, for the import
tests (tests/test_import.py, tests/test_run_models.py), and what the tests need around them:
the skips, onnxruntime's outputs, and layouts inserted into an imported program."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest
from mlir_tools import require_native_engine

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


def _model(nodes: list[Any], inputs: list[Any], outputs: list[Any], weights: list[Any]) -> Any:
    from onnx import checker, helper

    graph = helper.make_graph(nodes, "graph", inputs, outputs, weights)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    checker.check_model(model)
    return model


def _tensor(name: str, shape: list[int | str]) -> Any:
    from onnx import TensorProto, helper

    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def mlp(seed: int = 0, *, batch: int | str = 4, perturb: float = 0.0) -> Any:
    """x[batch,8] → MatMul w1[8,16] → Add b1 → Relu → MatMul w2[16,6] → y; `perturb` adds
    to one weight of w2 (a model that computes something else)."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    weights = [_weights(rng, "w1", (8, 16)), _weights(rng, "b1", (16,))]
    w2 = rng.uniform(-1, 1, (16, 6)).astype(np.float32)
    w2[3, 2] += perturb
    from onnx import numpy_helper

    weights.append(numpy_helper.from_array(w2, "w2"))
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["h"]),
        helper.make_node("Add", ["h", "b1"], ["hb"]),
        helper.make_node("Relu", ["hb"], ["r"]),
        helper.make_node("MatMul", ["r", "w2"], ["y"]),
    ]
    return _model(nodes, [_tensor("x", [batch, 8])], [_tensor("y", [batch, 6])], weights)


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
    return _model(nodes, [_tensor("x", shape)], [_tensor("y", shape)], weights)


def two_by_two() -> Any:
    """Inputs zeta, alpha (not in sorted order) and outputs sum, diff: zeta + alpha, zeta - alpha."""
    from onnx import helper

    nodes = [
        helper.make_node("Add", ["zeta", "alpha"], ["sum"]),
        helper.make_node("Sub", ["zeta", "alpha"], ["diff"]),
    ]
    return _model(
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
