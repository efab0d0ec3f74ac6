"""Where a target layout puts things, for `layout-explain`: its lanes (TPU) or banks
(partition). This is provenance: a `Layout` does not know which notation built it, so the
tool keeps the attribute it parsed and asks it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from heterolayout.layout.expressions import format_index
from heterolayout.layout.model import Layout
from heterolayout.layout.partition import PartitionParams
from heterolayout.layout.tpu import TpuParams, channels_per_lane, split_address

TargetParams = TpuParams | PartitionParams


@dataclass(frozen=True)
class Placement:
    """The leading `unit_dims` physical dims number the lanes or banks; the rest is the
    place inside one."""

    params: TargetParams
    unit: str
    unit_dims: int
    unit_shape: tuple[int, ...]
    slots_per_unit: int

    @staticmethod
    def of(layout: Layout, params: TargetParams) -> Placement:
        count = 1 if isinstance(params, TpuParams) else len(params.dims)
        unit_shape = layout.static_physical_shape[:count]
        return Placement(
            params,
            "lane" if isinstance(params, TpuParams) else "bank",
            count,
            unit_shape,
            layout.size // math.prod(unit_shape),
        )

    @property
    def units(self) -> int:
        return math.prod(self.unit_shape)

    def unit_label(self, unit: int) -> str:
        """`lane 2`, `bank 3`, or `bank (1,0)` for several bank dims."""
        if self.unit_dims == 1:
            return f"{self.unit} {unit}"
        return (
            f"{self.unit} {format_index([int(i) for i in np.unravel_index(unit, self.unit_shape)])}"
        )

    def element_counts(self, layout: Layout) -> np.ndarray:
        """Logical elements held by each lane or bank (flat unit order)."""
        units = layout.offsets().ravel() // self.slots_per_unit
        return np.bincount(units, minlength=self.units)

    def summary(self, layout: Layout) -> str:
        """One line: what the target parameters make of this shape."""
        if isinstance(self.params, PartitionParams):
            return self._partition_summary(self.params, layout)
        params, shape = self.params, layout.static_logical_shape
        n, c, h, w = params.view_shape(shape)
        rows = channels_per_lane(params.lanes, params.start, c)
        strides = params.strides(shape, layout.dtype)
        unit = "words" if params.block > 1 else "elements"
        parts = [f"Sophgo TPU local memory, {_count_of(params.lanes, 'lane')} (NPUs)"]
        if params.matrix is not None:
            parts.append(
                f"the {shape[0]}x{shape[1]} matrix viewed as ({shape[0]}, {c}, 1, {params.matrix})"
            )
        if params.mode is not None:
            blocked = "I" if params.mode == "2IC" else "N"
            parts.append(
                f"{params.mode} mode: {params.block} elements of {blocked} per word, "
                f"viewed as ({n}, {c}, {h}, {w})"
            )
        shifted = f"({params.start} + c)" if params.start else "c"
        parts.append(f"channel c on lane {shifted} mod {params.lanes}")
        parts.append(f"{_count_of(rows, 'channel row')} per lane")
        parts.append(
            f"strides in {unit}: N {strides[0]}, C {strides[1]}, H {strides[2]}, W {strides[3]}"
        )
        if params.lmem is not None:
            address = params.address if params.address is not None else params.start * params.lmem
            lane, offset = split_address(address, params.lmem)
            parts.append(
                f"lmem = {params.lmem} bytes per lane, address {address} = "
                f"lane {lane} · {params.lmem} + {offset}"
            )
        return "; ".join(parts)

    def _partition_summary(self, params: PartitionParams, layout: Layout) -> str:
        factors = params.factors(layout.logical_shape)
        parts = [
            f"{kind} dim {dim} into {_count_of(factor, 'bank')}"
            for kind, dim, factor in zip(params.kinds, params.dims, factors, strict=True)
        ]
        return f"FPGA partition into {_count_of(self.units, 'bank')}: " + ", ".join(parts)

    def describe(self, physical: Sequence[int]) -> str:
        """A physical index in the target's words: `lane 2, offset 5` or `bank 1, index (0,3)`."""
        unit = physical[: self.unit_dims]
        head = (
            f"{self.unit} {unit[0]}" if self.unit_dims == 1 else f"{self.unit} {format_index(unit)}"
        )
        rest = physical[self.unit_dims :]
        if isinstance(self.params, TpuParams):
            text = f"{head}, offset {rest[0]}"
            if len(rest) > 1:
                text += f", element {rest[1]} of the {self.params.mode} word"
            return text
        return f"{head}, index {format_index(rest)}"


def _count_of(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
