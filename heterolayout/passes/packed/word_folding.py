"""Integer words instead of vectors of lanes, where lanes only pass through bitwise ops.

Word-level code views a container as `vector<L x i1>` (a `vector.bitcast` of the loaded
word) so that it keeps the program's lane semantics. Where the lanes only meet xor/and/or
and go back to a word (for `math.ctpop` or a store), these patterns move the bitwise ops
onto the words themselves: `xori(bitcast a, bitcast b)` is `bitcast(xori(a, b))`, a splat of
true is the all-ones word, the first n lanes of an LSB-first word are its `trunci` to `in`
(the mask of a partial container), and one-element vectors become scalars. What is left is
what the hand-written kernel says: load, xor, ctpop.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.dead_code_elimination import region_dce

from heterolayout.dialects.arith_ops import BITWISE


def _splat(value: SSAValue) -> int | None:
    """The lane value of a constant splat vector of i1 (0 or 1), else None."""
    op = value.owner
    if not isinstance(op, arith.ConstantOp) or not isinstance(op.value, DenseIntOrFPElementsAttr):
        return None
    element = value.type.element_type  # type: ignore[attr-defined]
    values = set(op.value.get_values())
    if element != IntegerType(1) or len(values) != 1:
        return None
    return 1 if values.pop() else 0


def _splat_of(kind: int, like: VectorType, rewriter: PatternRewriter, at: Operation) -> SSAValue:
    """All-zero or all-one bits in the type of `like`."""
    element = like.element_type
    assert isinstance(element, IntegerType)
    value = -kind if element.width.data > 1 else kind
    dense = DenseIntOrFPElementsAttr.from_list(like, [value] * math.prod(like.get_shape()))  # type: ignore[type-var]
    constant = arith.ConstantOp(dense)  # type: ignore[arg-type]
    rewriter.insert(constant, InsertPoint.before(at))
    return constant.result


def _bitwise(like: Operation, operands: list[SSAValue]) -> Operation:
    """The bitwise op `like` is, on `operands` (same type, which the result takes)."""
    return type(like).create(operands=operands, result_types=[operands[0].type])


class BitwiseOfBitcasts(RewritePattern):
    """`op(bitcast a, bitcast b)` → `bitcast(op(a, b))`; a splat operand becomes a splat of
    the source type. The same through one shuffle: `op(shuffle(a, m), shuffle(b, m))` →
    `shuffle(op(a, b), m)`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, BITWISE) or not isinstance(op.result.type, VectorType):
            return
        if op.result.type.element_type != IntegerType(1):
            return
        for through in (vector.BitcastOp, vector.ShuffleOp):
            sources = _sources(op, through)
            if sources is None:
                continue
            source_type = next(s.type for s in sources if isinstance(s, SSAValue))
            assert isinstance(source_type, VectorType)
            operands = [
                s if isinstance(s, SSAValue) else _splat_of(s, source_type, rewriter, op)
                for s in sources
            ]
            inner = _bitwise(op, operands)
            rewriter.insert(inner, InsertPoint.before(op))
            if through is vector.BitcastOp:
                outer: Operation = vector.BitcastOp(inner.results[0], op.result.type)
            else:
                shuffle = next(
                    o.owner for o in op.operands if isinstance(o.owner, vector.ShuffleOp)
                )
                outer = vector.ShuffleOp(
                    inner.results[0], inner.results[0], shuffle.mask, result_type=op.result.type
                )
            rewriter.replace(op, outer)
            return


def _sources(op: Operation, through: type[Operation]) -> list[SSAValue | int] | None:
    """Each operand's source through `through` (splats as 0/1), when all share one type."""
    sources: list[SSAValue | int] = []
    masks = set()
    for operand in op.operands:
        owner = operand.owner
        if isinstance(owner, through):
            if isinstance(owner, vector.ShuffleOp):
                if owner.v1 is not owner.v2:
                    return None
                masks.add(tuple(owner.mask.get_values()))
            sources.append(owner.operands[0])
            continue
        kind = _splat(operand)
        if kind is None:
            return None
        sources.append(kind)
    typed = {s.type for s in sources if isinstance(s, SSAValue)}
    if len(typed) != 1 or len(masks) > 1:
        return None
    (source_type,) = typed
    if not isinstance(source_type, VectorType) or not isinstance(
        source_type.element_type, IntegerType
    ):
        return None
    if through is vector.BitcastOp and source_type.element_type.width.data == 1:
        return None
    return sources


class BitcastOfBitwise(RewritePattern):
    """Lanes combined and bitcast into one word: the words combined
    (`bitcast(xori(a, b))` → `xori(bitcast a, bitcast b)` on `vector<1 x iL>`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BitcastOp, rewriter: PatternRewriter) -> None:
        inner = op.source.owner
        result = op.result.type
        if not isinstance(inner, BITWISE) or len(list(inner.result.uses)) != 1:
            return
        if inner.result.type.element_type != IntegerType(1) or math.prod(result.get_shape()) != 1:  # type: ignore[union-attr]
            return
        operands: list[SSAValue] = []
        for operand in inner.operands:
            kind = _splat(operand)
            if kind is not None:
                operands.append(_splat_of(kind, result, rewriter, op))
                continue
            cast = vector.BitcastOp(operand, result)
            rewriter.insert(cast, InsertPoint.before(op))
            operands.append(cast.result)
        rewriter.replace(op, _bitwise(inner, operands))


class ExtractOfBitwise(RewritePattern):
    """The one element of a bitwise op on one-element vectors: the op on the elements."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ExtractOp, rewriter: PatternRewriter) -> None:
        inner = op.vector.owner
        if not isinstance(inner, BITWISE) or op.dynamic_position:
            return
        if math.prod(inner.result.type.get_shape()) != 1:  # type: ignore[union-attr]
            return
        scalars: list[SSAValue] = []
        for operand in inner.operands:
            extract = vector.ExtractOp(
                operand, list(op.static_position.get_values()), op.result.type
            )
            rewriter.insert(extract, InsertPoint.before(op))
            scalars.append(extract.result)
        rewriter.replace(op, _bitwise(inner, scalars))


