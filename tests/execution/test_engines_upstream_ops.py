"""Both engines run the ops of real inputs (linalg named ops and linalg.generic, views,
scf.parallel, cf branches, vector reductions, contractions and transfers); each program's
results equal numpy's and, bit for bit, mlir-runner 22's (see `upstream_programs`)."""

from __future__ import annotations

import subprocess
from functools import cache

import numpy as np
import pytest

import heterolayout
from tests.mlir_tools import LOWER_TO_LLVM, require_native_engine
from tests.upstream_programs import (
    Arrays,
    Case,
    Output,
    data,
    printed_outputs,
    program,
    without_addresses,
)

NATIVE_PIPELINE = (
    "--convert-linalg-to-loops",
    "--lower-vector-multi-reduction",
    *LOWER_TO_LLVM[:-1],
    "--convert-ub-to-llvm",  # vector transfers leave ub.poison
    LOWER_TO_LLVM[-1],
)
F32_MIN = "-3.40282347E+38"


def _windows(
    image: np.ndarray,
    kernel: tuple[int, int],
    strides: tuple[int, int],
    dilations: tuple[int, int],
    out: tuple[int, int],
) -> np.ndarray:
    """NHWC image → (N, OH, OW, KH, KW, C) windows."""
    n, _, _, c = image.shape
    result = np.empty((n, *out, *kernel, c), dtype=np.float64)
    for oh in range(out[0]):
        for ow in range(out[1]):
            for kh in range(kernel[0]):
                for kw in range(kernel[1]):
                    h = oh * strides[0] + kh * dilations[0]
                    w = ow * strides[1] + kw * dilations[1]
                    result[:, oh, ow, kh, kw, :] = image[:, h, w, :]
    return result


def _nchw(image: np.ndarray) -> np.ndarray:
    return image.transpose(0, 2, 3, 1)


def _conv_nchw(a: Arrays) -> Arrays:
    windows = _windows(_nchw(a["I"]), (3, 2), (2, 1), (1, 2), (4, 7))
    out = np.einsum("nhwijc,fcij->nfhw", windows, a["F"].astype(np.float64))
    return {"O": out}


def _conv_nhwc(a: Arrays) -> Arrays:
    windows = _windows(a["I"], (3, 3), (1, 1), (1, 1), (4, 4))
    return {"O": np.einsum("nhwijc,ijcf->nhwf", windows, a["F"].astype(np.float64))}


def _depthwise(a: Arrays) -> Arrays:
    windows = _windows(a["I"], (3, 3), (1, 1), (1, 1), (4, 4))
    return {"O": np.einsum("nhwijc,ijc->nhwc", windows, a["F"].astype(np.float64))}


def _pooling(a: Arrays) -> Arrays:
    windows = _windows(a["I"], (2, 2), (2, 2), (1, 1), (3, 3))
    return {
        "MAX": windows.max(axis=(3, 4)),
        "SUM": windows.sum(axis=(3, 4)),
        "CMAX": windows.max(axis=(3, 4)).transpose(0, 3, 1, 2),
    }


def _generic(a: Arrays) -> Arrays:
    i, j = np.indices((4, 6))
    scaled = a["A"].astype(np.float64) * (i + 2 * j)
    return {"G": scaled.T, "R": a["N"].sum(axis=1)}


def _views(a: Arrays) -> Arrays:
    A = a["A"]
    return {
        "S": A[1:3, 2:8:2],
        "ROW": A[2],
        "RC": A.reshape(8, 4),
        "E": A.reshape(2, 16),
        "W": np.where(
            (np.arange(4)[:, None] >= 1) & (np.arange(4)[:, None] < 3) & (np.arange(8) < 4), 2.0, A
        ).astype(np.float32),
        "T": np.array([A[1:, 3:].sum(dtype=np.float64)]),
    }


def _parallel(a: Arrays) -> Arrays:
    return {"PS": np.array([a["A"].sum(dtype=np.float64)]), "PM": np.array([a["N"].max()])}


def _branches(a: Arrays) -> Arrays:
    values = a["V"].astype(np.int64)
    return {"B": np.array([int((values[values > 0] ** 2).sum()), int((values <= 0).sum())])}


