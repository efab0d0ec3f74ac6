"""The joint search space: one candidate per tuned buffer, ranked by the cost model.

Buffers interact through the loops that index them: a dim of one buffer and a dim of
another indexed by the same loop counter alone are *tied* (a convolution's output channels
and its weights' output channels; its input channels and the weights' input channels).
The space holds
- the product of each buffer's best candidates alone (its `shortlist`: the ones with the
  longest contiguous run up to the vector lanes, the least padding, no conversion first),
  as many per buffer as keep the product under `cap`;
- for each loop that indexes the leading buffer's store alone (a candidate vector loop),
  the combinations where every buffer it walks stores that dim innermost, unblocked
  (channels-last: `nhwc` input and output with `hwio` weights);
- for each such loop and block size, the combinations where every buffer it walks blocks
  that dim by that size, innermost (GEMM column panels: `AB->BA16b` for B and C);
- for each block size, the combinations where every buffer blocks its tied dims by that
  size (`nChw16c` input and output with `OIhw16i16o` weights), again capped;
- the input program's own layouts.

Each holds the pass's own schedule; the `TOP_LAYOUTS` cheapest of them also hold every
other schedule of search/schedules.py (register tiles, and fused multiply-adds when the
user allows them), so the cost model ranks layout × schedule pairs.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field

from heterolayout.layout.model import Layout
from heterolayout.search.candidates import Candidate
from heterolayout.search.cost import Estimate, Summary, estimate, is_row_major
from heterolayout.search.program import Buffer
from heterolayout.search.schedules import Schedule, tiles, variants

DEFAULT_CAP = 8
TOP_LAYOUTS = 8


@dataclass(frozen=True)
class Joint:
    choice: tuple[Candidate, ...]
    """One candidate per tuned buffer, in the buffers' order."""
    estimate: Estimate
    schedule: Schedule = field(default_factory=Schedule)

    def layouts(self, buffers: list[Buffer]) -> dict[str, str]:
        return {b.name: c.spec for b, c in zip(buffers, self.choice, strict=True)}


def tied_dims(summary: Summary) -> dict[str, set[int]]:
    """Per buffer, its dims that a loop indexes alone in another buffer too."""
    by_loop: dict[int, set[tuple[str, int]]] = {}
    for access in summary.accesses:
        for dim, loop in enumerate(access.loops):
            if loop is not None:
                by_loop.setdefault(loop, set()).add((access.buffer, dim))
    tied: dict[str, set[int]] = {}
    for pairs in by_loop.values():
        if len({buffer for buffer, _ in pairs}) > 1:
            for buffer, dim in pairs:
                tied.setdefault(buffer, set()).add(dim)
    return tied


def block_of(layout: Layout, dim: int) -> int:
    """The size of dim `dim`'s blocks (the weight of its outermost digit), 1 if unblocked
    or not a blocking."""
    digits = layout.dim_digits(dim)
    return digits[0][1] if digits else 1


def _standalone(candidate: Candidate, lanes: int, argument: bool) -> tuple[float, ...]:
    layout = candidate.layout
    run = max(min(layout.contiguous_run(d), lanes) for d in range(layout.rank))
    converts = argument and not is_row_major(layout)
    return (-run, layout.padding_share, converts)


def _innermost(layout: Layout, dim: int, lanes: int) -> bool:
    """Dim `dim` is stored unblocked and contiguous for at least a vector (or all of it)."""
    return block_of(layout, dim) == 1 and layout.contiguous_run(dim) >= min(
        lanes, layout.logical_shape[dim] or 1
    )


def _blocked_along(
    layout: Layout, walked: list[tuple[str, int]], name: str, size: int, lanes: int
) -> bool:
    """Every dim of buffer `name` the vector loop walks is blocked by `size`, innermost."""
    dims = [d for n, d in walked if n == name]
    return all(
        block_of(layout, d) == size and layout.contiguous_run(d) >= min(lanes, size) for d in dims
    )


def shortlist(
    candidates: list[Candidate], lanes: int, argument: bool, size: int
) -> list[Candidate]:
    return sorted(candidates, key=lambda c: _standalone(c, lanes, argument))[:size]


def _capped(lists: list[list[Candidate]], cap: int) -> Iterable[tuple[Candidate, ...]]:
    size = 1
    while all(len(options) > size for options in lists) and (size + 1) ** len(lists) <= cap:
        size += 1
    return itertools.product(*(options[: max(size, 1)] for options in lists))


