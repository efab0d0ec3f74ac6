"""Tiled conversions (`convert_tiles`, `convert_packed`), traced element by element.

A conversion into a large destination is lowered to tiles: vector loads of the source,
lanes moved in registers (`vector.shuffle` transposes, `vector.from_elements`,
`vector.broadcast` of the pad, `vector.bitcast` into or out of packed containers), and
vector or container stores of the destination. Each element a store writes (a lane of a
stored vector, at the store's index plus the lane along the last physical dim; a slot of a
stored container) is followed back through those ops (`validation_containers.trace`) to
the source element it comes from (a lane of a vector load, a slot of a container load, a
scalar load) or to a constant (the pad); a lane an `scf.if` yields (a partial container's:
the source element, or the pad) is two moves, each under that condition, taken or not. Those
moves are then checked like a loop nest's
(`validation_conversions.check_conversion`): each logical element moved exactly once from
its source slot to its destination slot, the pad on pad slots only.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import Operation, SSAValue

from heterolayout.passes.validate.containers import (
    Traced,
    bits_of,
    container_slots,
    lane_at,
    slot_bit,
    slot_selector,
    trace,
)
from heterolayout.passes.validate.conversions import Conversion
from heterolayout.passes.validate.domain import Access, Lane
from heterolayout.passes.validate.ops import (
    LOADS,
    STORES,
    VECTOR_LOADS,
    VECTOR_STORES,
    indices_of,
    on_buffer,
    owner,
)
from heterolayout.passes.validate.terms import Term, TermReader, constant

Moved = list[tuple[Lane, Lane | None, list[tuple[Term, bool]]]]
"""What a store writes: each element, the source element it comes from (None: the pad), and
the `scf.if` conditions it is chosen under (a lane of a partial container: the element
where it is inside the logical shape, the pad beyond)."""


def _along_last(indices: list[Term], t: int) -> list[Term]:
    """The index of lane t of a vector access at `indices` (it runs along the last dim)."""
    return [*indices[:-1], indices[-1] + t] if t else indices


def _written(op: Operation, destination: Access, reader: TermReader) -> list[tuple[Lane, int]]:
    """Each element a store of the destination writes, and the bit of the stored value
    where it starts."""
    indices = indices_of(op, reader)
    value = op.operands[0]
    width = bits_of(value.type)
    places = [(indices, 0)]
    if isinstance(op, VECTOR_STORES):
        length = value.type.get_shape()[0]  # type: ignore[attr-defined]
        places = [(_along_last(indices, t), t * width) for t in range(length)]
        if not _stores_containers(value, destination):
            return [(Lane(0, place), bit) for place, bit in places]
    if destination.layout.packing is None:
        return [(Lane(0, indices), 0)]
    slots, lanes = container_slots(destination)
    written = []
    for place, base in places:  # each container stored (several for a vector of them)
        for slot in range(slots):
            if lane_at(destination, slot) < lanes:  # bits past the last lane hold no element
                selector = slot_selector(destination, slot_bit(destination, slot))
                lane = Lane(0, place, constant(selector))  # type: ignore[arg-type]
                written.append((lane, base + slot_bit(destination, slot)))
    return written


def _stores_containers(value: SSAValue, destination: Access) -> bool:
    """Whether a vector stored into a packed destination is a vector of its integer
    containers (a group of whole containers), not a vector of elements."""
    packing = destination.layout.packing
    element = getattr(value.type, "element_type", None)
    return (
        packing is not None
        and not packing.is_vector
        and isinstance(element, IntegerType)
        and element.width.data == packing.container_bits
    )


def _element_bits(layout_bits: int | None, value: SSAValue) -> int:
    return layout_bits if layout_bits is not None else bits_of(value.type)


def _read(found: Traced, span: int, source: Access, reader: TermReader) -> Lane | str:
    """The source element the traced `span` bits are."""
    load = owner(found.value)
    assert load is not None
    indices = indices_of(load, reader)
    width = bits_of(found.value.type)
    if source.layout.packing is not None and not isinstance(load, VECTOR_LOADS):
        width = _element_bits(
            source.layout.dtype.bits if source.layout.dtype else None, found.value
        )
        selector = slot_selector(source, found.bit)
        if selector is None or width != span:
            return "a stored element is not one lane of a source container"
        return Lane(0, indices, constant(selector))
    lane, inner = divmod(found.bit, width) if width else (0, found.bit)
    if inner or width != span:
        return "a stored element is not one element of the source"
    if isinstance(load, VECTOR_LOADS):
        return Lane(0, _along_last(indices, lane))
    return Lane(0, indices) if lane == 0 else "a stored element is not one element of the source"


def tile_moves(op: Operation, conversion: Conversion, reader: TermReader) -> Moved | str | None:
    """The elements a store of the destination writes and where each comes from (None for
    a constant: the pad), or what could not be traced; None for any other op."""
    destination, source = conversion.destination, conversion.source
    if not (isinstance(op, STORES + VECTOR_STORES) and on_buffer(op, destination)):
        return None

    def is_root(value: SSAValue) -> bool:
        load = owner(value)
        return isinstance(load, LOADS + VECTOR_LOADS) and on_buffer(load, source)

    def is_chosen(value: SSAValue) -> bool:
        return is_root(value) or isinstance(owner(value), scf.IfOp)

    moved: Moved = []
    layout = destination.layout
    span = _element_bits(layout.dtype.bits if layout.dtype else None, op.operands[0])
    for written, bit in _written(op, destination, reader):
        found = trace(op.operands[0], bit, span, is_chosen)
        choice = owner(found.value) if isinstance(found, Traced) else None
        if not isinstance(choice, scf.IfOp):
            traced = _traced(found, span, source, reader)
            if isinstance(traced, str):
                return traced
            moved.append((written, traced, []))
            continue
        assert isinstance(found, Traced)
        condition = reader.term_of(choice.cond)
        for region, taken in ((choice.true_region, True), (choice.false_region, False)):
            yielded = region.block.last_op
            assert yielded is not None
            value = yielded.operands[choice.results.index(found.value)]
            traced = _traced(trace(value, found.bit, span, is_root), span, source, reader)
            if isinstance(traced, str):
                return traced
            moved.append((written, traced, [(condition, taken)]))
    return moved


def _traced(
    found: Traced | float | str, span: int, source: Access, reader: TermReader
) -> Lane | str | None:
    """The source element a traced element is (None: a constant, the pad)."""
    if isinstance(found, str):
        return f"an element stored into the destination: {found}"
    if not isinstance(found, Traced):
        return None
    return _read(found, span, source, reader)
