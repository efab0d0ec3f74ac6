"""Benchmark: how long `layout-opt` takes on a small program, next to the xDSL floor and `mlir-opt`.

Four commands run alternately in fresh processes on examples/conv2d_nchw16c.mlir:

- `layout-opt FILE`: parse, verify and print (the layout verification walk included);
- `layout-opt FILE -p layout-lower`: the same with the lowering;
- the xDSL floor any xDSL-based tool starts from: a Python script that only parses,
  verifies and prints the same program with xDSL and the dialects it uses (builtin, func,
  arith, affine, memref, scf), the input's layout written as a builtin `affine_map`;
- `mlir-opt-22 --normalize-memrefs` on that builtin-map program.

On a file this small the time is start-up: the Python interpreter, the imports, parsing and
printing. The ratios of the medians are what count: layout-opt / floor (issue 29: at most
1.3×) and layout-opt / mlir-opt (DESIGN: at most 5×); both wall and CPU (user + system)
seconds are shown. Every Python command reads compiled bytecode (a private
`PYTHONPYCACHEPREFIX`, filled by one untimed run of each command first), as an installed
tool does, whatever `PYTHONDONTWRITEBYTECODE` says.

    python -m benchmarks.startup [--repeat N]
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
    from heterolayout import parse_layout
    from heterolayout.layout.expressions import format_map

    layout = parse_layout("NCHW->nChw16c", (1, 16, 14, 14))
    typed = f"memref<1x16x14x14xf32, {format_map(layout.index_map)}>"
    lines = [line for line in text.splitlines() if "layout.assign" not in line]
    body = "\n".join(lines).replace(f"%input: {INPUT_TYPE}", f"%input: {typed}")
    return body.replace(
        f"%input[0, %c, %oh + %kh, %ow + %kw] : {INPUT_TYPE}",
        f"%input[0, %c, %oh + %kh, %ow + %kw] : {typed}",
    )


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


def timed(command: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of `command`, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True, check=False, env=environment)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{run.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def with_bytecode_cache(directory: str) -> dict[str, str]:
    """The environment with compiled bytecode written to and read from `directory`."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPYCACHEPREFIX"] = directory
    return environment


LAYOUT_OPT = "layout-opt"
LOWER = "layout-opt -p layout-lower"
MLIR_OPT = "mlir-opt-22 --normalize-memrefs"
FLOOR_NAME = "xDSL floor (parse, verify, print)"
RATIOS = ((LAYOUT_OPT, FLOOR_NAME), (LOWER, FLOOR_NAME), (LOWER, MLIR_OPT), (FLOOR_NAME, MLIR_OPT))
"""(numerator, denominator) of each ratio row; the floor's goal is issue 29's 1.3×."""


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
        environment = with_bytecode_cache(str(Path(directory) / "pycache"))
        commands = {
            LAYOUT_OPT: [*layout_opt_command(), str(EXAMPLE)],
            LOWER: [*layout_opt_command(), str(EXAMPLE), "-p", "layout-lower"],
            MLIR_OPT: [mlir_opt, "--normalize-memrefs", str(builtin)],
            FLOOR_NAME: [sys.executable, "-c", FLOOR, str(builtin)],
        }
        for command in commands.values():  # untimed: fills the bytecode cache
            timed(command, environment)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(max(args.repeat, 1)):
            for name, command in commands.items():  # alternately, so load hits all alike
                times[name].append(timed(command, environment))
    print(f"# start-up: {EXAMPLE.relative_to(REPOSITORY)}, {args.repeat} runs each, alternating")
    print(
        f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}"
    )
    print("| command | wall s (median) | CPU s (median) |")
    print("| --- | --- | --- |")
    medians = {}
    for name, samples in times.items():
        wall = statistics.median(s[0] for s in samples)
        cpu = statistics.median(s[1] for s in samples)
        medians[name] = (wall, cpu)
        print(f"| {name} | {wall:.3f} | {cpu:.3f} |")
    for numerator, denominator in RATIOS:
        (wall, cpu), (base_wall, base_cpu) = medians[numerator], medians[denominator]
        row = "xDSL floor" if numerator == FLOOR_NAME else numerator
        below = "xDSL floor" if denominator == FLOOR_NAME else "mlir-opt"
        print(
            f"| ratio {row} / {below} | {wall / base_wall:.2f} | {cpu / max(base_cpu, 1e-6):.2f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
