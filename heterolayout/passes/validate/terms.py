"""Index values as expression trees, for translation validation.

`term_of` reads an index SSA value back through the ops index code is made of (`arith`
constants, additions, multiplications, every division and remainder with its own signedness,
comparisons, selects, index casts, `affine.apply`) into a `Term` that no longer depends on
the IR (the ops may be erased afterwards). Whatever it does not read through is a leaf: a
loop variable, a function argument, any other value.

A term has two meanings, both written here once for validation alone (not shared with the
lowering it checks): `evaluate` computes it on numpy arrays of points with each op's exact
semantics (unsigned divisions of negative values, truncating signed ones, casts that wrap),
and `Symbolic.expr` rewrites it as a quasi-affine expression over atoms for the index
simplifier, turning a sign-sensitive op into floordiv/mod only where its operand is provably
non-negative, and anything else into an atom of its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

from heterolayout.layout.simplify import IndexSimplifier, Range

BINARY: dict[type[Operation], str] = {
    arith.AddiOp: "add",
    arith.SubiOp: "sub",
    arith.MuliOp: "mul",
    arith.DivUIOp: "divui",
    arith.DivSIOp: "divsi",
    arith.FloorDivSIOp: "floordiv",
    arith.CeilDivUIOp: "ceildivui",
    arith.CeilDivSIOp: "ceildiv",
    arith.RemUIOp: "remui",
    arith.RemSIOp: "remsi",
    arith.MinSIOp: "minsi",
    arith.MaxSIOp: "maxsi",
    arith.AndIOp: "andi",
    arith.OrIOp: "ori",
    arith.XOrIOp: "xori",
}
PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_AFFINE_KINDS = {
    AffineBinaryOpKind.Add: "add",
    AffineBinaryOpKind.Mul: "mul",
    AffineBinaryOpKind.FloorDiv: "floordiv",
    AffineBinaryOpKind.CeilDiv: "ceildiv",
    AffineBinaryOpKind.Mod: "mod",
}


@dataclass(frozen=True)
class Term:
    """`kind` applied to `args`; a `const` holds `value`, a `leaf` the SSA value itself, a
    `cmp` its predicate in `value`, a `cast` the width it wraps to (0: index)."""

    kind: str
    args: tuple[Term, ...] = ()
    value: int = 0
    leaf: SSAValue | None = field(default=None, compare=True)

    def __add__(self, other: Term | int) -> Term:
        return Term("add", (self, constant(other) if isinstance(other, int) else other))


def constant(value: int) -> Term:
    return Term("const", value=value)


def leaf(value: SSAValue) -> Term:
    return Term("leaf", leaf=value)


class TermReader:
    """`term_of`, memoised per SSA value for one access."""

    def __init__(self) -> None:
        self._memo: dict[SSAValue, Term] = {}

    def term_of(self, value: SSAValue) -> Term:
        found = self._memo.get(value)
        if found is None:
            found = self._memo[value] = self._read(value)
        return found

    def _read(self, value: SSAValue) -> Term:
        op = value.owner
        if not isinstance(op, Operation):
            return leaf(value)
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            return constant(op.value.value.data)
        kind = BINARY.get(type(op))
        if kind is not None:
            return Term(kind, (self.term_of(op.operands[0]), self.term_of(op.operands[1])))
        if isinstance(op, arith.CmpiOp):
            lhs, rhs = (self.term_of(o) for o in op.operands)
            return Term("cmp", (lhs, rhs), value=op.predicate.value.data)
        if isinstance(op, arith.SelectOp):
            return Term("select", tuple(self.term_of(o) for o in op.operands))
        if isinstance(op, (arith.IndexCastOp, arith.ExtUIOp, arith.ExtSIOp, arith.TruncIOp)):
            result = op.results[0].type
            width = result.width.data if isinstance(result, IntegerType) else 0
            kind = "zext" if isinstance(op, arith.ExtUIOp) else "cast"
            return Term(kind, (self.term_of(op.operands[0]),), value=width)
        if isinstance(op, affine.ApplyOp):
            operands = [self.term_of(o) for o in op.mapOperands]
            dims = op.map.data.num_dims
            return affine_term(op.map.data.results[0], operands[:dims], operands[dims:])
        return leaf(value)

    def access_map(
        self, results: Sequence[AffineExpr], operands: Sequence[SSAValue], dims: int
    ) -> list[Term]:
        """The terms of an affine op's access map over its operands."""
        terms = [self.term_of(o) for o in operands]
        return [affine_term(r, terms[:dims], terms[dims:]) for r in results]


