"""The second step of `layout-lower`: every layout-typed memref becomes its physical buffer
where it is defined, after the first step (`lower_accesses`) has rewritten its uses.

Allocations get the physical shape and their pad slots filled; a global's initializer is
repacked at compile time; function signatures, call results, loop-carried values, casts and
block arguments take the physical type. Each pattern reads the layout from the type it
replaces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FunctionType,
    MemRefType,
    TensorType,
)
from xdsl.dialects.builtin import StridedLayoutAttr as BuiltinStridedLayoutAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.dense import dense_array, dense_attr, wrapped
from heterolayout.dialects.functions import FUNCTION_TYPES
from heterolayout.layout.element_types import element_type
from heterolayout.layout.extents import INDEX_LIMIT
from heterolayout.layout.limits import check_elements
from heterolayout.layout.model import Layout
from heterolayout.passes.cleanup_marks import mark_for_cleanup
from heterolayout.passes.convert.loop_nest import Insert
from heterolayout.passes.convert.loops import fill
from heterolayout.passes.index.index_code import IndexEmitter, IndexLeaves, IndexMode
from heterolayout.passes.lower.access_lowering import memref_layout
from heterolayout.passes.physical import physical_type

if TYPE_CHECKING:
    import numpy as np


def physical(memref_type: Attribute, flatten: bool) -> Attribute:
    """The type a value of `memref_type` has once lowered (itself unless layout-typed)."""
    if not isinstance(memref_type, MemRefType):
        return memref_type
    layout = memref_layout_of_type(memref_type)
    return memref_type if layout is None else physical_type(memref_type, layout, flatten)


def memref_layout_of_type(memref_type: MemRefType) -> Layout | None:
    from heterolayout.dialects.conversion import layout_of

    return layout_of(memref_type)


def retype(value: SSAValue, flatten: bool) -> None:
    """Give a layout-typed value its physical type (upstream views keep theirs)."""
    layout = memref_layout(value)
    if layout is not None:
        assert isinstance(value.type, MemRefType)
        Rewriter.replace_value_with_new_type(value, physical_type(value.type, layout, flatten))


@dataclass
class LowerAllocation(RewritePattern):
    """`memref.alloc/alloca` of the physical shape, its `?` sizes computed from the logical
    ones (`Layout.extents`: `%n ceildiv 4` where the layout tiles a `?` dim), then the pad
    value in every slot when there are pad slots or packed containers."""

    flatten: bool
    mode: IndexMode = "arith"

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.AllocOp | memref.AllocaOp, rewriter: PatternRewriter
    ) -> None:
        layout = memref_layout(op.memref)
        if layout is None:
            _plain_identity_allocation(op, rewriter)
            return
        sizes = _physical_sizes(op, layout, self.mode)
        new = type(op).build(
            operands=[sizes, []],  # the map's symbols are unused (`without_unused_symbols`)
            result_types=[physical(op.memref.type, self.flatten)],
            properties={"alignment": op.alignment} if op.alignment is not None else {},
        )
        rewriter.replace(op, new)
        if layout.has_pad_slots or layout.packing is not None:
            fill(new.memref, layout, _inserter_after(new))
            mark_for_cleanup(new)


def _physical_sizes(
    op: memref.AllocOp | memref.AllocaOp, layout: Layout, mode: IndexMode
) -> list[SSAValue]:
    """The `?` extents of the physical buffer, as index code over the size operands
    (inserted before `op`): an operand itself where a `?` dim is a physical dim."""
    leaves = IndexLeaves()
    logical = iter(op.dynamic_sizes)
    sizes: list[AffineExpr] = []
    for extent in layout.logical_shape:
        if extent is not None:
            sizes.append(AffineExpr.constant(extent))
            continue
        sizes.append(leaves.leaf(next(logical)))
        leaves.ranges[len(leaves.values) - 1] = (0, INDEX_LIMIT)  # sizes are never negative
    emitter = IndexEmitter(
        leaves, lambda new: Rewriter.insert_op(new, InsertPoint.before(op)), mode
    )
    storage = layout.extents[: len(layout.storage_shape)]
    return [
        emitter.emit(emitter.simplifier.simplify(e.replace_dims_and_symbols(sizes, [])))
        for e, extent in zip(storage, layout.storage_shape, strict=True)
        if extent is None
    ]


def _plain_identity_allocation(
    op: memref.AllocOp | memref.AllocaOp, rewriter: PatternRewriter
) -> None:
    """An allocation typed with an identity builtin `strided<…>` layout becomes a plain one
    cast to that type: upstream's LLVM lowering allocates only identity-layout memrefs."""
    memref_type = op.memref.type
    if not _identity_strided(memref_type):
        return
    from heterolayout.dialects.conversion import with_layout
    from heterolayout.dialects.upstream.memref import CastOp

    plain = with_layout(memref_type, None)
    new = type(op).build(
        operands=[list(op.dynamic_sizes), list(op.symbol_operands)],
        result_types=[plain],
        properties={"alignment": op.alignment} if op.alignment is not None else {},
    )
    cast = CastOp(operands=[new.memref], result_types=[memref_type])
    rewriter.replace(op, [new, cast], cast.results)


