"""The meaning of every value op (arith, math, affine.apply/min, vector values) as one Python
expression, written once and used by both engines.

The compiled engine pastes the expression into the function it generates; the interpreter
turns it into a small function the first time an op runs. Operands are variable names,
so an expression may name an operand more than once. Helpers come from `RUNTIME` (below);
anything else an expression needs (a float constant, a dtype, the op's location for an
error message) is bound to a name by the caller's `bind`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    VectorType,
)
from xdsl.ir import Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime import values
from heterolayout.execution.runtime.expressions import (
    Builder,
    ExprContext,
    int_literal,
    rounded,
    signed,
    unsigned,
    wrap,
)
from heterolayout.execution.runtime.values import element_of, python_value, vector_shape
from heterolayout.execution.runtime.vector_semantics import VECTOR_RUNTIME, VECTOR_VALUE_OPS
from heterolayout.layout.element_types import ElementType


def _division(helper: str, a: str, b: str, ctx: ExprContext) -> str:
    """A floor-style division helper call, or plain Python when the divisor is a positive
    literal (no zero check needed; Python's // and % round like floordiv and mod)."""
    divisor = int_literal(b)
    if divisor is not None and divisor > 0:
        if helper == "_floordiv":
            return f"({a} // {divisor})"
        if helper == "_floormod":
            return f"({a} % {divisor})"
        return f"(-((-{a}) // {divisor}))"
    return f"{helper}({a}, {b}, {_where(ctx)})"


def flag(condition: str) -> str:
    """An i1 value (0 or 1) from a Python condition."""
    return f"(1 if {condition} else 0)"


def _literal(value: int | float, ctx: ExprContext) -> str:
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return ctx.bind(value)
    return f"({value!r})"


# ---- affine maps ------------------------------------------------------------------------------
def affine_source(
    expr: AffineExpr, dims: Sequence[str], symbols: Sequence[str], ctx: ExprContext
) -> str:
    """Python source for an affine expression; floordiv, ceildiv and mod round like MLIR."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return f"({expr.value})"
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = affine_source(expr.lhs, dims, symbols, ctx)
    rhs = affine_source(expr.rhs, dims, symbols, ctx)
    kind = expr.kind
    if kind == AffineBinaryOpKind.Add:
        return f"({lhs} + {rhs})"
    if kind == AffineBinaryOpKind.Mul:
        return f"({lhs} * {rhs})"
    helper = {
        AffineBinaryOpKind.FloorDiv: ("_floordiv", "//"),
        AffineBinaryOpKind.Mod: ("_floormod", "%"),
        AffineBinaryOpKind.CeilDiv: ("_ceildiv", None),
    }[kind]
    if isinstance(expr.rhs, AffineConstantExpr) and expr.rhs.value > 0:
        if helper[1] is None:
            return f"(-((-{lhs}) // {rhs}))"
        return f"({lhs} {helper[1]} {rhs})"
    return f"{helper[0]}({lhs}, {rhs}, {ctx.bind(ctx.where)})"


def affine_results(affine_map: AffineMap, operands: Sequence[str], ctx: ExprContext) -> list[str]:
    dims, symbols = operands[: affine_map.num_dims], operands[affine_map.num_dims :]
    return [affine_source(r, dims, symbols, ctx) for r in affine_map.results]


# ---- builders ---------------------------------------------------------------------------------
def _result(op: Operation) -> ElementType:
    return element_of(op.results[0].type)


def _operand(op: Operation, index: int = 0) -> ElementType:
    return element_of(op.operands[index].type)


def _int_binary(template: Callable[[str, str, ElementType, ExprContext], str]) -> Builder:
    def build(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
        t = _result(op)
        return wrap(template(a[0], a[1], t, ctx), t)

    return build


def _where(ctx: ExprContext) -> str:
    return ctx.bind(ctx.where)


def _compare_int(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    t = _operand(op)
    predicate = op.predicate.value.data  # type: ignore[attr-defined]
    lhs, rhs = a
    if predicate < 2:
        return flag(f"{lhs} {'==' if predicate == 0 else '!='} {rhs}")
    view = signed if predicate < 6 else unsigned
    symbol = ("<", "<=", ">", ">=")[(predicate - 2) % 4]
    return flag(f"{view(lhs, t)} {symbol} {view(rhs, t)}")


_CMPF = (
    "False",
    "{a} == {b}",
    "{a} > {b}",
    "{a} >= {b}",
    "{a} < {b}",
    "{a} <= {b}",
    "({a} < {b} or {a} > {b})",
    "({a} == {a} and {b} == {b})",
    "not ({a} < {b} or {a} > {b})",
    "not ({a} <= {b})",
    "not ({a} < {b})",
    "not ({a} >= {b})",
    "not ({a} > {b})",
    "{a} != {b}",
    "({a} != {a} or {b} != {b})",
    "True",
)


def _compare_float(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    predicate = op.predicate.value.data  # type: ignore[attr-defined]
    return flag(_CMPF[predicate].format(a=a[0], b=a[1]))


def _min_max(view: Callable[[str, ElementType], str], keep_first_if: str) -> Builder:
    def build(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
        t = _result(op)
        return f"({a[0]} if {view(a[0], t)} {keep_first_if} {view(a[1], t)} else {a[1]})"

    return build


def _float_binary(template: str) -> Builder:
    def build(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
        return rounded(template.format(a=a[0], b=a[1]), _result(op))

    return build


def _float_helper(helper: str) -> Builder:
    """An exact float op (its result is one of its operands)."""
    return lambda op, a, ctx: f"{helper}({a[0]}, {a[1]})"


def _math_function(name: str) -> Builder:
    return lambda op, a, ctx: rounded(f"_math_{name}({', '.join(a)})", _result(op))


def _int_cast(view: Callable[[str, ElementType], str]) -> Builder:
    def build(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
        return wrap(view(a[0], _operand(op)), _result(op))

    return build


def _int_to_float(view: Callable[[str, ElementType], str]) -> Builder:
    def build(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
        return f"_i2f({view(a[0], _operand(op))}, {_result(op).bits})"

    return build


def _float_to_int(is_signed: bool) -> Builder:
    def build(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
        t = _result(op)
        if is_signed:
            low, high = (-(2 ** (t.bits - 1)), 2 ** (t.bits - 1) - 1)
        else:
            low, high = 0, 2**t.bits - 1
        return wrap(f"_f2i({a[0]}, {low}, {high})", t)

    return build


def _bitcast(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    source, target = _operand(op), _result(op)
    if source.bits != target.bits:
        raise ExecutionError(f"{ctx.where}: bitcast between types of different widths")
    if source.is_float and target.is_float:
        if source.name != target.name:
            raise ExecutionError(f"{ctx.where}: bitcast {source} to {target} is not supported")
        return a[0]
    if source.is_float:
        return wrap(f"_f2b({a[0]}, {source.bits})", target)
    if target.is_float:
        return f"_b2f({unsigned(a[0], source)}, {target.bits})"
    return wrap(unsigned(a[0], source), target)


def _constant(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    value = op.value  # type: ignore[attr-defined]
    result_type = op.results[0].type
    t = element_of(result_type)
    if isinstance(value, IntegerAttr | FloatAttr) and not isinstance(result_type, VectorType):
        return _literal(python_value(value.value.data, t), ctx)
    if isinstance(value, DenseIntOrFPElementsAttr):
        shape = vector_shape(result_type) or ()
        data = [python_value(v, t) for v in value.get_values()]
        array = np.array(data, dtype=t.numpy_dtype)
        array = (
            array.reshape(shape)
            if array.size == math.prod(shape)
            else np.broadcast_to(array, shape)
        )
        array = np.array(array)
        array.setflags(write=False)
        return ctx.bind(array)
    raise ExecutionError(f"{ctx.where}: constant {value} is not supported")


def _select(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    if isinstance(op.operands[0].type, VectorType):
        return f"_vselect({a[0]}, {a[1]}, {a[2]})"
    return f"({a[1]} if {a[0]} else {a[2]})"


def _affine_apply(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    (result,) = affine_results(op.map.data, a, ctx)  # type: ignore[attr-defined]
    return result


def _affine_min(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    results = affine_results(op.map.data, a, ctx)  # type: ignore[attr-defined]
    return results[0] if len(results) == 1 else f"min({', '.join(results)})"


def _positions(op: Operation, dynamic: Sequence[str]) -> str:
    remaining = iter(dynamic)
    static: Sequence[int] = op.static_position.get_values()  # type: ignore[attr-defined]
    parts = [next(remaining) if p == DYNAMIC_INDEX else str(p) for p in static]
    return f"({', '.join(parts)},)" if parts else "()"


def _extract(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    return f"_vextract({a[0]}, {_positions(op, a[1:])}, {_where(ctx)})"


def _insert(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    return f"_vinsert({a[0]}, {a[1]}, {_positions(op, a[2:])}, {_where(ctx)})"


def _broadcast(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    result_type = op.results[0].type
    dtype = ctx.bind(element_of(result_type).numpy_dtype)
    return f"_broadcast({a[0]}, {vector_shape(result_type)}, {dtype})"


def _from_elements(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    result_type = op.results[0].type
    dtype = ctx.bind(element_of(result_type).numpy_dtype)
    return f"_from_elements(({', '.join(a)},), {vector_shape(result_type)}, {dtype})"


def _shuffle(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    mask = tuple(op.mask.get_values())  # type: ignore[attr-defined]
    return f"_vshuffle({a[0]}, {a[1]}, {mask})"


def _vector_bitcast(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    source, result = op.operands[0].type, op.results[0].type
    kinds = ctx.bind((element_of(source), element_of(result)))
    return f"_vbitcast({a[0]}, {kinds}, {vector_shape(result)})"


_INT_OPS: dict[str, Builder] = {
    "arith.addi": _int_binary(lambda a, b, t, c: f"{a} + {b}"),
    "arith.subi": _int_binary(lambda a, b, t, c: f"{a} - {b}"),
    "arith.muli": _int_binary(lambda a, b, t, c: f"{a} * {b}"),
    "arith.divsi": _int_binary(
        lambda a, b, t, c: f"_divsi({signed(a, t)}, {signed(b, t)}, {_where(c)})"
    ),
    "arith.divui": _int_binary(
        lambda a, b, t, c: _division("_floordiv", unsigned(a, t), unsigned(b, t), c)
    ),
    "arith.remsi": _int_binary(
        lambda a, b, t, c: f"_remsi({signed(a, t)}, {signed(b, t)}, {_where(c)})"
    ),
    "arith.remui": _int_binary(
        lambda a, b, t, c: _division("_floormod", unsigned(a, t), unsigned(b, t), c)
    ),
    "arith.floordivsi": _int_binary(
        lambda a, b, t, c: _division("_floordiv", signed(a, t), signed(b, t), c)
    ),
    "arith.ceildivsi": _int_binary(
        lambda a, b, t, c: _division("_ceildiv", signed(a, t), signed(b, t), c)
    ),
    "arith.ceildivui": _int_binary(
        lambda a, b, t, c: _division("_ceildiv", unsigned(a, t), unsigned(b, t), c)
    ),
    "arith.andi": lambda op, a, ctx: f"({a[0]} & {a[1]})",
    "arith.ori": lambda op, a, ctx: f"({a[0]} | {a[1]})",
    "arith.xori": lambda op, a, ctx: f"({a[0]} ^ {a[1]})",
    "arith.shli": _int_binary(lambda a, b, t, c: f"_shl({a}, {unsigned(b, t)}, {t.bits})"),
    "arith.shrui": _int_binary(lambda a, b, t, c: f"{unsigned(a, t)} >> {unsigned(b, t)}"),
    "arith.shrsi": _int_binary(lambda a, b, t, c: f"{signed(a, t)} >> {unsigned(b, t)}"),
    "arith.minsi": _min_max(signed, "<="),
    "arith.maxsi": _min_max(signed, ">="),
    "arith.minui": _min_max(unsigned, "<="),
    "arith.maxui": _min_max(unsigned, ">="),
    "arith.cmpi": _compare_int,
    "arith.trunci": _int_cast(lambda x, t: x),
    "arith.extsi": _int_cast(signed),
    "arith.extui": _int_cast(unsigned),
    "arith.index_cast": _int_cast(signed),
    "arith.index_castui": _int_cast(unsigned),
    "math.absi": lambda op, a, ctx: wrap(f"abs({signed(a[0], _result(op))})", _result(op)),
    "math.ctpop": lambda op, a, ctx: f"_ctpop({a[0]}, {_result(op).bits})",
}

_FLOAT_OPS: dict[str, Builder] = {
    "arith.addf": _float_binary("{a} + {b}"),
    "arith.subf": _float_binary("{a} - {b}"),
    "arith.mulf": _float_binary("{a} * {b}"),
    "arith.divf": _float_binary("_divf({a}, {b})"),
    "arith.remf": _float_binary("_remf({a}, {b})"),
    "arith.negf": lambda op, a, ctx: f"(-{a[0]})",
    "arith.maximumf": _float_helper("_maximumf"),
    "arith.minimumf": _float_helper("_minimumf"),
    "arith.maxnumf": _float_helper("_maxnumf"),
    "arith.minnumf": _float_helper("_minnumf"),
    "arith.cmpf": _compare_float,
    "arith.extf": lambda op, a, ctx: a[0],
    "arith.truncf": lambda op, a, ctx: rounded(a[0], _result(op)),
    "arith.sitofp": _int_to_float(signed),
    "arith.uitofp": _int_to_float(unsigned),
    "arith.fptosi": _float_to_int(True),
    "arith.fptoui": _float_to_int(False),
    "arith.bitcast": _bitcast,
    "math.absf": lambda op, a, ctx: f"abs({a[0]})",
    "math.sqrt": lambda op, a, ctx: rounded(f"_sqrtf({a[0]})", _result(op)),
    "math.rsqrt": lambda op, a, ctx: f"_rsqrtf({a[0]}, {_result(op).bits})",
    "math.fpowi": lambda op, a, ctx: (
        f"_powi({a[0]}, {signed(a[1], _operand(op, 1))}, {_result(op).bits})"
    ),
    "math.fma": lambda op, a, ctx: f"_fma({a[0]}, {a[1]}, {a[2]}, {_result(op).bits})",
    **{f"math.{name}": _math_function(name) for name in values.MATH_FUNCTIONS},
    "vector.fma": lambda op, a, ctx: f"_fma({a[0]}, {a[1]}, {a[2]}, {_result(op).bits})",
}

ELEMENTWISE: dict[str, Builder] = {**_INT_OPS, **_FLOAT_OPS}
"""Scalar ops that apply elementwise to vector operands."""

VALUE_OPS: dict[str, Builder] = {
    **ELEMENTWISE,
    "arith.constant": _constant,
    "arith.select": _select,
    "affine.apply": _affine_apply,
    "affine.min": _affine_min,
    "vector.extract": _extract,
    "vector.insert": _insert,
    "vector.broadcast": _broadcast,
    "vector.from_elements": _from_elements,
    "vector.shuffle": _shuffle,
    "vector.bitcast": _vector_bitcast,
    **VECTOR_VALUE_OPS,
}
"""Every op whose single result is an expression of its operands."""


def value_expression(name: str, op: Operation, operands: Sequence[str], ctx: ExprContext) -> str:
    """The Python expression computing the result of value op `op` (named `name`)."""
    build = VALUE_OPS[name]
    if name in ELEMENTWISE and any(
        isinstance(v.type, VectorType) for v in (*op.operands, *op.results)
    ):
        params = [f"x{i}" for i in range(len(operands))]
        scalar = build(op, params, ctx)
        dtype = ctx.bind(element_of(op.results[0].type).numpy_dtype)
        return f"_vmap(lambda {', '.join(params)}: {scalar}, ({', '.join(operands)},), {dtype})"
    return build(op, operands, ctx)


def affine_condition(condition: Any, operands: Sequence[str], ctx: ExprContext) -> str:
    """An affine.if integer set (`d0 - 4 >= 0, …`) as a Python condition."""
    dims, symbols = operands[: condition.num_dims], operands[condition.num_dims :]
    tests = [
        f"({affine_source(c.lhs, dims, symbols, ctx)} {c.kind.value} {affine_source(c.rhs, dims, symbols, ctx)})"
        for c in condition.constraints
    ]
    return " and ".join(tests) or "True"


# ---- reductions of affine.parallel ------------------------------------------------------------
def _keep(view: Callable[[str, ElementType], str], keep_first_if: str) -> Callable[..., str]:
    return lambda a, b, t: f"({a} if {view(a, t)} {keep_first_if} {view(b, t)} else {b})"


_REDUCTIONS: dict[str, Callable[[str, str, ElementType], str]] = {
    "assign": lambda a, b, t: b,
    "addf": lambda a, b, t: rounded(f"{a} + {b}", t),
    "mulf": lambda a, b, t: rounded(f"{a} * {b}", t),
    "maximumf": lambda a, b, t: f"_maximumf({a}, {b})",
    "minimumf": lambda a, b, t: f"_minimumf({a}, {b})",
    "addi": lambda a, b, t: wrap(f"{a} + {b}", t),
    "muli": lambda a, b, t: wrap(f"{a} * {b}", t),
    "andi": lambda a, b, t: f"({a} & {b})",
    "ori": lambda a, b, t: f"({a} | {b})",
    "maxs": _keep(signed, ">="),
    "mins": _keep(signed, "<="),
    "maxu": _keep(unsigned, ">="),
    "minu": _keep(unsigned, "<="),
}
"""affine.parallel's reductions (the AtomicRMWKinds upstream's verifier lets it use,
`dialects.upstream.affine.REDUCTION_OPERANDS`): the accumulator combined with an
iteration's value, as upstream's lowering (`--lower-affine`) combines them."""


def reduction_expression(kind: str, accumulator: str, value: str, t: ElementType | None) -> str:
    """`accumulator` combined with `value` by the reduction `kind` (`t`: the element type;
    None for memrefs and vectors, which only "assign" takes)."""
    return _REDUCTIONS[kind](accumulator, value, t)  # type: ignore[arg-type]


def reduction_identity(kind: str, t: ElementType | None) -> int | float | None:
    """The value a reduction starts from (upstream's `getIdentityValue`); None for "assign",
    which has none (its result is a value an iteration yields)."""
    if kind == "assign" or t is None:
        return None
    if t.is_float:
        return {"addf": 0.0, "mulf": 1.0, "maximumf": -math.inf, "minimumf": math.inf}[kind]
    half = 1 << (t.bits - 1)
    identities = {"addi": 0, "muli": 1, "andi": -1, "ori": 0, "maxs": -half, "mins": half - 1}
    identities.update({"maxu": 0, "minu": -1})
    return t.wrap(identities[kind])


def parallel_reductions(op: Operation) -> list[tuple[str, ElementType | None]]:
    """Each result of an affine.parallel: its reduction and its element type (None for a
    memref or vector, which only "assign" reduces)."""
    kinds: list[str] = op.reduction_kinds()  # type: ignore[attr-defined]
    return [
        (kind, None if kind == "assign" else element_of(result.type))
        for kind, result in zip(kinds, op.results, strict=True)
    ]


def bound_groups(op: Operation) -> tuple[list[int], list[int]]:
    """How many results of an affine.parallel's lower and upper bound maps each loop takes
    the max (lower) or min (upper) of."""
    return (
        [int(g) for g in op.lowerBoundsGroups.get_values()],  # type: ignore[attr-defined]
        [int(g) for g in op.upperBoundsGroups.get_values()],  # type: ignore[attr-defined]
    )


RUNTIME: dict[str, Any] = {
    "_f32": values.round_f32,
    "_f16": values.round_f16,
    "_divf": values.divf,
    "_fma": values.fma,
    "_sqrtf": values.sqrtf,
    "_rsqrtf": values.rsqrtf,
    "_powi": values.powi,
    **{f"_math_{name}": function for name, function in values.MATH_FUNCTIONS.items()},
    "_maximumf": values.maximumf,
    "_minimumf": values.minimumf,
    "_maxnumf": values.maxnumf,
    "_minnumf": values.minnumf,
    "_i2f": values.int_to_float,
    "_f2i": values.float_to_int,
    "_b2f": values.bits_to_float,
    "_f2b": values.float_to_bits,
    "_divsi": values.trunc_div,
    "_remsi": values.trunc_rem,
    "_floordiv": values.floor_div,
    "_floormod": values.floor_mod,
    "_ceildiv": values.ceil_div,
    "_shl": values.shift_left,
    "_vmap": values.vector_map,
    "_vselect": values.vector_select,
    "_broadcast": values.broadcast,
    "_from_elements": values.from_elements,
    "_vextract": values.vector_extract,
    "_vinsert": values.vector_insert,
    "_vshuffle": values.vector_shuffle,
    "_vbitcast": values.vector_bitcast,
    "_ctpop": values.ctpop,
    **VECTOR_RUNTIME,
}
"""The helpers generated code refers to, by the names the expressions use (the vector
reductions' with them)."""
