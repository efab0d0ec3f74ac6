"""A loop nest as `layout-schedule` sees it: a chain of static loops, its statements, and
every memory access as affine expressions of the loops' iteration counters.

A nest is a chain of `affine.for` / `scf.for` loops with constant bounds and no iter_args.
The chain may break once: at some depth the body holds straight-line statements (`pre`),
one inner chain of loops, and more statements (`post`): the shape of a convolution that
zeroes its output pixel before the reduction loops. Loop `i` runs `first + step·t` for
`t < trips`; access expressions are written over those counters `t` (dims 0 … n-1) and over
the loop-invariant index values they use (dims n …, the nest's "symbols").

Anything else (a call, an `scf.if`, a value index, a buffer made inside the nest) is a
`NotScheduled` naming the op: the pass leaves such a nest as it is and says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeGuard

from xdsl.dialects import affine, cf, func, scf
from xdsl.dialects.builtin import IndexType, MemRefType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr

from heterolayout.dialects.arith_ops import constant_index
from heterolayout.dialects.roles import SCALAR_LOADS, SCALAR_STORES
from heterolayout.layout.expressions import linear_form
from heterolayout.passes.index.index_code import IndexLeaves

LOOPS = (affine.ForOp, scf.ForOp)
INDEX = IndexType()


class NotScheduled(Exception):
    """Why a nest (or one step of its schedule) is left alone; `op` is where it shows."""

    def __init__(self, op: Operation, reason: str) -> None:
        super().__init__(reason)
        self.op = op
        self.reason = reason


@dataclass(frozen=True)
class Loop:
    """One loop of the chain: its counter `t < trips` stands for the value `first + step·t`."""

    op: Operation
    iv: SSAValue
    first: int
    step: int
    trips: int

    def name(self, position: int) -> str:
        """How remarks name the loop: its counter's name, else its depth."""
        hint = self.iv.name_hint
        return f"%{hint}" if hint else f"loop #{position}"


@dataclass(frozen=True)
class Access:
    """A scalar load or store of a buffer defined outside the nest."""

    op: Operation
    buffer: SSAValue
    write: bool
    exprs: tuple[AffineExpr, ...]
    """One per logical dim of the buffer, over the nest's dims (loop counters, then symbols)."""
    depth: int
    """How many loops of the chain enclose it."""

    @property
    def value(self) -> SSAValue | None:
        """The stored value of a store."""
        return self.op.operands[0] if self.write else None

    def linear(self, rank: int) -> list[tuple[list[int], int]] | None:
        """Each expression's coefficients and constant, or None if one is not affine."""
        forms = [linear_form(e, rank) for e in self.exprs]
        return None if any(f is None for f in forms) else forms  # type: ignore[return-value]


@dataclass
class Nest:
    loops: tuple[Loop, ...]
    split: int
    """Depth of the statements `pre` and `post`; the loops below it are the inner chain."""
    pre: list[Operation]
    body: list[Operation]
    post: list[Operation]
    symbols: list[SSAValue] = field(default_factory=list)
    accesses: dict[Operation, Access] = field(default_factory=dict)

    @property
    def rank(self) -> int:
        """Dims of the access expressions: loop counters, then symbols."""
        return len(self.loops) + len(self.symbols)

    @property
    def top(self) -> Operation:
        return self.loops[0].op

    @property
    def perfect(self) -> bool:
        return self.split == len(self.loops)

    def statements(self) -> list[Operation]:
        return [*self.pre, *self.body, *self.post]

    def depth_of(self, op: Operation) -> int:
        return len(self.loops) if op in self.body else self.split

    def loop_of(self, value: SSAValue) -> int | None:
        for position, loop in enumerate(self.loops):
            if loop.iv == value:
                return position
        return None

    def uses_loop(self, access: Access, loop: int) -> bool:
        return any(loop in e.used_dims() for e in access.exprs)

    def shared_along(self, loop: int) -> list[Access]:
        """The reads that copies of `loop` share (a register tile unrolled along it loads
        them once): those that do not depend on it, where another read does."""
        reads = [a for a in self.accesses.values() if not a.write]
        if not any(self.uses_loop(a, loop) for a in reads):
            return []
        return [a for a in reads if not self.uses_loop(a, loop)]


