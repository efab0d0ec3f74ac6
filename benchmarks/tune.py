"""Benchmark: `tune` on the issue's kernels, written on plain logical buffers (no layout).

- conv: 1×64×56×56 input, 64 3×3 filters, no padding (as benchmarks/schedule.py), NCHW/OIHW;
- depthwise: 1×64×56×56, one 3×3 filter per channel;
- matmul: 512³.

For each: the guided search (the cost model's cheapest quarter of the joint space) and,
with `--all`, every candidate of the space (measurements are cached, so the guided ones are
not measured twice). It prints the guided choice against the best of the whole space, the
share measured, the speed-up over the input program (the same pipeline, which leaves a nest
without layouts unscheduled) and the wall time of the guided search.

With `--fast-math` the search may also choose `fma=true reassociate=true` (results may
differ in the last bits); register tiles are tuned either way.

    python -m benchmarks.tune [--kernel conv|depthwise|matmul]... [--all] [--small] [--fast-math]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import onednn
from benchmarks.schedule import Sizes, run_onednn
from heterolayout.execution.engines import load_module
from heterolayout.search.measure import measure, native_timer
from heterolayout.search.search import TuneResult, tune

CONV = """
func.func @main(%input: memref<1x{C}x{H}x{H}xf32>, %weights: memref<{C}x{C}x3x3xf32>,
                %output: memref<1x{C}x{O}x{O}xf32>) {{
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to {C} {{
    affine.for %oh = 0 to {O} {{
      affine.for %ow = 0 to {O} {{
        affine.store %zero, %output[0, %k, %oh, %ow] : memref<1x{C}x{O}x{O}xf32>
        affine.for %c = 0 to {C} {{
          affine.for %kh = 0 to 3 {{
            affine.for %kw = 0 to 3 {{
              %x = affine.load %input[0, %c, %oh + %kh, %ow + %kw] : memref<1x{C}x{H}x{H}xf32>
              %w = affine.load %weights[%k, %c, %kh, %kw] : memref<{C}x{C}x3x3xf32>
              %acc = affine.load %output[0, %k, %oh, %ow] : memref<1x{C}x{O}x{O}xf32>
              %p = arith.mulf %x, %w : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %output[0, %k, %oh, %ow] : memref<1x{C}x{O}x{O}xf32>
            }}
          }}
        }}
      }}
    }}
  }}
  func.return
}}
"""

DEPTHWISE = """
func.func @main(%input: memref<1x{C}x{H}x{H}xf32>, %filters: memref<{C}x1x3x3xf32>,
                %output: memref<1x{C}x{O}x{O}xf32>) {{
  %zero = arith.constant 0.0 : f32
  affine.for %c = 0 to {C} {{
    affine.for %oh = 0 to {O} {{
      affine.for %ow = 0 to {O} {{
        affine.store %zero, %output[0, %c, %oh, %ow] : memref<1x{C}x{O}x{O}xf32>
        affine.for %kh = 0 to 3 {{
          affine.for %kw = 0 to 3 {{
            %x = affine.load %input[0, %c, %oh + %kh, %ow + %kw] : memref<1x{C}x{H}x{H}xf32>
            %w = affine.load %filters[%c, 0, %kh, %kw] : memref<{C}x1x3x3xf32>
            %acc = affine.load %output[0, %c, %oh, %ow] : memref<1x{C}x{O}x{O}xf32>
            %p = arith.mulf %x, %w : f32
            %s = arith.addf %acc, %p : f32
            affine.store %s, %output[0, %c, %oh, %ow] : memref<1x{C}x{O}x{O}xf32>
          }}
        }}
      }}
    }}
  }}
  func.return
}}
"""

MATMUL = """
func.func @main(%a: memref<{N}x{N}xf32>, %b: memref<{N}x{N}xf32>, %c: memref<{N}x{N}xf32>) {{
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to {N} {{
    affine.for %j = 0 to {N} {{
      affine.store %zero, %c[%i, %j] : memref<{N}x{N}xf32>
      affine.for %k = 0 to {N} {{
        %x = affine.load %a[%i, %k] : memref<{N}x{N}xf32>
        %y = affine.load %b[%k, %j] : memref<{N}x{N}xf32>
        %z = affine.load %c[%i, %j] : memref<{N}x{N}xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<{N}x{N}xf32>
      }}
    }}
  }}
  func.return
}}
"""


def programs(small: bool) -> dict[str, str]:
    c, h, n = (16, 18, 64) if small else (64, 56, 512)
    return {
        "conv": CONV.format(C=c, H=h, O=h - 2),
        "depthwise": DEPTHWISE.format(C=c, H=h, O=h - 2),
        "matmul": MATMUL.format(N=n),
    }


def _progress(index: int, count: int, best: object) -> None:
    ms = getattr(best, "ms", None)
    print(
        f"  [{index}/{count}] best {ms:.3f} ms" if ms else f"  [{index}/{count}]", file=sys.stderr
    )


def compare_onednn(text: str, result: TuneResult, small: bool, rounds: int = 3) -> None:
    """oneDNN's direct convolution on the same sizes (benchmarks/schedule.py's harness, one
    thread), side by side with the chosen program timed again: rounds alternate the two,
    the best call of each counts."""
    why_not = onednn.missing()
    best = result.best
    if why_not or best is None:
        print(f"  oneDNN: not run ({why_not})")
        return
    sizes = Sizes(16, 18) if small else Sizes()
    module = load_module(text)
    ours: list[float] = []
    ours_alone: list[float] = []
    theirs: list[float] = []
    theirs_alone: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        binary = onednn.build("onednn_conv.cpp", Path(scratch) / "onednn_conv")
        for _ in range(rounds):
            timed = measure(
                module,
                "main",
                best.specs,
                native_timer(),
                alone=True,
                options=best.options,
                hint=(result.lead, best.tile),
            )
            assert timed.seconds is not None and timed.alone is not None, timed.error
            ours.append(timed.seconds)
            ours_alone.append(timed.alone)
            measured = run_onednn(binary, sizes, 20)
            theirs.append(min(measured.times["boundary"]))
            theirs_alone.append(min(measured.times["alone"]))
    print(
        f"  side by side ({rounds} rounds, best): chosen {min(ours) * 1e3:.3f} ms "
        f"(alone {min(ours_alone) * 1e3:.3f}), oneDNN with reorders {min(theirs) * 1e3:.3f} ms "
        f"(direct conv alone {min(theirs_alone) * 1e3:.3f}); oneDNN/chosen time "
        f"{min(theirs) / min(ours):.2f} with conversions, "
        f"{min(theirs_alone) / min(ours_alone):.2f} kernels alone"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kernel", action="append", choices=["conv", "depthwise", "matmul"])
    parser.add_argument("--all", action="store_true", help="also measure every candidate")
    parser.add_argument("--small", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--budget", type=int, help="candidates the guided search measures")
    parser.add_argument("--fast-math", action="store_true", help="allow fma/reassociate")
    args = parser.parse_args(argv)
    fast = args.fast_math
    for name in args.kernel or ["conv", "depthwise", "matmul"]:
        text = programs(args.small)[name]
        start = time.perf_counter()
        guided = tune(text, budget=args.budget, fast_math=fast, progress=_progress)
        wall = time.perf_counter() - start
        assert guided.best is not None
        print(
            f"{name}: space {guided.space}, measured {len(guided.rows)} "
            f"({len(guided.rows) / guided.space:.0%}), guided search {wall:.0f} s"
        )
        print(
            f"  input program {guided.input_ms:.3f} ms; chosen {guided.best.layouts} "
            f"[{guided.best.schedule}] "
            f"{guided.best.ms:.3f} ms ({guided.best.gflops:.1f} GFLOP/s, "
            f"{guided.best.speedup:.1f}x the input program)"
        )
        if name == "conv":
            compare_onednn(text, guided, args.small)
        if args.all:
            start = time.perf_counter()
            everything = tune(text, budget=guided.space, fast_math=fast, progress=_progress)
            assert everything.best is not None
            print(
                f"  every candidate ({len(everything.rows)} measured, "
                f"{time.perf_counter() - start:.0f} s): best {everything.best.layouts} "
                f"[{everything.best.schedule}] "
                f"{everything.best.ms:.3f} ms; chosen/best time {guided.best.ms / everything.best.ms:.3f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
