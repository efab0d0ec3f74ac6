"""xDSL InterpreterFunctions with heterolayout's semantics.

Value ops run the expressions of `semantics` (compiled once per op into a small function),
memory ops the helpers of `memref`, so the interpreter and the compiled engine share one
meaning. Where xDSL's stock functions are wrong or missing for lowered code, the override
says so.

A class may also define `direct(op)`: the op's meaning as a plain function of its operand
values (returning its one result, or nothing), or None. `interp.RegionInterpreter` calls it
in place of the implementation for value ops and scalar loads and stores, the ops that
dominate loop bodies.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import affine, arith, func, math, memref, scf, vector
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import (
    _IMPL_OP_TYPE_KEY,  # pyright: ignore[reportPrivateUsage]
    Interpreter,
    InterpreterFunctions,
    OpImplResult,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation
from xdsl.traits import SymbolTable

from heterolayout.dialects.diagnostics import where
from heterolayout.dialects.names import op_name
from heterolayout.dialects.upstream.affine_index import delinearize, linearize
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.interp.kernels import (
    Cache,
    Kernel,
    compile_condition,
    compile_kernel,
    compile_map,
    kernel_namespace,
)
from heterolayout.execution.interp.views import mixed, run_transpose, run_type_cast
from heterolayout.execution.runtime import memref as memory
from heterolayout.execution.runtime.runner_utils import PrintPlan, RunOutput, runner_function
from heterolayout.execution.runtime.semantics import (
    VALUE_OPS,
    bound_groups,
    parallel_reductions,
    reduction_expression,
    reduction_identity,
)
from heterolayout.execution.runtime.values import element_of, vector_shape

_DIALECTS = (arith.Arith, math.Math, affine.Affine, vector.Vector)


def _value_op_types() -> list[type[Operation]]:
    """xDSL's value op classes and heterolayout's (`dialects.upstream`); not
    vector.from_elements, which `NamedFunctions` runs whatever class a module gives it."""
    from heterolayout.dialects.upstream import additions

    ours = [op for name in ("arith", "vector", "affine") for op in additions(name)[0]]
    classes = [op for dialect in _DIALECTS for op in dialect.operations] + ours
    return [op for op in classes if op.name in VALUE_OPS and op.name != "vector.from_elements"]


def _run_value(
    self: ValueFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
) -> PythonValues:
    return (self.cache.get(op, compile_kernel)(*args),)


def _register_value_ops(cls: type) -> type:
    """One `@impl` per value op class xDSL defines, all running `_run_value`.

    Overrides xDSL's ArithFunctions, which computes f32 in double, compares to bool, lacks
    divui/remui/shrui/ceildivsi/trunci/extui/extsi/… and ignores the symbols of
    affine.apply's map."""
    for number, op_type in enumerate(_value_op_types()):
        # one attribute per class: xDSL's and heterolayout's classes share op names
        setattr(cls, f"run_{op_type.name.replace('.', '_')}_{number}", impl(op_type)(_run_value))
    return register_impls(cls)


@_register_value_ops
@dataclass
class ValueFunctions(InterpreterFunctions):
    cache: Cache = field(default_factory=Cache)

    def direct(self, op: Operation) -> Kernel | None:
        """The op's kernel (None when it does not compile: the implementation then
        raises the error when, and if, the op runs)."""
        try:
            return self.cache.get(op, compile_kernel)
        except Exception:
            return None


def _vector_access(op: Operation) -> tuple[tuple[int, ...], Any, str]:
    """A vector load's vector shape, element dtype and place."""
    result_type = op.results[0].type
    lanes = vector_shape(result_type)
    assert lanes is not None
    return lanes, element_of(result_type).numpy_dtype, where(op)


def run_output(interpreter: Interpreter) -> RunOutput:
    """Where the run's printing goes (`InterpreterEngine.call` sets it; standard output
    when a program runs in an interpreter of its own)."""
    return interpreter.get_data(FuncFunctions, "output", RunOutput)


def run_memory(interpreter: Interpreter) -> memory.RunMemory:
    """The run's globals and dealloc bookkeeping (`InterpreterEngine.call` sets it with the
    entry function's arguments)."""
    return interpreter.get_data(MemRefFunctions, "memory", memory.RunMemory)


def _info(op: Operation, index: int = 0, *, result: bool = False) -> memory.MemRefInfo:
    value = op.results[index] if result else op.operands[index]
    return memory.memref_info(value.type)


