"""The compiled engine: each function becomes Python source once, with no per-op dispatch.

Every op is a line of Python: value ops paste their `semantics` expression, plain memref
accesses become a bounds check and a numpy access, layout-aware memrefs and the rarer ops
call the same `memref` helpers as the interpreter. scf/affine loops and ifs become Python
loops and ifs; a loop's iteration values are the variables of its block arguments. An op
neither engine supports is reported when the function is compiled. `writer` writes the source;
the code of views, transfers, control flow beyond loops and ifs, linalg and GPU ops is in the
modules of those names, gathered here (`EMITTERS`, `HELPERS`).

A store the code inlines into a deallocated (read-only) buffer fails in numpy; `call` turns
that failure into the engine's diagnostic by the line of generated code it happened on, so
live stores pay nothing for the check. Inlined loads of a freed buffer read its poison.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import TracebackType
from typing import Any

from xdsl.dialects import affine, memref, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import CallOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.traits import SymbolTable

from heterolayout.dialects.diagnostics import where
from heterolayout.dialects.functions import Function, function_key
from heterolayout.dialects.names import op_name
from heterolayout.dialects.symbol_index import indexed_symbol_lookups
from heterolayout.dialects.upstream.affine_index import delinearize, linearize
from heterolayout.execution.compiled import control_flow, gpu, linalg, transfers, views
from heterolayout.execution.compiled.writer import (
    Emitter,
    Writer,
    mixed_text,
    tuple_text,
)
from heterolayout.execution.entry import find_function, reachable_functions, too_deep
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime import memref as memory
from heterolayout.execution.runtime.expressions import ExprContext
from heterolayout.execution.runtime.runner_utils import PrintPlan, RunOutput
from heterolayout.execution.runtime.semantics import RUNTIME, affine_condition, affine_results
from heterolayout.execution.runtime.values import element_of, vector_shape


class RunState:
    """What one call of the entry function shares across functions: its memory (globals,
    dealloc bookkeeping) and where printing goes."""

    __slots__ = ("gpu", "memory", "output")

    def __init__(self, output: RunOutput, run_memory: memory.RunMemory) -> None:
        self.memory = run_memory
        self.output = output
        self.gpu: tuple[int, ...] = (0,) * 12
        """The place in the launch grid of the GPU thread running (`execution.interp.gpu`)."""

    def global_buffer(self, name: str, info: memory.MemRefInfo, initial: Any) -> memory.MemRef:
        return self.memory.global_buffer(name, info, initial)


def _step_error(where: str, step: int) -> ExecutionError:
    return ExecutionError(f"{where}: the step must be positive, got {step}")


_CORE_HELPERS: dict[str, Any] = {
    **RUNTIME,
    "_oob": memory.out_of_bounds,
    "_load": memory.load,
    "_store": memory.store,
    "_vload": memory.vector_load,
    "_vstore": memory.vector_store,
    "_alloc": memory.allocate,
    "_copy": memory.copy,
    "_dim": memory.dim,
    "_cast": memory.cast,
    "_rank": memory.rank,
    "_address": memory.address,
    "_step_error": _step_error,
    "_delinearize": delinearize,
    "_linearize": linearize,
}


# ---- emitters of memory and control ops ---------------------------------------------------------
def _alloc(w: Writer, op: Operation) -> None:
    info = memory.memref_info(op.results[0].type)
    sizes = w.uses(op.dynamic_sizes)  # type: ignore[attr-defined]
    allocation = (
        f"_alloc({w.bind(info)}, ({''.join(s + ', ' for s in sizes)}), {w.bind(where(op))})"
    )
    if isinstance(op, memref.AllocaOp):  # remembered, so that freeing it is an error
        allocation = f"S.memory.alloca({allocation})"
    w.line(f"{w.define(op.results[0])} = {allocation}")


def _dealloc(w: Writer, op: Operation) -> None:
    w.line(f"S.memory.dealloc({w.use(op.operands[0])}, {w.bind(where(op))})")


def _nothing(w: Writer, op: Operation) -> None:
    """layout.assign: a layout never changes what a buffer holds; layout.schedule: a hint."""


def _memref_load(w: Writer, op: Operation) -> None:
    w.load(op, op.operands[0], w.uses(op.operands[1:]))


def _memref_store(w: Writer, op: Operation) -> None:
    w.store(op, op.operands[0], op.operands[1], w.uses(op.operands[2:]))


def _affine_load(w: Writer, op: Operation) -> None:
    w.load(op, op.operands[0], w.indices(op, _access_map(op), op.operands[1:]))


def _affine_store(w: Writer, op: Operation) -> None:
    w.store(op, op.operands[0], op.operands[1], w.indices(op, _access_map(op), op.operands[2:]))


def _vector_load(w: Writer, op: Operation, index: list[str]) -> None:
    result_type = op.results[0].type
    lanes, dtype = vector_shape(result_type), w.bind(element_of(result_type).numpy_dtype)
    w.line(
        f"{w.define(op.results[0])} = _vload({w.use(op.operands[0])}, ({''.join(i + ', ' for i in index)}), "
        f"{lanes}, {dtype}, {w.bind(where(op))})"
    )


def _vector_store(w: Writer, op: Operation, index: list[str]) -> None:
    vector, target = w.use(op.operands[0]), w.use(op.operands[1])
    w.line(
        f"_vstore({vector}, {target}, ({''.join(i + ', ' for i in index)}), {w.bind(where(op))})"
    )


def _dim(w: Writer, op: Operation) -> None:
    source, index = w.uses(op.operands)
    w.line(f"{w.define(op.results[0])} = _dim({source}, {index}, {w.bind(where(op))})")


def _rank(w: Writer, op: Operation) -> None:
    w.line(f"{w.define(op.results[0])} = _rank({w.use(op.operands[0])}, {w.bind(where(op))})")


def _address(w: Writer, op: Operation) -> None:
    w.line(f"{w.define(op.results[0])} = _address({w.use(op.operands[0])}, {w.bind(where(op))})")


def _copy(w: Writer, op: Operation) -> None:
    source, target = w.uses(op.operands)
    w.line(f"_copy({source}, {target}, {w.bind(where(op))})")


def _cast(w: Writer, op: Operation) -> None:
    info = memory.cast_target(op.results[0].type)
    w.line(
        f"{w.define(op.results[0])} = _cast({w.use(op.operands[0])}, {w.bind(info)}, {w.bind(where(op))})"
    )


def _get_global(w: Writer, op: Operation) -> None:
    assert isinstance(op, memref.GetGlobalOp)
    name = op.name_.root_reference.data
    declaration = SymbolTable.lookup_symbol(op, op.name_)
    if not isinstance(declaration, memref.GlobalOp):
        raise ExecutionError(f"{where(op)}: no memref.global @{name}")
    initial = (
        declaration.initial_value if hasattr(declaration.initial_value, "get_values") else None
    )
    info = memory.memref_info(declaration.type)
    w.line(
        f"{w.define(op.results[0])} = S.global_buffer({name!r}, {w.bind(info)}, {w.bind(initial)})"
    )


def _call(w: Writer, op: Operation) -> None:
    assert isinstance(op, CallOp)
    name = op.callee.root_reference.data
    results = [w.define(r) for r in op.results]
    if name in w.function_names:
        call = f"{w.function_names[name]}({', '.join(['S', *w.uses(op.operands)])})"
    else:  # an external function: `reachable_functions` checked it is a runner-utils one
        call = f"S.output.call({name!r}, ({''.join(a + ', ' for a in w.uses(op.operands))}))"
    w.line(f"{', '.join(results)}, = {call}" if results else call)


def _vector_print(w: Writer, op: Operation) -> None:
    plan = w.bind(PrintPlan.of(op))
    w.line(f"S.output.print_op(({''.join(v + ', ' for v in w.uses(op.operands))}), {plan})")


def _scf_for(w: Writer, op: Operation) -> None:
    assert isinstance(op, scf.ForOp)
    lower, upper, step, *inits = w.uses(op.operands)
    if not _positive_literal(step):
        w.line(f"if {step} <= 0: raise _step_error({w.bind(where(op))}, {step})")
    _loop(w, op, f"range({lower}, {upper}, {step})", inits)


def _positive_literal(expression: str) -> bool:
    try:
        return int(expression.strip("()")) > 0
    except ValueError:
        return False


def _loop(w: Writer, op: Operation, iteration: str, inits: list[str]) -> None:
    """A for loop whose iteration values live in its block arguments' variables, which the
    op's results then name."""
    body = op.regions[0].blocks.first
    assert body is not None
    induction = w.fresh("i")
    carried = [w.fresh() for _ in body.args[1:]]
    if carried:
        w.line(f"{', '.join(carried)}, = {''.join(i + ', ' for i in inits)}")
    w.line(f"for {induction} in {iteration}:")
    w.region(op.regions[0], [induction, *carried], w.assign_to(carried))
    for result, name in zip(op.results, carried, strict=True):
        w.define(result, name)


