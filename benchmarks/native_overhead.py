"""Benchmark: native speed of `layout-lower`'s index code against hand-written kernels.

Two kernels, each written twice with the same loop order:

- conv2d, 3×3 direct convolution, input 1×32×30×30 stored `NCHW->nChw16c`, weights
  32×32×3×3 OIHW, output 1×32×28×28 NCHW;
- matmul C[M,N] += A[M,K]·B[K,N] (128×128×128) with B stored `KN->NK4k16n`.

The *lowered* version is the kernel on the logical memref with a `#layout.tag` type, run
through `layout-opt -p layout-lower` (index values shared between accesses, constants at the
top of the function). The *hand-written* version is the same loop nest on the physical
memref, with the index arithmetic a person writes (`arith.divui`/`remui` for the block and
the offset inside it, `arith.addi` for the sliding window). Both sit in one module with a
`main` written on the physical buffers, which fills the inputs once, then for each
repetition times N calls of each kernel with `rtclock()` (compilation is outside the timed
region), the order of the two alternating between repetitions. The kernels are noinline and
each call is followed by an opaque call that receives the output buffer's address
(`heterolayout_opaque`), so LLVM cannot fold repeated calls away (at -O3 it deleted repeated
calls from such a loop here). The module is compiled by the native engine
(`heterolayout.execution.native`: MLIR 22 at -O3 for the host CPU) and `main` run through it.

Checks before any number is printed: both versions' outputs are equal element by element
(the program counts mismatches), and their checksums equal numpy's (inputs are small
integers, so every sum is exact in f32).

The table gives the median over repetitions of lowered/hand-written time, and the index
ops (arith add/sub/mul/div/rem/floordiv/ceildiv, affine.apply, and the operators inside
affine access maps) per memory access in the innermost loop body of each version, counted
in the MLIR before LLVM lowering.

    python -m benchmarks.native_overhead [--quick] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPOSITORY = Path(__file__).resolve().parent.parent
NOINLINE = 'attributes {passthrough = ["noinline"]}'

INDEX_OPS = frozenset({
    "arith.addi", "arith.subi", "arith.muli", "arith.divui", "arith.divsi", "arith.remui",
    "arith.remsi", "arith.floordivsi", "arith.ceildivsi", "arith.ceildivui", "arith.shrui",
    "arith.shli", "arith.andi", "affine.apply",
})
ACCESS_OPS = frozenset({"memref.load", "memref.store", "affine.load", "affine.store"})


@dataclass(frozen=True)
class Kernel:
    """One benchmarked kernel: its two versions and how to check their result."""

    name: str
    logical: str
    """func.func @<name>_lowered on layout-typed memrefs, before layout-lower."""
    hand: str
    """func.func @<name>_hand on the physical memrefs."""
    buffers: dict[str, str]
    """name -> physical memref type of every buffer `main` allocates."""
    fill: str
    """MLIR that fills the inputs (uses %c0, %c1 and the buffers)."""
    call_args: str
    """The operands of a kernel call; the output buffer is substituted for {out}."""
    arg_types: str
    output_type: str
    output_shape: tuple[int, ...]
    reset_output: bool
    """The kernel accumulates into its output, which must be zeroed before the checked call."""
    reference: Callable[[], np.ndarray]
    iterations: int


def _conv_value(c: np.ndarray, h: np.ndarray, w: np.ndarray) -> np.ndarray:
    return (c * 7 + h * 3 + w * 5) % 17 - 8


def _weight_value(k: np.ndarray, c: np.ndarray, kh: np.ndarray, kw: np.ndarray) -> np.ndarray:
    return (k * 5 + c * 3 + kh * 7 + kw) % 9 - 4


def _conv_reference() -> np.ndarray:
    c, h, w = np.meshgrid(np.arange(32), np.arange(30), np.arange(30), indexing="ij")
    image = _conv_value(c, h, w).astype(np.int64)
    k, c, kh, kw = np.meshgrid(np.arange(32), np.arange(32), np.arange(3), np.arange(3), indexing="ij")
    weights = _weight_value(k, c, kh, kw).astype(np.int64)
    out = np.zeros((32, 28, 28), dtype=np.int64)
    for dh in range(3):
        for dw in range(3):
            out += np.einsum("chw,kc->khw", image[:, dh : dh + 28, dw : dw + 28], weights[:, :, dh, dw])
    return out.reshape(1, 32, 28, 28)


def _matmul_a(i: np.ndarray, k: np.ndarray) -> np.ndarray:
    return (i * 3 + k * 5) % 11 - 5


def _matmul_b(k: np.ndarray, n: np.ndarray) -> np.ndarray:
    return (k * 7 + n * 2) % 13 - 6


def _matmul_reference() -> np.ndarray:
    i, k = np.meshgrid(np.arange(128), np.arange(128), indexing="ij")
    a = _matmul_a(i, k).astype(np.int64)
    b = _matmul_b(i, k).astype(np.int64)  # rows are k, columns n
    return a @ b


CONV_LOGICAL = """
func.func @conv2d_lowered(%input: memref<1x32x30x30xf32, #layout.tag<"NCHW->nChw16c">>,
                        %weights: memref<32x32x3x3xf32>, %output: memref<1x32x28x28xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to 32 {
    affine.for %oh = 0 to 28 {
      affine.for %ow = 0 to 28 {
        affine.store %zero, %output[0, %k, %oh, %ow] : memref<1x32x28x28xf32>
        affine.for %c = 0 to 32 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %x = affine.load %input[0, %c, %oh + %kh, %ow + %kw] : memref<1x32x30x30xf32, #layout.tag<"NCHW->nChw16c">>
              %w = affine.load %weights[%k, %c, %kh, %kw] : memref<32x32x3x3xf32>
              %acc = affine.load %output[0, %k, %oh, %ow] : memref<1x32x28x28xf32>
              %p = arith.mulf %x, %w : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %output[0, %k, %oh, %ow] : memref<1x32x28x28xf32>
            }
          }
        }
      }
    }
  }
  func.return
}
"""

CONV_HAND = """
func.func @conv2d_hand(%input: memref<1x2x30x30x16xf32>, %weights: memref<32x32x3x3xf32>,
                     %output: memref<1x32x28x28xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  affine.for %k = 0 to 32 {
    affine.for %oh = 0 to 28 {
      affine.for %ow = 0 to 28 {
        affine.store %zero, %output[0, %k, %oh, %ow] : memref<1x32x28x28xf32>
        affine.for %c = 0 to 32 {
          affine.for %kh = 0 to 3 {
            affine.for %kw = 0 to 3 {
              %cb = arith.divui %c, %c16 : index
              %ci = arith.remui %c, %c16 : index
              %h = arith.addi %oh, %kh : index
              %wi = arith.addi %ow, %kw : index
              %x = memref.load %input[%c0, %cb, %h, %wi, %ci] : memref<1x2x30x30x16xf32>
              %w = affine.load %weights[%k, %c, %kh, %kw] : memref<32x32x3x3xf32>
              %acc = affine.load %output[0, %k, %oh, %ow] : memref<1x32x28x28xf32>
              %p = arith.mulf %x, %w : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %output[0, %k, %oh, %ow] : memref<1x32x28x28xf32>
            }
          }
        }
      }
    }
  }
  func.return
}
"""

# Physical nChw16c input: [0, c floordiv 16, h, w, c mod 16] holds logical (0, c, h, w).
CONV_FILL = """
  affine.for %cb = 0 to 2 {
    affine.for %h = 0 to 30 {
      affine.for %w = 0 to 30 {
        affine.for %ci = 0 to 16 {
          %c = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1)>(%cb, %ci)
          %v = affine.apply affine_map<(d0, d1, d2) -> ((d0 * 7 + d1 * 3 + d2 * 5) mod 17)>(%c, %h, %w)
          %f = func.call @as_value(%v, %c8) : (index, index) -> f32
          affine.store %f, %input[0, %cb, %h, %w, %ci] : memref<1x2x30x30x16xf32>
        }
      }
    }
  }
  affine.for %k = 0 to 32 {
    affine.for %c = 0 to 32 {
      affine.for %kh = 0 to 3 {
        affine.for %kw = 0 to 3 {
          %v = affine.apply affine_map<(d0, d1, d2, d3) -> ((d0 * 5 + d1 * 3 + d2 * 7 + d3) mod 9)>(%k, %c, %kh, %kw)
          %f = func.call @as_value(%v, %c4) : (index, index) -> f32
          affine.store %f, %weights[%k, %c, %kh, %kw] : memref<32x32x3x3xf32>
        }
      }
    }
  }
