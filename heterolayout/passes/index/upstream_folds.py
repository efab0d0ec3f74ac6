"""Affine maps that upstream MLIR's canonicalization folds wrongly, so index code avoids them.

MLIR 22's `getBoundForAffineExpr` takes the lower bound of `x mod c` as `lb(x) mod c` even
where x crosses a multiple of c (it asks for x's lower bound twice), so `simplifyMapWithOperands`,
which every `affine.apply`, `affine.load`/`store` and `affine.vector_load`/`store` goes through
in `--canonicalize` (and in any pass that runs its patterns: `--convert-linalg-to-loops`),
folds a floordiv, ceildiv or mod over a mod of `affine.for` variables wrongly:
`(i mod 6) floordiv 4` for i in 5 to 12 becomes 1, though i = 8 gives 0, and
`(i mod 6) mod 4` becomes `(i mod 6) - 4`. Upstream composes
the `affine.apply`s that define a map's operands into the map first, so an operand defined by
such an apply counts as its expression. A division found here is emitted as `arith` (opaque
to the affine patterns) instead.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineDimExpr, AffineExpr

from heterolayout.layout.expressions import DIVISION_KINDS


def divides_a_mod(expr: AffineExpr, operands: Sequence[SSAValue]) -> bool:
    """`expr` is a floordiv, ceildiv or mod whose dividend's lower bound upstream takes from
    a mod: the dividend, through floordivs, ceildivs and mods on the left, reaches a mod or
    an operand that an `affine.apply` of such an expression defines."""
    if not isinstance(expr, AffineBinaryOpExpr) or expr.kind not in DIVISION_KINDS:
        return False
    return _bounded_by_a_mod(expr.lhs, operands)


def misfolded_by_upstream(exprs: Sequence[AffineExpr], operands: Sequence[SSAValue]) -> bool:
    """Some subexpression of `exprs` (over `operands`) is a division `divides_a_mod` finds."""
    return any(divides_a_mod(part, operands) for expr in exprs for part in _subexpressions(expr))


def _bounded_by_a_mod(expr: AffineExpr, operands: Sequence[SSAValue]) -> bool:
    while isinstance(expr, AffineBinaryOpExpr) and expr.kind in DIVISION_KINDS:
        if expr.kind == AffineBinaryOpKind.Mod:
            return True
        expr = expr.lhs
    if isinstance(expr, AffineDimExpr) and expr.position < len(operands):
        owner = operands[expr.position].owner
        if isinstance(owner, affine.ApplyOp):
            return _bounded_by_a_mod(owner.map.data.results[0], list(owner.mapOperands))
    return False


def _subexpressions(expr: AffineExpr) -> list[AffineExpr]:
    found, stack = [], [expr]
    while stack:
        part = stack.pop()
        found.append(part)
        if isinstance(part, AffineBinaryOpExpr):
            stack += [part.lhs, part.rhs]
    return found
