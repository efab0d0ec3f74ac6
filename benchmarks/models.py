"""Benchmark: the models of the import issue, laid out and scheduled, against onnxruntime and
IREE on the same inputs, single-threaded, interleaved in one run (issue 28, point 5).

The models are built with `onnx.helper` and seeded random weights (tests/onnx_models.py): the
ResNet basic block (Conv 3x3 64→64 pad 1 + bias, Relu, Conv, Add the input, Relu on
1x64x56x56, 462 MFLOP) and the MLP (MatMul 256x512 + Add + Relu + MatMul 512x256, batch 64,
33.6 MFLOP), a MobileNetV2 inverted residual (1x1 32→192 + bias, ReLU6 as Clip, depthwise 3x3
pad 1 + bias, ReLU6, 1x1 192→32 + bias, Add the input on 1x32x28x28, 21.6 MFLOP), a
transformer encoder layer (one head, 128 tokens, width 256, feed-forward 1024: Softmax,
two LayerNormalizations, GELU with Erf, 218 MFLOP), and, each only when named, with
`--model resnet18` a whole ResNet-18 (224x224, batch norms folded, 3.6 GFLOP, 11.7 M weights)
and with `--model gpt2` a GPT-2 feed-forward block as exporters write it (LayerNorm written
out with Pow 2, GELU's tanh approximation with Pow 3; 128 tokens, width 256, hidden 1024,
134 MFLOP). Each is imported (`heterolayout.import_model`), given
oneDNN-style layouts on every image activation and weight global (`with_onednn_layouts`,
blocks of 16: nChw16c, OIhw16i16o, Chw16c, KN->Nk16n; matrices and sequences of activations
plain, as oneDNN's matmul keeps them) and run natively in these forms (scheduled for the
host's CPU, the pass's default target, as IREE is compiled for it):

- `layouts, scheduled`: `layout-schedule{fma=true reassociate=true},layout-lower` on the
  program as imported (its compute is linalg named ops);
- `layouts, scheduled, libm`: the same with `approximate=false` (`reassociate=true` implies
  `approximate=true`: f32 `math.exp`, `erf`, `tanh` and `log` as vectorized polynomials;
  here libm calls, one per element, as upstream lowers them);
- `layouts, scheduled, exact`: `layout-schedule,layout-lower` (results as the program's);
- `no layouts, scheduled`: the imported program without layouts through the passes of the
  first row;
- `loops first, layouts, scheduled`: the hand step of the issue, `mlir-opt-22
  --convert-linalg-to-affine-loops` before the layouts, then as the first row: what
  `layout-schedule` reaches on loop nests, the mark for reading linalg ops directly.

The peers are onnxruntime (ORT_ENABLE_ALL: NCHWc convolutions, fused activations; one
intra- and inter-op thread) and IREE (`iree-compile` for llvm-cpu and the host CPU,
`local-sync`: one thread). Every output is compared with onnxruntime's first
(`heterolayout.frontends.reference.compare_output`); a mismatch stops the run. Each form is
calibrated to calls per round of about `--min-time` seconds; `--rounds` rounds alternate
the order of the forms; the table gives the median milliseconds per call and the ratio to
onnxruntime (below 1: faster). heterolayout's forms are timed by the native engine's timing
driver (`heterolayout.execution.native.benchmarking.TimedFunction`: the kernel kept
out of line, an opaque call between calls); the peers by `time.perf_counter` around their
Python calls, whose overhead (microseconds) is below these models' times.

    python -m benchmarks.models [--model block|mlp|mobilenet|encoder|resnet18|gpt2|all]
                                [--rounds 7] [--min-time 0.3] [--small]

Needs the `onnx` extra (onnx, onnxruntime, iree-base-compiler) and `iree-base-runtime`; a
peer that is missing is left out with a line saying so.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.execution.native.benchmarking import TimedFunction
from heterolayout.frontends.reference import compare_output
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.passes.schedule.layout_schedule import host_target
from tests.mlir_tools import find_mlir_tool
from tests.onnx_models import (
    basic_block,
    encoder_layer,
    gpt2_mlp,
    inverted_residual,
    mlp,
    random_input,
    resnet18,
    with_onednn_layouts,
)

FAST = "layout-schedule{fma=true reassociate=true},layout-lower"
LIBM = "layout-schedule{fma=true reassociate=true approximate=false},layout-lower"
EXACT = "layout-schedule,layout-lower"
BLOCK = 16


@dataclass(frozen=True)
class Model:
    name: str
    build: Callable[[], Any]
    shape: tuple[int, ...]
    mflop: float


def _block(channels: int, size: int) -> Model:
    flop = 2 * 2 * size * size * channels * channels * 9
    return Model(
        "block",
        lambda: basic_block(channels=channels, size=size),
        (1, channels, size, size),
        flop / 1e6,
    )


def _mlp(batch: int, widths: tuple[int, int, int]) -> Model:
    k, h, n = widths
    return Model(
        "mlp",
        lambda: mlp(batch=batch, widths=widths),
        (batch, k),
        2 * batch * (k * h + h * n) / 1e6,
    )


def _mobilenet(channels: int, size: int, expand: int) -> Model:
    wide = channels * expand
    flop = 2 * size * size * (2 * channels * wide + 9 * wide)
    return Model(
        "mobilenet",
        lambda: inverted_residual(channels=channels, size=size, expand=expand),
        (1, channels, size, size),
        flop / 1e6,
    )


def _encoder(tokens: int, width: int, hidden: int) -> Model:
    flop = 2 * tokens * (4 * width * width + 2 * tokens * width + 2 * width * hidden)
    return Model(
        "encoder",
        lambda: encoder_layer(tokens=tokens, width=width, hidden=hidden),
        (1, tokens, width),
        flop / 1e6,
    )


NAMED_ONLY = ("resnet18", "gpt2")
"""Models `--model all` leaves out: each runs only when named."""
RESNET18_GFLOP = 3.64
"""ResNet-18's multiply-adds at 224x224, counted as two flops each (1.82 G multiply-adds)."""


