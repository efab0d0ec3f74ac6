"""Building `scf.for` loops for the loop nests a conversion or a pad fill writes: whole
nests over extents (`LoopNest`; `grid.GridNest` puts the dims on a GPU launch grid), and
single loops with constant bounds (`constant_loop`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, Region, SSAValue

Insert = Callable[[Operation], None]
"""Puts a new op where the code being written goes."""


class LoopNest:
    """Builds `scf.for` nests from 0 to each extent; `body(ivs, insert)` fills the innermost."""

    def __init__(self, insert: Insert) -> None:
        self.insert = insert
        self._constants: dict[int, SSAValue] = {}

    def index(self, value: int) -> SSAValue:
        if value not in self._constants:
            op = arith.ConstantOp(IntegerAttr(value, IndexType()))
            self.insert(op)
            self._constants[value] = op.result
        return self._constants[value]

    def build(
        self,
        extents: Sequence[SSAValue],
        body: Callable[[list[SSAValue], Insert], None],
    ) -> None:
        zero, one = self.index(0), self.index(1)
        ivs: list[SSAValue] = []
        insert = self.insert
        for extent in extents:
            block = Block(arg_types=[IndexType()])
            insert(scf.ForOp(zero, extent, one, [], Region(block)))
            ivs.append(block.args[0])
            insert = _appender(block)
        body(ivs, insert)
        for iv in ivs:
            owner = iv.owner
            assert isinstance(owner, Block)
            owner.add_op(scf.YieldOp())


def _appender(block: Block) -> Insert:
    return block.add_op


def constant_loop(
    low: int,
    high: int,
    step: int,
    constant: Callable[[int], SSAValue],
    add: Insert,
    body: Callable[[SSAValue, Insert], None],
) -> None:
    """One `scf.for` from `low` to `high` by `step` (constants made by `constant`), its body
    written by `body(iv, insert)`."""
    block = Block(arg_types=[IndexType()])
    add(scf.ForOp(constant(low), constant(high), constant(step), [], Region(block)))
    body(block.args[0], block.add_op)
    block.add_op(scf.YieldOp())