def nest_name(top: Operation) -> str:
    """How remarks name a nest: its outermost counter's name, else the loop op's."""
    hint = top.regions[0].blocks.first.args[0].name_hint  # type: ignore[union-attr]
    return f"%{hint}" if hint else top.name


def static_loop(op: Operation) -> Loop:
    """The loop's constant bounds, or NotScheduled."""
    body = op.regions[0].blocks.first
    assert body is not None
    bounds: tuple[int | None, int | None, int | None]
    if isinstance(op, scf.ForOp):
        if op.iter_args:
            raise NotScheduled(op, "the loop carries values (iter_args)")
        bounds = (constant_index(op.lb), constant_index(op.ub), constant_index(op.step))
    else:
        assert isinstance(op, affine.ForOp)
        if op.inits:
            raise NotScheduled(op, "the loop carries values (iter_args)")
        lower, upper = op.lowerBoundMap.data, op.upperBoundMap.data
        bounds = (
            _single_constant(lower.results) if not op.lowerBoundOperands else None,
            _single_constant(upper.results) if not op.upperBoundOperands else None,
            op.step.value.data,
        )
    first, end, step = bounds
    if first is None or end is None or step is None:
        raise NotScheduled(op, "the loop bounds are not constants")
    if step <= 0 or end <= first:
        raise NotScheduled(op, "the loop runs no iteration or has a non-positive step")
    return Loop(op, body.args[0], first, step, -(-(end - first) // step))


def _single_constant(results: Sequence[AffineExpr]) -> int | None:
    if len(results) != 1:
        return None
    (result,) = results
    return getattr(result, "value", None) if not result.used_dims() else None


def _body_ops(loop: Operation) -> list[Operation]:
    block = loop.regions[0].blocks.first
    assert block is not None
    return [op for op in block.ops if not isinstance(op, (affine.YieldOp, scf.YieldOp))]


def extract(top: Operation) -> Nest:
    """The nest rooted at loop `top`, or NotScheduled."""
    loops = [static_loop(top)]
    ops = _body_ops(top)
    split: int | None = None
    pre: list[Operation] = []
    post: list[Operation] = []
    while True:
        inner = [op for op in ops if isinstance(op, LOOPS)]
        if not inner:
            break
        if len(inner) > 1:
            raise NotScheduled(inner[1], f"{len(inner)} sibling loops in one body")
        (loop,) = inner
        if len(ops) > 1:
            if split is not None:
                raise NotScheduled(loop, "statements between loops at two depths")
            split = len(loops)
            at = ops.index(loop)
            pre, post = ops[:at], ops[at + 1 :]
        loops.append(static_loop(loop))
        ops = _body_ops(loop)
    nest = Nest(tuple(loops), len(loops) if split is None else split, pre, ops, post)
    _read_accesses(nest)
    return nest


def is_arithmetic(op: Operation) -> bool:
    """A value op a nest's statements may hold besides its accesses: arith, math,
    `affine.apply`."""
    return op.name.startswith(("arith.", "math.")) or isinstance(op, affine.ApplyOp)


def is_check(op: Operation) -> TypeGuard[cf.AssertOp]:
    """A `cf.assert` (torch-mlir's Reciprocal checks every element is not zero): it touches
    no memory and ends the program when its condition is false, so the nest may run its
    iterations in any order (stores made before the end are lost with the program); only
    which of two different messages comes first could change (`fusion` keeps such nests
    apart)."""
    return isinstance(op, cf.AssertOp)


def _read_accesses(nest: Nest) -> None:
    inside = {op for stmt in nest.statements() for op in stmt.walk()}
    inside.update(loop.op for loop in nest.loops)
    for op in nest.statements():
        if op.regions:
            raise NotScheduled(op, f"{op.name} has regions: only straight-line statements")
        scalar_access = op.name in SCALAR_LOADS or op.name in SCALAR_STORES
        if scalar_access:
            nest.accesses[op] = _access(nest, op, inside)
        elif not is_arithmetic(op) and not is_check(op):
            raise NotScheduled(op, f"{op.name} is not a load, a store, arithmetic or a check")
        for operand in op.operands:
            if isinstance(operand.type, MemRefType) and not scalar_access:
                raise NotScheduled(op, f"{op.name} uses a buffer")


def _access(nest: Nest, op: Operation, inside: set[Operation]) -> Access:
    buffer: SSAValue = op.memref  # type: ignore[attr-defined]
    if isinstance(buffer.owner, Operation) and buffer.owner in inside:
        raise NotScheduled(op, f"{op.name} reads a buffer made inside the nest")
    leaves = IndexLeaves()
    if isinstance(op, (affine.LoadOp, affine.StoreOp)):
        operands = [leaves.recover(o) for o in op.indices]
        raw = IndexLeaves.substitute(op.map.data, operands)
    else:
        raw = [leaves.recover(i) for i in op.indices]  # type: ignore[attr-defined]
    mapping = [_leaf_expr(nest, value, inside, op) for value in leaves.values]
    exprs = tuple(e.replace_dims_and_symbols(mapping, []) for e in raw)
    write = op.name in SCALAR_STORES
    return Access(op, buffer, write, exprs, nest.depth_of(op))


def _leaf_expr(nest: Nest, value: SSAValue, inside: set[Operation], op: Operation) -> AffineExpr:
    """A loop counter stands for `first + step·t`; a value from outside the nest is a symbol."""
    position = nest.loop_of(value)
    if position is not None:
        loop = nest.loops[position]
        return AffineExpr.dimension(position) * loop.step + loop.first
    owner = value.owner
    defined_inside = (isinstance(owner, Operation) and owner in inside) or (
        isinstance(owner, Block) and owner.parent_op() in inside
    )
    if defined_inside:
        raise NotScheduled(op, f"an index of {op.name} is computed from data, not affine")
    if value not in nest.symbols:
        nest.symbols.append(value)
    return AffineExpr.dimension(len(nest.loops) + nest.symbols.index(value))


def index_expr(nest: Nest, value: SSAValue) -> AffineExpr | None:
    """An index value used as data, as an expression of the nest's dims (None if it is not
    one: it is then computed from data)."""
    inside = {op for stmt in nest.statements() for op in stmt.walk()}
    inside.update(loop.op for loop in nest.loops)
    leaves = IndexLeaves()
    raw = leaves.recover(value)
    try:
        mapping = [_leaf_expr(nest, leaf, inside, value.owner) for leaf in leaves.values]  # type: ignore[arg-type]
    except NotScheduled:
        return None
    return raw.replace_dims_and_symbols(mapping, [])


def loops_around(op: Operation) -> list[Operation]:
    """The loops around `op` in its function, innermost first."""
    found: list[Operation] = []
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, LOOPS):
            found.append(parent)
        parent = parent.parent_op()
    return found


def is_index_op(op: Operation) -> bool:
    """An op computing index values from index values: never copied; accesses are rebuilt
    from their expressions and other uses from `index_expr`. (An index chosen by data, as
    an arg max's `arith.select %c, %j, %k : index`, is data.)"""
    return (
        bool(op.results)
        and all(r.type == INDEX for r in op.results)
        and all(o.type == INDEX for o in op.operands)
    )


def bare_dim(expr: AffineExpr) -> int | None:
    """The dim of an expression that is one dim and nothing else."""
    return expr.position if isinstance(expr, AffineDimExpr) else None