def models(small: bool) -> list[Model]:
    if small:
        return [_block(16, 8), _mlp(8, (32, 64, 32)), _mobilenet(8, 8, 4), _encoder(8, 16, 32)]
    return [
        _block(64, 56),
        _mlp(64, (256, 512, 256)),
        _mobilenet(32, 28, 6),
        _encoder(128, 256, 1024),
        Model("resnet18", resnet18, (1, 3, 224, 224), RESNET18_GFLOP * 1e3),
        Model(
            "gpt2",
            lambda: gpt2_mlp(tokens=128, width=256, hidden=1024),
            (1, 128, 256),
            2 * 128 * 2 * 256 * 1024 / 1e6,
        ),
    ]


class Contender:
    """One way to run a model: `seconds(calls)` times `calls` calls back to back."""

    def __init__(self, label: str, seconds: Callable[[int], float], output: np.ndarray) -> None:
        self.label = label
        self.seconds = seconds
        self.output = output
        self.calls = 1
        self.per_call: list[float] = []

    def calibrate(self, min_time: float) -> None:
        while (elapsed := self.seconds(self.calls)) < min_time:
            self.calls = max(self.calls + 1, int(self.calls * 1.5 * min_time / max(elapsed, 1e-6)))

    def round(self) -> None:
        self.per_call.append(self.seconds(self.calls) / self.calls)

    @property
    def median_ms(self) -> float:
        return 1e3 * statistics.median(self.per_call)


def interleave(found: list[Contender], rounds: int, min_time: float) -> None:
    """Calibrate each contender to `min_time` seconds a round, then time `rounds` rounds,
    every other one in reverse order, so drifts of a shared machine hit all of them."""
    for contender in found:
        contender.calibrate(min_time)
    for index in range(rounds):
        for contender in found if index % 2 == 0 else list(reversed(found)):
            contender.round()


def _python_loop(call: Callable[[], Any]) -> Callable[[int], float]:
    def seconds(calls: int) -> float:
        start = time.perf_counter()
        for _ in range(calls):
            call()
        return time.perf_counter() - start

    return seconds


def onnxruntime_contender(model: Any, x: np.ndarray) -> Contender:
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    (output,) = session.run(None, {"x": x})
    return Contender(
        "onnxruntime (ORT_ENABLE_ALL)", _python_loop(lambda: session.run(None, {"x": x})), output
    )


