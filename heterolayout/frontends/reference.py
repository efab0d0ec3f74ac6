"""The framework's own run of a model, compared with heterolayout's run of the imported
program on the same inputs (`layout-run --reference MODEL.onnx`, or `MODEL.pt2`).

onnxruntime runs an ONNX model, PyTorch a `torch.export` program; the program runs in a heterolayout engine (after whatever
pipeline the user gave it). Each graph output is compared element by element as numpy's
`isclose` does: |got - expected| <= atol + rtol * |expected|, NaN equal to NaN.

The default tolerance is per element type: for f32, rtol 1e-4 and an atol of 1e-4 times the
output's largest magnitude (at least 1e-4). The program and onnxruntime sum the same products
in different orders (onnxruntime's kernels block and vectorize their reductions, the
program's loops run in their own order). A reordered sum moves by a few units in the last
place of the sum of its terms' magnitudes, not of its result: where the terms cancel, an
output near zero carries the error of the large terms, which only a bound on the output's
scale admits (the output's largest magnitude stands for it). Measured on MLPs and 3x3
convolutions of 64 to 512 channels, the largest error was 5e-7 to 2e-6 of the output's
largest magnitude, on transformer encoder layers up to 6e-6; on a BERT-base layer (width 768,
128 tokens, random weights whose attention scores reach the hundreds, so that the softmax
magnifies every rounding) onnxruntime's own output is 1.2e-5 of it away from the float64
evaluation and two float32 runs 2.7e-5 from each other, at BERT-large sizes 3.5e-5 and 3.7e-5
(`benchmarks/accuracy.py`, benchmarks/RESULTS.md): a factor of 1e-5 would reject
onnxruntime against exact arithmetic. 1e-4 admits two correct float32
runs with room and is ten times tighter than onnxruntime's own model tests (1e-3 absolute
plus 1e-3 relative). f64 gets 1e-10 and 1e-12, f16 1e-2 and 1e-3 (the same scaling);
integers and booleans must be equal. `rtol` and `atol` given explicitly are used as they are
(`atol` absolute).
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from heterolayout.dialects.functions import argument_names
from heterolayout.execution.api import run
from heterolayout.execution.arguments import random_value
from heterolayout.execution.entry import find_function
from heterolayout.execution.named import bind_named, output_keys
from heterolayout.frontends.errors import ONNX_EXTRA, FrontendError, MissingFrontend
from heterolayout.frontends.signature import one_line
from heterolayout.frontends.torch_import import is_exported_program

TOLERANCES: dict[str, tuple[float, float]] = {
    "float64": (1e-10, 1e-12),
    "float32": (1e-4, 1e-4),
    "float16": (1e-2, 1e-3),
}
"""Per element type, the default rtol, and the default atol per unit of the output's largest
magnitude; other types compare exactly."""


def tolerance(expected: np.ndarray) -> tuple[float, float]:
    """The default (rtol, atol) for an expected output (the module docstring says why)."""
    rtol, atol = TOLERANCES.get(expected.dtype.name, (0.0, 0.0))
    finite = np.abs(expected[np.isfinite(expected)]) if expected.dtype.kind == "f" else None
    scale = float(finite.max(initial=1.0)) if finite is not None else 1.0
    return rtol, atol * max(scale, 1.0)


@dataclass(frozen=True)
class OutputComparison:
    """One graph output of the program against the framework's."""

    name: str
    max_abs: float
    max_rel: float
    rtol: float
    atol: float
    over: int
    """Elements over the tolerance (all of them when the shapes differ)."""
    size: int
    shape_note: str = ""

    @property
    def within(self) -> bool:
        return self.over == 0 and not self.shape_note

    def __str__(self) -> str:
        if self.shape_note:
            return f"{self.name}: {self.shape_note}"
        verdict = "ok" if self.within else f"{self.over} of {self.size} elements over"
        return (
            f"{self.name}: max abs error {self.max_abs:.3g}, max relative error "
            f"{self.max_rel:.3g} (rtol {self.rtol:.3g}, atol {self.atol:.3g}): {verdict}"
        )


@dataclass(frozen=True)
class ReferenceReport:
    """Every graph output compared, and the framework that computed the expected values."""

    outputs: tuple[OutputComparison, ...]
    framework: str = "onnxruntime"

    @property
    def equal(self) -> bool:
        return all(o.within for o in self.outputs)

    def __str__(self) -> str:
        lines = [str(o) for o in self.outputs]
        if self.equal:
            count = f"{len(self.outputs)} output{'s' if len(self.outputs) != 1 else ''}"
            lines.append(f"OK: {count} within tolerance of {self.framework}")
        else:
            failed = ", ".join(o.name for o in self.outputs if not o.within)
            lines.append(f"MISMATCH with {self.framework}: {failed}")
        return "\n".join(lines)


def compare_output(
    name: str,
    actual: Any,
    expected: np.ndarray,
    rtol: float | None = None,
    atol: float | None = None,
) -> OutputComparison:
    """One output against the framework's, with the default tolerance of its type unless
    `rtol` / `atol` are given."""
    default_rtol, default_atol = tolerance(expected)
    rtol = default_rtol if rtol is None else rtol
    atol = default_atol if atol is None else atol
    got = np.asarray(actual)
    if got.shape != expected.shape:
        note = f"shape {list(got.shape)}, the framework's {list(expected.shape)}"
        return OutputComparison(name, 0.0, 0.0, rtol, atol, expected.size, expected.size, note)
    left, right = got.astype(np.float64), expected.astype(np.float64)
    both_nan = np.isnan(left) & np.isnan(right)
    difference = np.where(both_nan, 0.0, np.abs(left - right))
    difference = np.where(np.isnan(difference), np.inf, difference)
    magnitude = np.abs(right)
    nonzero = magnitude > 0
    relative = difference[nonzero] / magnitude[nonzero]
    over = int(np.count_nonzero(difference > atol + rtol * magnitude))
    return OutputComparison(
        name,
        float(difference.max(initial=0.0)),
        float(relative.max(initial=0.0)),
        rtol,
        atol,
        over,
        expected.size,
    )


