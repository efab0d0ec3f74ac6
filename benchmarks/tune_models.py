"""Benchmark: `layout-tune` on the models of the import issue, with no hand-chosen layout,
against the hand-picked oneDNN-style layouts, onnxruntime and IREE (issue 30).

Each model of benchmarks/models.py (the ResNet basic block, the MLP, the MobileNetV2
inverted residual, the transformer encoder layer; `--small` for tiny sizes) is imported and
tuned whole-program with `heterolayout.tune(..., fast_math=True)` (the measurements cached in
a fresh folder, so the tuning time is a cold one). The winner runs through the pipeline the
tuner reports; the hand-picked form is `with_onednn_layouts` (blocks of 16) through
`layout-schedule{fma=true reassociate=true},layout-lower`. Every output is compared with
onnxruntime's first; the forms are then timed interleaved in one run (benchmarks/models.py's
contenders: single-threaded, medians of `--rounds`). Prints per model the tuning time, the
winner's layouts per buffer, and a table of ms per call with the ratios.

    python -m benchmarks.tune_models [--model block|mlp|mobilenet|encoder|all] [--rounds 5]
                                     [--min-time 0.2] [--small]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import heterolayout
from benchmarks.models import (
    BLOCK,
    FAST,
    Contender,
    heterolayout_contender,
    interleave,
    iree_contender,
    models,
    onnxruntime_contender,
)
from heterolayout.frontends.reference import compare_output
from heterolayout.search.measure import Cache
from tests.onnx_models import random_input, with_onednn_layouts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--model", choices=["block", "mlp", "mobilenet", "encoder", "all"], default="all"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--min-time", type=float, default=0.2)
    parser.add_argument("--small", action="store_true", help="tiny sizes (a smoke run)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        for model in models(args.small):
            if model.name == "resnet18" or args.model not in ("all", model.name):
                continue
            onnx_model = model.build()
            imported = str(heterolayout.import_model(onnx_model))
            start = time.perf_counter()
            result = heterolayout.tune(
                imported, fast_math=True, cache=Cache(Path(scratch) / model.name)
            )
            tuning = time.perf_counter() - start
            x = random_input(model.shape, seed=11)
            reference = onnxruntime_contender(onnx_model, x)
            shape = reference.output.shape
            hand, _ = with_onednn_layouts(imported, BLOCK)
            found: list[Contender] = [
                reference,
                heterolayout_contender("tuned", result.program, result.pipeline, x, shape),
                heterolayout_contender("hand-picked (oneDNN, 16)", hand, FAST, x, shape),
                heterolayout_contender("as imported", imported, FAST, x, shape),
            ]
            workdir = Path(scratch) / f"{model.name}-iree"
            workdir.mkdir()
            iree = iree_contender(onnx_model, x, workdir)
            notes = [iree] if isinstance(iree, str) else []
            if not isinstance(iree, str):
                found.insert(1, iree)
            for contender in found[1:]:
                comparison = compare_output("y", contender.output, reference.output)
                if not comparison.within:
                    raise SystemExit(
                        f"tune_models.py: {model.name}: {contender.label}: {comparison}"
                    )
            interleave(found, args.rounds, args.min_time)
            print(
                f"\n## {model.name}: tuned in {tuning:.1f} s ({result.method}; "
                f"{result.measurements} measurements), outputs equal onnxruntime's"
            )
            print(f"winner: {result.winner.name}; pipeline: {result.pipeline}")
            chosen = ", ".join(
                f"{b}={layout}" for b, layout in sorted(result.winner.choice.items())
            )
            print(f"layouts: {chosen}")
            base = found[0].median_ms
            hand_ms = next(c for c in found if c.label.startswith("heterolayout: hand")).median_ms
            print("| form | ms per call | / onnxruntime | / hand-picked |")
            print("| --- | --- | --- | --- |")
            for contender in found:
                ms = contender.median_ms
                print(f"| {contender.label} | {ms:.3f} | {ms / base:.2f} | {ms / hand_ms:.2f} |")
            for note in notes:
                print(note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