def _affine_for(w: Writer, op: Operation) -> None:
    assert isinstance(op, affine.ForOp)
    operands = w.uses(op.operands)
    lower_count, upper_count = len(op.lowerBoundOperands), len(op.upperBoundOperands)
    context = ExprContext(w.bind, where(op))
    lower = affine_results(op.lowerBoundMap.data, operands[:lower_count], context)
    upper = affine_results(
        op.upperBoundMap.data, operands[lower_count : lower_count + upper_count], context
    )
    bounds = (
        lower[0] if len(lower) == 1 else f"max({', '.join(lower)})",
        upper[0] if len(upper) == 1 else f"min({', '.join(upper)})",
    )
    _loop(
        w,
        op,
        f"range({bounds[0]}, {bounds[1]}, {op.step.value.data})",
        operands[lower_count + upper_count :],
    )


def _if(w: Writer, op: Operation, condition: str) -> None:
    results = [w.define(r) for r in op.results]
    then_region, else_region = op.regions
    w.line(f"if {condition}:")
    w.region(then_region, [], w.assign_to(results))
    if else_region.blocks:
        w.line("else:")
        w.region(else_region, [], w.assign_to(results))


def _scf_if(w: Writer, op: Operation) -> None:
    _if(w, op, w.use(op.operands[0]))


