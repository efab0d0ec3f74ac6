"""InterpreterFunctions for control flow beyond scf.for/if/while: `scf.parallel` with its
reductions, `cf` branches between blocks and `cf.assert` (affine.parallel runs with the other
affine ops, `functions.AffineFunctions`; the compiled engine's code: `compiled.control_flow`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from xdsl.dialects import cf, scf
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    Successor,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)

from heterolayout.dialects.diagnostics import where
from heterolayout.execution.errors import ExecutionError


@register_impls
@dataclass
class ParallelFunctions(InterpreterFunctions):
    """scf.parallel: the iterations in order, each one's values folded by its scf.reduce
    regions onto the accumulators (upstream's lowering to scf.for does the same)."""

    @impl(scf.ParallelOp)
    def run_parallel(
        self, interpreter: Interpreter, op: scf.ParallelOp, args: PythonValues
    ) -> PythonValues:
        rank = len(op.lowerBound)
        lower, upper, steps = args[:rank], args[rank : 2 * rank], args[2 * rank : 3 * rank]
        if any(s <= 0 for s in steps):
            raise ExecutionError(f"{where(op)}: steps must be positive, got {list(steps)}")
        accumulators = list(args[3 * rank :])
        reduce_op = op.body.block.last_op
        assert isinstance(reduce_op, scf.ReduceOp)
        ranges = [range(lo, up, st) for lo, up, st in zip(lower, upper, steps, strict=True)]
        for point in itertools.product(*ranges):
            values = interpreter.run_ssacfg_region(op.body, point, "scf.parallel")
            for number, (region, value) in enumerate(
                zip(reduce_op.reductions, values, strict=True)
            ):
                (accumulators[number],) = interpreter.run_ssacfg_region(
                    region, (accumulators[number], value), "scf.reduce"
                )
        return tuple(accumulators)

    @impl_terminator(scf.ReduceOp)
    def run_reduce(
        self, interpreter: Interpreter, op: scf.ReduceOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl_terminator(scf.ReduceReturnOp)
    def run_reduce_return(
        self, interpreter: Interpreter, op: scf.ReduceReturnOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()


@register_impls
@dataclass
class BranchFunctions(InterpreterFunctions):
    """cf.br, cf.cond_br (blocks with arguments) and cf.assert."""

    @impl_terminator(cf.BranchOp)
    def run_br(
        self, interpreter: Interpreter, op: cf.BranchOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return Successor(op.successor, args), ()

    @impl_terminator(cf.ConditionalBranchOp)
    def run_cond_br(
        self, interpreter: Interpreter, op: cf.ConditionalBranchOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        then_count = len(op.then_arguments)
        if args[0]:
            return Successor(op.then_block, args[1 : 1 + then_count]), ()
        return Successor(op.else_block, args[1 + then_count :]), ()

    @impl(cf.AssertOp)
    def run_assert(
        self, interpreter: Interpreter, op: cf.AssertOp, args: PythonValues
    ) -> PythonValues:
        if not args[0]:
            raise ExecutionError(f"{where(op)}: assertion failed: {op.msg.data}")
        return ()