@dataclass(frozen=True)
class Framework:
    """A framework's run of the model: its name, the model's input and output names in
    order, and `run(feed by input name) -> outputs in order`."""

    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    run: Callable[[dict[str, np.ndarray]], list[np.ndarray]]


def onnxruntime_framework(model: str | os.PathLike[str] | Any) -> Framework:
    """onnxruntime's CPU session of an ONNX file or ModelProto."""
    try:
        import onnxruntime
    except ImportError:
        raise MissingFrontend(
            f"comparing with onnxruntime needs the onnxruntime package: {ONNX_EXTRA}"
        ) from None
    source = model if isinstance(model, (str, os.PathLike)) else model.SerializeToString()
    try:
        session = onnxruntime.InferenceSession(source, providers=["CPUExecutionProvider"])
    except Exception as error:
        raise FrontendError(f"onnxruntime cannot load the model: {one_line(error)}") from None

    def run_session(feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        try:
            return [np.asarray(v) for v in session.run(None, feed)]
        except Exception as error:
            raise FrontendError(f"onnxruntime failed on these inputs: {one_line(error)}") from None

    return Framework(
        "onnxruntime",
        tuple(i.name for i in session.get_inputs()),
        tuple(o.name for o in session.get_outputs()),
        run_session,
    )


def torch_framework(program: str | os.PathLike[str] | Any) -> Framework:
    """PyTorch's run of a `torch.export` program (or a file `torch.export.save` wrote)."""
    try:
        import torch
    except ImportError:
        raise MissingFrontend(
            "comparing with a torch.export program needs PyTorch: pip install torch"
        ) from None
    exported: Any = program
    if not is_exported_program(program):
        try:
            exported = torch.export.load(str(program))
        except Exception as error:
            raise FrontendError(
                f"{program}: not a torch.export program ({one_line(error)})"
            ) from None
    signature = exported.graph_signature
    inputs = tuple(str(n) for n in signature.user_inputs)
    module = exported.module()

    def run_module(feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        with torch.no_grad():
            result = module(*(torch.from_numpy(feed[n]) for n in inputs))
        values = result if isinstance(result, (tuple, list)) else (result,)
        return [v.detach().numpy() for v in values]

    return Framework("PyTorch", inputs, tuple(str(n) for n in signature.user_outputs), run_module)


def framework_for(model: str | os.PathLike[str] | Any) -> Framework:
    """The framework a model file or object belongs to: torch for an exported program (a
    `.pt2` zip archive), onnxruntime for an ONNX model."""
    if isinstance(model, (str, os.PathLike)) and not os.path.isfile(model):
        raise FrontendError(f"{model}: no such model file")
    if is_exported_program(model) or (
        isinstance(model, (str, os.PathLike)) and zipfile.is_zipfile(model)
    ):
        return torch_framework(model)
    return onnxruntime_framework(model)


def compare_with_reference(
    module: ModuleOp,
    model: str | os.PathLike[str] | Any,
    inputs: Mapping[str | int, Any] | None = None,
    *,
    entry: str = "main",
    engine: str = "auto",
    seed: int = 0,
    rtol: float | None = None,
    atol: float | None = None,
) -> ReferenceReport:
    """Run the program and the model's framework (onnxruntime for ONNX, PyTorch for a
    `torch.export` program) on the same inputs (given by graph name or position, or seeded
    random data for the program's inputs) and compare every graph output.

    The program's arguments meet the model's inputs by graph name, or by position for an
    argument without one; its outputs meet the model's outputs the same way."""
    framework = framework_for(model)
    function = find_function(module, entry)
    names = argument_names(function)
    if inputs is None:
        rng = np.random.default_rng(seed)
        inputs = {
            i: random_value(t, rng)
            for i, (n, t) in enumerate(zip(names, function.function_type.inputs.data, strict=True))
            if n is None or not n.output
        }
    arguments = bind_named(function, inputs)
    feed = {}
    by_name = {n.name: i for i, n in enumerate(names) if n is not None}
    for position, graph_input in enumerate(framework.inputs):
        index = by_name.get(graph_input, position)
        if index >= len(arguments):
            raise FrontendError(f"the model's input '{graph_input}' has no argument of @{entry}")
        feed[graph_input] = np.array(arguments[index], copy=True)
    results = run(module, entry, dict(enumerate(arguments)), engine)
    expected = framework.run(feed)
    keys = [key for key, _ in output_keys(function)]
    compared = []
    for position, (graph_output, value) in enumerate(zip(framework.outputs, expected, strict=True)):
        key = graph_output if graph_output in results else None
        if key is None and position < len(keys):
            key = keys[position]
        if key is None:
            raise FrontendError(f"the model's output '{graph_output}' has no output of @{entry}")
        compared.append(compare_output(graph_output, results[key], value, rtol, atol))
    return ReferenceReport(tuple(compared), framework.name)
