"""Range-aware simplification of quasi-affine index expressions.

Lowered accesses compose a layout's map with the program's index expressions. Knowing the
range of every leaf (a loop bound, or the extent of the dim a bare index addresses) lets
`(a·k + b) floordiv k` become `a` when 0 ≤ b < k, `(x floordiv k)·k + x mod k` become `x`,
and nested divisions merge, so loops that walk blocks in order carry no div/rem at all.

Expressions are normalised to a linear form over atoms (dims, symbols, and irreducible
floordiv/mod/ceildiv terms) and rebuilt deterministically.

Lowering a module asks the same questions (the same expression over the same ranges) once per
access, so the answers are memoised per set of ranges and shared by every simplifier built on
those ranges; the normal forms in the memo are never mutated.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

Range = tuple[int, int]
"""Inclusive bounds."""


@dataclass(slots=True)
class _Linear:
    """A normal form: treat as immutable, memos share it."""

    terms: dict[AffineExpr, int] = field(default_factory=dict)
    constant: int = 0

    def add(self, other: _Linear, scale: int = 1) -> _Linear:
        terms = dict(self.terms)
        for atom, coefficient in other.terms.items():
            value = terms.get(atom, 0) + scale * coefficient
            if value:
                terms[atom] = value
            else:
                terms.pop(atom, None)
        return _Linear(terms, self.constant + scale * other.constant)

    def scale(self, factor: int) -> _Linear:
        if factor == 0:
            return _Linear()
        return _Linear({a: c * factor for a, c in self.terms.items()}, self.constant * factor)


RangesKey = tuple[tuple[tuple[int, Range], ...], tuple[tuple[int, Range], ...]]


class _Memo:
    """Answers already computed under one set of ranges."""

    __slots__ = ("atom_ranges", "linear", "ranges", "simplified")

    def __init__(self) -> None:
        self.linear: dict[AffineExpr, _Linear] = {}
        self.atom_ranges: dict[AffineExpr, Range | None] = {}
        self.ranges: dict[AffineExpr, Range | None] = {}
        self.simplified: dict[AffineExpr, AffineExpr] = {}

    def size(self) -> int:
        return len(self.linear) + len(self.atom_ranges) + len(self.ranges) + len(self.simplified)


_MEMOS: dict[RangesKey, _Memo] = {}
_MEMO_ENTRY_LIMIT = 200_000


def _memo_for(key: RangesKey) -> _Memo:
    """The shared memo of `key`. Every 256 new sets of ranges, all memos are dropped if they
    hold too many answers, so a long-lived process does not grow without bound."""
    memo = _MEMOS.get(key)
    if memo is not None:
        return memo
    if len(_MEMOS) % 256 == 255 and sum(m.size() for m in _MEMOS.values()) > _MEMO_ENTRY_LIMIT:
        _MEMOS.clear()
    memo = _MEMOS[key] = _Memo()
    return memo


def ranges_key(
    dim_ranges: Mapping[int, Range] | None, symbol_ranges: Mapping[int, Range] | None = None
) -> RangesKey:
    """A hashable, order-independent form of a simplifier's ranges."""
    return (
        tuple(sorted((p, (r[0], r[1])) for p, r in (dim_ranges or {}).items())),
        tuple(sorted((p, (r[0], r[1])) for p, r in (symbol_ranges or {}).items())),
    )


