"""Bit-packed destinations at memory speed: each integer container of a packed layout built
whole (its lanes gathered, bitcast into one word, stored once) instead of one
read-modify-write per lane.

Where the lanes of consecutive containers lie in one run of the source's innermost physical
dim (NHWC → NHWC8c), a group of containers is built from one vector load: `vector<G·Lxi1>`
bitcast into `vector<Gxi8>` and stored as one vector (the native engine reads a
`memref<…xi1>`'s bytes as i8 and truncates, which LLVM turns into `pmovmskb`). Otherwise the
lanes are loaded one by one. Groups that reach into the destination's padding go container
by container; a container that does is built whole too, each lane the source's element or
the pad (`_store_partial_word`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerType,
    VectorType,
    i64,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr

from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.layout.model import Layout
from heterolayout.passes.convert.loop_nest import Insert, constant_loop
from heterolayout.passes.convert.tiles import (
    all_below,
    branch_below,
    innermost_dim,
    load_dim_of,
    runs_fit,
)
from heterolayout.passes.index.index_code import IndexEmitter, IndexLeaves
from heterolayout.passes.packed.element_access import (
    ElementAccess,
    integer_constant,
    scalar_constant,
)

GROUP_LANES = 64
"""Lanes loaded at once for a group of containers: two AVX2 registers of bytes."""


def packs_whole_containers(source: Layout, destination: Layout) -> bool:
    """Whether containers can be built whole: integer or vector containers over an unpacked
    source."""
    packing = destination.packing
    return (
        packing is not None
        and source.packing is None
        and destination.blocked_terms is not None
        and not destination.is_dynamic
    )


@dataclass(frozen=True)
class Grouping:
    group: int
    """G: containers built from one vector, consecutive along the innermost storage dim."""
    vector_loads: bool
    """Whether a container's lanes are one vector load (else one load per lane)."""


def grouping(source: Layout, destination: Layout) -> Grouping:
    """How many containers to build at once, and whether their lanes load as vectors: the
    lanes' dim must be the source's load dim, its vectors fitting the source's runs."""
    terms = destination.blocked_terms
    shape = destination.physical_shape
    lanes = shape[-1]
    assert terms is not None and lanes is not None
    dim = innermost_dim(destination)
    if dim is None or load_dim_of(source) != dim or not runs_fit(source, dim, lanes):
        return Grouping(1, False)
    digits = destination.dim_digits(dim) or ()
    packing, dtype = destination.packing, destination.dtype
    assert packing is not None and dtype is not None
    if packing.is_vector:
        return Grouping(1, True)  # a vector container is stored as the lanes loaded
    containers = shape[-2] if len(shape) > 1 else None
    if (
        containers is None
        or (len(shape) - 2, lanes) not in digits
        or lanes * dtype.bits != packing.container_bits
    ):
        return Grouping(1, True)
    group = 1
    while (
        group * 2 * lanes <= GROUP_LANES
        and containers % (group * 2) == 0
        and runs_fit(source, dim, group * 2 * lanes)
    ):
        group *= 2
    return Grouping(group, True)


def packed_convert(
    source: ElementAccess,
    destination: ElementAccess,
    padded: Sequence[int],
    logical_of: Callable[[Sequence[AffineExpr]], list[AffineExpr]],
    constant: Callable[[int], SSAValue],
    insert: Insert,
) -> None:
    """Each container of the destination from its lanes, gathered and bitcast into a word
    (groups of G containers at once where `grouping` allows)."""
    layout = destination.layout
    shape = layout.physical_shape
    lanes = shape[-1]
    assert lanes is not None and layout.dtype is not None
    plan = grouping(source.layout, layout)
    steps = {len(shape) - 2: plan.group} if plan.group > 1 else {}

    for value in (0, 1, plan.group, *shape):  # constants first: they must come before the loops
        assert value is not None
        constant(value)

    def containers(digits: list[AffineExpr], count: int, leaves: IndexLeaves, add: Insert) -> None:
        """`count` containers from the one at `digits` on, along the innermost storage dim."""
        indices = [
            logical_of([*digits[:-1], digits[-1] + g, AffineExpr.constant(j)])
            for g in range(count)
            for j in range(lanes)
        ]
        inside = [(indices[-1][d], layout.logical_shape[d]) for d in padded]

        def whole(insert: Insert) -> None:
            _store_words(source, destination, indices, count, plan.vector_loads, leaves, insert)

        def parts(insert: Insert) -> None:
            if count == 1:
                _store_partial_word(source, destination, indices, padded, leaves, insert)
                return
            for g in range(count):
                containers([*digits[:-1], digits[-1] + g], 1, leaves, insert)

        if not inside:
            whole(add)
            return
        emitter = IndexEmitter(leaves, add, destination.mode, destination.scope)
        branch_below(emitter, inside, add, whole, parts)

    def level(depth: int, ivs: list[SSAValue], add: Insert) -> None:
        if depth == len(shape) - 1:
            leaves = IndexLeaves()
            containers([leaves.leaf(iv) for iv in ivs], plan.group, leaves, add)
            return
        extent = shape[depth]
        assert extent is not None
        step = steps.get(depth, 1)
        constant_loop(
            0, extent, step, constant, add, lambda iv, body: level(depth + 1, [*ivs, iv], body)
        )

    level(0, [], insert)


