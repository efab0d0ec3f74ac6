"""What a schedule is: each loop of the nest split into digits, and the digits in order.

A loop's counter `t` is written in mixed radix, `t = Σ digit · weight`, one digit per
physical dim the loop walks in the leading buffer (nChw16c splits the channel loop into the
block digit, weight 16, and the lane digit, weight 1). Each digit is run by a loop
(`outer`: around the register tile, `inner`: inside it, where the reductions are), copied
(`unroll`: the register tile's copies, jammed), or taken whole as one vector (`vector`).
Trip counts need not divide: the emitted code runs the full chunks of a digit, then what is
left as one smaller chunk, down to a shorter vector.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from xdsl.ir import Operation, SSAValue

from heterolayout.dialects.roots import storage_root
from heterolayout.passes.schedule.nest import Access, Nest
from heterolayout.passes.schedule.reductions import Combining

Kind = Literal["loop", "unroll", "vector"]
INNER_RANK = 1 << 30
"""The rank of a loop the leading buffer does not walk: after every physical dim."""


@dataclass(frozen=True)
class Digit:
    loop: int
    weight: int
    rank: int
    """Where the digit's physical dim sits in the leading buffer's memory order (outermost
    first); INNER_RANK when the buffer does not depend on the loop."""
    kind: Kind = "loop"

    def but(self, **changes: object) -> Digit:
        return replace(self, **changes)  # type: ignore[arg-type]


@dataclass
class Plan:
    nest: Nest
    lead: Access
    outer: list[Digit]
    """Loops around the register tile, outermost first."""
    inner: list[Digit]
    """Loops inside the register tile (the reductions), outermost first."""
    tile: list[Digit] = field(default_factory=list)
    """The unrolled digits whose copies are jammed, then the vector digit if any."""
    vector_loop: int | None = None
    gathered: dict[Operation, str] = field(default_factory=dict)
    """Reads along the vector loop that walk no contiguous run, loaded lane by lane into a
    vector (`vectorization._gatherable`), each with why."""
    hoisted: list[tuple[Access, Access]] = field(default_factory=list)
    """(load, store) pairs of one element that stays in a register across the inner loops."""
    fused: bool = False
    """Multiply-adds become `vector.fma` (one rounding instead of two)."""
    embedded_broadcasts: bool = False
    """The target's multiplies take a broadcast memory operand (AVX-512)."""
    rolled_overlaps: bool = False
    """The innermost reduction loop stays rolled where the copies' broadcast reads overlap
    along it (`rolled_loops.keeps_overlaps_rolled`)."""
    partials: dict[Operation, Combining] = field(default_factory=dict)
    """When the vector loop is a reduction: each accumulator's combining op, and how its
    vector of partial results starts and folds (`reductions`)."""
    block_depth: int | None = None
    """Where in `inner` a block of a long sum starts: from there the loops add into fresh
    partial results, added to the accumulators after each block (`blocked_sums`)."""
    blocked: dict[Operation, Combining] = field(default_factory=dict)
    """With `block_depth`: each accumulator's combining op."""
    reduction_block: Digit | None = None
    """A reduction loop's block digit moved out among the loops around the tile
    (`reduction_blocks`): the statements before the reduction loops run with its first
    block, the ones after them with its last."""

    @property
    def written(self) -> set[SSAValue]:
        """The buffers (roots) the nest stores to."""
        return {storage_root(a.buffer) for a in self.nest.accesses.values() if a.write}

    def digits_of(self, loop: int) -> list[Digit]:
        """A loop's digits, heaviest first."""
        digits = [d for d in (*self.outer, *self.inner, *self.tile) if d.loop == loop]
        return sorted(digits, key=lambda d: -d.weight)
