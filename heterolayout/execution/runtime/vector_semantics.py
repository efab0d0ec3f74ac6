"""The meaning of vector reductions and reshapes, and of the arith ops xDSL lacks, as
expressions both engines use (see `semantics`).

Reductions fold in the order upstream's lowering to LLVM computes them, so floats come
out bit for bit as mlir-runner's: `vector.reduction` folds lane 0, 1, … onto the
accumulator (LLVM's ordered `vector.reduce.fadd`), `vector.multi_reduction` folds the
reduced dims in row-major order onto the accumulator, and `vector.contract` rounds each
product and folds the products of each result element in row-major order of the
reduction dims: onto the accumulator when every dim is a reduction (a dot product), else
from zero, adding the accumulator last (upstream's dot lowering, checked on MLIR 22).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap

from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime.expressions import (
    Builder,
    ExprContext,
    rounded,
    signed,
    unsigned,
    wrap,
)
from heterolayout.execution.runtime.values import DEFAULT_NAN, element_of, vector_shape
from heterolayout.layout.element_types import ElementType

Combine = Callable[[Any, Any], Any]


def combiner_source(kind: str, t: ElementType, where: str) -> str:
    """A two-argument lambda combining values of `t` the way combining kind `kind` does."""
    if t.is_float:
        bodies = {
            "add": rounded("a + b", t),
            "mul": rounded("a * b", t),
            "maximumf": "_maximumf(a, b)",
            "minimumf": "_minimumf(a, b)",
            "maxnumf": "_maxnumf(a, b)",
            "minnumf": "_minnumf(a, b)",
        }
    else:
        bodies = {
            "add": wrap("a + b", t),
            "mul": wrap("a * b", t),
            "and": "(a & b)",
            "or": "(a | b)",
            "xor": "(a ^ b)",
            "minsi": f"(a if {signed('a', t)} <= {signed('b', t)} else b)",
            "maxsi": f"(a if {signed('a', t)} >= {signed('b', t)} else b)",
            "minui": f"(a if {unsigned('a', t)} <= {unsigned('b', t)} else b)",
            "maxui": f"(a if {unsigned('a', t)} >= {unsigned('b', t)} else b)",
        }
    if kind not in bodies:
        raise ExecutionError(f"{where}: combining kind '{kind}' does not apply to {t.name}")
    return f"(lambda a, b: {bodies[kind]})"


def _scalar(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic | np.ndarray) else value


def reduce_lanes(combine: Combine, vector: np.ndarray, acc: Any) -> Any:
    """vector.reduction: lanes folded in order onto `acc` (or onto lane 0 without one)."""
    lanes = vector.tolist()
    result = lanes[0] if acc is None else _scalar(acc)
    for lane in lanes if acc is not None else lanes[1:]:
        result = combine(result, lane)
    return result


def reduce_dims(
    combine: Combine, source: np.ndarray, acc: Any, dims: tuple[int, ...], dtype: np.dtype
) -> Any:
    """vector.multi_reduction: per kept index, the reduced dims folded in row-major order."""
    kept = [d for d in range(source.ndim) if d not in dims]
    moved = np.moveaxis(source, kept, list(range(len(kept))))
    flat = moved.reshape((*tuple(source.shape[d] for d in kept), -1))
    if not kept:
        result = _scalar(acc)
        for value in flat.tolist():
            result = combine(result, value)
        return result
    out = np.array(acc, dtype=dtype)
    for index in np.ndindex(*out.shape):
        result = out[index].item()
        for value in flat[index].tolist():
            result = combine(result, value)
        out[index] = result
    return out


def contract(
    multiply: Combine,
    combine: Combine,
    operands: tuple[np.ndarray, np.ndarray, Any],
    maps: tuple[AffineMap, AffineMap, AffineMap],
    reductions: tuple[bool, ...],
    dtype: np.dtype,
) -> Any:
    """vector.contract: acc[out] folded with lhs·rhs over the reduction dims."""
    lhs, rhs, acc = operands
    extents = [0] * len(reductions)
    for array, affine_map in ((lhs, maps[0]), (rhs, maps[1])):
        for extent, result in zip(array.shape, affine_map.results, strict=True):
            extents[result.position] = extent  # type: ignore[attr-defined]
    out = np.array(acc, dtype=dtype)
    parallel = [d for d, r in enumerate(reductions) if not r]
    reduced = [d for d, r in enumerate(reductions) if r]
    positions = [[r.position for r in m.results] for m in maps]  # type: ignore[attr-defined]
    zero = dtype.type(0).item()
    for outer in itertools.product(*(range(extents[d]) for d in parallel)):
        point = [0] * len(reductions)
        for d, i in zip(parallel, outer, strict=True):
            point[d] = i
        out_index = tuple(point[d] for d in positions[2])
        accumulator = out[out_index].item()
        result = accumulator if not parallel else zero
        for inner in itertools.product(*(range(extents[d]) for d in reduced)):
            for d, i in zip(reduced, inner, strict=True):
                point[d] = i
            a = lhs[tuple(point[d] for d in positions[0])].item()
            b = rhs[tuple(point[d] for d in positions[1])].item()
            result = combine(result, multiply(a, b))
        out[out_index] = combine(result, accumulator) if parallel else result
    return out if out.ndim else out.item()


def remf(a: float, b: float) -> float:
    """arith.remf: C's fmod (exact); NaN where fmod is undefined."""
    if b == 0.0 or math.isinf(a) or a != a or b != b:
        return DEFAULT_NAN
    return math.fmod(a, b)


