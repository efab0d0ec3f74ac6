"""InterpreterFunctions for views: `memref.subview`, `reinterpret_cast`, `collapse_shape`,
`expand_shape`, `transpose`, `vector.type_cast` and byte views alias their source (the shared
meaning is `runtime.views`; the compiled engine's code for them is `compiled.views`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, UnrealizedConversionCastOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Operation

from heterolayout.dialects.diagnostics import where
from heterolayout.dialects.views import kept_dims as match_kept
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.interp.kernels import Cache
from heterolayout.execution.runtime import memref as memory
from heterolayout.execution.runtime import views
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

    kept: Cache = field(default_factory=Cache)
    plans: Cache = field(default_factory=Cache)

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


def run_transpose(
    functions: InterpreterFunctions, interpreter: Interpreter, op: Operation, args: PythonValues
) -> PythonValues:
    """memref.transpose (an op xDSL lacks: found by name)."""
    permutation = [r.position for r in op.permutation.data.results]  # type: ignore[attr-defined]
    return (views.transpose(args[0], permutation, where(op)),)
