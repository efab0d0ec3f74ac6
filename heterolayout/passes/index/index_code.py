"""Index code: read a program's index values as affine expressions, and emit new ones.

`IndexLeaves` walks an index SSA value back through `arith.constant/addi/subi/muli` and
`affine.apply` to leaves (loop induction variables, arguments, anything else), recording
each leaf's range where a loop's bounds (a loop variable never goes below a constant lower
bound), a GPU launch's sizes or a view's window (`view_folding`) give it. `IndexEmitter`
turns simplified
expressions over those leaves into `arith` ops (unsigned division where the operand is
provably non-negative, floor semantics otherwise) or `affine.apply`.

A module's accesses repeat the same index forms over the same loop bounds, so the choice of
form (`best_form`) is memoised on the expression, the leaves' ranges and their loop bounds,
and the emitted values are shared between accesses (`IndexValues`): the lowered module comes
out without the duplicates a later common-subexpression pass would have to find.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Literal

from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsolatedFromAbove

from heterolayout.dialects.arith_ops import DIVISIONS, constant_index
from heterolayout.layout.simplify import IndexSimplifier, Range, RangesKey, ranges_key
from heterolayout.passes.index.gpu_ranges import gpu_id_range
from heterolayout.passes.index.upstream_folds import divides_a_mod

IndexMode = Literal["arith", "affine"]
INDEX = IndexType()
LoopBounds = tuple[int, int, int]


def loop_range(value: SSAValue) -> Range | None:
    """Inclusive range of a loop induction variable with constant bounds."""
    bounds = loop_bounds(value)
    return None if bounds is None else (bounds[0], bounds[1])


def loop_bounds(value: SSAValue) -> LoopBounds | None:
    """(first, last, step) of a loop induction variable with constant bounds."""
    block = value.owner
    if not isinstance(value, BlockArgument) or value.index != 0:
        return None
    assert isinstance(block, Block)
    loop = block.parent_op()
    bounds: tuple[int | None, int | None, int | None]
    if isinstance(loop, scf.ForOp):
        bounds = (constant_index(loop.lb), constant_index(loop.ub), constant_index(loop.step))
    elif isinstance(loop, affine.ForOp):
        bounds = (
            _constant_map(loop.lowerBoundMap.data, min),
            _constant_map(loop.upperBoundMap.data, max),
            loop.step.value.data,
        )
    else:
        return None
    low, high, step = bounds
    if low is None or high is None or step is None or step <= 0 or high <= low:
        return None
    return low, low + (high - low - 1) // step * step, step


def _first_of_loop(value: SSAValue) -> int | None:
    """The constant first value of a loop variable whose loop runs to a run-time bound
    (`scf.for %i = %c0 to %n`): the body sees it and larger values only (a signed index:
    at most 2^63 - 1), so division and remainder by constants can be unsigned."""
    if not isinstance(value, BlockArgument) or value.index != 0:
        return None
    loop = value.block.parent_op()
    if not isinstance(loop, scf.ForOp):
        return None
    low, step = constant_index(loop.lb), constant_index(loop.step)
    if low is None or step is None or step <= 0 or low < 0:
        return None
    return low


def _constant_map(index_map: AffineMap, pick: Callable[..., int]) -> int | None:
    values = [r.value for r in index_map.results if isinstance(r, AffineConstantExpr)]
    if not values or len(values) != len(index_map.results):
        return None
    return pick(values)


class IndexLeaves:
    """The leaves of one access's index expressions, with their ranges."""

    def __init__(self, facts: Mapping[SSAValue, Range] | None = None) -> None:
        self.values: list[SSAValue] = []
        self.bounds: list[LoopBounds | None] = []
        """`loop_bounds` of each leaf."""
        self.ranges: dict[int, Range] = {}
        self._positions: dict[SSAValue, int] = {}
        self._facts = facts or {}
        """Ranges known of values at this access alone (a view's offsets, `view_folding`)."""

    def leaf(self, value: SSAValue) -> AffineExpr:
        position = self._positions.get(value)
        if position is None:
            position = self._positions[value] = len(self.values)
            self.values.append(value)
            bounds = loop_bounds(value)
            self.bounds.append(bounds)
            if bounds is not None:
                self.ranges[position] = (bounds[0], bounds[1])
            elif (ids := gpu_id_range(value)) is not None:
                self.ranges[position] = ids
            elif (low := _first_of_loop(value)) is not None:
                self.ranges[position] = (low, 2**63 - 1)
            fact = self._facts.get(value)
            if fact is not None:
                low, high = self.ranges.get(position, fact)
                self.ranges[position] = (max(low, fact[0]), min(high, fact[1]))
        return AffineExpr.dimension(position)

    def recover(self, value: SSAValue) -> AffineExpr:
        owner = value.owner
        constant = constant_index(value)
        if constant is not None:
            return AffineExpr.constant(constant)
        if isinstance(owner, (arith.AddiOp, arith.SubiOp, arith.MuliOp)):
            lhs, rhs = self.recover(owner.lhs), self.recover(owner.rhs)
            if isinstance(owner, arith.AddiOp):
                return lhs + rhs
            if isinstance(owner, arith.SubiOp):
                return lhs + rhs * -1
            if isinstance(rhs, AffineConstantExpr) or isinstance(lhs, AffineConstantExpr):
                return lhs * rhs
        if isinstance(owner, affine.ApplyOp):
            operands = [self.recover(o) for o in owner.mapOperands]
            return self.substitute(owner.map.data, operands)[0]
        if isinstance(owner, DIVISIONS):
            divided = self._division(owner)
            if divided is not None:
                return divided
        return self.leaf(value)

    def _division(self, op: Operation) -> AffineExpr | None:
        """Division and remainder by a positive constant, as floordiv/mod: always for the
        floor forms, and for unsigned and truncating ones when the dividend is provably
        non-negative (where all of them agree)."""
        lhs_value, rhs_value = op.operands
        divisor = constant_index(rhs_value)
        if divisor is None or divisor <= 0:
            return None
        lhs = self.recover(lhs_value)
        floor_form = isinstance(op, (arith.FloorDivSIOp, arith.CeilDivSIOp))
        if not floor_form:
            bounds = self.simplifier().range_of(lhs)
            if bounds is None or bounds[0] < 0:
                return None
        if isinstance(op, (arith.DivUIOp, arith.DivSIOp, arith.FloorDivSIOp)):
            return lhs // divisor
        if isinstance(op, (arith.CeilDivUIOp, arith.CeilDivSIOp)):
            return lhs.ceil_div(divisor)
        return lhs % divisor

    def map_results(self, index_map: AffineMap, operands: Sequence[SSAValue]) -> list[AffineExpr]:
        """An affine op's access map over its operands (each operand a leaf, unrecovered:
        the operands of affine ops must stay valid affine dims and symbols)."""
        return self.substitute(index_map, [self.leaf(o) for o in operands])

    @staticmethod
    def substitute(index_map: AffineMap, operands: Sequence[AffineExpr]) -> list[AffineExpr]:
        dims, symbols = operands[: index_map.num_dims], operands[index_map.num_dims :]
        return [r.replace_dims_and_symbols(dims, symbols) for r in index_map.results]

    def bound_bare_indices(self, exprs: Sequence[AffineExpr], shape: Sequence[int | None]) -> None:
        """An index used as it is into a dim of extent D lies in [0, D) (else the access is
        undefined), which bounds leaves that no loop bounds."""
        for expr, extent in zip(exprs, shape, strict=True):
            if isinstance(expr, AffineDimExpr) and expr.position not in self.ranges:
                self.ranges[expr.position] = (0, extent - 1) if extent is not None else (0, 2**62)

    def simplifier(self) -> IndexSimplifier:
        return IndexSimplifier(self.ranges)

    def strided(self) -> tuple[list[AffineExpr], dict[int, Range]]:
        """Each leaf as an expression that shows its stride: a loop variable stepping by s
        from b is `b + s·k` with a fresh dim k counting iterations. Proofs about alignment
        (a vector that stays inside a block) need this; emitted code does not."""
        return _strided(self.ranges, self.bounds)


