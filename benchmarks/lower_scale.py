"""Benchmark: `layout-lower` on large generated modules, next to `mlir-opt --normalize-memrefs`.

Each module holds one function per 10 tiled accesses: the function takes a
`memref<64x64xf32, #tiled>` (#tiled = the 8×8 tiling map below) as an argument or allocates
one, and does 5 `affine.load` and 5 `affine.store` at different offsets inside a 2-deep
`affine.for` nest; half the nests step by 8 (tile-aligned), half by 1. Every module is
lowered three ways, each in a fresh process so no cache carries over between sizes:

- our pass alone: the module parsed with layout-opt's context, then only
  `LayoutLowerPass().apply` timed (no parse, no print);
- our whole run: `layout-opt FILE -p layout-lower`;
- upstream's whole run: `mlir-opt-22 --normalize-memrefs FILE` on the same file.

Times are CPU seconds (user + system of the process), which a loaded machine inflates far
less than wall time; wall seconds are printed too. The last table shows how each time grows
from one size to the next, divided by the growth in accesses (1.00 = linear).

    python -m benchmarks.lower_scale [--quick] [--sizes 1000,10000,20000] [--repeat N]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ACCESSES_PER_FUNCTION = 10
TILED_MAP = "affine_map<(d0, d1) -> (d0 floordiv 8, d1 floordiv 8, d0 mod 8, d1 mod 8)>"
TILED = "memref<64x64xf32, #tiled>"
PHYSICAL = "memref<8x8x8x8xf32>"
FULL_SIZES = (1_000, 10_000, 20_000)
QUICK_SIZES = (1_000, 2_000)
REPOSITORY = Path(__file__).resolve().parent.parent


def function_text(index: int) -> str:
    """Function `index`: 10 accesses at offsets that differ between accesses and functions.
    Even functions walk tile-aligned (step 8, offsets inside the tile), odd ones walk every
    element (offsets cross tile boundaries); every third one allocates its buffer."""
    aligned = index % 2 == 0
    takes_argument = index % 3 != 0
    lines = [f"func.func @f{index}(%A: {TILED}) {{" if takes_argument else f"func.func @f{index}() {{"]
    if not takes_argument:
        lines.append(f"  %A = memref.alloc() : {TILED}")
    upper, step = (64, " step 8") if aligned else (56, "")
    lines.append(f"  affine.for %i = 0 to {upper}{step} {{")
    lines.append(f"    affine.for %j = 0 to {upper}{step} {{")
    for access in range(ACCESSES_PER_FUNCTION):
        di, dj = (index + 3 * access) % 8, (2 * index + 5 * access) % 8
        if access % 2 == 0:
            lines.append(f"      %v{access} = affine.load %A[%i + {di}, %j + {dj}] : {TILED}")
        else:
            lines.append(f"      affine.store %v{access - 1}, %A[%i + {di}, %j + {dj}] : {TILED}")
    lines += ["    }", "  }"]
    if not takes_argument:
        lines.append(f"  memref.dealloc %A : {TILED}")
    lines += ["  func.return", "}"]
    return "\n".join(lines)


def module_text(accesses: int) -> str:
    if accesses % ACCESSES_PER_FUNCTION:
        raise ValueError(f"accesses must be a multiple of {ACCESSES_PER_FUNCTION}, got {accesses}")
    functions = accesses // ACCESSES_PER_FUNCTION
    body = "\n".join(function_text(f) for f in range(functions))
    return f"#tiled = {TILED_MAP}\n{body}\n"


@dataclass(frozen=True)
class Timing:
    cpu: float
    wall: float


def time_pass_in_process(path: str) -> dict[str, float]:
    """Parse with layout-opt's context, then time the pass alone (run in a child process)."""
    from xdsl.parser import Parser

    from heterolayout.passes.lower.layout_lower import LayoutLowerPass
    from heterolayout.tools.opt import LayoutOptMain

    ctx = LayoutOptMain(args=[path]).ctx
    module = Parser(ctx, Path(path).read_text(), path).parse_module()
    accesses = sum(op.name in ("affine.load", "affine.store") for op in module.walk())
    cpu, wall = time.process_time(), time.perf_counter()
    LayoutLowerPass().apply(ctx, module)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"cpu": cpu, "wall": wall, "accesses": accesses}


