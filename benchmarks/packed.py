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

    python -m benchmarks.packed [--quick] [--repeat N]
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
import heterolayout  # noqa: E402
from tests.mlir_tools import LOWER_TO_LLVM, find_mlir_tool, find_runner_utils, lower_to_llvm  # noqa: E402

PIPELINE = LOWER_TO_LLVM  # math.ctpop included (convert-math-to-llvm)

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


# ---- part 2: binary kernels, element-wise and at word level ----------------------------------
C, H, W, K = 48, 34, 34, 32
OH, OW = H - 2, W - 2
TAPS = C * 9
INPUT = f"memref<1x{C}x{H}x{W}xi1"
WEIGHTS = f"memref<{K}x{C}x3x3xi1"
OUTPUT = f"memref<1x{K}x{OH}x{OW}xi32>"
PACKINGS = {
    # key: (input tag, weights tag, container); "plain" is the unpacked i1 tensor
    "int": ("NCHW->NHWC6c", "OIHW->OHWI6i", "i6"),
    "vector": ("NCHW->NHWC6c", "OIHW->OHWI6i", "vector<6xi1>"),
    "i64": ("NCHW->NHWC64c", "OIHW->OHWI64i", "i64"),
}
MM, MN, MK = 64, 64, 2000
"""Binary matmul: a (MM×MK) · b (MN×MK) bits, out = how many of the MK bits are equal."""
MM_PACKINGS = {"i32": ("MK->MK32k", "NK->NK32k", "i32"), "i64": ("MK->MK64k", "NK->NK64k", "i64")}


def layout_attr(tag: str, pack: str) -> str:
    return f', #layout.tag<"{tag}", pack = {pack}>'


def physical(shape: tuple[int, ...], tag: str, pack: str) -> str:
    """The lowered memref type of a packed i1 tensor (asked of the Layout model)."""
    layout = heterolayout.parse_layout(tag, shape, dtype="i1", pack=pack)
    return f"memref<{'x'.join(map(str, layout.storage_shape))}x{pack}>"


@dataclass(frozen=True)
class Version:
    label: str
    kernel: str
    buffers: tuple[str, ...]
    """Names of the main function's buffers it is called on (inputs, then output)."""


CONV_VERSIONS = {
    "plain": Version("unpacked i1 (baseline)", "conv_plain", ("in_plain", "w_plain")),
    "int": Version("packed i6, lowered element-wise", "conv_int", ("in_int", "w_plain")),
    "vector": Version("packed vector<6xi1>, lowered element-wise", "conv_vector", ("in_vector", "w_plain")),
    "int_words": Version("packed i6, layout-schedule (words)", "conv_int_words", ("in_int", "w_int")),
    "vector_words": Version("packed vector<6xi1>, layout-schedule (words)", "conv_vector_words", ("in_vector", "w_vector")),
    "popcount": Version("packed i6, xor-popcount (hand-written)", "conv_popcount", ("in_int", "w_int")),
    "i64_words": Version("NHWC64c i64, layout-schedule (words)", "conv_i64_words", ("in_i64", "w_i64")),
    "popcount64": Version("NHWC64c i64, xor-popcount (hand-written)", "conv_popcount64", ("in_i64", "w_i64")),
}
MM_VERSIONS = {
    "mm_plain": Version("unpacked i1 (baseline)", "mm_plain", ("a_plain", "b_plain")),
    "mm_i64": Version("packed i64, lowered element-wise", "mm_i64", ("a_i64", "b_i64")),
    "mm_i32_words": Version("packed i32, layout-schedule (words)", "mm_i32_words", ("a_i32", "b_i32")),
    "mm_popcount32": Version("packed i32, xor-popcount (hand-written)", "mm_popcount32", ("a_i32", "b_i32")),
    "mm_i64_words": Version("packed i64, layout-schedule (words)", "mm_i64_words", ("a_i64", "b_i64")),
    "mm_popcount64": Version("packed i64, xor-popcount (hand-written)", "mm_popcount64", ("a_i64", "b_i64")),
}
RATIOS = {
    # version: the version it is compared with ("speed" = that one's time / this one's)
    "int_words": "popcount",
    "vector_words": "popcount",
    "i64_words": "popcount64",
    "popcount64": "popcount",
    "mm_i32_words": "mm_popcount32",
    "mm_i64_words": "mm_popcount64",
}


