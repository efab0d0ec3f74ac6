"""Benchmark: heterolayout's interpreter and compiled engine against xDSL's stock interpreter.

All three run the same plain IR (scf/arith/memref loop nests) in one process. xDSL's
`Interpreter` gets its stock ArithFunctions, MemRefFunctions, ScfFunctions, FuncFunctions
and BuiltinFunctions and ShapedArray arguments; ours get numpy arrays. An `OpCounter` run of
the stock interpreter counts the ops each kernel executes; every engine's time becomes
ops per second, and the table shows each engine's rate as a ratio against stock (median
over interleaved rounds, so machine load hits all three alike). The compiled engine is
timed after its one compilation (reported separately); each timed sample repeats a call
until it lasts about 0.2 s. Before timing, the script checks that all engines compute what
numpy computes.

    python -m benchmarks.interp [--quick] [--repeat N]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import f64, i32
from xdsl.interpreter import Interpreter, OpCounter
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.builtin import BuiltinFunctions
from xdsl.interpreters.func import FuncFunctions
from xdsl.interpreters.memref import MemRefFunctions
from xdsl.interpreters.scf import ScfFunctions
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.interpreters.utils.ptr import TypedPtr

from heterolayout.dialects.context import parse_program
from heterolayout.execution.engines import engine_for


def matmul_text(n: int) -> str:
    return f"""