"""

MATMUL_LOGICAL = """
func.func @matmul_lowered(%a: memref<128x128xf32>, %b: memref<128x128xf32, #layout.tag<"KN->NK4k16n">>,
                          %c: memref<128x128xf32>) {
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 128 {
      affine.for %k = 0 to 128 {
        %x = affine.load %a[%i, %k] : memref<128x128xf32>
        %y = affine.load %b[%k, %j] : memref<128x128xf32, #layout.tag<"KN->NK4k16n">>
        %z = affine.load %c[%i, %j] : memref<128x128xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<128x128xf32>
      }
    }
  }
  func.return
}
"""

MATMUL_HAND = """
func.func @matmul_hand(%a: memref<128x128xf32>, %b: memref<8x32x4x16xf32>, %c: memref<128x128xf32>) {
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 128 {
      affine.for %k = 0 to 128 {
        %x = affine.load %a[%i, %k] : memref<128x128xf32>
        %nb = arith.divui %j, %c16 : index
        %ni = arith.remui %j, %c16 : index
        %kb = arith.divui %k, %c4 : index
        %ki = arith.remui %k, %c4 : index
        %y = memref.load %b[%nb, %kb, %ki, %ni] : memref<8x32x4x16xf32>
        %z = affine.load %c[%i, %j] : memref<128x128xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<128x128xf32>
      }
    }
  }
  func.return
}
"""

# Physical KN->NK4k16n: [n floordiv 16, k floordiv 4, k mod 4, n mod 16] holds B[k, n].
MATMUL_FILL = """
  affine.for %i = 0 to 128 {
    affine.for %k = 0 to 128 {
      %v = affine.apply affine_map<(d0, d1) -> ((d0 * 3 + d1 * 5) mod 11)>(%i, %k)
      %f = func.call @as_value(%v, %c5) : (index, index) -> f32
      affine.store %f, %a[%i, %k] : memref<128x128xf32>
    }
  }
  affine.for %nb = 0 to 8 {
    affine.for %kb = 0 to 32 {
      affine.for %ki = 0 to 4 {
        affine.for %ni = 0 to 16 {
          %v = affine.apply affine_map<(d0, d1, d2, d3) -> (((d1 * 4 + d2) * 7 + (d0 * 16 + d3) * 2) mod 13)>(%nb, %kb, %ki, %ni)
          %f = func.call @as_value(%v, %c6) : (index, index) -> f32
          affine.store %f, %b[%nb, %kb, %ki, %ni] : memref<8x32x4x16xf32>
        }
      }
    }
  }
