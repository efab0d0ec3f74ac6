"""The numpy reference: `pack` and `unpack` for every layout.

Three strategies, chosen from the layout's form: a blocked (digit-model) map copies between
the logical array and a transposed view of the physical buffer, box by box, filling only
the pad slots (one pass, where numpy's pad / reshape / transpose / copy makes two); a map
that is affine in the index is one strided copy; any other map scatters through the offset
table. Packing then folds the lane axis. benchmarks/pack.py measures the first two.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from heterolayout.layout.blocked import Term
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import format_shape
from heterolayout.layout.services import NativePacker, native_packer

if TYPE_CHECKING:
    from heterolayout.layout.model import Layout


def pack(
    layout: Layout,
    array: np.ndarray,
    pad: int | float | None = None,
    native: bool | None = False,
) -> np.ndarray:
    """The physical buffer of a logical array; `native` lets the compiled conversion do it
    (`services.native_packer`, lent by `heterolayout.execution.native`): None where it pays
    off, True always."""
    logical = layout._static("pack", layout.logical_shape)
    array = np.asarray(array)
    if array.shape != logical:
        raise LayoutError(
            f"pack: array of shape {format_shape(array.shape)} does not match the logical shape "
            f"{format_shape(logical)}"
        )
    fill = layout.pad if pad is None else pad
    if layout.dtype is not None:
        fill = layout.dtype.check_pad(fill, "pack")
        if layout.dtype.is_integer:
            fill = layout.dtype.wrap(int(fill))
        array = array.astype(layout.dtype.numpy_dtype, copy=False)
    packer = _native(layout, array, array.size, native)
    if packer is not None:
        return packer.pack(layout, array, fill)
    physical = _scatter(layout, array, fill)
    if layout.packing is None or layout.packing.is_vector:
        return physical
    assert layout.dtype is not None
    return layout.packing.to_words(physical, layout.dtype)


def unpack(layout: Layout, physical: np.ndarray, native: bool | None = False) -> np.ndarray:
    """The logical array of a physical buffer; `native` as for `pack` (the layout must
    know its element type for the native path), decided on the physical slots (integer
    containers' lanes counted one by one)."""
    physical = np.asarray(physical)
    expected = layout._static("unpack", layout.physical_shape)
    packed = layout.packing is not None and not layout.packing.is_vector
    if packed:
        assert layout.packing is not None
        storage = expected[:-1]
        if physical.shape != storage:
            raise LayoutError(
                f"unpack: buffer of shape {format_shape(physical.shape)} does not match the "
                f"storage shape {format_shape(storage)} of {layout.packing.container} containers"
            )
        assert layout.dtype is not None
    elif physical.shape != expected:
        raise LayoutError(
            f"unpack: buffer of shape {format_shape(physical.shape)} does not match the physical "
            f"shape {format_shape(expected)}"
        )
    packer = _native(layout, physical, math.prod(expected), native)
    if packer is not None:
        return packer.unpack(layout, physical)
    if packed:
        assert layout.packing is not None and layout.dtype is not None
        physical = layout.packing.from_words(physical, expected[-1], layout.dtype)
    return _gather(layout, physical)


def _native(
    layout: Layout, array: np.ndarray, slots: int, native: bool | None
) -> NativePacker | None:
    """The compiled packer, where `native` asks for it and it takes `array` (of `slots`
    physical slots, an integer container's lanes counted one by one)."""
    if native is False:
        return None
    packer = native_packer(native)
    return packer if packer is not None and packer.wants(layout, array, slots, native) else None


def _scatter(layout: Layout, array: np.ndarray, fill: int | float) -> np.ndarray:
    physical_shape = layout._static("pack", layout.physical_shape)
    out = np.empty(physical_shape, dtype=array.dtype)
    if layout.blocked_terms is not None:
        plan = _digit_plan(layout)
        digits = out.transpose(plan.axes)
        for piece in plan.inside:
            digits[piece.digit_box] = array[piece.logical_box].reshape(piece.digit_shape)
        for box in plan.pad:
            np.copyto(digits[box], fill, casting="unsafe")
        return out
    view = _linear_view(layout, out)
    if view is not None:
        if layout.size != layout.logical_size:
            out.fill(fill)
        view[...] = array
        return out
    out.fill(fill)
    out.reshape(-1)[layout.offsets().ravel()] = array.ravel()
    return out


def _gather(layout: Layout, physical: np.ndarray) -> np.ndarray:
    logical = layout._static("unpack", layout.logical_shape)
    if layout.blocked_terms is not None:
        out = np.empty(logical, dtype=physical.dtype)
        plan = _digit_plan(layout)
        digits = physical.transpose(plan.axes)
        for piece in plan.inside:
            target = out[piece.logical_box].reshape(piece.digit_shape)
            assert target.size == 0 or np.may_share_memory(target, out), (
                "splitting axes must not copy"
            )
            target[...] = digits[piece.digit_box]
        return out
    physical = np.ascontiguousarray(physical)
    view = _linear_view(layout, physical)
    if view is not None:
        return np.ascontiguousarray(view)
    return physical.reshape(-1)[layout.offsets()]


Box = tuple[slice, ...]


@dataclass(frozen=True)
class Piece:
    """A sub-box of the logical array and the box of the digit view that holds it; the
    logical sub-box, its axes split into digits, has `digit_shape`."""

    logical_box: Box
    digit_box: Box
    digit_shape: tuple[int, ...]


@dataclass(frozen=True)
class DigitPlan:
    """How a blocked layout's physical buffer meets the logical array, box by box.

    The digit view is the physical buffer transposed by `axes`: logical dims in order, each
    as its digits, most significant first, i.e. the padded logical array split into digits.
    `inside` tiles the logical array and `pad` covers exactly the slots no logical element
    maps to. Copying piece by piece writes each element once, where padding the logical
    array first (`np.pad`) writes it twice, and only pad slots are filled.
    """

    axes: tuple[int, ...]
    inside: tuple[Piece, ...]
    pad: tuple[Box, ...]


def _digit_plan(layout: Layout) -> DigitPlan:
    terms = layout.blocked_terms
    assert terms is not None
    return _plan_of_terms(
        terms,
        layout._static("pack", layout.logical_shape),
        layout._static("pack", layout.physical_shape),
    )


@functools.lru_cache(maxsize=256)
def _plan_of_terms(
    terms: tuple[Term, ...], logical: tuple[int, ...], physical: tuple[int, ...]
) -> DigitPlan:
    dim_axes = [
        tuple(p for p, t in enumerate(terms) if t.dim == dim and t.size is None)
        + tuple(p for p, t in enumerate(terms) if t.dim == dim and t.size is not None)
        for dim in range(len(logical))
    ]
    radices = [tuple(physical[axis] for axis in axes) for axes in dim_axes]
    per_dim = [_dim_boxes(extent, r) for extent, r in zip(logical, radices, strict=True)]
    inside = tuple(
        Piece(
            logical_box=tuple(logical_slice for logical_slice, _, _ in parts),
            digit_box=tuple(s for _, digit_box, _ in parts for s in digit_box),
            digit_shape=tuple(size for _, _, sizes in parts for size in sizes),
        )
        for parts in itertools.product(*(dim_inside for dim_inside, _ in per_dim))
    )
    full = [(slice(None),) * len(r) for r in radices]
    pad = tuple(
        tuple(s for other in range(len(full)) for s in (box if other == dim else full[other]))
        for dim, (_, dim_pad) in enumerate(per_dim)
        for box in dim_pad
    )
    return DigitPlan(tuple(axis for axes in dim_axes for axis in axes), inside, pad)


DimPiece = tuple[slice, Box, tuple[int, ...]]
"""One dim's part of a Piece: logical slice, digit slices, digit extents."""


def _dim_boxes(extent: int, radices: tuple[int, ...]) -> tuple[list[DimPiece], list[Box]]:
    """One dim's range [0, extent) and its pad [extent, padded) as boxes of its digits.

    In mixed radix, [0, extent) is a union of boxes that fix the leading digits of `extent`
    and run one digit below its value (the rest free); [extent, padded) mirrors it.
    """
    weights = tuple(math.prod(radices[i + 1 :]) for i in range(len(radices)))
    if extent == radices[0] * weights[0]:
        return [(slice(None), (slice(None),) * len(radices), radices)], []
    digits = [(extent // w) % r for w, r in zip(weights, radices, strict=True)]
    inside: list[DimPiece] = []
    pad: list[Box] = []
    start = 0
    for j, (digit, weight) in enumerate(zip(digits, weights, strict=True)):
        prefix = tuple(slice(d, d + 1) for d in digits[:j])
        free = (slice(None),) * (len(radices) - j - 1)
        if digit:
            box = (*prefix, slice(0, digit), *free)
            sizes = (1,) * j + (digit,) + radices[j + 1 :]
            inside.append((slice(start, start + digit * weight), box, sizes))
        first_pad = digit if j == len(radices) - 1 else digit + 1
        if first_pad < radices[j]:
            pad.append((*prefix, slice(first_pad, radices[j]), *free))
        start += digit * weight
    return inside, pad


def _linear_view(layout: Layout, buffer: np.ndarray) -> np.ndarray | None:
    """A strided view of `buffer` with the logical shape, when the offset is affine."""
    linear = layout.linear
    if linear is None:
        return None
    strides, offset = linear
    if any(s < 0 for s in strides):
        return None
    flat = buffer.reshape(-1)
    item = flat.itemsize
    return np.lib.stride_tricks.as_strided(
        flat[offset:],
        shape=layout.static_logical_shape,
        strides=tuple(s * item for s in strides),
        writeable=True,
    )