def _inserter_after(op: Operation) -> Insert:
    anchor = [op]

    def insert(new: Operation) -> None:
        Rewriter.insert_op(new, InsertPoint.after(anchor[0]))
        anchor[0] = new

    return insert


@dataclass
class LowerGlobal(RewritePattern):
    """A global's type is physical and its initializer repacked (an uninitialised one
    still gets defined pad slots and unused bits)."""

    flatten: bool

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.GlobalOp, rewriter: PatternRewriter) -> None:
        layout = memref_layout_of_type(op.type)
        if layout is None:
            _plain_global(op, rewriter)
            return
        physical_memref = physical(op.type, self.flatten)
        assert isinstance(physical_memref, MemRefType)
        import numpy as np

        initial: Attribute = op.initial_value
        if isinstance(initial, DenseIntOrFPElementsAttr):
            logical = _dense_array(initial, layout)
        elif layout.has_pad_slots or layout.packing is not None:
            # An uninitialised global still has defined pad slots and unused bits.
            check_elements(layout.size, f"memref.global @{op.sym_name.data}")
            logical = np.full(layout.static_logical_shape, layout.pad)
        else:
            logical = None
        if logical is not None:
            words = layout.pack(logical)
            if layout.packing is not None:
                words = wrapped(words, element_type(f"i{layout.packing.container_bits}"))
            elif layout.dtype is not None and layout.dtype.is_integer:
                words = wrapped(words, layout.dtype)
            tensor = TensorType(physical_memref.element_type, physical_memref.get_shape())
            initial = dense_attr(tensor, words)
        op.properties["type"] = physical_memref
        op.properties["initial_value"] = initial
        rewriter.notify_op_modified(op)


def _plain_global(op: memref.GlobalOp, rewriter: PatternRewriter) -> None:
    """A global typed with an identity builtin `strided<…>` layout gets the identity layout,
    which upstream's LLVM lowering requires of a global; each `memref.get_global` of it is
    cast back to the type its users take."""
    written = op.type
    if not isinstance(written, MemRefType) or not _identity_strided(written):
        return
    from heterolayout.dialects.conversion import with_layout
    from heterolayout.dialects.upstream.memref import CastOp

    plain = with_layout(written, None)
    op.properties["type"] = plain
    rewriter.notify_op_modified(op)
    module = op.parent_op()
    name = op.sym_name.data
    for get in [g for g in module.walk() if isinstance(g, memref.GetGlobalOp)] if module else []:
        if get.name_.root_reference.data == name:
            new_get = memref.GetGlobalOp(name, plain)
            cast = CastOp(operands=[new_get.memref], result_types=[written])
            rewriter.replace(get, [new_get, cast], cast.results)


def _identity_strided(memref_type: MemRefType) -> bool:
    """Whether a memref that has no layout to heterolayout (`memref_layout_of_type` is None)
    is typed with a builtin `strided<…>` layout of static strides and offset: row-major,
    which upstream lowers to LLVM only as the identity layout."""
    strided = memref_type.layout
    return (
        isinstance(strided, BuiltinStridedLayoutAttr)
        and strided.get_offset() is not None
        and None not in strided.get_strides()
    )


def _dense_array(initial: DenseIntOrFPElementsAttr, layout: Layout) -> np.ndarray:
    """The logical initializer; integers as their element type holds them (xDSL reads an
    i1 `true` as -1, which the layout's numpy type would store as 255)."""
    import numpy as np

    values = dense_array(initial)
    dtype = layout.dtype
    if dtype is not None and dtype.is_integer:
        values = wrapped(values, dtype)
    shape = layout.static_logical_shape
    if values.size == 1 and int(np.prod(shape)) != 1:  # splat
        return np.full(shape, values.ravel()[0])
    return values.reshape(shape)


@dataclass
class LowerSignature(RewritePattern):
    """A function's type, its block arguments and every result take the physical types."""

    flatten: bool

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, FUNCTION_TYPES):
            inputs, outputs = op.function_type.inputs.data, op.function_type.outputs.data
            lowered = FunctionType.from_lists(
                [physical(t, self.flatten) for t in inputs],
                [physical(t, self.flatten) for t in outputs],
            )
            if lowered != op.function_type:
                op.function_type = lowered
                rewriter.notify_op_modified(op)
        if not isinstance(op, memref.AllocOp | memref.AllocaOp):
            for result in op.results:
                retype(result, self.flatten)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    retype(arg, self.flatten)


def definition_patterns(flatten: bool, mode: IndexMode = "arith") -> list[RewritePattern]:
    return [LowerAllocation(flatten, mode), LowerGlobal(flatten), LowerSignature(flatten)]
