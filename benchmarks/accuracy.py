"""Benchmark: how far each run of a model lies from the model evaluated in float64.

onnxruntime and heterolayout add the same products in different orders, so each moves the
f32 output by its own rounding errors. On small models those stay far inside
`compare_output`'s default tolerance; at a BERT-base layer's sizes (width 768,
feed-forward 3072, softmax over scores in the hundreds with these random weights) each run
is up to about 1.5e-5 of the output's largest magnitude away from the exact result, and two
runs up to about 3e-5 from each other (the default admits 1e-4 of it; it admitted 1e-5,
which onnxruntime itself failed against exact arithmetic). This benchmark is the arbiter: the model with every f32 tensor made f64, run by ONNX's reference
evaluator. For onnxruntime (ORT_ENABLE_ALL, one thread) and heterolayout's pipelines of
benchmarks/models.py (`fast`: `layout-schedule{fma=true reassociate=true},layout-lower`;
`exact`: `layout-schedule,layout-lower`; both with the oneDNN-style layouts) it prints the
largest and the mean error against float64, how many elements lie outside the default
tolerance of the float64 output, and how many outside that of onnxruntime's output (the
check benchmarks/models.py makes).

    python -m benchmarks.accuracy [--model block|mlp|mobilenet|encoder|bert|all] [--small]

The models are benchmarks/models.py's; `bert` is its encoder layer at BERT-base sizes (128
tokens, width 768, feed-forward 3072). Needs the `onnx` extra.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
from typing import Any

import numpy as np

import heterolayout
from benchmarks.models import (
    BLOCK,
    EXACT,
    FAST,
    Model,
    _encoder,
    heterolayout_contender,
    models,
    onnxruntime_contender,
)
from heterolayout.frontends.reference import compare_output
from tests.onnx_models import random_input, with_onednn_layouts


def in_float64(model: Any) -> Any:
    """The model with its f32 initializers, constants, casts and value types made f64."""
    from onnx import TensorProto, numpy_helper

    wide = copy.deepcopy(model)

    def widened(tensor: Any) -> Any:
        array = numpy_helper.to_array(tensor).astype(np.float64)
        return numpy_helper.from_array(array, tensor.name)

    for initializer in wide.graph.initializer:
        if initializer.data_type == TensorProto.FLOAT:
            initializer.CopyFrom(widened(initializer))
    for value in [*wide.graph.input, *wide.graph.output, *wide.graph.value_info]:
        if value.type.tensor_type.elem_type == TensorProto.FLOAT:
            value.type.tensor_type.elem_type = TensorProto.DOUBLE
    for node in wide.graph.node:
        for attribute in node.attribute:
            if attribute.name == "to" and attribute.i == TensorProto.FLOAT:
                attribute.i = TensorProto.DOUBLE
            if attribute.HasField("t") and attribute.t.data_type == TensorProto.FLOAT:
                attribute.t.CopyFrom(widened(attribute.t))
    return wide


def float64_output(model: Any, x: np.ndarray) -> np.ndarray:
    from onnx.reference import ReferenceEvaluator

    (output,) = ReferenceEvaluator(in_float64(model)).run(None, {"x": x.astype(np.float64)})
    return np.asarray(output)


def bert() -> Model:
    return dataclasses.replace(_encoder(128, 768, 3072), name="bert")


def rows(model: Model) -> list[tuple[str, float, float, int, int]]:
    """(run, largest error, mean error, elements outside the tolerance of the float64
    output, elements outside that of onnxruntime's) for onnxruntime and each pipeline."""
    onnx_model = model.build()
    x = random_input(model.shape, seed=11)
    exact = float64_output(onnx_model, x)
    expected = exact.astype(np.float32)
    reference = onnxruntime_contender(onnx_model, x).output
    laid_out, _ = with_onednn_layouts(heterolayout.import_model(onnx_model), BLOCK)
    runs = {"onnxruntime": reference}
    for label, pipeline in (("heterolayout fast", FAST), ("heterolayout exact", EXACT)):
        runs[label] = heterolayout_contender(label, laid_out, pipeline, x, exact.shape).output
    found = []
    for label, output in runs.items():
        error = np.abs(output.astype(np.float64) - exact)
        over_exact = compare_output("y", output, expected).over
        over_reference = compare_output("y", output, reference).over
        found.append((label, float(error.max()), float(error.mean()), over_exact, over_reference))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--model", choices=["block", "mlp", "mobilenet", "encoder", "bert", "all"], default="all"
    )
    parser.add_argument("--small", action="store_true", help="tiny sizes (a smoke run)")
    args = parser.parse_args(argv)
    chosen = [m for m in models(args.small) if m.name in ("block", "mlp", "mobilenet", "encoder")]
    if not args.small:
        chosen.append(bert())
    for model in chosen:
        if args.model not in ("all", model.name):
            continue
        found = rows(model)
        print(f"## {model.name} ({model.mflop:.1f} MFLOP), errors against the model in float64")
        print(
            "| run | max abs error | mean abs error | elements over the tolerance of float64 "
            "| of onnxruntime |"
        )
        print("| --- | --- | --- | --- | --- |")
        for label, largest, mean, over_exact, over_reference in found:
            print(f"| {label} | {largest:.3g} | {mean:.3g} | {over_exact} | {over_reference} |")
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