def _access_map(op: Operation) -> AffineMap:
    """The access map of an affine load or store (scalar or vector)."""
    assert isinstance(
        op, (affine.LoadOp, affine.StoreOp, affine.VectorLoadOp, affine.VectorStoreOp)
    )
    return op.map.data


def _affine_if(w: Writer, op: Operation) -> None:
    assert isinstance(op, affine.IfOp)
    condition = affine_condition(
        op.condition.data, w.uses(op.operands), ExprContext(w.bind, where(op))
    )
    _if(w, op, condition)


def _scf_while(w: Writer, op: Operation) -> None:
    assert isinstance(op, scf.WhileOp)
    before, after = op.before_region.blocks.first, op.after_region.blocks.first
    assert before is not None and after is not None
    before_args = [w.fresh() for _ in before.args]
    after_args = [w.fresh() for _ in after.args]
    results = [w.define(r) for r in op.results]
    if before_args:
        w.line(f"{', '.join(before_args)}, = {''.join(i + ', ' for i in w.uses(op.operands))}")
    w.line("while True:")

    def condition(terminator: Operation, values: list[str]) -> None:
        test, *forwarded = values
        w.line(f"if not {test}:")
        w.depth += 1
        if results:
            w.line(f"{', '.join(results)}, = {''.join(f + ', ' for f in forwarded)}")
        w.line("break")
        w.depth -= 1
        if after_args:
            w.line(f"{', '.join(after_args)}, = {''.join(f + ', ' for f in forwarded)}")
        for arg, name in zip(after.args, after_args, strict=True):
            w.define(arg, name)
        w.block(after, w.assign_to(before_args))

    w.region(op.before_region, before_args, condition)


def _delinearize(w: Writer, op: Operation) -> None:
    index, *dynamic = w.uses(op.operands)
    basis = mixed_text(op.static_basis, dynamic)  # type: ignore[attr-defined]
    results = [w.define(r) for r in op.results]
    w.line(f"{', '.join(results)}, = _delinearize({index}, {basis}, {len(results)})")


def _linearize(w: Writer, op: Operation) -> None:
    names = w.uses(op.operands)
    count = len(op.multi_index)  # type: ignore[attr-defined]
    basis = mixed_text(op.static_basis, names[count:])  # type: ignore[attr-defined]
    w.line(f"{w.define(op.results[0])} = _linearize({tuple_text(names[:count])}, {basis})")


def _hint(w: Writer, op: Operation) -> None:
    """memref.prefetch and affine.prefetch: hints that change no value."""


_CORE_EMITTERS: dict[str, Emitter] = {
    "memref.alloc": _alloc,
    "memref.alloca": _alloc,
    "memref.dealloc": _dealloc,
    "memref.load": _memref_load,
    "memref.store": _memref_store,
    "memref.dim": _dim,
    "memref.rank": _rank,
    "memref.extract_aligned_pointer_as_index": _address,
    "memref.copy": _copy,
    "memref.cast": _cast,
    "memref.get_global": _get_global,
    "vector.load": lambda w, op: _vector_load(w, op, w.uses(op.operands[1:])),
    "vector.store": lambda w, op: _vector_store(w, op, w.uses(op.operands[2:])),
    "vector.print": _vector_print,
    "affine.load": _affine_load,
    "affine.store": _affine_store,
    "affine.vector_load": lambda w, op: _vector_load(
        w, op, w.indices(op, _access_map(op), op.operands[1:])
    ),
    "affine.vector_store": lambda w, op: _vector_store(
        w, op, w.indices(op, _access_map(op), op.operands[2:])
    ),
    "affine.for": _affine_for,
    "affine.if": _affine_if,
    "scf.for": _scf_for,
    "scf.if": _scf_if,
    "scf.while": _scf_while,
    "func.call": _call,
    "layout.assign": _nothing,
    "layout.schedule": _nothing,
    "layout.convert": _copy,
    "memref.prefetch": _hint,
    "affine.prefetch": _hint,
    "affine.delinearize_index": _delinearize,
    "affine.linearize_index": _linearize,
}

