"""Benchmark: a module of real-size weights (ResNet-18's convolutions) parsed, lowered and
compiled natively, next to `mlir-opt-22` reading and printing the same file.

The module holds the 20 convolution weights of ResNet-18 and its classifier (as a 1x1
convolution: 11.7 M floats, 89 MB of hex at full size) as constant `memref.global`s, written
as `dense<"0x…">` (what the ONNX import path writes) or as `dense_resource<…>` with the blobs
in the file's `dialect_resources`; `--mb N` scales every channel count so that the file is
about N MB. `@main` gives every weight a blocked layout (`layout.assign … "ABCD->ABCD8b8a"`,
OIhw8i8o) and reduces it, each element times its output channel, into one number per weight
(checked against numpy). Timed in this process: reading and parsing the file
(`parse_program`, the limit checks included), `layout-lower` (which repacks every
initializer), printing the lowered module, and the native build's steps (`mlir-opt-22` to
LLVM, code generation, linking) and run; then the peak resident memory of this process and
of its children (the MLIR tools). The baseline is `mlir-opt-22 FILE -o /dev/null` in a child.

    python benchmarks/big_constants.py [--mb 90] [--form hex|resource] [--keep FILE]
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))

RESNET18 = (
    [(64, 3, 7, 7)]
    + [(64, 64, 3, 3)] * 4
    + [(128, 64, 3, 3), *[(128, 128, 3, 3)] * 3, (128, 64, 1, 1)]
    + [(256, 128, 3, 3), *[(256, 256, 3, 3)] * 3, (256, 128, 1, 1)]
    + [(512, 256, 3, 3), *[(512, 512, 3, 3)] * 3, (512, 256, 1, 1)]
    + [(1000, 512, 1, 1)]
)
"""ResNet-18's convolution weights (OIHW) and its classifier as a 1x1 convolution."""
LAYOUT = '#layout.tag<"ABCD->ABCD8b8a">'
HEX_BYTES_PER_WEIGHT = 8


def shapes(scale: float) -> list[tuple[int, int, int, int]]:
    """The shapes with every channel count but the image's 3 scaled."""

    def channels(c: int) -> int:
        return c if c == 3 else max(1, round(c * scale))

    return [(channels(o), channels(i), h, w) for o, i, h, w in RESNET18]


def scale_for(megabytes: float) -> float:
    """The channel scale whose module is about `megabytes` of hex."""
    full = sum(math.prod(s) for s in RESNET18) * HEX_BYTES_PER_WEIGHT / 1e6
    scale = min(1.0, math.sqrt(megabytes / full))
    for _ in range(4):
        size = sum(math.prod(s) for s in shapes(scale)) * HEX_BYTES_PER_WEIGHT / 1e6
        scale = min(1.0, scale * math.sqrt(megabytes / size))
    return scale


def weights(scale: float) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [rng.standard_normal(s, dtype=np.float32) for s in shapes(scale)]


def module_text(tensors: list[np.ndarray], form: str) -> str:
    count = len(tensors)
    lines = ["module {"]
    blobs = []
    for i, tensor in enumerate(tensors):
        memref = f"memref<{'x'.join(map(str, tensor.shape))}xf32>"
        if form == "hex":
            initial = f'dense<"0x{tensor.tobytes().hex().upper()}">'
        else:
            initial = f"dense_resource<w{i}>"
            blobs.append(f'      w{i}: "0x04000000{tensor.tobytes().hex().upper()}"')
        lines.append(
            f'  memref.global "private" constant @w{i} : {memref} = {initial} '
            "{alignment = 64 : i64}"
        )
    lines.append(f"  func.func @main(%out: memref<{count}xf32>) {{")
    lines.append("    %zero = arith.constant 0.0 : f32")
    identity = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    scalar = "affine_map<(d0, d1, d2, d3) -> ()>"
    for i, tensor in enumerate(tensors):
        memref = f"memref<{'x'.join(map(str, tensor.shape))}xf32>"
        lines += [
            f"    %w{i} = memref.get_global @w{i} : {memref}",
            f"    layout.assign %w{i} to {LAYOUT} : {memref}",
            f"    %acc{i} = memref.alloc() : memref<f32>",
            f"    linalg.fill ins(%zero : f32) outs(%acc{i} : memref<f32>)",
            f"    linalg.generic {{indexing_maps = [{identity}, {scalar}], iterator_types = "
            '["reduction", "reduction", "reduction", "reduction"]} '
            f"ins(%w{i} : {memref}) outs(%acc{i} : memref<f32>) {{",
            "    ^bb0(%in: f32, %o: f32):",
            "      %d = linalg.index 0 : index",
            "      %di = arith.index_cast %d : index to i64",
            "      %df = arith.sitofp %di : i64 to f32",
            "      %p = arith.mulf %in, %df : f32",
            "      %s = arith.addf %o, %p : f32",
            "      linalg.yield %s : f32",
            "    }",
            f"    %c{i} = arith.constant {i} : index",
            f"    %v{i} = memref.load %acc{i}[] : memref<f32>",
            f"    memref.store %v{i}, %out[%c{i}] : memref<{count}xf32>",
            f"    memref.dealloc %acc{i} : memref<f32>",
        ]
    lines += ["    return", "  }", "}"]
    if blobs:
        lines += ["{-#", "  dialect_resources: {", "    builtin: {", ",\n".join(blobs)]
        lines += ["    }", "  }", "#-}"]
    return "\n".join(lines) + "\n"