def _strided(
    leaf_ranges: dict[int, Range], leaf_bounds: Sequence[LoopBounds | None]
) -> tuple[list[AffineExpr], dict[int, Range]]:
    exprs: list[AffineExpr] = []
    ranges = dict(leaf_ranges)
    fresh = len(leaf_bounds)
    for position, bounds in enumerate(leaf_bounds):
        if bounds is None or bounds[2] == 1:
            exprs.append(AffineExpr.dimension(position))
            continue
        first, last, step = bounds
        exprs.append(AffineExpr.dimension(fresh) * step + first)
        ranges[fresh] = (0, (last - first) // step)
        fresh += 1
    return exprs, ranges


def cost(expr: AffineExpr) -> int:
    """Ops the expression takes, divisions and remainders weighing most."""
    if not isinstance(expr, AffineBinaryOpExpr):
        return 0
    weight = 1 if expr.kind in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul) else 4
    return weight + cost(expr.lhs) + cost(expr.rhs)


ValueKey = tuple[object, ...]
"""An emitted op as its kind, its properties and its operands: equal keys, equal values."""


class IndexValues:
    """The index values a lowering has emitted so far, shared by all its accesses.

    Accesses are lowered in program order (a pre-order walk), each inserting its index code
    just before itself. So a value emitted for an earlier access dominates every later access
    in the same block or in a block nested in it, and is reused there; constants go to the top
    of the function (or of the `gpu.launch` body), where they dominate everything. Reuse is by value numbering: the same op
    kind on the same operand values, which is right whatever expression asked for it.
    """

    def __init__(self) -> None:
        self._blocks: dict[Block, dict[ValueKey, SSAValue]] = {}
        self._last_constant: dict[Block, Operation] = {}

    def scope(self, access: Operation) -> IndexScope:
        """The values visible at `access`, and where its new ones are recorded."""
        chain: list[dict[ValueKey, SSAValue]] = []
        block = access.parent_block()
        top = block
        while block is not None:
            chain.append(self._blocks.setdefault(block, {}))
            top = block
            owner = block.parent_op()
            if owner is None or owner.has_trait(IsolatedFromAbove) or owner.name == "gpu.launch":
                break  # a gpu.launch body becomes a kernel: it keeps its own index values
            block = owner.parent_block()
        assert top is not None, f"{access.name} is not in a block"
        return IndexScope(self, chain, top)

    def note_constant(self, op: arith.ConstantOp) -> None:
        """An integer constant of the program itself, met in program order: reused like ours."""
        block = op.parent_block()
        if block is not None and isinstance(op.value, IntegerAttr):
            key = _constant_key(op.value.value.data, op.result.type)
            self._blocks.setdefault(block, {}).setdefault(key, op.result)

    def insert_constant(
        self, top: Block, value: int, value_type: IntegerType | IndexType
    ) -> SSAValue:
        constant = _constant_op(value, value_type)
        last = self._last_constant.get(top)
        point = InsertPoint.at_start(top) if last is None else InsertPoint.after(last)
        Rewriter.insert_op(constant, point)
        self._last_constant[top] = constant
        return constant.result


