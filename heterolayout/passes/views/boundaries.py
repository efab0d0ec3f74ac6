"""Views that meet a call: copied at the boundary; views freed: their root is.

A view of a layout-typed memref lowers into indexing of its root (`dialects.views`,
`view_folding`): it has no buffer of its own to hand a callee. A `func.call` that passes one
(static or run-time window) passes a temporary of the callee's parameter type instead,
filled from the view (element by element, `linalg.copy`) before the call and, when the
callee may write it, copied back into the view after the call; the temporary is freed
after. This is DESIGN's boundary rule, which
`layout-apply` follows for a buffer whose layout a callee does not take: the callee sees
exactly the view's elements, and no write is lost. The same holds for an upstream view of a
plain memref passed where the callee's parameter is one heterolayout lays out (a static
builtin `strided` type on a function argument).

The temporary has the parameter's type: an allocation of it when heterolayout lays that type
out (or it is the identity), otherwise a `memref.reinterpret_cast` of a 1-D allocation with
the type's static strides and offset (row-major strides where they are `?`, offset 0 where
it is `?`), so that it passes where upstream expects a view. Refused, naming the call: a
callee that may return the parameter (the caller would receive the temporary), and a call
that passes the view's root another way too (the callee would see two copies of one buffer).

`memref.dealloc` of a view frees the view's root, as upstream's lowering does: a view's
descriptor carries its source's allocated pointer (mlir-opt-22 verifies such a dealloc, and
`--finalize-memref-to-llvm` frees that pointer).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    StridedLayoutAttr,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.diagnostics import fail
from heterolayout.dialects.effects import may_return, may_write, returns_used
from heterolayout.dialects.functions import (
    Function,
    callee_key,
    is_declaration,
)
from heterolayout.dialects.roots import storage_root
from heterolayout.dialects.views import view_source, view_window


def copy_views_at_calls(calls: Sequence[func.CallOp], functions: Mapping[str, Function]) -> bool:
    """Every view that one of `calls` takes and that lowering cannot hand on as it is
    becomes a temporary copy at the call (`functions`: the module's, by key); whether any
    did."""
    copied = False
    for call in calls:
        callee = functions.get(callee_key(call))
        for index, operand in enumerate(call.arguments):
            wanted = operand.type
            if callee is not None and index < len(callee.function_type.inputs.data):
                wanted = callee.function_type.inputs.data[index]
            if not isinstance(wanted, MemRefType) or not _needs_copy(operand, wanted):
                continue
            _refuse_aliasing(call, index, operand, callee)
            copy_at_call(call, index, wanted, callee, _element_copy)
            copied = True
    return copied


def free_roots_of_views(deallocs: Sequence[memref.DeallocOp]) -> bool:
    """Each of `deallocs` that frees a view of a layout-typed memref frees its root: a
    view's descriptor carries its source's allocated pointer, which upstream's lowering
    frees. Whether any did."""
    freed = False
    for op in deallocs:
        window = view_window(op.memref)
        if window is not None:
            op.operands[0] = window.root
            freed = True
    return freed


def _element_copy(source: SSAValue, destination: SSAValue) -> Operation:
    """A copy of the logical elements only (`linalg.copy`, made loops by `layout-lower`): the
    temporary's pad slots were filled when it was allocated, and a view's are its root's."""
    from xdsl.dialects.linalg.ops import CopyOp

    return CopyOp([source], [destination], res=())


def _needs_copy(operand: SSAValue, wanted: MemRefType) -> bool:
    if view_source(operand) is None:
        return False
    return view_window(operand) is not None or layout_of(wanted) is not None


def _refuse_aliasing(
    call: func.CallOp, index: int, operand: SSAValue, callee: Function | None
) -> None:
    name = call.callee.root_reference.data
    defined = isinstance(callee, func.FuncOp) and not callee.is_declaration
    if defined and may_return(callee) and returns_used(call):  # type: ignore[arg-type]
        fail(
            call,
            f"layout-lower: func.call @{name} passes a view ({operand.type}) to a function "
            "that may return it; the view is copied at the call, and the caller would "
            "receive the copy (pass the root buffer, or return nothing)",
        )
    root = storage_root(operand)
    for other, value in enumerate(call.arguments):
        if other != index and isinstance(value.type, MemRefType) and storage_root(value) is root:
            fail(
                call,
                f"layout-lower: func.call @{name} passes a view ({operand.type}) and, as "
                f"argument {other}, more of the same buffer; the view is copied at the call, "
                "so the callee would see two copies of one buffer",
            )


def copy_at_call(
    call: func.CallOp,
    index: int,
    wanted: MemRefType,
    callee: Function | None,
    copy: Callable[[SSAValue, SSAValue], Operation],
) -> None:
    """Argument `index` of `call` becomes a temporary of type `wanted`, `copy`d from it
    before the call and back after it when the callee may write it, freed after."""
    view = call.operands[index]
    writes = (
        callee is None or is_declaration(callee) or may_write(callee.body.blocks[0].args[index])
    )
    ops, buffer, passed = _temporary(view, wanted)
    Rewriter.insert_op([*ops, copy(view, passed)], InsertPoint.before(call))
    call.operands[index] = passed
    after: list[Operation] = [copy(passed, view)] if writes else []
    Rewriter.insert_op([*after, memref.DeallocOp.get(buffer)], InsertPoint.after(call))


def _temporary(view: SSAValue, wanted: MemRefType) -> tuple[list[Operation], SSAValue, SSAValue]:
    """Ops that make a temporary of type `wanted` with `view`'s sizes: the ops, the
    allocation (to free), and the value to pass."""
    code = _Code()
    shape = wanted.get_shape()
    sizes: list[SSAValue | int] = [
        code.dim(view, dim) if extent == DYNAMIC_INDEX else extent
        for dim, extent in enumerate(shape)
    ]
    layout = wanted.layout
    if not isinstance(layout, StridedLayoutAttr) or layout_of(wanted) is not None:
        dynamic = [s for s in sizes if isinstance(s, SSAValue)]
        allocation = code.add(memref.AllocOp(dynamic, [], wanted))
        return code.ops, allocation, allocation
    declared = layout.get_strides()
    strides: list[SSAValue | int] = [1] * len(shape)
    for dim in reversed(range(len(shape))):
        if None not in declared:
            strides[dim] = declared[dim]  # type: ignore[assignment]
        elif dim < len(shape) - 1:  # row-major where the type leaves strides open
            strides[dim] = code.mul(strides[dim + 1], sizes[dim + 1])
    offset = layout.get_offset() or 0
    total: SSAValue | int = offset
    for size, stride in zip(sizes, strides, strict=True):  # past the last element
        total = code.add_index(total, code.mul(size, stride))
    flat_type = MemRefType(wanted.element_type, [DYNAMIC_INDEX])
    flat = code.add(memref.AllocOp([code.value(total)], [], flat_type))
    cast = memref.ReinterpretCastOp.from_dynamic(flat, [offset], sizes, strides, wanted)
    return code.ops, flat, code.add(cast)


class _Code:
    """Index code for a temporary: constants folded, ops collected in order."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def value(self, value: SSAValue | int) -> SSAValue:
        if isinstance(value, int):
            return self.add(arith.ConstantOp(IntegerAttr(value, IndexType())))
        return value

    def dim(self, view: SSAValue, dim: int) -> SSAValue:
        return self.add(memref.DimOp(view, self.value(dim)))

    def mul(self, lhs: SSAValue | int, rhs: SSAValue | int) -> SSAValue | int:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return lhs * rhs
        return self.add(arith.MuliOp(self.value(lhs), self.value(rhs)))

    def add_index(self, lhs: SSAValue | int, rhs: SSAValue | int) -> SSAValue | int:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return lhs + rhs
        return self.add(arith.AddiOp(self.value(lhs), self.value(rhs)))
