"""Transposed convolutions written as the convolutions of their output phases.

torch-mlir lowers a ConvTranspose of stride s as a stride-1 convolution over a zero-stuffed
image: a buffer filled with zeros, the input copied into it through a view of stride s, and
the flipped weights slid over all of it. s² − 1 of every s² products read a zero (three of
four for stride 2 in 2-D), and the stuffed buffer is one more trip through memory. Output
rows of one phase (`oh mod s`) meet only the kernel rows of one residue, and those read
consecutive input rows: each phase is a stride-1 convolution of the input itself with every
s-th kernel row, written into every s-th output row, in each spatial dim (the sub-pixel
convolution). So the stuffed convolution (`linalg.conv_1d_ncw_fcw`, `conv_2d_nchw_fchw` or
`conv_3d_ncdhw_fcdhw`) becomes up to one such convolution per combination of phases, on
views: the input (zero-padded where a phase reads past its edge), a strided view of the
weights, a strided view of the output. The products that remain are the ones that are not
zero; the sums are the same sums in the same order less their zero terms.

The pattern is matched exactly (a stride-1, dilation-1 convolution whose image is a local
allocation used only by a fill with zero, one strided view of it written by one copy, the
convolution and its deallocation, and whose copied input nothing writes between the copy and
the convolution); anything else is left as it is.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    FloatAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.effects import is_constant_global
from heterolayout.dialects.roots import storage_root
from heterolayout.dialects.upstream.linalg import (
    Conv1DNcwFcwOp,
    Conv2DNchwFchwOp,
    Conv3DNcdhwFcdhwOp,
)
from heterolayout.frontends.text_rewrites import rewritten_text

CONVOLUTIONS = (Conv1DNcwFcwOp, Conv2DNchwFchwOp, Conv3DNcdhwFcdhwOp)
"""The channels-first convolutions torch-mlir writes a ConvTranspose of 1, 2 or 3 spatial dims
as."""
Convolution = Conv1DNcwFcwOp | Conv2DNchwFchwOp | Conv3DNcdhwFcdhwOp
STRIDED_VIEW = re.compile(
    r"memref\.subview [^\n]*\] \[1, 1(?:, \d+)*?, (?:[2-9]|[1-9]\d+)(?:, \d+)*\] :"
)
"""A view of stride > 1 in a spatial dim: what a text (with one of `CONVOLUTIONS`) must hold
for `transposed_convolutions_in_text` to parse it."""


def transposed_convolutions_in_text(text: str) -> str:
    """`text` with `transposed_convolutions` applied, itself when there is nothing to rewrite
    (only a module with a convolution of `CONVOLUTIONS` and a strided view is parsed) or when
    heterolayout's parser does not read it (the tool that reads it next says why)."""
    applies = any(op.name in text for op in CONVOLUTIONS) and bool(STRIDED_VIEW.search(text))
    return rewritten_text(text, applies, transposed_convolutions)


def transposed_convolutions(module: ModuleOp) -> int:
    """Replace each convolution over a zero-stuffed image by the convolutions of its output
    phases; how many were."""
    rewritten = 0
    for conv in [op for op in module.walk() if isinstance(op, CONVOLUTIONS)]:
        stuffed = _stuffed(conv)
        if stuffed is not None:
            _split(conv, stuffed)
            rewritten += 1
    return rewritten


@dataclass(frozen=True)
class Stuffed:
    """The zero-stuffed image of a convolution and the ops that make it."""

    alloc: memref.AllocOp
    fill: FillOp
    view: memref.SubviewOp
    copy: memref.CopyOp
    deallocs: tuple[Operation, ...]
    source: SSAValue
    offsets: tuple[int, ...]
    strides: tuple[int, ...]
    """Of the spatial dims."""


@dataclass(frozen=True)
class Phase:
    """Output rows `first + s·i` (i < count) along one axis: kernel rows `tap + s·t`
    (t < taps), which read input rows `i + t + shift`."""

    first: int
    count: int
    tap: int
    taps: int
    shift: int