def iree_contender(model: Any, x: np.ndarray, workdir: Path) -> Contender | str:
    """IREE's llvm-cpu build for the host CPU on `local-sync`, or why it cannot run."""
    try:
        import iree.compiler.tools
        import iree.runtime
        import onnx
    except ImportError as error:
        return f"IREE left out: {error.name} is not installed (pip install iree-base-compiler iree-base-runtime)"
    source, imported, binary = workdir / "m.onnx", workdir / "m.mlir", workdir / "m.vmfb"
    onnx.save(model, str(source))
    importer = [
        sys.executable,
        "-m",
        "iree.compiler.tools.import_onnx",
        str(source),
        "-o",
        str(imported),
    ]
    subprocess.run(importer, check=True, capture_output=True)
    iree.compiler.tools.compile_file(
        str(imported),
        output_file=str(binary),
        target_backends=["llvm-cpu"],
        extra_args=["--iree-llvmcpu-target-cpu=host"],
    )
    config = iree.runtime.Config("local-sync")
    context = iree.runtime.SystemContext(config=config)
    context.add_vm_module(iree.runtime.VmModule.mmap(config.vm_instance, str(binary)))
    function = context.modules.module[model.graph.name]
    output = np.asarray(function(x).to_host())
    return Contender(
        "IREE llvm-cpu host (local-sync)", _python_loop(lambda: function(x).to_host()), output
    )


def heterolayout_contender(
    label: str, text: str, pipeline: str, x: np.ndarray, out_shape: tuple[int, ...]
) -> Contender:
    module = apply_pipeline(parse_program(text), pipeline)
    timed = TimedFunction(module, "main")
    y = np.zeros(out_shape, np.float32)
    timed.seconds([x, y], 1)
    return Contender(f"heterolayout: {label}", lambda calls: timed.seconds([x, y], calls), y.copy())


def linalg_to_loops(text: str) -> str:
    mlir_opt = find_mlir_tool("mlir-opt")
    if mlir_opt is None:
        raise SystemExit("models.py: needs mlir-opt-22 (apt install mlir-22-tools)")
    done = subprocess.run(
        [mlir_opt, "--convert-linalg-to-affine-loops"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def contenders(model: Model, workdir: Path) -> tuple[list[Contender], list[str]]:
    onnx_model = model.build()
    x = random_input(model.shape, seed=11)
    reference = onnxruntime_contender(onnx_model, x)
    imported = heterolayout.import_model(onnx_model)
    laid_out, _ = with_onednn_layouts(imported, BLOCK)
    loops, _ = with_onednn_layouts(linalg_to_loops(imported), BLOCK)
    shape = reference.output.shape
    found = [
        reference,
        heterolayout_contender("layouts, scheduled", laid_out, FAST, x, shape),
        heterolayout_contender("layouts, scheduled, libm", laid_out, LIBM, x, shape),
        heterolayout_contender("layouts, scheduled, exact", laid_out, EXACT, x, shape),
        heterolayout_contender("no layouts, scheduled", imported, FAST, x, shape),
        heterolayout_contender("loops first, layouts, scheduled", loops, FAST, x, shape),
    ]
    notes = []
    iree = iree_contender(onnx_model, x, workdir)
    if isinstance(iree, str):
        notes.append(iree)
    else:
        found.insert(1, iree)
    for contender in found[1:]:
        comparison = compare_output("y", contender.output, reference.output)
        if not comparison.within:
            raise SystemExit(f"models.py: {model.name}: {contender.label}: {comparison}")
    return found, notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--model",
        choices=["block", "mlp", "mobilenet", "encoder", *NAMED_ONLY, "all"],
        default="all",
        help=f"all: every model but {' and '.join(NAMED_ONLY)} (each only when named)",
    )
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--min-time", type=float, default=0.3)
    parser.add_argument("--small", action="store_true", help="tiny sizes (a smoke run)")
    args = parser.parse_args(argv)
    threads = os.environ.get("OMP_NUM_THREADS", "unset")
    print(
        f"# models: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, one thread per peer (OMP_NUM_THREADS={threads}); "
        f"{args.rounds} interleaved rounds, medians; layout-schedule target=host: {host_target()}"
    )
    with tempfile.TemporaryDirectory() as scratch:
        for model in models(args.small):
            if args.model != model.name and (args.model != "all" or model.name in NAMED_ONLY):
                continue
            workdir = Path(scratch) / model.name
            workdir.mkdir()
            found, notes = contenders(model, workdir)
            interleave(found, args.rounds, args.min_time)
            base = found[0].median_ms
            print(f"\n## {model.name} ({model.mflop:.1f} MFLOP): outputs equal onnxruntime's")
            print("| form | ms per call | GFLOP/s | / onnxruntime |")
            print("| --- | --- | --- | --- |")
            for contender in found:
                ms = contender.median_ms
                print(
                    f"| {contender.label} | {ms:.3f} | {model.mflop / ms:.1f} | {ms / base:.2f} |"
                )
            for note in notes:
                print(note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