def input_bit(c: np.ndarray, h: np.ndarray, w: np.ndarray) -> np.ndarray:
    return ((c * 7 + h * 3 + w * 5) % 11 < 5).astype(np.int64)


def weight_bit(k: np.ndarray, c: np.ndarray, kh: np.ndarray, kw: np.ndarray) -> np.ndarray:
    return ((k * 5 + c * 3 + kh * 7 + kw) % 13 < 6).astype(np.int64)


def conv_reference() -> np.ndarray:
    """The ±1 correlation (bit 0 → +1, 1 → -1) over sliding 3×3 windows."""
    x = 1 - 2 * input_bit(*np.indices((C, H, W)))
    w = 1 - 2 * weight_bit(*np.indices((K, C, 3, 3)))
    windows = sliding_window_view(x, (3, 3), axis=(1, 2))  # c, oh, ow, kh, kw
    return np.einsum("cyxhw,kchw->kyx", windows, w)[None]


def matmul_reference() -> np.ndarray:
    i, k = np.indices((MM, MK))
    a = (i * 7 + k * 3) % 11 < 5
    j, k = np.indices((MN, MK))
    b = (j * 5 + k * 3) % 13 < 6
    return (a[:, None, :] == b[None, :, :]).sum(axis=-1)


def input_type(key: str) -> str:
    return INPUT + ("" if key == "plain" else layout_attr(PACKINGS[key][0], PACKINGS[key][2])) + ">"


def weights_type(key: str) -> str:
    return WEIGHTS + ("" if key == "plain" else layout_attr(PACKINGS[key][1], PACKINGS[key][2])) + ">"


def conv_kernel(name: str, input_key: str, weights_key: str) -> str:
    """The binary conv as written (element by element, on logical NCHW bits)."""
    x, w = input_type(input_key), weights_type(weights_key)
    return f"""
func.func @{name}(%input: {x}, %weights: {w}, %output: {OUTPUT}) attributes {{passthrough = ["noinline"]}} {{
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
              %x = affine.load %input[0, %c, %oh + %kh, %ow + %kw] : {x}
              %w = affine.load %weights[%k, %c, %kh, %kw] : {w}
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
"""


def conv_fills(key: str) -> str:
    x, w = input_type(key), weights_type(key)
    return f"""
func.func @fill_input_{key}(%input: {x}) {{
  %five = arith.constant 5 : index
  affine.for %c = 0 to {C} {{
    affine.for %h = 0 to {H} {{
      affine.for %w = 0 to {W} {{
        %v = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 7 + d1 * 3 + d2 * 5) mod 11)>(%c, %h, %w)
        %bit = arith.cmpi ult, %v, %five : index
        affine.store %bit, %input[0, %c, %h, %w] : {x}
      }}
    }}
  }}
  func.return
}}
func.func @fill_weights_{key}(%weights: {w}) {{
  %six = arith.constant 6 : index
  affine.for %k = 0 to {K} {{
    affine.for %c = 0 to {C} {{
      affine.for %kh = 0 to 3 {{
        affine.for %kw = 0 to 3 {{
          %v = affine.apply affine_map<(d0, d1, d2, d3) -> ((d0 * 5 + d1 * 3 + d2 * 7 + d3) mod 13)>(%k, %c, %kh, %kw)
          %bit = arith.cmpi ult, %v, %six : index
          affine.store %bit, %weights[%k, %c, %kh, %kw] : {w}
        }}
      }}
    }}
  }}
  func.return
}}
"""