def affine_term(expr: AffineExpr, dims: Sequence[Term], symbols: Sequence[Term] = ()) -> Term:
    if isinstance(expr, AffineConstantExpr):
        return constant(expr.value)
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position]
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs = affine_term(expr.lhs, dims, symbols), affine_term(expr.rhs, dims, symbols)
    return Term(_AFFINE_KINDS[expr.kind], (lhs, rhs))


def atoms_of(term: Term, is_atom: Callable[[Term], bool], into: dict[Term, None]) -> None:
    """The atoms a term is made of, in order of appearance."""
    if term.kind == "const":
        return
    if is_atom(term):
        into.setdefault(term)
        return
    for arg in term.args:
        atoms_of(arg, is_atom, into)


# ---- numbers --------------------------------------------------------------------------------
Array = np.ndarray


def evaluate(
    term: Term, values: Mapping[Term, Array], memo: dict[Term, Array | int]
) -> Array | int:
    """The term's value at every point, atoms taken from `values` (int64 arrays)."""
    if term in values:
        return values[term]
    if term.kind == "const":
        return term.value
    found = memo.get(term)
    if found is not None:
        return found
    if term.kind in ("leaf", "dim", "lane"):
        raise KeyError(f"no values for {term.kind} {term.leaf or term.value}")
    args = [evaluate(a, values, memo) for a in term.args]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        result = _apply(term, args)
    memo[term] = result
    return result


def _unsigned(x: Array | int) -> Array:
    return np.asarray(x, dtype=np.int64).astype(np.uint64)


def _ceil_unsigned(a: Array | int, b: Array | int) -> Array:
    quotient, remainder = np.divmod(_unsigned(a), _unsigned(b))
    return (quotient + (remainder != 0)).astype(np.int64)


def _trunc_div(a: Array | int, b: Array | int) -> Array:
    quotient = np.abs(a) // np.where(b == 0, 1, np.abs(b))
    return np.where((np.asarray(a) < 0) != (np.asarray(b) < 0), -quotient, quotient)


def _wrap(x: Array | int, width: int) -> Array:
    """The low `width` bits of x, read as a signed number (what a cast to iN keeps)."""
    if width == 0 or width >= 64:
        return np.asarray(x, dtype=np.int64)
    low = np.asarray(x, dtype=np.int64) & ((1 << width) - 1)
    if width == 1:
        return low
    half = 1 << (width - 1)
    return np.where(low >= half, (low - half) - half, low)


