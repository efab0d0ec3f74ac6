"""Benchmark: how long `layout-opt` takes on a small program, next to `mlir-opt`.

`layout-opt examples/conv2d_nchw16c.mlir -p layout-lower` against
`mlir-opt-22 --normalize-memrefs` on the same program written with a builtin `affine_map`
layout (the nChw16c map on the input argument instead of the `layout.assign`), run
alternately in fresh processes. On a file this small the time is start-up: the Python
interpreter, the imports, parsing and printing. The ratio of the medians is what counts
(DESIGN: at most 5×); both wall and CPU (user + system) seconds are shown.

A third command is the floor any xDSL-based tool starts from: a Python script that only
parses, verifies and prints the same program with xDSL and the dialects it uses (builtin,
func, arith, affine, memref, scf). Its ratio to mlir-opt says how much of ours is xDSL's.

    python benchmarks/startup.py [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
EXAMPLE = REPOSITORY / "examples" / "conv2d_nchw16c.mlir"
INPUT_TYPE = "memref<1x16x14x14xf32>"


def builtin_version(text: str) -> str:
    """The example with the input's layout as a builtin affine_map in its type."""
    sys.path.insert(0, str(REPOSITORY))
    from heterolayout import parse_layout
    from heterolayout.layout.expressions import format_map

    layout = parse_layout("NCHW->nChw16c", (1, 16, 14, 14))
    typed = f"memref<1x16x14x14xf32, {format_map(layout.index_map)}>"
    lines = [line for line in text.splitlines() if "layout.assign" not in line]
    body = "\n".join(lines).replace(f"%input: {INPUT_TYPE}", f"%input: {typed}")
    return body.replace(f"%input[0, %c, %oh + %kh, %ow + %kw] : {INPUT_TYPE}", f"%input[0, %c, %oh + %kh, %ow + %kw] : {typed}")


FLOOR = """
import sys
from xdsl.context import Context
from xdsl.dialects import affine, arith, builtin, func, memref, scf
from xdsl.parser import Parser
from xdsl.printer import Printer

ctx = Context()
for dialect in (builtin.Builtin, func.Func, arith.Arith, affine.Affine, memref.MemRef, scf.Scf):
    ctx.load_dialect(dialect)
with open(sys.argv[1]) as stream:
    module = Parser(ctx, stream.read(), sys.argv[1]).parse_module()
module.verify()
Printer().print_op(module)
"""


def find_mlir_opt() -> str | None:
    for candidate in ("mlir-opt-22", "/usr/lib/llvm-22/bin/mlir-opt"):
        found = shutil.which(candidate)
        if found:
            return found
    return None


def layout_opt_command() -> list[str]:
    script = Path(sys.executable).parent / "layout-opt"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "heterolayout.tools.opt"]


def timed(command: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of `command`, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{run.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="runs of each (default 15)")
    args = parser.parse_args(argv)
    mlir_opt = find_mlir_opt()
    if mlir_opt is None:
        print("mlir-opt-22 not found (apt-get install -y mlir-22-tools)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as directory:
        builtin = Path(directory) / "conv2d_builtin_map.mlir"
        builtin.write_text(builtin_version(EXAMPLE.read_text()))
        commands = {
            "layout-opt -p layout-lower": [*layout_opt_command(), str(EXAMPLE), "-p", "layout-lower"],
            "mlir-opt-22 --normalize-memrefs": [mlir_opt, "--normalize-memrefs", str(builtin)],
            "xDSL floor (parse, verify, print)": [sys.executable, "-c", FLOOR, str(builtin)],
        }
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(max(args.repeat, 1)):
            for name, command in commands.items():  # alternately, so load hits both alike
                times[name].append(timed(command))
    print(f"# start-up: {EXAMPLE.relative_to(REPOSITORY)}, {args.repeat} runs each, alternating")
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}")
    print("| command | wall s (median) | CPU s (median) |")
    print("| --- | --- | --- |")
    medians = {}
    for name, samples in times.items():
        wall = statistics.median(s[0] for s in samples)
        cpu = statistics.median(s[1] for s in samples)
        medians[name] = (wall, cpu)
        print(f"| {name} | {wall:.3f} | {cpu:.3f} |")
    (name, ours), (_, theirs), (_, floor) = medians.items()
    for row, (wall, cpu) in ((name, ours), ("xDSL floor", floor)):
        print(f"| ratio {row} / mlir-opt | {wall / theirs[0]:.2f} | {cpu / max(theirs[1], 1e-6):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