func.func @main(%A: memref<{n}x{n}xi32>, %B: memref<{n}x{n}xi32>, %C: memref<{n}x{n}xi32>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {n} : index
  scf.for %i = %c0 to %n step %c1 {{
    scf.for %j = %c0 to %n step %c1 {{
      %init = memref.load %C[%i, %j] : memref<{n}x{n}xi32>
      %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %init) -> (i32) {{
        %a = memref.load %A[%i, %k] : memref<{n}x{n}xi32>
        %b = memref.load %B[%k, %j] : memref<{n}x{n}xi32>
        %p = arith.muli %a, %b : i32
        %t = arith.addi %s, %p : i32
        scf.yield %t : i32
      }}
      memref.store %acc, %C[%i, %j] : memref<{n}x{n}xi32>
    }}
  }}
  func.return
}}"""


def conv_text(h: int, k: int) -> str:
    """A 2-D valid convolution in f64 (the one float type xDSL's interpreter computes right)."""
    o = h - k + 1
    return f"""
func.func @main(%X: memref<{h}x{h}xf64>, %W: memref<{k}x{k}xf64>, %Y: memref<{o}x{o}xf64>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %o = arith.constant {o} : index
  %k = arith.constant {k} : index
  %z = arith.constant 0.0 : f64
  scf.for %y = %c0 to %o step %c1 {{
    scf.for %x = %c0 to %o step %c1 {{
      %row = scf.for %i = %c0 to %k step %c1 iter_args(%s = %z) -> (f64) {{
        %col = scf.for %j = %c0 to %k step %c1 iter_args(%t = %s) -> (f64) {{
          %yi = arith.addi %y, %i : index
          %xj = arith.addi %x, %j : index
          %v = memref.load %X[%yi, %xj] : memref<{h}x{h}xf64>
          %w = memref.load %W[%i, %j] : memref<{k}x{k}xf64>
          %p = arith.mulf %v, %w : f64
          %u = arith.addf %t, %p : f64
          scf.yield %u : f64
        }}
        scf.yield %col : f64
      }}
      memref.store %row, %Y[%y, %x] : memref<{o}x{o}xf64>
    }}
  }}
  func.return
}}"""


@dataclass(frozen=True)
class Kernel:
    name: str
    text: str
    arrays: Callable[[], list[np.ndarray]]
    """Fresh arguments (the last one is the output)."""
    reference: Callable[[list[np.ndarray]], np.ndarray]
    xtype: Any


def kernels(quick: bool) -> list[Kernel]:
    n = 8 if quick else 16
    h, k = (8, 3) if quick else (18, 3)
    rng = np.random.default_rng(0)
    a = rng.integers(-100, 100, (n, n)).astype(np.int32)
    b = rng.integers(-100, 100, (n, n)).astype(np.int32)
    x = rng.normal(size=(h, h))
    w = rng.normal(size=(k, k))
    o = h - k + 1

    def conv_reference(args: list[np.ndarray]) -> np.ndarray:
        out = np.zeros((o, o))
        for yy in range(o):
            for xx in range(o):
                total = 0.0
                for i in range(k):
                    for j in range(k):
                        total += args[0][yy + i, xx + j] * args[1][i, j]
                out[yy, xx] = total
        return out

    return [
        Kernel(
            f"matmul i32 {n}x{n}",
            matmul_text(n),
            lambda: [a.copy(), b.copy(), np.zeros((n, n), np.int32)],
            lambda args: (args[0].astype(np.int64) @ args[1]).astype(np.int32),
            i32,
        ),
        Kernel(
            f"conv2d f64 {h}x{h} * {k}x{k}",
            conv_text(h, k),
            lambda: [x.copy(), w.copy(), np.zeros((o, o))],
            conv_reference,
            f64,
        ),
    ]


def stock_interpreter(module: Any, listeners: tuple[Interpreter.Listener, ...] = ()) -> Interpreter:
    interpreter = Interpreter(module, listeners=listeners)
    for functions in (ArithFunctions(), MemRefFunctions(), ScfFunctions(), FuncFunctions(), BuiltinFunctions()):
        interpreter.register_implementations(functions)
    return interpreter


def shaped(array: np.ndarray, xtype: Any) -> ShapedArray[Any]:
    return ShapedArray(TypedPtr[Any].new(array.ravel().tolist(), xtype=xtype), list(array.shape))


def _calls_per_timing(function: Callable[[], None], at_least: float = 0.2) -> int:
    """Calls per timed sample, so that a fast engine's sample lasts `at_least` seconds too
    and one scheduler hiccup does not decide its rate."""
    start = time.perf_counter()
    function()
    return max(1, round(at_least / max(time.perf_counter() - start, 1e-6)))


def measure(kernel: Kernel, repeat: int) -> dict[str, float]:
    module = parse_program(kernel.text)
    counter = OpCounter()
    stock_args = [shaped(a, kernel.xtype) for a in kernel.arrays()]
    stock_interpreter(module, (counter,)).call_op("main", tuple(stock_args))
    ops = sum(counter.ops.values())
    expected = kernel.reference(kernel.arrays())
    np.testing.assert_array_equal(np.array(stock_args[-1].data).reshape(expected.shape), expected)

    def stock() -> None:
        stock_interpreter(module).call_op("main", tuple(shaped(a, kernel.xtype) for a in kernel.arrays()))

    engines = {name: engine_for(module, name) for name in ("interp", "compiled")}
    for name, engine in engines.items():
        args = kernel.arrays()
        start = time.perf_counter()
        engine.call("main", tuple(args))
        if name == "compiled":
            compile_ms = (time.perf_counter() - start) * 1e3
        np.testing.assert_array_equal(args[-1], expected)

    def ours(name: str) -> Callable[[], None]:
        return lambda: engines[name].call("main", tuple(kernel.arrays()))

    runs = {"stock": stock, "interp": ours("interp"), "compiled": ours("compiled")}
    calls = {name: _calls_per_timing(function) for name, function in runs.items()}
    rates: dict[str, list[float]] = {name: [] for name in runs}
    ratios: dict[str, list[float]] = {"interp": [], "compiled": []}
    for _ in range(repeat):
        round_rates = {}
        for name, function in runs.items():
            start = time.perf_counter()
            for _ in range(calls[name]):
                function()
            round_rates[name] = ops * calls[name] / (time.perf_counter() - start)
            rates[name].append(round_rates[name])
        for name in ratios:
            ratios[name].append(round_rates[name] / round_rates["stock"])
    result = {f"{name} ops/s": statistics.median(values) for name, values in rates.items()}
    result.update({f"{name}/stock": statistics.median(values) for name, values in ratios.items()})
    result["ops"] = ops
    result["compile ms"] = compile_ms
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small kernels (a smoke run)")
    parser.add_argument("--repeat", type=int, default=7, help="interleaved rounds (default 7)")
    args = parser.parse_args(argv)
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    print()
    print("| kernel | ops | stock ops/s | interp ops/s | compiled ops/s | interp/stock | compiled/stock | compile ms |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for kernel in kernels(args.quick):
        r = measure(kernel, args.repeat)
        print(
            f"| {kernel.name} | {r['ops']:.0f} | {r['stock ops/s']:,.0f} | {r['interp ops/s']:,.0f} | "
            f"{r['compiled ops/s']:,.0f} | {r['interp/stock']:.2f} | {r['compiled/stock']:.1f} | {r['compile ms']:.1f} |"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