def _apply(term: Term, args: list[Array | int]) -> Array | int:
    kind = term.kind
    if kind in ("cast", "zext"):
        return (
            _wrap(args[0], term.value)
            if kind == "cast"
            else np.asarray(args[0]) & ((1 << term.value) - 1)
        )
    if kind == "select":
        return np.where(np.asarray(args[0]) != 0, args[1], args[2])
    a, b = args
    b_safe = np.where(np.asarray(b) == 0, 1, b)
    simple: dict[str, Callable[[], Array | int]] = {
        "add": lambda: np.asarray(a) + b,
        "sub": lambda: np.asarray(a) - b,
        "mul": lambda: np.asarray(a) * b,
        "floordiv": lambda: np.floor_divide(a, b_safe),
        "ceildiv": lambda: -np.floor_divide(-np.asarray(a), b_safe),
        "mod": lambda: np.mod(a, b_safe),
        "divsi": lambda: _trunc_div(a, b),
        "remsi": lambda: np.asarray(a) - np.asarray(b) * _trunc_div(a, b),
        "divui": lambda: (_unsigned(a) // _unsigned(b_safe)).astype(np.int64),
        "remui": lambda: (_unsigned(a) % _unsigned(b_safe)).astype(np.int64),
        "ceildivui": lambda: _ceil_unsigned(a, b_safe),
        "minsi": lambda: np.minimum(a, b),
        "maxsi": lambda: np.maximum(a, b),
        "andi": lambda: np.bitwise_and(a, b),
        "ori": lambda: np.bitwise_or(a, b),
        "xori": lambda: np.bitwise_xor(a, b),
    }
    if kind in simple:
        return simple[kind]()
    return _compare(PREDICATES[term.value], a, b)


def _compare(predicate: str, a: Array | int, b: Array | int) -> Array:
    if predicate.startswith("u"):
        a, b = _unsigned(a), _unsigned(b)
    table = {
        "eq": np.equal,
        "ne": np.not_equal,
        "lt": np.less,
        "le": np.less_equal,
        "gt": np.greater,
        "ge": np.greater_equal,
    }
    return table[predicate.lstrip("su") if predicate not in ("eq", "ne") else predicate](
        a, b
    ).astype(np.int64)


def evaluate_affine(expr: AffineExpr, dims: Sequence[Array | int]) -> Array | int:
    """A quasi-affine expression (floor division, non-negative modulo) at every point."""
    names = _dim_terms(len(dims))
    return evaluate(affine_term(expr, names), dict(zip(names, dims, strict=True)), {})  # type: ignore[arg-type]


def _dim_terms(count: int) -> list[Term]:
    return [Term("dim", value=d) for d in range(count)]


# ---- normal forms ---------------------------------------------------------------------------
class Symbolic:
    """Terms as quasi-affine expressions over atoms (dims of the index simplifier)."""

    def __init__(self, atom_range: Callable[[Term], Range | None]) -> None:
        self.atom_range = atom_range
        self.atoms: dict[Term, int] = {}
        self.ranges: dict[int, Range] = {}

    def atom(self, term: Term) -> AffineExpr:
        position = self.atoms.get(term)
        if position is None:
            position = self.atoms[term] = len(self.atoms)
            found = self.atom_range(term)
            if found is not None:
                self.ranges[position] = found
        return AffineExpr.dimension(position)

    def narrow(self, term: Term, bounds: Range) -> None:
        """What an atom can be is at most `bounds` (an access in bounds, say)."""
        position = self.atoms[term]
        old = self.ranges.get(position)
        low, high = bounds if old is None else (max(old[0], bounds[0]), min(old[1], bounds[1]))
        self.ranges[position] = (low, high)

    def simplifier(self) -> IndexSimplifier:
        return IndexSimplifier(self.ranges)

    def non_negative(self, expr: AffineExpr) -> bool:
        bounds = self.simplifier().range_of(expr)
        return bounds is not None and bounds[0] >= 0

    def expr(self, term: Term) -> AffineExpr:
        kind = term.kind
        if kind == "const":
            return AffineExpr.constant(term.value)
        if term.kind == "leaf" or term.kind == "dim":
            return self.atom(term)
        if kind in ("cast", "zext"):
            return self.expr(term.args[0])
        if kind == "select":
            return self._select(term)
        if kind in (
            "add",
            "sub",
            "mul",
            "floordiv",
            "ceildiv",
            "mod",
            "divui",
            "divsi",
            "remui",
            "remsi",
            "ceildivui",
        ):
            found = self._binary(term)
            if found is not None:
                return found
        return self.atom(term)

    def _binary(self, term: Term) -> AffineExpr | None:
        lhs, rhs = (self.expr(a) for a in term.args)
        kind = term.kind
        if kind == "add":
            return lhs + rhs
        if kind == "sub":
            return lhs + rhs * -1
        if kind == "mul":
            if isinstance(lhs, AffineConstantExpr) or isinstance(rhs, AffineConstantExpr):
                return lhs * rhs
            return None
        if not isinstance(rhs, AffineConstantExpr) or rhs.value <= 0:
            return None
        if kind in ("divui", "divsi", "remui", "remsi", "ceildivui") and not self.non_negative(lhs):
            return None
        if kind in ("floordiv", "divui", "divsi"):
            return lhs // rhs.value
        if kind in ("ceildiv", "ceildivui"):
            return lhs.ceil_div(rhs.value)
        return lhs % rhs.value

    def _select(self, term: Term) -> AffineExpr:
        """Floor modulo as index code writes it for a possibly negative x:
        `r = x remsi c; r < 0 ? r + c : r`."""
        condition, then, other = term.args
        if (
            condition.kind == "cmp"
            and PREDICATES[condition.value] == "slt"
            and condition.args[1] == constant(0)
            and condition.args[0] == other
            and other.kind == "remsi"
            and then == Term("add", (other, other.args[1]))
            and other.args[1].kind == "const"
            and other.args[1].value > 0
        ):
            return self.expr(other.args[0]) % other.args[1].value
        return self.atom(term)


def _linear_parts(expr: AffineExpr, scale: int, into: dict[AffineExpr, int]) -> int:
    """Adds `scale`·expr to `into` as coefficients of atoms (anything but a sum or a
    product with a constant); returns the constant part."""
    if isinstance(expr, AffineConstantExpr):
        return scale * expr.value
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Add:
        return _linear_parts(expr.lhs, scale, into) + _linear_parts(expr.rhs, scale, into)
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Mul:
        if isinstance(expr.rhs, AffineConstantExpr):
            return _linear_parts(expr.lhs, scale * expr.rhs.value, into)
        if isinstance(expr.lhs, AffineConstantExpr):
            return _linear_parts(expr.rhs, scale * expr.lhs.value, into)
    into[expr] = into.get(expr, 0) + scale
    return 0


def is_linear(expr: AffineExpr) -> bool:
    """No division, no product of two non-constants."""
    if isinstance(expr, AffineBinaryOpExpr):
        return (
            expr.kind in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul)
            and is_linear(expr.lhs)
            and is_linear(expr.rhs)
        )
    return True


