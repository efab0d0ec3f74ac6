"""`math.fpowi` by a constant power as the multiplications `llvm.powi` makes of it.

Frontends write `x ** 2` and GELU's `x ** 3` as `math.fpowi %x, %c : f32, i64` with a
constant power. Upstream's LLVM lowering makes `llvm.intr.powi` of it, which takes a scalar
power only: on vectors it fails to verify, so a vectorized `fpowi` cannot be compiled. LLVM
itself expands a constant power into squarings and multiplications (SelectionDAG's
`ExpandPowI`), in the order compiler-rt's `__powisf2` computes a run-time one: the same
products, each rounded, and one division for a negative power. Written as those arith ops
here, the power is bit for bit what LLVM computes, and a statement like any other, vectorized
with its nest. A power known only at run time stays `fpowi` and keeps its nest scalar
(`vectorization`).
"""

from __future__ import annotations

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter


def _constant_power(op: math.FPowIOp) -> int | None:
    """The power of `op` when an `arith.constant` integer gives it."""
    owner = op.rhs.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _power(op: math.FPowIOp, power: int) -> SSAValue:
    """Square and multiply, low bit first, as `__powisf2` and `ExpandPowI` do."""
    point = InsertPoint.before(op)
    element = op.lhs.type
    assert isinstance(element, AnyFloat)

    def add(new: Operation) -> SSAValue:
        Rewriter.insert_op(new, point)
        return new.results[0]

    result: SSAValue | None = None
    square: SSAValue = op.lhs
    remaining = abs(power)
    while remaining:
        if remaining & 1:
            result = square if result is None else add(arith.MulfOp(result, square))
        remaining >>= 1
        if remaining:
            square = add(arith.MulfOp(square, square))
    if result is None:
        return add(arith.ConstantOp(FloatAttr(1.0, element)))
    if power < 0:
        result = add(arith.DivfOp(add(arith.ConstantOp(FloatAttr(1.0, element))), result))
    return result


def expand_constant_powers(root: Operation) -> int:
    """Replace each scalar `math.fpowi` under `root` whose power is a constant; how many."""
    count = 0
    for op in [o for o in root.walk() if isinstance(o, math.FPowIOp)]:
        power = _constant_power(op)
        if power is None or not isinstance(op.lhs.type, AnyFloat):
            continue
        op.result.replace_all_uses_with(_power(op, power))
        Rewriter.erase_op(op)
        count += 1
    return count