class IndexScope:
    """`IndexValues` as one access sees them: its own block first, then the enclosing ones
    up to the function's body (`top`, where new constants go)."""

    def __init__(
        self, values: IndexValues, chain: list[dict[ValueKey, SSAValue]], top: Block
    ) -> None:
        self._values = values
        self._chain = chain
        self._top = top

    def find(self, key: ValueKey) -> SSAValue | None:
        for known in self._chain:
            value = known.get(key)
            if value is not None:
                return value
        return None

    def record(self, key: ValueKey, value: SSAValue) -> None:
        self._chain[0][key] = value

    def constant(self, value: int, value_type: IntegerType | IndexType = INDEX) -> SSAValue:
        key = _constant_key(value, value_type)
        found = self.find(key)
        if found is None:
            found = self._values.insert_constant(self._top, value, value_type)
            self._chain[-1][key] = found
        return found


def _constant_key(value: int, value_type: Attribute) -> ValueKey:
    return (arith.ConstantOp, value, value_type)


def _constant_op(value: int, value_type: IntegerType | IndexType) -> arith.ConstantOp:
    attribute = _index_attr(value) if value_type == INDEX else IntegerAttr(value, value_type)
    return arith.ConstantOp.create(properties={"value": attribute}, result_types=[value_type])


class IndexEmitter:
    """Emits index expressions over `leaves`; `insert` places each new op before the access.
    With a `scope`, values another access already emitted are reused and constants go to the
    top of the function."""

    def __init__(
        self,
        leaves: IndexLeaves,
        insert: Callable[[Operation], object],
        mode: IndexMode = "arith",
        scope: IndexScope | None = None,
    ) -> None:
        self.leaves = leaves
        self.insert = insert
        self.mode = mode
        self.scope = scope
        self.simplifier = leaves.simplifier()
        self._emitted: dict[AffineExpr, SSAValue] = {}

    def emit_all(self, exprs: Sequence[AffineExpr]) -> list[SSAValue]:
        return [self.emit(self.best_form(e)) for e in exprs]

    def best_form(self, expr: AffineExpr) -> AffineExpr:
        """The cheaper of the expression simplified as it is, and simplified with every
        stepping loop variable written `first + step·k` (which knows its alignment) and then
        rewritten back in the loop variable."""
        return _best_form(
            expr, self.simplifier.key, ranges_key(self.leaves.ranges), tuple(self.leaves.bounds)
        )

    def emit(self, expr: AffineExpr) -> SSAValue:
        emitted = self._emitted.get(expr)
        if emitted is not None:
            return emitted
        if isinstance(expr, AffineDimExpr):
            value = self.leaves.values[expr.position]
        elif isinstance(expr, AffineConstantExpr):
            value = self.constant(expr.value)
        elif isinstance(expr, AffineSymExpr):
            raise ValueError(f"symbol s{expr.position} in an index expression over leaves")
        elif self.mode == "affine":
            value = self._apply(expr)
        else:
            value = self._arith(expr)
        self._emitted[expr] = value
        return value

    def _add(self, op: Operation) -> SSAValue:
        self.insert(op)
        return op.results[0]

    def constant(self, value: int, value_type: IntegerType | IndexType = INDEX) -> SSAValue:
        """An `arith.constant` (at the top of the function when there is a scope)."""
        if self.scope is not None:
            return self.scope.constant(value, value_type)
        return self._add(_constant_op(value, value_type))

    def shared(self, key: ValueKey, build: Callable[[], Operation]) -> SSAValue:
        """The value of the op `key` names: one already in scope, else `build()` inserted."""
        if self.scope is None:
            return self._add(build())
        found = self.scope.find(key)
        if found is None:
            found = self._add(build())
            self.scope.record(key, found)
        return found

    def _apply(self, expr: AffineExpr) -> SSAValue:
        """One `affine.apply`, but for the divisions upstream folds wrongly
        (`upstream_folds`): those are emitted in `arith` and enter as operands."""
        if isinstance(expr, AffineBinaryOpExpr) and divides_a_mod(expr, self.leaves.values):
            return self._arith(expr)
        values = list(self.leaves.values)
        expr = self._cut_misfolded(expr, values)
        used = sorted(expr.used_dims())
        renumber = [
            AffineExpr.dimension(used.index(d)) if d in used else AffineExpr.constant(0)
            for d in range(len(values))
        ]
        compact = AffineMap(len(used), 0, (expr.replace_dims_and_symbols(renumber, []),))
        operands = [values[d] for d in used]
        return self.shared(
            (affine.ApplyOp, compact, *operands),
            lambda: affine.ApplyOp(operands, AffineMapAttr(compact)),
        )

    def _cut_misfolded(self, expr: AffineExpr, values: list[SSAValue]) -> AffineExpr:
        """`expr` with each division `divides_a_mod` finds emitted on its own and replaced
        by a new dim, whose value is appended to `values`."""
        if not isinstance(expr, AffineBinaryOpExpr):
            return expr
        if divides_a_mod(expr, self.leaves.values):
            values.append(self.emit(expr))
            return AffineExpr.dimension(len(values) - 1)
        lhs = self._cut_misfolded(expr.lhs, values)
        rhs = self._cut_misfolded(expr.rhs, values)
        if lhs is expr.lhs and rhs is expr.rhs:
            return expr
        return AffineBinaryOpExpr(expr.kind, lhs, rhs)

    def _binary(self, op_type: type[Operation], lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        """`op_type(lhs, rhs)`, built without the generic constructor's argument checking
        (most of the cost of emitting index code); the op is the same."""
        return self.shared(
            (op_type, lhs, rhs),
            lambda: op_type.create(operands=[lhs, rhs], result_types=[lhs.type]),
        )

    def _arith(self, expr: AffineExpr) -> SSAValue:
        assert isinstance(expr, AffineBinaryOpExpr)
        kind = expr.kind
        if kind == AffineBinaryOpKind.Add:
            if isinstance(expr.rhs, AffineConstantExpr) and expr.rhs.value < 0:
                positive = self.emit(AffineExpr.constant(-expr.rhs.value))
                return self._binary(arith.SubiOp, self.emit(expr.lhs), positive)
            return self._binary(arith.AddiOp, self.emit(expr.lhs), self.emit(expr.rhs))
        if kind == AffineBinaryOpKind.Mul:
            return self._binary(arith.MuliOp, self.emit(expr.lhs), self.emit(expr.rhs))
        lhs, rhs = self.emit(expr.lhs), self.emit(expr.rhs)
        bounds = self.simplifier.range_of(expr.lhs)
        non_negative = bounds is not None and bounds[0] >= 0
        if kind == AffineBinaryOpKind.FloorDiv:
            return self._binary(arith.DivUIOp if non_negative else arith.FloorDivSIOp, lhs, rhs)
        if kind == AffineBinaryOpKind.CeilDiv:
            return self._binary(arith.CeilDivUIOp if non_negative else arith.CeilDivSIOp, lhs, rhs)
        if non_negative:
            return self._binary(arith.RemUIOp, lhs, rhs)
        # Floor modulo from the signed remainder: remsi takes the dividend's sign.
        remainder = self._binary(arith.RemSIOp, lhs, rhs)
        zero = self.emit(AffineExpr.constant(0))
        negative = self.shared(
            (arith.CmpiOp, "slt", remainder, zero), lambda: arith.CmpiOp(remainder, zero, "slt")
        )
        shifted = self._binary(arith.AddiOp, remainder, rhs)
        return self.shared(
            (arith.SelectOp, negative, shifted, remainder),
            lambda: arith.SelectOp(negative, shifted, remainder),
        )


@lru_cache(maxsize=4096)
def _index_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, INDEX)


