"""Conversions at memory speed: `layout.convert` as tiles of vector loads, in-register
transposes and vector stores.

The destination must be blocked (tags, chunked, plain), the layouts static and unpacked, and
the elements 8 to 64 bits wide. The Layout model says which logical dim walks each side's
memory with unit stride (`Layout.contiguous_run`): `store_dim` along the destination's
innermost physical dim, `load_dim` along the source's. The destination's physical dims are
walked in memory order, the innermost stepped by the vector width V; when the two dims
differ, the destination digit of `load_dim` (its weight-1 term) is stepped by V too and moved
just outside the innermost loop, so the loads of consecutive tiles share cache lines. A tile
is then V vector loads along `load_dim`, a V×V transpose in registers (log2 V stages of
two-input shuffles that swap off-diagonal blocks: unpack/shuffle/permute instructions), and V
vector stores along `store_dim`; with one dim it is a vector load and store. Tiles that reach
into the destination's padding, and the tails of dims V does not divide, move element by
element.

A packed destination with integer containers (bit-packed tensors) is built a container at a
time: its lanes are gathered, bitcast into one word and stored once, instead of one
read-modify-write per lane.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, scf, vector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerType,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr

from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.layout.model import Layout
from heterolayout.passes.element_access import ElementAccess, integer_constant
from heterolayout.passes.index_code import IndexEmitter, IndexLeaves

Insert = Callable[[Operation], None]
ElementMove = Callable[[Sequence[AffineExpr], IndexLeaves, Insert], None]
"""Moves one element (or stores the pad) at a logical index: the scalar path."""

VECTOR_BYTES = 32
"""Vector registers the tiles are sized for (AVX2; AVX-512 machines run them as well)."""


def element_bits(element: Attribute) -> int | None:
    """Bits of a scalar type that vectors hold whole in memory (8 to 64), else None."""
    if isinstance(element, IndexType):
        return 64
    bits = getattr(element, "bitwidth", None)
    if isinstance(element, IntegerType):
        bits = element.width.data
    return bits if bits in (8, 16, 32, 64) else None


@dataclass(frozen=True)
class TilePlan:
    width: int
    store_dim: int
    load_dim: int
    order: tuple[int, ...]
    """The destination's physical dims, outermost loop first."""
    steps: dict[int, int]
    """Physical dim → V, for the dims walked a vector at a time."""


def _weight_one_position(layout: Layout, dim: int) -> int:
    terms = layout.blocked_terms
    assert terms is not None
    return max(p for p, t in enumerate(terms) if t.dim == dim)


def tile_plan(source: Layout, destination: Layout, element: Attribute) -> TilePlan | None:
    """How to tile the conversion, or None when the scalar loop nest must do."""
    terms = destination.blocked_terms
    bits = element_bits(element)
    if (
        terms is None
        or bits is None
        or source.packing is not None
        or destination.packing is not None
        or source.is_dynamic
        or destination.is_dynamic
    ):
        return None
    load_run, store_run = source.contiguous_run, destination.contiguous_run
    store_position = len(terms) - 1
    if load_run is None or store_run is None or store_run.dim != terms[store_position].dim:
        return None
    store_dim, load_dim = store_run.dim, load_run.dim
    tiled = {store_position: store_dim}
    if load_dim != store_dim:
        tiled[_weight_one_position(destination, load_dim)] = load_dim
    width = VECTOR_BYTES * 8 // bits
    while width >= 2 and not _fits(source, destination, tiled, width):
        width //= 2
    if width < 2:
        return None
    order = [p for p in range(len(terms)) if p not in tiled] + sorted(
        tiled, key=lambda p: p == store_position
    )
    return TilePlan(width, store_dim, load_dim, tuple(order), dict.fromkeys(tiled, width))


def _fits(source: Layout, destination: Layout, tiled: dict[int, int], width: int) -> bool:
    """V-wide vectors start at multiples of V inside one run on both sides."""
    terms = destination.blocked_terms
    assert terms is not None
    for position, dim in tiled.items():
        extent = destination.physical_shape[position]
        assert extent is not None
        if extent % width if terms[position].size is not None else extent < width:
            return False
        run = source.contiguous_run
        assert run is not None
        if dim == run.dim and run.length % width and run.length != source.logical_shape[dim]:
            return False
    return True


def tiled_convert(
    source: ElementAccess,
    destination: ElementAccess,
    plan: TilePlan,
    padded: Sequence[int],
    logical_of: Callable[[Sequence[AffineExpr]], list[AffineExpr]],
    move: ElementMove,
    constant: Callable[[int], SSAValue],
    insert: Insert,
) -> None:
    """Emit the tiled loop nest of `plan` at `insert`."""
    shape = destination.layout.physical_shape
    logical_shape = destination.layout.logical_shape
    for extent in shape:  # constants first: they must come before the loops that use them
        assert extent is not None
        for value in (0, 1, plan.width, extent, extent - extent % plan.width):
            constant(value)

    def tile(ivs: dict[int, SSAValue], whole: dict[int, bool], add: Insert) -> None:
        if not all(whole.values()):
            _element_tile(ivs, whole, plan, logical_of, move, constant, add)
            return
        leaves = IndexLeaves()
        start = logical_of([leaves.leaf(ivs[p]) for p in range(len(shape))])
        reach = {plan.store_dim: plan.width - 1, plan.load_dim: plan.width - 1}
        inside = [(start[d] + reach.get(d, 0), logical_shape[d]) for d in padded]
        if not inside:
            _vector_tile(source, destination, plan, start, leaves, add)
            return
        condition = _all_below(inside, leaves, destination, add)
        then_block, else_block = Block(), Block()
        add(scf.IfOp(condition, [], Region(then_block), Region(else_block)))
        _vector_tile(source, destination, plan, start, leaves, then_block.add_op)
        then_block.add_op(scf.YieldOp())
        _element_tile(ivs, whole, plan, logical_of, move, constant, else_block.add_op)
        else_block.add_op(scf.YieldOp())

    def level(depth: int, ivs: dict[int, SSAValue], whole: dict[int, bool], add: Insert) -> None:
        if depth == len(plan.order):
            tile(ivs, whole, add)
            return
        position = plan.order[depth]
        extent = shape[position]
        assert extent is not None
        step = plan.steps.get(position)
        if step is None:
            _loop(
                0,
                extent,
                1,
                constant,
                add,
                lambda iv, body: level(depth + 1, {**ivs, position: iv}, whole, body),
            )
            return
        main = extent - extent % step
        if main:
            _loop(
                0,
                main,
                step,
                constant,
                add,
                lambda iv, body: level(
                    depth + 1, {**ivs, position: iv}, {**whole, position: True}, body
                ),
            )
        if main < extent:
            _loop(
                main,
                extent,
                1,
                constant,
                add,
                lambda iv, body: level(
                    depth + 1, {**ivs, position: iv}, {**whole, position: False}, body
                ),
            )

    level(0, {}, {}, insert)