def _static(value: SSAValue) -> MemRefType | None:
    """The type of a memref of static shape and a strided layout (one a view can be taken
    of), else None."""
    kind = value.type
    if (
        isinstance(kind, MemRefType)
        and all(e >= 0 for e in kind.get_shape())
        and isinstance(kind.layout, (NoneAttr, StridedLayoutAttr))
    ):
        return kind
    return None


def _is_zero_fill(op: FillOp, image: SSAValue) -> bool:
    if tuple(op.outputs) != (image,) or len(op.inputs) != 1:
        return False
    owner = op.inputs[0].owner
    return (
        isinstance(owner, arith.ConstantOp)
        and isinstance(owner.value, FloatAttr)
        and owner.value.value.data == 0.0
    )


def _stuffed(conv: Convolution) -> Stuffed | None:
    """The zero-stuffed image `conv` slides over, when the pattern matches exactly (the
    module docstring)."""
    ones = (1,) * conv.SPATIAL
    if conv.window() != (ones, ones) or len(conv.inputs) != 2 or len(conv.outputs) != 1:
        return None
    image, weights = conv.inputs
    out = conv.outputs[0]
    alloc = image.owner
    image_type, weights_type, out_type = _static(image), _static(weights), _static(out)
    if (
        not isinstance(alloc, memref.AllocOp)
        or alloc.dynamic_sizes
        or image_type is None
        or weights_type is None
        or out_type is None
        or not isinstance(image_type.layout, NoneAttr)
    ):
        return None
    fills, views, deallocs = [], [], []
    for use in image.uses:
        user = use.operation
        if isinstance(user, FillOp) and _is_zero_fill(user, image):
            fills.append(user)
        elif isinstance(user, memref.SubviewOp) and user.source == image:
            views.append(user)
        elif isinstance(user, memref.DeallocOp):
            deallocs.append(user)
        elif user is not conv:
            return None
    if len(fills) != 1 or len(views) != 1:
        return None
    (fill,), (view,) = fills, views
    copies = [u.operation for u in view.result.uses]
    if len(copies) != 1 or not isinstance(copy := copies[0], memref.CopyOp):
        return None
    if copy.destination != view.result or view.offsets or view.sizes or view.strides:
        return None
    offsets = view.static_offsets.get_values()
    sizes = view.static_sizes.get_values()
    strides = view.static_strides.get_values()
    batch, channels = image_type.get_shape()[:2]
    source_type = _static(copy.source)
    if (
        tuple(offsets[:2]) != (0, 0)
        or tuple(strides[:2]) != (1, 1)
        or tuple(sizes[:2]) != (batch, channels)
        or max(strides[2:]) == 1
        or source_type is None
        or tuple(source_type.get_shape()) != tuple(sizes)
    ):
        return None
    if not _in_order(fill, copy, conv) or _written_between(copy, conv, copy.source):
        return None
    return Stuffed(
        alloc,
        fill,
        view,
        copy,
        tuple(deallocs),
        copy.source,
        tuple(offsets[2:]),
        tuple(strides[2:]),
    )


def _in_order(*ops: Operation) -> bool:
    block = ops[-1].parent_block()
    if block is None or any(op.parent_block() is not block for op in ops):
        return False
    places = [block.get_operation_index(op) for op in ops]
    return places == sorted(places)


def _written_between(first: Operation, last: Operation, source: SSAValue) -> bool:
    """Whether `source` may change between `first` and `last`: a global unless it is a
    constant one; another buffer if an op between uses its memory (through any view)."""
    root = storage_root(source)
    if isinstance(root.owner, memref.GetGlobalOp):
        return not is_constant_global(root)
    op = first.next_op
    while op is not None and op is not last:
        for inner in op.walk():
            if any(
                isinstance(o.type, MemRefType) and storage_root(o) == root for o in inner.operands
            ):
                return True
        op = op.next_op
    return False


