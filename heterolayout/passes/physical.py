"""Physical memref types and index maps of layouts, nested or flattened."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IntAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    VectorType,
)
from xdsl.ir import Attribute
from xdsl.ir.affine import AffineMap

from heterolayout.dialects.conversion import memref_shape
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.model import Layout


def identity_layout(memref_type: MemRefType) -> Layout:
    """The layout of a plain memref: physical index = logical index."""
    shape = memref_shape(memref_type)
    return Layout.create(
        shape,
        AffineMap.identity(len(shape)),
        shape,
        dtype=None,
        injective=True,
    )


def storage_element(layout: Layout, element: Attribute) -> Attribute:
    """The physical element type: the container when packed."""
    if layout.packing is None:
        return element
    if layout.packing.is_vector:
        length, _ = layout.packing.vector_shape
        return VectorType(element, [length])
    return IntegerType(layout.packing.container_bits)


def physical_type(memref_type: MemRefType, layout: Layout, flatten: bool) -> MemRefType:
    if flatten:
        if layout.is_dynamic:
            raise LayoutError("flatten=true needs static shapes ('?' has no flat size)")
        shape: tuple[int | None, ...] = (math.prod(layout.storage_shape),)  # type: ignore[arg-type]
    else:
        shape = layout.storage_shape
    return MemRefType(
        storage_element(layout, memref_type.element_type),
        ArrayAttr(IntAttr(DYNAMIC_INDEX if e is None else e) for e in shape),
        NoneAttr(),
        memref_type.memory_space,
    )
