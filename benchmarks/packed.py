"""Benchmark: what bit-packing saves in memory and costs or gains in native time.

Part 1, physical bytes. For packed and unpacked tensors: the bytes the Layout model counts
(`Layout.nbytes`) and the bytes the lowered memref occupies natively (its element count
times the element's allocation size, measured in the same mlir-runner process with the GEP
trick MLIR's own memref lowering uses). MLIR stores an i1, i4 or i6 memref element in one
byte, so an unpacked bit tensor takes one byte per bit; i1 in i8 takes exactly ⌈n/8⌉
bytes; NHW(C6) in i6 or in vector<6xi1> takes one byte per 6 elements (6 of the byte's 8
bits used), not 6/8 of a byte.

Part 2, native time of a binary (XNOR-popcount) 3×3 convolution, input 1×48×34×34 bits,
32 filters, written once in NCHW like examples/binary_conv_nhwc6_*.mlir:

- *unpacked i1*: the kernel as written, one byte per bit (the baseline);
- *packed i6, lowered*: the same kernel with the input typed NHW(C6) `pack = i6`, through
  `layout-opt -p layout-lower` (a shift and a truncation per bit read);
- *packed vector<6xi1>, lowered*: the same with `pack = vector<6xi1>` (a vector.extract);
- *packed i6, xor-popcount*: hand-written on the physical words, input and weights both
  NHW(C6)/OHW(I6) in i6: one xor and one `math.ctpop` per 6 channels.

All four keep the kernel's loop structure (the accumulator lives in the output, as in the
example). The fills are written on logical memrefs and lowered too. One module holds
everything; `main` fills the buffers once, then for each repetition times N calls of each
version with `rtclock()` (JIT compile time excluded), rotating the order, and finally
prints each output's checksums, which must equal numpy's (the ±1 correlation over sliding
windows, an independent formulation) before any number is printed. The table gives the
median over repetitions of each version's time / the unpacked time.

    python benchmarks/packed.py [--quick] [--repeat N]
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY / "tests"))
from mlir_tools import LOWER_TO_LLVM, find_mlir_tool, find_runner_utils, lower_to_llvm  # noqa: E402

sys.path.pop(0)

import heterolayout  # noqa: E402

# math.ctpop needs its own conversion; everything else is the tests' pipeline.
PIPELINE = tuple(
    step for flag in LOWER_TO_LLVM
    for step in (("--convert-math-to-llvm", flag) if flag == "--convert-arith-to-llvm" else (flag,))
)

# ---- part 1: bytes --------------------------------------------------------------------------
@dataclass(frozen=True)
class Tensor:
    name: str
    spec: str
    shape: tuple[int, ...]
    dtype: str
    pack: str
    note: str


TENSORS = [
    Tensor("bits, n = 1001", "W->W8w", (1001,), "i1", "i8", "⌈1001/8⌉ = 126"),
    Tensor("bits, n = 55488", "W->W8w", (55488,), "i1", "i8", "⌈55488/8⌉ = 6936"),
    Tensor("conv input 1x48x34x34 i1", "NCHW->NHWC6c", (1, 48, 34, 34), "i1", "i6", "one byte per 6 bits"),
    Tensor("conv input 1x48x34x34 i1", "NCHW->NHWC6c", (1, 48, 34, 34), "i1", "vector<6xi1>", "one byte per 6 bits"),
    Tensor("seed NHW(C6) 4x6x8x8 i1", "NCHW->NHWC6c", (4, 6, 8, 8), "i1", "i6", "memref<4x8x8x1xi6>"),
    Tensor("int4 weights 16x8", "KN->NK2k", (16, 8), "i4", "i8", "two per byte"),
]

SIZE_TYPES = ("i1", "i4", "i6", "i8", "i16", "i32", "vector<6xi1>")


def element_sizes_program() -> str:
    """Print the allocation size of each element type, as MLIR's memref lowering computes it
    (the address of element 1 of a null pointer)."""
    lines = ["func.func @main() {", "  %null = llvm.mlir.zero : !llvm.ptr"]
    for k, name in enumerate(SIZE_TYPES):
        lines += [
            f"  %g{k} = llvm.getelementptr %null[1] : (!llvm.ptr) -> !llvm.ptr, {name}",
            f"  %s{k} = llvm.ptrtoint %g{k} : !llvm.ptr to i64",
            f"  vector.print %s{k} : i64",
        ]
    return "\n".join([*lines, "  func.return", "}"]) + "\n"


@dataclass(frozen=True)
class Tools:
    mlir_opt: str
    runner: str
    libs: list[str]


def run_runner(text: str, tools: Tools, *, pipeline: tuple[str, ...] = LOWER_TO_LLVM) -> str:
    llvm = lower_to_llvm(text, mlir_opt=tools.mlir_opt, pipeline=pipeline, timeout=600)
    command = [tools.runner, "-e", "main", "-entry-point-result=void", "-O3", "-shared-libs=" + ",".join(tools.libs)]
    run = subprocess.run(command, input=llvm, capture_output=True, text=True, check=False, timeout=1800)
    if run.returncode != 0:
        raise RuntimeError(f"mlir-runner failed (exit {run.returncode}):\n{run.stderr[-3000:]}")
    return run.stdout


def bytes_table(tools: Tools) -> list[list[str]]:
    printed = run_runner(element_sizes_program(), tools).split()
    sizes = dict(zip(SIZE_TYPES, (int(v) for v in printed), strict=True))
    rows = []
    for tensor in TENSORS:
        layout = heterolayout.parse_layout(tensor.spec, tensor.shape, dtype=tensor.dtype, pack=tensor.pack)
        n = math.prod(tensor.shape)
        storage = layout.storage_shape
        native = math.prod(storage) * sizes[tensor.pack]
        unpacked = n * sizes[tensor.dtype]
        rows.append([
            tensor.name,
            f'"{tensor.spec}", pack = {tensor.pack}',
            str(n),
            f"memref<{'x'.join(map(str, storage))}x{tensor.pack}>",
            str(layout.nbytes),
            str(native),
            str(unpacked),
            f"{unpacked / native:.2f}",
            tensor.note,
        ])
    return rows


# ---- part 2: the binary convolution -------------------------------------------------------------
C, H, W, K = 48, 34, 34, 32
OH, OW = H - 2, W - 2
TAPS = C * 9
WORDS = C // 6
INPUT = f"memref<1x{C}x{H}x{W}xi1"
WEIGHTS = f"memref<{K}x{C}x3x3xi1"
OUTPUT = f"memref<1x{K}x{OH}x{OW}xi32>"
INPUT_LAYOUTS = {
    "plain": "",
    "int": ', #layout.tag<"NCHW->NHWC6c", pack = i6>',
    "vector": ', #layout.tag<"NCHW->NHWC6c", pack = vector<6xi1>>',
}
PACKED_WEIGHTS = ', #layout.tag<"OIHW->OHWI6i", pack = i6>'
PHYSICAL_INPUT = {
    "plain": f"{INPUT}>",
    "int": f"memref<1x{H}x{W}x{WORDS}xi6>",
    "vector": f"memref<1x{H}x{W}x{WORDS}xvector<6xi1>>",
}
PHYSICAL_PACKED_WEIGHTS = f"memref<{K}x3x3x{WORDS}xi6>"
VERSIONS = {
    # name: (label, kernel, input buffer, weights buffer)
    "plain": ("unpacked i1 (baseline)", "conv_plain", "in_plain", "w_plain"),
    "int": ("packed i6, lowered", "conv_int", "in_int", "w_plain"),
    "vector": ("packed vector<6xi1>, lowered", "conv_vector", "in_vector", "w_plain"),
    "popcount": ("packed i6, xor-popcount (hand-written)", "conv_popcount", "in_int", "w_int"),
}


def input_bit(c: np.ndarray, h: np.ndarray, w: np.ndarray) -> np.ndarray:
    return ((c * 7 + h * 3 + w * 5) % 11 < 5).astype(np.int64)


def weight_bit(k: np.ndarray, c: np.ndarray, kh: np.ndarray, kw: np.ndarray) -> np.ndarray:
    return ((k * 5 + c * 3 + kh * 7 + kw) % 13 < 6).astype(np.int64)


def reference() -> np.ndarray:
    """The ±1 correlation (bit 0 → +1, 1 → -1) over sliding 3×3 windows."""
    x = 1 - 2 * input_bit(*np.indices((C, H, W)))
    w = 1 - 2 * weight_bit(*np.indices((K, C, 3, 3)))
    windows = sliding_window_view(x, (3, 3), axis=(1, 2))  # c, oh, ow, kh, kw
    return np.einsum("cyxhw,kchw->kyx", windows, w)


def logical_kernel(version: str) -> str:
    layout = INPUT_LAYOUTS[version]
    return f"""
