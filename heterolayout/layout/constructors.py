"""One constructor per notation: each builds a `Layout` from the notation's values.

The dialect's attributes call these with their parameters, and `parse_layout` calls them
after parsing a notation's text, so a layout means the same whichever way it was written.
Target layouts have their own modules (`tpu.tpu_layout`, `partition.partition_layout`);
packing is a `Packing(container, bit_order)` given to any of them.

Every constructor takes the same keywords: `pad` (the value of pad slots), `dtype` (the
element type, needed by packing and byte counts), `packing`, and `where` (how error
messages name the layout).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir.affine import AffineMap

from heterolayout.layout.blocked import Term, blocked_map, blocked_physical_shape, check_terms
from heterolayout.layout.element_types import ElementType
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.maps import strided_map
from heterolayout.layout.model import Layout, format_shape
from heterolayout.layout.packing import Packing
from heterolayout.layout.tags import TagError, parse_tag

Shape = Sequence[int | None]


def blocked_layout(
    terms: Sequence[Term],
    shape: Shape,
    *,
    names: str | None = None,
    physical_shape: Shape | None = None,
    pad: int | float = 0,
    dtype: ElementType | None = None,
    packing: Packing | None = None,
    where: str = "layout",
) -> Layout:
    """The digit model (tags and chunked layouts): `terms` list the physical dims outermost
    first; blocked dims are padded up to their block product. A `physical_shape`, when
    given, must be the one the blocks define."""
    check_terms(terms, len(shape), where, names)
    physical = blocked_physical_shape(terms, shape, where, names)
    if physical_shape is not None and tuple(physical_shape) != physical:
        raise LayoutError(
            f"{where}: shape = {format_shape(physical_shape)} contradicts the physical shape "
            f"{format_shape(physical)} that the blocks define"
        )
    return Layout.create(
        shape,
        blocked_map(terms, len(shape)),
        physical,
        pad=pad,
        dtype=dtype,
        packing=packing,
        dim_names=names,
        where=where,
        injective=True,
    )


def tag_layout(
    tag: str,
    shape: Shape,
    *,
    physical_shape: Shape | None = None,
    pad: int | float = 0,
    dtype: ElementType | None = None,
    packing: Packing | None = None,
    where: str = "layout",
) -> Layout:
    """A format tag (`NCHW->nChw16c`) or a named format (oneDNN `nChw8c`, MegEngine
    `NCHW4`), whose letters name the logical dims."""
    try:
        names, terms = parse_tag(tag)
    except TagError as error:
        raise LayoutError(str(error)) from None
    if len(names) != len(shape):
        raise LayoutError(
            f"{where}: the layout has rank {len(names)} but the shape {format_shape(shape)} has "
            f"rank {len(shape)}"
        )
    return blocked_layout(
        terms,
        shape,
        names=names,
        physical_shape=physical_shape,
        pad=pad,
        dtype=dtype,
        packing=packing,
        where=where,
    )


def chunked_layout(
    terms: Sequence[Term],
    shape: Shape,
    *,
    physical_shape: Shape | None = None,
    pad: int | float = 0,
    dtype: ElementType | None = None,
    packing: Packing | None = None,
    where: str = "layout",
) -> Layout:
    """Hexagon HTP `(dim, size)` pairs as terms: the digit model with dims named by number."""
    return blocked_layout(
        terms,
        shape,
        physical_shape=physical_shape,
        pad=pad,
        dtype=dtype,
        packing=packing,
        where=where,
    )


def map_layout(
    index_map: AffineMap,
    shape: Shape,
    *,
    physical_shape: Shape | None = None,
    pad: int | float = 0,
    dtype: ElementType | None = None,
    packing: Packing | None = None,
    where: str = "layout",
) -> Layout:
    """Any quasi-affine map; the physical extents are the exact max + 1 of each result
    over the logical box unless a `physical_shape` is given."""
    return Layout.create(
        shape, index_map, physical_shape, pad=pad, dtype=dtype, packing=packing, where=where
    )


def strided_layout(
    strides: Sequence[int],
    offset: int,
    shape: Shape,
    *,
    physical_shape: Shape | None = None,
    pad: int | float = 0,
    dtype: ElementType | None = None,
    packing: Packing | None = None,
    where: str = "layout",
) -> Layout:
    """Element strides and an offset over a 1-D physical buffer just large enough."""
    if len(strides) != len(shape):
        raise LayoutError(
            f"{where}: {len(strides)} strides but the shape {format_shape(shape)} has rank "
            f"{len(shape)}"
        )
    if None in shape:
        raise LayoutError(f"{where}: strided layouts need a static shape ('?' given)")
    return Layout.create(
        shape,
        strided_map(strides, offset),
        physical_shape,
        pad=pad,
        dtype=dtype,
        packing=packing,
        where=where,
    )
