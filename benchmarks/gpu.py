"""Benchmark: layouts on an NVIDIA GPU (issue 19), timed with CUDA events next to a
device-to-device copy of the same bytes.

- Conversions of an f32 64×64×56×56 tensor, each a `layout.convert` lowered with
  `layout-lower{convert=gpu}`: NCHW → nChw32c, NCHW → NHWC, nChw16c → NCHW (source and
  destination are contiguous along different dims in all three, so each is a 32×32
  shared-memory tile transpose, writes in the destination's memory order). Baseline: `cudaMemcpy` device to device of the tensor's bytes;
  the table gives each conversion's time as a multiple of the copy's (issue 19 asks for at
  least 0.8× copy bandwidth, i.e. a ratio of at most 1.25) and the copy's bandwidth.
- The NCHW4 int8 convolution of `examples/gpu_conv_nchw4_int8.mlir` at 1×64×58×58 input,
  64 3×3 filters (4 channels per i32 word), against the same kernel on plain NCHW int8.

Every kernel is built by heterolayout (lowered, outlined by upstream `gpu-kernel-outlining`,
compiled to PTX by mlir-opt-22) and launched through CuPy with the grid of its `gpu.launch`.
Before timing, each result is checked against numpy (a conversion against the layouts'
`pack`/`unpack`, the blocked convolution against the plain one); nothing is printed for a
kernel whose result differs. Without CuPy or a GPU the script says so and exits 1;
`--ptx-only` builds every kernel and prints its PTX entry and launch shape (no GPU needed).

    python -m benchmarks.gpu [--small] [--ptx-only] [--repeat N] [--chip sm_90]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import gpu
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import BlockArgument

from heterolayout import parse_layout
from heterolayout.dialects.arith_ops import constant_index
from heterolayout.dialects.context import parse_program
from heterolayout.execution.cuda.engine import load_cupy, outline_launches, scalar_type
from heterolayout.execution.cuda.ptx import compile_ptx, entry_names
from heterolayout.execution.entry import find_function
from heterolayout.execution.runtime.values import element_of
from heterolayout.passes.pipeline import apply_pipeline

REPOSITORY = Path(__file__).resolve().parent.parent
CONVERSIONS = (
    ("NCHW -> nChw32c", None, '#layout.tag<"NCHW->nChw32c">'),
    ("NCHW -> NHWC", None, '#layout.tag<"NCHW->NHWC">'),
    ("nChw16c -> NCHW", '#layout.tag<"NCHW->nChw16c">', None),
)


@dataclass
class Kernel:
    """One launch of a built program: where its PTX is, its grid, and its arguments (an
    index into the entry function's arguments, or a constant with its type)."""

    module: str
    name: str
    grid: tuple[int, ...]
    block: tuple[int, ...]
    arguments: list[tuple[str, Any, Any]]
    ptx: str


@dataclass
class Program:
    title: str
    buffers: list[tuple[tuple[int, ...], Any]]
    """Shape and numpy dtype of each argument of @main (physical)."""
    kernels: list[Kernel]


def memref(shape: tuple[int, ...], element: str, layout: str | None) -> str:
    dims = "x".join(map(str, shape))
    return f"memref<{dims}x{element}{', ' + layout if layout else ''}>"


def conversion_text(shape: tuple[int, ...], source: str | None, target: str | None) -> str:
    a, b = memref(shape, "f32", source), memref(shape, "f32", target)
    return f"""module attributes {{gpu.container_module}} {{
  func.func @main(%a: {a}, %b: {b}) {{
    layout.convert %a to %b : {a} to {b}
    return
  }}
}}"""


def conv_text(channels: int, size: int, blocked: bool) -> str:
    """The example's NCHW4 kernel at `channels` in and out, `size`² input, or plain NCHW."""
    text = (REPOSITORY / "examples" / "gpu_conv_nchw4_int8.mlir").read_text()
    out = size - 2
    text = text.replace("1x8x6x6xi8", f"1x{channels}x{size}x{size}xi8")
    text = text.replace("8x8x3x3xi8", f"{channels}x{channels}x3x3xi8")
    text = text.replace("1x8x4x4xi32", f"1x{channels}x{out}x{out}xi32")
    text = text.replace(
        "%c8 = arith.constant 8 : index", f"%c8 = arith.constant {channels} : index"
    )
    text = text.replace("threads in (%c4, %c4, %c1)", "threads in (%cw, %cw, %c1)")
    text = text.replace(
        "%c4 = arith.constant 4 : index",
        f"%c4 = arith.constant 4 : index\n    %cw = arith.constant {out} : index",
    )
    if not blocked:
        for alias in ("#x4", "#w4", "#y4"):
            text = text.replace(f", {alias}>", ">")
    return text


def build(title: str, text: str, chip: str) -> Program:
    lowered = apply_pipeline(parse_program(text, title), "layout-lower{convert=gpu}")
    outlined = outline_launches(lowered)
    main = find_function(outlined, "main")
    buffers = []
    for type_attr in main.function_type.inputs.data:
        assert isinstance(type_attr, MemRefType)
        buffers.append(
            (tuple(type_attr.get_shape()), element_of(type_attr.element_type).numpy_dtype)
        )
    ptx = compile_ptx(outlined, (), chip=chip)
    kernels = []
    for launch in main.walk():
        if not isinstance(launch, gpu.LaunchFuncOp):
            continue
        sizes = [constant_index(v) for v in launch.operands[:6]]
        assert all(s is not None for s in sizes), f"{title}: a launch size is not constant"
        arguments: list[tuple[str, Any, Any]] = []
        for value in launch.kernelOperands:
            if isinstance(value, BlockArgument):
                arguments.append(("buffer", value.index, None))
            else:
                arguments.append(("constant", constant_index(value), scalar_type(value.type)))
        module = launch.kernel.root_reference.data
        name = launch.kernel.nested_references.data[0].data
        kernels.append(
            Kernel(module, name, tuple(sizes[:3]), tuple(sizes[3:]), arguments, ptx[module])  # type: ignore[arg-type]
        )
    return Program(title, buffers, kernels)


def programs(small: bool, chip: str) -> tuple[list[tuple[Program, Any]], tuple[Program, Program]]:
    shape = (2, 64, 7, 7) if small else (64, 64, 56, 56)
    conversions = []
    for title, source, target in CONVERSIONS:
        program = build(title, conversion_text(shape, source, target), chip)
        layouts = (
            parse_layout(source or "NCHW->NCHW", shape, dtype="f32"),
            parse_layout(target or "NCHW->NCHW", shape, dtype="f32"),
        )
        conversions.append((program, layouts))
    channels, size = (8, 6) if small else (64, 58)
    convs = (
        build("conv NCHW4 int8", conv_text(channels, size, True), chip),
        build("conv NCHW int8", conv_text(channels, size, False), chip),
    )
    return conversions, convs


class Gpu:
    def __init__(self, chip: str) -> None:
        self.cupy = load_cupy()
        self.directory = tempfile.TemporaryDirectory(prefix="heterolayout-bench-")
        self.loaded: dict[str, Any] = {}

    def function(self, kernel: Kernel) -> Any:
        if kernel.module not in self.loaded:
            path = Path(self.directory.name) / f"{kernel.module}.ptx"
            path.write_text(kernel.ptx)
            self.loaded[kernel.module] = self.cupy.RawModule(path=str(path))
        return self.loaded[kernel.module].get_function(kernel.name)

    def launcher(self, program: Program, buffers: list[Any]) -> Any:
        calls = []
        for kernel in program.kernels:
            args = tuple(
                buffers[value] if kind == "buffer" else scalar(value)
                for kind, value, scalar in kernel.arguments
            )
            calls.append((self.function(kernel), kernel.grid, kernel.block, args))

        def run() -> None:
            for function, grid, block, args in calls:
                function(grid, block, args)

        return run

    def time(self, run: Any, repeat: int) -> float:
        """Median milliseconds per call over `repeat` event-timed calls (after a warm-up)."""
        run()
        self.cupy.cuda.runtime.deviceSynchronize()
        times = []
        for _ in range(repeat):
            start, end = self.cupy.cuda.Event(), self.cupy.cuda.Event()
            start.record()
            run()
            end.record()
            end.synchronize()
            times.append(self.cupy.cuda.get_elapsed_time(start, end))
        return statistics.median(times)

    def copy(self, nbytes: int) -> tuple[Any, Any]:
        source = self.cupy.zeros(nbytes, dtype=np.uint8)
        target = self.cupy.empty_like(source)

        def run() -> None:
            self.cupy.cuda.runtime.memcpy(target.data.ptr, source.data.ptr, nbytes, 3)

        return run, nbytes


def bench_conversions(device: Gpu, conversions: list[tuple[Program, Any]], repeat: int) -> None:
    print("| conversion (f32) | kernel ms | copy ms | kernel / copy | copy GB/s |")
    print("| --- | --- | --- | --- | --- |")
    rng = np.random.default_rng(0)
    for program, (source_layout, target_layout) in conversions:
        logical = rng.standard_normal(source_layout.static_logical_shape).astype(np.float32)
        source = device.cupy.asarray(source_layout.pack(logical))
        target = device.cupy.zeros(program.buffers[1][0], dtype=np.float32)
        run = device.launcher(program, [source, target])
        run()
        got = target_layout.unpack(device.cupy.asnumpy(target))
        if not np.array_equal(got, logical):
            print(f"| {program.title} | WRONG RESULT | | | |")
            continue
        kernel = device.time(run, repeat)
        copy_run, nbytes = device.copy(logical.nbytes)
        copy = device.time(copy_run, repeat)
        bandwidth = 2 * nbytes / copy / 1e6
        print(
            f"| {program.title} | {kernel:.4f} | {copy:.4f} | {kernel / copy:.2f} | {bandwidth:.0f} |"
        )


def bench_convs(device: Gpu, convs: tuple[Program, Program], repeat: int) -> None:
    blocked, plain = convs
    rng = np.random.default_rng(1)
    x = rng.integers(-128, 128, plain.buffers[0][0], dtype=np.int8)
    w = rng.integers(-128, 128, plain.buffers[1][0], dtype=np.int8)
    shapes = [b[0] for b in plain.buffers]
    layouts = [
        parse_layout('#layout.tag<"NCHW->NCHW4c", pack = i32>', shapes[0], dtype="i8"),
        parse_layout('#layout.tag<"OIHW->OIHW4i", pack = i32>', shapes[1], dtype="i8"),
        parse_layout('#layout.tag<"NCHW->NCHW4c">', shapes[2], dtype="i32"),
    ]
    plain_buffers = [
        device.cupy.asarray(x),
        device.cupy.asarray(w),
        device.cupy.zeros(shapes[2], dtype=np.int32),
    ]
    blocked_buffers = [
        device.cupy.asarray(layouts[0].pack(x).view(np.int32)),
        device.cupy.asarray(layouts[1].pack(w).view(np.int32)),
        device.cupy.zeros(blocked.buffers[2][0], dtype=np.int32),
    ]
    runs = [device.launcher(plain, plain_buffers), device.launcher(blocked, blocked_buffers)]
    for run in runs:
        run()
    reference = device.cupy.asnumpy(plain_buffers[2])
    if not np.array_equal(layouts[2].unpack(device.cupy.asnumpy(blocked_buffers[2])), reference):
        print("conv NCHW4 int8: WRONG RESULT (differs from the NCHW kernel)")
        return
    plain_ms, blocked_ms = (device.time(run, repeat) for run in runs)
    print("| convolution int8 | ms | / NCHW |")
    print("| --- | --- | --- |")
    print(f"| NCHW (plain) | {plain_ms:.4f} | 1.00 |")
    print(f"| NCHW4 (i32 words) | {blocked_ms:.4f} | {blocked_ms / plain_ms:.2f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="small shapes (a quick run)")
    parser.add_argument("--ptx-only", action="store_true", help="build the kernels, no GPU")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--chip", default="sm_90")
    args = parser.parse_args(argv)
    conversions, convs = programs(args.small, args.chip)
    if args.ptx_only:
        for program in [p for p, _ in conversions] + list(convs):
            for kernel in program.kernels:
                entries = entry_names(kernel.ptx)
                print(
                    f"{program.title}: {kernel.module}::{kernel.name} grid {kernel.grid} block {kernel.block} ptx {entries}"
                )
        return 0
    try:
        device = Gpu(args.chip)
    except Exception as error:
        print(f"benchmarks/gpu.py: {error}", file=sys.stderr)
        return 1
    bench_conversions(device, conversions, args.repeat)
    print()
    bench_convs(device, convs, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
