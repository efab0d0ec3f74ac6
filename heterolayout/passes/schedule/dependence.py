"""Dependence analysis: which iterations of a nest touch the same element, in which order.

For each pair of accesses to one buffer (at least one a store), every direction vector over
the loops enclosing both is tested: `<` (the first access in an earlier iteration of that
loop), `=`, `>`. A vector survives when, subscript by subscript, the equation
`source index = sink index` passes the GCD test and Banerjee's bounds under those
directions and the loops' static trip counts. Both tests are exact enough for the subscripts
loop nests have (`oh + kh`, `k`, `16·b + i`) and conservative always: a dependence that
survives may not exist, one that is dropped cannot.

Distinct buffers are distinct memory, as in MLIR's affine dependence analysis: two function
arguments are assumed not to overlap. Views of one buffer (`memref.subview`, …) are that
buffer's memory: a nest that reaches one buffer through two views is not analysed.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from heterolayout.dialects.roots import buffer_root, storage_root
from heterolayout.passes.schedule.nest import Access, Nest, NotScheduled

DIRECTIONS = ("<", "=", ">")
Form = tuple[list[int], int]


@dataclass(frozen=True)
class Dependence:
    """`sink` touches an element `source` touched earlier; `directions[i]` relates their
    iterations of loop i (for the loops enclosing both): lexicographically positive, or all
    `=` when the two meet in one iteration and `source` comes first in the body."""

    source: Access
    sink: Access
    directions: tuple[str, ...]

    @property
    def carrier(self) -> int | None:
        """The loop that carries it (its first `<`), None for a loop-independent one."""
        for position, direction in enumerate(self.directions):
            if direction != "=":
                return position
        return None


def dependences(nest: Nest) -> list[Dependence]:
    """Every dependence between the nest's accesses."""
    ordered = [nest.accesses[op] for op in nest.statements() if op in nest.accesses]
    found: list[Dependence] = []
    for first_index, first in enumerate(ordered):
        for second in ordered[first_index:]:
            if not (first.write or second.write):
                continue
            if storage_root(first.buffer) != storage_root(second.buffer):
                continue
            if buffer_root(first.buffer) != buffer_root(second.buffer):
                raise NotScheduled(
                    second.op,
                    f"{second.op.name} reaches a buffer the nest also reaches through another "
                    "view: their indices cannot be related",
                )
            found.extend(_pair(nest, first, second))
    return found


def _pair(nest: Nest, first: Access, second: Access) -> Iterator[Dependence]:
    forms = _forms(nest, first), _forms(nest, second)
    common = min(first.depth, second.depth)
    for vector in _refine(nest, forms[0], forms[1], ["*"] * common, 0):
        carrier = next((d for d in vector if d != "="), None)
        if carrier is None:
            if first is not second:
                yield Dependence(first, second, tuple(vector))
        elif carrier == "<":
            yield Dependence(first, second, tuple(vector))
        else:
            yield Dependence(second, first, tuple(_reverse(d) for d in vector))


def _forms(nest: Nest, access: Access) -> list[Form]:
    forms = access.linear(nest.rank)
    if forms is None:
        raise NotScheduled(
            access.op,
            f"an index of {access.op.name} is not affine (floordiv/mod): its dependences "
            "cannot be proven",
        )
    return forms


def _reverse(direction: str) -> str:
    return {"<": ">", ">": "<"}.get(direction, direction)


def _refine(
    nest: Nest, source: Sequence[Form], sink: Sequence[Form], vector: list[str], position: int
) -> Iterator[list[str]]:
    if not _feasible(nest, source, sink, vector):
        return
    if position == len(vector):
        yield list(vector)
        return
    for direction in DIRECTIONS:
        refined = [*vector[:position], direction, *vector[position + 1 :]]
        yield from _refine(nest, source, sink, refined, position + 1)


def _feasible(nest: Nest, source: Sequence[Form], sink: Sequence[Form], vector: list[str]) -> bool:
    return all(_subscript_feasible(nest, a, b, vector) for a, b in zip(source, sink, strict=True))


def _subscript_feasible(nest: Nest, source: Form, sink: Form, vector: list[str]) -> bool:
    """Can `Σ a·x + a0 = Σ b·y + b0` hold with x, y in the loops' boxes and the directions?"""
    (a, a0), (b, b0) = source, sink
    loops = len(nest.loops)
    if any(a[s] != b[s] for s in range(loops, nest.rank)):
        return True  # an unknown loop-invariant value: anything is possible
    target = b0 - a0
    low = high = 0
    divisors: list[int] = []
    for i in range(loops):
        if a[i] == 0 and b[i] == 0:
            continue
        trips = nest.loops[i].trips
        direction = vector[i] if i < len(vector) else "*"
        if direction == "=":
            divisors.append(a[i] - b[i])
        else:
            divisors.extend((a[i], b[i]))
        corners = _corners(direction, trips)
        if not corners:
            return False
        values = [a[i] * x - b[i] * y for x, y in corners]
        low, high = low + min(values), high + max(values)
    for i, direction in enumerate(vector):
        if direction != "=" and not _corners(direction, nest.loops[i].trips):
            return False
    divisor = math.gcd(*divisors) if divisors else 0
    if divisor == 0:
        return target == 0
    return target % divisor == 0 and low <= target <= high


def _corners(direction: str, trips: int) -> list[tuple[int, int]]:
    """Vertices of the region of (source, sink) counters of one loop under a direction."""
    last = trips - 1
    if direction == "=":
        return [(0, 0), (last, last)]
    if direction == "*":
        return [(0, 0), (0, last), (last, 0), (last, last)]
    if trips < 2:
        return []
    if direction == "<":
        return [(0, 1), (0, last), (last - 1, last)]
    return [(1, 0), (last, 0), (last, last - 1)]


def parallel_loops(nest: Nest, found: Sequence[Dependence]) -> set[int]:
    """Loops with `=` in every dependence: moving, unrolling or vectorizing them reorders no
    dependent pair."""
    return {
        i
        for i in range(len(nest.loops))
        if all(i >= len(d.directions) or d.directions[i] == "=" for d in found)
    }


def preserved(found: Sequence[Dependence], order: Sequence[int]) -> Dependence | None:
    """The first dependence that the loop order `order` (a permutation of the loops, outermost
    first) would reverse, or None when it keeps all of them."""
    for dependence in found:
        for loop in order:
            if loop >= len(dependence.directions):
                continue
            direction = dependence.directions[loop]
            if direction == "<":
                break
            if direction == ">":
                return dependence
    return None
