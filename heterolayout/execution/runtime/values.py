"""MLIR values as Python values, and the runtime helpers both engines call.

Integers are Python ints that wrap at their width: signless `iN` (N ≥ 2) and `index` (64 bits)
hold the two's complement value, `i1` holds 0 or 1 (as `ElementType.wrap` does). Floats are
Python floats holding exactly a value of their own type: an op computes in double and rounds
the result to its type, which for +, -, *, / and sqrt is the correctly rounded result
(double has more than 2p + 2 bits for p = 24 and p = 11). Vectors are numpy arrays of the
element's numpy dtype; no op writes a vector in place.
"""

from __future__ import annotations

import functools
import math
import struct
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    Signedness,
    VectorType,
)
from xdsl.ir import Attribute

from heterolayout.execution.errors import ExecutionError
from heterolayout.layout.element_types import ElementType, element_type

_F32 = struct.Struct("<f")
_F16 = struct.Struct("<e")
_FLOAT_NAMES: dict[type[Attribute], str] = {
    Float16Type: "f16",
    Float32Type: "f32",
    Float64Type: "f64",
}
_BITS_OF_FLOAT = {16: (_F16, "<H"), 32: (_F32, "<I"), 64: (struct.Struct("<d"), "<Q")}
DEFAULT_NAN = float("inf") - float("inf")
"""The NaN this machine's float arithmetic makes (negative on x86), for the cases where
Python raises instead of computing one."""


@functools.lru_cache(maxsize=1024)
def element_of(attr: Attribute) -> ElementType:
    """The scalar type of `attr` (vectors give their element type)."""
    if isinstance(attr, VectorType):
        attr = attr.element_type
    if isinstance(attr, IndexType):
        return element_type("index")
    if isinstance(attr, IntegerType):
        prefix = {Signedness.SIGNLESS: "", Signedness.SIGNED: "s", Signedness.UNSIGNED: "u"}
        width = attr.width.data
        if not 1 <= width <= 64:
            raise ExecutionError(f"type {attr}: integers of 1 to 64 bits are supported")
        return element_type(f"{prefix[attr.signedness.data]}i{width}")
    name = _FLOAT_NAMES.get(type(attr))
    if name is None:
        raise ExecutionError(
            f"type {attr} is not supported (supported: iN, siN, uiN, index, f16, f32, f64)"
        )
    return element_type(name)


def vector_shape(attr: Attribute) -> tuple[int, ...] | None:
    """The shape of a vector type, or None for a scalar type."""
    if not isinstance(attr, VectorType):
        return None
    if any(attr.get_scalable_dims()):
        raise ExecutionError(f"type {attr}: scalable vectors are not supported")
    return tuple(attr.get_shape())


def python_value(value: Any, elem: ElementType) -> int | float:
    """A number as the canonical Python value of `elem` (wrapped or rounded)."""
    if elem.is_float:
        return round_float(float(value), elem.bits)
    return elem.wrap(int(value))


# ---- floats ---------------------------------------------------------------------------------
def round_f32(x: float) -> float:
    try:
        return _F32.unpack(_F32.pack(x))[0]
    except OverflowError:  # finite, but rounds to infinity in f32
        return math.copysign(math.inf, x)


