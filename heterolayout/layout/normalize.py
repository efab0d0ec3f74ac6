"""Physical extents of a builtin `affine_map` layout, as upstream `--normalize-memrefs` sizes them.

Upstream (`affine::normalizeMemRefType`) flattens the map into linear constraints with one
local variable per `floordiv`/`ceildiv`/`mod`, projects the logical dims out by
Fourier–Motzkin elimination (rational, each derived row tightened by its gcd) and takes the
constant upper bound of each result. That bound is not always the exact maximum: a
`d0 mod 4` result has extent 4 even on 3 elements. Sizing the physical buffer the same way
keeps a signature lowered here equal to the one lowered upstream; the `Layout` model checks
that the extents cover the map and holds the extra slots as padding.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import format_expr, format_map

Row = tuple[int, ...]
"""Coefficients over [result, dims…, locals…] and a trailing constant: `row · x + c >= 0`
(an inequality) or `== 0` (an equality)."""

_MAX_ROWS = 20000


class _Flattener:
    """Linear forms over dims and local quotients, sharing a local between equal quotients
    (MLIR's `SimpleAffineExprFlattener`, including its gcd simplification of divisions)."""

    def __init__(self, num_dims: int) -> None:
        self.num_dims = num_dims
        self.keys: list[tuple[bool, tuple[int, ...], int]] = []
        """Each local's quotient as written (ceil or floor, dividend, divisor): equal
        quotients share a local."""
        self.locals: list[tuple[tuple[int, ...], int]] = []
        """(dividend over dims + earlier locals, without trailing zeros, + constant; divisor)
        of each local."""

    def width(self) -> int:
        return self.num_dims + len(self.locals) + 1

    def _pad(self, form: list[int]) -> list[int]:
        return form[:-1] + [0] * (self.width() - len(form)) + form[-1:]

    def flatten(self, expr: AffineExpr) -> list[int]:
        if isinstance(expr, AffineDimExpr):
            form = [0] * self.width()
            form[expr.position] = 1
            return form
        if isinstance(expr, AffineConstantExpr):
            return [0] * (self.width() - 1) + [expr.value]
        if not isinstance(expr, AffineBinaryOpExpr):
            raise LayoutError(f"'{format_expr(expr)}' uses a symbol")
        split = _split_multiple(expr)
        if split is not None:
            return self.flatten(split)
        lhs = self.flatten(expr.lhs)
        rhs = self._pad(self.flatten(expr.rhs))
        lhs = self._pad(lhs)
        if expr.kind == AffineBinaryOpKind.Add:
            return [a + b for a, b in zip(lhs, rhs, strict=True)]
        constant = _constant(rhs)
        if expr.kind == AffineBinaryOpKind.Mul:
            if constant is None:
                constant, lhs = _constant(lhs), rhs
            if constant is None:
                raise LayoutError(f"'{format_expr(expr)}' is semi-affine")
            return [constant * a for a in lhs]
        if constant is None or constant <= 0:
            raise LayoutError(f"'{format_expr(expr)}' does not divide by a positive constant")
        if expr.kind == AffineBinaryOpKind.Mod:
            quotient = self._pad(self._floordiv(lhs, constant))
            return [a - constant * q for a, q in zip(self._pad(lhs), quotient, strict=True)]
        return self._floordiv(lhs, constant, ceil=expr.kind == AffineBinaryOpKind.CeilDiv)

    def _floordiv(self, dividend: list[int], divisor: int, *, ceil: bool = False) -> list[int]:
        common = math.gcd(divisor, *dividend)
        dividend, divisor = [a // common for a in dividend], divisor // common
        if divisor == 1:
            return dividend
        coefficients = dividend[:-1]
        while coefficients and not coefficients[-1]:
            coefficients = coefficients[:-1]
        key = (ceil, (*coefficients, dividend[-1]), divisor)
        if key not in self.keys:
            self.keys.append(key)
            shift = divisor - 1 if ceil else 0  # ceildiv(e, c) == floordiv(e + c - 1, c)
            self.locals.append(((*coefficients, dividend[-1] + shift), divisor))
        form = [0] * self.width()
        form[self.num_dims + self.keys.index(key)] = 1
        return form


def _split_multiple(expr: AffineBinaryOpExpr) -> AffineExpr | None:
    """MLIR's construction-time rewrite of `(a + b) floordiv c` to `a floordiv c + b floordiv c`
    and of `(a + b) mod c` to `a mod c + b mod c` when `a` or `b` is a known multiple of c
    (upstream flattens the rewritten expression, which changes its bounds)."""
    lhs, rhs = expr.lhs, expr.rhs
    if (
        expr.kind not in (AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.Mod)
        or not isinstance(rhs, AffineConstantExpr)
        or rhs.value <= 0
        or not isinstance(lhs, AffineBinaryOpExpr)
        or lhs.kind != AffineBinaryOpKind.Add
    ):
        return None
    if _known_divisor(lhs.lhs) % rhs.value and _known_divisor(lhs.rhs) % rhs.value:
        return None
    if expr.kind == AffineBinaryOpKind.FloorDiv:
        return AffineBinaryOpExpr(
            AffineBinaryOpKind.Add,
            AffineBinaryOpExpr(expr.kind, lhs.lhs, rhs),
            AffineBinaryOpExpr(expr.kind, lhs.rhs, rhs),
        )
    other = lhs.rhs if _known_divisor(lhs.lhs) % rhs.value == 0 else lhs.lhs
    return AffineBinaryOpExpr(expr.kind, other, rhs)


def _known_divisor(expr: AffineExpr) -> int:
    """MLIR's `getLargestKnownDivisor`."""
    if isinstance(expr, AffineConstantExpr):
        return abs(expr.value)
    if not isinstance(expr, AffineBinaryOpExpr):
        return 1
    lhs = _known_divisor(expr.lhs)
    if expr.kind == AffineBinaryOpKind.Mul:
        return lhs * _known_divisor(expr.rhs)
    if expr.kind in (AffineBinaryOpKind.Add, AffineBinaryOpKind.Mod):
        return math.gcd(lhs, _known_divisor(expr.rhs))
    if isinstance(expr.rhs, AffineConstantExpr) and expr.rhs.value and lhs % expr.rhs.value == 0:
        return abs(lhs // expr.rhs.value)
    return 1


def _constant(form: Sequence[int]) -> int | None:
    return form[-1] if not any(form[:-1]) else None


def normalized_extents(index_map: AffineMap, shape: Sequence[int | None]) -> tuple[int | None, ...]:
    """Upstream's physical extent of each result: its constant upper bound + 1 (None for a
    result that uses a `?` dim). Raises `LayoutError` where upstream cannot normalize: a
    semi-affine map, a result without a constant upper bound, or one below zero."""
    where = format_map(index_map)
    flattener = _Flattener(index_map.num_dims)
    try:
        forms = [flattener.flatten(result) for result in index_map.results]
    except LayoutError as error:
        raise LayoutError(
            f"{where}: {error}; upstream --normalize-memrefs cannot size it"
        ) from None
    system = _system(flattener, [flattener._pad(f) for f in forms], shape)
    results = len(forms)
    system.project_out(results, index_map.num_dims)
    dynamic = {d for d, e in enumerate(shape) if e is None}
    extents: list[int | None] = []
    for position, result in enumerate(index_map.results):
        if result.used_dims() & dynamic:
            extents.append(None)
            continue
        bound = system.copy().constant_upper_bound(position)
        if bound is None or bound < 0:
            raise LayoutError(
                f"{where}: result '{format_expr(result)}' has "
                f"{'no constant upper bound' if bound is None else 'a negative upper bound'}"
            )
        extents.append(bound + 1)
    return tuple(extents)


def _system(flattener: _Flattener, forms: list[list[int]], shape: Sequence[int | None]) -> _System:
    """Upstream's constraints, in its order: variables [results, dims, locals]; the box of
    the static dims, each local's definition, then `result - form == 0` per result."""
    results, dims, count = len(forms), flattener.num_dims, len(flattener.locals)
    width = results + dims + count + 1
    system = _System([], [])
    for dim, extent in enumerate(shape):
        if extent is not None:
            lower, upper = [0] * width, [0] * width
            lower[results + dim], upper[results + dim], upper[-1] = 1, -1, extent - 1
            system.inequalities += [lower, upper]
    for position, (dividend, divisor) in enumerate(flattener.locals):
        upper = [0] * width  # dividend - divisor·q >= 0
        upper[results : results + len(dividend) - 1] = dividend[:-1]
        upper[-1] = dividend[-1]
        upper[results + dims + position] = -divisor
        lower = [-v for v in upper]  # divisor·q + divisor - 1 - dividend >= 0
        lower[-1] += divisor - 1
        system.inequalities += [lower, upper]
    for position, form in enumerate(forms):
        equality = [0] * results + [-v for v in form]
        equality[position] = 1
        system.equalities.append(equality)
    return system


class _System:
    """Linear constraints over integers (`row · x + c >= 0` / `== 0`, constant last),
    projected as MLIR's `IntegerRelation` projects them, so bounds agree with upstream's."""

    def __init__(self, equalities: list[list[int]], inequalities: list[list[int]]) -> None:
        self.equalities = equalities
        self.inequalities = inequalities

    def copy(self) -> _System:
        return _System([list(r) for r in self.equalities], [list(r) for r in self.inequalities])

    @property
    def num_vars(self) -> int:
        rows = self.equalities or self.inequalities
        return len(rows[0]) - 1 if rows else 0

    def constant_upper_bound(self, position: int) -> int | None:
        self.project_out(0, position)
        self.project_out(1, self.num_vars - 1)
        for row in self.equalities:
            if abs(row[0]) == 1 and not any(row[1:-1]):
                return -row[-1] // row[0]
        bounds = [
            math.floor(row[-1] / -row[0])
            for row in self.inequalities
            if row[0] < 0 and not any(row[1:-1])
        ]
        return min(bounds) if bounds else None

    def project_out(self, position: int, count: int) -> None:
        if count <= 0:
            return
        current, remaining, substituted = position, count, 0
        while current < self.num_vars:
            eliminated = self._gaussian(current, current + remaining)
            current += 1
            remaining -= eliminated + 1
            substituted += eliminated
        for step in range(count - substituted):
            self._fourier_motzkin(
                self._best_variable(position, position + count - substituted - step)
            )
        self._tighten()
        self._normalize()

    def _gaussian(self, start: int, limit: int) -> int:
        """Eliminate variables start, start + 1, … by equalities while each has one (or
        appears nowhere); the number eliminated."""
        if start >= limit:
            return 0
        self._tighten()
        column = start
        while column < limit:
            pivot = next((r for r in self.equalities if r[column]), None)
            if pivot is None:
                if any(r[column] for r in self.inequalities):
                    break
                column += 1
                continue
            self.equalities = [
                _normalized(_combine(r, pivot, column)) for r in self.equalities if r is not pivot
            ]
            self.inequalities = [_normalized(_combine(r, pivot, column)) for r in self.inequalities]
            self._tighten()
            column += 1
        for rows in (self.equalities, self.inequalities):
            for row in rows:
                del row[start:column]
        return column - start

    def _best_variable(self, start: int, end: int) -> int:
        def product(column: int) -> int:
            lower = sum(1 for r in self.inequalities if r[column] > 0)
            upper = sum(1 for r in self.inequalities if r[column] < 0)
            return lower * upper

        return min(range(start, end), key=product)

    def _fourier_motzkin(self, column: int) -> None:
        if any(r[column] for r in self.equalities):
            self._gaussian(column, column + 1)
            return
        self._tighten()
        lower = [r for r in self.inequalities if r[column] > 0]
        upper = [r for r in self.inequalities if r[column] < 0]
        combined = []
        for up in upper:
            for low in lower:
                multiple = math.lcm(low[column], -up[column])
                low_scale, up_scale = multiple // low[column], multiple // -up[column]
                combined.append(
                    [u * up_scale + v * low_scale for u, v in zip(up, low, strict=True)]
                )
        combined += [list(r) for r in self.inequalities if not r[column]]
        if len(combined) > _MAX_ROWS:
            raise LayoutError("the layout map's constraints grow too large to bound")
        for row in combined:
            del row[column]
        for row in self.equalities:
            del row[column]
        self.inequalities = combined
        self._tighten()
        self._normalize()
        self._remove_trivial_redundancy()

    def _tighten(self) -> None:
        for row in self.inequalities:
            common = math.gcd(*row[:-1])
            if common > 1:
                row[:-1] = [v // common for v in row[:-1]]
                row[-1] = row[-1] // common

    def _normalize(self) -> None:
        self.equalities = [_normalized(r) for r in self.equalities]
        self.inequalities = [_normalized(r) for r in self.inequalities]

    def _remove_trivial_redundancy(self) -> None:
        """Drop rows `c >= 0` with c >= 0 and duplicates; of rows differing only in the
        constant, keep the tightest."""
        self._tighten()
        self._normalize()
        best: dict[tuple[int, ...], int] = {}
        for index, row in enumerate(self.inequalities):
            if not any(row[:-1]) and row[-1] >= 0:
                continue
            key = tuple(row[:-1])
            if key not in best or self.inequalities[best[key]][-1] > row[-1]:
                best[key] = index
        self.inequalities = [self.inequalities[i] for i in sorted(best.values())]


def _combine(row: list[int], pivot: list[int], column: int) -> list[int]:
    """`row` without `column`, by a multiple of the equality `pivot`."""
    lead = row[column]
    if not lead:
        return row
    pivot_coefficient = pivot[column]
    sign = -1 if lead * pivot_coefficient > 0 else 1
    multiple = math.lcm(pivot_coefficient, lead)
    pivot_scale = sign * (multiple // abs(pivot_coefficient))
    row_scale = multiple // abs(lead)
    return [pivot_scale * p + row_scale * r for p, r in zip(pivot, row, strict=True)]


def _normalized(row: list[int]) -> list[int]:
    common = math.gcd(*row)
    return [v // common for v in row] if common > 1 else row


def tile_positions(index_map: AffineMap) -> list[tuple[int, int, int]]:
    """Upstream's `getTileSizePos`: (tile size, floordiv position, mod position) of each
    `X floordiv c` result whose `X` appears elsewhere only as the result `X mod c`; empty
    when some result uses such an `X` otherwise (the map is then no tiled layout)."""
    results = index_map.results
    floordivs = [
        (r.lhs, r.rhs, position)
        for position, r in enumerate(results)
        if isinstance(r, AffineBinaryOpExpr)
        and r.kind == AffineBinaryOpKind.FloorDiv
        and isinstance(r.rhs, AffineConstantExpr)
    ]
    tiles: list[tuple[int, int, int]] = []
    for lhs, rhs, floordiv_position in floordivs:
        found = False
        for position, result in enumerate(results):
            if position == floordiv_position:
                continue
            for _ in (e for e in _subexpressions(result) if e == lhs):
                is_tile = (
                    isinstance(result, AffineBinaryOpExpr)
                    and result.kind == AffineBinaryOpKind.Mod
                    and (result.lhs, result.rhs) == (lhs, rhs)
                )
                if not is_tile or found:
                    return []
                assert isinstance(rhs, AffineConstantExpr)
                tiles.append((rhs.value, floordiv_position, position))
                found = True
    return tiles


def upstream_sizes(
    index_map: AffineMap, shape: Sequence[int | None], where: str
) -> tuple[AffineExpr | None, ...] | None:
    """The size upstream's normalization allocates for each result that uses a `?` dim, as
    an expression of the logical sizes (`createNewDynamicSizes`: a tile's `X floordiv c` gets
    `X ceildiv c`, its `X mod c` gets `c`, any other result itself, at the sizes), where
    that size holds the result; None where it does not (an unpaired `d1 mod 3` is `n mod
    3` there, 0 at n = 3) and for the other results. None in all when upstream leaves the
    map alone (no tile: `tile_positions` is empty)."""
    from heterolayout.layout.dynamic import extent_expr

    tiles = tile_positions(index_map)
    if not tiles:
        return None
    rank = len(shape)
    at_sizes = [
        AffineExpr.dimension(d) if e is None else AffineExpr.constant(e)
        for d, e in enumerate(shape)
    ]
    dynamic = {d for d, e in enumerate(shape) if e is None}
    sizes: list[AffineExpr | None] = []
    for position, result in enumerate(index_map.results):
        if not result.used_dims() & dynamic:
            sizes.append(None)
            continue
        tile = next((t for t in tiles if position in t[1:]), None)
        evaluated = result.replace_dims_and_symbols(at_sizes, [])
        if tile is not None and position == tile[2]:
            size = value = AffineExpr.constant(tile[0])
            needed = extent_expr(result, tuple(shape), where)
        elif tile is not None:
            assert isinstance(result, AffineBinaryOpExpr)
            value = result.lhs.replace_dims_and_symbols(at_sizes, [])
            size, needed = value.ceil_div(tile[0]), extent_expr(result.lhs, tuple(shape), where)
        else:
            size = value = evaluated
            needed = extent_expr(result, tuple(shape), where)
        sizes.append(size if _reaches(value, needed, rank) else None)
    return tuple(sizes)


def _reaches(value: AffineExpr, needed: AffineExpr, rank: int) -> bool:
    """Whether `value` ≥ `needed` at every size: both linear, equal but for the constant."""
    from heterolayout.layout.expressions import linear_form

    have, want = linear_form(value, rank), linear_form(needed, rank)
    return have is not None and want is not None and have[0] == want[0] and have[1] >= want[1]


def _subexpressions(expr: AffineExpr) -> list[AffineExpr]:
    found, stack = [], [expr]
    while stack:
        node = stack.pop()
        found.append(node)
        if isinstance(node, AffineBinaryOpExpr):
            stack += [node.lhs, node.rhs]
    return found
