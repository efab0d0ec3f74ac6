"""One constructor per notation: each builds a `Layout` from the notation's values.

The dialect's attributes call these with their parameters, and `parse_layout` calls them
after parsing a notation's text, so a layout means the same whichever way it was written.
Target layouts have their own modules (`tpu.tpu_layout`, `partition.partition_layout`);
packing is a `Packing(container, bit_order)` in the `Common` parameters of any of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir.affine import AffineExpr, AffineMap

from heterolayout.layout.blocked import Term, blocked_map, blocked_physical_shape, check_terms
from heterolayout.layout.element_types import ElementType
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.extents import check_map_nesting
from heterolayout.layout.maps import strided_map, without_unused_symbols
from heterolayout.layout.model import Layout, format_shape
from heterolayout.layout.normalize import normalized_extents, upstream_sizes
from heterolayout.layout.packing import Packing
from heterolayout.layout.tags import TagError, parse_tag

Shape = Sequence[int | None]


@dataclass(frozen=True)
class Common:
    """What every notation's constructor takes besides its own values: the value of pad
    slots, the element type (packing and byte counts need it), the packing, a physical
    shape given explicitly (a map's `shape = […]`; for other notations it must be the one
    they define), and how error messages name the layout."""

    pad: int | float = 0
    dtype: ElementType | None = None
    packing: Packing | None = None
    physical_shape: tuple[int | None, ...] | None = None
    where: str = "layout"

    def create(
        self,
        shape: Shape,
        index_map: AffineMap,
        physical_shape: Shape | None,
        *,
        dim_names: str | None = None,
        injective: bool | None = None,
        extents: Sequence[AffineExpr | None] | None = None,
    ) -> Layout:
        return Layout.create(
            shape,
            index_map,
            physical_shape,
            pad=self.pad,
            dtype=self.dtype,
            packing=self.packing,
            dim_names=dim_names,
            where=self.where,
            injective=injective,
            extents=extents,
        )

    def check_physical_shape(self, defined: Shape, by: str) -> None:
        """An explicit physical shape must be the one the notation defines (`by`: "the
        blocks define")."""
        if self.physical_shape is not None and tuple(self.physical_shape) != tuple(defined):
            raise LayoutError(
                f"{self.where}: physical shape {format_shape(self.physical_shape)} contradicts "
                f"the physical shape {format_shape(defined)} that {by}"
            )


DEFAULT = Common()


def blocked_layout(
    terms: Sequence[Term], shape: Shape, common: Common = DEFAULT, names: str | None = None
) -> Layout:
    """The digit model (tags and chunked layouts): `terms` list the physical dims outermost
    first; blocked dims are padded up to their block product."""
    check_terms(terms, len(shape), common.where, names)
    physical = blocked_physical_shape(terms, shape)
    common.check_physical_shape(physical, "the blocks define")
    return common.create(
        shape, blocked_map(terms, len(shape)), physical, dim_names=names, injective=True
    )


def tag_layout(tag: str, shape: Shape, common: Common = DEFAULT) -> Layout:
    """A format tag (`NCHW->nChw16c`) or a named format (oneDNN `nChw8c`, MegEngine
    `NCHW4`), whose letters name the logical dims."""
    try:
        names, terms = parse_tag(tag)
    except TagError as error:
        raise LayoutError(str(error)) from None
    if len(names) != len(shape):
        raise LayoutError(
            f"{common.where}: the layout has rank {len(names)} but the shape "
            f"{format_shape(shape)} has rank {len(shape)}"
        )
    return blocked_layout(terms, shape, common, names)


def chunked_layout(terms: Sequence[Term], shape: Shape, common: Common = DEFAULT) -> Layout:
    """Hexagon HTP `(dim, size)` pairs as terms: the digit model with dims named by number."""
    return blocked_layout(terms, shape, common)


def map_layout(index_map: AffineMap, shape: Shape, common: Common = DEFAULT) -> Layout:
    """Any quasi-affine map; the physical extents are the exact max + 1 of each result
    over the logical box unless `common.physical_shape` gives them."""
    return common.create(shape, index_map, common.physical_shape)


def builtin_map_layout(index_map: AffineMap, shape: Shape, common: Common = DEFAULT) -> Layout:
    """MLIR's own `affine_map<…>` layout: symbols no result uses are dropped, and the
    physical extents are the ones upstream --normalize-memrefs gives it
    (`normalized_extents`) unless `common.physical_shape` gives them; a `?` dim the map
    tiles gets the size upstream allocates (`upstream_sizes`: `n ceildiv 4`)."""
    index_map = without_unused_symbols(index_map)
    physical = common.physical_shape
    if physical is None and not index_map.num_symbols:
        physical = _normalized_shape(index_map, shape, common.where)
    sizes = None
    if None in shape and physical is not None and index_map.num_dims == len(shape):
        sizes = upstream_sizes(index_map, shape, common.where)
    return common.create(shape, index_map, physical, extents=sizes)


def _normalized_shape(
    index_map: AffineMap, shape: Shape, where: str
) -> tuple[int | None, ...] | None:
    """None: the map does not fit the shape (which `Layout.create` reports), or a dim has
    size zero (upstream makes it dynamic; the exact extents stay)."""
    if index_map.num_dims != len(shape) or 0 in shape:
        return None
    check_map_nesting(index_map, f"{where}: ")
    try:
        return normalized_extents(index_map, shape)
    except LayoutError as error:
        raise LayoutError(f"{where}: {error}") from None


def strided_layout(
    strides: Sequence[int], offset: int, shape: Shape, common: Common = DEFAULT
) -> Layout:
    """Element strides and an offset over a 1-D physical buffer just large enough."""
    if len(strides) != len(shape):
        raise LayoutError(
            f"{common.where}: {len(strides)} strides but the shape {format_shape(shape)} has "
            f"rank {len(shape)}"
        )
    if None in shape:
        raise LayoutError(f"{common.where}: strided layouts need a static shape ('?' given)")
    return common.create(shape, strided_map(strides, offset), common.physical_shape)
