"""Loop nests that move data between layouts: `layout.convert`, `memref.copy` across
layouts, and the pad fill of a new physical buffer.

A convert walks the destination in its memory order. For a blocked destination the loops
run over its physical dims and rebuild each logical index from its digits, so the index code
simplifies to plain sums on the source side and to the loop variables on the destination
side; pad slots receive the pad value. Other destinations are pre-filled with their pad and
walked in logical order.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import memref
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineExpr

from heterolayout.layout.model import Layout
from heterolayout.passes.convert.loop_nest import Insert, LoopNest
from heterolayout.passes.convert.packed import packed_convert, packs_whole_containers
from heterolayout.passes.convert.tiles import Tiles, branch_below, tile_plan
from heterolayout.passes.index.index_code import IndexEmitter, IndexLeaves
from heterolayout.passes.index.logical_sizes import logical_size, size_source
from heterolayout.passes.packed.element_access import ElementAccess, pad_constant, scalar_constant

VECTOR_MIN_SLOTS = 4096
"""Conversions into fewer destination slots keep the compact scalar loop nest: tiles would
multiply the code for a few microseconds."""


def extents_of(
    layout: Layout, physical: SSAValue, physical_dims: bool, nest: LoopNest, insert: Insert
) -> list[SSAValue]:
    """Loop extents: the physical dims (lanes included), or the logical dims, of a buffer."""
    shape = layout.physical_shape if physical_dims else layout.logical_shape
    values = []
    for position, extent in enumerate(shape):
        if extent is not None:
            values.append(nest.index(extent))
        elif physical_dims:
            values.append(_dynamic_extent(physical, position, nest, insert))
        else:
            values.append(logical_size(physical, layout, position, nest.index, insert))
    return values


def fill(
    physical: SSAValue,
    layout: Layout,
    insert: Insert,
    *,
    storage: Attribute | None = None,
    shape: Sequence[int | None] | None = None,
) -> None:
    """Store the all-pad slot value into every slot of a physical buffer, in memory order.
    `storage` (the element type) and `shape` default to the buffer's type; give them while
    the buffer still has its logical type (`layout-lower` rewrites uses before types)."""
    nest = LoopNest(insert)
    element = physical.type.element_type if storage is None else storage  # type: ignore[attr-defined]
    constant = pad_constant(layout, element)
    insert(constant)
    extents_shape = physical.type.get_shape() if shape is None else shape  # type: ignore[attr-defined]
    extents = [
        nest.index(e) if e is not None and e >= 0 else _dynamic_extent(physical, p, nest, insert)
        for p, e in enumerate(extents_shape)
    ]

    def body(ivs: list[SSAValue], add: Insert) -> None:
        add(memref.StoreOp.get(constant.result, physical, ivs))

    nest.build(extents, body)


def _logical_extents(
    source: ElementAccess, destination: ElementAccess, nest: LoopNest, insert: Insert
) -> list[SSAValue]:
    """The logical extents of a conversion, each `?` size from whichever side holds it."""
    return [
        nest.index(extent)
        if extent is not None
        else _logical_size(source, destination, dim, nest, insert)
        for dim, extent in enumerate(destination.layout.logical_shape)
    ]


def _logical_size(
    source: ElementAccess, destination: ElementAccess, dim: int, nest: LoopNest, insert: Insert
) -> SSAValue:
    side = destination
    if size_source(destination.buffer, destination.layout, dim) is None:
        side = source
    return logical_size(side.buffer, side.layout, dim, nest.index, insert)


def _dynamic_extent(physical: SSAValue, position: int, nest: LoopNest, insert: Insert) -> SSAValue:
    dim = memref.DimOp(physical, nest.index(position))
    insert(dim)
    return dim.result


def convert(
    source: ElementAccess,
    destination: ElementAccess,
    insert: Insert,
    grid: bool = False,
) -> None:
    """Copy the logical contents of one physical buffer into another. Into a destination of
    at least `VECTOR_MIN_SLOTS` slots: tiles of vectors (`convert_tiles`) where both layouts
    have unit-stride runs that fit, whole packed containers where the destination packs
    integers; otherwise the scalar loop nest in the destination's memory order. With `grid`:
    that nest on a `gpu.launch` whose threads are the destination's slots (`convert_grid`;
    blocked destinations only)."""
    nest = LoopNest(insert)
    layout = destination.layout
    terms = layout.blocked_terms
    if grid:
        from heterolayout.passes.convert.grid import GridNest

        assert terms is not None, "layout-lower checks that a GPU conversion is blocked"
        lanes = len(layout.physical_shape) - len(layout.storage_shape)
        nest = GridNest(insert, layout.physical_shape, lanes)
    if terms is None:
        if layout.has_pad_slots:
            shape = (layout.storage_size,) if destination.flat else layout.storage_shape
            fill(destination.buffer, layout, insert, storage=destination.storage, shape=shape)
        extents = _logical_extents(source, destination, nest, insert)

        def logical_body(ivs: list[SSAValue], add: Insert) -> None:
            leaves = IndexLeaves()
            logical = [leaves.leaf(iv) for iv in ivs]
            _move(source, destination, logical, leaves, add)

        nest.build(extents, logical_body)
        return

    inverse = layout.inverse()
    digits_to_logical = inverse.index_map
    assert digits_to_logical is not None
    padded = inverse.pad_dims()
    sizes = {
        d: _logical_size(source, destination, d, nest, insert)
        for d in padded
        if layout.logical_shape[d] is None
    }

    def move(logical: Sequence[AffineExpr], leaves: IndexLeaves, add: Insert) -> None:
        bounds = [
            (logical[d], leaves.leaf(sizes[d]) if d in sizes else layout.logical_shape[d])
            for d in padded
        ]
        _move_or_pad(source, destination, logical, leaves, add, bounds)

    def logical_of(digits: Sequence[AffineExpr]) -> list[AffineExpr]:
        return [r.replace_dims_and_symbols(list(digits), []) for r in digits_to_logical.results]

    large = not grid and not layout.is_dynamic and layout.size >= VECTOR_MIN_SLOTS
    plan = tile_plan(source.layout, layout, destination.element) if large else None
    if plan is not None:
        Tiles(source, destination, plan, padded, logical_of, move, nest.index).emit(insert)
        return
    if large and packs_whole_containers(source.layout, layout):
        packed_convert(source, destination, padded, logical_of, nest.index, insert)
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
    pairs: Sequence[tuple[AffineExpr, int | AffineExpr | None]],
) -> None:
    """One element of a blocked destination: moved when its logical index is inside the
    logical shape (each index of a padded dim below its extent: `pairs`), the pad value
    otherwise."""
    layout = destination.layout
    if not pairs:
        _move(source, destination, logical, leaves, add)
        return

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