def conv_popcount(name: str, key: str) -> str:
    """Hand-written on the words: one xor and one `math.ctpop` per container (pad lanes are
    0 in both tensors, so they never differ)."""
    tag_x, tag_w, word = PACKINGS[key]
    x, w = physical((1, C, H, W), tag_x, word), physical((K, C, 3, 3), tag_w, word)
    words = heterolayout.parse_layout(tag_x, (1, C, H, W), dtype="i1", pack=word).storage_shape[-1]
    return f"""
func.func @{name}(%input: {x}, %weights: {w}, %output: {OUTPUT}) attributes {{passthrough = ["noinline"]}} {{
  %zero = arith.constant 0 : i32
  %taps = arith.constant {TAPS} : i32
  %two = arith.constant 2 : i32
  affine.for %k = 0 to {K} {{
    affine.for %oh = 0 to {OH} {{
      affine.for %ow = 0 to {OW} {{
        affine.store %zero, %output[0, %k, %oh, %ow] : {OUTPUT}
        affine.for %kh = 0 to 3 {{
          affine.for %kw = 0 to 3 {{
            affine.for %cb = 0 to {words} {{
              %x = affine.load %input[0, %oh + %kh, %ow + %kw, %cb] : {x}
              %w = affine.load %weights[%k, %kh, %kw, %cb] : {w}
              %acc = affine.load %output[0, %k, %oh, %ow] : {OUTPUT}
              %differ = arith.xori %x, %w : {word}
              %bits = math.ctpop %differ : {word}
              {_to_i32("%count", "%bits", word)}
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


def _to_i32(result: str, value: str, word: str) -> str:
    bits = int(word[1:])
    if bits == 32:
        return f"{result} = arith.addi {value}, %zero : i32"
    cast = "extui" if bits < 32 else "trunci"
    return f"{result} = arith.{cast} {value} : {word} to i32"


def mm_types(key: str) -> tuple[str, str]:
    a, b = f"memref<{MM}x{MK}xi1", f"memref<{MN}x{MK}xi1"
    if key == "plain":
        return a + ">", b + ">"
    tag_a, tag_b, word = MM_PACKINGS[key]
    return a + layout_attr(tag_a, word) + ">", b + layout_attr(tag_b, word) + ">"


MM_OUTPUT = f"memref<{MM}x{MN}xi32>"


def mm_kernel(name: str, key: str) -> str:
    """The binary matmul as written: count the equal bits (xnor) element by element."""
    a, b = mm_types(key)
    return f"""
func.func @{name}(%a: {a}, %b: {b}, %out: {MM_OUTPUT}) attributes {{passthrough = ["noinline"]}} {{
  %zero = arith.constant 0 : i32
  affine.for %i = 0 to {MM} {{
    affine.for %j = 0 to {MN} {{
      affine.store %zero, %out[%i, %j] : {MM_OUTPUT}
      affine.for %k = 0 to {MK} {{
        %x = affine.load %a[%i, %k] : {a}
        %y = affine.load %b[%j, %k] : {b}
        %acc = affine.load %out[%i, %j] : {MM_OUTPUT}
        %same = arith.cmpi eq, %x, %y : i1
        %one = arith.extui %same : i1 to i32
        %sum = arith.addi %acc, %one : i32
        affine.store %sum, %out[%i, %j] : {MM_OUTPUT}
      }}
    }}
  }}
  func.return
}}
"""


def mm_fills(key: str) -> str:
    a, b = mm_types(key)
    fills = []
    for name, memref, rows, (p, q, r) in (("a", a, MM, (7, 3, 11)), ("b", b, MN, (5, 3, 13))):
        fills.append(f"""
func.func @fill_{name}_{key}(%m: {memref}) {{
  %five = arith.constant {5 if name == "a" else 6} : index
  affine.for %i = 0 to {rows} {{
    affine.for %k = 0 to {MK} {{
      %v = affine.apply affine_map<(d0, d1) -> ((d0 * {p} + d1 * {q}) mod {r})>(%i, %k)
      %bit = arith.cmpi ult, %v, %five : index
      affine.store %bit, %m[%i, %k] : {memref}
    }}
  }}
  func.return
}}
""")
    return "".join(fills)


def mm_popcount(name: str, key: str) -> str:
    """Hand-written: equal bits = K - popcount(a xor b) summed over the words (pad lanes are 0
    in both, so they never differ)."""
    tag_a, tag_b, word = MM_PACKINGS[key]
    a, b = physical((MM, MK), tag_a, word), physical((MN, MK), tag_b, word)
    words = -(-MK // int(word[1:]))
    return f"""
