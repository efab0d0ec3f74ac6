"""Where the run-time size of a `?` dim of a layout-typed memref comes from in lowered code.

A `?` dim that is a physical dim of its own has its size in the physical buffer
(`memref.dim` of that physical dim). A `?` dim the layout tiles has not: `d0 floordiv 4,
d0 mod 4` on n elements is a `(n ceildiv 4)x4` buffer, and n is not recoverable from it. Its
size is the allocation's size operand, when the memref is an allocation (upstream
`--normalize-memrefs` answers `memref.dim` with the physical extent, `n ceildiv 4`, which
is not the logical size; heterolayout refuses instead, naming the op).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import memref
from xdsl.ir import Operation, SSAValue

from heterolayout.layout.model import Layout

SizeSource = int | SSAValue
"""The physical dim that holds the size, or the SSA value that is the size."""


def size_source(value: SSAValue, layout: Layout, dim: int) -> SizeSource | None:
    """Where the size of `?` dim `dim` of the layout-typed `value` is, or None when the
    program does not hold it (a tiled dim of a function argument, a call result, …)."""
    position = layout.size_position(dim)
    if position is not None:
        return position
    owner = value.owner
    if isinstance(owner, memref.AllocOp | memref.AllocaOp):
        return list(owner.dynamic_sizes)[layout.dynamic_dims.index(dim)]
    return None


def unknown_size_message(value: SSAValue, layout: Layout, dim: int) -> str:
    """Why the size of a tiled `?` dim cannot be answered for `value`."""
    extent = layout.extents[
        next(p for p, r in enumerate(layout.index_map.results) if dim in r.used_dims())
    ]
    from heterolayout.layout.expressions import format_expr

    return (
        f"the size of '?' dim {dim} of {value.type} is not recoverable: the layout tiles "
        f"that dim (physical extent {format_expr(extent)} over the logical sizes d<i>), and "
        "only an allocation in this function holds it; pass the size alongside the memref"
    )


def logical_size(
    value: SSAValue,
    layout: Layout,
    dim: int,
    index: Callable[[int], SSAValue],
    insert: Callable[[Operation], object],
) -> SSAValue:
    """The size of `?` dim `dim` of `value` as an SSA value (`size_source` must know it);
    `value` is the memref still typed logically (`layout-lower` rewrites uses first)."""
    source = size_source(value, layout, dim)
    assert source is not None, unknown_size_message(value, layout, dim)
    if isinstance(source, SSAValue):
        return source
    query = memref.DimOp(value, index(source))
    insert(query)
    return query.result


def unknown_size_problem(op: Operation) -> str | None:
    """Why `layout-lower` cannot lower `op`, when it needs the size of a tiled `?` dim that
    the program does not hold: `memref.dim` of that dim, or a conversion between two
    memrefs neither of which holds it (the loops run over the logical shape)."""
    from heterolayout.dialects.arith_ops import constant_index
    from heterolayout.dialects.views import value_layout

    if isinstance(op, memref.DimOp):
        layout = value_layout(op.source)
        dim = constant_index(op.index)
        if layout is None or dim is None or not 0 <= dim < layout.rank:
            return None
        if layout.logical_shape[dim] is None and size_source(op.source, layout, dim) is None:
            return unknown_size_message(op.source, layout, dim)
        return None
    if op.name not in ("layout.convert", "memref.copy"):
        return None
    sides = [(v, layout) for v in op.operands[:2] if (layout := value_layout(v)) is not None]
    tiled = [(v, layout) for v, layout in sides if layout.has_tiled_dynamic_dims]
    if not tiled or len(sides) < 2:  # a plain side holds every size
        return None
    value, layout = tiled[0]
    for dim in layout.dynamic_dims:
        if all(size_source(v, side, dim) is None for v, side in sides):
            return unknown_size_message(value, layout, dim)
    return None