EMITTERS: dict[str, Emitter] = {
    **_CORE_EMITTERS,
    **views.EMITTERS,
    **transfers.EMITTERS,
    **control_flow.EMITTERS,
    **linalg.EMITTERS,
    **gpu.EMITTERS,
}
"""Ops with their own code, by name (linalg's structured ops by a test of the op:
`linalg.emitter_for`); terminators (yield, condition, return) are written by the op that owns
their region."""

HELPERS: dict[str, Any] = {
    **_CORE_HELPERS,
    **views.HELPERS,
    **transfers.HELPERS,
    **control_flow.HELPERS,
    **gpu.HELPERS,
}
"""What the generated code calls, by the names it uses."""


def emitter_of(op: Operation) -> Emitter | None:
    return EMITTERS.get(op_name(op)) or linalg.emitter_for(op)


class CompiledEngine:
    """Compiles each function of a module the first time a call reaches it."""

    name = "compiled"

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self._functions: dict[str, Callable[..., tuple[Any, ...]]] = {}
        self._outputs: dict[str, Any] = {}
        self._stores: dict[str, dict[int, str]] = {}
        """Per compiled file name, the places of its inlined stores by line."""
        self.source = ""

    def call(
        self, entry: str, args: tuple[Any, ...], output: RunOutput | None = None
    ) -> tuple[Any, ...]:
        """Run `entry`; what it prints goes to `output` (default: standard output)."""
        if entry not in self._functions:
            try:
                with indexed_symbol_lookups():
                    self._compile(reachable_functions(self.module, entry))
            except SyntaxError:
                # Python refuses code nested deeper than 20 loops or 100 indentation levels:
                # such a function runs op by op, with the same semantics.
                from heterolayout.execution.interp.engine import InterpreterEngine

                self._functions[entry] = functools.partial(
                    _interpreted, InterpreterEngine(self.module), entry
                )
                self._outputs[entry] = find_function(self.module, entry).function_type.outputs.data
        state = RunState(
            output if output is not None else RunOutput(), memory.RunMemory(entry, args)
        )
        try:
            results = self._functions[entry](state, *args)
        except RecursionError:
            raise too_deep(entry) from None
        except ValueError as error:
            place = self._failed_store(error.__traceback__) if "read-only" in str(error) else None
            if place is None:
                raise
            raise memory.deallocated(place) from None
        memory.check_returned(entry, self._outputs[entry], results)
        return results

    def helpers(self) -> dict[str, Any]:
        """Helpers of the generated code that an engine built on this one replaces."""
        return {}

    def _failed_store(self, traceback: TracebackType | None) -> str | None:
        """The place of the inlined store that raised, when generated code raised it: numpy
        refuses to write a read-only buffer, and the engines make only freed ones read-only."""
        while traceback is not None and traceback.tb_next is not None:
            traceback = traceback.tb_next
        if traceback is None:
            return None
        stores = self._stores.get(traceback.tb_frame.f_code.co_filename)
        return None if stores is None else stores.get(traceback.tb_lineno)

    def _compile(self, functions: list[Function]) -> None:
        names = {
            function_key(f): f"F{i}_{_identifier(f.sym_name.data)}" for i, f in enumerate(functions)
        }
        writer = Writer(names, emitter_of, HELPERS)
        writer.namespace.update(self.helpers())
        for function in functions:
            writer.function(function)
        self.source = "\n".join(writer.lines)
        filename = f"<compiled {functions[0].sym_name.data}>"
        code = compile(self.source, filename, "exec")
        exec(code, writer.namespace)
        self._stores[filename] = writer.stores
        for function in functions:
            self._outputs.setdefault(function_key(function), function.function_type.outputs.data)
        for name, python_name in names.items():
            self._functions.setdefault(name, writer.namespace[python_name])


def _interpreted(engine: Any, entry: str, state: RunState, *args: Any) -> tuple[Any, ...]:
    return engine.call(entry, args, state.output)


def _identifier(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name)
