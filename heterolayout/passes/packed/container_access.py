"""Whole containers of a packed buffer as vectors of lanes.

A one-dim transfer along the packed dim that starts at lane 0 of a container and stays in
it (what `layout-schedule` emits for word-level code) is one container load and a
`vector.bitcast` (integer containers) into its lanes, or one container store of lanes
bitcast back. A shorter transfer reads the first lanes (a `vector.shuffle` keeps them: the
mask of a partial container); it is stored whole only when the lanes after it are pad (the
dim ends there), the pad lanes then getting the pad value. Anything else returns None, and
the caller goes lane by lane.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerType,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr

from heterolayout.layout.model import Layout
from heterolayout.layout.simplify import IndexSimplifier
from heterolayout.passes.index.index_code import IndexLeaves
from heterolayout.passes.packed.element_access import ElementAccess, Insert


def whole_container(
    layout: Layout,
    logical: Sequence[AffineExpr],
    leaves: IndexLeaves,
    dim: int,
    length: int,
    store: bool,
) -> bool:
    """Lanes `logical[dim] + t`, t < length, are lanes 0 … length-1 of one container (and,
    for a store shorter than the container, the container's other lanes are pad)."""
    packing, lane = layout.packing, layout.lane_expr
    lanes = layout.physical_shape[-1]
    if packing is None or lane is None or lanes is None or length > lanes:
        return False
    if layout.dtype is None or (
        not packing.is_vector and packing.container_bits % layout.dtype.bits
    ):
        return False
    strided, ranges = leaves.strided()
    position = max([len(leaves.values) - 1, *ranges]) + 1
    t = AffineExpr.dimension(position)
    ranges[position] = (0, length - 1)
    simplifier = IndexSimplifier(ranges)
    start = [e.replace_dims_and_symbols(strided, []) for e in logical]
    shifted = list(start)
    shifted[dim] = start[dim] + t
    for result in layout.storage_exprs():
        moved = result.replace_dims_and_symbols(shifted, [])
        if simplifier.simplify(
            moved + result.replace_dims_and_symbols(start, []) * -1
        ) != AffineExpr.constant(0):
            return False
    if simplifier.simplify(lane.replace_dims_and_symbols(shifted, [])) != t:
        return False
    if not store or length == lanes:
        return True
    end = layout.logical_shape[dim]
    return simplifier.range_of(start[dim] + length) == (end, end)


def _lane_type(layout: Layout, element: Attribute) -> tuple[VectorType, list[int]]:
    """The vector a container is viewed as, and where each lane sits in it."""
    packing, lanes = layout.packing, layout.physical_shape[-1]
    assert packing is not None and lanes is not None and layout.dtype is not None
    if packing.is_vector:
        return VectorType(element, [lanes]), list(range(lanes))
    slots = packing.container_bits // layout.dtype.bits
    order = range(lanes) if packing.bit_order == "lsb" else range(slots - 1, slots - 1 - lanes, -1)
    return VectorType(element, [slots]), list(order)


def load_lanes(
    access: ElementAccess,
    logical: Sequence[AffineExpr],
    leaves: IndexLeaves,
    length: int,
    insert: Insert,
) -> SSAValue:
    """The first `length` lanes of the container holding `logical`, as one vector."""
    layout = access.layout
    view, positions = _lane_type(layout, access.element)
    value = access.load_container(logical, leaves, insert)
    if not isinstance(value.type, VectorType):
        value = _add(insert, vector.BroadcastOp(value, VectorType(value.type, [1]))).results[0]
        value = _add(insert, vector.BitcastOp(value, view)).results[0]
    positions = positions[:length]
    if positions == list(range(view.get_shape()[0])):
        return value
    mask = DenseArrayBase.from_list(i64, positions)
    result = VectorType(access.element, [length])
    return _add(insert, vector.ShuffleOp(value, value, mask, result_type=result)).results[0]


def store_lanes(
    access: ElementAccess,
    value: SSAValue,
    logical: Sequence[AffineExpr],
    leaves: IndexLeaves,
    insert: Insert,
) -> None:
    """Store `value` as the first lanes of the container holding `logical`, the rest pad."""
    layout = access.layout
    assert isinstance(value.type, VectorType)
    length = value.type.get_shape()[0]
    view, positions = _lane_type(layout, access.element)
    slots = view.get_shape()[0]
    if positions[:length] != list(range(slots)):
        where = {p: lane for lane, p in enumerate(positions[:length])}
        padding = value  # a whole container only reorders its lanes (MSB first)
        if len(where) < slots:
            pad = int(layout.pad) if isinstance(access.element, IntegerType) else layout.pad
            filler: list[int | float] = [0] * slots
            for position in positions:
                filler[position] = pad
            padding = _add(insert, _dense(view, filler)).results[0]
        mask = [where.get(p, length + p) for p in range(slots)]
        shuffle = vector.ShuffleOp(
            value, padding, DenseArrayBase.from_list(i64, mask), result_type=view
        )
        value = _add(insert, shuffle).results[0]
    packing = layout.packing
    assert packing is not None
    if not packing.is_vector:
        word = IntegerType(packing.container_bits)
        value = _add(insert, vector.BitcastOp(value, VectorType(word, [1]))).results[0]
        value = _add(insert, vector.ExtractOp(value, [0], word)).results[0]
    access.store_container(value, logical, leaves, insert)


def _dense(view: VectorType, values: list[int | float]) -> Operation:
    return arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(view, values))  # type: ignore[type-var, arg-type]


def _add(insert: Insert, op: Operation) -> Operation:
    insert(op)
    return op