def expected(tensors: list[np.ndarray]) -> np.ndarray:
    return np.array(
        [
            np.einsum("ochw,o->", t.astype(np.float64), np.arange(t.shape[0], dtype=np.float64))
            for t in tensors
        ]
    )


def peak_mib(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


def timed(what: str, rows: list[tuple[str, float, float]], action):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = action()
    rows.append((what, time.perf_counter() - start, peak_mib(resource.RUSAGE_SELF)))
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=90.0, help="module size in MB (default 90)")
    parser.add_argument("--form", choices=("hex", "resource"), default="hex")
    parser.add_argument("--keep", type=Path, help="also write the generated module here")
    args = parser.parse_args()

    from heterolayout.dialects.context import parse_program
    from heterolayout.execution.native.module import compile_module
    from heterolayout.execution.native.module import module_text as native_text
    from heterolayout.execution.native.toolchain import find_mlir_tool
    from heterolayout.passes.pipeline import apply_pipeline

    scale = scale_for(args.mb)
    tensors = weights(scale)
    count = sum(t.size for t in tensors)
    text = module_text(tensors, args.form)
    rows: list[tuple[str, float, float]] = [
        ("generate the module (numpy, hex)", 0.0, peak_mib(resource.RUSAGE_SELF))
    ]
    with tempfile.TemporaryDirectory(prefix="big-constants-") as work:
        os.environ["HETEROLAYOUT_CACHE_DIR"] = work  # a fresh build, never a cached one
        path = Path(work) / "weights.mlir"
        path.write_text(text)
        if args.keep is not None:
            args.keep.write_text(text)
        mlir_opt = find_mlir_tool("mlir-opt")
        if mlir_opt is not None:
            upstream = Path(work) / "weights.upstream.mlir"
            upstream.write_text(
                "".join(line for line in text.splitlines(True) if "layout.assign" not in line)
            )
            timed(
                "mlir-opt-22 FILE -o /dev/null (baseline, without the layout.assigns)",
                rows,
                lambda: subprocess.run([mlir_opt, str(upstream), "-o", os.devnull], check=True),
            )
        source = timed("read the file", rows, path.read_text)
        module = timed(
            "parse_program (limit checks, parse, verify)",
            rows,
            lambda: parse_program(source, str(path)),
        )
        lowered = timed(
            "layout-lower (repacks every initializer)",
            rows,
            lambda: apply_pipeline(module, "layout-lower"),
        )
        timed("print the lowered module (native engine's text)", rows, lambda: native_text(lowered))
        library = compile_module(lowered)
        times, peak = library.times, peak_mib(resource.RUSAGE_SELF)
        rows += [
            ("native: mlir-opt-22 to LLVM", times.lower, peak),
            ("native: code generation (mlir-runner-22 -O3)", times.codegen, peak),
            ("native: link", times.link, peak),
        ]
        out = np.zeros(len(tensors), np.float32)
        engine_start = time.perf_counter()
        import heterolayout

        heterolayout.run(lowered, "main", [out], engine="native")
        rows.append(
            (
                "native: load and run @main",
                time.perf_counter() - engine_start,
                peak_mib(resource.RUSAGE_SELF),
            )
        )
    reference = expected(tensors)
    error = float(np.max(np.abs(out - reference) / (1 + np.abs(reference))))
    print(
        f"# big constants: {len(tensors)} weights of ResNet-18's shapes (channels x{scale:.3g}), "
        f"{count:,} floats, {len(text) / 1e6:.1f} MB as {args.form}; "
        f"{platform.machine()}, Python {platform.python_version()}"
    )
    print()
    print("| step | wall s | peak resident MiB so far |")
    print("| --- | --- | --- |")
    for what, seconds, peak in rows:
        print(f"| {what} | {seconds:.2f} | {peak:.0f} |")
    print()
    print(f"results against numpy: max relative error {error:.2e}")
    return 0 if error < 1e-3 else 1


if __name__ == "__main__":
    sys.exit(main())
