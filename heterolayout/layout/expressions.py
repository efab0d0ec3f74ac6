"""Quasi-affine expressions (`xdsl.ir.affine`): printing in MLIR syntax and numpy evaluation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

from heterolayout.layout.errors import LayoutError

if TYPE_CHECKING:
    import numpy as np

DIVISION_KINDS = (AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv, AffineBinaryOpKind.Mod)
"""The quasi-affine operators: floordiv, ceildiv and mod (by a constant)."""

_TOKENS = {
    AffineBinaryOpKind.Add: "+",
    AffineBinaryOpKind.Mul: "*",
    AffineBinaryOpKind.FloorDiv: "floordiv",
    AffineBinaryOpKind.CeilDiv: "ceildiv",
    AffineBinaryOpKind.Mod: "mod",
}


def format_expr(expr: AffineExpr) -> str:
    """MLIR's own spelling: only the parentheses that precedence needs (plus clarity on div/mod)."""
    if isinstance(expr, AffineDimExpr):
        return f"d{expr.position}"
    if isinstance(expr, AffineSymExpr):
        return f"s{expr.position}"
    if isinstance(expr, AffineConstantExpr):
        return str(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs = format_expr(expr.lhs), format_expr(expr.rhs)
    if expr.kind == AffineBinaryOpKind.Add:
        if isinstance(expr.rhs, AffineConstantExpr) and expr.rhs.value < 0:
            return f"{lhs} - {-expr.rhs.value}"
        if isinstance(expr.rhs, AffineBinaryOpExpr) and expr.rhs.kind == AffineBinaryOpKind.Add:
            rhs = f"({rhs})"
        return f"{lhs} + {rhs}"
    if isinstance(expr.lhs, AffineBinaryOpExpr):
        lhs = f"({lhs})"
    if isinstance(expr.rhs, AffineBinaryOpExpr):
        rhs = f"({rhs})"
    return f"{lhs} {_TOKENS[expr.kind]} {rhs}"


def times(value: AffineExpr, factor: AffineExpr | int) -> AffineExpr:
    """`value * factor`; a symbolic factor too (MLIR's affine maps allow `d0 * s0`, xDSL's
    operators refuse it, so the node is built directly)."""
    if isinstance(factor, int):
        return value if factor == 1 else value * factor
    return AffineBinaryOpExpr(AffineBinaryOpKind.Mul, value, factor)


def floordiv(value: AffineExpr, divisor: AffineExpr) -> AffineExpr:
    """`value floordiv divisor`, also by a symbol (see `times`)."""
    return AffineBinaryOpExpr(AffineBinaryOpKind.FloorDiv, value, divisor)


def mod(value: AffineExpr, divisor: AffineExpr) -> AffineExpr:
    """`value mod divisor`, also by a symbol (see `times`)."""
    return AffineBinaryOpExpr(AffineBinaryOpKind.Mod, value, divisor)


def format_map(index_map: AffineMap) -> str:
    """`affine_map<(d0, d1) -> (…)>` text that MLIR and xDSL both parse back."""
    dims = ", ".join(f"d{i}" for i in range(index_map.num_dims))
    symbols = ", ".join(f"s{i}" for i in range(index_map.num_symbols))
    results = ", ".join(format_expr(r) for r in index_map.results)
    return f"affine_map<({dims}){f'[{symbols}]' if symbols else ''} -> ({results})>"


def evaluate(expr: AffineExpr, dims: Sequence[np.ndarray | int]) -> np.ndarray | int:
    """Evaluate with numpy broadcasting; floordiv and mod follow floor semantics like MLIR."""
    import numpy as np

    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineSymExpr):
        raise LayoutError(f"symbol s{expr.position} in a layout map: layout maps take no symbols")
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs = evaluate(expr.lhs, dims), evaluate(expr.rhs, dims)
    kind = expr.kind
    if kind == AffineBinaryOpKind.Add:
        return lhs + rhs
    if kind == AffineBinaryOpKind.Mul:
        return lhs * rhs
    if np.any(np.asarray(rhs) <= 0):
        raise LayoutError(
            f"'{format_expr(expr)}': the right side of {_TOKENS[kind]} must be a positive constant"
        )
    if kind == AffineBinaryOpKind.FloorDiv:
        return lhs // rhs
    if kind == AffineBinaryOpKind.CeilDiv:
        return -((-lhs) // rhs)
    return lhs % rhs


def index_grids(shape: Sequence[int]) -> list[np.ndarray]:
    """One broadcastable `arange` per dimension: the logical box without materialising it."""
    import numpy as np

    rank = len(shape)
    return [
        np.arange(extent, dtype=np.int64).reshape([extent if i == d else 1 for i in range(rank)])
        for d, extent in enumerate(shape)
    ]


def expression_depth(expr: AffineExpr) -> int:
    """Operators on the longest path from the root to a leaf, counted without recursion (a
    chain of thousands of `floordiv`s must not exhaust Python's stack to be measured)."""
    deepest, stack = 0, [(expr, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(node, AffineBinaryOpExpr):
            stack += [(node.lhs, depth + 1), (node.rhs, depth + 1)]
    return deepest


def is_quasi_affine(expr: AffineExpr) -> bool:
    """Multiplications have a constant side; divisors and moduli are constants."""
    if not isinstance(expr, AffineBinaryOpExpr):
        return True
    if not (is_quasi_affine(expr.lhs) and is_quasi_affine(expr.rhs)):
        return False
    if expr.kind == AffineBinaryOpKind.Add:
        return True
    if expr.kind == AffineBinaryOpKind.Mul:
        return isinstance(expr.lhs, AffineConstantExpr) or isinstance(expr.rhs, AffineConstantExpr)
    return isinstance(expr.rhs, AffineConstantExpr)


def digit_of(expr: AffineExpr) -> tuple[int, int, int | None] | None:
    """Read `d`, `d floordiv k`, `d mod m` or `(d floordiv k) mod m` as (dim, k, m)."""
    modulus: int | None = None
    if (
        isinstance(expr, AffineBinaryOpExpr)
        and expr.kind == AffineBinaryOpKind.Mod
        and isinstance(expr.rhs, AffineConstantExpr)
    ):
        modulus = expr.rhs.value
        expr = expr.lhs
    divisor = 1
    if (
        isinstance(expr, AffineBinaryOpExpr)
        and expr.kind == AffineBinaryOpKind.FloorDiv
        and isinstance(expr.rhs, AffineConstantExpr)
    ):
        divisor = expr.rhs.value
        expr = expr.lhs
    if (
        not isinstance(expr, AffineDimExpr)
        or divisor <= 0
        or (modulus is not None and modulus <= 0)
    ):
        return None
    return expr.position, divisor, modulus


def linear_form(expr: AffineExpr, rank: int) -> tuple[list[int], int] | None:
    """Coefficients and constant of a pure affine expression, or None if it has div/mod."""
    if isinstance(expr, AffineDimExpr):
        coefficients = [0] * rank
        coefficients[expr.position] = 1
        return coefficients, 0
    if isinstance(expr, AffineConstantExpr):
        return [0] * rank, expr.value
    if not isinstance(expr, AffineBinaryOpExpr):
        return None
    if expr.kind == AffineBinaryOpKind.Add:
        lhs, rhs = linear_form(expr.lhs, rank), linear_form(expr.rhs, rank)
        if lhs is None or rhs is None:
            return None
        return [a + b for a, b in zip(lhs[0], rhs[0], strict=True)], lhs[1] + rhs[1]
    if expr.kind == AffineBinaryOpKind.Mul:
        for factor, other in ((expr.lhs, expr.rhs), (expr.rhs, expr.lhs)):
            if isinstance(factor, AffineConstantExpr):
                form = linear_form(other, rank)
                if form is None:
                    return None
                return [c * factor.value for c in form[0]], form[1] * factor.value
    return None


def format_shape(shape: Sequence[int | None]) -> str:
    """`4x?x16`, or `()` for rank 0."""
    return "x".join(format_extent(e) for e in shape) if shape else "()"


def format_extent(extent: int | None) -> str:
    return "?" if extent is None else str(extent)


def format_index(index: Sequence[int]) -> str:
    """An index as the seeds write it: `(0,0,0,29)`."""
    return "(" + ",".join(str(v) for v in index) + ")"