func.func @conv_{version}(%input: {INPUT}{layout}>, %weights: {WEIGHTS}>, %output: {OUTPUT}) {{
  %zero = arith.constant 0 : i32
  %taps = arith.constant {TAPS} : i32
  %two = arith.constant 2 : i32
  affine.for %k = 0 to {K} {{
    affine.for %oh = 0 to {OH} {{
      affine.for %ow = 0 to {OW} {{
        affine.store %zero, %output[0, %k, %oh, %ow] : {OUTPUT}
        affine.for %c = 0 to {C} {{
          affine.for %kh = 0 to 3 {{
            affine.for %kw = 0 to 3 {{
              %x = affine.load %input[0, %c, %oh + %kh, %ow + %kw] : {INPUT}{layout}>
              %w = affine.load %weights[%k, %c, %kh, %kw] : {WEIGHTS}>
              %acc = affine.load %output[0, %k, %oh, %ow] : {OUTPUT}
              %differ = arith.xori %x, %w : i1
              %count = arith.extui %differ : i1 to i32
              %sum = arith.addi %acc, %count : i32
              affine.store %sum, %output[0, %k, %oh, %ow] : {OUTPUT}
            }}
          }}
        }}
        %popcount = affine.load %output[0, %k, %oh, %ow] : {OUTPUT}
        %twice = arith.muli %popcount, %two : i32
        %dot = arith.subi %taps, %twice : i32
        affine.store %dot, %output[0, %k, %oh, %ow] : {OUTPUT}
      }}
    }}
  }}
  func.return
}}
func.func @fill_input_{version}(%input: {INPUT}{layout}>) {{
  %five = arith.constant 5 : index
  affine.for %c = 0 to {C} {{
    affine.for %h = 0 to {H} {{
      affine.for %w = 0 to {W} {{
        %v = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 7 + d1 * 3 + d2 * 5) mod 11)>(%c, %h, %w)
        %bit = arith.cmpi ult, %v, %five : index
        affine.store %bit, %input[0, %c, %h, %w] : {INPUT}{layout}>
      }}
    }}
  }}
  func.return
}}
"""


def logical_weight_fill(name: str, layout: str) -> str:
    return f"""
