"""Index-set splitting: a nest whose inner loops have `max`/`min` bounds of an outer counter
(a padded convolution: `kh` from `max(0, 1 - oh)` to `min(3, 57 - oh)`) becomes one nest per
range of that counter on which every such bound is one expression, so that the interior
(`1 ≤ oh < 55`: `kh` from 0 to 3) and each border row get constant bounds that
`layout-schedule` can plan.

The copies run one after the other, each over its range of the counter, with every loop
outside it: iterations move across the loops from the top of the nest to the split one.
That is legal when those iterations touch disjoint elements of every buffer the nest
writes, which is checked conservatively: every access to a written buffer uses the same
indices, each of those loops' counters is one of them on its own, and the nest holds only
loops, scalar accesses and pure value ops.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise

from xdsl.dialects import affine
from xdsl.dialects.builtin import AffineMapAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.roles import SCALAR_LOADS, SCALAR_STORES
from heterolayout.dialects.roots import buffer_root
from heterolayout.layout.expressions import linear_form
from heterolayout.passes.index.index_code import IndexLeaves
from heterolayout.passes.schedule.nest import is_arithmetic

MAX_COPIES = 64
"""The most nests one nest is split into."""


Line = tuple[int, int]
"""A bound result as `slope·v + offset` of the split counter `v`."""


@dataclass(frozen=True)
class Bound:
    """One `max`/`min` bound of a loop, as lines of the split counter."""

    loop_index: int
    """The loop's position among the nest's `affine.for`s, in walk order."""
    upper: bool
    lines: tuple[Line, ...]

    def resolve(self, first: int, last: int) -> Line | None:
        """The one line that gives the bound for every `v` in `first..last`, or None."""
        pick = min if self.upper else max

        def best(v: int) -> set[int]:
            values = [slope * v + offset for slope, offset in self.lines]
            extreme = pick(values)
            return {i for i, value in enumerate(values) if value == extreme}

        both = best(first) & best(last)
        if not both:
            return None
        if first == last:
            slope, offset = self.lines[min(both)]
            return 0, slope * first + offset
        flat = [i for i in both if self.lines[i][0] == 0]
        return self.lines[min(flat or both)]


def split_nest(top: affine.ForOp, say: Callable[[str], None]) -> list[affine.ForOp]:
    """The nests `top` becomes (itself if it cannot or need not be split), each split
    again until none has a `max`/`min` bound of a counter outside it, `MAX_COPIES` at most;
    `say` hears what was split, or why not."""
    done: list[affine.ForOp] = []
    pending = [top]
    counters: list[str] = []
    while pending:
        nest = pending.pop(0)
        found = _split_once(nest, MAX_COPIES - len(done) - len(pending), say)
        if found is None:
            done.append(nest)
            continue
        pieces, counter = found
        if counter not in counters:
            counters.append(counter)
        pending = pieces + pending
    if counters:
        say(f"split into {len(done)} nest(s) by the max/min bounds of {', '.join(counters)}")
    return done


def _split_once(
    top: affine.ForOp, budget: int, say: Callable[[str], None]
) -> tuple[list[affine.ForOp], str] | None:
    """The copies of `top` for the ranges of its first counter that some inner bound is a
    `max`/`min` of, and that counter's name; None if there is none or it may not be split."""
    loops = [op for op in top.walk() if isinstance(op, affine.ForOp)]
    for position, loop in enumerate(loops):
        span = _constant_span(loop)
        if span is None:
            continue
        counter = loop.body.block.args[0]
        bounds = list(_bounds_of(loops, counter))
        if not bounds:
            continue
        pieces = _pieces(span, bounds)
        if pieces is None or len(pieces) > budget or not _changes(pieces, bounds):
            continue
        name = f"%{counter.name_hint}" if counter.name_hint else f"loop #{position}"
        if not _reorderable(top, loops[: position + 1]):
            say(
                f"not split by the max/min bounds of {name}: different iterations of {name} "
                "and the loops around it may touch one element of a buffer the nest writes"
            )
            return None
        copies = [_copy(top, position, piece) for piece in pieces]
        Rewriter.erase_op(top)
        return copies, name
    return None


def _constant_span(loop: affine.ForOp) -> tuple[int, int] | None:
    lower, upper = loop.lowerBoundMap.data, loop.upperBoundMap.data
    if loop.step.value.data != 1 or loop.inits or lower.num_dims + lower.num_symbols:
        return None
    if upper.num_dims + upper.num_symbols or len(lower.results) != 1 or len(upper.results) != 1:
        return None
    first, end = lower.eval([], []), upper.eval([], [])
    return (first[0], end[0]) if first[0] < end[0] else None


def _bounds_of(loops: Sequence[affine.ForOp], counter: SSAValue) -> Iterator[Bound]:
    """Every bound of a loop of the nest that is a map of `counter` alone."""
    for index, loop in enumerate(loops):
        for upper, bound_map, operands in (
            (False, loop.lowerBoundMap.data, loop.lowerBoundOperands),
            (True, loop.upperBoundMap.data, loop.upperBoundOperands),
        ):
            if tuple(operands) != (counter,) or bound_map.num_dims != 1:
                continue
            forms = [linear_form(result, 1) for result in bound_map.results]
            if any(form is None for form in forms):
                continue
            lines = tuple((form[0][0], form[1]) for form in forms if form is not None)
            yield Bound(index, upper, lines)


