"""The proof of one access: its domain, then exhaustive enumeration or normal forms.

The domain is spanned by the atoms the logical and physical indices are made of: loop
variables (their loops' bounds and steps), remainders (0 to the divisor), and any other
value bounded by the access being in bounds (an index used as `a·x + b` into a dim of extent
D). Up to `EXHAUSTIVE_LIMIT` points every one is checked; beyond that, or where an atom is
unbounded, both sides are compared in the index simplifier's normal form and random points
are tried for a counterexample.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineExpr

from heterolayout.layout.model import Layout
from heterolayout.layout.simplify import IndexSimplifier, Range
from heterolayout.passes.index.gpu_ranges import gpu_id_range
from heterolayout.passes.validate.loops import loop_bounds, loop_points
from heterolayout.passes.validate.pads import Pad, held_elements, pad_in_normal_form
from heterolayout.passes.validate.terms import (
    Array,
    Symbolic,
    Term,
    atoms_of,
    evaluate,
    evaluate_affine,
    is_linear,
    period_all,
    reduce_mods,
)

EXHAUSTIVE_LIMIT = 1_000_000
"""Points of a domain enumerated in full; larger ones are proven symbolically."""
SAMPLES = 4096
"""Random points tried for a counterexample where the domain is too large to enumerate."""
UNBOUNDED_WINDOW = 64
"""Values tried for an atom no bound is known for (an argument used through a remainder)."""


@dataclass
class Lane:
    """Where the lowered code puts one logical element (or, with `length`, a whole vector
    starting there): the physical index of the element or container, and for packed layouts
    the shift or position of its lane."""

    offset: int
    physical: list[Term]
    lane: Term | None = None
    length: int = 0
    alone: bool = False
    """Accessed under a guard on its own logical index (a lane of a transfer that may leave
    the memref): proven wherever that index is inside, not only where the whole vector is."""


@dataclass
class Access:
    """A program access as it was before the rewrite."""

    name: str
    where: str
    layout: Layout
    flat: bool
    buffer: SSAValue
    logical: list[Term]
    length: int
    is_load: bool
    stored: SSAValue | None
    block: Block
    before: Operation | None
    after: Operation | None
    along: int = -1
    """The logical dim a vector access runs along (the last; a transfer names its own)."""
    facts: Mapping[Term, Range] = field(default_factory=dict)
    """Ranges of values known at this access alone (read as terms): the offsets of the
    run-time view it was folded from, which upstream requires inside their source
    (`view_folding`)."""
    guarded: bool = False
    """A transfer that may leave the memref, or masked (`transfer_guards`): its start may
    lie anywhere along its dim, each lane inside or not."""
    padding: SSAValue | None = None
    """A guarded read's padding value."""

    def fact(self, term: Term) -> Range | None:
        return self.facts.get(term)

    def shifted(self, logical: Sequence[Any], t: Any) -> list[Any]:
        """The logical index of lane `t` of a vector access starting at `logical`."""
        along = self.along % len(logical)
        return [i + t if d == along else i for d, i in enumerate(logical)]


@dataclass(frozen=True)
class Verdict:
    name: str
    where: str
    how: str
    """`exhaustive`, `symbolic`, or `failed`."""
    points: int = 0
    message: str = ""


Value = Array | int | AffineExpr


def expected_physical(
    layout: Layout, flat: bool, logical: Sequence[Value]
) -> tuple[list[Value], Value | None]:
    """The layout's index map at `logical` (numbers, or expressions): the element (or
    container) index, one offset in memory order when `flat`, and the lane when packed."""
    if any(isinstance(x, AffineExpr) for x in logical):
        exprs = [x if isinstance(x, AffineExpr) else AffineExpr.constant(int(x)) for x in logical]
        results: list[Value] = [
            r.replace_dims_and_symbols(exprs, []) for r in layout.index_map.results
        ]
    else:
        results = [evaluate_affine(r, logical) for r in layout.index_map.results]  # type: ignore[arg-type]
    lane = results.pop() if layout.packing is not None else None
    if flat:
        offset = results[0]
        for value, extent in zip(results[1:], layout.storage_shape[1:], strict=True):
            assert extent is not None
            offset = offset * extent + value
        results = [offset]
    return results, lane


