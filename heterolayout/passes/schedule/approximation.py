"""Polynomial `math.exp`, `math.erf`, `math.tanh` and `math.log` on f32
(`layout-schedule{approximate=true}`).

Upstream's LLVM lowering calls libm once per element for them, vectors included
(`convert-math-to-libm`), which is most of a transformer layer's time (GELU's erf, softmax's
exp). Written as arith ops they are statements like any other, vectorized with their nest.
exp: Cephes' expf (round to a power of two, a degree-7 polynomial on the rest, the power
put into the exponent bits), within 1.4 ulp on [-87.3, 88.4], 0 below, the largest finite
power range above; erf: the rational approximation XLA and Eigen use on [-4, 4] (±1 beyond,
as f32 rounds it), within 4.2e-7; tanh: the rational approximation XLA and Eigen use on
[-7.905, 7.905] (±1 beyond, x itself below 0.0004), within 4.11e-7 absolute and relative
(at ±5.827876: 6.9 ulp of the result there; 2.92e-7 at ±5.126039 with `fma=true`); log:
Cephes' logf (exponent and mantissa in [√½, √2) read off the bits, then m - m²/2 + m³·P(m)
in m = mantissa - 1, P of degree 8), within 8.12e-8 relative (1.4·2^-24, 0.83 ulp of the
result, at 2.8045027; 8.16e-8 at 2.8025229 with `fma=true`), denormals included (scaled
into the normals first), -inf at ±0, NaN below 0, +inf at +inf. The tanh and log bounds are
the largest errors against libm in double over every positive f32 (below 9 for the odd
tanh), run natively; tests/passes/test_approximation.py compares all four with libm.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import Float32Type, FloatAttr, IntegerAttr, i32
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.upstream.arith import CmpfOp, FPToSIOp, SelectOp, SIToFPOp

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

TANH_NUMERATOR = (
    -2.76076847742355e-16,
    2.00018790482477e-13,
    -8.60467152213735e-11,
    5.12229709037114e-08,
    1.48572235717979e-05,
    6.37261928875436e-04,
    4.89352455891786e-03,
)
"""x·N(x²) of tanh(x) ≈ x·N(x²)/D(x²), highest power first: XLA's `EmitFastTanh`
(openxla/xla, xla/service/llvm_ir/math_ops.cc), from Eigen's float tanh."""
TANH_DENOMINATOR = (
    1.19825839466702e-06,
    1.18534705686654e-04,
    2.26843463243900e-03,
    4.89352518554385e-03,
)
TANH_BOUND = 7.90531110763549805
"""The least argument whose quotient is exactly 1 in f32 with Horner steps unfused (XLA's;
7.99881172180175781 fused, as `fma=true` fuses them): beyond it the result is ±1 by a
select, fused or not (tanh is within 2.7e-7 of it), and the quotient's argument is clamped
(the quotient exceeds 1 from 9.5 on)."""
TANH_TINY = 0.0004
"""Below it tanh(x) is x itself, within x²/3 relative (5.4e-8), where the quotient loses
digits among the denormals."""

LOG_POLYNOMIAL = (
    7.0376836292e-2,
    -1.1514610310e-1,
    1.1676998740e-1,
    -1.2420140846e-1,
    1.4249322787e-1,
    -1.6668057665e-1,
    2.0000714765e-1,
    -2.4999993993e-1,
    3.3333331174e-1,
)
"""Cephes' logf (Cephes Math Library 2.2, logf.c): log(1 + m) ≈ m - m²/2 + m³·P(m) on
m + 1 in [√½, √2), highest power first."""
SQRT_HALF = 0.707106781186547524
SMALLEST_NORMAL = 2.0**-126
DENORMAL_SCALE = 23
"""Denormals are scaled by 2^23 into the normals first, so that their bits hold an exponent."""


class _Emitter:
    """Inserts f32 scalar arithmetic before one op."""

    def __init__(self, before: Operation) -> None:
        self.point = InsertPoint.before(before)

    def add(self, op: Operation) -> SSAValue:
        Rewriter.insert_op(op, self.point)
        return op.results[0]

    def constant(self, value: float) -> SSAValue:
        return self.add(arith.ConstantOp(FloatAttr(value, Float32Type())))

    def integer(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, i32)))

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
    biased = e.add(arith.AddiOp(exponent, e.integer(127)))
    bits = e.add(arith.ShLIOp(biased, e.integer(23)))
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


