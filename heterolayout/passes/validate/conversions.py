"""Translation validation of conversions: `layout.convert` and `memref.copy` across layouts.

The lowering turns a conversion into loop nests it builds whole (the destination's pad fill,
then a walk in its memory order), so there is no logical index of the program to compare
with. What must hold instead: over every iteration where a store of the destination writes
an element loaded from the source, the pair (source slot, destination slot) in memory order
is (source.offset(x), destination.offset(x)) for some logical index x, each x exactly once;
and a store of the pad value inside that walk (the else branch of a padded dim's guard)
writes only pad slots. Checked exhaustively on the loops' points (a chunk at a time,
counting the writes of each destination slot), with each `scf.if` guard evaluated; a
conversion whose loops have no constant bounds (a dynamic shape) is reported as unchecked.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np
from xdsl.dialects import scf
from xdsl.ir import Operation

from heterolayout.layout.limits import MAX_ELEMENTS
from heterolayout.layout.model import Layout
from heterolayout.passes.validate.domain import (
    Access,
    Lane,
    Verdict,
)
from heterolayout.passes.validate.loops import loop_points
from heterolayout.passes.validate.terms import Array, Term, TermReader, atoms_of, evaluate


@dataclass
class Conversion:
    """A conversion as it was before the rewrite: its two sides as accesses."""

    name: str
    where: str
    source: Access
    destination: Access


@dataclass
class Move:
    """One store of the destination in the lowered loops: what it writes where, where the
    value comes from (None: a constant, the pad), and the guards it runs under."""

    written: Lane
    read: Lane | None
    guards: list[tuple[Term, bool]]


def _ancestors(op: Operation, top: Sequence[Operation]) -> list[Operation]:
    chain = []
    parent = op.parent_op()
    while parent is not None:
        chain.append(parent)
        if parent in top:
            break
        parent = parent.parent_op()
    return chain


def _guards(op: Operation, top: Sequence[Operation], reader: TermReader) -> list[tuple[Term, bool]]:
    guards = []
    child: Operation = op
    for parent in _ancestors(op, top):
        if isinstance(parent, scf.IfOp):
            region = child.parent_region()
            guards.append((reader.term_of(parent.cond), region is parent.true_region))
        child = parent
    return guards


def _element_offset(
    layout: Layout, flat: bool, lane: Lane, values: dict[Term, Array], memo: dict[Term, Array | int]
) -> Array:
    """The slot a lane of the code addresses, in memory order over the physical shape."""
    indices = [np.asarray(evaluate(t, values, memo)) for t in lane.physical]
    offset: Array = indices[0]
    if not flat:
        for index, extent in zip(indices[1:], layout.storage_shape[1:], strict=True):
            assert extent is not None
            offset = offset * extent + index
    packing = layout.packing
    if packing is None:
        return offset
    assert lane.lane is not None and layout.dtype is not None
    lanes = layout.physical_shape[-1]
    assert lanes is not None
    selector = np.asarray(evaluate(lane.lane, values, memo))
    if packing.is_vector:
        number = selector
    elif packing.bit_order == "lsb":
        number = selector // layout.dtype.bits
    else:
        number = (packing.container_bits - layout.dtype.bits - selector) // layout.dtype.bits
    return offset * lanes + number


def _terms(move: Move) -> list[Term]:
    terms = [*move.written.physical, *(g for g, _ in move.guards)]
    if move.read is not None:
        terms += move.read.physical
    return terms + [t for t in (move.written.lane, move.read.lane if move.read else None) if t]


CONVERSION_LIMIT = MAX_ELEMENTS
"""Most points a store of a conversion is checked over: a scalar nest has one per slot, and
heterolayout enumerates layouts up to `MAX_ELEMENTS` slots."""
CHUNK = 1 << 18
"""Points evaluated at once (memory stays proportional to the destination, not to the
terms times the points)."""


@dataclass(frozen=True)
class Domain:
    """The loop variables a move runs over and the values each takes (a product)."""

    leaves: tuple[Term, ...]
    points: tuple[np.ndarray, ...]

    def chunks(self) -> Iterator[tuple[dict[Term, Array], int]]:
        """The points, `CHUNK` at a time: each variable's value at each point, and how many."""
        if not self.leaves:
            yield {}, 1
            return
        sizes = tuple(int(p.size) for p in self.points)
        count = math.prod(sizes)
        for start in range(0, count, CHUNK):
            flat = np.arange(start, min(start + CHUNK, count))
            coordinates = np.unravel_index(flat, sizes)
            values = zip(self.leaves, self.points, coordinates, strict=True)
            yield {t: p[c] for t, p, c in values}, int(flat.size)