def _pieces(
    span: tuple[int, int], bounds: Sequence[Bound]
) -> list[tuple[int, int, tuple[Line, ...]]] | None:
    """The ranges `[first, end)` of the counter, each with the line of every bound on it;
    adjacent ranges with the same lines merged."""
    first, end = span
    cuts = {first, end}
    for bound in bounds:
        for a, (slope_a, offset_a) in enumerate(bound.lines):
            for slope_b, offset_b in bound.lines[a + 1 :]:
                if slope_a != slope_b:
                    at = (offset_b - offset_a) / (slope_a - slope_b)
                    cuts.update(c for c in (math.floor(at), math.floor(at) + 1) if first < c < end)
    edges = sorted(cuts)
    pieces: list[tuple[int, int, tuple[Line, ...]]] = []
    for low, high in pairwise(edges):
        lines = tuple(bound.resolve(low, high - 1) for bound in bounds)
        if any(line is None for line in lines):
            return None
        resolved: tuple[Line, ...] = lines  # type: ignore[assignment]
        if pieces and pieces[-1][2] == resolved:
            pieces[-1] = (pieces[-1][0], high, resolved)
        else:
            pieces.append((low, high, resolved))
    return pieces


def _changes(pieces: Sequence[tuple[int, int, tuple[Line, ...]]], bounds: Sequence[Bound]) -> bool:
    """Whether splitting into `pieces` changes the nest: more than one range, or a bound
    that becomes a single line."""
    if len(pieces) > 1:
        return True
    return any(bound.lines != (line,) for bound, line in zip(bounds, pieces[0][2], strict=True))


def _reorderable(top: affine.ForOp, moved: Sequence[affine.ForOp]) -> bool:
    """Whether the iterations of `moved` (the loops from the top down to the split one)
    touch disjoint elements of every buffer the nest writes."""
    accesses: list[Operation] = []
    for op in top.walk():
        if op.name in SCALAR_LOADS or op.name in SCALAR_STORES:
            accesses.append(op)
        elif not isinstance(op, (affine.ForOp, affine.YieldOp)) and not is_arithmetic(op):
            return False
    counters = [loop.body.block.args[0] for loop in moved]
    indices: dict[SSAValue, tuple[tuple[frozenset[tuple[SSAValue, int]], int], ...]] = {}
    written = {buffer_root(op.memref) for op in accesses if op.name in SCALAR_STORES}  # type: ignore[attr-defined]
    for op in accesses:
        root = buffer_root(op.memref)  # type: ignore[attr-defined]
        if root not in written:
            continue
        found = _index_forms(op)
        if found is None or indices.setdefault(root, found) != found:
            return False
    for forms in indices.values():
        alone = {
            value for terms, _ in forms for value, c in terms if len(terms) == 1 and c in (1, -1)
        }
        if any(counter not in alone for counter in counters):
            return False
    return True


def _index_forms(
    op: Operation,
) -> tuple[tuple[frozenset[tuple[SSAValue, int]], int], ...] | None:
    """Each index of an access as its terms (value, coefficient) and constant."""
    leaves = IndexLeaves()
    if isinstance(op, (affine.LoadOp, affine.StoreOp)):
        raw = IndexLeaves.substitute(op.map.data, [leaves.recover(o) for o in op.indices])
    else:
        raw = [leaves.recover(i) for i in op.indices]  # type: ignore[attr-defined]
    forms = []
    for expr in raw:
        form = linear_form(expr, len(leaves.values))
        if form is None:
            return None
        terms = frozenset((v, c) for v, c in zip(leaves.values, form[0], strict=True) if c)
        forms.append((terms, form[1]))
    return tuple(forms)


def _copy(
    top: affine.ForOp, position: int, piece: tuple[int, int, tuple[Line, ...]]
) -> affine.ForOp:
    """A copy of the nest with loop `position` over `[first, end)` and each bound of its
    counter replaced by the line that holds there."""
    first, end, lines = piece
    copy = top.clone()
    Rewriter.insert_op(copy, InsertPoint.before(top))
    loops = [op for op in copy.walk() if isinstance(op, affine.ForOp)]
    counter = loops[position].body.block.args[0]
    bounds = list(_bounds_of(loops, counter))
    replaced: dict[int, dict[bool, Line]] = {}
    for bound, line in zip(bounds, lines, strict=True):
        replaced.setdefault(bound.loop_index, {})[bound.upper] = line
    new_top = copy
    for index, changes in replaced.items():
        new = _rebound(loops[index], changes, counter)
        if loops[index] is copy:
            new_top = new
    split = _rebound(loops[position], {False: (0, first), True: (0, end)}, counter)
    return split if loops[position] is copy else new_top


def _rebound(loop: affine.ForOp, changes: dict[bool, Line], counter: SSAValue) -> affine.ForOp:
    """`loop` with the given bounds as lines of `counter` (constants where the slope is 0)."""

    def side(upper: bool) -> tuple[list[SSAValue], AffineMapAttr]:
        if upper not in changes:
            attribute = loop.upperBoundMap if upper else loop.lowerBoundMap
            operands = loop.upperBoundOperands if upper else loop.lowerBoundOperands
            return list(operands), attribute
        slope, offset = changes[upper]
        if slope == 0:
            return [], AffineMapAttr(AffineMap.constant_map(offset))
        expr = AffineExpr.dimension(0) * slope + offset
        return [counter], AffineMapAttr(AffineMap(1, 0, (expr,)))

    lower_operands, lower = side(False)
    upper_operands, upper = side(True)
    new = affine.ForOp.from_region(
        lower_operands,
        upper_operands,
        [],
        [],
        lower,
        upper,
        loop.detach_region(loop.body),
        loop.step,
    )
    Rewriter.replace_op(loop, new)
    return new
