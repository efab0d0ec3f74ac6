"""Loop nests that move data between layouts: `layout.convert`, `memref.copy` across
layouts, and the pad fill of a new physical buffer.

A convert walks the destination in its memory order. For a blocked destination the loops
run over its physical dims and rebuild each logical index from its digits, so the source
index code simplifies to plain sums and the destination needs none; pad slots receive the
pad value. Other destinations are pre-filled with their pad and walked in logical order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr

from heterolayout.layout.blocked import block_product
from heterolayout.layout.model import Layout
from heterolayout.passes.index_code import IndexEmitter, IndexLeaves, IndexMode
from heterolayout.passes.physical import physical_exprs

Insert = Callable[[Operation], None]


def constant_of(value: int | float, element: Attribute) -> arith.ConstantOp:
    if isinstance(element, IntegerType):
        return arith.ConstantOp(IntegerAttr(int(value), element))
    if isinstance(element, IndexType):
        return arith.ConstantOp(IntegerAttr(int(value), IndexType()))
    return arith.ConstantOp(FloatAttr(float(value), element))  # type: ignore[arg-type]


class LoopNest:
    """Builds `scf.for` nests from 0 to each extent; `body(ivs, insert)` fills the innermost."""

    def __init__(self, insert: Insert) -> None:
        self.insert = insert
        self._constants: dict[int, SSAValue] = {}

    def index(self, value: int) -> SSAValue:
        if value not in self._constants:
            op = arith.ConstantOp(IntegerAttr(value, IndexType()))
            self.insert(op)
            self._constants[value] = op.result
        return self._constants[value]

    def build(
        self,
        extents: Sequence[SSAValue],
        body: Callable[[list[SSAValue], Insert], None],
    ) -> None:
        zero, one = self.index(0), self.index(1)
        ivs: list[SSAValue] = []
        insert = self.insert
        for extent in extents:
            block = Block(arg_types=[IndexType()])
            insert(scf.ForOp(zero, extent, one, [], Region(block)))
            ivs.append(block.args[0])
            insert = _appender(block)
        body(ivs, insert)
        for iv in ivs:
            block = iv.owner
            assert isinstance(block, Block)
            block.add_op(scf.YieldOp())


def _appender(block: Block) -> Insert:
    return block.add_op


def extents_of(
    layout: Layout, physical: SSAValue, physical_dims: bool, nest: LoopNest, insert: Insert
) -> list[SSAValue]:
    """Loop extents: the physical (storage) dims, or the logical dims, of a buffer."""
    shape = layout.storage_shape if physical_dims else layout.logical_shape
    values = []
    for position, extent in enumerate(shape):
        if extent is not None:
            values.append(nest.index(extent))
            continue
        physical_position = position if physical_dims else _bare_position(layout, position)
        dim = memref.DimOp.from_source_and_index(physical, nest.index(physical_position))
        insert(dim)
        values.append(dim.result)
    return values


def _bare_position(layout: Layout, dim: int) -> int:
    return layout.index_map.results.index(AffineExpr.dimension(dim))


def fill(
    physical: SSAValue,
    layout: Layout,
    value: int | float,
    element: Attribute,
    insert: Insert,
) -> None:
    """Store `value` into every slot of a physical buffer, in memory order."""
    nest = LoopNest(insert)
    constant = constant_of(value, element)
    insert(constant)
    shape = physical.type.get_shape()  # type: ignore[attr-defined]
    extents = [
        nest.index(e) if e >= 0 else _dynamic_extent(physical, p, nest, insert)
        for p, e in enumerate(shape)
    ]

    def body(ivs: list[SSAValue], add: Insert) -> None:
        add(memref.StoreOp.get(constant.result, physical, ivs))

    nest.build(extents, body)


def _dynamic_extent(physical: SSAValue, position: int, nest: LoopNest, insert: Insert) -> SSAValue:
    dim = memref.DimOp.from_source_and_index(physical, nest.index(position))
    insert(dim)
    return dim.result


def access_indices(
    layout: Layout,
    logical: Sequence[AffineExpr],
    leaves: IndexLeaves,
    insert: Insert,
    mode: IndexMode,
    flatten: bool,
) -> list[SSAValue]:
    exprs = [r.replace_dims_and_symbols(list(logical), []) for r in physical_exprs(layout, flatten)]
    return IndexEmitter(leaves, insert, mode).emit_all(exprs)


def convert(
    source: SSAValue,
    source_layout: Layout,
    source_flat: bool,
    destination: SSAValue,
    destination_layout: Layout,
    destination_flat: bool,
    element: Attribute,
    insert: Insert,
    mode: IndexMode,
) -> None:
    """Copy the logical contents of `source` into `destination` (physical buffers)."""
    nest = LoopNest(insert)
    terms = destination_layout.blocked_terms
    if terms is None:
        if destination_layout.size != destination_layout.logical_size:
            fill(destination, destination_layout, destination_layout.pad, element, insert)
        extents = extents_of(destination_layout, destination, False, nest, insert)

        def logical_body(ivs: list[SSAValue], add: Insert) -> None:
            leaves = IndexLeaves()
            logical = [leaves.leaf(iv) for iv in ivs]
            for position, extent in enumerate(destination_layout.logical_shape):
                if extent is not None:
                    leaves.ranges[position] = (0, extent - 1)
            _move(source, source_layout, source_flat, destination, destination_layout,
                  destination_flat, logical, leaves, add, mode)

        nest.build(extents, logical_body)
        return

    extents = extents_of(destination_layout, destination, True, nest, insert)

    def blocked_body(ivs: list[SSAValue], add: Insert) -> None:
        leaves = IndexLeaves()
        digits = [leaves.leaf(iv) for iv in ivs]
        for position, extent in enumerate(destination_layout.storage_shape):
            if extent is not None:
                leaves.ranges[position] = (0, extent - 1)
        logical = _logical_from_digits(destination_layout, digits)
        padded = [
            d for d, extent in enumerate(destination_layout.logical_shape)
            if extent is not None and extent % block_product(terms, d)
        ]
        if not padded:
            _move(source, source_layout, source_flat, destination, destination_layout,
                  destination_flat, logical, leaves, add, mode, digits)
            return
        emitter = IndexEmitter(leaves, add, mode)
        condition: SSAValue | None = None
        for d in padded:
            inside = arith.CmpiOp(
                emitter.emit(emitter.simplifier.simplify(logical[d])),
                emitter.emit(AffineExpr.constant(destination_layout.logical_shape[d])),  # type: ignore[arg-type]
                "ult",
            )
            add(inside)
            if condition is None:
                condition = inside.result
            else:
                both = arith.AndIOp(condition, inside.result)
                add(both)
                condition = both.result
        assert condition is not None
        then_block, else_block = Block(), Block()
        add(scf.IfOp(condition, [], Region(then_block), Region(else_block)))
        _move(source, source_layout, source_flat, destination, destination_layout,
              destination_flat, logical, leaves, then_block.add_op, mode, digits)
        then_block.add_op(scf.YieldOp())
        pad = constant_of(destination_layout.pad, element)
        else_block.add_op(pad)
        store_at = _digit_indices(destination_layout, digits, leaves, else_block.add_op, mode,
                                  destination_flat)
        else_block.add_op(memref.StoreOp.get(pad.result, destination, store_at))
        else_block.add_op(scf.YieldOp())

    nest.build(extents, blocked_body)


def _move(
    source: SSAValue,
    source_layout: Layout,
    source_flat: bool,
    destination: SSAValue,
    destination_layout: Layout,
    destination_flat: bool,
    logical: Sequence[AffineExpr],
    leaves: IndexLeaves,
    add: Insert,
    mode: IndexMode,
    digits: Sequence[AffineExpr] | None = None,
) -> None:
    load_at = access_indices(source_layout, logical, leaves, add, mode, source_flat)
    load = memref.LoadOp.get(source, load_at)
    add(load)
    if digits is not None:
        store_at = _digit_indices(destination_layout, digits, leaves, add, mode, destination_flat)
    else:
        store_at = access_indices(destination_layout, logical, leaves, add, mode, destination_flat)
    add(memref.StoreOp.get(load.res, destination, store_at))


def _digit_indices(
    layout: Layout,
    digits: Sequence[AffineExpr],
    leaves: IndexLeaves,
    add: Insert,
    mode: IndexMode,
    flatten: bool,
) -> list[SSAValue]:
    """The destination's own loop variables are its physical index (or its flat offset)."""
    if not flatten:
        return IndexEmitter(leaves, add, mode).emit_all(list(digits))
    offset: AffineExpr = AffineExpr.constant(0)
    for digit, extent in zip(digits, layout.storage_shape, strict=True):
        assert extent is not None
        offset = offset * extent + digit
    return IndexEmitter(leaves, add, mode).emit_all([offset])


def _logical_from_digits(layout: Layout, digits: Sequence[AffineExpr]) -> list[AffineExpr]:
    """Invert the digit model: each logical index is Σ digit · weight."""
    terms = layout.blocked_terms
    assert terms is not None
    logical: list[AffineExpr] = []
    for dim in range(layout.rank):
        total: AffineExpr = AffineExpr.constant(0)
        for position, term in enumerate(terms):
            if term.dim != dim:
                continue
            if term.size is None:
                weight = block_product(terms, dim)
            else:
                weight = math.prod(
                    t.size for t in terms[position + 1 :] if t.dim == dim and t.size is not None
                )
            total = total + digits[position] * weight
        logical.append(total)
    return logical
