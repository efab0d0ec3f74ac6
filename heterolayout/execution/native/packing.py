"""`Layout.pack` / `unpack` natively: a `layout.convert` between the logical array and the
layout's buffer, lowered by `layout-lower` (tiled, vectorized) and compiled once per layout.

`Layout.pack` takes this path when MLIR 22 is installed and the array has at least
`NATIVE_MIN_ELEMENTS` elements (below that, numpy is faster than a first compilation);
`native=True` / `False` forces either. The results are the numpy reference's, bit for bit.
"""

from __future__ import annotations

import functools
from typing import Literal

import numpy as np

from heterolayout.layout.element_types import ElementType, element_type
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.model import Layout, format_shape

NATIVE_MIN_ELEMENTS = 1 << 20
Direction = Literal["pack", "unpack"]


@functools.cache
def available() -> bool:
    from heterolayout.execution.native import missing

    return missing() is None


def supports(layout: Layout, element: ElementType) -> bool:
    """Whether the native path takes this layout (static, and an element the native
    boundary carries)."""
    return not layout.is_dynamic and element.name != "bf16"


def wants_native(layout: Layout, element: ElementType, size: int, native: bool | None) -> bool:
    if native is False:
        return False
    if native is None and size < NATIVE_MIN_ELEMENTS:
        return False
    ok = supports(layout, element) and available()
    if native and not ok:
        from heterolayout.execution.native import missing

        reason = missing() or f"the native path does not take {layout!r} of {element}"
        raise LayoutError(f"native pack/unpack: {reason}")
    return ok


def element_of_array(layout: Layout, array: np.ndarray) -> ElementType:
    return layout.dtype if layout.dtype is not None else element_type(array.dtype)


@functools.lru_cache(maxsize=64)
def _library(layout: Layout, element: ElementType, direction: Direction):  # type: ignore[no-untyped-def]
    from heterolayout.dialects.context import parse_program
    from heterolayout.dialects.conversion import layout_attr
    from heterolayout.execution.native.module import compile_module
    from heterolayout.passes.pipeline import apply_pipeline

    shape = "x".join(str(e) for e in layout.logical_shape)
    plain = f"memref<{shape}x{element.name}>"
    typed = f"memref<{shape}x{element.name}, {layout_attr(layout)}>"
    source, target = (plain, typed) if direction == "pack" else (typed, plain)
    text = (
        f"func.func @{direction}(%a: {source}, %b: {target}) {{\n"
        f"  layout.convert %a to %b : {source} to {target}\n"
        "  func.return\n}\n"
    )
    lowered = apply_pipeline(parse_program(text, f"<{direction}>"), "layout-lower")
    return compile_module(lowered)


def _buffer(library, direction: Direction, position: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    """A zeroed buffer of the function's parameter: the conversion writes every slot, but
    only the lanes of an integer container, so its unused bits stay what they were (0, as
    in numpy's result and in an allocation's pad fill)."""
    from heterolayout.execution.runtime.memref import memref_info

    info = memref_info(library.function_type(direction).inputs.data[position])
    return np.zeros(tuple(info.shape) + info.lanes, dtype=info.element.numpy_dtype)  # type: ignore[arg-type]


def native_pack(layout: Layout, array: np.ndarray, pad: int | float | None) -> np.ndarray:
    """`Layout.pack` (same checks, same result) by the compiled conversion."""
    from heterolayout.execution.runtime.memref import canonical_array

    element = element_of_array(layout, array)
    if array.shape != layout.logical_shape:
        raise LayoutError(
            f"pack: array of shape {format_shape(array.shape)} does not match the logical shape "
            f"{format_shape(layout.logical_shape)}"
        )
    fill = element.check_pad(layout.pad if pad is None else pad, "pack")
    target = layout.with_params(pad=fill, dtype=element)
    library = _library(target, element, "pack")
    logical = np.ascontiguousarray(canonical_array(array, element))
    out = _buffer(library, "pack", 1)
    library.call("pack", [logical, out])
    packing = layout.packing
    if packing is None or packing.is_vector:
        return out.reshape(layout.physical_shape)
    words = out.astype(np.int64).astype(np.uint64)  # the container's bits, two's complement
    return (words & np.uint64((1 << packing.container_bits) - 1)).astype(packing.storage_dtype)


def native_unpack(layout: Layout, physical: np.ndarray) -> np.ndarray:
    """`Layout.unpack` by the compiled conversion."""
    from heterolayout.execution.runtime.memref import canonical_array

    element = element_of_array(layout, physical)
    layout = layout.with_params(dtype=element)
    library = _library(layout, element, "unpack")
    source = _buffer(library, "unpack", 0)
    expected = source.shape
    if physical.size != source.size:
        raise LayoutError(
            f"unpack: buffer of shape {format_shape(physical.shape)} does not match the "
            f"physical shape {format_shape(expected)}"
        )
    packing = layout.packing
    if packing is not None and not packing.is_vector:
        container = element_type(f"i{packing.container_bits}")
        source[...] = canonical_array(physical.reshape(expected).astype(np.int64), container)
    else:
        source[...] = physical.reshape(expected)
    out = _buffer(library, "unpack", 1)
    library.call("unpack", [source, out])
    return out
