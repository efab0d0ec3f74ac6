"""Benchmark: the hot loops `layout-schedule` gives other CPUs, read off LLVM 22's code for them.

Timing needs the CPU; its code does not. The kernels of benchmarks/schedule.py (the naive
nChw16c convolution and the 512³ matmul), scheduled for a target (`avx2`, `neon`, `avx512`)
in the three modes, are lowered with `layout-lower` and upstream's LLVM pipeline, optimized by
`opt-22 -O3` (the middle end `mlir-runner -O3` runs: it unrolls short loops and merges the
loads their steps share) and compiled by `llc-22` for a CPU of that kind (Haswell, Skylake,
Zen 3; Neoverse N1 and V1, Cortex-A76; Skylake-AVX512, Zen 4). The innermost loop (the
register tile's reduction step, as LLVM unrolled it) is then read, from its header to its
branch back: its instructions, its multiply-adds (FMAs, or multiplies in the exact mode), stack
accesses (a register tile that does not fit spills), and `llvm-mca-22`'s cycles per
iteration on that CPU's scheduling model, as a fraction of the two vector FMA pipes' peak
(`port use`: 1.0 is one FMA per pipe per cycle; Neoverse V1 has four pipes, so 2.0 there).
The model is LLVM's, not a measurement: it ignores caches and is known to be coarse for
some cores (its Neoverse N1 and Cortex-A76 dispatch three instructions a cycle).

    python -m benchmarks.hot_loops [--target avx2|neon|avx512 ...]

Needs `llc-22` and `llvm-mca-22` (Debian: `apt-get install llvm-22`).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))
from benchmarks.schedule import Sizes, kernels  # noqa: E402
from heterolayout.dialects.context import parse_program  # noqa: E402
from heterolayout.passes.pipeline import apply_pipeline  # noqa: E402
from tests.mlir_tools import lower_to_llvm  # noqa: E402

CPUS = {
    "avx2": [
        ("x86_64-linux-gnu", "haswell"),
        ("x86_64-linux-gnu", "skylake"),
        ("x86_64-linux-gnu", "znver3"),
    ],
    "neon": [
        ("aarch64-linux-gnu", "neoverse-n1"),
        ("aarch64-linux-gnu", "neoverse-v1"),
        ("aarch64-linux-gnu", "cortex-a76"),
    ],
    "avx512": [("x86_64-linux-gnu", "skylake-avx512"), ("x86_64-linux-gnu", "znver4")],
}
MODES = {"exact": "", "fma": "fma=true", "reassociate": "fma=true reassociate=true"}
LLVM_BIN = Path("/usr/lib/llvm-22/bin")
ITERATIONS = 200
MULTIPLY_ADD = re.compile(r"^\s*(vfmadd\w+|fmla|vmulps|fmul)\b")
STACK = re.compile(r"Spill|Reload|\(%rsp\)|\[sp")
LABEL = re.compile(r"^[.\w$]+:")


@dataclass(frozen=True)
class HotLoop:
    instructions: list[str]

    @property
    def multiply_adds(self) -> int:
        return sum(1 for line in self.instructions if MULTIPLY_ADD.match(line))

    @property
    def stack_accesses(self) -> int:
        return sum(1 for line in self.instructions if STACK.search(line))


def tool(name: str) -> str | None:
    found = shutil.which(f"{name}-22")
    if found is None and (LLVM_BIN / name).exists():
        found = str(LLVM_BIN / name)
    return found


def llvm_ir(function: str, target: str, options: str) -> str:
    """The kernel scheduled for `target` and lowered to LLVM IR."""
    module = apply_pipeline(
        parse_program(function), f"layout-schedule{{target={target} {options}}},layout-lower"
    )
    llvm = lower_to_llvm(str(module), mlir_opt=tool("mlir-opt"))
    translate = tool("mlir-translate")
    assert translate is not None
    run = subprocess.run(
        [translate, "--mlir-to-llvmir"], input=llvm, capture_output=True, text=True, check=True
    )
    return run.stdout


def assembly(ir: str, triple: str, cpu: str, optimize: bool = True) -> str:
    """The CPU's code for LLVM IR `ir`: `opt -O3` (unless `optimize` is false: `ir` is
    optimized already), then `llc -O3`."""
    llc, opt = tool("llc"), tool("opt")
    assert llc is not None and opt is not None
    target = [f"-mtriple={triple}", f"-mcpu={cpu}"]
    if optimize:
        ir = subprocess.run(
            [opt, "-O3", *target, "-S"], input=ir, capture_output=True, text=True, check=True
        ).stdout
    run = subprocess.run(
        [llc, "-O3", *target, "-o", "-"], input=ir, capture_output=True, text=True, check=True
    )
    return run.stdout


def hot_loop(asm: str) -> HotLoop:
    """The innermost loop: from the label of the deepest `Inner Loop Header` to the branch
    back to it (what follows the branch runs once per loop)."""
    lines = asm.splitlines()
    depths = [
        (int(m.group(1)), i)
        for i, line in enumerate(lines)
        if (m := re.search(r"Inner Loop Header: Depth=(\d+)", line))
    ]
    if not depths:
        return HotLoop([])
    _, start = max(depths)
    header = next(
        (m.group(0)[:-1] for line in reversed(lines[:start]) if (m := LABEL.match(line.strip()))),
        None,
    )
    body = []
    for line in lines[start + 1 :]:
        text = line.strip()
        if not text or text.startswith(("#", "//", ".p2align")) or LABEL.match(text):
            continue
        body.append(line)
        operands = text.split(maxsplit=1)[1:] or [""]
        if header is not None and re.search(rf"(^|[\s,]){re.escape(header)}$", operands[0]):
            break
    return HotLoop(body)


def cycles(loop: HotLoop, triple: str, cpu: str) -> float:
    """llvm-mca's cycles per iteration of the loop on the CPU's model."""
    mca = tool("llvm-mca")
    assert mca is not None
    run = subprocess.run(
        [mca, f"-mtriple={triple}", f"-mcpu={cpu}", f"-iterations={ITERATIONS}"],
        input="\n".join(loop.instructions) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Total Cycles:\s*(\d+)", run.stdout)
    return int(found.group(1)) / ITERATIONS if found else float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", action="append", choices=sorted(CPUS))
    args = parser.parse_args(argv)
    missing = [
        name
        for name in ("opt", "llc", "llvm-mca", "mlir-opt", "mlir-translate")
        if tool(name) is None
    ]
    if missing:
        print(
            f"hot_loops: {', '.join(f'{m}-22' for m in missing)} not found (apt-get install llvm-22 mlir-22-tools)",
            file=sys.stderr,
        )
        return 1
    print(
        "| target | kernel | mode | CPU | instructions | FMAs | stack accesses | cycles/iteration (llvm-mca) | port use |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for target in args.target or ["avx2", "neon", "avx512"]:
        for kernel in kernels(Sizes(), target):
            function = kernel.function("alone", True)
            for mode, options in MODES.items():
                ir = llvm_ir(function, target, options)
                for triple, cpu in CPUS[target]:
                    loop = hot_loop(assembly(ir, triple, cpu))
                    per_iteration = cycles(loop, triple, cpu)
                    use = loop.multiply_adds / per_iteration / 2 if per_iteration else 0.0
                    print(
                        f"| {target} | {kernel.name} | {mode} | {cpu} | {len(loop.instructions)} "
                        f"| {loop.multiply_adds} | {loop.stack_accesses} | {per_iteration:.2f} | {use:.2f} |"
                    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
