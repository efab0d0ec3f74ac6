"""`vector.transfer_read` and `vector.transfer_write` at run time, for both engines.

Vector dim k walks memref dim `p(k)` of the permutation map from the given indices (a
constant 0 result broadcasts: every lane reads the same element). A read element outside
the memref, or masked off, is the padding value; such a write element is not written.
Out-of-bounds lanes of a dim declared `in_bounds` are an error (upstream: undefined).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr

from heterolayout.dialects.diagnostics import where
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime import memref as memory
from heterolayout.execution.runtime.values import element_of, vector_shape


@dataclass(frozen=True)
class Transfer:
    shape: tuple[int, ...]
    dtype: Any
    dims: tuple[int | None, ...]
    """Per vector dim, the memref dim it walks (None: broadcast)."""
    in_bounds: tuple[bool, ...]
    where: str


def plan(op: Operation) -> Transfer:
    vector_type = op.results[0].type if op.results else op.operands[0].type
    shape = vector_shape(vector_type)
    assert shape is not None
    dims: list[int | None] = []
    for result in op.permutation_map.data.results:  # type: ignore[attr-defined]
        dims.append(result.position if isinstance(result, AffineDimExpr) else None)
    in_bounds = tuple(bool(b.value.data) for b in op.in_bounds) or (False,) * len(shape)  # type: ignore[attr-defined]
    return Transfer(shape, element_of(vector_type).numpy_dtype, tuple(dims), in_bounds, where(op))


def _position(plan: Transfer, indices: Sequence[int], lane: tuple[int, ...]) -> list[int]:
    position = list(indices)
    for k, dim in enumerate(plan.dims):
        if dim is not None:
            position[dim] += lane[k]
    return position


def _inside(
    plan: Transfer, position: Sequence[int], shape: Sequence[int], lane: tuple[int, ...]
) -> bool:
    for k, dim in enumerate(plan.dims):
        if dim is None:
            continue
        if not 0 <= position[dim] < shape[dim]:
            if plan.in_bounds[k]:
                raise ExecutionError(
                    f"{plan.where}: lane {list(lane)} at {list(position)} is outside the memref "
                    f"of shape {list(shape)}, although its dim is declared in bounds"
                )
            return False
    return all(0 <= p < e for p, e in zip(position, shape, strict=False))


def read(
    plan: Transfer, source: Any, indices: Sequence[int], padding: Any, mask: Any
) -> np.ndarray:
    memory.check_live(source, plan.where)
    shape = memory.shape_of(source)
    out = np.empty(plan.shape, dtype=plan.dtype)
    for lane in np.ndindex(*plan.shape):
        position = _position(plan, indices, lane)
        enabled = mask is None or bool(mask[lane])
        if enabled and _inside(plan, position, shape, lane):
            out[lane] = memory.load(source, tuple(position), plan.where)
        else:
            out[lane] = padding
    return out


def write(
    plan: Transfer, vector: np.ndarray, target: Any, indices: Sequence[int], mask: Any
) -> None:
    memory.check_live(target, plan.where)
    shape = memory.shape_of(target)
    for lane in np.ndindex(*plan.shape):
        position = _position(plan, indices, lane)
        enabled = mask is None or bool(mask[lane])
        if enabled and _inside(plan, position, shape, lane):
            memory.store(target, tuple(position), vector[lane].item(), plan.where)