def _store_partial_word(
    source: ElementAccess,
    destination: ElementAccess,
    indices: Sequence[Sequence[AffineExpr]],
    padded: Sequence[int],
    leaves: IndexLeaves,
    add: Insert,
) -> None:
    """A container that reaches past the logical shape, built whole: each lane the source's
    element where its index is inside the logical shape and the pad beyond (an `scf.if`
    yielding one or the other), gathered, and the word stored once. Not one read-modify-write
    of the container per lane: LLVM 22's `-O3` for AVX-512 CPUs (SimplifyCFG) turned such a
    chain of bit-lane updates into a container that took lane 0's bit for lane 1 (fuzz seed
    560192, a `pack = vector<5xi1>` layout with a short last block)."""
    layout = destination.layout
    element = destination.element
    values: list[SSAValue] = []
    for index in indices:
        inside = all_below(
            IndexEmitter(leaves, add, destination.mode, destination.scope),
            [(index[d], layout.logical_shape[d]) for d in padded],
            add,
        )
        then_block, else_block = Block(), Block()
        then_block.add_op(scf.YieldOp(source.load(index, leaves, then_block.add_op)))
        pad = scalar_constant(layout.pad, element)
        else_block.add_op(pad)
        else_block.add_op(scf.YieldOp(pad.result))
        lane = scf.IfOp(inside, [element], Region(then_block), Region(else_block))
        add(lane)
        values.append(lane.results[0])
    gathered = FromElementsOp(values, VectorType(element, [len(values)]))
    add(gathered)
    _store_lane_vector(destination, gathered.result, indices, 1, leaves, add)


def _store_words(
    source: ElementAccess,
    destination: ElementAccess,
    indices: Sequence[Sequence[AffineExpr]],
    count: int,
    vector_loads: bool,
    leaves: IndexLeaves,
    add: Insert,
) -> None:
    """`count` whole containers from their lanes (`indices`, container by container)."""
    total = len(indices)
    lane_type = VectorType(destination.element, [total])
    if vector_loads:
        lane_vector = source.load_vector(indices[0], leaves, add, total)
    else:
        values = [source.load(index, leaves, add) for index in indices]
        gathered = FromElementsOp(values, lane_type)
        add(gathered)
        lane_vector = gathered.result
    _store_lane_vector(destination, lane_vector, indices, count, leaves, add)


def _store_lane_vector(
    destination: ElementAccess,
    lane_vector: SSAValue,
    indices: Sequence[Sequence[AffineExpr]],
    count: int,
    leaves: IndexLeaves,
    add: Insert,
) -> None:
    """`count` containers' lanes, in order, into their words, stored."""
    from xdsl.dialects import vector

    layout = destination.layout
    packing = layout.packing
    assert packing is not None and layout.dtype is not None
    total, bits = len(indices), layout.dtype.bits
    lanes = total // count
    lane_type = VectorType(destination.element, [total])
    if packing.is_vector:
        destination.store_container(lane_vector, indices[0], leaves, add)
        return
    if packing.bit_order == "msb":
        reverse = [g * lanes + lanes - 1 - j for g in range(count) for j in range(lanes)]
        flipped = vector.ShuffleOp(
            lane_vector, lane_vector, DenseArrayBase.from_list(i64, reverse), result_type=lane_type
        )
        add(flipped)
        lane_vector = flipped.result
    width = packing.container_bits
    packed_type = IntegerType(lanes * bits)
    cast = vector.BitcastOp(lane_vector, VectorType(packed_type, [count]))
    add(cast)
    if count > 1:
        assert lanes * bits == width, "`grouping` groups only containers the lanes fill"
        destination.store_containers(cast.result, indices[0], leaves, add)
        return
    word_op: Operation = vector.ExtractOp(cast.result, [0], packed_type)
    add(word_op)
    word = word_op.results[0]
    if lanes * bits < width:
        widened = arith.ExtUIOp(word, IntegerType(width))
        add(widened)
        word = widened.result
        if packing.bit_order == "msb":
            shift = integer_constant(width - lanes * bits, width)
            shifted = arith.ShLIOp(word, shift.result)
            add(shift)
            add(shifted)
            word = shifted.result
    destination.store_container(word, indices[0], leaves, add)
