"""The numpy reference: `pack` and `unpack` for every layout.

Three strategies, chosen from the layout's form: a blocked (digit-model) map is numpy's own
pad / reshape / transpose / copy; a map that is affine in the index is one strided copy; any
other map scatters through the offset table. Packing then folds the lane axis.
"""

from __future__ import annotations

import numpy as np

from heterolayout.layout.blocked import block_product
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.model import Layout, format_shape


def pack(layout: Layout, array: np.ndarray, pad: int | float | None = None) -> np.ndarray:
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
        array = array.astype(layout.dtype.numpy_dtype, copy=False)
    physical = _scatter(layout, array, fill)
    if layout.packing is None or layout.packing.is_vector:
        return physical
    assert layout.dtype is not None
    return layout.packing.to_words(physical, layout.dtype)


def unpack(layout: Layout, physical: np.ndarray) -> np.ndarray:
    physical = np.asarray(physical)
    expected = layout._static("unpack", layout.physical_shape)
    if layout.packing is not None and not layout.packing.is_vector:
        storage = expected[:-1]
        if physical.shape != storage:
            raise LayoutError(
                f"unpack: buffer of shape {format_shape(physical.shape)} does not match the "
                f"storage shape {format_shape(storage)} of {layout.packing.container} containers"
            )
        assert layout.dtype is not None
        physical = layout.packing.from_words(physical, expected[-1], layout.dtype)
    if physical.shape != expected:
        raise LayoutError(
            f"unpack: buffer of shape {format_shape(physical.shape)} does not match the physical "
            f"shape {format_shape(expected)}"
        )
    return _gather(layout, physical)


def _scatter(layout: Layout, array: np.ndarray, fill: int | float) -> np.ndarray:
    physical_shape = layout._static("pack", layout.physical_shape)
    terms = layout.blocked_terms
    if terms is not None:
        padded_shape, digit_shape, order = _digit_view(layout)
        if padded_shape != array.shape:
            padded = np.full(padded_shape, fill, dtype=array.dtype)
            padded[tuple(slice(0, e) for e in array.shape)] = array
            array = padded
        return np.ascontiguousarray(array.reshape(digit_shape).transpose(order))
    out = np.empty(physical_shape, dtype=array.dtype)
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
    terms = layout.blocked_terms
    if terms is not None:
        padded_shape, _, order = _digit_view(layout)
        inverse = np.argsort(order)
        padded = physical.transpose(inverse).reshape(padded_shape)
        return np.ascontiguousarray(padded[tuple(slice(0, e) for e in logical)])
    physical = np.ascontiguousarray(physical)
    view = _linear_view(layout, physical)
    if view is not None:
        return np.ascontiguousarray(view)
    return physical.reshape(-1)[layout.offsets()]


def _digit_view(layout: Layout) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Padded logical shape, its split into digits (most significant first per dim), and the
    transpose from that digit order to the physical order."""
    terms = layout.blocked_terms
    assert terms is not None
    logical = layout._static("pack", layout.logical_shape)
    physical = layout._static("pack", layout.physical_shape)
    padded: list[int] = []
    digit_shape: list[int] = []
    digit_position: dict[int, int] = {}
    for dim, extent in enumerate(logical):
        block = block_product(terms, dim)
        rest = -(-extent // block)
        padded.append(rest * block)
        for position, term in enumerate(terms):
            if term.dim == dim and term.size is None:
                digit_position[position] = len(digit_shape)
                digit_shape.append(rest)
        for position, term in enumerate(terms):
            if term.dim == dim and term.size is not None:
                digit_position[position] = len(digit_shape)
                digit_shape.append(physical[position])
    order = tuple(digit_position[p] for p in range(len(terms)))
    return tuple(padded), tuple(digit_shape), order


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
        shape=layout.logical_shape,
        strides=tuple(s * item for s in strides),
        writeable=True,
    )
