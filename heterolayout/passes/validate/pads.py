"""Pad lanes of a whole-container store: the slots it overwrites that hold no element.

A store of a whole container (`container_access`) shorter than the container writes the
lanes after the vector with the pad value. That is right only where those lanes are pad: no
logical element lives there. The layout's inverse (`Layout.inverse`: physical index to the
index in the padded logical box, or its table of slots) says which element a slot holds; a
slot is pad where that index leaves the logical box. Checked here at points (arrays of
container indices) and in normal form (expressions over the proof's atoms).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.ir.affine import AffineExpr

from heterolayout.layout.model import Layout
from heterolayout.layout.simplify import IndexSimplifier
from heterolayout.passes.validate.terms import Array, Term, evaluate_affine


@dataclass(frozen=True)
class Pad:
    """Lane `lane` of the container at `physical` is written with the pad value."""

    physical: list[Term]
    lane: int


def _container_index(layout: Layout, flat: bool, physical: Sequence[Array]) -> list[Array]:
    """The container's physical index (one offset in memory order when `flat`)."""
    if not flat:
        return list(physical)
    shape = layout.storage_shape
    rest = np.asarray(physical[0])
    index = []
    for extent in reversed(shape[1:]):
        assert extent is not None
        index.append(rest % extent)
        rest = rest // extent
    return [rest, *reversed(index)]


def held_elements(
    layout: Layout, flat: bool, physical: Sequence[Array], lane: int
) -> tuple[Array, list[Array]] | None:
    """Where lane `lane` of the container at `physical` holds a logical element (a boolean
    array over the points), and that element's index; None when the layout cannot say."""
    index = [*_container_index(layout, flat, physical), np.full(np.shape(physical[0]), lane)]
    inverse = layout.inverse()
    if inverse.index_map is not None:
        logical = [np.asarray(evaluate_affine(r, index)) for r in inverse.index_map.results]
        held = np.ones(np.shape(physical[0]), dtype=bool)
        for value, extent in zip(logical, layout.logical_shape, strict=True):
            held &= value >= 0
            if extent is not None:
                held &= value < extent
        return held, logical
    if layout.is_dynamic:
        return None
    shape = layout.static_physical_shape
    inside = np.ones(np.shape(physical[0]), dtype=bool)
    for value, extent in zip(index, shape, strict=True):
        inside &= (value >= 0) & (value < extent)
    offsets = np.ravel_multi_index(tuple(np.where(inside, v, 0) for v in index), shape)
    flat_logical = np.where(inside, inverse.table[offsets], -1)
    logical = list(np.unravel_index(np.maximum(flat_logical, 0), layout.static_logical_shape))
    return flat_logical >= 0, logical


def pad_in_normal_form(
    layout: Layout,
    flat: bool,
    physical: Sequence[AffineExpr],
    lane: int,
    simplifier: IndexSimplifier,
) -> bool:
    """Whether lane `lane` of the container at `physical` (expressions) is pad at every
    point: one dim of the element it would hold is outside the logical box everywhere."""
    inverse = layout.inverse().index_map
    if inverse is None:
        return False
    index = list(physical)
    if flat:
        index = _unflatten(layout, index[0])
    index.append(AffineExpr.constant(lane))
    for result, extent in zip(inverse.results, layout.logical_shape, strict=True):
        bounds = simplifier.range_of(
            simplifier.simplify(result.replace_dims_and_symbols(index, []))
        )
        if bounds is not None and (bounds[1] < 0 or (extent is not None and bounds[0] >= extent)):
            return True
    return False


def _unflatten(layout: Layout, offset: AffineExpr) -> list[AffineExpr]:
    shape = layout.storage_shape
    index: list[AffineExpr] = []
    stride = 1
    for extent in reversed(shape[1:]):
        assert extent is not None
        index.append((offset // stride) % extent)
        stride *= extent
    return [offset // stride, *reversed(index)]