class ExtractOfConstant(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ExtractOp, rewriter: PatternRewriter) -> None:
        owner = op.vector.owner
        if not isinstance(owner, arith.ConstantOp) or op.dynamic_position:
            return
        if not isinstance(owner.value, DenseIntOrFPElementsAttr):
            return
        values = owner.value.get_values()
        if len(set(values)) != 1 or not isinstance(op.result.type, IntegerType):
            return
        rewriter.replace(op, arith.ConstantOp(IntegerAttr(values[0], op.result.type)))


class BitcastOfBitcast(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BitcastOp, rewriter: PatternRewriter) -> None:
        inner = op.source.owner
        if not isinstance(inner, vector.BitcastOp):
            return
        if inner.source.type == op.result.type:
            rewriter.replace(op, [], [inner.source])
        else:
            rewriter.replace(op, vector.BitcastOp(inner.source, op.result.type))


class BitwiseOfBroadcasts(RewritePattern):
    """Bitwise ops on one-element vectors of scalars are scalar ops."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, BITWISE) or not isinstance(op.result.type, VectorType):
            return
        if math.prod(op.result.type.get_shape()) != 1:
            return
        scalars: list[SSAValue] = []
        for operand in op.operands:
            owner = operand.owner
            if isinstance(owner, vector.BroadcastOp) and not isinstance(
                owner.source.type, VectorType
            ):
                scalars.append(owner.source)
                continue
            if isinstance(owner, arith.ConstantOp) and isinstance(
                owner.value, DenseIntOrFPElementsAttr
            ):
                (value,) = owner.value.get_values()
                constant = arith.ConstantOp(IntegerAttr(value, op.result.type.element_type))  # type: ignore[call-overload]
                rewriter.insert(constant, InsertPoint.before(op))
                scalars.append(constant.result)
                continue
            return
        scalar = _bitwise(op, scalars)
        rewriter.insert(scalar, InsertPoint.before(op))
        rewriter.replace(op, vector.BroadcastOp(scalar.results[0], op.result.type))


class ExtractOfBroadcast(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ExtractOp, rewriter: PatternRewriter) -> None:
        owner = op.vector.owner
        if (
            isinstance(owner, vector.BroadcastOp)
            and owner.source.type == op.result.type
            and not op.dynamic_position
        ):
            rewriter.replace(op, [], [owner.source])


class PrefixOfWord(RewritePattern):
    """The first n lanes of an LSB-first word, back as an n-bit word: `trunci` to `in`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BitcastOp, rewriter: PatternRewriter) -> None:
        shuffle = op.source.owner
        result = op.result.type
        if not isinstance(shuffle, vector.ShuffleOp) or shuffle.v1 is not shuffle.v2:
            return
        lanes = shuffle.v1.owner
        if not isinstance(lanes, vector.BitcastOp) or not isinstance(
            lanes.source.owner, vector.BroadcastOp
        ):
            return
        word = lanes.source.owner.source
        n = shuffle.result.type.get_shape()[0]
        if (
            tuple(shuffle.mask.get_values()) != tuple(range(n))
            or lanes.result.type.element_type != IntegerType(1)
            or result != VectorType(IntegerType(n), [1])
            or not isinstance(word.type, IntegerType)
        ):
            return
        truncated = arith.TruncIOp(word, IntegerType(n))
        rewriter.insert(truncated, InsertPoint.before(op))
        rewriter.replace(op, vector.BroadcastOp(truncated.result, result))


PATTERNS = (
    BitwiseOfBitcasts(),
    BitcastOfBitwise(),
    ExtractOfBitwise(),
    ExtractOfConstant(),
    BitcastOfBitcast(),
    BitwiseOfBroadcasts(),
    ExtractOfBroadcast(),
    PrefixOfWord(),
)


def fold_words(op: Operation) -> None:
    """Apply the patterns (dead ops go with the walker's erasure of unused pure ops)."""
    walker = PatternRewriteWalker(GreedyRewritePatternApplier(list(PATTERNS)))
    for region in op.regions:
        walker.rewrite_region(region)
        region_dce(region)
    _erase_dead_lanes(op)


LANE_OPS = (vector.BroadcastOp, vector.BitcastOp, vector.ShuffleOp, vector.ExtractOp)
"""Ops these patterns leave unused, without side effects (xDSL 0.74 does not mark them pure,
so dead-code elimination keeps them)."""


def _erase_dead_lanes(op: Operation) -> None:
    worklist = [o for o in op.walk() if isinstance(o, LANE_OPS)]
    while worklist:
        dead = worklist.pop()
        if dead.parent is None or any(r.uses for r in dead.results):
            continue
        owners = [o.owner for o in dead.operands if isinstance(o.owner, Operation)]
        Rewriter.erase_op(dead)
        worklist.extend(o for o in owners if isinstance(o, (*LANE_OPS, arith.ConstantOp, *BITWISE)))  # type: ignore[misc]