def _run_timed(command: list[str], what: str) -> tuple[Timing, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise RuntimeError(f"{what} failed (exit {run.returncode}): {' '.join(command)}\n{run.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timing(cpu, wall), run.stdout


def _check_lowered(text: str, what: str, accesses: int) -> None:
    """Both tools must leave no tiled memref, and one physical access per logical one."""
    if "64x64xf32" in text or PHYSICAL not in text:
        raise RuntimeError(f"{what} did not turn every {TILED} into {PHYSICAL}")
    count = sum(text.count(f"{dialect}.{kind} ") for dialect in ("memref", "affine") for kind in ("load", "store"))
    if count != accesses:
        raise RuntimeError(f"{what} output has {count} loads and stores, expected {accesses}")


def measure(path: str, accesses: int, mlir_opt: str | None) -> dict[str, Timing]:
    child = [sys.executable, str(Path(__file__).resolve()), "--time-pass", path]
    _, out = _run_timed(child, "pass timing")
    result = json.loads(out.strip().splitlines()[-1])
    if result["accesses"] != accesses:
        raise RuntimeError(f"{path}: {result['accesses']} accesses parsed, expected {accesses}")
    timings = {"pass": Timing(result["cpu"], result["wall"])}
    ours, text = _run_timed(
        [sys.executable, "-m", "heterolayout.tools.opt", path, "-p", "layout-lower"], "layout-opt"
    )
    _check_lowered(text, "layout-opt", accesses)
    timings["layout-opt"] = ours
    if mlir_opt is not None:
        theirs, text = _run_timed([mlir_opt, "--normalize-memrefs", path], "mlir-opt")
        _check_lowered(text, "mlir-opt", accesses)
        timings["mlir-opt"] = theirs
    return timings


def _median(samples: list[Timing]) -> Timing:
    return Timing(statistics.median(s.cpu for s in samples), statistics.median(s.wall for s in samples))


def _find_mlir_opt() -> str | None:
    from tests.mlir_tools import find_mlir_tool

    return find_mlir_tool("mlir-opt")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"sizes {QUICK_SIZES} only")
    parser.add_argument("--sizes", help="comma-separated access counts (multiples of 10)")
    parser.add_argument("--repeat", type=int, default=1, help="interleaved rounds (median)")
    parser.add_argument("--no-mlir-opt", action="store_true", help="skip the upstream column")
    parser.add_argument("--keep", metavar="DIR", help="write the generated modules to DIR")
    parser.add_argument("--time-pass", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.time_pass:
        print(json.dumps(time_pass_in_process(args.time_pass)))
        return 0
    sizes = QUICK_SIZES if args.quick else FULL_SIZES
    if args.sizes:
        sizes = tuple(int(s) for s in args.sizes.split(","))
    mlir_opt = None if args.no_mlir_opt else _find_mlir_opt()
    if mlir_opt is None and not args.no_mlir_opt:
        print("mlir-opt 22 not found: the upstream column is skipped", file=sys.stderr)

    directory = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="lower_scale-"))
    directory.mkdir(parents=True, exist_ok=True)
    paths = {}
    for size in sizes:
        paths[size] = directory / f"tiled_{size}.mlir"
        paths[size].write_text(module_text(size))

    samples: dict[int, dict[str, list[Timing]]] = {size: {} for size in sizes}
    try:
        for _ in range(args.repeat):
            for size in sizes:
                for tool, timing in measure(str(paths[size]), size, mlir_opt).items():
                    samples[size].setdefault(tool, []).append(timing)
    finally:
        if not args.keep:
            shutil.rmtree(directory, ignore_errors=True)

    medians = {size: {tool: _median(s) for tool, s in by_tool.items()} for size, by_tool in samples.items()}
    print(f"# layout-lower scale ({platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, median of {args.repeat})")
    print()
    header = ["accesses", "functions", "pass CPU s", "pass µs/access", "layout-opt CPU s"]
    if mlir_opt:
        header += ["mlir-opt CPU s", "layout-opt/mlir-opt"]
    header += ["pass wall s", "layout-opt wall s"] + (["mlir-opt wall s"] if mlir_opt else [])
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for size in sizes:
        m = medians[size]
        row = [str(size), str(size // ACCESSES_PER_FUNCTION), f"{m['pass'].cpu:.2f}",
               f"{m['pass'].cpu / size * 1e6:.0f}", f"{m['layout-opt'].cpu:.2f}"]
        if mlir_opt:
            row += [f"{m['mlir-opt'].cpu:.2f}", f"{m['layout-opt'].cpu / m['mlir-opt'].cpu:.2f}"]
        row += [f"{m['pass'].wall:.2f}", f"{m['layout-opt'].wall:.2f}"]
        if mlir_opt:
            row.append(f"{m['mlir-opt'].wall:.2f}")
        print("| " + " | ".join(row) + " |")
    if len(sizes) > 1:
        print()
        tools = ["pass", "layout-opt"] + (["mlir-opt"] if mlir_opt else [])
        print("| growth | accesses × | " + " | ".join(f"{t} CPU × / accesses ×" for t in tools) + " |")
        print("|" + " --- |" * (2 + len(tools)))
        for small, large in itertools.pairwise(sizes):
            factor = large / small
            cells = [f"{medians[large][t].cpu / medians[small][t].cpu / factor:.2f}" for t in tools]
            print(f"| {small} → {large} | {factor:.2f} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