@register_impls
@dataclass
class MemRefFunctions(InterpreterFunctions):
    """memref ops on numpy arrays and layout-aware memrefs.

    Replaces xDSL's MemRefFunctions: its ShapedArray has no vector elements and no layout,
    it lacks alloca, copy, dim, rank and cast, its get_global builds a new buffer on every
    call, so stores to a global were lost, and its dealloc leaves the buffer usable."""

    places: Cache = field(default_factory=Cache)

    def direct(self, op: Operation) -> Kernel | None:
        """memref.load and memref.store as functions of their operands."""
        place = where(op)
        if isinstance(op, memref.LoadOp):
            return lambda source, *index: memory.load(source, index, place)
        if isinstance(op, memref.StoreOp):
            return lambda value, target, *index: memory.store(target, index, value, place)
        return None

    @impl(memref.AllocOp)
    def run_alloc(
        self, interpreter: Interpreter, op: memref.AllocOp, args: PythonValues
    ) -> PythonValues:
        return (memory.allocate(_info(op, result=True), args[: len(op.dynamic_sizes)], where(op)),)

    @impl(memref.AllocaOp)
    def run_alloca(
        self, interpreter: Interpreter, op: memref.AllocaOp, args: PythonValues
    ) -> PythonValues:
        buffer = memory.allocate(_info(op, result=True), args[: len(op.dynamic_sizes)], where(op))
        return (run_memory(interpreter).alloca(buffer),)

    @impl(memref.DeallocOp)
    def run_dealloc(
        self, interpreter: Interpreter, op: memref.DeallocOp, args: PythonValues
    ) -> PythonValues:
        run_memory(interpreter).dealloc(args[0], self.places.get(op, where))
        return ()

    @impl(memref.LoadOp)
    def run_load(
        self, interpreter: Interpreter, op: memref.LoadOp, args: PythonValues
    ) -> PythonValues:
        return (memory.load(args[0], args[1:], self.places.get(op, where)),)

    @impl(memref.StoreOp)
    def run_store(
        self, interpreter: Interpreter, op: memref.StoreOp, args: PythonValues
    ) -> PythonValues:
        memory.store(args[1], args[2:], args[0], self.places.get(op, where))
        return ()

    @impl(memref.DimOp)
    def run_dim(
        self, interpreter: Interpreter, op: memref.DimOp, args: PythonValues
    ) -> PythonValues:
        return (memory.dim(args[0], args[1], where(op)),)

    @impl(memref.RankOp)
    def run_rank(
        self, interpreter: Interpreter, op: memref.RankOp, args: PythonValues
    ) -> PythonValues:
        return (memory.rank(args[0], where(op)),)

    @impl(memref.ExtractAlignedPointerAsIndexOp)
    def run_address(
        self,
        interpreter: Interpreter,
        op: memref.ExtractAlignedPointerAsIndexOp,
        args: PythonValues,
    ) -> PythonValues:
        return (memory.address(args[0], where(op)),)

    @impl(memref.CopyOp)
    def run_copy(
        self, interpreter: Interpreter, op: memref.CopyOp, args: PythonValues
    ) -> PythonValues:
        memory.copy(args[0], args[1], where(op))
        return ()

    @impl(memref.CastOp)
    def run_cast(
        self, interpreter: Interpreter, op: memref.CastOp, args: PythonValues
    ) -> PythonValues:
        return (memory.cast(args[0], memory.cast_target(op.results[0].type), where(op)),)

    @impl(memref.GetGlobalOp)
    def run_get_global(
        self, interpreter: Interpreter, op: memref.GetGlobalOp, args: PythonValues
    ) -> PythonValues:
        state = run_memory(interpreter)
        name = op.name_.root_reference.data
        found = state.globals.get(name)
        if found is None:
            declaration = SymbolTable.lookup_symbol(op, op.name_)
            if not isinstance(declaration, memref.GlobalOp):
                raise ExecutionError(f"{where(op)}: no memref.global @{name}")
            initial = declaration.initial_value
            found = state.global_buffer(
                name,
                memory.memref_info(declaration.type),
                None if not hasattr(initial, "get_values") else initial,
            )
        return (found,)


@register_impls
@dataclass
class VectorFunctions(InterpreterFunctions):
    """vector.load, vector.store and vector.print (xDSL has no interpreter functions for
    vector ops)."""

    cache: Cache = field(default_factory=Cache)

    @impl(vector.LoadOp)
    def run_load(
        self, interpreter: Interpreter, op: vector.LoadOp, args: PythonValues
    ) -> PythonValues:
        lanes, dtype, place = self.cache.get(op, _vector_access)
        return (memory.vector_load(args[0], args[1:], lanes, dtype, place),)

    @impl(vector.StoreOp)
    def run_store(
        self, interpreter: Interpreter, op: vector.StoreOp, args: PythonValues
    ) -> PythonValues:
        memory.vector_store(args[0], args[1], args[2:], self.cache.get(op, where))
        return ()

    @impl(vector.PrintOp)
    def run_print(
        self, interpreter: Interpreter, op: vector.PrintOp, args: PythonValues
    ) -> PythonValues:
        run_output(interpreter).print_op(args, self.cache.get(op, PrintPlan.of))
        return ()