func.func @{name}(%a: {a}, %b: {b}, %out: {MM_OUTPUT}) attributes {{passthrough = ["noinline"]}} {{
  %zero = arith.constant 0 : i32
  %bits_k = arith.constant {MK} : i32
  affine.for %i = 0 to {MM} {{
    affine.for %j = 0 to {MN} {{
      affine.store %zero, %out[%i, %j] : {MM_OUTPUT}
      affine.for %kb = 0 to {words} {{
        %x = affine.load %a[%i, %kb] : {a}
        %y = affine.load %b[%j, %kb] : {b}
        %acc = affine.load %out[%i, %j] : {MM_OUTPUT}
        %differ = arith.xori %x, %y : {word}
        %bits = math.ctpop %differ : {word}
        {_to_i32("%count", "%bits", word)}
        %sum = arith.addi %acc, %count : i32
        affine.store %sum, %out[%i, %j] : {MM_OUTPUT}
      }}
      %differing = affine.load %out[%i, %j] : {MM_OUTPUT}
      %equal = arith.subi %bits_k, %differing : i32
      affine.store %equal, %out[%i, %j] : {MM_OUTPUT}
    }}
  }}
  func.return
}}
"""


def layout_opt(text: str, pipeline: str) -> str:
    """`layout-opt -p PIPELINE` on `text`: the functions of the module it prints."""
    run = subprocess.run(
        [sys.executable, "-m", "heterolayout.tools.opt", "-p", pipeline],
        input=text, capture_output=True, text=True, check=False, cwd=REPOSITORY,
    )
    if run.returncode != 0:
        raise RuntimeError(f"layout-opt failed:\n{run.stderr}")
    lines = run.stdout.strip().splitlines()
    if not (lines[0].startswith("builtin.module") and lines[-1] == "}"):
        raise RuntimeError(f"unexpected layout-opt output:\n{run.stdout[:2000]}")
    return "\n".join(lines[1:-1])


def kernels() -> str:
    """Every version's kernel and every fill, lowered: the element-wise ones and the fills
    through `layout-lower`, the word-level ones through `layout-schedule,layout-lower` from
    the same element-wise source."""
    plain = conv_kernel("conv_plain", "plain", "plain") + conv_kernel("conv_int", "int", "plain")
    plain += conv_kernel("conv_vector", "vector", "plain") + mm_kernel("mm_plain", "plain")
    plain += mm_kernel("mm_i64", "i64")
    plain += "".join(conv_fills(k) for k in ("plain", *PACKINGS))
    plain += "".join(mm_fills(k) for k in ("plain", *MM_PACKINGS))
    words = "".join(conv_kernel(f"conv_{k}_words", k, k) for k in PACKINGS)
    words += "".join(mm_kernel(f"mm_{k}_words", k) for k in MM_PACKINGS)
    hand = conv_popcount("conv_popcount", "int") + conv_popcount("conv_popcount64", "i64")
    hand += mm_popcount("mm_popcount32", "i32") + mm_popcount("mm_popcount64", "i64")
    return layout_opt(plain, "layout-lower") + layout_opt(words, "layout-schedule,layout-lower") + hand


def buffers() -> dict[str, str]:
    found = {
        "in_plain": f"{INPUT}>",
        "w_plain": f"{WEIGHTS}>",
        "a_plain": f"memref<{MM}x{MK}xi1>",
        "b_plain": f"memref<{MN}x{MK}xi1>",
    }
    for key, (tag_x, tag_w, word) in PACKINGS.items():
        found[f"in_{key}"] = physical((1, C, H, W), tag_x, word)
        found[f"w_{key}"] = physical((K, C, 3, 3), tag_w, word)
    for key, (tag_a, tag_b, word) in MM_PACKINGS.items():
        found[f"a_{key}"] = physical((MM, MK), tag_a, word)
        found[f"b_{key}"] = physical((MN, MK), tag_b, word)
    return found


VERSIONS = {**CONV_VERSIONS, **MM_VERSIONS}


def zero_fill(name: str, memref: str) -> str:
    """Zero every physical word of a buffer, pad lanes included (memref.alloc leaves them
    undefined; the hand-written kernels read them, the scheduled ones never do)."""
    shape_text, element = memref[len("memref<") : -1].split("x", 1)[0], memref[len("memref<") : -1]
    parts = element.split("x")
    dims = [int(p) for p in parts if p.isdigit()]
    element = element[len("x".join(map(str, dims))) + 1 :]
    del shape_text
    zero = "dense<false>" if element.startswith("vector") else "0"
    ivs = ", ".join(f"%i{i}" for i in range(len(dims)))
    loops = "".join(f"  affine.for %i{i} = 0 to {n} {{\n" for i, n in enumerate(dims))
    return (
        f"func.func @zero_{name}(%m: {memref}) {{\n  %zero = arith.constant {zero} : {element}\n"
        f"{loops}  affine.store %zero, %m[{ivs}] : {memref}\n" + "  }\n" * len(dims)
        + "  func.return\n}\n"
    )


def output_type(version: str) -> str:
    return OUTPUT if version in CONV_VERSIONS else MM_OUTPUT


def main_function(iterations: int, repeat: int) -> str:
    memrefs = buffers()
    calls = {}
    for name, version in VERSIONS.items():
        operands = ", ".join(f"%{b}" for b in version.buffers)
        types = ", ".join(memrefs[b] for b in version.buffers)
        calls[name] = (
            f"func.call @{version.kernel}({operands}, %out_{name}) : ({types}, {output_type(name)}) -> ()"
        )
    lines = ["func.func @main() {"]
    lines += [f"  %{name} = memref.alloc() : {memref}" for name, memref in memrefs.items()]
    lines += [f"  %out_{name} = memref.alloc() : {output_type(name)}" for name in VERSIONS]
    lines += [
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        f"  %iterations = arith.constant {iterations} : index",
    ]
    lines += [f"  func.call @zero_{name}(%{name}) : ({memref}) -> ()" for name, memref in memrefs.items()]
    for key in ("plain", *PACKINGS):
        lines += [
            f"  func.call @fill_input_{key}(%in_{key}) : ({memrefs['in_' + key]}) -> ()",
            f"  func.call @fill_weights_{key}(%w_{key}) : ({memrefs['w_' + key]}) -> ()",
        ]
    for key in ("plain", *MM_PACKINGS):
        lines += [
            f"  func.call @fill_a_{key}(%a_{key}) : ({memrefs['a_' + key]}) -> ()",
            f"  func.call @fill_b_{key}(%b_{key}) : ({memrefs['b_' + key]}) -> ()",
        ]
    lines += [f"  {call}" for call in calls.values()]  # warm-up, and the checked outputs
    names = list(VERSIONS)
    for rep in range(repeat):
        order = names[rep % len(names):] + names[: rep % len(names)]
        for version in order:
            lines += [
                f"  %start_{version}_{rep} = func.call @rtclock() : () -> f64",
                "  scf.for %n = %c0 to %iterations step %c1 {",
                f"    {calls[version]}",
                "    %tick = func.call @rtclock() : () -> f64",  # opaque between repetitions
                "  }",
                f"  %end_{version}_{rep} = func.call @rtclock() : () -> f64",
                f"  %time_{version}_{rep} = arith.subf %end_{version}_{rep}, %start_{version}_{rep} : f64",
            ]
        lines += [f"  vector.print %time_{version}_{rep} : f64" for version in names]
    for version in names:
        shape = "conv" if version in CONV_VERSIONS else "mm"
        lines += [f"  func.call @checksums_{shape}(%out_{version}) : ({output_type(version)}) -> ()"]
    return "\n".join([*lines, "  func.return", "}"])


def checksums(name: str, memref: str, shape: tuple[int, ...]) -> str:
    """Print the sum of the elements and the sum weighted by (position mod 7) + 1."""
    rank = len(shape)
    dims = ", ".join(f"d{i}" for i in range(rank))
    ivs = ", ".join(f"%i{i}" for i in range(rank))
    linear = " + ".join(f"d{i} * {math.prod(shape[i + 1:])}" for i in range(rank))
    loops = "".join(f"{'  ' * i}  affine.for %i{i} = 0 to {n} {{\n" for i, n in enumerate(shape))
    closes = "".join(f"{'  ' * i}  }}\n" for i in reversed(range(rank)))
    pad = "  " * rank
    return f"""