def lane_selector(layout: Layout, lane: Value) -> Value:
    """What the code must compute to pick the lane: its bit offset in an integer container
    (LSB-first: lane·bits; MSB-first: width - bits - lane·bits), its position in a vector."""
    packing = layout.packing
    assert packing is not None
    if packing.is_vector:
        return lane
    assert layout.dtype is not None
    bits = layout.dtype.bits
    if packing.bit_order == "lsb":
        return lane * bits
    return lane * -bits + (packing.container_bits - bits)


def _stepped(term: Term, values: np.ndarray) -> np.ndarray:
    """The values a loop variable up to a dynamic bound can take among `values`."""
    bounds = loop_bounds(term.leaf) if term.kind == "leaf" and term.leaf is not None else None
    if bounds is None:
        return values
    return values[(values - bounds[0]) % bounds[2] == 0]


def points_range(points: np.ndarray) -> Range | None:
    return (int(points.min()), int(points.max())) if points.size else None


def _atom_range(term: Term) -> Range | None:
    if term.kind == "leaf" and term.leaf is not None:
        points = loop_points(term.leaf)
        if points is not None:
            return points_range(points)
        bounds = loop_bounds(term.leaf)
        if bounds is not None:  # a loop up to a dynamic bound
            return (bounds[0], bounds[1])
        return gpu_id_range(term.leaf)  # a GPU thread or block id: the lowering's range
    divisor = term.args[1] if len(term.args) == 2 else None
    if divisor is not None and divisor.kind == "const" and divisor.value > 0:
        if term.kind == "remui":
            return 0, divisor.value - 1
        if term.kind == "remsi":
            return -(divisor.value - 1), divisor.value - 1
    if term.kind == "cmp":
        return 0, 1
    return None


def _single_atom(expr: AffineExpr) -> tuple[int, int, int] | None:
    """`expr` as a·d + b over one dim d (no division): (d, a, b)."""
    dims = expr.used_dims()
    if len(dims) != 1 or not is_linear(expr):
        return None
    (dim,) = dims
    b = _value_at(expr, dim, 0)
    return dim, _value_at(expr, dim, 1) - b, b