# ---- builders ---------------------------------------------------------------------------------
def _kind(op: Operation) -> str:
    return str(op.kind.data)  # type: ignore[attr-defined]


def _reduction(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    t = element_of(op.results[0].type)
    combine = combiner_source(_kind(op), t, ctx.where)
    acc = a[1] if len(a) > 1 else "None"
    return f"_vreduce_lanes({combine}, {a[0]}, {acc})"


def _multi_reduction(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    t = element_of(op.results[0].type)
    combine = combiner_source(_kind(op), t, ctx.where)
    dims = tuple(op.reduction_dims.get_values())  # type: ignore[attr-defined]
    return f"_vreduce_dims({combine}, {a[0]}, {a[1]}, {dims}, {ctx.bind(t.numpy_dtype)})"


def _contract(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    t = element_of(op.results[0].type)
    maps = tuple(m.data for m in op.indexing_maps)  # type: ignore[attr-defined]
    reductions = tuple(i.data == "reduction" for i in op.iterator_types)  # type: ignore[attr-defined]
    multiply = combiner_source("mul", t, ctx.where)
    combine = combiner_source(_kind(op), t, ctx.where)
    return (
        f"_vcontract({multiply}, {combine}, ({a[0]}, {a[1]}, {a[2]}), {ctx.bind(maps)}, "
        f"{reductions}, {ctx.bind(t.numpy_dtype)})"
    )


def _shape_cast(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    return f"{a[0]}.reshape({vector_shape(op.results[0].type)})"


def _transpose(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    permutation = tuple(op.permutation.get_values())  # type: ignore[attr-defined]
    return f"_np.ascontiguousarray(_np.transpose({a[0]}, {permutation}))"


def _step(op: Operation, a: Sequence[str], ctx: ExprContext) -> str:
    result_type = op.results[0].type
    assert isinstance(result_type, VectorType)
    return f"_np.arange({result_type.get_shape()[0]}, dtype=_np.int64)"


VECTOR_VALUE_OPS: dict[str, Builder] = {
    "vector.reduction": _reduction,
    "vector.multi_reduction": _multi_reduction,
    "vector.contract": _contract,
    "vector.shape_cast": _shape_cast,
    "vector.transpose": _transpose,
    "vector.step": _step,
}
"""Vector value ops that are not elementwise."""

VECTOR_RUNTIME: dict[str, Any] = {
    "_vreduce_lanes": reduce_lanes,
    "_vreduce_dims": reduce_dims,
    "_vcontract": contract,
    "_remf": remf,
    "_np": np,
}