func.func @checksums_{name}(%out: {memref}) {{
  %zero = arith.constant 0 : i64
  %sums = memref.alloca() : memref<2xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %zero, %sums[%c0] : memref<2xi64>
  memref.store %zero, %sums[%c1] : memref<2xi64>
{loops}{pad}  %v = affine.load %out[{ivs}] : {memref}
{pad}  %wide = arith.extsi %v : i32 to i64
{pad}  %position = affine.apply affine_map<({dims}) -> (({linear}) mod 7 + 1)>({ivs})
{pad}  %weight = arith.index_cast %position : index to i64
{pad}  %weighted = arith.muli %wide, %weight : i64
{pad}  %s0 = memref.load %sums[%c0] : memref<2xi64>
{pad}  %s1 = memref.load %sums[%c1] : memref<2xi64>
{pad}  %t0 = arith.addi %s0, %wide : i64
{pad}  %t1 = arith.addi %s1, %weighted : i64
{pad}  memref.store %t0, %sums[%c0] : memref<2xi64>
{pad}  memref.store %t1, %sums[%c1] : memref<2xi64>
{closes}  %r0 = memref.load %sums[%c0] : memref<2xi64>
  %r1 = memref.load %sums[%c1] : memref<2xi64>
  vector.print %r0 : i64
  vector.print %r1 : i64
  func.return
}}
"""


def expected_checksums(result: np.ndarray) -> tuple[int, int]:
    weights = np.arange(result.size).reshape(result.shape) % 7 + 1
    return int(result.sum()), int((result * weights).sum())


@dataclass(frozen=True)
class KernelRun:
    times: dict[str, list[float]]
    checksums: dict[str, tuple[int, int]]


def run_kernels(tools: Tools, iterations: int, repeat: int) -> KernelRun:
    text = "module {\nfunc.func private @rtclock() -> f64\n"
    text += checksums("conv", OUTPUT, (1, K, OH, OW)) + checksums("mm", MM_OUTPUT, (MM, MN))
    text += "".join(zero_fill(name, memref) for name, memref in buffers().items())
    text += kernels() + main_function(iterations, repeat) + "\n}\n"
    values = run_runner(text, tools, pipeline=PIPELINE).split()
    names = list(VERSIONS)
    expected = len(names) * (repeat + 2)
    if len(values) != expected:
        raise RuntimeError(f"expected {expected} printed values, got {len(values)}")
    timed = [float(v) for v in values[: len(names) * repeat]]
    sums = [int(v) for v in values[len(names) * repeat :]]
    return KernelRun(
        {v: timed[k :: len(names)] for k, v in enumerate(names)},
        {v: (sums[2 * k], sums[2 * k + 1]) for k, v in enumerate(names)},
    )


def print_table(header: list[str], rows: list[list[str]]) -> None:
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")


def time_rows(run: KernelRun, versions: dict[str, Version], baseline: str, iterations: int) -> list[list[str]]:
    rows = []
    for name, version in versions.items():
        ratios = [t / b for t, b in zip(run.times[name], run.times[baseline], strict=True)]
        against = RATIOS.get(name)
        speed = "–"
        if against is not None:
            relative = [a / t for a, t in zip(run.times[against], run.times[name], strict=True)]
            speed = f"{statistics.median(relative):.2f}× {against}"
        rows.append([
            name,
            version.label,
            f"{statistics.median(run.times[name]) / iterations * 1e3:.3g}",
            f"{statistics.median(ratios):.3g}",
            f"{min(ratios):.3g}–{max(ratios):.3g}",
            speed,
            f"{run.checksums[name][0]} (equal)",
        ])
    return rows


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
    run = run_kernels(tools, iterations, repeat)
    expected = {
        **dict.fromkeys(CONV_VERSIONS, expected_checksums(conv_reference())),
        **dict.fromkeys(MM_VERSIONS, expected_checksums(matmul_reference())),
    }
    wrong = {v: s for v, s in run.checksums.items() if s != expected[v]}
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
    header = ["version", "kernel", "ms/call", "time/unpacked", "min–max ratio", "speed vs", "checksum"]
    print()
    print(f"## binary conv 1x{C}x{H}x{W} * {K}x{C}x3x3 -> 1x{K}x{OH}x{OW}, {iterations} call(s) per "
          f"sample, {repeat} repetitions")
    print()
    print_table(header, time_rows(run, CONV_VERSIONS, "plain", iterations))
    print()
    print(f"## binary matmul {MM}x{MK} * {MN}x{MK} bits -> {MM}x{MN} (equal bits)")
    print()
    print_table(header, time_rows(run, MM_VERSIONS, "mm_plain", iterations))
    return 0


if __name__ == "__main__":
    sys.exit(main())