def _tanh(op: Operation) -> SSAValue:
    e = _Emitter(op)
    x = op.operands[0]
    clamped = e.clamp(x, -TANH_BOUND, TANH_BOUND)
    square = e.mul(clamped, clamped)
    numerator = e.mul(e.horner(TANH_NUMERATOR, square), clamped)
    quotient = e.add(arith.DivfOp(numerator, e.horner(TANH_DENOMINATOR, square)))
    tiny = e.add(CmpfOp(e.add(math.AbsFOp(x)), e.constant(TANH_TINY), "olt"))
    value = e.add(SelectOp(tiny, x, quotient))
    above = e.add(CmpfOp(x, e.constant(TANH_BOUND), "ogt"))
    value = e.add(SelectOp(above, e.constant(1.0), value))
    below = e.add(CmpfOp(x, e.constant(-TANH_BOUND), "olt"))
    return e.add(SelectOp(below, e.constant(-1.0), value))


def _log(op: Operation) -> SSAValue:
    e = _Emitter(op)
    x = op.operands[0]
    denormal = e.add(CmpfOp(x, e.constant(SMALLEST_NORMAL), "olt"))
    scaled = e.mul(x, e.constant(2.0**DENORMAL_SCALE))
    bits = e.add(arith.BitcastOp(e.add(SelectOp(denormal, scaled, x)), i32))
    bias = e.add(SelectOp(denormal, e.integer(126 + DENORMAL_SCALE), e.integer(126)))
    exponent = e.add(arith.SubiOp(e.add(arith.ShRUIOp(bits, e.integer(23))), bias))
    fraction = e.add(arith.AndIOp(bits, e.integer(0x007FFFFF)))
    half_to_one = e.add(arith.OrIOp(fraction, e.integer(0x3F000000)))
    mantissa = e.add(arith.BitcastOp(half_to_one, Float32Type()))
    below = e.add(CmpfOp(mantissa, e.constant(SQRT_HALF), "olt"))
    power = e.add(
        arith.SubfOp(
            e.add(SIToFPOp(exponent, Float32Type())),
            e.add(SelectOp(below, e.constant(1.0), e.constant(0.0))),
        )
    )
    m = e.add(
        arith.AddfOp(
            e.add(arith.SubfOp(mantissa, e.constant(1.0))),
            e.add(SelectOp(below, mantissa, e.constant(0.0))),
        )
    )
    square = e.mul(m, m)
    y = e.mul(e.mul(e.horner(LOG_POLYNOMIAL, m), m), square)
    y = e.add(arith.AddfOp(y, e.mul(power, e.constant(LN2_LOW))))
    y = e.add(arith.SubfOp(y, e.mul(square, e.constant(0.5))))
    value = e.add(arith.AddfOp(m, y))
    value = e.add(arith.AddfOp(value, e.mul(power, e.constant(LN2_HIGH))))
    infinite_or_nan = e.add(CmpfOp(x, e.constant(float("inf")), "uge"))
    value = e.add(SelectOp(infinite_or_nan, x, value))
    negative = e.add(CmpfOp(x, e.constant(0.0), "olt"))
    value = e.add(SelectOp(negative, e.constant(float("nan")), value))
    zero = e.add(CmpfOp(x, e.constant(0.0), "oeq"))
    return e.add(SelectOp(zero, e.constant(float("-inf")), value))


APPROXIMATIONS: dict[type[Operation], Callable[[Operation], SSAValue]] = {
    math.ExpOp: _exp,
    math.ErfOp: _erf,
    math.TanhOp: _tanh,
    math.LogOp: _log,
}


def approximate_math(root: Operation) -> int:
    """Replace each scalar f32 op of `APPROXIMATIONS` under `root`; how many."""
    count = 0
    for op in [o for o in root.walk() if type(o) in APPROXIMATIONS]:
        if not isinstance(op.results[0].type, Float32Type):
            continue
        value = APPROXIMATIONS[type(op)](op)
        op.results[0].replace_all_uses_with(value)
        Rewriter.erase_op(op)
        count += 1
    return count