def round_f16(x: float) -> float:
    try:
        return _F16.unpack(_F16.pack(x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def round_float(x: float, bits: int) -> float:
    if bits == 32:
        return round_f32(x)
    if bits == 16:
        return round_f16(x)
    return x


def fma(a: float, b: float, c: float, bits: int) -> float:
    """`a·b + c` rounded once to the type of `bits` (vector.fma). The exact value is rounded
    to double with round-to-odd, which leaves enough bits for the final rounding to f32 or
    f16 to be the correct one."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return round_float(a * b + c, bits)
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        negative = math.copysign(1.0, a) * math.copysign(1.0, b) < 0
        both = a * b == 0 and negative and math.copysign(1.0, c) < 0
        return -0.0 if both else 0.0
    try:
        nearest = float(exact)
    except OverflowError:
        return round_float(math.copysign(math.inf, exact), bits)
    if bits < 64 and Fraction(nearest) != exact and float_to_bits(nearest, 64) % 2 == 0:
        nearest = math.nextafter(nearest, math.inf if Fraction(nearest) < exact else -math.inf)
    return round_float(nearest, bits)


def divf(a: float, b: float) -> float:
    """IEEE division (Python raises on a zero divisor)."""
    if b != 0.0:
        return a / b
    if a != a:
        return a
    if a == 0.0:
        return DEFAULT_NAN
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def sqrtf(a: float) -> float:
    if a != a:
        return a
    if a < 0.0:
        return DEFAULT_NAN
    return math.sqrt(a)


def rsqrtf(a: float, bits: int) -> float:
    """`1 / sqrt(a)` as upstream lowers `math.rsqrt` (convert-math-to-llvm): the root rounded
    to the type, then the division."""
    return round_float(divf(1.0, round_float(sqrtf(a), bits)), bits)


def powi(a: float, n: int, bits: int) -> float:
    """`math.fpowi` as LLVM's `llvm.powi` computes it (compiler-rt's `__powisf2`): square and
    multiply in the type, each product rounded, and the reciprocal for a negative power."""
    result, base, remaining = 1.0, a, abs(n)
    while True:
        if remaining & 1:
            result = round_float(result * base, bits)
        remaining >>= 1
        if not remaining:
            break
        base = round_float(base * base, bits)
    return round_float(divf(1.0, result), bits) if n < 0 else result


def round_half_away(x: float) -> float:
    """`math.round`: to the nearest integer, halves away from zero (Python rounds halves to
    even)."""
    if not math.isfinite(x):
        return x
    whole = float(math.trunc(x))
    if abs(x - whole) >= 0.5:
        whole += math.copysign(1.0, x)
    return math.copysign(whole, x)


def _libm(python: Callable[..., float] | None, numpy: Any) -> Callable[..., float]:
    """A libm function with C99's result for every input: Python's `math` where it answers
    (its functions call the C library's), numpy's ufunc where Python raises instead (a domain
    error, an overflow, a pole) or keeps no sign of zero."""

    def ieee(*operands: float) -> float:
        with np.errstate(all="ignore"):
            return float(numpy(*(np.float64(x) for x in operands)))

    if python is None:
        return ieee

    def call(*operands: float) -> float:
        try:
            return python(*operands)
        except (ValueError, OverflowError):
            return ieee(*operands)

    return call


MATH_FUNCTIONS: dict[str, Callable[..., float]] = {
    "exp": _libm(math.exp, np.exp),
    "exp2": _libm(None, np.exp2),
    "expm1": _libm(math.expm1, np.expm1),
    "log": _libm(math.log, np.log),
    "log2": _libm(math.log2, np.log2),
    "log10": _libm(math.log10, np.log10),
    "log1p": _libm(math.log1p, np.log1p),
    "sin": _libm(math.sin, np.sin),
    "cos": _libm(math.cos, np.cos),
    "tan": _libm(math.tan, np.tan),
    "asin": _libm(math.asin, np.arcsin),
    "acos": _libm(math.acos, np.arccos),
    "atan": _libm(math.atan, np.arctan),
    "sinh": _libm(math.sinh, np.sinh),
    "cosh": _libm(math.cosh, np.cosh),
    "tanh": _libm(math.tanh, np.tanh),
    "asinh": _libm(math.asinh, np.arcsinh),
    "acosh": _libm(math.acosh, np.arccosh),
    "atanh": _libm(math.atanh, np.arctanh),
    "erf": _libm(math.erf, None),
    "cbrt": _libm(None, np.cbrt),
    "floor": _libm(None, np.floor),
    "ceil": _libm(None, np.ceil),
    "trunc": _libm(None, np.trunc),
    "roundeven": _libm(None, np.rint),
    "round": round_half_away,
    "atan2": _libm(math.atan2, np.arctan2),
    "powf": _libm(math.pow, np.power),
    "copysign": math.copysign,
}
"""The float functions of the math dialect by op name (less `math.`), computed in double:
each op rounds the result to its type, as it does the results of arithmetic."""


def maximumf(a: float, b: float) -> float:
    """NaN-propagating maximum with -0.0 < +0.0."""
    if a != a:
        return a
    if b != b:
        return b
    if a == b == 0.0:
        return b if math.copysign(1.0, a) < 0 else a
    return a if a > b else b


def minimumf(a: float, b: float) -> float:
    if a != a:
        return a
    if b != b:
        return b
    if a == b == 0.0:
        return a if math.copysign(1.0, a) < 0 else b
    return a if a < b else b


def maxnumf(a: float, b: float) -> float:
    """IEEE maxNum: a NaN operand yields the other operand."""
    if a != a:
        return b
    if b != b:
        return a
    return maximumf(a, b)


def minnumf(a: float, b: float) -> float:
    if a != a:
        return b
    if b != b:
        return a
    return minimumf(a, b)


def int_to_float(x: int, bits: int) -> float:
    """The integer correctly rounded to the float type (no double rounding above 2**53)."""
    if -(2**53) <= x <= 2**53 or bits == 64:
        return round_float(float(x), bits)
    if bits == 16:
        return math.copysign(math.inf, x)
    if -(2**63) <= x < 2**63:
        return float(np.float32(np.int64(x)))
    return float(np.float32(np.uint64(x)))


def float_to_int(x: float, low: int, high: int) -> int:
    """Truncation toward zero, saturating at [low, high]; NaN gives 0 (MLIR leaves these
    cases poison: this is the deterministic choice both engines make)."""
    if x != x:
        return 0
    if x <= low:
        return low
    if x >= high:
        return high
    return int(x)


def bits_to_float(bits: int, width: int) -> float:
    packer, raw = _BITS_OF_FLOAT[width]
    return packer.unpack(struct.pack(raw, bits))[0]


def float_to_bits(x: float, width: int) -> int:
    packer, raw = _BITS_OF_FLOAT[width]
    return struct.unpack(raw, packer.pack(x))[0]


# ---- integers -------------------------------------------------------------------------------
def _zero_division(where: str) -> ExecutionError:
    return ExecutionError(f"division by zero in {where}")


def trunc_div(a: int, b: int, where: str) -> int:
    """Signed division rounding toward zero (arith.divsi)."""
    if b == 0:
        raise _zero_division(where)
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def trunc_rem(a: int, b: int, where: str) -> int:
    """Remainder with the sign of the dividend (arith.remsi)."""
    return a - b * trunc_div(a, b, where)


def floor_div(a: int, b: int, where: str) -> int:
    if b == 0:
        raise _zero_division(where)
    return a // b


def floor_mod(a: int, b: int, where: str) -> int:
    if b == 0:
        raise _zero_division(where)
    return a % b


def ceil_div(a: int, b: int, where: str) -> int:
    if b == 0:
        raise _zero_division(where)
    return -((-a) // b)


def shift_left(a: int, amount: int, bits: int) -> int:
    """`a << amount`; an amount of at least the width shifts everything out (MLIR: poison)."""
    return a << amount if amount < bits else 0


# ---- vectors --------------------------------------------------------------------------------
def vector_map(
    function: Callable[..., Any], operands: Sequence[np.ndarray], dtype: np.dtype
) -> np.ndarray:
    """Apply a scalar op elementwise, with the scalar op's own wrapping and rounding."""
    columns = [np.asarray(o).ravel().tolist() for o in operands]
    values = [function(*row) for row in zip(*columns, strict=True)]
    return np.array(values, dtype=dtype).reshape(np.shape(operands[0]))


def vector_select(condition: Any, true_value: Any, false_value: Any) -> Any:
    if isinstance(condition, np.ndarray):
        return np.where(condition != 0, true_value, false_value)
    return true_value if condition else false_value


def broadcast(source: Any, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    return np.array(np.broadcast_to(np.asarray(source, dtype=dtype), shape))


def from_elements(elements: Sequence[Any], shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    return np.array(elements, dtype=dtype).reshape(shape)


def vector_extract(vector: np.ndarray, position: tuple[int, ...], where: str) -> Any:
    _check_position(vector, position, where)
    if len(position) == vector.ndim:
        return vector.item(position)
    return vector[position].copy()


def vector_insert(
    source: Any, vector: np.ndarray, position: tuple[int, ...], where: str
) -> np.ndarray:
    _check_position(vector, position, where)
    result = vector.copy()
    result[position] = source
    return result


def vector_shuffle(a: np.ndarray, b: np.ndarray, mask: tuple[int, ...]) -> np.ndarray:
    """vector.shuffle: rows of the two operands' leading dim, picked by the mask."""
    both = np.concatenate([np.atleast_1d(a), np.atleast_1d(b)], axis=0)
    return both[list(mask)]


def vector_bitcast(
    value: np.ndarray, kinds: tuple[ElementType, ElementType], shape: tuple[int, ...]
) -> np.ndarray:
    """vector.bitcast: the innermost dim's bits (lane 0 least significant, as LLVM lays a
    vector out) reread as lanes of the result's element type."""
    source, target = kinds
    rows = np.asarray(value).reshape(-1, np.shape(value)[-1] if np.ndim(value) else 1)
    lanes = shape[-1]
    out = np.empty((rows.shape[0], lanes), dtype=target.numpy_dtype)
    source_mask, target_mask = (1 << source.bits) - 1, (1 << target.bits) - 1
    for r, row in enumerate(rows.tolist()):
        word = 0
        for i, lane in enumerate(row):
            bits = float_to_bits(lane, source.bits) if source.is_float else int(lane)
            word |= (bits & source_mask) << (i * source.bits)
        for i in range(lanes):
            bits = (word >> (i * target.bits)) & target_mask
            out[r, i] = bits_to_float(bits, target.bits) if target.is_float else target.wrap(bits)
    return out.reshape(shape)


def ctpop(value: Any, bits: int) -> Any:
    """math.ctpop: the set bits among the low `bits` (a scalar or each lane of a vector)."""
    mask = (1 << bits) - 1
    if isinstance(value, np.ndarray):
        counts = [(int(v) & mask).bit_count() for v in value.ravel().tolist()]
        return np.array(counts, dtype=value.dtype).reshape(value.shape)
    return (int(value) & mask).bit_count()


def _check_position(vector: np.ndarray, position: tuple[int, ...], where: str) -> None:
    for value, extent in zip(position, vector.shape, strict=False):
        if not 0 <= value < extent:
            raise ExecutionError(
                f"out-of-bounds access in {where}: position {list(position)} outside "
                f"vector bounds {list(vector.shape[: len(position)])}"
            )
