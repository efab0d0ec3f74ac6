"""Arguments and results at the engines' boundary: Python and numpy values in logical form,
seeded random data, and the physical buffers a lowered program takes instead."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType, VectorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime import memref as memory
from heterolayout.execution.runtime.values import element_of, python_value, vector_shape
from heterolayout.layout.element_types import ElementType
from heterolayout.layout.model import Layout

DYNAMIC_EXTENT = 8
"""The extent random arguments get for a `?` dim unless told otherwise (`layout-run
--dynamic-extent`, `check(..., dynamic_extent=)`)."""


def to_value(arg: Any, type_attr: Attribute, what: str) -> Any:
    """A Python argument as the engines' value of `type_attr`."""
    if isinstance(type_attr, MemRefType):
        info = memory.memref_info(type_attr)
        if isinstance(arg, memory.LayoutMemRef):
            return arg
        if (
            info.layout is None
            and isinstance(arg, np.ndarray)
            and arg.dtype == info.element.numpy_dtype
            and arg.flags.c_contiguous
            and arg.flags.writeable  # a read-only buffer would read as a deallocated one
            and arg.ndim == info.rank + len(info.lanes)
            and all(
                e is None or e == s for e, s in zip(info.shape + info.lanes, arg.shape, strict=True)
            )
        ):
            return arg
        return memory.from_logical(arg, info, what)
    element = element_of(type_attr)
    shape = vector_shape(type_attr)
    if shape is not None:
        data = memory.canonical_array(arg, element)
        if data.shape != shape:
            raise ExecutionError(
                f"{what}: expected a value of {type_attr}, got an array of shape {list(data.shape)}"
            )
        return data
    if np.ndim(arg) != 0:
        raise ExecutionError(f"{what}: expected a scalar of type {type_attr}")
    return python_value(arg, element)


def from_value(value: Any) -> Any:
    """An engine value as what `run` returns: numpy arrays (logical form) and scalars."""
    if isinstance(value, memory.LayoutMemRef):
        return value.logical()
    return value


def bind_arguments(function: FuncOp, args: Sequence[Any]) -> list[Any]:
    inputs = function.function_type.inputs.data
    name = function.sym_name.data
    if len(args) != len(inputs):
        raise ExecutionError(f"@{name} takes {len(inputs)} arguments, got {len(args)}")
    return [
        to_value(a, t, f"argument {i} of @{name}")
        for i, (a, t) in enumerate(zip(args, inputs, strict=True))
    ]


def random_value(
    type_attr: Attribute, rng: np.random.Generator, dynamic_extent: int = DYNAMIC_EXTENT
) -> Any:
    """Seeded data of a type: memref/vector elements cover their type's range (index: 0 to
    15), scalar integers lie in [0, 16), floats in [-1, 1); a `?` dim has `dynamic_extent`
    elements."""
    if isinstance(type_attr, MemRefType):
        info = memory.memref_info(type_attr)
        dims = tuple(dynamic_extent if e is None else e for e in info.shape)
        memory.check_size(info, dims, f"a random argument of type {type_attr}")
        shape = dims + info.lanes
        return _random_array(info.element, shape, rng, small=info.element.kind == "index")
    element = element_of(type_attr)
    if isinstance(type_attr, VectorType):
        return _random_array(
            element, vector_shape(type_attr) or (), rng, small=element.kind == "index"
        )
    return _random_array(element, (), rng, small=True).item()


def _random_array(
    element: ElementType, shape: tuple[int, ...], rng: np.random.Generator, *, small: bool
) -> np.ndarray:
    if element.is_float:
        return rng.uniform(-1.0, 1.0, shape).astype(element.numpy_dtype)
    if small:
        low, high = 0, min(16, 2**element.bits)
    elif not element.holds_negative:
        low, high = 0, 2**element.bits
    else:
        low, high = -(2 ** (element.bits - 1)), 2 ** (element.bits - 1)
    dtype = np.uint64 if high > 2**63 else np.int64
    return rng.integers(low, high, shape, dtype=dtype, endpoint=False).astype(element.numpy_dtype)


