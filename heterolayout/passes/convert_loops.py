"""Loop nests that move data between layouts: `layout.convert`, `memref.copy` across
layouts, and the pad fill of a new physical buffer.

A convert walks the destination in its memory order. For a blocked destination the loops
run over its physical dims and rebuild each logical index from its digits, so the index code
simplifies to plain sums on the source side and to the loop variables on the destination
side; pad slots receive the pad value. Other destinations are pre-filled with their pad and
walked in logical order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr

from heterolayout.layout.blocked import block_product
from heterolayout.layout.model import Layout
from heterolayout.passes.convert_packed import packed_convert, packs_whole_containers
from heterolayout.passes.convert_tiles import Tiles, branch_below, tile_plan
from heterolayout.passes.element_access import ElementAccess, pad_constant, scalar_constant
from heterolayout.passes.index_code import IndexEmitter, IndexLeaves

Insert = Callable[[Operation], None]

VECTOR_MIN_SLOTS = 4096
"""Conversions into fewer destination slots keep the compact scalar loop nest: tiles would
multiply the code for a few microseconds."""


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
            owner = iv.owner
            assert isinstance(owner, Block)
            owner.add_op(scf.YieldOp())


def _appender(block: Block) -> Insert:
    return block.add_op


def extents_of(
    layout: Layout, physical: SSAValue, physical_dims: bool, nest: LoopNest, insert: Insert
) -> list[SSAValue]:
    """Loop extents: the physical dims (lanes included), or the logical dims, of a buffer."""
    shape = layout.physical_shape if physical_dims else layout.logical_shape
    values = []
    for position, extent in enumerate(shape):
        if extent is not None:
            values.append(nest.index(extent))
            continue
        physical_position = position if physical_dims else _bare_position(layout, position)
        dim = memref.DimOp(physical, nest.index(physical_position))
        insert(dim)
        values.append(dim.result)
    return values


def _bare_position(layout: Layout, dim: int) -> int:
    return layout.index_map.results.index(AffineExpr.dimension(dim))


def fill(physical: SSAValue, layout: Layout, insert: Insert) -> None:
    """Store the all-pad slot value into every slot of a physical buffer, in memory order."""
    nest = LoopNest(insert)
    constant = pad_constant(layout, physical.type.element_type)  # type: ignore[attr-defined]
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
    dim = memref.DimOp(physical, nest.index(position))
    insert(dim)
    return dim.result


def convert(
    source: ElementAccess,
    destination: ElementAccess,
    insert: Insert,
) -> None:
    """Copy the logical contents of one physical buffer into another. Into a destination of
    at least `VECTOR_MIN_SLOTS` slots: tiles of vectors (`convert_tiles`) where both layouts
    have unit-stride runs that fit, whole packed containers where the destination packs
    integers; otherwise the scalar loop nest in the destination's memory order."""
    nest = LoopNest(insert)
    layout = destination.layout
    terms = layout.blocked_terms
    if terms is None:
        if layout.has_pad_slots:
            fill(destination.buffer, layout, insert)
        extents = extents_of(layout, destination.buffer, False, nest, insert)

        def logical_body(ivs: list[SSAValue], add: Insert) -> None:
            leaves = IndexLeaves()
            logical = [leaves.leaf(iv) for iv in ivs]
            _move(source, destination, logical, leaves, add)

        nest.build(extents, logical_body)
        return

    padded = [
        d
        for d, extent in enumerate(layout.logical_shape)
        if extent is not None and extent % block_product(terms, d)
    ]

    def move(logical: Sequence[AffineExpr], leaves: IndexLeaves, add: Insert) -> None:
        _move_or_pad(source, destination, logical, leaves, add, padded)

    def logical_of(digits: Sequence[AffineExpr]) -> list[AffineExpr]:
        return _logical_from_digits(layout, digits)

    large = not layout.is_dynamic and layout.size >= VECTOR_MIN_SLOTS
    plan = tile_plan(source.layout, layout, destination.element) if large else None
    if plan is not None:
        Tiles(source, destination, plan, padded, logical_of, move, nest.index).emit(insert)
        return
    if large and packs_whole_containers(source.layout, layout):
        packed_convert(source, destination, padded, logical_of, move, nest.index, insert)
        return
    extents = extents_of(layout, destination.buffer, True, nest, insert)

    def blocked_body(ivs: list[SSAValue], add: Insert) -> None:
        leaves = IndexLeaves()
        move(logical_of([leaves.leaf(iv) for iv in ivs]), leaves, add)

    nest.build(extents, blocked_body)


def _move_or_pad(
    source: ElementAccess,
    destination: ElementAccess,
    logical: Sequence[AffineExpr],
    leaves: IndexLeaves,
    add: Insert,
    padded: Sequence[int],
) -> None:
    """One element of a blocked destination: moved when its logical index is inside the
    logical shape, the pad value otherwise."""
    layout = destination.layout
    if not padded:
        _move(source, destination, logical, leaves, add)
        return
    pairs = [(logical[d], layout.logical_shape[d]) for d in padded]

    def pad(insert: Insert) -> None:
        constant = scalar_constant(layout.pad, destination.element)
        insert(constant)
        destination.store(constant.result, logical, leaves, insert)

    branch_below(
        IndexEmitter(leaves, add, destination.mode),
        pairs,
        add,
        lambda insert: _move(source, destination, logical, leaves, insert),
        pad,
    )


def _move(
    source: ElementAccess,
    destination: ElementAccess,
    logical: Sequence[AffineExpr],
    leaves: IndexLeaves,
    add: Insert,
) -> None:
    value = source.load(logical, leaves, add)
    destination.store(value, logical, leaves, add)


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
