"""What makes a map a layout on a logical shape: its form (quasi-affine, no symbols, bounded
nesting), the dims it may leave dynamic, the physical extents its results reach (exact, or a
given shape proven large enough), and the 64-bit bound on indices and buffer sizes.

`Layout.create` asks these before it builds a layout; the dialect's `#layout.map` asks
`check_map_form` at parse time.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap

from heterolayout.layout.dynamic import extent_expr
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import (
    digit_of,
    evaluate,
    expression_depth,
    format_expr,
    format_extent,
    format_map,
    format_shape,
    index_grids,
    is_quasi_affine,
    linear_form,
)
from heterolayout.layout.limits import (
    MAX_ELEMENTS,
    MAX_RANK,
    LimitError,
    max_nesting,
    nesting_limit_text,
)
from heterolayout.layout.simplify import IndexSimplifier

Shape = tuple[int | None, ...]

INDEX_LIMIT = 2**62
"""Index values and buffer sizes stay below this, far inside int64 (numpy and MLIR's index)."""


def check_map_on_shape(index_map: AffineMap, shape: Shape, where: str) -> None:
    """The map fits the logical shape: ranks within the limit, one map dim per logical dim,
    a layout map's form, `?` dims only in results bounded over the sizes, 64-bit results."""
    for extent in shape:
        if extent is not None and extent < 0:
            raise LayoutError(f"{where}: logical shape {format_shape(shape)} has a negative extent")
    for what, rank in (("logical", len(shape)), ("physical", len(index_map.results))):
        if rank > MAX_RANK:
            raise LayoutError(
                f"{where}: {rank} {what} dims, more than the limit of {MAX_RANK} "
                "(numpy's, which holds the engines' buffers)"
            )
    if index_map.num_dims != len(shape):
        raise LayoutError(
            f"{where}: the map takes {index_map.num_dims} dims but the shape "
            f"{format_shape(shape)} has rank {len(shape)}"
        )
    check_map_form(index_map, f"{where}: ")
    _check_dynamic(shape, index_map, where)
    _check_magnitude(shape, index_map, where)


def physical_extents(
    shape: Shape, index_map: AffineMap, given: Sequence[int | None] | None, where: str
) -> Shape:
    """The physical shape: the exact extents of the results, or `given` when it holds
    them (an error naming the first result it does not hold). A result that uses a `?` dim
    has the constant it stays below whatever the sizes (`d0 mod 4`: 4), else `?`."""
    dynamic = {d for d, e in enumerate(shape) if e is None}
    uses_dynamic = [bool(r.used_dims() & dynamic) for r in index_map.results]
    if given is None:
        physical = tuple(
            _constant_extent(r, shape, where) if dyn else extent
            for r, dyn, extent in zip(
                index_map.results, uses_dynamic, exact_extents(shape, index_map, where), strict=True
            )
        )
    else:
        physical = tuple(None if e is None else int(e) for e in given)
        if len(physical) != len(index_map.results):
            raise LayoutError(
                f"{where}: physical shape {format_shape(physical)} has rank {len(physical)} "
                f"but the map has {len(index_map.results)} results"
            )
        static_given = tuple(
            None if dyn else e for e, dyn in zip(physical, uses_dynamic, strict=True)
        )
        exact = _needed_extents(shape, index_map, static_given, where)
        if 0 in shape:  # an empty box reaches no physical index: any extent holds it
            exact = tuple(None if e is None else 0 for e in exact)
        for position, (extent, needed) in enumerate(zip(physical, exact, strict=True)):
            result = index_map.results[position]
            if uses_dynamic[position]:
                _check_dynamic_extent(result, extent, shape, position, where)
            elif (extent is None) != (needed is None) or (
                extent is not None and needed is not None and extent < needed
            ):
                raise LayoutError(
                    f"{where}: physical dim {position} has extent {format_extent(extent)}, but result "
                    f"'{format_expr(result)}' reaches {format_extent(needed)}"
                )
    if None not in physical and math.prod(physical) >= INDEX_LIMIT:  # type: ignore[arg-type]
        raise LayoutError(
            f"{where}: the physical buffer {format_shape(physical)} is too large "
            "(the limit is 2^62 slots)"
        )
    return physical


def _constant_extent(result: AffineExpr, shape: Shape, where: str) -> int | None:
    extent = extent_expr(result, shape, where)
    return extent.value if isinstance(extent, AffineConstantExpr) else None


def _check_dynamic_extent(
    result: AffineExpr, extent: int | None, shape: Shape, position: int, where: str
) -> None:
    """A given extent of a result that uses a `?` dim: `?`, or a constant that holds it
    whatever the sizes."""
    if extent is None:
        return
    needed = extent_expr(result, shape, where)
    if not isinstance(needed, AffineConstantExpr) or needed.value > extent:
        raise LayoutError(
            f"{where}: physical dim {position} has extent {extent}, but result "
            f"'{format_expr(result)}' reaches {format_expr(needed)} (over the sizes d<i> of "
            "the logical dims); give it as '?'"
        )


def dynamic_extents(
    shape: Shape,
    index_map: AffineMap,
    physical: Shape,
    given: Sequence[AffineExpr | None] | None,
    where: str,
) -> tuple[AffineExpr, ...]:
    """Each physical extent as an expression of the logical sizes: the constant where it is
    static, else `given` (a notation's own choice, e.g. upstream's) or the bound the
    result reaches (`extent_expr`)."""
    extents = []
    for position, (result, extent) in enumerate(zip(index_map.results, physical, strict=True)):
        chosen = None if given is None else given[position]
        if extent is not None:
            extents.append(AffineExpr.constant(extent))
        elif chosen is not None:
            extents.append(chosen)
        else:
            extents.append(extent_expr(result, shape, where))
    return tuple(extents)


def check_map_nesting(index_map: AffineMap, prefix: str = "") -> None:
    """Deep expressions are refused before anything recurses over them or solves for them."""
    try:
        limit = max_nesting()
    except LimitError as error:
        raise LayoutError(f"{prefix}{error}") from None
    for result in index_map.results:
        depth = expression_depth(result)
        if depth > limit:
            raise LayoutError(
                f"{prefix}a result of the map nests {depth} operators deep, more than "
                f"{nesting_limit_text(limit)}"
            )


def check_map_form(index_map: AffineMap, prefix: str = "") -> None:
    """What a layout map must be before any shape is known: no symbols, some results, and
    each result quasi-affine. The dialect's `#layout.map` checks the same at parse time."""
    if index_map.num_symbols:
        raise LayoutError(f"{prefix}layout maps take no symbols: {format_map(index_map)}")
    if not index_map.results:
        raise LayoutError(f"{prefix}the map {format_map(index_map)} has no results")
    check_map_nesting(index_map, prefix)
    for result in index_map.results:
        if not is_quasi_affine(result):
            raise LayoutError(
                f"{prefix}'{format_expr(result)}' in {format_map(index_map)} is not quasi-affine"
            )


def _check_dynamic(shape: Shape, index_map: AffineMap, where: str) -> None:
    """Every result that uses a `?` dim has an extent over the sizes (`extent_expr`)."""
    dynamic = {d for d, e in enumerate(shape) if e is None}
    for result in index_map.results:
        if result.used_dims() & dynamic:
            extent_expr(result, shape, where)


def _check_magnitude(shape: Shape, index_map: AffineMap, where: str) -> None:
    simplifier = IndexSimplifier({d: (0, 0 if e is None else e - 1) for d, e in enumerate(shape)})
    for result in index_map.results:
        bounds = simplifier.range_of(result)
        if bounds is None:
            continue  # not a quasi-affine form it can bound: the evaluation says why
        low, high = bounds
        if max(abs(low), abs(high)) >= INDEX_LIMIT:
            raise LayoutError(
                f"{where}: result '{format_expr(result)}' reaches {high if abs(high) >= abs(low) else low}, "
                "beyond the 64-bit index range"
            )


def _needed_extents(
    shape: Shape, index_map: AffineMap, given: Shape, where: str
) -> tuple[int | None, ...]:
    """The extents the results need, where `given` extents may be enough: when the
    simplifier's bounds prove every result lies in [0, given) they are returned as they are,
    without evaluating the map over the box; otherwise the exact extents."""
    dynamic = {d for d, e in enumerate(shape) if e is None}
    simplifier = IndexSimplifier({d: (0, e - 1) for d, e in enumerate(shape) if e is not None})
    for result, extent in zip(index_map.results, given, strict=True):
        if result.used_dims() & dynamic:
            if extent is not None:
                break
            continue
        bounds = simplifier.range_of(result)
        if extent is None or bounds is None or bounds[0] < 0 or bounds[1] >= extent:
            break
    else:
        return tuple(given)
    return exact_extents(shape, index_map, where)


def exact_extents(shape: Shape, index_map: AffineMap, where: str) -> tuple[int | None, ...]:
    """max + 1 of every result over the logical box (0 when a dim it uses is empty); a
    negative minimum is an error. Digits and affine results are bounded in closed form,
    others point by point over the dims they use, up to `MAX_ELEMENTS` points."""
    extents: list[int | None] = []
    for result in index_map.results:
        used = sorted(result.used_dims())
        if any(shape[d] is None for d in used):
            extents.append(None)
            continue
        static: tuple[int, ...] = tuple(1 if e is None else e for e in shape)
        if any(static[d] == 0 for d in used):
            extents.append(0)
            continue
        low, high, at = _result_range(result, static, used, where)
        if low < 0:
            raise LayoutError(
                f"{where}: result '{format_expr(result)}' is negative ({low}) at logical index {at}"
            )
        extents.append(high + 1)
    return tuple(extents)


def _result_range(
    result: AffineExpr, shape: tuple[int, ...], used: list[int], where: str
) -> tuple[int, int, tuple[int, ...]]:
    """(min, max, a logical index where the min is reached) of `result` over the box."""
    import numpy as np

    digit = digit_of(result)
    if digit is not None:
        dim, divisor, modulus = digit
        top = (shape[dim] - 1) // divisor
        return 0, top if modulus is None else min(top, modulus - 1), (0,) * len(shape)
    form = linear_form(result, len(shape))
    if form is not None:
        coefficients, constant = form
        spans = [c * (e - 1) for c, e in zip(coefficients, shape, strict=True)]
        at = tuple(e - 1 if c < 0 else 0 for c, e in zip(coefficients, shape, strict=True))
        low = constant + sum(min(0, v) for v in spans)
        return low, constant + sum(max(0, v) for v in spans), at
    points = math.prod(shape[d] for d in used)
    if points > MAX_ELEMENTS:
        raise LayoutError(
            f"{where}: the extent of '{format_expr(result)}' would be computed point by point "
            f"over {points} points, beyond the limit of {MAX_ELEMENTS}"
        )
    grids = index_grids([e if d in used else 1 for d, e in enumerate(shape)])
    values = np.broadcast_to(
        np.asarray(evaluate(result, grids)),
        [shape[d] if d in used else 1 for d in range(len(shape))],
    )
    flat = int(np.argmin(values))
    at = tuple(int(i) for i in np.unravel_index(flat, values.shape))
    return int(values.min()), int(values.max()), at
