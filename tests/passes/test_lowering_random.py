"""`layout-lower` on random programs, with hypothesis (which shrinks a failing program).

The programs are the differential fuzzer's (`tests/fuzz/programs.py`): random layouts of
every kind on the buffers of `@main`, a kernel and a helper with random bodies (nested
`scf.for` / `affine.for`, `scf.if`, loads and stores through computed and affine indices,
vector accesses, calls, copies, conversions, casts, dynamic shapes, globals), each rendered
with its layouts and without them. Here each example is lowered with one option set of
`layout-lower`, the output is checked (xDSL's verifier, SSA dominance, which xDSL 0.74 does
not check, no layout left) and run on the compiled engine against the plain program's
printed output. `test_fuzz.py` runs seeded cases every way (both engines, every option set,
upstream MLIR); `benchmarks/fuzz.py` is the long run.
"""

from __future__ import annotations

import pytest
from hypothesis import event, given, note, settings
from hypothesis import strategies as st
from xdsl.ir import Block
from xdsl.parser import Parser

from heterolayout.dialects.context import make_context
from tests.fuzz.checks import dominance_violations
from tests.fuzz.choices import DrawnChoices
from tests.fuzz.programs import Program, generate
from tests.fuzz.runner import CaseResult, parsed_program, reference_output, run_option


@st.composite
def programs(draw: st.DrawFn) -> Program:
    return generate(DrawnChoices(draw))


def lowers_correctly(program: Program, option: str) -> None:
    note(f"program:\n{program.text}")
    for feature in sorted(program.features):
        event(feature)
    result = CaseResult(program)
    expected = reference_output(result)
    module = parsed_program(result) if expected is not None else None
    if module is not None and expected is not None:
        run_option(result, module, option, expected, ("compiled",), native=False)
    assert not result.bugs(), "\n".join(
        f"{f.config}: {f.outcome.value}: {f.detail}" for f in result.bugs()
    )


@pytest.mark.slow
@settings(max_examples=60, deadline=None, derandomize=True, report_multiple_bugs=False)
@given(programs())
def test_lowered_random_program_prints_what_the_plain_program_prints(program: Program) -> None:
    lowers_correctly(program, "arith")


@pytest.mark.slow
@pytest.mark.parametrize("option", ["affine", "flat", "affine-flat"])
@settings(max_examples=20, deadline=None, derandomize=True, report_multiple_bugs=False)
@given(program=programs())
def test_lowered_random_program_with_options(option: str, program: Program) -> None:
    lowers_correctly(program, option)


# ---- the checker itself ------------------------------------------------------------------------
SIBLING_USE = """
func.func @main(%x: index, %p: i1) -> index {
  %r = scf.if %p -> (index) {
    %a = arith.addi %x, %x : index
    scf.yield %a : index
  } else {
    scf.yield %x : index
  }
  func.return %r : index
}
"""


def test_dominance_check_finds_uses_not_dominated() -> None:
    module = Parser(make_context(), SIBLING_USE).parse_module()
    assert dominance_violations(module) == []
    addi, then_yield, else_yield = (
        op for op in module.walk() if op.name in ("arith.addi", "scf.yield")
    )
    x = else_yield.operands[0]
    else_yield.operands = [addi.results[0]]  # the else branch yields the then branch's value
    module.verify()  # xDSL 0.74 does not check dominance: hence dominance_violations
    assert len(dominance_violations(module)) == 1
    else_yield.operands = [x]
    assert dominance_violations(module) == []
    addi.detach()
    parent = then_yield.parent_block()
    assert isinstance(parent, Block)
    parent.insert_op_after(addi, then_yield)
    assert len(dominance_violations(module)) == 1  # used before it is defined