def _vectors(a: Arrays) -> Arrays:
    A, M = a["A"].astype(np.float64), a["M"]
    padded = np.concatenate([a["A"][3, 6:8], np.float32([7.5, 7.5])])
    written = np.zeros(8, dtype=np.float32)
    written[[0, 2]] = a["A"][0, [0, 2]]
    return {
        "RED": np.array([A[0].sum(), A[1].max()]),
        "MR": A[:2, :4].sum(axis=0),
        "CT": A[:2, :3] @ A[2:5, :4] + A[6:8, :4],
        "DOT": np.array([A[0] @ A[1] + A[0].sum()]),
        "TR": padded,
        "COL": a["A"][0:3, 5],
        "TW": written,
        "IMAX": np.array([M.max()]),
    }


def _index_ops(a: Arrays) -> Arrays:
    v = a["V"].astype(np.int64)
    digits = np.stack([v // 20, (v // 5) % 4, v % 5], axis=1)
    # The outermost digit is not wrapped by its bound (it is assumed in range).
    return {"D": digits, "L": v, "P": np.stack([v // 5, v % 5], axis=1)}


CASES = (
    Case(
        "matmul",
        {"A": ((4, 8), "f32"), "B": ((8, 6), "f32")},
        """
  %C = memref.alloc() : memref<4x6xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<4x6xf32>)
  linalg.matmul ins(%A, %B : memref<4x8xf32>, memref<8x6xf32>) outs(%C : memref<4x6xf32>)""",
        (Output("C", (4, 6)),),
        lambda a: {"C": a["A"].astype(np.float64) @ a["B"]},
    ),
    Case(
        "batch_matmul",
        {"A": ((2, 3, 4), "f32"), "B": ((2, 4, 5), "f32")},
        """
  %C = memref.alloc() : memref<2x3x5xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<2x3x5xf32>)
  linalg.batch_matmul ins(%A, %B : memref<2x3x4xf32>, memref<2x4x5xf32>) outs(%C : memref<2x3x5xf32>)""",
        (Output("C", (2, 3, 5)),),
        lambda a: {"C": np.matmul(a["A"].astype(np.float64), a["B"])},
    ),
    Case(
        "conv_2d_nchw_fchw",
        {"I": ((1, 3, 9, 9), "f32"), "F": ((4, 3, 3, 2), "f32")},
        """
  %O = memref.alloc() : memref<1x4x4x7xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%O : memref<1x4x4x7xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
    ins(%I, %F : memref<1x3x9x9xf32>, memref<4x3x3x2xf32>) outs(%O : memref<1x4x4x7xf32>)""",
        (Output("O", (1, 4, 4, 7)),),
        _conv_nchw,
    ),
    Case(
        "conv_2d_nhwc_hwcf",
        {"I": ((1, 6, 6, 3), "f32"), "F": ((3, 3, 3, 4), "f32")},
        """
  %O = memref.alloc() : memref<1x4x4x4xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%O : memref<1x4x4x4xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%I, %F : memref<1x6x6x3xf32>, memref<3x3x3x4xf32>) outs(%O : memref<1x4x4x4xf32>)""",
        (Output("O", (1, 4, 4, 4)),),
        _conv_nhwc,
    ),
    Case(
        "depthwise_conv_2d_nhwc_hwc",
        {"I": ((1, 6, 6, 3), "f32"), "F": ((3, 3, 3), "f32")},
        """
  %O = memref.alloc() : memref<1x4x4x3xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%O : memref<1x4x4x3xf32>)
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<1x6x6x3xf32>, memref<3x3x3xf32>) outs(%O : memref<1x4x4x3xf32>)""",
        (Output("O", (1, 4, 4, 3)),),
        _depthwise,
    ),
    Case(
        "pooling",
        {"I": ((1, 6, 6, 3), "f32")},
        f"""
  %K = memref.alloc() : memref<2x2xf32>
  %MAX = memref.alloc() : memref<1x3x3x3xf32>
  %SUM = memref.alloc() : memref<1x3x3x3xf32>
  %CMAX = memref.alloc() : memref<1x3x3x3xf32>
  %low = arith.constant {F32_MIN} : f32
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%low : f32) outs(%MAX : memref<1x3x3x3xf32>)
  linalg.fill ins(%low : f32) outs(%CMAX : memref<1x3x3x3xf32>)
  linalg.fill ins(%zero : f32) outs(%SUM : memref<1x3x3x3xf32>)
  linalg.pooling_nhwc_max {{dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}}
    ins(%I, %K : memref<1x6x6x3xf32>, memref<2x2xf32>) outs(%MAX : memref<1x3x3x3xf32>)
  linalg.pooling_nhwc_sum {{dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}}
    ins(%I, %K : memref<1x6x6x3xf32>, memref<2x2xf32>) outs(%SUM : memref<1x3x3x3xf32>)
  %In = memref.alloc() : memref<1x3x6x6xf32>
  linalg.transpose ins(%I : memref<1x6x6x3xf32>) outs(%In : memref<1x3x6x6xf32>) permutation = [0, 3, 1, 2]
  linalg.pooling_nchw_max {{dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}}
    ins(%In, %K : memref<1x3x6x6xf32>, memref<2x2xf32>) outs(%CMAX : memref<1x3x3x3xf32>)""",
        (Output("MAX", (1, 3, 3, 3)), Output("SUM", (1, 3, 3, 3)), Output("CMAX", (1, 3, 3, 3))),
        _pooling,
    ),
    Case(
        "copy_transpose_broadcast_reduce",
        {"A": ((4, 6), "f32"), "V": ((6,), "f32")},
        """
  %CP = memref.alloc() : memref<4x6xf32>
  linalg.copy ins(%A : memref<4x6xf32>) outs(%CP : memref<4x6xf32>)
  %TP = memref.alloc() : memref<6x4xf32>
  linalg.transpose ins(%A : memref<4x6xf32>) outs(%TP : memref<6x4xf32>) permutation = [1, 0]
  %BC = memref.alloc() : memref<3x6xf32>
  linalg.broadcast ins(%V : memref<6xf32>) outs(%BC : memref<3x6xf32>) dimensions = [0]
  %RD = memref.alloc() : memref<6xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%RD : memref<6xf32>)
  linalg.reduce ins(%A : memref<4x6xf32>) outs(%RD : memref<6xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }""",
        (Output("CP", (4, 6)), Output("TP", (6, 4)), Output("BC", (3, 6)), Output("RD", (6,))),
        lambda a: {
            "CP": a["A"],
            "TP": a["A"].T,
            "BC": np.broadcast_to(a["V"], (3, 6)),
            "RD": a["A"].astype(np.float64).sum(axis=0),
        },
    ),
    Case(
        "generic",
        {"A": ((4, 6), "f32"), "N": ((4, 6), "i32")},
        """
  %G = memref.alloc() : memref<6x4xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j, i)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<4x6xf32>) outs(%G : memref<6x4xf32>) {
  ^bb0(%a: f32, %g: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %j2 = arith.addi %j, %j : index
    %k = arith.addi %i, %j2 : index
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %p = arith.mulf %a, %kf : f32
    linalg.yield %p : f32
  }
  %R = memref.alloc() : memref<4xi32>
  %zi = arith.constant 0 : i32
  linalg.fill ins(%zi : i32) outs(%R : memref<4xi32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%N : memref<4x6xi32>) outs(%R : memref<4xi32>) {
  ^bb0(%n: i32, %r: i32):
    %s = arith.addi %n, %r : i32
    linalg.yield %s : i32
  }""",
        (Output("G", (6, 4)), Output("R", (4,), "i32")),
        _generic,
    ),
    Case(
        "views",
        {"A": ((4, 8), "f32")},
        """
  %S = memref.alloc() : memref<2x3xf32>
  %sv = memref.subview %A[1, 2] [2, 3] [1, 2] : memref<4x8xf32> to memref<2x3xf32, strided<[8, 2], offset: 10>>
  memref.copy %sv, %S : memref<2x3xf32, strided<[8, 2], offset: 10>> to memref<2x3xf32>
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %ROW = memref.alloc() : memref<8xf32>
  %row = memref.subview %A[%c2, 0] [1, %c8] [1, 1] : memref<4x8xf32> to memref<?xf32, strided<[1], offset: ?>>
  %rowc = memref.cast %row : memref<?xf32, strided<[1], offset: ?>> to memref<8xf32, strided<[1], offset: ?>>
  memref.copy %rowc, %ROW : memref<8xf32, strided<[1], offset: ?>> to memref<8xf32>
  %RC = memref.alloc() : memref<8x4xf32>
  %rc = memref.reinterpret_cast %A to offset: [0], sizes: [8, 4], strides: [4, 1] : memref<4x8xf32> to memref<8x4xf32>
  memref.copy %rc, %RC : memref<8x4xf32> to memref<8x4xf32>
  %E = memref.alloc() : memref<2x16xf32>
  %flat = memref.collapse_shape %A [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  %ex = memref.expand_shape %flat [[0, 1]] output_shape [2, 16] : memref<32xf32> into memref<2x16xf32>
  memref.copy %ex, %E : memref<2x16xf32> to memref<2x16xf32>
  %W = memref.alloc() : memref<4x8xf32>
  memref.copy %A, %W : memref<4x8xf32> to memref<4x8xf32>
  %wv = memref.subview %W[1, 0] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 8>>
  %two = arith.constant 2.0 : f32
  linalg.fill ins(%two : f32) outs(%wv : memref<2x4xf32, strided<[8, 1], offset: 8>>)
  %tail = memref.subview %A[1, 3] [3, 5] [1, 1] : memref<4x8xf32> to memref<3x5xf32, strided<[8, 1], offset: 11>>
  %dyn = memref.cast %tail : memref<3x5xf32, strided<[8, 1], offset: 11>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %t = func.call @total(%dyn) : (memref<?x?xf32, strided<[?, ?], offset: ?>>) -> f32
  %T = memref.alloc() : memref<1xf32>
  memref.store %t, %T[%c0] : memref<1xf32>""",
        (
            Output("S", (2, 3)),
            Output("ROW", (8,)),
            Output("RC", (8, 4)),
            Output("E", (2, 16)),
            Output("W", (4, 8)),
            Output("T", (1,)),
        ),
        _views,
        extra="""
func.func private @total(%m: memref<?x?xf32, strided<[?, ?], offset: ?>>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %m, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %cols = memref.dim %m, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %rows step %c1 iter_args(%acc = %zero) -> (f32) {
    %r = scf.for %j = %c0 to %cols step %c1 iter_args(%a = %acc) -> (f32) {
      %x = memref.load %m[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %y = arith.addf %a, %x : f32
      scf.yield %y : f32
    }
    scf.yield %r : f32
  }
  return %s : f32
}""",
    ),
    Case(
        "parallel",
        {"A": ((4, 8), "f32"), "N": ((4, 8), "i32")},
        """
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %low = arith.constant -2147483648 : i32
  %s, %m = scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) init (%zero, %low) -> (f32, i32) {
    %x = memref.load %A[%i, %j] : memref<4x8xf32>
    %n = memref.load %N[%i, %j] : memref<4x8xi32>
    scf.reduce(%x, %n : f32, i32) {
    ^bb0(%l: f32, %r: f32):
      %t = arith.addf %l, %r : f32
      scf.reduce.return %t : f32
    }, {
    ^bb0(%l: i32, %r: i32):
      %t = arith.maxsi %l, %r : i32
      scf.reduce.return %t : i32
    }
  }
  %PS = memref.alloc() : memref<1xf32>
  memref.store %s, %PS[%c0] : memref<1xf32>
  %PM = memref.alloc() : memref<1xi32>
  memref.store %m, %PM[%c0] : memref<1xi32>""",
        (Output("PS", (1,)), Output("PM", (1,), "i32")),
        _parallel,
    ),
    Case(
        "branches",
        {"V": ((9,), "i32")},
        """
  %n = arith.constant 9 : index
  %z = arith.constant 0 : i32
  cf.br ^loop(%c0, %z, %z : index, i32, i32)
^loop(%i: index, %sq: i32, %neg: i32):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^done(%sq, %neg : i32, i32)
^body:
  %v = memref.load %V[%i] : memref<9xi32>
  %next = arith.addi %i, %c1 : index
  %positive = arith.cmpi sgt, %v, %z : i32
  cf.cond_br %positive, ^square(%v : i32), ^count
^square(%p: i32):
  %p2 = arith.muli %p, %p : i32
  %sq2 = arith.addi %sq, %p2 : i32
  cf.br ^loop(%next, %sq2, %neg : index, i32, i32)
^count:
  %one = arith.constant 1 : i32
  %neg2 = arith.addi %neg, %one : i32
  cf.br ^loop(%next, %sq, %neg2 : index, i32, i32)
^done(%a: i32, %b: i32):
  %B = memref.alloc() : memref<2xi32>
  memref.store %a, %B[%c0] : memref<2xi32>
  memref.store %b, %B[%c1] : memref<2xi32>""",
        (Output("B", (2,), "i32"),),
        _branches,
    ),
    Case(
        "index_ops",
        {"V": ((9,), "i32")},
        """
  %c9 = arith.constant 9 : index
  %c4 = arith.constant 4 : index
  %D = memref.alloc() : memref<9x3xi32>
  %L = memref.alloc() : memref<9xi32>
  %P = memref.alloc() : memref<9x2xi32>
  scf.for %i = %c0 to %c9 step %c1 {
    %v = memref.load %V[%i] : memref<9xi32>
    %x = arith.index_cast %v : i32 to index
    %d:3 = affine.delinearize_index %x into (%c4, 5) : index, index, index
    %p:2 = affine.delinearize_index %x into (4, 5) : index, index
    %l = affine.linearize_index disjoint [%d#0, %d#1, %d#2] by (%c4, 5) : index
    %c2 = arith.constant 2 : index
    %d0 = arith.index_cast %d#0 : index to i32
    %d1 = arith.index_cast %d#1 : index to i32
    %d2 = arith.index_cast %d#2 : index to i32
    %values = vector.from_elements %d0, %d1, %d2 : vector<3xi32>
    vector.store %values, %D[%i, %c0] : memref<9x3xi32>, vector<3xi32>
    %li = arith.index_cast %l : index to i32
    memref.store %li, %L[%i] : memref<9xi32>
    %p0 = arith.index_cast %p#0 : index to i32
    %p1 = arith.index_cast %p#1 : index to i32
    memref.store %p0, %P[%i, %c0] : memref<9x2xi32>
    memref.store %p1, %P[%i, %c1] : memref<9x2xi32>
  }""",
        (Output("D", (9, 3), "i32"), Output("L", (9,), "i32"), Output("P", (9, 2), "i32")),
        _index_ops,
    ),
    Case(
        "vectors",
        {"A": ((8, 8), "f32"), "M": ((8,), "i32")},
        """
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  memref.prefetch %A[%c0, %c0], read, locality<3>, data : memref<8x8xf32>
  affine.prefetch %A[%c1, 0], read, locality<1>, data : memref<8x8xf32>
  %row0 = vector.load %A[%c0, %c0] : memref<8x8xf32>, vector<8xf32>
  %row1 = vector.load %A[%c1, %c0] : memref<8x8xf32>, vector<8xf32>
  %sum = vector.reduction <add>, %row0 : vector<8xf32> into f32
  %max = vector.reduction <maximumf>, %row1 : vector<8xf32> into f32
  %RED = memref.alloc() : memref<2xf32>
  memref.store %sum, %RED[%c0] : memref<2xf32>
  memref.store %max, %RED[%c1] : memref<2xf32>
  %pad = arith.constant 0.0 : f32
  %block = vector.transfer_read %A[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x8xf32>, vector<2x4xf32>
  %zero4 = arith.constant dense<0.0> : vector<4xf32>
  %mr = vector.multi_reduction <add>, %block, %zero4 [0] : vector<2x4xf32> to vector<4xf32>
  %MR = memref.alloc() : memref<4xf32>
  vector.store %mr, %MR[%c0] : memref<4xf32>, vector<4xf32>
  %lhs = vector.transfer_read %A[%c0, %c0], %pad : memref<8x8xf32>, vector<2x3xf32>
  %rhs = vector.transfer_read %A[%c2, %c0], %pad : memref<8x8xf32>, vector<3x4xf32>
  %acc = vector.transfer_read %A[%c6, %c0], %pad : memref<8x8xf32>, vector<2x4xf32>
  %ct = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %lhs, %rhs, %acc : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  %CT = memref.alloc() : memref<2x4xf32>
  vector.transfer_write %ct, %CT[%c0, %c0] : vector<2x4xf32>, memref<2x4xf32>
  %dot = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<add>} %row0, %row1, %sum : vector<8xf32>, vector<8xf32> into f32
  %DOT = memref.alloc() : memref<1xf32>
  memref.store %dot, %DOT[%c0] : memref<1xf32>
  %fill = arith.constant 7.5 : f32
  %tr = vector.transfer_read %A[%c3, %c6], %fill : memref<8x8xf32>, vector<4xf32>
  %Av = memref.subview %A[0, 0] [4, 8] [1, 1] : memref<8x8xf32> to memref<4x8xf32, strided<[8, 1]>>
  %tr2 = vector.transfer_read %Av[%c3, %c6], %fill : memref<4x8xf32, strided<[8, 1]>>, vector<4xf32>
  %TR = memref.alloc() : memref<4xf32>
  vector.transfer_write %tr2, %TR[%c0] : vector<4xf32>, memref<4xf32>
  %col = vector.transfer_read %A[%c0, %c5], %pad {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x8xf32>, vector<3xf32>
  %COL = memref.alloc() : memref<3xf32>
  vector.transfer_write %col, %COL[%c0] : vector<3xf32>, memref<3xf32>
  %TW = memref.alloc() : memref<8xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%TW : memref<8xf32>)
  %mask = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %first = vector.transfer_read %A[%c0, %c0], %pad : memref<8x8xf32>, vector<4xf32>
  vector.transfer_write %first, %TW[%c0], %mask : vector<4xf32>, memref<8xf32>
  %ints = vector.load %M[%c0] : memref<8xi32>, vector<8xi32>
  %imax = vector.reduction <maxsi>, %ints : vector<8xi32> into i32
  %IMAX = memref.alloc() : memref<1xi32>
  memref.store %imax, %IMAX[%c0] : memref<1xi32>""",
        (
            Output("RED", (2,)),
            Output("MR", (4,)),
            Output("CT", (2, 4)),
            Output("DOT", (1,)),
            Output("TR", (4,)),
            Output("COL", (3,)),
            Output("TW", (8,)),
            Output("IMAX", (1,), "i32"),
        ),
        _vectors,
    ),
)


@cache
def engine_output(name: str, engine: str) -> str:
    case = next(c for c in CASES if c.name == name)
    output = heterolayout.run(program(case), engine=engine, capture=True).output
    assert output is not None
    return output


@pytest.mark.parametrize("engine", ["interp", "compiled"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_engines_compute_what_numpy_computes(case: Case, engine: str) -> None:
    found = printed_outputs(engine_output(case.name, engine), case)
    for name, expected in case.expected(data(case)).items():
        got = found[name]
        assert got.shape == np.shape(expected), name
        if got.dtype.kind == "i":
            np.testing.assert_array_equal(got, expected, err_msg=name)
        else:
            np.testing.assert_allclose(got, expected, rtol=case.tolerance, atol=1e-6, err_msg=name)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_engines_print_what_mlir_runner_prints(case: Case, native_runner) -> None:
    interp, compiled = engine_output(case.name, "interp"), engine_output(case.name, "compiled")
    assert interp == compiled
    native = native_runner(program(case), pipeline=NATIVE_PIPELINE)
    assert without_addresses(native) == without_addresses(compiled)


UPSTREAM_LOWERINGS = {
    "vector-to-scf": ("--convert-vector-to-scf",),
    "linalg-to-affine": ("--convert-linalg-to-affine-loops",),
    "linalg-to-parallel": (
        "--convert-linalg-to-parallel-loops",
        "--lower-affine",
        "--expand-strided-metadata",
    ),
}


@pytest.mark.parametrize("lowering", list(UPSTREAM_LOWERINGS))
@pytest.mark.parametrize("name", ["vectors", "views", "conv_2d_nchw_fchw", "generic"])
def test_engines_run_upstream_lowerings_of_the_programs(
    name: str, lowering: str, mlir_opt: str
) -> None:
    """What upstream's own lowerings make of a program (scf.parallel, affine loops,
    vector.type_cast, reinterpret_cast) prints what the program prints."""
    case = next(c for c in CASES if c.name == name)
    lowered = subprocess.run(
        [mlir_opt, *UPSTREAM_LOWERINGS[lowering]],
        input=program(case),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for engine in ("interp", "compiled"):
        output = heterolayout.run(lowered, engine=engine, capture=True).output
        assert output is not None
        assert without_addresses(output) == without_addresses(engine_output(name, engine))


RANK_ZERO_COLLAPSE = """
func.func @main(%a: memref<1x1x1xf32{layout}>, %b: memref<2xf32>) {{
  %c = memref.collapse_shape %a [] : memref<1x1x1xf32{layout}> into memref<f32>
  %v = memref.load %c[] : memref<f32>
  %i0 = arith.constant 0 : index
  memref.store %v, %b[%i0] : memref<2xf32>
  return
}}
"""


@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
@pytest.mark.parametrize("layout", ["", ', #layout.tag<"ABC->CBA">'])
def test_a_collapse_of_unit_dims_to_rank_zero(engine: str, layout: str) -> None:
    """No reassociation groups at all (torch-mlir's LayerNormalization over every axis and
    ReduceProd to a scalar collapse a 1x1x1 mean so): the Python engines took the result's
    rank for the source's and failed with numpy's "setting an array element with a
    sequence"."""
    if engine == "native":
        require_native_engine()
    a, b = np.full((1, 1, 1), 3.0, np.float32), np.zeros(2, np.float32)
    heterolayout.run(RANK_ZERO_COLLAPSE.format(layout=layout), "main", [a, b], engine=engine)
    np.testing.assert_array_equal(b, [3.0, 0.0])