def _period(expr: AffineExpr, dim: int) -> int | None:
    """A period of `expr` in dim `dim` when the dim is only seen inside `… mod c` (1 where
    it does not occur), else None."""
    if dim not in expr.used_dims():
        return 1
    if not isinstance(expr, AffineBinaryOpExpr):
        return None
    inner = [_period(expr.lhs, dim), _period(expr.rhs, dim)]
    if None not in inner:
        return math.lcm(*inner)  # type: ignore[arg-type]
    if (
        expr.kind == AffineBinaryOpKind.Mod
        and isinstance(expr.rhs, AffineConstantExpr)
        and is_linear(expr.lhs)
    ):
        return abs(expr.rhs.value)
    return None


def period_all(exprs: Sequence[AffineExpr], dim: int) -> int | None:
    periods = [_period(e, dim) for e in exprs]
    return None if None in periods else math.lcm(*periods)  # type: ignore[arg-type]


def reduce_mods(expr: AffineExpr) -> AffineExpr:
    """Every `e mod c` with e's coefficients and constant taken modulo c (so `(-x + 3) mod 5`
    and `(4·x + 3) mod 5` read the same), inside out."""
    if not isinstance(expr, AffineBinaryOpExpr):
        return expr
    lhs, rhs = reduce_mods(expr.lhs), reduce_mods(expr.rhs)
    if (
        expr.kind != AffineBinaryOpKind.Mod
        or not isinstance(rhs, AffineConstantExpr)
        or rhs.value <= 0
    ):
        return AffineBinaryOpExpr(expr.kind, lhs, rhs)
    divisor = rhs.value
    parts: dict[AffineExpr, int] = {}
    total: AffineExpr = AffineExpr.constant(_linear_parts(lhs, 1, parts) % divisor)
    for atom, coefficient in parts.items():
        if coefficient % divisor:
            total = total + atom * (coefficient % divisor)
    return total % divisor