def _affine_bounds(op: Operation) -> tuple[Kernel, Kernel, int, int, int]:
    """An affine.for's bound maps as functions, their operand counts and the step."""
    assert isinstance(op, affine.ForOp)
    return (
        compile_map(op.lowerBoundMap.data, op),
        compile_map(op.upperBoundMap.data, op),
        len(op.lowerBoundOperands),
        len(op.upperBoundOperands),
        op.step.value.data,
    )


@dataclass(frozen=True)
class _Parallel:
    """An affine.parallel's bound maps as functions, its bound groups and steps, and per
    result its reduction as a function of the accumulator and an iteration's value."""

    lower: Kernel
    upper: Kernel
    lower_count: int
    lower_groups: list[int]
    upper_groups: list[int]
    steps: list[int]
    kinds: list[str]
    identities: list[Any]
    combine: list[Kernel]


def _parallel_plan(op: Operation) -> _Parallel:
    assert isinstance(op, affine.ParallelOp)
    lower, upper = op.lowerBoundsMap.data, op.upperBoundsMap.data
    lower_groups, upper_groups = bound_groups(op)
    reductions = parallel_reductions(op)
    combine = []
    for kind, element in reductions:
        namespace, _ = kernel_namespace()
        combine.append(
            eval(f"lambda a, b: {reduction_expression(kind, 'a', 'b', element)}", namespace)
        )
    return _Parallel(
        compile_map(lower, op),
        compile_map(upper, op),
        lower.num_dims + lower.num_symbols,
        lower_groups,
        upper_groups,
        [s.value.data for s in op.steps],
        [kind for kind, _ in reductions],
        [reduction_identity(kind, element) for kind, element in reductions],
        combine,
    )


def _grouped(values: tuple[int, ...], groups: list[int], pick: Callable[..., int]) -> list[int]:
    """Each loop's bound: the max (or min) of its group of the map's results."""
    bounds, start = [], 0
    for size in groups:
        bounds.append(pick(values[start : start + size]))
        start += size
    return bounds


def no_assigned_value(op: Operation) -> ExecutionError:
    return ExecutionError(
        f'{where(op)}: affine.parallel runs no iteration, so its "assign" result has no value'
    )