def _loop(
    low: int,
    high: int,
    step: int,
    constant: Callable[[int], SSAValue],
    add: Insert,
    body: Callable[[SSAValue, Insert], None],
) -> None:
    block = Block(arg_types=[IndexType()])
    add(scf.ForOp(constant(low), constant(high), constant(step), [], Region(block)))
    body(block.args[0], block.add_op)
    block.add_op(scf.YieldOp())


def _element_tile(
    ivs: dict[int, SSAValue],
    whole: dict[int, bool],
    plan: TilePlan,
    logical_of: Callable[[Sequence[AffineExpr]], list[AffineExpr]],
    move: ElementMove,
    constant: Callable[[int], SSAValue],
    add: Insert,
) -> None:
    """The elements of a tile one by one: loops over the V positions of its whole dims."""
    inner = [p for p, full in whole.items() if full]

    def nest(depth: int, offsets: dict[int, SSAValue], body: Insert) -> None:
        if depth < len(inner):
            _loop(
                0,
                plan.width,
                1,
                constant,
                body,
                lambda iv, b: nest(depth + 1, {**offsets, inner[depth]: iv}, b),
            )
            return
        leaves = IndexLeaves()
        digits = [
            leaves.leaf(ivs[p]) + (leaves.leaf(offsets[p]) if p in offsets else 0)
            for p in range(len(ivs))
        ]
        move(logical_of(digits), leaves, body)

    nest(0, {}, add)


def _all_below(
    pairs: Sequence[tuple[AffineExpr, int | None]],
    leaves: IndexLeaves,
    access: ElementAccess,
    add: Insert,
) -> SSAValue:
    emitter = IndexEmitter(leaves, add, access.mode, access.scope)
    condition: SSAValue | None = None
    for value, bound in pairs:
        assert bound is not None
        below = arith.CmpiOp(
            emitter.emit(emitter.best_form(value)), emitter.emit(AffineExpr.constant(bound)), "ult"
        )
        add(below)
        if condition is None:
            condition = below.result
        else:
            both = arith.AndIOp(condition, below.result)
            add(both)
            condition = both.result
    assert condition is not None
    return condition


def _shifted(index: Sequence[AffineExpr], dim: int, by: int) -> list[AffineExpr]:
    return [e + by if d == dim else e for d, e in enumerate(index)]


def _vector_tile(
    source: ElementAccess,
    destination: ElementAccess,
    plan: TilePlan,
    start: Sequence[AffineExpr],
    leaves: IndexLeaves,
    add: Insert,
) -> None:
    width = plan.width
    if plan.load_dim == plan.store_dim:
        value = source.load_vector(start, leaves, add, width)
        destination.store_vector(value, start, leaves, add)
        return
    rows = [
        source.load_vector(_shifted(start, plan.store_dim, j), leaves, add, width)
        for j in range(width)
    ]
    for k, column in enumerate(transpose(rows, add)):
        destination.store_vector(column, _shifted(start, plan.load_dim, k), leaves, add)


def transpose(rows: Sequence[SSAValue], add: Insert) -> list[SSAValue]:
    """Transpose V vectors of V lanes (V a power of two): stage s swaps the off-diagonal
    blocks of size 2^s between row pairs (i, i + 2^s) with two shuffles each."""
    width = len(rows)
    current = list(rows)
    size = 1
    while size < width:
        low = [j if not j & size else width + j - size for j in range(width)]
        high = [j + size if not j & size else width + j for j in range(width)]
        for i in range(width):
            if i & size:
                continue
            a, b = current[i], current[i + size]
            kind = a.type
            assert isinstance(kind, VectorType)
            first = vector.ShuffleOp(a, b, DenseArrayBase.from_list(i64, low), result_type=kind)
            second = vector.ShuffleOp(a, b, DenseArrayBase.from_list(i64, high), result_type=kind)
            add(first)
            add(second)
            current[i], current[i + size] = first.result, second.result
        size *= 2
    return current


# ---- packed destinations --------------------------------------------------------------------
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
        condition = _all_below(inside, leaves, destination, add)
        then_block, else_block = Block(), Block()
        add(scf.IfOp(condition, [], Region(then_block), Region(else_block)))
        _store_word(source, destination, indices, leaves, then_block.add_op)
        then_block.add_op(scf.YieldOp())
        for index in indices:
            move(index, leaves, else_block.add_op)
        else_block.add_op(scf.YieldOp())

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
