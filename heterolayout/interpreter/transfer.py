"""`vector.transfer_read` / `vector.transfer_write` on logical memrefs, for both engines.

The permutation map says which memref dim each vector dim walks (a constant 0 result
broadcasts); lanes past a dim's end read the padding and are not written, unless that vector
dim is `in_bounds`, where such a lane is an out-of-bounds access (MLIR: undefined).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.ir import Operation
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr

from heterolayout.interpreter import memref as memory
from heterolayout.interpreter.errors import ExecutionError
from heterolayout.interpreter.source import where
from heterolayout.interpreter.values import element_of, vector_shape


@dataclass(frozen=True)
class Transfer:
    """What one transfer op does, read from its attributes once."""

    shape: tuple[int, ...]
    dims: tuple[int | None, ...]
    """The memref dim each vector dim walks; None for a broadcast dim."""
    in_bounds: tuple[bool, ...]
    dtype: np.dtype
    where: str

    @staticmethod
    def of(op: Operation) -> Transfer:
        place = where(op)
        if op.operands and getattr(op, "mask", None) is not None:
            raise ExecutionError(f"{place}: masked vector transfers are not supported")
        vector_type = (
            op.results[0].type if op.name == "vector.transfer_read" else op.operands[0].type
        )
        shape = vector_shape(vector_type)
        assert shape is not None
        dims: list[int | None] = []
        for result in op.permutation_map.data.results:  # type: ignore[attr-defined]
            if isinstance(result, AffineDimExpr):
                dims.append(result.position)
            elif isinstance(result, AffineConstantExpr) and result.value == 0:
                dims.append(None)
            else:
                raise ExecutionError(f"{place}: permutation map result {result} is not supported")
        flags = op.properties.get("in_bounds")
        in_bounds = (
            tuple(bool(f.value.data) for f in flags.data)  # type: ignore[attr-defined]
            if flags is not None
            else (False,) * len(shape)
        )
        dtype = element_of(vector_type).numpy_dtype
        return Transfer(shape, tuple(dims), in_bounds, dtype, place)

    def _element(
        self, index: Sequence[int], position: tuple[int, ...], bounds: Sequence[int]
    ) -> list[int] | None:
        """The memref index of one lane, or None for a lane outside the memref."""
        element = list(index)
        inside = True
        for lane, dim, in_bounds in zip(position, self.dims, self.in_bounds, strict=True):
            if dim is None:
                continue
            element[dim] += lane
            if element[dim] >= bounds[dim]:
                if in_bounds:
                    raise memory.out_of_bounds(self.where, element, bounds)
                inside = False
        return element if inside else None

    def read(self, source: memory.MemRef, index: Sequence[int], padding: Any) -> np.ndarray:
        memory.check_live(source, self.where)
        bounds = _bounds(source, index, self.where)
        result = np.empty(self.shape, dtype=self.dtype)
        for position in np.ndindex(*self.shape):
            element = self._element(index, position, bounds)
            result[position] = (
                padding if element is None else memory.load(source, tuple(element), self.where)
            )
        return result

    def write(self, value: np.ndarray, target: memory.MemRef, index: Sequence[int]) -> None:
        memory.check_live(target, self.where)
        bounds = _bounds(target, index, self.where)
        for position in np.ndindex(*self.shape):
            element = self._element(index, position, bounds)
            if element is not None:
                memory.store(target, tuple(element), value.item(position), self.where)


def _bounds(buffer: memory.MemRef, index: Sequence[int], place: str) -> tuple[int, ...]:
    bounds = memory.shape_of(buffer)
    if len(bounds) != len(index) or (isinstance(buffer, np.ndarray) and buffer.ndim != len(index)):
        raise ExecutionError(f"{place}: transfers of memrefs of vectors are not supported")
    memory.check_index(index, bounds, place)
    return bounds