@register_impls
@dataclass
class AffineFunctions(InterpreterFunctions):
    """affine ops with dims and symbols, non-constant bounds and iter_args.

    Replaces xDSL's AffineFunctions: it evaluates every map with no symbols, although xDSL's
    parser turns the SSA indices of `affine.load %m[%i, %j]` into symbols; and its affine.for
    takes only constant bounds and no iter_args."""

    cache: Cache = field(default_factory=Cache)
    vectors: Cache = field(default_factory=Cache)

    def direct(self, op: Operation) -> Kernel | None:
        """affine.load and affine.store as functions of their operands."""
        if not isinstance(op, affine.LoadOp | affine.StoreOp):
            return None
        indices, place = self._access(op)
        if isinstance(op, affine.LoadOp):
            return lambda source, *operands: memory.load(source, indices(*operands), place)
        return lambda value, target, *operands: memory.store(
            target, indices(*operands), value, place
        )

    def _access(self, op: Operation) -> tuple[Kernel, str]:
        """The op's index map as a function, and its place for diagnostics."""
        return self.cache.get(op, lambda o: (compile_map(o.map.data, o), where(o)))  # type: ignore[attr-defined]

    @impl(affine.LoadOp)
    def run_load(
        self, interpreter: Interpreter, op: affine.LoadOp, args: PythonValues
    ) -> PythonValues:
        indices, place = self._access(op)
        return (memory.load(args[0], indices(*args[1:]), place),)

    @impl(affine.StoreOp)
    def run_store(
        self, interpreter: Interpreter, op: affine.StoreOp, args: PythonValues
    ) -> PythonValues:
        indices, place = self._access(op)
        memory.store(args[1], indices(*args[2:]), args[0], place)
        return ()

    @impl(affine.VectorLoadOp)
    def run_vector_load(
        self, interpreter: Interpreter, op: affine.VectorLoadOp, args: PythonValues
    ) -> PythonValues:
        indices, place = self._access(op)
        lanes, dtype, _ = self.vectors.get(op, _vector_access)
        return (memory.vector_load(args[0], indices(*args[1:]), lanes, dtype, place),)

    @impl(affine.VectorStoreOp)
    def run_vector_store(
        self, interpreter: Interpreter, op: affine.VectorStoreOp, args: PythonValues
    ) -> PythonValues:
        indices, place = self._access(op)
        memory.vector_store(args[0], args[1], indices(*args[2:]), place)
        return ()

    @impl(affine.ForOp)
    def run_for(
        self, interpreter: Interpreter, op: affine.ForOp, args: PythonValues
    ) -> PythonValues:
        lower_map, upper_map, lower_count, upper_count, step = self.cache.get(op, _affine_bounds)
        lower = max(lower_map(*args[:lower_count]))
        upper = min(upper_map(*args[lower_count : lower_count + upper_count]))
        values = tuple(args[lower_count + upper_count :])
        for i in range(lower, upper, step):
            values = interpreter.run_ssacfg_region(op.body, (i, *values), "affine.for")
        return values

    @impl(affine.ParallelOp)
    def run_parallel(
        self, interpreter: Interpreter, op: affine.ParallelOp, args: PythonValues
    ) -> PythonValues:
        """The iterations in order, each one's yielded values folded onto the results by
        their reductions (upstream's lowering to loops does the same)."""
        plan: _Parallel = self.cache.get(op, _parallel_plan)
        lows = _grouped(plan.lower(*args[: plan.lower_count]), plan.lower_groups, max)
        highs = _grouped(plan.upper(*args[plan.lower_count :]), plan.upper_groups, min)
        if any(step <= 0 for step in plan.steps):
            raise ExecutionError(f"{where(op)}: steps must be positive, got {plan.steps}")
        accumulators = list(plan.identities)
        ranges = [range(*bounds) for bounds in zip(lows, highs, plan.steps, strict=True)]
        ran = False
        for point in itertools.product(*ranges):
            values = interpreter.run_ssacfg_region(op.body, point, "affine.parallel")
            accumulators = [
                combine(a, v)
                for combine, a, v in zip(plan.combine, accumulators, values, strict=True)
            ]
            ran = True
        if not ran and "assign" in plan.kinds:
            raise no_assigned_value(op)
        return tuple(accumulators)

    @impl(affine.IfOp)
    def run_if(self, interpreter: Interpreter, op: affine.IfOp, args: PythonValues) -> PythonValues:
        holds = self.cache.get(op, compile_condition)(*args)
        region = op.then_region if holds else op.else_region
        if not region.blocks:
            return ()
        return interpreter.run_ssacfg_region(region, (), "affine.if")

    @impl_terminator(affine.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: affine.YieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()


@register_impls
@dataclass
class ScfFunctions(InterpreterFunctions):
    """scf.for, scf.if and scf.while as xDSL's ScfFunctions, except that a non-positive
    scf.for step is a diagnostic (xDSL's raises Python's ValueError for 0 and silently runs
    no iteration for a negative step). Importing xDSL's would load every xDSL interpreter,
    RISC-V included."""

    @impl(scf.ForOp)
    def run_for(self, interpreter: Interpreter, op: scf.ForOp, args: PythonValues) -> PythonValues:
        lower, upper, step, *values = args
        if step <= 0:
            raise ExecutionError(f"{where(op)}: the step must be positive, got {step}")
        loop_values = tuple(values)
        for i in range(lower, upper, step):
            loop_values = interpreter.run_ssacfg_region(op.body, (i, *loop_values), "scf.for")
        return loop_values

    @impl(scf.IfOp)
    def run_if(self, interpreter: Interpreter, op: scf.IfOp, args: PythonValues) -> PythonValues:
        region = op.true_region if args[0] else op.false_region
        if not region.blocks:
            return ()
        return interpreter.run_ssacfg_region(region, (), "scf.if")

    @impl(scf.WhileOp)
    def run_while(
        self, interpreter: Interpreter, op: scf.WhileOp, args: PythonValues
    ) -> PythonValues:
        values = args
        while True:
            condition, *forwarded = interpreter.run_ssacfg_region(
                op.before_region, values, "scf.while"
            )
            if not condition:
                return tuple(forwarded)
            values = interpreter.run_ssacfg_region(op.after_region, tuple(forwarded), "scf.while")

    @impl_terminator(scf.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: scf.YieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl_terminator(scf.ConditionOp)
    def run_condition(
        self, interpreter: Interpreter, op: scf.ConditionOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()


@register_impls
@dataclass
class FuncFunctions(InterpreterFunctions):
    """func.func, func.call and func.return, as xDSL's FuncFunctions (importing which would
    load every interpreter xDSL has, RISC-V included)."""

    callees: Cache = field(default_factory=Cache)

    @impl_callable(func.FuncOp)
    def call_func(
        self, interpreter: Interpreter, op: func.FuncOp, args: PythonValues
    ) -> PythonValues:
        """A function's body, or for an external function the runner-utils function it
        declares (xDSL's would return nothing from an external function)."""
        if not op.body.blocks:
            runner_function(op.sym_name.data, op.function_type, f"call of @{op.sym_name.data}")
            return run_output(interpreter).call(op.sym_name.data, args)
        return interpreter.run_ssacfg_region(op.body, args, op.sym_name.data)

    @impl(func.CallOp)
    def run_call(
        self, interpreter: Interpreter, op: func.CallOp, args: PythonValues
    ) -> PythonValues:
        callee = self.callees.get(op, lambda o: interpreter.get_op_for_symbol(o.callee))  # type: ignore[attr-defined]
        return interpreter.call_op(callee, args)

    @impl_terminator(func.ReturnOp)
    def run_return(
        self, interpreter: Interpreter, op: func.ReturnOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()


@dataclass
class NamedFunctions(InterpreterFunctions):
    """Ops found by name rather than by class: the layout dialect's (a program may be parsed
    without it), and the ops xDSL 0.74 does not define (vector.from_elements, the prefetch
    hints, memref.transpose, vector.type_cast, affine.delinearize_index and linearize_index:
    a context may know them from `dialects.upstream`, as unregistered ops or from another
    dialect). `named_functions` binds them to the classes a module uses."""

    cache: Cache = field(default_factory=Cache)

    def run_assign(
        self, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        """layout.assign changes how a buffer is stored, never what it holds, and
        layout.schedule is a hint: nothing to do."""
        return ()

    def run_convert(
        self, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        memory.copy(args[0], args[1], where(op))
        return ()

    def run_from_elements(
        self, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        return (self.cache.get(op, compile_kernel)(*args),)


def run_delinearize(
    functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
) -> PythonValues:
    """affine.delinearize_index (an op xDSL lacks: found by name)."""
    basis = mixed(op.static_basis, args[1:])  # type: ignore[attr-defined]
    return delinearize(args[0], basis, len(op.results))


def run_linearize(
    functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
) -> PythonValues:
    """affine.linearize_index (an op xDSL lacks: found by name)."""
    count = len(op.multi_index)  # type: ignore[attr-defined]
    return (linearize(args[:count], mixed(op.static_basis, args[count:])),)  # type: ignore[attr-defined]


def run_hint(
    functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
) -> PythonValues:
    """memref.prefetch and affine.prefetch: hints that change no value."""
    return ()


_BY_NAME: dict[
    str, Callable[[NamedFunctions, Interpreter, Operation, PythonValues], PythonValues]
] = {
    "layout.assign": NamedFunctions.run_assign,
    "layout.convert": NamedFunctions.run_convert,
    "layout.schedule": NamedFunctions.run_assign,
    "vector.from_elements": NamedFunctions.run_from_elements,
    "memref.prefetch": run_hint,
    "affine.prefetch": run_hint,
    "memref.transpose": run_transpose,
    "vector.type_cast": run_type_cast,
    "affine.delinearize_index": run_delinearize,
    "affine.linearize_index": run_linearize,
}


def named_functions(module: ModuleOp) -> NamedFunctions:
    """NamedFunctions registered for the classes that carry `_BY_NAME` ops in `module`."""
    names = {type(op): op_name(op) for op in module.walk() if op_name(op) in _BY_NAME}
    attributes: dict[str, Any] = {}
    for op_type, name in names.items():
        run = _BY_NAME[name]

        def method(
            self: NamedFunctions,
            interpreter: Interpreter,
            op: Operation,
            args: PythonValues,
            run: Callable[
                [NamedFunctions, Interpreter, Operation, PythonValues], PythonValues
            ] = run,
        ) -> OpImplResult:
            return OpImplResult(run(self, interpreter, op, args), None)

        # Workaround: xDSL's `impl` asks the op class whether it is a terminator, and an
        # unregistered op claims every trait, so `impl` refuses it. Mark the method the
        # way `impl` does.
        setattr(method, _IMPL_OP_TYPE_KEY, op_type)
        attributes[f"run_{len(attributes)}"] = method
    cls: type[NamedFunctions] = register_impls(
        type("ModuleNamedFunctions", (NamedFunctions,), attributes)
    )
    return cls()