def _phases(extent: int, out: int, kernel: int, offset: int, stride: int) -> list[Phase]:
    """Along one axis: the phases of an output of `out` rows over a stuffed image whose input
    row r sits at `offset + stride·r` (r < `extent`), for a kernel of `kernel` rows."""
    phases = []
    for first in range(stride):
        count = -(-(out - first) // stride)
        tap = (offset - first) % stride
        taps = -(-(kernel - tap) // stride) if tap < kernel else 0
        if count > 0 and taps > 0:
            phases.append(Phase(first, count, tap, taps, (first + tap - offset) // stride))
    return phases


def _split(conv: Convolution, stuffed: Stuffed) -> None:
    weights, out = conv.inputs[1], conv.outputs[0]
    source_type, weights_type, out_type = (_static(v) for v in (stuffed.source, weights, out))
    assert source_type is not None and weights_type is not None and out_type is not None
    batch, channels, *extents = source_type.get_shape()
    features, _, *kernel = weights_type.get_shape()
    axes = range(len(extents))
    phases = [
        _phases(
            extents[a],
            out_type.get_shape()[2 + a],
            kernel[a],
            stuffed.offsets[a],
            stuffed.strides[a],
        )
        for a in axes
    ]
    low = [max([0] + [-p.shift for p in phases[a]]) for a in axes]
    high = [
        max([0] + [p.count + p.taps - 2 + p.shift - (extents[a] - 1) for p in phases[a]])
        for a in axes
    ]
    ones = [1] * (2 + len(extents))
    rewriter = Rewriter()
    at = InsertPoint.before(conv)
    source, padded = stuffed.source, None
    if any(low) or any(high):
        shape = [batch, channels, *(extents[a] + low[a] + high[a] for a in axes)]
        padded = memref.AllocOp.get(source_type.element_type, 64, shape)
        fill = stuffed.fill.clone()
        fill.operands = (stuffed.fill.inputs[0], padded.memref)
        interior = memref.SubviewOp.from_static_parameters(
            padded, padded.memref.type, [0, 0, *low], source_type.get_shape(), ones
        )
        rewriter.insert_op([padded, fill, interior, memref.CopyOp(stuffed.source, interior)], at)
        source = padded.memref
    for combination in itertools.product(*phases):
        image_view = _view(
            rewriter,
            at,
            source,
            [0, 0, *(low[a] + p.shift for a, p in enumerate(combination))],
            [batch, channels, *(p.count + p.taps - 1 for p in combination)],
            ones,
        )
        weights_view = _view(
            rewriter,
            at,
            weights,
            [0, 0, *(p.tap for p in combination)],
            [features, channels, *(p.taps for p in combination)],
            [1, 1, *stuffed.strides],
        )
        out_view = _view(
            rewriter,
            at,
            out,
            [0, 0, *(p.first for p in combination)],
            [batch, features, *(p.count for p in combination)],
            [1, 1, *stuffed.strides],
        )
        phase = conv.clone()
        phase.operands = (image_view, weights_view, out_view)
        rewriter.insert_op(phase, at)
    if padded is not None:
        rewriter.insert_op(memref.DeallocOp.get(padded), at)
    for op in (conv, stuffed.copy, stuffed.view, stuffed.fill, *stuffed.deallocs, stuffed.alloc):
        rewriter.erase_op(op)


def _view(
    rewriter: Rewriter,
    at: InsertPoint,
    value: SSAValue,
    offsets: list[int],
    sizes: list[int],
    strides: list[int],
) -> SSAValue:
    """`value` itself where the view is all of it, else a `memref.subview`."""
    kind = value.type
    assert isinstance(kind, MemRefType)
    if not any(offsets) and set(strides) == {1} and sizes == list(kind.get_shape()):
        return value
    view = memref.SubviewOp.from_static_parameters(value, kind, offsets, sizes, strides)
    rewriter.insert_op(view, at)
    return view.result
