"""The default register tiles fit every target's registers: the scheduled convolution and
matmul of benchmarks/schedule.py, compiled by LLVM 22 (`opt -O3`, `llc`) for an AVX2, a NEON
and an AVX-512 CPU (benchmarks/hot_loops.py), have a hot loop that holds whole steps of the
tile's innermost loop (its multiply-adds counted in the scheduled MLIR, times the steps LLVM
unrolled) and no stack access: a tile that did not fit would spill. Read off the code, on
any host; nothing is timed."""

from __future__ import annotations

import pytest
from xdsl.dialects import affine, arith, vector

from benchmarks.hot_loops import CPUS, MODES, assembly, hot_loop, llvm_ir, tool
from benchmarks.schedule import Sizes, kernels
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from tests.mlir_tools import require

SIZES = Sizes(channels=32, height=12, matrix=64)


def innermost_multiply_adds(function: str, target: str, options: str) -> int:
    module = apply_pipeline(
        parse_program(function), f"layout-schedule{{target={target} {options}}}"
    )
    loops = [op for op in module.walk() if isinstance(op, affine.ForOp)]
    innermost = [
        loop for loop in loops if not any(isinstance(o, affine.ForOp) for o in loop.body.walk())
    ]
    deepest = max(innermost, key=lambda loop: sum(1 for _ in _ancestors(loop)))
    return sum(1 for op in deepest.body.walk() if isinstance(op, vector.FMAOp | arith.MulfOp))


def _ancestors(op):  # type: ignore[no-untyped-def]
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


@pytest.mark.parametrize("mode", ["exact", "fma"])
@pytest.mark.parametrize("kernel", ["conv", "matmul"])
@pytest.mark.parametrize("target", sorted(CPUS))
def test_the_register_tile_fits_the_target(target: str, kernel: str, mode: str) -> None:
    for name in ("opt", "llc", "mlir-translate", "mlir-opt"):
        require(tool(name), f"{name}-22 (apt-get install llvm-22)")
    function = next(k for k in kernels(SIZES, target) if k.name == kernel).function("alone", True)
    expected = innermost_multiply_adds(function, target, MODES[mode])
    assert expected >= 4
    ir = llvm_ir(function, target, MODES[mode])
    triple, cpu = CPUS[target][0]
    loop = hot_loop(assembly(ir, triple, cpu))
    assert loop.multiply_adds and loop.multiply_adds % expected == 0, "\n".join(loop.instructions)
    assert loop.stack_accesses == 0, "\n".join(loop.instructions)
