"""Whole-container packed accesses (`container_access`), traced lane by lane.

A vector access that covers the first lanes of one packed container becomes one container
load or store and moves of lanes: `vector.broadcast` of the word, `vector.bitcast` into its
lanes, `vector.shuffle` to pick or place them, `vector.extract` of the word. Each lane of
the vector is followed through those ops bit by bit (a bitcast keeps bit p at bit p, lane 0
lowest) to the container access and the bit (integer container) or position (vector
container) it reaches: one `Lane` per vector lane, proven like a scalar access. A store
writes the container's other lanes too: each must be pad (`validation_pads`) and get the
layout's pad value; bits past the last lane hold no element and may get anything.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, VectorType
from xdsl.ir import Attribute, Operation, SSAValue

from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.passes.validate.domain import Access, Lane
from heterolayout.passes.validate.ops import (
    LOADS,
    STORES,
    indices_of,
    new_ops,
    on_buffer,
    owner,
)
from heterolayout.passes.validate.pads import Pad
from heterolayout.passes.validate.terms import TermReader, constant


@dataclass(frozen=True)
class Traced:
    """Bit `bit` of the root value `value`."""

    value: SSAValue
    bit: int


def bits_of(type_: Attribute) -> int:
    element = type_.element_type if isinstance(type_, VectorType) else type_
    return getattr(element, "bitwidth", 0)


def trace(
    value: SSAValue, bit: int, span: int, is_root: Callable[[SSAValue], bool]
) -> Traced | float | str:
    """Where the `span` bits of `value` from bit `bit` (one element) come from: a root value
    and the bit in it, a constant's element (its value; bits a zero extension or a left
    shift fills read 0), or why they cannot be followed (the bits would come apart)."""
    while not is_root(value):
        step = _step(value, bit, span)
        if not isinstance(step, tuple):
            return step
        value, bit = step
    return Traced(value, bit)


def _within(bit: int, span: int, width: int) -> bool:
    return bit // width == (bit + span - 1) // width


def _step(value: SSAValue, bit: int, span: int) -> tuple[SSAValue, int] | float | str:
    """One op back: where the bits of `value` come from in the op's operand."""
    op, width = owner(value), bits_of(value.type)
    if width == 0 or op is None:
        return f"a lane comes from {value}, not from a traced op"
    lane, inner = divmod(bit, width)
    if isinstance(op, (vector.ShuffleOp, FromElementsOp, arith.ConstantOp)) and not _within(
        bit, span, width
    ):
        return f"an element spans two lanes of {op.name}"
    if isinstance(op, vector.ShuffleOp):
        chosen, first = op.mask.get_values()[lane], op.v1.type.get_shape()[0]  # type: ignore[attr-defined]
        if chosen < 0:
            return f"lane {lane} of a vector.shuffle is poison"
        if chosen < first:
            return op.v1, chosen * width + inner
        return op.v2, (chosen - first) * width + inner
    if isinstance(op, FromElementsOp):
        return op.operands[lane], inner
    if isinstance(op, vector.BitcastOp):
        return op.source, bit
    if isinstance(op, vector.BroadcastOp):
        source = op.source
        if isinstance(source.type, VectorType) and source.type.get_shape() != (1,):
            return "a vector.broadcast of a vector of more than one lane"
        return (source, inner) if _within(bit, span, width) else "an element spans two copies"
    if isinstance(op, vector.ExtractOp):
        position = list(op.static_position.iter_values())
        if len(position) != 1 or position[0] < 0:
            return "a vector.extract at a computed position"
        return op.vector, position[0] * width + bit
    if isinstance(op, arith.ExtUIOp):
        return _filled(op.input, bit, span, 0, bits_of(op.input.type))
    if isinstance(op, arith.ShLIOp) and isinstance(by := _integer(op.rhs), int):
        return _filled(op.lhs, bit, span, by, width)
    if isinstance(op, arith.ConstantOp):
        return _constant_element(op, lane, inner)
    return f"a lane comes from {op.name}, not from the container"


def _filled(
    source: SSAValue, bit: int, span: int, low: int, high: int
) -> tuple[SSAValue, int] | float | str:
    """Bits [low, high) of a value come from `source` (from its bit 0), the others are 0."""
    if low <= bit and bit + span <= high:
        return source, bit - low
    if bit + span <= low or bit >= high:
        return 0
    return "an element is partly filled with zeros"


def _constant_element(op: arith.ConstantOp, lane: int, inner: int) -> float | str:
    if inner:
        return f"bit {inner} of a constant's lane"
    if isinstance(op.value, (IntegerAttr, FloatAttr)):
        return op.value.value.data
    if isinstance(op.value, DenseIntOrFPElementsAttr):
        values = op.value.get_values()
        return values[0] if len(values) == 1 else values[lane]
    return "a lane comes from a constant of another kind"


def _integer(value: SSAValue) -> int | None:
    op = owner(value)
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def slot_selector(access: Access, bit: int) -> int | None:
    """What `Lane.lane` holds for the slot at `bit` of the container: the bit offset in an
    integer container, the position in a vector container (None: not a slot's first bit)."""
    packing = access.layout.packing
    assert packing is not None and access.layout.dtype is not None
    if not packing.is_vector:
        return bit
    position, inner = divmod(bit, access.layout.dtype.bits)
    return None if inner else position


