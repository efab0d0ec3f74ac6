"""Between memref types and the `Layout` model: `layout_of` and `layout_attr`.

These two functions are the contract the passes and the interpreter build on: a memref's
layout attribute (ours, or MLIR's builtin `affine_map<…>` / `strided<…>`) plus its shape and
element type make one `Layout`, and a `Layout` goes back to an attribute of any notation
that can express it.
"""

from __future__ import annotations

import functools
from typing import TypedDict

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

from heterolayout.dialects.attributes import (
    ChunkedLayoutAttr,
    LayoutAttr,
    MapLayoutAttr,
    StridedLayoutAttr,
    TagLayoutAttr,
)
from heterolayout.layout.constructors import Common, builtin_map_layout, strided_layout
from heterolayout.layout.element_types import element_type
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.maps import strided_map, strides_of, without_unused_symbols
from heterolayout.layout.model import Layout, row_major_strides
from heterolayout.layout.tags import render_tag

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
    name = element_dtype(memref_type.element_type, required=False)
    dtype = None if name is None else element_type(name)
    if isinstance(layout, AffineMapAttr):
        index_map = without_unused_symbols(layout.data)
        if index_map == AffineMap.identity(len(shape)) or index_map.num_symbols:
            return None
        return builtin_map_layout(index_map, shape, Common(dtype=dtype, where=f"layout '{layout}'"))
    if isinstance(layout, BuiltinStridedLayoutAttr):
        strides, offset = tuple(layout.get_strides()), layout.get_offset()
        if offset is None or None in strides or None in shape:
            return None
        if offset == 0 and strides == row_major_strides(shape):
            return None
        common = Common(dtype=dtype, where=f"layout '{layout}'")
        return strided_layout(strides, offset, shape, common)  # type: ignore[arg-type]
    return None


def is_builtin_strided(memref_type: MemRefType) -> bool:
    """Whether the memref's layout is MLIR's builtin `strided<…>` (the type of views)."""
    return isinstance(memref_type.layout, BuiltinStridedLayoutAttr)


KINDS = ("tag", "chunked", "map", "strided")
"""The notations a Layout can be written in from its own values (target layouts are
written from their parameters: `TpuLayoutAttr(params)`, `PartitionLayoutAttr(params)`)."""
_DEFAULT_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def preferred_kind(layout: Layout) -> str:
    """The most telling notation: a tag when the dims have names, chunked for other
    blockings, strided for pure strides, else a map."""
    if layout.blocked_terms is not None:
        return "tag" if layout.dim_names else "chunked"
    if layout.physical_rank == 1 and _strides(layout) is not None:
        return "strided"
    return "map"


def layout_attr(layout: Layout, kind: str | None = None) -> LayoutAttr:
    """The `#layout.<kind>` attribute of a Layout; `kind` None picks `preferred_kind`.
    Raises `LayoutError` when `kind` cannot express the layout."""
    kind = kind or preferred_kind(layout)
    common = attribute_parameters(layout)
    terms = layout.blocked_terms
    if kind == "tag" and terms is not None:
        names = layout.dim_names or _DEFAULT_NAMES[: layout.rank]
        return TagLayoutAttr(render_tag(names, terms), **common)
    if kind == "chunked" and terms is not None:
        return ChunkedLayoutAttr([v for t in terms for v in (t.dim, t.size or 0)], **common)
    if kind == "map":
        return MapLayoutAttr(layout.index_map, layout.physical_shape, **common)
    strided = _strides(layout) if kind == "strided" else None
    if strided is not None:
        return StridedLayoutAttr(strided[0], strided[1], **common)
    if kind not in (*KINDS, "tpu", "partition"):
        raise LayoutError(
            f"unknown layout kind '{kind}' (expected tag, chunked, map, strided, tpu or partition)"
        )
    raise LayoutError(f"the {kind} notation cannot express {layout!r}")


class CommonParameters(TypedDict):
    pad: int | float
    pack: str | None
    bit_order: str | None


def attribute_parameters(layout: Layout) -> CommonParameters:
    """A layout's pad, pack and bit order as the attributes' constructors take them."""
    packing = layout.packing
    return {
        "pad": layout.pad,
        "pack": None if packing is None else packing.container,
        "bit_order": None if packing is None else packing.bit_order,
    }


def _strides(layout: Layout) -> tuple[tuple[int, ...], int] | None:
    """Strides and offset, when the layout is a strided one (its 1-D buffer exactly as
    large as the strides make it)."""
    strided = strides_of(layout.index_map)
    if strided is None or layout.is_dynamic or not layout.rank:
        return None  # `#layout.strided` needs a stride
    rebuilt = Layout.create(layout.logical_shape, strided_map(*strided), injective=True)
    return strided if rebuilt.physical_shape == layout.physical_shape else None


def notations(layout: Layout) -> dict[str, str]:
    """The attribute text of every notation that can express `layout`."""
    found = {}
    for kind in KINDS:
        try:
            found[kind] = str(layout_attr(layout, kind))
        except LayoutError:
            continue
    return found


def with_layout(memref_type: MemRefType, layout: Attribute | None) -> MemRefType:
    """The same memref type with another layout attribute (None: the identity)."""
    return MemRefType(
        memref_type.element_type,
        ArrayAttr(IntAttr(e) for e in memref_type.get_shape()),
        NoneAttr() if layout is None else layout,  # type: ignore[arg-type]
        memref_type.memory_space,
    )