"""


def kernels(quick: bool) -> list[Kernel]:
    return [
        Kernel(
            name="conv2d",
            logical=CONV_LOGICAL,
            hand=CONV_HAND,
            buffers={
                "input": "memref<1x2x30x30x16xf32>",
                "weights": "memref<32x32x3x3xf32>",
                "out_lowered": "memref<1x32x28x28xf32>",
                "out_hand": "memref<1x32x28x28xf32>",
            },
            fill=CONV_FILL,
            call_args="%input, %weights, {out}",
            arg_types="(memref<1x2x30x30x16xf32>, memref<32x32x3x3xf32>, memref<1x32x28x28xf32>)",
            output_type="memref<1x32x28x28xf32>",
            output_shape=(1, 32, 28, 28),
            reset_output=False,
            reference=_conv_reference,
            iterations=2 if quick else 20,
        ),
        Kernel(
            name="matmul",
            logical=MATMUL_LOGICAL,
            hand=MATMUL_HAND,
            buffers={
                "a": "memref<128x128xf32>",
                "b": "memref<8x32x4x16xf32>",
                "out_lowered": "memref<128x128xf32>",
                "out_hand": "memref<128x128xf32>",
            },
            fill=MATMUL_FILL,
            call_args="%a, %b, {out}",
            arg_types="(memref<128x128xf32>, memref<8x32x4x16xf32>, memref<128x128xf32>)",
            output_type="memref<128x128xf32>",
            output_shape=(128, 128),
            reset_output=True,
            reference=_matmul_reference,
            iterations=5 if quick else 50,
        ),
    ]


def lower_logical(kernel: Kernel) -> str:
    """`layout-opt -p layout-lower` on the logical kernel; the functions of its output."""
    run = subprocess.run(
        [sys.executable, "-m", "heterolayout.tools.opt", "-p", "layout-lower"],
        input=kernel.logical, capture_output=True, text=True, check=False, cwd=REPOSITORY,
    )
    if run.returncode != 0:
        raise RuntimeError(f"layout-opt failed on {kernel.name}:\n{run.stderr}")
    lines = run.stdout.strip().splitlines()
    if not (lines[0].startswith("builtin.module") and lines[-1] == "}"):
        raise RuntimeError(f"unexpected layout-opt output:\n{run.stdout}")
    return "\n".join(lines[1:-1])


def _output_walk(kernel: Kernel, body: Callable[[str, str], list[str]]) -> list[str]:
    """A loop nest over every output element; `body(indices, indent)` gives the innermost lines."""
    lines: list[str] = []
    ivs = [f"%o{d}" for d in range(len(kernel.output_shape))]
    for depth, (iv, extent) in enumerate(zip(ivs, kernel.output_shape, strict=True)):
        lines.append("  " * (depth + 1) + f"affine.for {iv} = 0 to {extent} {{")
    indent = "  " * (len(ivs) + 1)
    lines += body(", ".join(ivs), indent)
    for depth in reversed(range(len(ivs))):
        lines.append("  " * (depth + 1) + "}")
    return lines


def program(kernel: Kernel, lowered: str, repeat: int) -> str:
    """The module: declarations, both kernels, helpers and `main`."""
    call = {
        version: f"func.call @{kernel.name}_{version}({kernel.call_args.format(out='%out_' + version)}) "
        f": {kernel.arg_types} -> ()"
        for version in ("lowered", "hand")
    }
    out_type = kernel.output_type
    main = ["func.func @main() {"]
    main += [f"  %{name} = memref.alloc() : {memref_type}" for name, memref_type in kernel.buffers.items()]
    main += [
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        *(f"  %c{v} = arith.constant {v} : index" for v in (2, 3, 4, 5, 6, 8)),
        f"  %iterations = arith.constant {kernel.iterations} : index",
        "  %fzero = arith.constant 0.0 : f32",
    ]
    main += kernel.fill.strip("\n").splitlines()
    for version in ("lowered", "hand"):
        main += _output_walk(kernel, lambda ivs, indent, v=version: [
            f"{indent}affine.store %fzero, %out_{v}[{ivs}] : {out_type}"
        ])
    # Warm-up: one call of each, so the first timed call does not page in the buffers.
    main += [f"  {call['lowered']}", f"  {call['hand']}"]
    for rep in range(repeat):
        order = ("lowered", "hand") if rep % 2 == 0 else ("hand", "lowered")
        for version in order:
            main += [
                f"  %start_{version}_{rep} = func.call @rtclock() : () -> f64",
                "  scf.for %n = %c0 to %iterations step %c1 {",
                f"    {call[version]}",
                f'    %address_{version}_{rep} = "memref.extract_aligned_pointer_as_index"(%out_{version}) : ({out_type}) -> index',
                f"    func.call @heterolayout_opaque(%address_{version}_{rep}) : (index) -> ()",
                "  }",
                f"  %end_{version}_{rep} = func.call @rtclock() : () -> f64",
                f"  %time_{version}_{rep} = arith.subf %end_{version}_{rep}, %start_{version}_{rep} : f64",
            ]
        main += [f'  "vector.print"(%time_lowered_{rep}) : (f64) -> ()', f'  "vector.print"(%time_hand_{rep}) : (f64) -> ()']
    if kernel.reset_output:
        for version in ("lowered", "hand"):
            main += _output_walk(kernel, lambda ivs, indent, v=version: [
                f"{indent}affine.store %fzero, %out_{v}[{ivs}] : {out_type}"
            ])
    main += [f"  {call['lowered']}", f"  {call['hand']}"]
    main += [
        "  %zero64 = arith.constant 0 : i64",
        "  %sums = memref.alloc() : memref<5xi64>",
        *(f"  memref.store %zero64, %sums[%c{i}] : memref<5xi64>" for i in range(5)),
        "  %seven = arith.constant 7 : index",
    ]

    def check_body(index_list: str, indent: str) -> list[str]:
        lines = [
            f"{indent}%xl = affine.load %out_lowered[{index_list}] : {out_type}",
            f"{indent}%xh = affine.load %out_hand[{index_list}] : {out_type}",
            f"{indent}%il = arith.fptosi %xl : f32 to i64",
            f"{indent}%ih = arith.fptosi %xh : f32 to i64",
            f"{indent}%position = affine.apply {_linear_map(kernel.output_shape)}({index_list})",
            f"{indent}%weight_index = arith.remui %position, %seven : index",
            f"{indent}%weight_plus = arith.addi %weight_index, %c1 : index",
            f"{indent}%weight = arith.index_cast %weight_plus : index to i64",
            f"{indent}%wl = arith.muli %il, %weight : i64",
            f"{indent}%wh = arith.muli %ih, %weight : i64",
            f"{indent}%differs = arith.cmpf une, %xl, %xh : f32",
            f"{indent}%mismatch = arith.extui %differs : i1 to i64",
        ]
        for slot, value in enumerate(("%il", "%ih", "%wl", "%wh", "%mismatch")):
            lines += [
                f"{indent}%old{slot} = memref.load %sums[%c{slot}] : memref<5xi64>",
                f"{indent}%new{slot} = arith.addi %old{slot}, {value} : i64",
                f"{indent}memref.store %new{slot}, %sums[%c{slot}] : memref<5xi64>",
            ]
        return lines

    main += _output_walk(kernel, check_body)
    for slot in range(5):
        main += [
            f"  %final{slot} = memref.load %sums[%c{slot}] : memref<5xi64>",
            f'  "vector.print"(%final{slot}) : (i64) -> ()',
        ]
    main += ["  func.return", "}"]
    helpers = """