class IndexSimplifier:
    """Simplifies expressions over dims with known ranges (`dim_ranges[i]` for `d{i}`,
    `symbol_ranges[j]` for `s{j}`; a missing entry is unbounded). The ranges are fixed at
    construction: the answers are memoised under them."""

    def __init__(
        self,
        dim_ranges: Mapping[int, Range] | None = None,
        symbol_ranges: Mapping[int, Range] | None = None,
    ) -> None:
        self.dim_ranges = dict(dim_ranges or {})
        self.symbol_ranges = dict(symbol_ranges or {})
        self.key = ranges_key(self.dim_ranges, self.symbol_ranges)
        self._memo = _memo_for(self.key)

    def simplify(self, expr: AffineExpr) -> AffineExpr:
        simplified = self._memo.simplified.get(expr)
        if simplified is None:
            simplified = self._memo.simplified[expr] = self._rebuild(self._linear(expr))
        return simplified

    def simplify_map(self, index_map: AffineMap) -> AffineMap:
        return AffineMap(
            index_map.num_dims,
            index_map.num_symbols,
            tuple(self.simplify(r) for r in index_map.results),
        )

    def range_of(self, expr: AffineExpr) -> Range | None:
        ranges = self._memo.ranges
        if expr in ranges:
            return ranges[expr]
        found = ranges[expr] = self._range(self._linear(expr))
        return found

    # ---- normal form ----------------------------------------------------------------------
    def _linear(self, expr: AffineExpr) -> _Linear:
        if isinstance(expr, AffineConstantExpr):
            return _Linear({}, expr.value)
        if isinstance(expr, (AffineDimExpr, AffineSymExpr)):
            return _Linear({expr: 1})
        linear = self._memo.linear.get(expr)
        if linear is None:
            linear = self._memo.linear[expr] = self._binary_linear(expr)  # type: ignore[arg-type]
        return linear

    def _binary_linear(self, expr: AffineBinaryOpExpr) -> _Linear:
        assert isinstance(expr, AffineBinaryOpExpr)
        kind = expr.kind
        if kind == AffineBinaryOpKind.Add:
            return self._combine(self._linear(expr.lhs).add(self._linear(expr.rhs)))
        lhs, rhs = self._linear(expr.lhs), self._linear(expr.rhs)
        if kind == AffineBinaryOpKind.Mul:
            if not rhs.terms:
                return self._combine(lhs.scale(rhs.constant))
            if not lhs.terms:
                return self._combine(rhs.scale(lhs.constant))
            return _Linear({self._rebuild(lhs) * self._rebuild(rhs): 1})
        if rhs.terms or rhs.constant <= 0:
            return _Linear({AffineBinaryOpExpr(kind, self._rebuild(lhs), self._rebuild(rhs)): 1})
        divisor = rhs.constant
        if kind == AffineBinaryOpKind.CeilDiv:
            return self._floordiv(lhs.add(_Linear({}, divisor - 1)), divisor)
        if kind == AffineBinaryOpKind.FloorDiv:
            return self._floordiv(lhs, divisor)
        return self._mod(lhs, divisor)

    def _floordiv(self, value: _Linear, divisor: int) -> _Linear:
        if divisor == 1:
            return value
        common = _common_factor(value, divisor)
        if common > 1:
            return self._floordiv(_divide(value, common), divisor // common)
        quotient_constant, rest_constant = divmod(value.constant, divisor)
        quotient = _Linear(
            {a: c // divisor for a, c in value.terms.items() if c % divisor == 0}, quotient_constant
        )
        rest = _Linear({a: c for a, c in value.terms.items() if c % divisor}, rest_constant)
        bounds = self._range(rest)
        if bounds is not None and bounds[0] // divisor == bounds[1] // divisor:
            return self._combine(quotient.add(_Linear({}, bounds[0] // divisor)))
        if not rest.constant and len(rest.terms) == 1:
            ((atom, coefficient),) = rest.terms.items()
            if coefficient == 1 and isinstance(atom, AffineBinaryOpExpr):
                inner = self._linear(atom.lhs)
                inner_divisor = atom.rhs.value if isinstance(atom.rhs, AffineConstantExpr) else 0
                if atom.kind == AffineBinaryOpKind.FloorDiv:
                    return self._combine(
                        quotient.add(self._floordiv(inner, inner_divisor * divisor))
                    )
                if atom.kind == AffineBinaryOpKind.Mod and inner_divisor % divisor == 0:
                    reduced = self._mod(self._floordiv(inner, divisor), inner_divisor // divisor)
                    return self._combine(quotient.add(reduced))
        split = self._split_aligned(rest, divisor)
        if split is not None:
            factor, aligned, _ = split
            return self._combine(quotient.add(self._floordiv(aligned, divisor // factor)))
        atom = AffineBinaryOpExpr(
            AffineBinaryOpKind.FloorDiv, self._rebuild(rest), AffineConstantExpr(divisor)
        )
        return self._combine(quotient.add(_Linear({atom: 1})))

    def _split_aligned(self, value: _Linear, divisor: int) -> tuple[int, _Linear, _Linear] | None:
        """`value = g·A + R` with g dividing the divisor and 0 ≤ R < g: then
        `value floordiv (g·m) = A floordiv m` and `value mod (g·m) = g·(A mod m) + R`.
        This is how a loop stepping by 4 stays inside blocks of 8."""
        factors = {math.gcd(divisor, c) for c in value.terms.values()}
        for factor in sorted((f for f in factors if 1 < f < divisor), reverse=True):
            aligned = _Linear(
                {a: c // factor for a, c in value.terms.items() if c % factor == 0},
                value.constant // factor,
            )
            rest = _Linear(
                {a: c for a, c in value.terms.items() if c % factor}, value.constant % factor
            )
            if not aligned.terms:
                continue
            bounds = self._range(rest)
            if bounds is not None and bounds[0] >= 0 and bounds[1] < factor:
                return factor, aligned, rest
        return None

    def _mod(self, value: _Linear, divisor: int) -> _Linear:
        if divisor == 1:
            return _Linear()
        common = _common_factor(value, divisor)
        if common > 1:
            return self._mod(_divide(value, common), divisor // common).scale(common)
        rest = _Linear(
            {a: c % divisor for a, c in value.terms.items() if c % divisor},
            value.constant % divisor,
        )
        bounds = self._range(rest)
        if bounds is not None and bounds[0] // divisor == bounds[1] // divisor:
            return rest.add(_Linear({}, -(bounds[0] // divisor) * divisor))
        # Smaller coefficients are not always simpler: keep the original ones when reducing
        # them did not prove anything, except for the constant.
        original = _Linear(dict(value.terms), value.constant % divisor)
        original_bounds = self._range(original)
        if (
            original_bounds is not None
            and original_bounds[0] // divisor == original_bounds[1] // divisor
        ):
            return original.add(_Linear({}, -(original_bounds[0] // divisor) * divisor))
        if not rest.constant and len(rest.terms) == 1:
            ((atom, coefficient),) = rest.terms.items()
            if (
                coefficient == 1
                and isinstance(atom, AffineBinaryOpExpr)
                and atom.kind == AffineBinaryOpKind.Mod
                and isinstance(atom.rhs, AffineConstantExpr)
                and atom.rhs.value % divisor == 0
            ):
                return self._mod(self._linear(atom.lhs), divisor)
        split = self._split_aligned(value, divisor)
        if split is not None:
            factor, aligned, remainder = split
            return self._mod(aligned, divisor // factor).scale(factor).add(remainder)
        atom = AffineBinaryOpExpr(
            AffineBinaryOpKind.Mod, self._rebuild(rest), AffineConstantExpr(divisor)
        )
        return _Linear({atom: 1})

    def _combine(self, value: _Linear) -> _Linear:
        """Fold `(x floordiv k)·(c·k) + (x mod k)·c` back into `x·c`, to a fixed point."""
        changed = True
        while changed:
            changed = False
            for atom, coefficient in list(value.terms.items()):
                if not (
                    isinstance(atom, AffineBinaryOpExpr)
                    and atom.kind == AffineBinaryOpKind.Mod
                    and isinstance(atom.rhs, AffineConstantExpr)
                ):
                    continue
                divisor = atom.rhs.value
                partner = AffineBinaryOpExpr(AffineBinaryOpKind.FloorDiv, atom.lhs, atom.rhs)
                if value.terms.get(partner) == coefficient * divisor:
                    replacement = _Linear({atom: -coefficient, partner: -coefficient * divisor})
                    value = value.add(replacement).add(self._linear(atom.lhs).scale(coefficient))
                    changed = True
                    break
        return value

    # ---- ranges ---------------------------------------------------------------------------
    def _range(self, value: _Linear) -> Range | None:
        low = high = value.constant
        for atom, coefficient in value.terms.items():
            bounds = self._atom_range(atom)
            if bounds is None:
                return None
            a, b = coefficient * bounds[0], coefficient * bounds[1]
            low, high = low + min(a, b), high + max(a, b)
        return low, high

    def _atom_range(self, atom: AffineExpr) -> Range | None:
        if isinstance(atom, AffineDimExpr):
            return self.dim_ranges.get(atom.position)
        if isinstance(atom, AffineSymExpr):
            return self.symbol_ranges.get(atom.position)
        if isinstance(atom, AffineConstantExpr):
            return atom.value, atom.value
        atom_ranges = self._memo.atom_ranges
        if atom in atom_ranges:
            return atom_ranges[atom]
        found = atom_ranges[atom] = self._binary_range(atom)  # type: ignore[arg-type]
        return found

    def _binary_range(self, atom: AffineBinaryOpExpr) -> Range | None:
        assert isinstance(atom, AffineBinaryOpExpr)
        if not isinstance(atom.rhs, AffineConstantExpr) or atom.rhs.value <= 0:
            return None
        divisor = atom.rhs.value
        inner = self._range(self._linear(atom.lhs))
        if atom.kind == AffineBinaryOpKind.Mod:
            if inner is not None and inner[0] >= 0 and inner[1] < divisor:
                return inner
            return 0, divisor - 1
        if inner is None:
            return None
        if atom.kind == AffineBinaryOpKind.FloorDiv:
            return inner[0] // divisor, inner[1] // divisor
        return -(-inner[0] // divisor), -(-inner[1] // divisor)

    # ---- rebuilding -----------------------------------------------------------------------
    def _rebuild(self, value: _Linear) -> AffineExpr:
        ordered = sorted(value.terms.items(), key=lambda item: _order_key(item[0]))
        result: AffineExpr | None = None
        for atom, coefficient in ordered:
            term = atom if coefficient == 1 else atom * coefficient
            result = term if result is None else result + term
        if result is None:
            return AffineConstantExpr(value.constant)
        if value.constant:
            result = result + value.constant
        return result


def _common_factor(value: _Linear, divisor: int) -> int:
    """gcd of the divisor, every coefficient and the constant: floor(g·x / g·k) = floor(x / k)."""
    return math.gcd(divisor, value.constant, *value.terms.values())


def _divide(value: _Linear, factor: int) -> _Linear:
    return _Linear({a: c // factor for a, c in value.terms.items()}, value.constant // factor)


def _order_key(atom: AffineExpr) -> tuple[int, int, str]:
    if isinstance(atom, AffineDimExpr):
        return 0, atom.position, ""
    if isinstance(atom, AffineSymExpr):
        return 1, atom.position, ""
    return 2, min(atom.used_dims(), default=0), str(atom)


def simplify_expr(
    expr: AffineExpr,
    dim_ranges: Mapping[int, Range] | None = None,
    symbol_ranges: Mapping[int, Range] | None = None,
) -> AffineExpr:
    return IndexSimplifier(dim_ranges, symbol_ranges).simplify(expr)