@lru_cache(maxsize=65536)
def _best_form(
    expr: AffineExpr,
    simplifier_key: RangesKey,
    leaf_ranges_key: RangesKey,
    leaf_bounds: tuple[LoopBounds | None, ...],
) -> AffineExpr:
    """`IndexEmitter.best_form`, from what it depends on: the emitter's ranges, the leaves'
    ranges (which may have grown since) and their loop bounds."""
    simplifier = IndexSimplifier(dict(simplifier_key[0]), dict(simplifier_key[1]))
    plain = simplifier.simplify(expr)
    strided, ranges = _strided(dict(leaf_ranges_key[0]), leaf_bounds)
    if len(ranges) == len(leaf_ranges_key[0]):
        return plain
    in_steps = IndexSimplifier(ranges).simplify(expr.replace_dims_and_symbols(strided, []))
    back = list(AffineExpr.dimension(d) for d in range(max(ranges, default=0) + 1))
    for position, leaf_expr in enumerate(strided):
        if leaf_expr != AffineExpr.dimension(position):
            first, _, step = leaf_bounds[position]  # type: ignore[misc]
            fresh = max(leaf_expr.used_dims())
            back[fresh] = (AffineExpr.dimension(position) + -first) // step
    restored = simplifier.simplify(in_steps.replace_dims_and_symbols(back, []))
    return restored if cost(restored) < cost(plain) else plain
