"""Bit-packed destinations at memory speed: each integer container of a packed layout built
whole (its lanes gathered, bitcast into one word, stored once) instead of one
read-modify-write per lane. Lanes of a `memref<…xi1>` source are loaded one by one: such a
memref holds a byte per element, while LLVM lays a vector of i1 out as packed bits."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import DenseArrayBase, IntegerType, VectorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr

from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.layout.model import Layout
from heterolayout.passes.convert_tiles import ElementMove, Insert, _loop, branch_below
from heterolayout.passes.element_access import ElementAccess, integer_constant
from heterolayout.passes.index_code import IndexEmitter, IndexLeaves


def packs_whole_containers(source: Layout, destination: Layout) -> bool:
    """Whether containers can be built whole: integer containers over an unpacked source."""
    packing = destination.packing
    return (
        packing is not None
        and not packing.is_vector
        and source.packing is None
        and destination.blocked_terms is not None
        and not destination.is_dynamic
    )


def packed_convert(
    source: ElementAccess,
    destination: ElementAccess,
    padded: Sequence[int],
    logical_of: Callable[[Sequence[AffineExpr]], list[AffineExpr]],
    move: ElementMove,
    constant: Callable[[int], SSAValue],
    insert: Insert,
) -> None:
    """Each container of the destination from its lanes, gathered and bitcast into a word."""
    layout = destination.layout
    shape = layout.physical_shape
    lanes = shape[-1]
    assert lanes is not None and layout.dtype is not None

    for value in (0, 1, *shape):  # constants first: they must come before the loops
        assert value is not None
        constant(value)

    def container(ivs: list[SSAValue], add: Insert) -> None:
        leaves = IndexLeaves()
        digits = [leaves.leaf(iv) for iv in ivs]
        indices = [logical_of([*digits, AffineExpr.constant(j)]) for j in range(lanes)]
        inside = [(indices[-1][d], layout.logical_shape[d]) for d in padded]
        if not inside:
            _store_word(source, destination, indices, leaves, add)
            return

        def each(insert: Insert) -> None:
            for index in indices:
                move(index, leaves, insert)

        emitter = IndexEmitter(leaves, add, destination.mode, destination.scope)
        branch_below(
            emitter,
            inside,
            add,
            lambda insert: _store_word(source, destination, indices, leaves, insert),
            each,
        )

    def level(depth: int, ivs: list[SSAValue], add: Insert) -> None:
        if depth == len(shape) - 1:
            container(ivs, add)
            return
        extent = shape[depth]
        assert extent is not None
        _loop(0, extent, 1, constant, add, lambda iv, body: level(depth + 1, [*ivs, iv], body))

    level(0, [], insert)


def _store_word(
    source: ElementAccess,
    destination: ElementAccess,
    indices: Sequence[Sequence[AffineExpr]],
    leaves: IndexLeaves,
    add: Insert,
) -> None:
    layout = destination.layout
    packing = layout.packing
    assert packing is not None and layout.dtype is not None
    lanes, bits, width = len(indices), layout.dtype.bits, packing.container_bits
    element = destination.element
    values = [source.load(index, leaves, add) for index in indices]
    gathered = FromElementsOp(values, VectorType(element, [lanes]))
    add(gathered)
    lane_vector = gathered.result
    if packing.bit_order == "msb":
        reverse = list(reversed(range(lanes)))
        flipped = vector.ShuffleOp(
            lane_vector,
            lane_vector,
            DenseArrayBase.from_list(i64, reverse),
            result_type=VectorType(element, [lanes]),
        )
        add(flipped)
        lane_vector = flipped.result
    packed_type = IntegerType(lanes * bits)
    cast = vector.BitcastOp(lane_vector, VectorType(packed_type, [1]))
    add(cast)
    word_op: Operation = vector.ExtractOp(cast.result, [0], packed_type)
    add(word_op)
    word = word_op.results[0]
    container_type = IntegerType(width)
    if lanes * bits < width:
        widened = arith.ExtUIOp(word, container_type)
        add(widened)
        word = widened.result
        if packing.bit_order == "msb":
            shift = integer_constant(width - lanes * bits, width)
            shifted = arith.ShLIOp(word, shift.result)
            add(shift)
            add(shifted)
            word = shifted.result
    destination.store_container(word, indices[0], leaves, add)
