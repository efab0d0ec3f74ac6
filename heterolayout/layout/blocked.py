"""The digit model shared by tags and HTP chunked layouts.

A blocked layout lists physical dims outermost first; each is a term `(dim, size)`: a block
of `size`, or (size None) the rest of that dim. For a dim with blocks b1 … bk in that order,
the rest is `d floordiv (b1⋯bk)` with extent ceil(D / (b1⋯bk)) and block j is
`(d floordiv (b(j+1)⋯bk)) mod bj`: the last block is the least significant digit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap

from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import digit_of
from heterolayout.layout.limits import MAX_RANK

MAX_EXTENT = 2**40
"""Largest extent or block accepted: index arithmetic stays far inside int64."""


@dataclass(frozen=True)
class Term:
    """One physical dim of a blocked layout: a block of `size` elements of logical dim `dim`,
    or the rest of that dim when `size` is None."""

    dim: int
    size: int | None = None


def check_terms(terms: Sequence[Term], rank: int, where: str, names: str | None = None) -> None:
    """Every dim once without a size, positive blocks, dims in range."""

    def name(dim: int) -> str:
        return f"'{names[dim]}'" if names else str(dim)

    if len(terms) > MAX_RANK:
        raise LayoutError(
            f"{where}: {len(terms)} physical dims, more than the limit of {MAX_RANK} "
            "(numpy's, which holds the engines' buffers)"
        )
    rests: dict[int, int] = {}
    for term in terms:
        if not 0 <= term.dim < rank:
            raise LayoutError(f"{where}: dim {term.dim} is out of range for rank {rank}")
        if term.size is None:
            if term.dim in rests:
                raise LayoutError(f"{where}: dim {name(term.dim)} appears twice without a size")
            rests[term.dim] = 1
        elif term.size <= 0:
            raise LayoutError(
                f"{where}: block size {term.size} of dim {name(term.dim)} must be positive"
            )
        elif term.size > MAX_EXTENT:
            raise LayoutError(
                f"{where}: block size {term.size} of dim {name(term.dim)} is too large "
                f"(the limit is 2^40 = {MAX_EXTENT})"
            )
    missing = [d for d in range(rank) if d not in rests]
    if missing:
        raise LayoutError(
            f"{where}: dim {name(missing[0])} does not appear without a size "
            "(every logical dim needs one term for the rest of it)"
        )


def block_product(terms: Sequence[Term], dim: int) -> int:
    return math.prod(t.size for t in terms if t.dim == dim and t.size is not None)


def digit_weights(terms: Sequence[Term]) -> tuple[int, ...]:
    """What one step of each physical dim is worth in its logical dim: the product of the
    blocks of that dim after it (the rest of a dim is worth all of its blocks). A logical
    index is the sum of its digits times their weights."""
    weights = []
    for position, term in enumerate(terms):
        after = terms if term.size is None else terms[position + 1 :]
        weights.append(block_product(after, term.dim))
    return tuple(weights)


def blocked_map(terms: Sequence[Term], rank: int) -> AffineMap:
    """Logical index → digits: the rest `d floordiv (b1⋯bk)`, block j `(d floordiv w) mod bj`."""
    results: list[AffineExpr] = []
    for term, weight in zip(terms, digit_weights(terms), strict=True):
        d = AffineExpr.dimension(term.dim)
        shifted = d if weight == 1 else d // weight
        results.append(shifted if term.size is None else shifted % term.size)
    return AffineMap(rank, 0, tuple(results))


def digits_inverse(terms: Sequence[Term], rank: int) -> AffineMap:
    """Digits → logical index (in the padded box): each dim is Σ digit · weight."""
    totals: list[AffineExpr] = [AffineExpr.constant(0)] * rank
    for position, (term, weight) in enumerate(zip(terms, digit_weights(terms), strict=True)):
        digit = AffineExpr.dimension(position)
        term_value = digit if weight == 1 else digit * weight
        current = totals[term.dim]
        is_zero = isinstance(current, AffineConstantExpr) and current.value == 0
        totals[term.dim] = term_value if is_zero else current + term_value
    return AffineMap(len(terms), 0, tuple(totals))


def blocked_physical_shape(
    terms: Sequence[Term], shape: Sequence[int | None]
) -> tuple[int | None, ...]:
    """Blocks keep their size; the rest of a dim is ceil(D / blocks), `?` when D is."""
    extents: list[int | None] = []
    for term in terms:
        if term.size is not None:
            extents.append(term.size)
            continue
        extent, below = shape[term.dim], block_product(terms, term.dim)
        extents.append(None if extent is None else -(-extent // below))
    return tuple(extents)


def recognize_terms(
    index_map: AffineMap, shape: Sequence[int | None], physical_shape: Sequence[int | None]
) -> tuple[Term, ...] | None:
    """The terms whose digit model is exactly this map and physical shape, if any."""
    digits = [digit_of(result) for result in index_map.results]
    if any(digit is None for digit in digits):
        return None
    by_dim: dict[int, list[tuple[int, int | None]]] = {}
    for digit in digits:
        assert digit is not None
        by_dim.setdefault(digit[0], []).append((digit[1], digit[2]))
    if sorted(by_dim) != list(range(index_map.num_dims)):
        return None
    for dim_digits in by_dim.values():
        dim_digits.sort(key=lambda digit: (digit[0], digit[1] is None, digit[1] or 0))
        expected = 1
        for position, (divisor, modulus) in enumerate(dim_digits):
            last = position == len(dim_digits) - 1
            if divisor != expected or (modulus is None) != last:
                return None
            if modulus is not None:
                expected *= modulus
    terms = tuple(Term(digit[0], digit[2]) for digit in digits if digit is not None)
    if blocked_map(terms, index_map.num_dims) != index_map:
        return None
    expected_shape = blocked_physical_shape(terms, shape)
    return terms if tuple(expected_shape) == tuple(physical_shape) else None