def _domain(move: Move) -> Domain | str:
    """The values of the loop variables a move runs over, or why they are not known."""
    leaves: dict[Term, None] = {}
    for term in _terms(move):
        atoms_of(term, lambda t: t.kind == "leaf", leaves)
    points: list[np.ndarray] = []
    for term in leaves:
        found = loop_points(term.leaf) if term.leaf is not None else None
        if found is None:
            return "its loops have no constant bounds (a dynamic shape)"
        points.append(found)
    if math.prod(int(p.size) for p in points) > CONVERSION_LIMIT:
        return f"its loops run over more than {CONVERSION_LIMIT} points"
    return Domain(tuple(leaves), tuple(points))


def _slots(
    conversion: Conversion, move: Move, domain: Domain
) -> Iterator[tuple[np.ndarray, np.ndarray | None]]:
    """Chunk by chunk, the destination slots a move writes where its guards hold, and the
    source slots it reads them from (None: it stores the pad)."""
    source, destination = conversion.source, conversion.destination
    for values, count in domain.chunks():
        memo: dict[Term, Array | int] = {}
        mask = np.ones(count, dtype=bool)
        for guard, taken in move.guards:
            holds = np.broadcast_to(np.asarray(evaluate(guard, values, memo)) != 0, (count,))
            mask &= holds if taken else ~holds
        offset = _element_offset(destination.layout, destination.flat, move.written, values, memo)
        written = np.broadcast_to(offset, (count,))[mask]
        if move.read is None:
            yield written, None
            continue
        offset = _element_offset(source.layout, source.flat, move.read, values, memo)
        yield written, np.broadcast_to(offset, (count,))[mask]


RUN_TIME_GUARDS = 2
"""Most guards on run-time values (not loop variables) a conversion may branch on whole."""


def _run_time(term: Term) -> bool:
    """Whether a guard depends on a value that is not a loop variable with constant bounds
    (the destination's address, tested for streaming stores)."""
    leaves: dict[Term, None] = {}
    atoms_of(term, lambda t: t.kind == "leaf", leaves)
    return any(t.leaf is None or loop_points(t.leaf) is None for t in leaves)


def check_conversion(conversion: Conversion, moves: list[Move]) -> Verdict:
    """Each logical element moved once to its slot, pad stores on pad slots only. A guard
    on a run-time value that every move sits under (tiles with streaming stores where the
    destination is line-aligned, plain ones otherwise) splits the check: each way it can
    go must move the whole conversion."""
    moving = [m for m in moves if m.read is not None or m.guards]
    guards = list(dict.fromkeys(g for m in moving for g, _ in m.guards if _run_time(g)))
    if not guards:
        return _check_moves(conversion, moves)
    if len(guards) > RUN_TIME_GUARDS or any(
        g not in (guard for guard, _ in m.guards) for g in guards for m in moving
    ):
        return Verdict(
            conversion.name,
            conversion.where,
            "unchecked",
            message="its moves are guarded by run-time values other than whole branches",
        )
    points = 0
    for taken in itertools.product((True, False), repeat=len(guards)):
        chosen = dict(zip(guards, taken, strict=True))
        branch = [
            Move(m.written, m.read, [(g, t) for g, t in m.guards if g not in chosen])
            for m in moving
            if all(chosen.get(g, t) == t for g, t in m.guards)
        ]
        verdict = _check_moves(conversion, branch)
        if verdict.how == "unchecked":
            return verdict
        if verdict.how != "exhaustive":
            ways = ", ".join("taken" if t else "not taken" for t in taken)
            return replace(verdict, message=f"with its run-time branch {ways}: {verdict.message}")
        points += verdict.points
    return Verdict(conversion.name, conversion.where, "exhaustive", points)


