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

    python -m benchmarks.big_constants [--mb 90] [--form hex|resource] [--keep FILE]
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
IDENTITY = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
SCALAR = "affine_map<(d0, d1, d2, d3) -> ()>"


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


def weight(shape: tuple[int, ...], index: int) -> np.ndarray:
    """Weight `index`, the same every time it is made: the file is written one weight at a
    time, and the benchmark holds none of them while it measures."""
    return np.random.default_rng([0, index]).standard_normal(shape, dtype=np.float32)


def _memref(shape: tuple[int, ...]) -> str:
    return f"memref<{'x'.join(map(str, shape))}xf32>"


def _reduction(i: int, shape: tuple[int, ...], count: int) -> str:
    """Weight `i`, laid out OIhw8i8o, reduced (each element times its output channel) into
    `%out[i]`."""
    memref = _memref(shape)
    lines = [
        f"    %w{i} = memref.get_global @w{i} : {memref}",
        f"    layout.assign %w{i} to {LAYOUT} : {memref}",
        f"    %acc{i} = memref.alloc() : memref<f32>",
        f"    linalg.fill ins(%zero : f32) outs(%acc{i} : memref<f32>)",
        f"    linalg.generic {{indexing_maps = [{IDENTITY}, {SCALAR}], iterator_types = "
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
    return "\n".join(lines) + "\n"


def write_module(path: Path, all_shapes: list[tuple[int, int, int, int]], form: str) -> np.ndarray:
    """Write the module; return what @main computes, in float64 (numpy)."""
    count = len(all_shapes)
    expected = np.zeros(count)
    with path.open("w") as out:
        out.write("module {\n")
        for i, shape in enumerate(all_shapes):
            tensor = weight(shape, i)
            channel = np.arange(shape[0], dtype=np.float64)
            expected[i] = np.einsum("ochw,o->", tensor.astype(np.float64), channel)
            initial = (
                f'dense<"0x{tensor.tobytes().hex().upper()}">'
                if form == "hex"
                else f"dense_resource<w{i}>"
            )
            out.write(
                f'  memref.global "private" constant @w{i} : {_memref(shape)} = {initial} '
                "{alignment = 64 : i64}\n"
            )
        out.write(f"  func.func @main(%out: memref<{count}xf32>) {{\n")
        out.write("    %zero = arith.constant 0.0 : f32\n")
        for i, shape in enumerate(all_shapes):
            out.write(_reduction(i, shape, count))
        out.write("    return\n  }\n}\n")
        if form == "resource":
            out.write("{-#\n  dialect_resources: {\n    builtin: {\n")
            for i, shape in enumerate(all_shapes):
                comma = "," if i + 1 < count else ""
                blob = weight(shape, i).tobytes().hex().upper()
                out.write(f'      w{i}: "0x04000000{blob}"{comma}\n')
            out.write("    }\n  }\n#-}\n")
    return expected


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(what: str, rows: list[tuple[str, float, float]], action):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = action()
    rows.append((what, time.perf_counter() - start, peak_mib()))
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--mb", type=float, default=94.0, help="module size in MB (default 94: ResNet-18 whole)"
    )
    parser.add_argument("--form", choices=("hex", "resource"), default="hex")
    parser.add_argument("--keep", type=Path, help="also write the generated module here")
    args = parser.parse_args()

    import heterolayout
    from heterolayout.dialects.context import parse_program
    from heterolayout.execution.native.module import compile_module
    from heterolayout.execution.native.module import module_text as native_text
    from heterolayout.execution.native.toolchain import find_mlir_tool
    from heterolayout.passes.pipeline import apply_pipeline

    scale = scale_for(args.mb)
    all_shapes = shapes(scale)
    count = sum(math.prod(shape) for shape in all_shapes)
    rows: list[tuple[str, float, float]] = []
    with tempfile.TemporaryDirectory(prefix="big-constants-") as work:
        os.environ["HETEROLAYOUT_CACHE_DIR"] = work  # a fresh build, never a cached one
        path = Path(work) / "weights.mlir"
        reference = timed(
            "write the module (numpy, one weight at a time)",
            rows,
            lambda: write_module(path, all_shapes, args.form),
        )
        size = path.stat().st_size
        if args.keep is not None:
            args.keep.write_bytes(path.read_bytes())
        mlir_opt = find_mlir_tool("mlir-opt")
        if mlir_opt is not None:
            upstream = Path(work) / "weights.upstream.mlir"
            with path.open() as source, upstream.open("w") as target:
                target.writelines(line for line in source if "layout.assign" not in line)
            timed(
                "mlir-opt-22 FILE -o /dev/null (baseline, without the layout.assigns)",
                rows,
                lambda: subprocess.run([mlir_opt, str(upstream), "-o", os.devnull], check=True),
            )
            upstream.unlink()
        text = timed("read the file", rows, path.read_text)
        start = time.perf_counter()
        module = parse_program(text, str(path))
        rows.append(
            ("parse_program (limit checks, parse, verify)", time.perf_counter() - start, peak_mib())
        )
        del text
        start = time.perf_counter()
        lowered = apply_pipeline(module, "layout-lower")
        rows.append(
            ("layout-lower (repacks every initializer)", time.perf_counter() - start, peak_mib())
        )
        del module
        timed("print the lowered module (native engine's text)", rows, lambda: native_text(lowered))
        library = compile_module(lowered)
        times, peak = library.times, peak_mib()
        rows += [
            ("native: mlir-opt-22 to LLVM", times.lower, peak),
            ("native: code generation (mlir-runner-22 -O3)", times.codegen, peak),
            ("native: link", times.link, peak),
        ]
        out = np.zeros(len(all_shapes), np.float32)
        timed(
            "native: load and run @main",
            rows,
            lambda: heterolayout.run(lowered, "main", [out], engine="native"),
        )
    error = float(np.max(np.abs(out - reference) / (1 + np.abs(reference))))
    print(
        f"# big constants: {len(all_shapes)} weights of ResNet-18's shapes (channels "
        f"x{scale:.3g}), {count:,} floats, {size / 1e6:.1f} MB as {args.form}; "
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
