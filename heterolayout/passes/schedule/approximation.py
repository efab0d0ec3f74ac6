"""Polynomial `math.exp` and `math.erf` on f32 (`layout-schedule{approximate=true}`).

Upstream's LLVM lowering calls libm once per element for both, vectors included
(`convert-math-to-libm`), which is most of a transformer layer's time (GELU's erf, softmax's
exp). Written as arith ops they are statements like any other, vectorized with their nest.
exp: Cephes' expf (round to a power of two, a degree-7 polynomial on the rest, the power
put into the exponent bits), within 1.4 ulp on [-87.3, 88.4], 0 below, the largest finite
power range above; erf: the rational approximation XLA and Eigen use on [-4, 4] (±1 beyond,
as f32 rounds it), within 4.2e-7. Both compared with libm in tests/passes/test_approximation.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import Float32Type, FloatAttr, IntegerAttr, i32
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.upstream.arith import CmpfOp, FPToSIOp, SelectOp

EXP_POLYNOMIAL = (
    1.9875691500e-4,
    1.3981999507e-3,
    8.3334519073e-3,
    4.1665795894e-2,
    1.6666665459e-1,
    5.0000001201e-1,
)
"""Cephes' expf: exp(r) ≈ 1 + r + r²·P(r) on |r| ≤ ln 2 / 2, highest power first."""
LOG2E = 1.44269504088896341
LN2_HIGH, LN2_LOW = 0.693359375, -2.12194440e-4
EXP_LOWEST, EXP_HIGHEST = -87.33654, 88.37626
"""Arguments whose power of two stays a normal f32 exponent."""

ERF_NUMERATOR = (
    -2.72614225801306e-10,
    2.77068142495902e-08,
    -2.10102402082508e-06,
    -5.69250639462346e-05,
    -7.34990630326855e-04,
    -2.95459980854025e-03,
    -1.60960333262415e-02,
)
"""x·N(x²) of erf(x) ≈ x·N(x²)/D(x²), highest power first."""
ERF_DENOMINATOR = (
    -1.45660718464996e-05,
    -2.13374055278905e-04,
    -1.68282697438203e-03,
    -7.37332916720468e-03,
    -1.42647390514189e-02,
)
ERF_BOUND = 4.0


class _Emitter:
    """Inserts f32 scalar arithmetic before one op."""

    def __init__(self, before: Operation) -> None:
        self.point = InsertPoint.before(before)

    def add(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, self.point)
        return op.results[0]

    def constant(self, value: float) -> SSAValue:
        return self.add(arith.ConstantOp(FloatAttr(value, Float32Type())))

    def horner(self, coefficients: Sequence[float], x: SSAValue) -> SSAValue:
        value = self.constant(coefficients[0])
        for coefficient in coefficients[1:]:
            value = self.add(arith.AddfOp(self.mul(value, x), self.constant(coefficient)))
        return value

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.add(arith.MulfOp(a, b))

    def clamp(self, x: SSAValue, low: float, high: float) -> SSAValue:
        above = self.add(arith.MaximumfOp(x, self.constant(low)))
        return self.add(arith.MinimumfOp(above, self.constant(high)))


def _exp(op: Operation) -> SSAValue:
    e = _Emitter(op)
    x = op.operands[0]
    clamped = e.clamp(x, EXP_LOWEST, EXP_HIGHEST)
    scaled = e.add(arith.AddfOp(e.mul(clamped, e.constant(LOG2E)), e.constant(0.5)))
    power = e.add(math.FloorOp(scaled))
    rest = e.add(arith.SubfOp(clamped, e.mul(power, e.constant(LN2_HIGH))))
    rest = e.add(arith.SubfOp(rest, e.mul(power, e.constant(LN2_LOW))))
    polynomial = e.mul(e.mul(e.horner(EXP_POLYNOMIAL, rest), rest), rest)
    mantissa = e.add(arith.AddfOp(e.add(arith.AddfOp(polynomial, rest)), e.constant(1.0)))
    exponent = e.add(FPToSIOp(power, i32))
    biased = e.add(arith.AddiOp(exponent, e.add(arith.ConstantOp(IntegerAttr(127, i32)))))
    bits = e.add(arith.ShLIOp(biased, e.add(arith.ConstantOp(IntegerAttr(23, i32)))))
    scale = e.add(arith.BitcastOp(bits, Float32Type()))
    value = e.mul(mantissa, scale)
    below = e.add(CmpfOp(x, e.constant(EXP_LOWEST), "olt"))
    return e.add(SelectOp(below, e.constant(0.0), value))


def _erf(op: Operation) -> SSAValue:
    e = _Emitter(op)
    x = e.clamp(op.operands[0], -ERF_BOUND, ERF_BOUND)
    square = e.mul(x, x)
    numerator = e.mul(e.horner(ERF_NUMERATOR, square), x)
    denominator = e.horner(ERF_DENOMINATOR, square)
    return e.add(arith.DivfOp(numerator, denominator))


APPROXIMATIONS: dict[type[Operation], Callable[[Operation], SSAValue]] = {
    math.ExpOp: _exp,
    math.ErfOp: _erf,
}


def approximate_math(root: Operation) -> int:
    """Replace each scalar f32 `math.exp` / `math.erf` under `root`; how many."""
    count = 0
    for op in [o for o in root.walk() if type(o) in APPROXIMATIONS]:
        if not isinstance(op.results[0].type, Float32Type):
            continue
        value = APPROXIMATIONS[type(op)](op)
        op.results[0].replace_all_uses_with(value)
        Rewriter.erase_op(op)
        count += 1
    return count
