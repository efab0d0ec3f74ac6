"""Between memref types and the `Layout` model: `layout_of` and `layout_attr`.

These two functions are the contract the passes and the interpreter build on: a memref's
layout attribute (ours, or MLIR's builtin `affine_map<…>` / `strided<…>`) plus its shape and
element type make one `Layout`, and a `Layout` goes back to an attribute of any notation
that can express it.
"""

from __future__ import annotations

import functools
from typing import Any

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    IntAttr,
    MemRefType,
    NoneAttr,
)
from xdsl.dialects.builtin import StridedLayoutAttr as BuiltinStridedLayoutAttr
from xdsl.ir import Attribute
from xdsl.ir.affine import AffineMap

from heterolayout.dialects.layout import (
    ChunkedLayoutAttr,
    LayoutAttr,
    MapLayoutAttr,
    PartitionLayoutAttr,
    StridedLayoutAttr,
    TagLayoutAttr,
    TpuLayoutAttr,
)
from heterolayout.layout.element_types import element_type
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import format_map
from heterolayout.layout.maps import format_strided, strides_of, without_unused_symbols
from heterolayout.layout.model import Layout
from heterolayout.layout.parse import parse_layout
from heterolayout.layout.render import spec_text
from heterolayout.layout.targets import PartitionSpec, TpuSpec, recognize

Extent = int | None


def memref_shape(memref_type: MemRefType) -> tuple[Extent, ...]:
    """The memref's shape with `?` as None."""
    return tuple(None if e == DYNAMIC_INDEX else e for e in memref_type.get_shape())


def element_dtype(element: Attribute, *, required: bool) -> str | None:
    """The MLIR name of a scalar element type that layouts support (f16, bf16, f32, f64,
    iN, siN, uiN, index). Others give None, or an error when `required`."""
    name = str(element)
    try:
        return element_type(name).name
    except LayoutError:
        if required:
            raise LayoutError(
                f"element type {name} is not supported in a layout-typed memref "
                "(supported: f16, bf16, f32, f64, iN, siN, uiN, index)"
            ) from None
        return None


@functools.lru_cache(maxsize=4096)
def layout_of(memref_type: MemRefType) -> Layout | None:
    """The Layout of a memref, or None when heterolayout leaves its layout to upstream MLIR.

    Layouts: our `#layout.…` attributes; a builtin `affine_map<…>` that is not the identity
    and whose results use no symbol (read as `#layout.map` with the physical extents
    upstream --normalize-memrefs gives it, `normalized_extents`; unused symbols drop); a
    builtin `strided<[…], offset: …>` on a static shape, with static strides and offset, that
    is not contiguous row-major (read as `#layout.strided`). Left alone (None): no layout,
    an identity map or row-major strides, a builtin `strided` layout on a type with a `?`
    (what bufferization and tiling produce: its meaning is known only at run time), an
    `affine_map` whose results use symbols (upstream leaves it unnormalized too: its extents
    depend on run-time values), and any other layout attribute. Raises `LayoutError` when
    a layout does not fit the memref's shape or element type."""
    layout = memref_type.layout
    shape = memref_shape(memref_type)
    if isinstance(layout, LayoutAttr):
        return layout.to_layout(shape, element_dtype(memref_type.element_type, required=True))
    dtype = element_dtype(memref_type.element_type, required=False)
    if isinstance(layout, AffineMapAttr):
        index_map = without_unused_symbols(layout.data)
        if index_map == AffineMap.identity(len(shape)) or index_map.num_symbols:
            return None
        return parse_layout(format_map(index_map), shape, dtype=dtype)
    if isinstance(layout, BuiltinStridedLayoutAttr):
        strides, offset = tuple(layout.get_strides()), layout.get_offset()
        if offset is None or None in strides or None in shape:
            return None
        if offset == 0 and strides == _row_major_strides(shape):
            return None
        return parse_layout(format_strided(strides, offset), shape, dtype=dtype)  # type: ignore[arg-type]
    return None


def is_builtin_strided(memref_type: MemRefType) -> bool:
    """Whether the memref's layout is MLIR's builtin `strided<…>` (the type of views)."""
    return isinstance(memref_type.layout, BuiltinStridedLayoutAttr)


def _row_major_strides(shape: tuple[Extent, ...]) -> tuple[Extent, ...]:
    strides: list[Extent] = []
    running: Extent = 1
    for extent in reversed(shape):
        strides.append(running)
        running = None if running is None or extent is None else running * extent
    return tuple(reversed(strides))


def preferred_kind(layout: Layout) -> str:
    """The most telling notation: a tag when the dims have names, a target layout (tpu,
    partition) when one builds it, chunked for other blockings, strided for pure strides,
    else a map."""
    if layout.blocked_terms is not None and layout.dim_names:
        return "tag"
    target = recognize(layout)
    if target is not None:
        return "tpu" if isinstance(target, TpuSpec) else "partition"
    if layout.blocked_terms is not None:
        return "chunked"
    if layout.physical_rank == 1 and spec_text(layout, "strided") is not None:
        return "strided"
    return "map"


def layout_attr(layout: Layout, kind: str | None = None) -> LayoutAttr:
    """The `#layout.<kind>` attribute of a Layout; `kind` None picks `preferred_kind`.

    Its text is `attribute_text(layout, kind)`. Raises `LayoutError` when `kind` cannot
    express the layout.
    """
    kind = kind or preferred_kind(layout)
    body = spec_text(layout, kind)
    if body is None:
        raise LayoutError(f"the {kind} notation cannot express {layout!r}")
    packing = layout.packing
    common: dict[str, Any] = {
        "pad": layout.pad,
        "pack": None if packing is None else packing.container,
        "bit_order": None if packing is None else packing.bit_order,
    }
    if kind == "tag":
        return TagLayoutAttr(body, **common)
    if kind == "chunked":
        assert layout.blocked_terms is not None
        pairs = [value for t in layout.blocked_terms for value in (t.dim, t.size or 0)]
        return ChunkedLayoutAttr(pairs, **common)
    if kind == "map":
        return MapLayoutAttr(layout.index_map, layout.physical_shape, **common)
    if kind == "strided":
        strided = strides_of(layout.index_map)
        assert strided is not None
        return StridedLayoutAttr(strided[0], strided[1], **common)
    target = recognize(layout)
    if kind == "tpu" and isinstance(target, TpuSpec):
        return TpuLayoutAttr.from_spec(target, **common)
    if kind == "partition" and isinstance(target, PartitionSpec):
        return PartitionLayoutAttr.from_spec(target, **common)
    raise LayoutError(
        f"unknown layout kind '{kind}' (expected tag, chunked, map, strided, tpu or partition)"
    )


def with_layout(memref_type: MemRefType, layout: Attribute | None) -> MemRefType:
    """The same memref type with another layout attribute (None: the identity)."""
    return MemRefType(
        memref_type.element_type,
        ArrayAttr(IntAttr(e) for e in memref_type.get_shape()),
        NoneAttr() if layout is None else layout,  # type: ignore[arg-type]
        memref_type.memory_space,
    )