def random_arguments(
    function: FuncOp, seed: int, dynamic_extent: int = DYNAMIC_EXTENT
) -> list[Any]:
    if dynamic_extent < 0:
        raise ExecutionError(
            f"the extent of dynamic dims must not be negative, got {dynamic_extent}"
        )
    rng = np.random.default_rng(seed)
    return [random_value(t, rng, dynamic_extent) for t in function.function_type.inputs.data]


# ---- physical buffers for lowered programs ----------------------------------------------------
def _layout(type_attr: Attribute) -> Layout | None:
    return memory.memref_info(type_attr).layout if isinstance(type_attr, MemRefType) else None


def physical_argument(logical: np.ndarray, source: Attribute, lowered: Attribute, what: str) -> Any:
    """The lowered program's argument: the physical buffer the source layout packs `logical`
    into, in the lowered memref's shape and element type. Packed by numpy (`native=False`),
    never by the compiled conversion, which is code under check itself."""
    layout = _layout(source)
    assert layout is not None and isinstance(lowered, MemRefType)
    info = memory.memref_info(lowered)
    data = memory.canonical_array(logical, layout.dtype or element_of(source))
    if layout.is_dynamic:
        layout = layout.specialize(data.shape)
    image = layout.pack(data, native=False)
    dims = _physical_dims(info, image.shape)
    if math.prod(dims) * math.prod(info.lanes) != image.size:
        raise ExecutionError(
            f"{what}: the lowered type {lowered} does not hold the {image.size} physical slots of {source}"
        )
    return memory.from_logical(image.reshape(dims + info.lanes), info, what)


def _physical_dims(info: memory.MemRefInfo, image: tuple[int, ...]) -> tuple[int, ...]:
    """The lowered memref's shape: its static dims, and for each `?` the physical extent
    the layout gave it (the image has the lowered rank), or what the element count leaves
    (a flat buffer with one `?`)."""
    if len(image) == info.rank + len(info.lanes):
        return tuple(image[d] if e is None else e for d, e in enumerate(info.shape))
    known = math.prod(e for e in info.shape if e is not None) * math.prod(info.lanes)
    rest = math.prod(image) // known if known else 0
    return tuple(rest if e is None else e for e in info.shape)


def logical_of_physical(
    value: np.ndarray, source: Attribute, shape: tuple[int, ...] | None = None
) -> np.ndarray:
    """The logical contents of the lowered program's buffer for layout `source` (unpacked by
    numpy, as `physical_argument` packs); `shape` (the logical shape) sizes a layout with
    dynamic dims."""
    layout = _layout(source)
    assert layout is not None
    if layout.is_dynamic and shape is not None:
        layout = layout.specialize(shape)
    packing = layout.packing
    if packing is not None and not packing.is_vector:
        bits = packing.container_bits
        words = value.astype(np.int64) & ((1 << bits) - 1 if bits < 64 else -1)
        words = words.astype(packing.storage_dtype).reshape(layout.storage_shape)
        return layout.unpack(words, native=False)
    return layout.unpack(value.reshape(layout.physical_shape), native=False)


def side_arguments(logical: Sequence[Any], source: FuncOp, side: FuncOp, entry: str) -> list[Any]:
    """Each program's own copy of seeded logical arguments: the physical buffer where
    `side` holds a layout's physical form, else the logical value as `side`'s type takes it."""
    values = []
    for i, (arg, s, t) in enumerate(
        zip(logical, source.function_type.inputs, side.function_type.inputs, strict=True)
    ):
        what = f"argument {i} of @{entry}"
        if holds_physical(s, t):
            values.append(physical_argument(arg, s, t, what))
        else:
            values.append(to_value(arg.copy() if isinstance(arg, np.ndarray) else arg, t, what))
    return values


def holds_physical(source: Attribute, lowered: Attribute) -> bool:
    """Whether the lowered program holds the source layout's physical buffer (a plain memref)."""
    return (
        _layout(source) is not None and isinstance(lowered, MemRefType) and _layout(lowered) is None
    )
