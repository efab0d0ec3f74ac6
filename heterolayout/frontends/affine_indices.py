"""Index values an importer computes through float arithmetic, written as the affine
functions they are.

torch-mlir lowers a nearest Resize's coordinate transform as float ops on `linalg.index`:
`(i + 0.5) / scale - 0.5`, rounded, clamped, converted back to an index. Left so, the value
is data to `layout-schedule` ("an index of memref.load is computed from data, not affine"),
and the nest stays scalar. Over the op's static iteration domain such a value is a function
of one loop index; evaluated at every point of it with the engines' own op semantics
(`execution.runtime.semantics`, through the interpreter's kernels), it is often exactly
`(p·i + q) floordiv r` (an upscale by 2: `i floordiv 2`). Then the value becomes that
`affine.apply` of the index, which every later pass reads as an affine expression. A value
of several loop indices, of data, of an op without semantics, one that fails to evaluate
somewhere, or one that no such function matches at every point stays as it is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import AffineMapAttr, IndexType, ModuleOp
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.interp.kernels import compile_kernel
from heterolayout.frontends.text_rewrites import rewritten_text

FLOAT_TO_INTEGER = ("arith.fptosi", "arith.fptoui")
"""The ops that bring a float computation back to integers: what a text must hold for
`affine_indices_in_text` to look at it."""
LARGEST_DIVISOR = 64
"""The largest `r` of `(p·i + q) floordiv r` tried."""
LARGEST_DOMAIN = 1 << 16
"""The most points a loop index may take for its values to be evaluated."""


def affine_indices_in_text(text: str) -> str:
    """`text` with `affine_indices` applied, itself when there is nothing to replace (only a
    module with `linalg.index` and a float-to-integer conversion is parsed) or when
    heterolayout's parser does not read it (the tool that reads it next says why)."""
    applies = "linalg.index" in text and any(name in text for name in FLOAT_TO_INTEGER)
    return rewritten_text(text, applies, affine_indices)


def affine_indices(module: ModuleOp) -> int:
    """Replace each index value of a `linalg.generic` body computed through a float-to-integer
    conversion from one `linalg.index` by the affine function it equals; how many were."""
    replaced = 0
    for generic in [op for op in module.walk() if isinstance(op, GenericOp)]:
        ranges = generic.get_static_loop_ranges()
        block = generic.body.block
        for cast in list(block.ops):
            if _is_index_result(cast) and _recover(cast, block, ranges):
                replaced += 1
    return replaced


def _is_index_result(op: Operation) -> bool:
    return isinstance(op, arith.IndexCastOp) and isinstance(op.results[0].type, IndexType)


def _recover(cast: Operation, block: Block, ranges: Sequence[int]) -> bool:
    found = _slice(cast.results[0], block)
    if found is None:
        return False
    ops, index = found
    if index is None or not any(op.name in FLOAT_TO_INTEGER for op in ops):
        return False
    extent = ranges[index.dim.value.data]
    if extent < 1 or extent > LARGEST_DOMAIN:
        return False
    values = _values(ops, index, cast.results[0], extent)
    fitted = None if values is None else fit(values)
    if fitted is None:
        return False
    multiplier, offset, divisor = fitted
    expr = AffineExpr.dimension(0) * multiplier + offset
    if divisor != 1:
        expr = expr // divisor
    apply = affine.ApplyOp([index.result], AffineMapAttr(AffineMap(1, 0, (expr,))))
    Rewriter.insert_op(apply, InsertPoint.before(cast))
    cast.results[0].replace_all_uses_with(apply.result)
    for op in reversed(ops):
        if all(not result.uses for result in op.results):
            Rewriter.erase_op(op)
    return True


def _slice(value: SSAValue, block: Block) -> tuple[list[Operation], IndexOp | None] | None:
    """The ops of `block` computing `value` in block order, and the one `linalg.index` they
    read (None: none); None when a leaf is data, or they read two loop indices."""
    ops: set[Operation] = set()
    indices: set[IndexOp] = set()
    pending = [value]
    while pending:
        owner = pending.pop().owner
        if not isinstance(owner, Operation):
            return None
        if isinstance(owner, IndexOp):
            indices.add(owner)
        elif owner.parent_block() is not block:
            if not isinstance(owner, arith.ConstantOp):
                return None
        elif owner not in ops:
            if owner.regions or len(owner.results) != 1:
                return None
            ops.add(owner)
            pending.extend(owner.operands)
    if len({i.dim.value.data for i in indices}) > 1:
        return None
    ordered = [op for op in block.ops if op in ops]
    return ordered, next(iter(indices), None)


def _values(
    ops: Sequence[Operation], index: IndexOp, value: SSAValue, extent: int
) -> list[int] | None:
    """`value` at each point of the loop index, or None if an op has no semantics
    (`compile_kernel` knows no such op) or fails to evaluate somewhere."""
    try:
        kernels: dict[Operation, Callable[..., Any]] = {op: compile_kernel(op) for op in ops}
        constants = {
            operand: compile_kernel(operand.owner)()
            for op in ops
            for operand in op.operands
            if isinstance(operand.owner, arith.ConstantOp)
        }
        found = []
        for point in range(extent):
            known: dict[SSAValue, Any] = {**constants, index.result: point}
            for op in ops:
                known[op.results[0]] = kernels[op](*(known[o] for o in op.operands))
            result = known[value]
            if not isinstance(result, (int, np.integer)):
                return None
            found.append(int(result))
    except (KeyError, ExecutionError, ArithmeticError, ValueError):
        return None
    return found


def fit(values: Sequence[int]) -> tuple[int, int, int] | None:
    """(p, q, r) with `values[i] == (p·i + q) floordiv r` for every i, the smallest r (at
    most `LARGEST_DIVISOR`) first; None if there is none."""
    last = len(values) - 1
    if last == 0:
        return 0, values[0], 1
    for divisor in range(1, LARGEST_DIVISOR + 1):
        slope = (values[-1] - values[0]) * divisor / last
        for multiplier in sorted({math.floor(slope), math.ceil(slope)}):
            low = max(v * divisor - multiplier * i for i, v in enumerate(values))
            high = min((v + 1) * divisor - 1 - multiplier * i for i, v in enumerate(values))
            if low <= high:
                return multiplier, low, divisor
    return None
