"""The interpreter engine: xDSL's Interpreter with heterolayout's InterpreterFunctions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import gpu
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, ReturnedValues
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import InterpretationError

from heterolayout.dialects.names import op_name
from heterolayout.dialects.symbol_index import indexed_symbol_lookups
from heterolayout.execution.entry import find_function, reachable_functions, too_deep
from heterolayout.execution.interp.control_flow import BranchFunctions, ParallelFunctions
from heterolayout.execution.interp.functions import (
    AffineFunctions,
    FuncFunctions,
    MemRefFunctions,
    ScfFunctions,
    ValueFunctions,
    VectorFunctions,
    named_functions,
)
from heterolayout.execution.interp.gpu import GpuFunctions
from heterolayout.execution.interp.linalg import structured_functions
from heterolayout.execution.interp.transfers import TransferFunctions
from heterolayout.execution.interp.views import ViewFunctions
from heterolayout.execution.runtime import memref as memory
from heterolayout.execution.runtime.runner_utils import RunOutput


def all_functions(module: ModuleOp) -> list[InterpreterFunctions]:
    """The InterpreterFunctions of every op the interpreter runs (those found by name or,
    for linalg, by a test of the op, bound to the classes `module` uses)."""
    return [
        ViewFunctions(),
        ParallelFunctions(),
        BranchFunctions(),
        TransferFunctions(),
        structured_functions(module),
        GpuFunctions(),
        ValueFunctions(),
        MemRefFunctions(),
        VectorFunctions(),
        AffineFunctions(),
        ScfFunctions(),
        FuncFunctions(),
        named_functions(module),
    ]


Step = tuple[Any, Any, Any, Any, tuple[int, ...], tuple[int, ...]]
"""(kernel or None, implementation, its InterpreterFunctions, op, operand keys, result keys)."""
BlockPlan = tuple[tuple[int, ...], tuple[Step, ...]]
"""(argument keys, steps)."""


@dataclass
class RegionInterpreter(Interpreter):
    """xDSL's Interpreter with a region loop that does per op only what the op needs.

    xDSL's `run_ssacfg_region` looks up each op's implementation every time the op runs,
    keeps values in a chain of scopes (one per region run, so an operand defined k regions
    out costs k lookups through a Python-level `__hash__`) and checks operand and result
    counts on every op. Here a block is planned once: per op its implementation and the
    keys of its operands and results. Values live in one dict per function call, keyed by
    id (an SSA value is defined once and a region sees its parents' values, so scopes add
    nothing), and an op whose functions offer a `direct` function (value ops, scalar loads
    and stores) calls it without the implementation's wrapping. Errors propagate as the op
    raised them (xDSL's loop appends the whole module to each one). Listeners are not
    supported.
    """

    plans: dict[int, Any] = field(default_factory=dict)
    """Region and block plans by id, shared by the runs of one engine (its functions
    and its module outlive them)."""
    _env: dict[int, Any] = field(default_factory=dict)

    def run_ssacfg_region(
        self, region: Region, args: PythonValues, name: str = "unknown"
    ) -> PythonValues:
        planned = self.plans.get(id(region))
        if planned is None:
            planned = self.plans[id(region)] = self._region_plan(region)
        function_body, arg_keys, steps = planned
        if steps is None:
            return ()
        outer = self._env
        env = self._env = {} if function_body else outer
        try:
            while True:
                for key, value in zip(arg_keys, args, strict=True):
                    env[key] = value
                terminator = None
                for kernel, implementation, functions, op, operands, results in steps:
                    if kernel is not None:
                        value = kernel(*[env[k] for k in operands])
                        if results:
                            env[results[0]] = value
                        continue
                    values, terminator = implementation(
                        functions, self, op, tuple([env[k] for k in operands])
                    )
                    for key, value in zip(results, values, strict=True):
                        env[key] = value
                    if terminator is not None:
                        break
                if terminator is None:
                    return ()
                if isinstance(terminator, ReturnedValues):
                    return terminator.values
                block, args = terminator
                arg_keys, steps = self._block_plan(block)
        finally:
            self._env = outer

    def _region_plan(self, region: Region) -> tuple[bool, tuple[int, ...], tuple[Step, ...] | None]:
        """Whether the region is a function body (its values need a dict of their own), and
        its entry block's plan (steps None for a region without blocks)."""
        block = region.blocks.first
        if block is None:
            return False, (), None
        return (isinstance(region.parent, FuncOp | gpu.FuncOp), *self._block_plan(block))

    def _block_plan(self, block: Block) -> BlockPlan:
        found = self.plans.get(id(block))
        if found is None:
            found = self.plans[id(block)] = (
                tuple(id(a) for a in block.args),
                tuple(self._step(op) for op in block.ops),
            )
        return found

    def _step(self, op: Any) -> Step:
        registered = None
        for op_type in type(op).__mro__:  # heterolayout's upstream ops subclass xDSL's
            registered = self._impls._impl_dict.get(op_type)  # pyright: ignore[reportPrivateUsage]
            if registered is not None:
                break
        if registered is None:
            raise InterpretationError(
                f"Could not find interpretation function for op {op_name(op)}"
            )
        functions, implementation = registered
        direct = getattr(functions, "direct", None)
        kernel = direct(op) if direct is not None else None
        return (
            kernel,
            implementation,
            functions,
            op,
            tuple(id(v) for v in op.operands),
            tuple(id(r) for r in op.results),
        )


class InterpreterEngine:
    """Runs functions of one module op by op; the per-op pieces it compiles and the block
    plans are kept across calls, the state of a run (globals, printing) is not."""

    name = "interp"

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self._functions = all_functions(module)
        self._outputs: dict[str, Any] = {}
        """The result types of each entry function called so far (checked to run)."""
        self._plans: dict[int, Any] = {}

    def call(
        self, entry: str, args: tuple[Any, ...], output: RunOutput | None = None
    ) -> tuple[Any, ...]:
        """Run `entry`; what it prints goes to `output` (default: standard output)."""
        if entry not in self._outputs:
            reachable_functions(self.module, entry)
            self._outputs[entry] = find_function(self.module, entry).function_type.outputs.data
        interpreter = RegionInterpreter(self.module, index_bitwidth=64, plans=self._plans)
        for functions in self._functions:
            interpreter.register_implementations(functions)
        interpreter.set_data(FuncFunctions, "output", output if output is not None else RunOutput())
        interpreter.set_data(MemRefFunctions, "memory", memory.RunMemory(entry, args))
        try:
            with indexed_symbol_lookups():
                results = tuple(interpreter.call_op(entry, args))
        except RecursionError:
            raise too_deep(entry) from None
        memory.check_returned(entry, self._outputs[entry], results)
        return results
