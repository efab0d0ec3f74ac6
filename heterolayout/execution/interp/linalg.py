"""InterpreterFunctions for linalg ops: each runs as its loop nest (`dialects.structured`),
bound to the op classes a module uses (their names are many; the test is the op's). The
compiled engine's code: `compiled.linalg`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.interpreter import (
    _IMPL_OP_TYPE_KEY,  # pyright: ignore[reportPrivateUsage]
    Interpreter,
    InterpreterFunctions,
    OpImplResult,
    PythonValues,
    ReturnedValues,
    register_impls,
)
from xdsl.ir import Operation

from heterolayout.dialects.diagnostics import where
from heterolayout.dialects.structured import Structured, StructureError, is_structured, structured
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.interp.kernels import Cache, compile_map
from heterolayout.execution.runtime import memref as memory


@dataclass
class StructuredFunctions(InterpreterFunctions):
    """linalg ops as their loop nests (see `structured`); `structured_functions` binds them
    to the op classes a module uses."""

    cache: Cache = field(default_factory=Cache)
    indices: list[tuple[int, ...]] = field(default_factory=list)
    """The loop indices of the linalg ops running, innermost last (for linalg.index)."""

    def run_structured(
        self, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        plan, maps = self.cache.get(op, _compiled_plan)
        extents = [memory.shape_of(args[k])[d] for k, d in plan.extents]
        place = where(op)
        region = op.regions[0]
        for point in itertools.product(*(range(e) for e in extents)):
            self.indices.append(point)
            values = [
                memory.load(arg, m(*point), place) if is_memref else arg
                for arg, m, is_memref in zip(args, maps, plan.memrefs, strict=True)
            ]
            results = interpreter.run_ssacfg_region(region, tuple(values), op.name)
            self.indices.pop()
            for number, value in enumerate(results):
                k = plan.inputs + number
                memory.store(args[k], maps[k](*point), value, place)
        return ()

    def run_index(
        self, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        return (self.indices[-1][op.dim.value.data],)  # type: ignore[attr-defined]


def _compiled_plan(op: Operation) -> tuple[Structured, list[Any]]:
    try:
        plan = structured(op)
    except StructureError as error:
        raise ExecutionError(str(error)) from None
    return plan, [compile_map(m, op) for m in plan.maps]


def structured_functions(module: ModuleOp) -> StructuredFunctions:
    """StructuredFunctions registered for the linalg op classes `module` uses."""
    attributes: dict[str, Any] = {}
    classes: dict[type[Operation], Any] = {}
    for op in module.walk():
        if is_structured(op):
            classes[type(op)] = StructuredFunctions.run_structured
        elif isinstance(op, linalg.IndexOp):
            classes[type(op)] = StructuredFunctions.run_index
        elif isinstance(op, linalg.YieldOp):
            classes[type(op)] = None
    for number, (op_type, run) in enumerate(classes.items()):

        def method(
            self: StructuredFunctions,
            interpreter: Interpreter,
            op: Operation,
            args: PythonValues,
            run: Any = run,
        ) -> OpImplResult:
            if run is None:  # linalg.yield ends the body
                return OpImplResult((), ReturnedValues(args))
            return OpImplResult(run(self, interpreter, op, args), None)

        # As in `functions.named_functions`: mark the method the way `impl` does.
        setattr(method, _IMPL_OP_TYPE_KEY, op_type)
        attributes[f"run_{number}"] = method
    cls: type[StructuredFunctions] = register_impls(
        type("ModuleStructuredFunctions", (StructuredFunctions,), attributes)
    )
    return cls()
