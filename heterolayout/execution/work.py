"""How much a program computes, estimated from its IR: what the `auto` engine asks to choose
between the compiled engine (quick to start, slow per operation) and the native engine
(compiles for a second or two, then runs at machine speed).

The estimate counts op executions: each op once per iteration of the loops around it (loops
with constant bounds: `scf.for`, `affine.for`), a linalg op once per point of its loop nest
(the product of its static extents). A loop or extent known only at run time counts once,
and so does a block of a region with several (a branch, a `scf.while` body), so the
estimate stays low where it cannot see: such a program keeps the compiled engine.
"""

from __future__ import annotations

import math

from xdsl.dialects import affine, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineConstantExpr

from heterolayout.dialects.arith_ops import constant_index
from heterolayout.dialects.structured import StructureError, is_structured, structured

LARGE_WORK = 1_000_000
"""Op executions from which a program counts as large: the compiled engine runs a few
hundred thousand a second, so from here a run takes it seconds to minutes, where the native
engine's build takes a second or two (once: it is cached) and the run milliseconds."""


def estimate_work(module: ModuleOp) -> int:
    """The op executions of one call of every function in `module`, each counted once."""
    return sum(_work(op, 1) for op in module.ops)


def _work(op: Operation, repeat: int) -> int:
    if is_structured(op):
        return repeat * _points(op)
    inner = repeat * _trips(op)
    nested = sum(
        _work(child, inner)
        for region in op.regions
        for block in region.blocks
        for child in block.ops
    )
    return repeat + nested


def _points(op: Operation) -> int:
    try:
        nest = structured(op)
    except StructureError:
        return 1
    extents = 1
    for operand, dim in nest.extents:
        kind = op.operands[operand].type
        if isinstance(kind, MemRefType):
            size = kind.get_shape()[dim]
            extents *= size if size >= 0 else 1
    return max(extents, 1)


def _trips(op: Operation) -> int:
    """The iterations of a loop with constant bounds (1 for any other op or loop)."""
    if isinstance(op, scf.ForOp):
        bounds = [constant_index(v) for v in (op.lb, op.ub, op.step)]
        if any(b is None for b in bounds):
            return 1
        lower, upper, step = (b for b in bounds if b is not None)
        return max(math.ceil((upper - lower) / step), 0) if step > 0 else 1
    if isinstance(op, affine.ForOp):
        maps = (op.lowerBoundMap.data, op.upperBoundMap.data)
        if any(len(m.results) != 1 or m.num_dims or m.num_symbols for m in maps):
            return 1
        low, high = maps[0].results[0], maps[1].results[0]
        if not isinstance(low, AffineConstantExpr) or not isinstance(high, AffineConstantExpr):
            return 1
        step = op.step.value.data
        return max(math.ceil((high.value - low.value) / step), 0) if step > 0 else 1
    return 1