func.func private @rtclock() -> f64
func.func private @heterolayout_opaque(index)
func.func @as_value(%v: index, %shift: index) -> f32 {
  %s = arith.subi %v, %shift : index
  %i = arith.index_cast %s : index to i64
  %f = arith.sitofp %i : i64 to f32
  func.return %f : f32
}
"""
    kernels = noinline(lowered, f"{kernel.name}_lowered") + "\n" + noinline(kernel.hand, f"{kernel.name}_hand")
    return "module {\n" + helpers + kernels + "\n" + "\n".join(main) + "\n}\n"


def noinline(text: str, name: str) -> str:
    """The function's definition marked noinline (its header ends with its body's brace)."""
    start = text.index(f"func.func @{name}(")
    brace = text.index(") {", start) + 1
    return text[:brace] + " " + NOINLINE + text[brace:]


def _linear_map(shape: tuple[int, ...]) -> str:
    dims = ", ".join(f"d{i}" for i in range(len(shape)))
    strides = [int(np.prod(shape[i + 1 :])) for i in range(len(shape))]
    terms = " + ".join(f"d{i} * {s}" for i, s in enumerate(strides))
    return f"affine_map<({dims}) -> ({terms})>"


@dataclass(frozen=True)
class Run:
    lowered: list[float]
    hand: list[float]
    sums: tuple[int, int, int, int]
    mismatches: int


def run_program(text: str, repeat: int) -> Run:
    import io

    import heterolayout.execution.native as native
    from heterolayout.dialects.context import parse_program
    from heterolayout.execution.runtime.runner_utils import RunOutput

    library = native.compile(parse_program(text, "native_overhead"))
    printed = io.StringIO()
    library.call("main", [], RunOutput(printed))
    values = printed.getvalue().split()
    expected = 2 * repeat + 5
    if len(values) != expected:
        raise RuntimeError(f"expected {expected} printed values, got {len(values)}:\n{printed.getvalue()}")
    times = [float(v) for v in values[: 2 * repeat]]
    sums = [int(v) for v in values[2 * repeat :]]
    return Run(times[0::2], times[1::2], (sums[0], sums[1], sums[2], sums[3]), sums[4])


def _innermost_bodies(function_text: str, function_name: str) -> list[tuple[list[str], int]]:
    """(op names, access-map operator count) of each innermost loop body of one function."""
    from xdsl.context import Context
    from xdsl.dialects import affine, builtin, scf
    from xdsl.ir.affine import AffineBinaryOpExpr
    from xdsl.parser import Parser

    from heterolayout.tools.opt import LayoutOptMain

    ctx: Context = LayoutOptMain(args=[]).ctx
    module = Parser(ctx, function_text).parse_module()
    bodies = []
    for op in module.walk():
        if not isinstance(op, (affine.ForOp, scf.ForOp)):
            continue
        block = op.body.block
        if any(isinstance(inner, (affine.ForOp, scf.ForOp)) for inner in block.walk()):
            continue
        parent = op
        while not (isinstance(parent, builtin.ModuleOp) or getattr(parent, "sym_name", None) is not None):
            parent = parent.parent_op()  # type: ignore[assignment]
        if parent.sym_name.data != function_name:  # type: ignore[union-attr]
            continue
        names = [inner.name for inner in block.ops]
        map_ops = 0
        for inner in block.ops:
            access_map = getattr(inner, "map", None)
            if isinstance(inner, (affine.LoadOp, affine.StoreOp)) and access_map is not None:
                map_ops += sum(
                    isinstance(node, AffineBinaryOpExpr)
                    for result in access_map.data.results
                    for node in result.dfs()
                )
        bodies.append((names, map_ops))
    return bodies


@dataclass(frozen=True)
class IndexCount:
    index_ops: int
    accesses: int

    @property
    def per_access(self) -> float:
        return self.index_ops / self.accesses


def count_index_ops(function_text: str, function_name: str) -> IndexCount:
    bodies = _innermost_bodies(function_text, function_name)
    if len(bodies) != 1:
        raise RuntimeError(f"@{function_name}: expected one innermost loop, found {len(bodies)}")
    (names, map_ops), = bodies
    return IndexCount(sum(n in INDEX_OPS for n in names) + map_ops, sum(n in ACCESS_OPS for n in names))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="few iterations and repetitions")
    parser.add_argument("--repeat", type=int, help="interleaved repetitions (default 11, quick 3)")
    args = parser.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 11)
    import heterolayout.execution.native as native

    reason = native.missing()
    if reason is not None:
        print(reason, file=sys.stderr)
        return 1
    rows = []
    for kernel in kernels(args.quick):
        lowered = lower_logical(kernel)
        ours = count_index_ops("builtin.module {\n" + lowered + "\n}", f"{kernel.name}_lowered")
        theirs = count_index_ops(kernel.hand, f"{kernel.name}_hand")
        run = run_program(program(kernel, lowered, repeat), repeat)
        reference = kernel.reference()
        weights = np.arange(reference.size).reshape(reference.shape) % 7 + 1
        expected = (int(reference.sum()), int((reference * weights).sum()))
        if run.mismatches or run.sums != (expected[0], expected[0], expected[1], expected[1]):
            raise RuntimeError(
                f"{kernel.name}: outputs differ (mismatching elements {run.mismatches}; checksums "
                f"lowered {run.sums[0]}/{run.sums[2]}, hand-written {run.sums[1]}/{run.sums[3]}, "
                f"numpy {expected[0]}/{expected[1]})"
            )
        ratios = [lowered_time / hand_time for lowered_time, hand_time in zip(run.lowered, run.hand, strict=True)]
        rows.append((kernel, statistics.median(ratios), min(ratios), max(ratios), run, ours, theirs, expected))
    print(f"# native overhead of layout-lower's index code (native engine, -O3, noinline kernels, {repeat} interleaved "
          f"repetitions; {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f})")
    print()
    header = ["kernel", "calls timed", "lowered ms/call", "hand-written ms/call", "lowered/hand-written",
              "min–max ratio", "index ops/access lowered", "index ops/access hand-written", "checksum"]
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for kernel, median, low, high, run, ours, theirs, expected in rows:
        print("| " + " | ".join([
            kernel.name,
            str(kernel.iterations),
            f"{statistics.median(run.lowered) / kernel.iterations * 1e3:.3f}",
            f"{statistics.median(run.hand) / kernel.iterations * 1e3:.3f}",
            f"{median:.3f}",
            f"{low:.3f}–{high:.3f}",
            f"{ours.per_access:.2f} ({ours.index_ops}/{ours.accesses})",
            f"{theirs.per_access:.2f} ({theirs.index_ops}/{theirs.accesses})",
            f"{expected[0]} (equal)",
        ]) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
