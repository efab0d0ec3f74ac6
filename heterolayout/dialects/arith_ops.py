"""Groups of `arith` ops that several passes match on, defined once."""

from __future__ import annotations

from xdsl.dialects import arith

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
