"""Reductions: accumulators combined by an associative, commutative op, and vectors along
the loop they reduce over.

A row sum, softmax's denominator or a layer norm's mean reads its rows contiguously along
the loop it reduces, and stores one element per row: no parallel loop walks a contiguous
run, so the nest has no vector loop of the usual kind. Vectorized along the reduction, each
accumulator becomes a vector of partial results (lane `j` combines the elements `j`, `j +
L`, `j + 2L`, … of the row), started at the combining op's identity and folded into the
accumulator's own value by one `vector.reduction` after the reduction loops. A shorter
last chunk is widened with the identity. Integer and min/max combinations give the same
result in any order; float sums and products only with `reassociate` (the order of the
additions changes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Operation

from heterolayout.passes.schedule.dependence import Dependence
from heterolayout.passes.schedule.nest import Access, NotScheduled

_KINDS: dict[type[Operation], str] = {
    arith.AddfOp: "add",
    arith.AddiOp: "add",
    arith.MulfOp: "mul",
    arith.MuliOp: "mul",
    arith.MaxSIOp: "maxsi",
    arith.MinSIOp: "minsi",
    arith.MaxUIOp: "maxui",
    arith.MinUIOp: "minui",
    arith.MaximumfOp: "maximumf",
    arith.MinimumfOp: "minimumf",
    arith.AndIOp: "and",
    arith.OrIOp: "or",
    arith.XOrIOp: "xor",
}
"""`vector.reduction` kinds. `maxnumf`/`minnumf` are left out: their identity is NaN."""


REDUCTIONS: tuple[type[Operation], ...] = (*_KINDS, arith.MaxnumfOp, arith.MinnumfOp)
"""Associative and commutative combinations: the order of their operands may change when
`reassociate` allows (for floats the result may then differ in rounding)."""

REORDERED_ROUNDING = (arith.AddfOp, arith.MulfOp)
"""The combinations whose result depends on the order (float rounding)."""


@dataclass(frozen=True)
class Combining:
    """How an accumulator's partial results are started and folded."""

    kind: str
    """The `vector.reduction` kind."""
    identity: Attribute
    """The element every lane starts from and a short chunk is widened with."""


def is_reduction(load: Access, store: Access) -> bool:
    """The store writes a combination of the load's value with something else."""
    value = store.value
    assert value is not None
    owner = value.owner
    return isinstance(owner, REDUCTIONS) and load.op.results[0] in owner.operands


def combining(
    pairs: Sequence[tuple[Access, Access]], reassociate: bool
) -> dict[Operation, Combining]:
    """Each accumulator's combining op, when every one of them can keep partial results:
    its load feeds only the combination, whose value only the store takes."""
    found: dict[Operation, Combining] = {}
    for load, store in pairs:
        value = store.value
        assert value is not None
        op = value.owner
        if not isinstance(op, Operation) or not is_reduction(load, store):
            raise NotScheduled(store.op, "the accumulator is not a combination with its own value")
        kind = _KINDS.get(type(op))
        if kind is None:
            raise NotScheduled(op, f"{op.name} has no vector reduction that keeps its result")
        if isinstance(op, REORDERED_ROUNDING) and not reassociate:
            raise NotScheduled(
                op, f"partial results of {op.name} round differently (needs reassociate=true)"
            )
        if len(list(load.op.results[0].uses)) != 1 or len(list(value.uses)) != 1:
            raise NotScheduled(op, "the accumulator's value is used besides its combination")
        found[op] = Combining(kind, _identity(op))
    return found


def carried_by_accumulators(
    found: Sequence[Dependence], loop: int, pairs: Sequence[tuple[Access, Access]]
) -> Dependence | None:
    """A dependence the loop carries that is not an accumulator's own, if any."""
    own = {a.op for pair in pairs for a in pair}
    for dependence in found:
        if dependence.carrier == loop and not {dependence.source.op, dependence.sink.op} <= own:
            return dependence
    return None


def _identity(op: Operation) -> Attribute:
    element = op.results[0].type
    if isinstance(element, IntegerType):
        bits = element.width.data
        values = {
            arith.AddiOp: 0,
            arith.MuliOp: 1,
            arith.MaxSIOp: -(1 << (bits - 1)),
            arith.MinSIOp: (1 << (bits - 1)) - 1,
            arith.MaxUIOp: 0,
            arith.MinUIOp: -1,
            arith.AndIOp: -1,
            arith.OrIOp: 0,
            arith.XOrIOp: 0,
        }
        return IntegerAttr(values[type(op)], element)
    if not isinstance(element, AnyFloat):
        raise NotScheduled(op, f"{op.name} on {element} has no vector reduction here")
    floats = {
        arith.AddfOp: -0.0,
        arith.MulfOp: 1.0,
        arith.MaximumfOp: float("-inf"),
        arith.MinimumfOp: float("inf"),
    }
    return FloatAttr(floats[type(op)], element)  # type: ignore[index]
