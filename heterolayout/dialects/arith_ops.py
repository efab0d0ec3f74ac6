"""`arith` ops as several passes read them, defined once: the groups they match on, and the
value of an integer constant."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import SSAValue

BITWISE = (arith.XOrIOp, arith.AndIOp, arith.OrIOp)
"""The lane-wise bitwise ops: they act on packed words as on their lanes."""

DIVISIONS = (
    arith.DivUIOp,
    arith.DivSIOp,
    arith.FloorDivSIOp,
    arith.CeilDivUIOp,
    arith.CeilDivSIOp,
    arith.RemUIOp,
    arith.RemSIOp,
)
"""Integer divisions and remainders (undefined for a zero divisor)."""


def constant_index(value: SSAValue) -> int | None:
    """The value of an `arith.constant` of index or integer type."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None
