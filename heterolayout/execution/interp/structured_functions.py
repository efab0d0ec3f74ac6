"""InterpreterFunctions for what real inputs add to hand-written loops: views, linalg,
`scf.parallel`, `cf` branches and vector transfers. The compiled engine's counterparts are
in `compiled_extended`; both call the same helpers (`views`, `structured`, `transfers`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import cf, memref, scf, vector
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, UnrealizedConversionCastOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.interpreter import (
    _IMPL_OP_TYPE_KEY,  # pyright: ignore[reportPrivateUsage]
    Interpreter,
    InterpreterFunctions,
    OpImplResult,
    PythonValues,
    ReturnedValues,
    Successor,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation

from heterolayout.dialects.diagnostics import where
from heterolayout.dialects.structured import Structured, StructureError, is_structured, structured
from heterolayout.dialects.upstream.affine_index import delinearize, linearize
from heterolayout.dialects.views import kept_dims as match_kept
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.interp.functions import _Cache, compile_map
from heterolayout.execution.runtime import memref as memory
from heterolayout.execution.runtime import transfers, views
from heterolayout.execution.runtime.values import vector_shape


def mixed(static: Any, dynamic: PythonValues) -> list[int]:
    """Static values with each `?` taken in turn from the dynamic operands."""
    remaining = iter(dynamic)
    return [next(remaining) if v == DYNAMIC_INDEX else v for v in static.get_values()]


def view_operands(op: Operation, args: PythonValues) -> tuple[list[int], list[int], list[int]]:
    """The offsets, sizes and strides of a subview or reinterpret_cast."""
    count = (len(op.offsets), len(op.sizes), len(op.strides))  # type: ignore[attr-defined]
    dynamic = args[1:]
    offsets = mixed(op.static_offsets, dynamic[: count[0]])  # type: ignore[attr-defined]
    sizes = mixed(op.static_sizes, dynamic[count[0] : count[0] + count[1]])  # type: ignore[attr-defined]
    strides = mixed(op.static_strides, dynamic[count[0] + count[1] :])  # type: ignore[attr-defined]
    return offsets, sizes, strides


def kept_dims(op: Operation) -> list[int]:
    """The window dims a subview's result keeps."""
    static = [None if e == DYNAMIC_INDEX else e for e in op.static_sizes.get_values()]  # type: ignore[attr-defined]
    shape = [None if e == DYNAMIC_INDEX else e for e in op.results[0].type.get_shape()]  # type: ignore[attr-defined]
    kept = match_kept(static, shape)
    if kept is None:
        raise ExecutionError(f"{where(op)}: cannot reduce a window of {static} to {shape}")
    return kept


def groups(op: Operation) -> list[list[int]]:
    return [[i.value.data for i in g] for g in op.reassociation]  # type: ignore[attr-defined]


@register_impls
@dataclass
class ViewFunctions(InterpreterFunctions):
    """Views alias their source (see `views`)."""

    kept: _Cache = field(default_factory=_Cache)
    plans: _Cache = field(default_factory=_Cache)

    @impl(memref.SubviewOp)
    def run_subview(
        self, interpreter: Interpreter, op: memref.SubviewOp, args: PythonValues
    ) -> PythonValues:
        offsets, sizes, strides = view_operands(op, args)
        kept = self.kept.get(op, kept_dims)
        return (views.subview(args[0], offsets, sizes, strides, kept, where(op)),)

    @impl(memref.ReinterpretCastOp)
    def run_reinterpret_cast(
        self, interpreter: Interpreter, op: memref.ReinterpretCastOp, args: PythonValues
    ) -> PythonValues:
        offsets, sizes, strides = view_operands(op, args)
        return (views.reinterpret_cast(args[0], offsets[0], sizes, strides, where(op)),)

    @impl(memref.CollapseShapeOp)
    def run_collapse_shape(
        self, interpreter: Interpreter, op: memref.CollapseShapeOp, args: PythonValues
    ) -> PythonValues:
        return (views.collapse_shape(args[0], groups(op), where(op)),)

    @impl(UnrealizedConversionCastOp)
    def run_byte_view(
        self, interpreter: Interpreter, op: UnrealizedConversionCastOp, args: PythonValues
    ) -> PythonValues:
        plan = self.plans.get(op, views.byte_view_plan)
        return (memory.byte_view(args[0], plan, where(op)),)

    @impl(memref.ExpandShapeOp)
    def run_expand_shape(
        self, interpreter: Interpreter, op: memref.ExpandShapeOp, args: PythonValues
    ) -> PythonValues:
        shape = mixed(op.static_output_shape, args[1:])
        return (views.expand_shape(args[0], groups(op), shape, where(op)),)


def run_type_cast(
    functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
) -> PythonValues:
    """vector.type_cast (an op xDSL lacks: found by name)."""
    return (views.type_cast(args[0], cast_shape(op), where(op)),)


def cast_shape(op: Operation) -> tuple[int, ...]:
    """The numpy shape of vector.type_cast's result: its dims, then its vector's."""
    result = op.results[0].type
    lanes = vector_shape(result.element_type) or ()  # type: ignore[attr-defined]
    return (*result.get_shape(), *lanes)  # type: ignore[attr-defined]


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


def run_transpose(
    functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
) -> PythonValues:
    """memref.transpose (an op xDSL lacks: found by name)."""
    permutation = [r.position for r in op.permutation.data.results]  # type: ignore[attr-defined]
    return (views.transpose(args[0], permutation, where(op)),)


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


@register_impls
@dataclass
class TransferFunctions(InterpreterFunctions):
    """vector.transfer_read and vector.transfer_write (see `transfers`)."""

    cache: _Cache = field(default_factory=_Cache)

    @impl(vector.TransferReadOp)
    def run_transfer_read(
        self, interpreter: Interpreter, op: vector.TransferReadOp, args: PythonValues
    ) -> PythonValues:
        plan = self.cache.get(op, transfers.plan)
        count = len(op.indices)
        mask = args[2 + count] if op.mask is not None else None
        return (transfers.read(plan, args[0], args[1 : 1 + count], args[1 + count], mask),)

    @impl(vector.TransferWriteOp)
    def run_transfer_write(
        self, interpreter: Interpreter, op: vector.TransferWriteOp, args: PythonValues
    ) -> PythonValues:
        plan = self.cache.get(op, transfers.plan)
        count = len(op.indices)
        mask = args[2 + count] if op.mask is not None else None
        transfers.write(plan, args[0], args[1], args[2 : 2 + count], mask)
        return ()


@dataclass
class StructuredFunctions(InterpreterFunctions):
    """linalg ops as their loop nests (see `structured`); `structured_functions` binds them
    to the op classes a module uses."""

    cache: _Cache = field(default_factory=_Cache)
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


def run_hint(
    functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
) -> PythonValues:
    """memref.prefetch and affine.prefetch: hints that change no value."""
    return ()


_BY_NAME: dict[str, Any] = {
    "memref.prefetch": run_hint,
    "affine.prefetch": run_hint,
    "memref.transpose": run_transpose,
    "vector.type_cast": run_type_cast,
    "affine.delinearize_index": run_delinearize,
    "affine.linearize_index": run_linearize,
}
"""Ops xDSL lacks, run whatever class the module's context gave them."""


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
        elif op.name in _BY_NAME:
            classes[type(op)] = _BY_NAME[op.name]
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


def extended_functions(module: ModuleOp) -> list[InterpreterFunctions]:
    return [
        ViewFunctions(),
        ParallelFunctions(),
        BranchFunctions(),
        TransferFunctions(),
        structured_functions(module),
    ]
