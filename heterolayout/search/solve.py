"""The global choice: one candidate per variable (a buffer's layout) minimizing a sum of
factors (a nest's time over the layouts of the buffers it touches, a boundary conversion
over an argument's layout).

`solve` runs variable elimination (min-sum bucket elimination, eliminating the variable
whose bucket is smallest first), which is exact; a program's factor graph is close to a
chain (each nest touches the buffers of its producers and consumers), so the tables it
builds stay small. When one would hold more than `MAX_TABLE` entries it falls back to
iterated conditional modes from the best of the given starting assignments (the uniform
ones), a local optimum. `exhaustive` enumerates every assignment (the tests' reference).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

MAX_TABLE = 200_000
"""Entries of the largest table variable elimination may build before it gives up."""

Assignment = dict[str, int]


@dataclass(frozen=True)
class Factor:
    """A cost over the variables in `scope`: `table[(i, j, …)]` for their candidates
    `i, j, …` (in scope order); a missing entry is infinite (a choice that does not run)."""

    scope: tuple[str, ...]
    table: dict[tuple[int, ...], float]

    def cost(self, assignment: Assignment) -> float:
        return self.table.get(tuple(assignment[v] for v in self.scope), math.inf)


@dataclass(frozen=True)
class Solution:
    assignment: Assignment
    cost: float
    method: str
    """`variable elimination (exact)`, `exhaustive (exact)` or
    `iterated conditional modes (local optimum)`."""


def total(factors: Sequence[Factor], assignment: Assignment) -> float:
    return sum(f.cost(assignment) for f in factors)


def exhaustive(domains: dict[str, int], factors: Sequence[Factor]) -> Solution:
    """Every assignment (the first of the cheapest in `itertools.product` order)."""
    names = list(domains)
    best: Solution | None = None
    for values in itertools.product(*(range(domains[v]) for v in names)):
        assignment = dict(zip(names, values, strict=True))
        cost = total(factors, assignment)
        if best is None or cost < best.cost:
            best = Solution(assignment, cost, "exhaustive (exact)")
    assert best is not None
    return best


class _TooLarge(Exception):
    pass


def eliminate(domains: dict[str, int], factors: Sequence[Factor]) -> Solution:
    """Min-sum variable elimination; raises `_TooLarge` past `MAX_TABLE`."""
    pending = list(factors)
    remaining = set(domains)
    # per eliminated variable: its scope (the other variables) and argmin per their values
    steps: list[tuple[str, tuple[str, ...], dict[tuple[int, ...], int]]] = []
    constant = 0.0
    while remaining:

        def bucket_size(variable: str, pending: list[Factor] = pending) -> int:
            scope = {v for f in pending if variable in f.scope for v in f.scope}
            return math.prod(domains[v] for v in scope | {variable})

        variable = min(sorted(remaining), key=bucket_size)
        if bucket_size(variable) > MAX_TABLE:
            raise _TooLarge
        bucket = [f for f in pending if variable in f.scope]
        pending = [f for f in pending if variable not in f.scope]
        scope = tuple(sorted({v for f in bucket for v in f.scope} - {variable}))
        table: dict[tuple[int, ...], float] = {}
        argmin: dict[tuple[int, ...], int] = {}
        for values in itertools.product(*(range(domains[v]) for v in scope)):
            partial = dict(zip(scope, values, strict=True))
            best, chosen = math.inf, 0
            for value in range(domains[variable]):
                partial[variable] = value
                cost = sum(f.cost(partial) for f in bucket)
                if cost < best:
                    best, chosen = cost, value
            table[values] = best
            argmin[values] = chosen
        steps.append((variable, scope, argmin))
        if scope:
            pending.append(Factor(scope, table))
        else:
            constant += table[()]
        remaining.discard(variable)
    constant += sum(f.cost({}) for f in pending)
    assignment: Assignment = {}
    for variable, scope, argmin in reversed(steps):
        assignment[variable] = argmin[tuple(assignment[v] for v in scope)]
    return Solution(assignment, total(factors, assignment), "variable elimination (exact)")


def conditional_modes(
    domains: dict[str, int], factors: Sequence[Factor], starts: Sequence[Assignment]
) -> Solution:
    """Iterated conditional modes: from the cheapest start, each variable in turn takes its
    cheapest value given the others, until none changes."""
    assignment: Assignment = dict(min(starts, key=lambda s: total(factors, dict(s))))
    touching = {v: [f for f in factors if v in f.scope] for v in domains}
    changed = True
    while changed:
        changed = False
        for variable in domains:

            def local(value: int, variable: str = variable) -> float:
                return sum(f.cost({**assignment, variable: value}) for f in touching[variable])

            best = min(range(domains[variable]), key=local)
            if local(best) < local(assignment[variable]):
                assignment[variable] = best
                changed = True
    return Solution(
        assignment, total(factors, assignment), "iterated conditional modes (local optimum)"
    )


def solve(
    domains: dict[str, int],
    factors: Sequence[Factor],
    starts: Sequence[Assignment] = (),
    log: Callable[[str], None] | None = None,
) -> Solution:
    """The cheapest assignment: variable elimination (exact), or iterated conditional modes
    from the cheapest of `starts` (and all-zeros) when a table would be too large."""
    try:
        return eliminate(domains, factors)
    except _TooLarge:
        if log is not None:
            log(f"a table past {MAX_TABLE} entries: iterated conditional modes instead")
        return conditional_modes(domains, factors, [{v: 0 for v in domains}, *starts])