def atom_bounds(expr: AffineExpr, low: int, high: int) -> tuple[int, Range] | None:
    """What `low <= expr <= high` says of the one atom d of `expr` when expr is a·d + b,
    maybe under floordiv or ceildiv by positive constants (each step exact): (d, bounds)."""
    while (
        isinstance(expr, AffineBinaryOpExpr)
        and expr.kind in (AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv)
        and isinstance(expr.rhs, AffineConstantExpr)
        and expr.rhs.value > 0
    ):
        c = expr.rhs.value
        if expr.kind == AffineBinaryOpKind.FloorDiv:
            low, high = low * c, high * c + c - 1
        else:
            low, high = (low - 1) * c + 1, high * c
        expr = expr.lhs
    found = _single_atom(expr)
    if found is None or found[1] == 0:
        return None
    dim, a, b = found
    first, last = (low - b, high - b) if a > 0 else (high - b, low - b)
    return dim, (-(-first // a), last // a)


def _value_at(expr: AffineExpr, dim: int, value: int) -> int:
    dims = [AffineExpr.constant(value if d == dim else 0) for d in range(dim + 1)]
    folded = IndexSimplifier().simplify(expr.replace_dims_and_symbols(dims, []))
    assert isinstance(folded, AffineConstantExpr)
    return folded.value


class Proof:
    def __init__(
        self,
        access: Access,
        lanes: list[Lane],
        pads: Sequence[Pad] = (),
        container: bool = False,
        outside: Sequence[int] = (),
    ) -> None:
        self.access = access
        self.lanes = lanes
        self.pads = pads
        self.container = container
        self.outside = outside
        """Lanes of a guarded transfer the code never accesses (reads as padding): they
        must lie outside the memref at every point."""
        self.sym = Symbolic(self._atom_range)
        self.logical = self._read_logical()
        exprs = list(self.logical)
        for lane in lanes:
            for term in [*lane.physical, *([lane.lane] if lane.lane is not None else [])]:
                exprs.append(self.sym.expr(term))
        exprs += [self.sym.expr(term) for pad in pads for term in pad.physical]
        used = set().union(*(e.used_dims() for e in exprs))
        # an op that stayed opaque registered its operands too: only atoms in use count
        self.atoms = [t for t, position in self.sym.atoms.items() if position in used]
        self.periods = {t: period_all(exprs, self.sym.atoms[t]) for t in self.atoms}

    def _atom_range(self, term: Term) -> Range | None:
        found, fact = _atom_range(term), self.access.fact(term)
        if fact is None or found is None:
            return found or fact
        return max(found[0], fact[0]), min(found[1], fact[1])

    @property
    def extents(self) -> tuple[int | None, ...]:
        return self.access.layout.logical_shape

    @property
    def _along(self) -> int:
        return self.access.along % len(self.extents)

    def _read_logical(self) -> list[AffineExpr]:
        """The logical index in normal form, read again after each narrowing: a
        sign-sensitive op (`divui`, `ceildivui`, ...) of a value only the access's bounds
        show non-negative is an atom before and a floordiv after, and both sides of the
        proof must read it the same way."""
        logical = [self.sym.expr(t) for t in self.access.logical]
        for _ in range(len(logical) + 1):
            self.logical = logical
            self._narrow()
            logical = [self.sym.expr(t) for t in self.access.logical]
            if logical == self.logical:
                break
        return logical

    def _last_limit(self, extent: int) -> int:
        if self.access.guarded:  # each lane on its own: some lane is inside
            return extent - 1
        return extent - max(self.access.length, 1)

    def _narrow(self) -> None:
        """An access is in bounds: each dim's index in [0, D) (the whole vector, for the
        last dim of a vector access)."""
        for d, (expr, extent) in enumerate(zip(self.logical, self.extents, strict=True)):
            if extent is None:  # a dynamic extent: at least not negative
                high = 2**62
            else:
                high = self._last_limit(extent) if d == self._along else extent - 1
            found = atom_bounds(expr, 0, high)
            if found is not None:
                term = next(t for t, p in self.sym.atoms.items() if p == found[0])
                self.sym.narrow(term, found[1])

    # ---- points -------------------------------------------------------------------------------
    def atom_points(self) -> list[np.ndarray | None]:
        points = []
        for term in self.atoms:
            found = (
                loop_points(term.leaf) if term.kind == "leaf" and term.leaf is not None else None
            )
            bounds = self.sym.ranges.get(self.sym.atoms[term])
            if found is not None and bounds is not None:
                found = found[(found >= bounds[0]) & (found <= bounds[1])]
            elif found is None and bounds is not None and bounds[1] - bounds[0] < EXHAUSTIVE_LIMIT:
                found = _stepped(term, np.arange(bounds[0], bounds[1] + 1, dtype=np.int64))
            period = self.periods[term]
            if found is None and period is not None:  # only seen modulo: one period covers all
                found = np.arange(period, dtype=np.int64)
            points.append(found)
        return points

    def run(self) -> Verdict:
        if 0 in self.access.layout.logical_shape:  # no index is in bounds: nothing to prove
            return self.verdict("exhaustive", 0)
        points = self.atom_points()
        sizes = [p.size if p is not None else None for p in points]
        enumerable = all(s is not None for s in sizes)
        if enumerable and math.prod(sizes) <= EXHAUSTIVE_LIMIT:  # type: ignore[arg-type]
            grids: list[np.ndarray] = list(np.meshgrid(*points, indexing="ij")) if points else []
            values = dict(zip(self.atoms, (g.ravel() for g in grids), strict=True))
            failure, checked = self.compare(values, max(1, math.prod(sizes)))  # type: ignore[arg-type]
            if not failure:  # every point of a superset of the domain: proven
                return self.verdict("exhaustive", checked)
            if not self.correlated():
                return self.verdict("failed", message=failure)
            # atoms made from one value were enumerated apart: the point may not exist
        failure, _ = self.compare(self.samples(), SAMPLES)
        if failure:
            return self.verdict("failed", message=failure)
        difference = self.symbolic()
        if difference:
            return self.verdict(
                "failed",
                message=f"not proven symbolically ({difference}); no counterexample among {SAMPLES} sampled points",
            )
        return self.verdict("symbolic")

    def correlated(self) -> bool:
        """Two atoms made from one value (`x` and `x remsi 4`, say) cannot be enumerated
        apart: every pair of values is not a point of the domain."""
        seen: set[Term] = set()
        for term in self.atoms:
            leaves: dict[Term, None] = {}
            atoms_of(term, lambda t: t.kind == "leaf", leaves)
            if seen & leaves.keys():
                return True
            seen |= leaves.keys()
        return False

    def samples(self) -> dict[Term, Array]:
        """Random values of every leaf (loop variables from their loops, other values from
        a window around 0); everything else is computed from them, so points are real."""
        leaves: dict[Term, None] = {}
        for term in [*self.access.logical, *(t for lane in self.lanes for t in lane.physical)]:
            atoms_of(term, lambda t: t.kind == "leaf", leaves)
        rng = np.random.default_rng(0)
        values = {}
        for term in leaves:
            points = loop_points(term.leaf) if term.leaf is not None else None
            bounds = loop_bounds(term.leaf) if term.leaf is not None else None
            fact = self.access.fact(term)
            if points is not None and points.size:
                values[term] = rng.choice(points, SAMPLES)
            elif bounds is not None:  # up to a dynamic bound: its first values
                first, step = bounds[0], bounds[2]
                if fact is not None:  # the first values the fact allows
                    first += max(0, -(-(fact[0] - first) // step)) * step
                steps = rng.integers(0, 2 * UNBOUNDED_WINDOW + 1, SAMPLES)
                values[term] = first + step * steps
            elif fact is not None:
                high = min(fact[1], fact[0] + 2 * UNBOUNDED_WINDOW)
                values[term] = rng.integers(fact[0], high + 1, SAMPLES)
            else:
                values[term] = rng.integers(-UNBOUNDED_WINDOW, UNBOUNDED_WINDOW + 1, SAMPLES)
            if fact is not None:  # a loop's values the fact rules out are no points
                values[term] = np.clip(values[term], fact[0], fact[1])
        return values

    def verdict(self, how: str, points: int = 0, message: str = "") -> Verdict:
        name = self.access.name
        if self.container and how != "failed":
            name += f", {len(self.lanes)} lanes of one container,"
        elif self.access.guarded and how != "failed":
            name += f", guarded lane by lane ({len(self.lanes)} lanes accessed),"
        elif self.access.length and how != "failed":
            whole = len(self.lanes) == 1 and self.lanes[0].length
            name += ", kept whole," if whole else f", split into {len(self.lanes)} accesses,"
        return Verdict(name, self.access.where, how, points, message)

    def compare(self, values: dict[Term, Array], count: int) -> tuple[str, int]:
        """The first point where the code and the layout disagree (described), and how many
        in-bounds points were compared."""
        memo: dict[Term, Array | int] = {}
        logical = [
            np.broadcast_to(evaluate(t, values, memo), (count,)) for t in self.access.logical
        ]
        checked = 0
        for lane in self.lanes:
            for t in range(lane.length) if lane.length else [lane.offset]:
                shifted = self.access.shifted(logical, t)
                mask = self._in_bounds(logical, shifted, whole=not lane.alone)
                expected, expected_lane = expected_physical(
                    self.access.layout, self.access.flat, shifted
                )
                emitted = [
                    np.broadcast_to(evaluate(p, values, memo), (count,)) for p in lane.physical
                ]
                if lane.length:
                    emitted[-1] = emitted[-1] + t
                if len(emitted) != len(expected):
                    return (
                        f"the code indexes {len(emitted)} physical dims, the layout has {len(expected)}",
                        checked,
                    )
                wrong = np.zeros(count, dtype=bool)
                for e, x in zip(emitted, expected, strict=True):
                    wrong |= np.asarray(e) != np.asarray(x)
                if expected_lane is not None:
                    assert lane.lane is not None, "a packed access without a lane"
                    selector = np.broadcast_to(evaluate(lane.lane, values, memo), (count,))
                    wrong |= selector != np.asarray(
                        lane_selector(self.access.layout, expected_lane)
                    )
                wrong &= mask
                checked += int(mask.sum())
                if wrong.any():
                    at = int(np.argmax(wrong))
                    return self._counterexample(
                        values, at, shifted, expected, emitted, expected_lane, lane, memo
                    ), checked
        for t in self.outside:
            shifted = self.access.shifted(logical, t)
            inside = self._in_bounds(logical, shifted, whole=False)
            if inside.any():
                at = int(np.argmax(inside))
                index = ", ".join(str(int(np.broadcast_to(x, (count,))[at])) for x in shifted)
                return (
                    f"lane {t} is never accessed, but at logical index ({index}) it is inside "
                    "the memref",
                    checked,
                )
        return self._overwritten(values, logical, memo), checked

    def _overwritten(
        self, values: dict[Term, Array], logical: list[Array], memo: dict[Term, Array | int]
    ) -> str:
        """The first point where a lane written with the pad value holds an element."""
        mask = self._in_bounds(logical, logical)
        count = mask.size
        for pad in self.pads:
            physical = [np.broadcast_to(evaluate(p, values, memo), (count,)) for p in pad.physical]
            found = held_elements(self.access.layout, self.access.flat, physical, pad.lane)
            if found is None:
                return f"the layout cannot tell which element lane {pad.lane} of a container holds"
            held, element = found
            wrong = held & mask
            if wrong.any():
                at = int(np.argmax(wrong))
                where = ", ".join(f"{describe(t)} = {int(values[t][at])}" for t in self.atoms)
                start = ", ".join(str(int(x[at])) for x in logical)
                container = ", ".join(str(int(x[at])) for x in physical)
                holds = ", ".join(str(int(x[at])) for x in element)
                return (
                    f"{'at ' + where + ': ' if where else ''}the store at logical index ({start}) "
                    f"writes the pad value to lane {pad.lane} of container ({container}), "
                    f"which holds logical index ({holds})"
                )
        return ""

    def _in_bounds(
        self, start: Sequence[Array], shifted: Sequence[Array], whole: bool = True
    ) -> Array:
        mask = np.ones(np.shape(shifted[0]), dtype=bool)
        for d, extent in enumerate(self.extents):
            mask &= np.asarray(shifted[d]) >= 0
            if extent is not None:
                mask &= np.asarray(shifted[d]) < extent
            if d == self._along and self.access.length and whole:  # the whole vector inside
                mask &= np.asarray(start[d]) >= 0
                if extent is not None:
                    mask &= np.asarray(start[d]) + self.access.length <= extent
        return mask

    def _counterexample(
        self,
        values: dict[Term, Array],
        at: int,
        logical: Sequence[Array | int],
        expected: Sequence[Value],
        emitted: Sequence[Array | int],
        expected_lane: Value | None,
        lane: Lane,
        memo: dict[Term, Array | int],
    ) -> str:
        def value(array: Value) -> int:
            return int(np.broadcast_to(cast(Array, array), np.shape(logical[0]))[at])

        def pick(arrays: Sequence[Value]) -> str:
            return "(" + ", ".join(str(value(a)) for a in arrays) + ")"

        where = ", ".join(f"{describe(t)} = {int(values[t][at])}" for t in self.atoms)
        wanted, got = pick(expected), pick(emitted)
        packing = self.access.layout.packing
        if expected_lane is not None and lane.lane is not None and packing is not None:
            kind = "position" if packing.is_vector else "bit offset"
            wanted += f" {kind} {value(lane_selector(self.access.layout, expected_lane))}"
            got += f" {kind} {value(evaluate(lane.lane, values, memo))}"
        prefix = f"at {where}: " if where else ""
        return (
            f"{prefix}logical index {pick(logical)} is physical {wanted} in the layout, "
            f"but the code computes {got}"
        )

    # ---- normal forms -------------------------------------------------------------------------
    def symbolic(self) -> str:
        """'' when every lane is proven in normal form, else the first difference."""
        for lane in self.lanes:
            offset: AffineExpr = AffineExpr.constant(lane.offset)
            if lane.length:
                offset = self.sym.atom(Term("lane", value=lane.length))
                self.sym.ranges[self.sym.atoms[Term("lane", value=lane.length)]] = (
                    0,
                    lane.length - 1,
                )
            shifted = self.access.shifted(self.logical, offset)
            expected, expected_lane = expected_physical(
                self.access.layout, self.access.flat, shifted
            )
            emitted = [self.sym.expr(p) for p in lane.physical]
            if lane.length:
                emitted[-1] = emitted[-1] + offset
            pairs = list(zip(expected, emitted, strict=True))
            if expected_lane is not None and lane.lane is not None:
                pairs.append(
                    (lane_selector(self.access.layout, expected_lane), self.sym.expr(lane.lane))
                )
            for wanted, got in pairs:
                if not self._equal(wanted, got):  # type: ignore[arg-type]
                    return f"the layout gives {wanted}, the code {got}"
        extent = self.extents[self._along]
        for t in self.outside:
            bounds = self.sym.simplifier().range_of(self.logical[self._along] + t)
            if extent is None or bounds is None or bounds[0] < extent:
                return f"lane {t} is never accessed, but may be inside the memref"
        for pad in self.pads:
            physical = [
                e.replace_dims_and_symbols(self._pinned(), [])
                for e in (self.sym.expr(p) for p in pad.physical)
            ]
            simplifier = self.sym.simplifier()
            if not pad_in_normal_form(
                self.access.layout, self.access.flat, physical, pad.lane, simplifier
            ):
                return f"lane {pad.lane} of the container, written with the pad value, may hold an element"
        return ""

    def _equal(self, wanted: AffineExpr, got: AffineExpr) -> bool:
        zero = AffineExpr.constant(0)
        difference = wanted + got * -1
        strided, ranges = self._strided()
        forms = [
            (difference.replace_dims_and_symbols(self._pinned(), []), self.sym.ranges),
            (difference.replace_dims_and_symbols(strided, []), ranges),
        ]
        return any(
            IndexSimplifier(bounds).simplify(variant) == zero
            for form, bounds in forms
            for variant in (form, reduce_mods(form))
        )

    def _pinned(self) -> list[AffineExpr]:
        """Atoms that can take one value only, replaced by it."""
        exprs = []
        for position in range(len(self.sym.atoms)):
            bounds = self.sym.ranges.get(position)
            if bounds is not None and bounds[0] == bounds[1]:
                exprs.append(AffineExpr.constant(bounds[0]))
            else:
                exprs.append(AffineExpr.dimension(position))
        return exprs

    def _strided(self) -> tuple[list[AffineExpr], dict[int, Range]]:
        """Loop variables that step by s from b written b + s·k (k a fresh dim)."""
        exprs: list[AffineExpr] = []
        ranges = dict(self.sym.ranges)
        fresh = len(self.sym.atoms)
        for term, position in self.sym.atoms.items():
            bounds = (
                loop_bounds(term.leaf) if term.kind == "leaf" and term.leaf is not None else None
            )
            if bounds is not None and bounds[0] + bounds[2] > bounds[1] >= bounds[0]:
                exprs.append(AffineExpr.constant(bounds[0]))  # one iteration
                continue
            if bounds is None or bounds[1] < bounds[0] or bounds[2] == 1:
                exprs.append(AffineExpr.dimension(position))
                continue
            first, last, step = bounds
            exprs.append(AffineExpr.dimension(fresh) * step + first)
            ranges[fresh] = (0, (last - first) // step)
            fresh += 1
        return exprs, ranges


def describe(term: Term) -> str:
    if term.kind == "leaf" and term.leaf is not None:
        hint = term.leaf.name_hint
        return f"%{hint}" if hint else "an index value"
    if term.kind == "const":
        return str(term.value)
    if term.kind == "lane":
        return "the vector lane"
    return f"{term.kind}({', '.join(describe(a) for a in term.args)})"


def prove(
    access: Access,
    lanes: list[Lane],
    pads: Sequence[Pad] = (),
    container: bool = False,
    outside: Sequence[int] = (),
) -> Verdict:
    """Proven exhaustively or symbolically, or failed (with a counterexample when one is
    found): `lanes` against the layout's map, `pads` (a whole-container store's other
    lanes) holding no element, and the `outside` lanes of a guarded transfer outside the
    memref."""
    return Proof(access, lanes, pads, container, outside).run()