func.func @{name}(%weights: {WEIGHTS}{layout}>) {{
  %six = arith.constant 6 : index
  affine.for %k = 0 to {K} {{
    affine.for %c = 0 to {C} {{
      affine.for %kh = 0 to 3 {{
        affine.for %kw = 0 to 3 {{
          %v = affine.apply affine_map<(d0, d1, d2, d3) -> ((d0 * 5 + d1 * 3 + d2 * 7 + d3) mod 13)>(%k, %c, %kh, %kw)
          %bit = arith.cmpi ult, %v, %six : index
          affine.store %bit, %weights[%k, %c, %kh, %kw] : {WEIGHTS}{layout}>
        }}
      }}
    }}
  }}
  func.return
}}
"""


POPCOUNT_KERNEL = f"""
func.func @conv_popcount(%input: {PHYSICAL_INPUT["int"]}, %weights: {PHYSICAL_PACKED_WEIGHTS}, %output: {OUTPUT}) {{
  %zero = arith.constant 0 : i32
  %taps = arith.constant {TAPS} : i32
  %two = arith.constant 2 : i32
  affine.for %k = 0 to {K} {{
    affine.for %oh = 0 to {OH} {{
      affine.for %ow = 0 to {OW} {{
        affine.store %zero, %output[0, %k, %oh, %ow] : {OUTPUT}
        affine.for %kh = 0 to 3 {{
          affine.for %kw = 0 to 3 {{
            affine.for %cb = 0 to {WORDS} {{
              %x = affine.load %input[0, %oh + %kh, %ow + %kw, %cb] : {PHYSICAL_INPUT["int"]}
              %w = affine.load %weights[%k, %kh, %kw, %cb] : {PHYSICAL_PACKED_WEIGHTS}
              %acc = affine.load %output[0, %k, %oh, %ow] : {OUTPUT}
              %differ = arith.xori %x, %w : i6
              %bits = math.ctpop %differ : i6
              %count = arith.extui %bits : i6 to i32
              %sum = arith.addi %acc, %count : i32
              affine.store %sum, %output[0, %k, %oh, %ow] : {OUTPUT}
            }}
          }}
        }}
        %popcount = affine.load %output[0, %k, %oh, %ow] : {OUTPUT}
        %twice = arith.muli %popcount, %two : i32
        %dot = arith.subi %taps, %twice : i32
        affine.store %dot, %output[0, %k, %oh, %ow] : {OUTPUT}
      }}
    }}
  }}
  func.return
}}
"""


def lowered_functions() -> str:
    """The logical kernels and fills through `layout-opt -p layout-lower`: their functions."""
    text = "".join(logical_kernel(v) for v in INPUT_LAYOUTS)
    text += logical_weight_fill("fill_weights_plain", "") + logical_weight_fill("fill_weights_int", PACKED_WEIGHTS)
    run = subprocess.run(
        [sys.executable, "-m", "heterolayout.tools.opt", "-p", "layout-lower"],
        input=text, capture_output=True, text=True, check=False, cwd=REPOSITORY,
    )
    if run.returncode != 0:
        raise RuntimeError(f"layout-opt failed:\n{run.stderr}")
    lines = run.stdout.strip().splitlines()
    if not (lines[0].startswith("builtin.module") and lines[-1] == "}"):
        raise RuntimeError(f"unexpected layout-opt output:\n{run.stdout[:2000]}")
    return "\n".join(lines[1:-1])


def main_function(iterations: int, repeat: int) -> str:
    buffers = {
        "in_plain": PHYSICAL_INPUT["plain"],
        "in_int": PHYSICAL_INPUT["int"],
        "in_vector": PHYSICAL_INPUT["vector"],
        "w_plain": f"{WEIGHTS}>",
        "w_int": PHYSICAL_PACKED_WEIGHTS,
        **{f"out_{v}": OUTPUT for v in VERSIONS},
    }
    types = f"({{input}}, {{weights}}, {OUTPUT})"
    calls = {
        version: f"func.call @{kernel}(%{source}, %{weights}, %out_{version}) : "
        + types.format(input=buffers[source], weights=buffers[weights]) + " -> ()"
        for version, (_, kernel, source, weights) in VERSIONS.items()
    }
    lines = ["func.func @main() {"]
    lines += [f"  %{name} = memref.alloc() : {memref}" for name, memref in buffers.items()]
    lines += [
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        f"  %iterations = arith.constant {iterations} : index",
        *(f"  func.call @fill_input_{v}(%in_{v}) : ({buffers['in_' + v]}) -> ()" for v in INPUT_LAYOUTS),
        f"  func.call @fill_weights_plain(%w_plain) : ({buffers['w_plain']}) -> ()",
        f"  func.call @fill_weights_int(%w_int) : ({buffers['w_int']}) -> ()",
        *(f"  {call}" for call in calls.values()),  # warm-up, and the checked outputs
    ]
    names = list(VERSIONS)
    for rep in range(repeat):
        order = names[rep % len(names):] + names[: rep % len(names)]
        for version in order:
            lines += [
                f"  %start_{version}_{rep} = func.call @rtclock() : () -> f64",
                "  scf.for %n = %c0 to %iterations step %c1 {",
                f"    {calls[version]}",
                "  }",
                f"  %end_{version}_{rep} = func.call @rtclock() : () -> f64",
                f"  %time_{version}_{rep} = arith.subf %end_{version}_{rep}, %start_{version}_{rep} : f64",
            ]
        lines += [f"  vector.print %time_{version}_{rep} : f64" for version in names]
    for version in names:
        lines += [f"  func.call @checksums(%out_{version}) : ({OUTPUT}) -> ()"]
    return "\n".join([*lines, "  func.return", "}"])


CHECKSUMS = f"""
func.func private @rtclock() -> f64
func.func @checksums(%out: {OUTPUT}) {{
  %zero = arith.constant 0 : i64
  %sums = memref.alloca() : memref<2xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %zero, %sums[%c0] : memref<2xi64>
  memref.store %zero, %sums[%c1] : memref<2xi64>
  affine.for %k = 0 to {K} {{
    affine.for %y = 0 to {OH} {{
      affine.for %x = 0 to {OW} {{
        %v = affine.load %out[0, %k, %y, %x] : {OUTPUT}
        %wide = arith.extsi %v : i32 to i64
        %position = affine.apply affine_map<(d0, d1, d2) -> ((d0 * {OH * OW} + d1 * {OW} + d2) mod 7 + 1)>(%k, %y, %x)
        %weight = arith.index_cast %position : index to i64
        %weighted = arith.muli %wide, %weight : i64
        %s0 = memref.load %sums[%c0] : memref<2xi64>
        %s1 = memref.load %sums[%c1] : memref<2xi64>
        %t0 = arith.addi %s0, %wide : i64
        %t1 = arith.addi %s1, %weighted : i64
        memref.store %t0, %sums[%c0] : memref<2xi64>
        memref.store %t1, %sums[%c1] : memref<2xi64>
      }}
    }}
  }}
  %r0 = memref.load %sums[%c0] : memref<2xi64>
  %r1 = memref.load %sums[%c1] : memref<2xi64>
  vector.print %r0 : i64
  vector.print %r1 : i64
  func.return
}}
"""


@dataclass(frozen=True)
class ConvRun:
    times: dict[str, list[float]]
    checksums: dict[str, tuple[int, int]]


def run_conv(tools: Tools, iterations: int, repeat: int) -> ConvRun:
    text = "module {\n" + CHECKSUMS + lowered_functions() + POPCOUNT_KERNEL + main_function(iterations, repeat) + "\n}\n"
    values = run_runner(text, tools, pipeline=PIPELINE).split()
    names = list(VERSIONS)
    expected = len(names) * (repeat + 2)
    if len(values) != expected:
        raise RuntimeError(f"expected {expected} printed values, got {len(values)}")
    timed = [float(v) for v in values[: len(names) * repeat]]
    sums = [int(v) for v in values[len(names) * repeat :]]
    return ConvRun(
        {v: timed[k :: len(names)] for k, v in enumerate(names)},
        {v: (sums[2 * k], sums[2 * k + 1]) for k, v in enumerate(names)},
    )


def print_table(header: list[str], rows: list[list[str]]) -> None:
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one call per sample, 3 repetitions")
    parser.add_argument("--repeat", type=int, help="interleaved repetitions (default 11, quick 3)")
    args = parser.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 11)
    iterations = 1 if args.quick else 5
    mlir_opt, runner, libs = find_mlir_tool("mlir-opt"), find_mlir_tool("mlir-runner"), find_runner_utils()
    if mlir_opt is None or runner is None or not libs:
        print("mlir-opt, mlir-runner and the runner utils (MLIR 22) are needed", file=sys.stderr)
        return 1
    tools = Tools(mlir_opt, runner, libs)

    byte_rows = bytes_table(tools)
    conv = run_conv(tools, iterations, repeat)
    result = reference()
    weights = np.arange(result.size).reshape(result.shape) % 7 + 1
    expected = (int(result.sum()), int((result * weights).sum()))
    wrong = {v: s for v, s in conv.checksums.items() if s != expected}
    if wrong:
        raise RuntimeError(f"checksums differ from numpy's {expected}: {wrong}")

    print(f"# packed layouts: bytes and native time (mlir-runner -O3; Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f})")
    print()
    print("## physical bytes")
    print()
    print_table(
        ["tensor", "layout", "elements", "lowered memref", "bytes (model)", "bytes (native)",
         "bytes unpacked (native)", "unpacked/packed", "note"],
        byte_rows,
    )
    print()
    print(f"## binary conv 1x{C}x{H}x{W} * {K}x{C}x3x3 -> 1x{K}x{OH}x{OW}, {iterations} call(s) per "
          f"sample, {repeat} repetitions")
    print()
    baseline = conv.times["plain"]
    rows = []
    for version, (label, *_rest) in VERSIONS.items():
        ratios = [t / b for t, b in zip(conv.times[version], baseline, strict=True)]
        rows.append([
            version,
            label,
            f"{statistics.median(conv.times[version]) / iterations * 1e3:.3f}",
            f"{statistics.median(ratios):.3f}",
            f"{min(ratios):.3f}–{max(ratios):.3f}",
            f"{conv.checksums[version][0]} (equal)",
        ])
    print_table(["version", "kernel", "ms/call", "time/unpacked", "min–max ratio", "checksum"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
