"""Padded buffers filled at their border only.

Frontends pad an activation by filling a new buffer with the pad value and copying the
activation into a window of it (`tensor.pad`, bufferized): the fill writes every element and
the copy then overwrites the interior, a second trip through the whole buffer. When nothing
touches the buffer between the two, the fill becomes one `linalg.fill` per slab of the
border (the buffer's box minus the window, cut dim by dim), each on a subview, which
`layout-schedule` makes a nest like any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType, NoneAttr, StridedLayoutAttr
from xdsl.dialects.linalg.ops import CopyOp, FillOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.names import op_name
from heterolayout.dialects.roles import VIEW_OPS
from heterolayout.dialects.roots import storage_root
from heterolayout.layout.model import row_major_strides

Box = tuple[tuple[int, ...], tuple[int, ...]]
"""Offsets and sizes."""


def fill_borders(root: Operation, every: bool = True) -> int:
    """Rewrite each fill whose interior a copy overwrites next (with `every=false` only
    those of layout-typed buffers); how many."""
    count = 0
    for fill in [o for o in root.walk() if isinstance(o, FillOp)]:
        window = _overwritten_window(fill)
        if window is None:
            continue
        buffer = fill.outputs[0]
        if not every and layout_of(buffer.type) is None:
            continue
        assert isinstance(buffer.type, MemRefType)
        at = InsertPoint.before(fill)
        for offsets, sizes in border_slabs(buffer.type.get_shape(), *window):
            view = memref.SubviewOp(
                buffer,
                [],
                [],
                [],
                offsets,
                sizes,
                [1] * len(sizes),
                _window_type(buffer.type, offsets, sizes),
            )
            Rewriter.insert_op(view, at)
            Rewriter.insert_op(FillOp([fill.inputs[0]], [view.result], res=()), at)
        Rewriter.erase_op(fill)
        count += 1
    return count


def border_slabs(shape: Sequence[int], offsets: Sequence[int], sizes: Sequence[int]) -> list[Box]:
    """The box `shape` minus the window, as disjoint boxes: along each dim in turn, the part
    before and after the window, the dims before it cut to the window."""
    slabs: list[Box] = []
    low, extent = [0] * len(shape), list(shape)
    for dim, (start, size) in enumerate(zip(offsets, sizes, strict=True)):
        for first, count in ((0, start), (start + size, shape[dim] - start - size)):
            if count > 0:
                slab_low, slab_extent = list(low), list(extent)
                slab_low[dim], slab_extent[dim] = first, count
                slabs.append((tuple(slab_low), tuple(slab_extent)))
        low[dim], extent[dim] = start, size
    return slabs


def _overwritten_window(fill: FillOp) -> Box | None:
    """The static window of the fill's buffer that a copy overwrites before anything else
    touches the buffer (views aside), when the fill covers the whole of a local buffer."""
    if len(fill.outputs) != 1 or fill.res:
        return None
    buffer = fill.outputs[0]
    if not plain_allocation(buffer):
        return None
    if any(use.operation.parent_block() is not fill.parent_block() for use in buffer.uses):
        return None
    operation = fill.next_op
    while operation is not None:
        touches = any(
            isinstance(v.type, MemRefType) and storage_root(v) is buffer
            for o in operation.walk()
            for v in o.operands
        )
        if touches and not (op_name(operation) in VIEW_OPS and not operation.regions):
            return copied_window(operation, buffer)
        operation = operation.next_op
    return None


def copy_operands(op: Operation) -> tuple[SSAValue, SSAValue] | None:
    """(source, destination) of a `memref.copy` or a one-to-one `linalg.copy`."""
    if isinstance(op, memref.CopyOp):
        return op.source, op.destination
    if isinstance(op, CopyOp) and len(op.inputs) == len(op.outputs) == 1 and not op.res:
        return op.inputs[0], op.outputs[0]
    return None


def copied_window(op: Operation, buffer: SSAValue) -> Box | None:
    """The static, unit-stride window of `buffer` that the copy `op` writes from another
    buffer."""
    operands = copy_operands(op)
    if operands is None:
        return None
    source, destination = operands
    view = destination.owner
    if storage_root(source) is buffer or not isinstance(view, memref.SubviewOp):
        return None
    if view.source != buffer:
        return None
    offsets, sizes, strides = (
        tuple(view.static_offsets.get_values()),
        tuple(view.static_sizes.get_values()),
        tuple(view.static_strides.get_values()),
    )
    if view.offsets or view.sizes or view.strides or any(s != 1 for s in strides):
        return None
    assert isinstance(buffer.type, MemRefType)
    if len(sizes) != len(buffer.type.get_shape()):
        return None
    return offsets, sizes


def plain_allocation(buffer: SSAValue) -> bool:
    """A static local buffer, row-major or of a layout (whose logical windows are row-major
    strided views)."""
    memref_type = buffer.type
    return (
        isinstance(buffer.owner, memref.AllocOp | memref.AllocaOp)
        and isinstance(memref_type, MemRefType)
        and memref_type.has_static_shape()
        and (isinstance(memref_type.layout, NoneAttr) or layout_of(memref_type) is not None)
    )


def _window_type(buffer: MemRefType, offsets: Sequence[int], sizes: Sequence[int]) -> MemRefType:
    """A window's type: row-major strides of the buffer's logical shape."""
    strides = row_major_strides(buffer.get_shape())
    offset = sum(o * s for o, s in zip(offsets, strides, strict=True))
    return MemRefType(buffer.element_type, sizes, StridedLayoutAttr(strides, offset))
