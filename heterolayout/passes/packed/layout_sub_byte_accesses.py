"""`layout-sub-byte-accesses`: the last step of `layout-lower`. Vector accesses to sub-byte
elements (and element accesses to memrefs of bit vectors) go through the memref's bytes
(`sub_byte_accesses`), since upstream would move them as packed bits.

A program that had no layouts when `layout-lower` began keeps its own accesses: its first
step, `layout-erase-hints`, notes such a module with the unit attribute
`layout.without_layouts`, which this step reads and removes. The note is carried on the
module because the lowering erases what it is about. A module in which `layout-schedule` made
such accesses (an `i1` mask of a comparison, vectorized) is not noted: the schedule marks it
`layout.by_element`, which `layout-erase-hints` reads and removes, and its accesses mean
elements, as in a module with layouts.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from heterolayout.passes.collector import collector_paused
from heterolayout.passes.packed.sub_byte_accesses import access_sub_bytes_as_bytes
from heterolayout.passes.unchanged import left_unchanged

WITHOUT_LAYOUTS = "layout.without_layouts"
"""The unit attribute of a module that had no layouts when `layout-lower` began."""
BY_ELEMENT = "layout.by_element"
"""The unit attribute of a module without layouts in which `layout-schedule` made vector
accesses to sub-byte elements: they name elements, as the scalar accesses they replace did."""


@dataclass(frozen=True)
class LayoutSubByteAccessesPass(ModulePass):
    """Sub-byte vector accesses on the memref's bytes, unless the module is noted as
    without layouts (`layout.without_layouts`, removed); errors say `layout-lower`."""

    name = "layout-sub-byte-accesses"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if op.attributes.pop(WITHOUT_LAYOUTS, None) is not None:
            left_unchanged(self, op)  # only the note went, which nothing verifies
            return
        with collector_paused():
            if not access_sub_bytes_as_bytes(op, "layout-lower"):
                left_unchanged(self, op)