def container_slots(access: Access) -> tuple[int, int]:
    """The container's element slots, and how many of them hold lanes."""
    layout = access.layout
    packing, lanes = layout.packing, layout.physical_shape[-1]
    assert packing is not None and lanes is not None and layout.dtype is not None
    if packing.is_vector:
        return lanes, lanes
    return packing.container_bits // layout.dtype.bits, lanes


def slot_bit(access: Access, slot: int) -> int:
    """The first bit of slot `slot` of an integer container (the element position in a
    vector container): MSB-first lanes fill from the top, so in a container wider than its
    slots (i57 of 8 x i7) the unused bits are the lowest and every slot starts above them."""
    packing, bits = access.layout.packing, access.layout.dtype.bits  # type: ignore[union-attr]
    assert packing is not None
    slack = 0 if packing.is_vector or packing.bit_order != "msb" else packing.container_bits % bits
    return slack + slot * bits


def lane_at(access: Access, slot: int) -> int:
    """The lane index the layout puts in slot `slot` (MSB-first fills from the top)."""
    packing = access.layout.packing
    assert packing is not None
    slots, _ = container_slots(access)
    return slots - 1 - slot if packing.bit_order == "msb" and not packing.is_vector else slot


def load_lanes(access: Access, ops: list[Operation], reader: TermReader) -> list[Lane] | str:
    """The container slot each lane of the loaded vector comes from."""
    result = ops[-1].results[0] if ops[-1].results else None
    bits = access.layout.dtype.bits  # type: ignore[union-attr]
    if (
        result is None
        or not isinstance(result.type, VectorType)
        or result.type.get_shape() != (access.length,)
        or bits_of(result.type) != bits
    ):
        return "a whole-container load does not end in a vector of the access's lanes"

    def is_root(value: SSAValue) -> bool:
        return on_buffer(owner(value), access) and isinstance(owner(value), LOADS)

    lanes: list[Lane] = []
    for t in range(access.length):
        found = trace(result, t * bits, bits, is_root)
        if isinstance(found, (int, float)):
            return f"lane {t} of the loaded vector is a constant, not loaded"
        if isinstance(found, str):
            return f"lane {t} of the loaded vector: {found}"
        selector = slot_selector(access, found.bit)
        if selector is None:
            return f"lane {t} of the loaded vector starts inside a lane of the container"
        load = owner(found.value)
        assert load is not None
        lanes.append(Lane(t, indices_of(load, reader), constant(selector)))
    return lanes


def store_lanes(
    access: Access, ops: list[Operation], reader: TermReader
) -> tuple[list[Lane], list[Pad]] | str:
    """The container slot each lane of the stored vector goes to, and the slots written
    with pad."""
    stores = [op for op in ops if isinstance(op, STORES) and on_buffer(op, access)]
    if len(stores) != 1:
        return f"a whole-container store writes the buffer {len(stores)} times, not once"
    (store,) = stores
    physical = indices_of(store, reader)
    slots, lane_count = container_slots(access)
    bits = access.layout.dtype.bits  # type: ignore[union-attr]
    assert access.stored is not None
    if bits_of(access.stored.type) != bits:
        return "the stored vector's lanes are not the layout's elements"
    lanes: dict[int, Lane] = {}
    pads: list[Pad] = []
    for slot in range(slots):
        found = trace(store.operands[0], slot_bit(access, slot), bits, lambda v: v is access.stored)
        lane = lane_at(access, slot)
        if isinstance(found, Traced):
            t, inner = divmod(found.bit, bits)
            if inner:
                return f"slot {slot} of the stored container starts inside lane {t} of the vector"
            if t in lanes:
                return f"lane {t} of the stored vector is written to two slots of the container"
            lanes[t] = Lane(t, physical, constant(slot_selector(access, slot_bit(access, slot))))  # type: ignore[arg-type]
        elif lane >= lane_count:  # bits past the last lane: no element lives there
            continue
        elif isinstance(found, str):
            return f"slot {slot} of the stored container: {found}"
        elif not _is_pad(found, access):
            return f"lane {lane} of the stored container gets {found}, not the pad value {access.layout.pad}"
        else:
            pads.append(Pad(physical, lane))
    missing = sorted(set(range(access.length)) - lanes.keys())
    if missing:
        return f"lane {missing[0]} of the stored vector is never stored"
    return [lanes[t] for t in sorted(lanes)], pads


def _is_pad(value: float, access: Access) -> bool:
    """Whether a constant lane is the layout's pad value (integers compared in the
    element's bits: an i1 `true` reads -1)."""
    pad, bits = access.layout.pad, access.layout.dtype.bits  # type: ignore[union-attr]
    if isinstance(value, int) and float(pad).is_integer():
        return (value - int(pad)) % (1 << bits) == 0
    return float(value) == float(pad) or (math.isnan(value) and math.isnan(pad))


def container_lanes(access: Access) -> tuple[list[Lane], list[Pad]] | str:
    """Every lane of a whole-container access and the container slot it reaches, and for
    a store the lanes written with pad; or what could not be traced."""
    ops = new_ops(access)
    if not ops:
        return "the rewrite left no op in its place"
    reader = TermReader()
    if access.is_load:
        lanes = load_lanes(access, ops, reader)
        return lanes if isinstance(lanes, str) else (lanes, [])
    return store_lanes(access, ops, reader)
