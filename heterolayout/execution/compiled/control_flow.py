"""The compiled engine's code for control flow beyond loops and ifs: `scf.parallel` and
`affine.parallel` with their reductions, `cf` branches between blocks (a function of several
blocks is a loop over a block number: `Writer.blocks`) and `cf.assert`.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import affine, scf
from xdsl.ir import Operation

from heterolayout.dialects.diagnostics import where
from heterolayout.execution.compiled.writer import Emitter, Terminator, Writer, tuple_text
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.interp.functions import no_assigned_value
from heterolayout.execution.runtime.expressions import ExprContext
from heterolayout.execution.runtime.semantics import (
    affine_results,
    bound_groups,
    parallel_reductions,
    reduction_expression,
    reduction_identity,
)


# ---- scf.parallel ---------------------------------------------------------------------------
def _parallel(w: Writer, op: Operation) -> None:
    assert isinstance(op, scf.ParallelOp)
    rank = len(op.lowerBound)
    names = w.uses(op.operands)
    accumulators = [w.fresh() for _ in op.initVals]
    if accumulators:
        w.line(f"{', '.join(accumulators)}, = {tuple_text(names[3 * rank :])}")
    at = w.bind(where(op))
    for step in names[2 * rank : 3 * rank]:
        w.line(f"if {step} <= 0: raise _step_error({at}, {step})")
    ivs = [w.fresh("i") for _ in range(rank)]
    for number, iv in enumerate(ivs):
        w.line(
            f"{'    ' * number}for {iv} in range({names[number]}, {names[rank + number]}, {names[2 * rank + number]}):"
        )
    body = op.body.block
    for arg, iv in zip(body.args, ivs, strict=True):
        w.define(arg, iv)
    w.depth += rank
    w.line("if True:")
    w.indented(lambda: w.block(body, _reduce_into(w, accumulators)))
    w.depth -= rank
    for result, name in zip(op.results, accumulators, strict=True):
        w.define(result, name)


# ---- affine.parallel ------------------------------------------------------------------------
def _affine_parallel(w: Writer, op: Operation) -> None:
    """Loops over the iterations in order; each affine.yield folds its values onto the
    results by their reductions (`semantics.reduction_expression`)."""
    assert isinstance(op, affine.ParallelOp)
    names = w.uses(op.operands)
    context = ExprContext(w.bind, where(op))
    lower_map, upper_map = op.lowerBoundsMap.data, op.upperBoundsMap.data
    count = lower_map.num_dims + lower_map.num_symbols
    lower_groups, upper_groups = bound_groups(op)
    lows = _grouped(affine_results(lower_map, names[:count], context), lower_groups, "max")
    highs = _grouped(affine_results(upper_map, names[count:], context), upper_groups, "min")
    steps = [s.value.data for s in op.steps]
    if any(step <= 0 for step in steps):
        raise ExecutionError(f"{where(op)}: steps must be positive, got {steps}")
    reductions = parallel_reductions(op)
    unset = w.bind(_UNSET)
    accumulators = [w.fresh() for _ in reductions]
    for accumulator, (kind, element) in zip(accumulators, reductions, strict=True):
        identity = reduction_identity(kind, element)
        w.line(f"{accumulator} = {unset if identity is None else w.bind(identity)}")
    ivs = [w.fresh("i") for _ in steps]
    for number, (iv, low, high, step) in enumerate(zip(ivs, lows, highs, steps, strict=True)):
        w.line(f"{'    ' * number}for {iv} in range({low}, {high}, {step}):")
    body = op.body.block
    for arg, iv in zip(body.args, ivs, strict=True):
        w.define(arg, iv)

    def fold(terminator: Operation, values: list[str]) -> None:
        for accumulator, (kind, element), value in zip(
            accumulators, reductions, values, strict=True
        ):
            w.line(f"{accumulator} = {reduction_expression(kind, accumulator, value, element)}")

    w.depth += len(ivs)
    w.line("if True:")
    w.indented(lambda: w.block(body, fold))
    w.depth -= len(ivs)
    message = w.bind(no_assigned_value(op))
    for accumulator, (kind, _) in zip(accumulators, reductions, strict=True):
        if kind == "assign":
            w.line(f"if {accumulator} is {unset}: raise {message}")
    for result, accumulator in zip(op.results, accumulators, strict=True):
        w.define(result, accumulator)


_UNSET = object()
"""An "assign" result no iteration has yielded yet."""


def _grouped(bounds: list[str], groups: list[int], pick: str) -> list[str]:
    """Each loop's bound: the max (or min) of its group of the map's results."""
    grouped, start = [], 0
    for size in groups:
        group = bounds[start : start + size]
        grouped.append(group[0] if size == 1 else f"{pick}({', '.join(group)})")
        start += size
    return grouped


def _reduce_into(w: Writer, accumulators: list[str]) -> Terminator:
    """scf.reduce: each region combines its accumulator with the iteration's value."""

    def terminator(op: Operation, values: list[str]) -> None:
        for region, accumulator, value in zip(op.regions, accumulators, values, strict=True):
            w.line("if True:")
            w.region(region, [accumulator, value], w.assign_to([accumulator]))

    return terminator


# ---- cf ------------------------------------------------------------------------------------
def _br(w: Writer, op: Operation) -> None:
    w.jump(op.successors[0], w.uses(op.operands))


def _cond_br(w: Writer, op: Operation) -> None:
    condition, *rest = w.uses(op.operands)
    then_count = len(op.then_arguments)  # type: ignore[attr-defined]
    w.line(f"if {condition}:")
    w.indented(lambda: w.jump(op.successors[0], rest[:then_count]))
    w.line("else:")
    w.indented(lambda: w.jump(op.successors[1], rest[then_count:]))


def _assert(w: Writer, op: Operation) -> None:
    message = w.bind(f"{where(op)}: assertion failed: {op.msg.data}")  # type: ignore[attr-defined]
    w.line(f"if not {w.use(op.operands[0])}: raise _execution_error({message})")


def _execution_error(message: str) -> ExecutionError:
    return ExecutionError(message)


EMITTERS: dict[str, Emitter] = {
    "scf.parallel": _parallel,
    "affine.parallel": _affine_parallel,
    "cf.br": _br,
    "cf.cond_br": _cond_br,
    "cf.assert": _assert,
}

HELPERS: dict[str, Any] = {"_execution_error": _execution_error}
