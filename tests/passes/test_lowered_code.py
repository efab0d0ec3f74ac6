"""The code `layout-lower` emits is already clean: xDSL's own CSE and canonicalize find nothing
left to merge or fold in it, and the dead code of rewritten accesses is gone.

`layout-lower` shares index values between accesses as it emits them and erases dead code
from the ops it touched, instead of running CSE and canonicalize over the whole module; the
module-wide passes are the independent formulation checked against here.
"""

from __future__ import annotations

import collections
import gc
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.utils.exceptions import PassFailedException

from heterolayout.passes.index.layout_simplify_index import erase_dead_index_code, erase_dead_ops
from heterolayout.passes.lower.layout_lower import LayoutLowerPass
from heterolayout.tools.opt import LayoutOptMain
from tests.paths import REPOSITORY

ROOT = REPOSITORY
INPUTS = sorted(
    [
        *(
            p
            for p in (ROOT / "tests/filecheck/passes").rglob("*.mlir")
            if "not layout-opt" not in p.read_text()
        ),
        *(ROOT / "examples").glob("*.mlir"),
    ]
)
OPTIONS = ({}, {"index": "affine"}, {"flatten": True})


def _context() -> Context:
    return LayoutOptMain(args=["-"]).ctx


def _ops_per_function(module: ModuleOp) -> dict[str, collections.Counter[str]]:
    return {
        f.sym_name.data: collections.Counter(op.name for op in f.walk())
        for f in module.walk()
        if isinstance(f, func.FuncOp)
    }


def _lowered(text: str, name: str, options: dict[str, object]) -> tuple[Context, ModuleOp] | None:
    ctx = _context()
    module = Parser(ctx, text, name).parse_module()
    try:
        LayoutLowerPass(**options).apply(ctx, module)  # type: ignore[arg-type]
    except PassFailedException:  # inputs made for one option only (e.g. dynamic shapes and flatten)
        return None
    return ctx, module


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_left_for_cse_and_canonicalize(path: Path) -> None:
    lowered_any = False
    for chunk_number, chunk in enumerate(path.read_text().split("// -----")):
        for options in OPTIONS:
            result = _lowered(chunk, f"{path.name}#{chunk_number}", options)
            if result is None:
                continue
            lowered_any = True
            ctx, module = result
            ours = _ops_per_function(module)
            CommonSubexpressionElimination().apply(ctx, module)
            CanonicalizePass().apply(ctx, module)
            erase_dead_index_code(module)
            cleaned = _ops_per_function(module)
            assert ours == cleaned, f"{path.name} chunk {chunk_number} {options}"
    assert lowered_any, f"{path} did not lower with any option"


SHARED = """
func.func @shared(%m: memref<64xf32, #layout.tag<"W->W8w">>, %n: index) -> f32 {
  %a = memref.load %m[%n] : memref<64xf32, #layout.tag<"W->W8w">>
  %r = scf.for %i = %n to %n step %n iter_args(%acc = %a) -> (f32) {
    %b = memref.load %m[%n] : memref<64xf32, #layout.tag<"W->W8w">>
    %c = memref.load %m[%i] : memref<64xf32, #layout.tag<"W->W8w">>
    %s = arith.addf %b, %c : f32
    scf.yield %s : f32
  }
  func.return %r : f32
}
"""


def test_values_of_an_enclosing_block_are_reused_inside_a_loop() -> None:
    """`n floordiv 8` and `n mod 8`, emitted for the load before the loop, serve the same
    load in the loop body too (only `i` gets new ones), and the constant 8 is emitted once,
    at the top of the function."""
    ctx = _context()
    module = Parser(ctx, SHARED, "shared").parse_module()
    LayoutLowerPass().apply(ctx, module)
    (function,) = (op for op in module.walk() if isinstance(op, func.FuncOp))
    ops = collections.Counter(op.name for op in function.walk())
    assert ops["arith.divui"] == 2  # n floordiv 8, i floordiv 8
    assert ops["arith.remui"] == 2
    first = function.body.blocks[0].first_op
    assert isinstance(first, arith.ConstantOp) and first.value.value.data == 8  # type: ignore[attr-defined]
    assert ops["arith.constant"] == 1
    assert ops["memref.load"] == 3


DEAD = """
func.func @dead(%m: memref<16xf32>, %i: index) -> f32 {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %j = arith.addi %i, %c3 : index
  %k = arith.divui %j, %c4 : index
  %l = arith.divui %j, %i : index
  %x = memref.load %m[%k] : memref<16xf32>
  memref.store %x, %m[%l] : memref<16xf32>
  func.return %x : f32
}
"""


def test_erase_dead_ops_follows_operands_and_keeps_what_may_trap() -> None:
    ctx = _context()
    module = Parser(ctx, DEAD, "dead").parse_module()
    (function,) = (op for op in module.walk() if isinstance(op, func.FuncOp))
    ops = list(function.walk())
    load = next(op for op in ops if op.name == "memref.load")
    store = next(op for op in ops if op.name == "memref.store")
    returned = next(op for op in ops if op.name == "func.return")
    returned.operands = []
    store.detach()
    store.erase()
    erase_dead_ops([load])
    remaining = [op.name for op in function.walk()]
    # The load and its index code die; the division by %i (which may be zero) stays, and
    # with it %j and %c3 that it uses.
    assert remaining == [
        "func.func",
        "arith.constant",
        "arith.addi",
        "arith.divui",
        "func.return",
    ]


@pytest.mark.parametrize("enabled", [True, False])
def test_the_pass_leaves_the_garbage_collector_as_it_found_it(enabled: bool) -> None:
    """The collector is paused while the pass builds IR (see passes/collector.py), also when
    the pass fails, and is back in its previous state afterwards."""
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        ctx = _context()
        module = Parser(ctx, SHARED, "shared").parse_module()
        LayoutLowerPass().apply(ctx, module)
        assert gc.isenabled() is enabled
        declaration = Parser(
            ctx, 'func.func private @ext(memref<16xf32, #layout.tag<"W->W4w">>)', "ext"
        ).parse_module()
        with pytest.raises(PassFailedException, match="external function @ext"):
            LayoutLowerPass().apply(ctx, declaration)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()