def _tied_sizes(
    buffers: list[Buffer], candidates: dict[str, list[Candidate]], tied: dict[str, set[int]]
) -> list[int]:
    sizes = {
        block_of(c.layout, d)
        for b in buffers
        for c in candidates[b.name]
        for d in tied.get(b.name, ())
    }
    return sorted(sizes - {1})


def joint_space(
    buffers: list[Buffer],
    candidates: dict[str, list[Candidate]],
    inputs: dict[str, Candidate],
    summary: Summary,
    lanes: int,
    registers: int,
    cap: int = DEFAULT_CAP,
    embedded: bool = False,
) -> list[Joint]:
    """The joint candidates with the pass's own schedule, cheapest estimate first (ties keep
    generation order). `embedded`: the target's multiplies take a broadcast memory operand
    (`cost.estimate`)."""
    short = [
        [inputs[b.name]]
        + [
            c
            for c in shortlist(
                candidates[b.name], lanes, b.argument is not None, len(candidates[b.name])
            )
            if c.layout != inputs[b.name].layout
        ]
        for b in buffers
    ]
    choices: list[tuple[Candidate, ...]] = [tuple(inputs[b.name] for b in buffers)]
    choices += _capped(short, cap)
    choices += _vector_loop_choices(buffers, candidates, short, summary, lanes, cap)
    tied = tied_dims(summary)
    for size in _tied_sizes(buffers, candidates, tied):
        per_buffer = [
            [c for c in options if all(block_of(c.layout, d) == size for d in tied[b.name])]
            if b.name in tied
            else options
            for b, options in zip(buffers, short, strict=True)
        ]
        if all(per_buffer):
            choices += _capped(per_buffer, cap)
    unique = list(
        {tuple(c.layout for c in choice): choice for choice in reversed(choices)}.values()
    )[::-1]
    joints = []
    for choice in unique:
        layouts = {b.name: c.layout for b, c in zip(buffers, choice, strict=True)}
        joints.append(
            Joint(
                choice,
                estimate(summary, buffers, layouts, lanes, registers=registers, embedded=embedded),
            )
        )
    return sorted(joints, key=lambda j: j.estimate.seconds)


def _vector_loop_choices(
    buffers: list[Buffer],
    candidates: dict[str, list[Candidate]],
    short: list[list[Candidate]],
    summary: Summary,
    lanes: int,
    cap: int,
) -> list[tuple[Candidate, ...]]:
    """For each loop that could vectorize: the choices whose buffers it walks innermost,
    and those blocked along it by a size the tied buffers share."""
    choices: list[tuple[Candidate, ...]] = []
    for loop in sorted(summary.vector_loops()):
        walked = summary.walked(loop)
        per_buffer = [
            [
                c
                for c in options
                if all(_innermost(c.layout, d, lanes) for n, d in walked if n == b.name)
            ]
            for b, options in zip(buffers, short, strict=True)
        ]
        if all(per_buffer):
            choices += _capped(per_buffer, cap)
        for size in _tied_sizes(buffers, candidates, {n: {d} for n, d in walked}):
            per_buffer = [
                [
                    c
                    for c in candidates[b.name]
                    if _blocked_along(c.layout, walked, b.name, size, lanes)
                ]
                if any(n == b.name for n, _ in walked)
                else options
                for b, options in zip(buffers, short, strict=True)
            ]
            if all(per_buffer):
                choices += _capped(per_buffer, cap)
    return choices


def with_schedules(
    joints: list[Joint],
    buffers: list[Buffer],
    summary: Summary,
    lanes: int,
    registers: int,
    extra: list[tuple[int, ...]],
    fast_math: bool,
    embedded: bool = False,
) -> list[Joint]:
    """`joints` plus the `TOP_LAYOUTS` cheapest with each other schedule (the generated
    tiles for their leading layout, the user's `extra` tiles, fused multiply-adds when
    `fast_math`), cheapest estimate first. `embedded`: the target's multiplies take a
    broadcast memory operand (`cost.estimate`)."""
    result = list(joints)
    for joint in joints[:TOP_LAYOUTS]:
        layouts = {b.name: c.layout for b, c in zip(buffers, joint.choice, strict=True)}
        generated = tiles(summary, layouts[summary.lead], joint.estimate.lanes, registers)
        for schedule in variants(generated, extra, fast_math):
            cost = estimate(
                summary,
                buffers,
                layouts,
                lanes,
                schedule.tile,
                schedule.fast,
                registers,
                embedded,
            )
            result.append(Joint(joint.choice, cost, schedule))
    return sorted(result, key=lambda j: j.estimate.seconds)