def _check_moves(conversion: Conversion, moves: list[Move]) -> Verdict:
    def verdict(how: str, points: int = 0, message: str = "") -> Verdict:
        return Verdict(conversion.name, conversion.where, how, points, message)

    source, destination = conversion.source.layout, conversion.destination.layout
    domains: list[tuple[Move, Domain]] = []
    for move in moves:
        if move.read is None and not move.guards:  # the destination's pad fill, overwritten
            continue
        domain = _domain(move)
        if isinstance(domain, str):
            return verdict("unchecked", message=domain)
        domains.append((move, domain))
    slots = destination.size
    writes = np.zeros(slots, dtype=np.int64)
    source_of = np.full(slots, -1, dtype=np.int64)
    padded = np.zeros(slots, dtype=bool)
    outside: int | None = None  # a slot written outside the destination
    for move, domain in domains:
        for written, read in _slots(conversion, move, domain):
            inside = (written >= 0) & (written < slots)
            if not inside.all():
                outside = int(written[~inside][0]) if outside is None else outside
                written, read = written[inside], None if read is None else read[inside]
            if read is None:
                padded[written] = True
                continue
            writes += np.bincount(written, minlength=slots)
            source_of[written] = read
    wanted = destination.offsets().ravel()
    reads = source.offsets().ravel()
    wrong = np.flatnonzero((writes[wanted] != 1) | (source_of[wanted] != reads))
    if wrong.size:
        first = int(wrong[np.argmin(wanted[wrong])])
        slot, origin = int(wanted[first]), int(reads[first])
        return verdict("failed", message=_difference(conversion, domains, slot, origin, writes))
    if outside is not None:
        message = f"a store writes slot {outside}, outside the destination's {slots} slots"
        return verdict("failed", message=message)
    moved = int(writes.sum())
    if moved != wanted.size:
        return verdict("failed", message=f"{moved} elements moved, the layouts have {wanted.size}")
    logical = np.zeros(slots, dtype=bool)
    logical[wanted] = True
    over = np.flatnonzero(padded & logical)
    if over.size:
        slot = int(over[0])
        return verdict(
            "failed",
            message=f"the pad value is stored over logical index "
            f"{destination.logical_index(slot)} (slot {slot})",
        )
    return verdict("exhaustive", moved)


def _difference(
    conversion: Conversion,
    domains: list[tuple[Move, Domain]],
    slot: int,
    read: int,
    writes: np.ndarray,
) -> str:
    """What went wrong at one destination slot: never written, or written from elsewhere
    or more than once (the moves run again to list the source slots)."""
    x = conversion.destination.layout.logical_index(slot)
    if not writes[slot]:
        what = "never written"
    else:
        got = sorted(
            int(r)
            for move, domain in domains
            if move.read is not None
            for written, reads in _slots(conversion, move, domain)
            if reads is not None
            for r in reads[written == slot]
        )
        listed = ", ".join(str(g) for g in got[:4]) + (", …" if len(got) > 4 else "")
        what = f"written {len(got)} time(s), from source slot(s) {listed}"
    return (
        f"logical index {x} (destination slot {slot}) should come from source slot {read}, "
        f"but is {what}"
    )


def conversion_moves(conversion: Conversion, ops: list[Operation], lanes_of) -> list[Move] | str:  # type: ignore[no-untyped-def]
    """Every store of the destination among `ops` (nested ones too), traced with
    `lanes_of(op, conversion, reader)`: None for other ops, what it writes and reads (a
    list of those for a store of many elements, each with the conditions that choose it),
    or what could not be traced."""
    reader = TermReader()
    moves = []
    for top in ops:
        for op in top.walk():
            found = lanes_of(op, conversion, reader)
            if found is None:
                continue
            if isinstance(found, str):
                return found
            guards = _guards(op, ops, reader)
            for written, read, *chosen in found if isinstance(found, list) else [found]:
                moves.append(Move(written, read, guards + (chosen[0] if chosen else [])))
    if not any(m.read is not None for m in moves):
        return "no element of the source is stored into the destination"
    return moves
