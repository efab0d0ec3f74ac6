"""Which memref values carry a layout that heterolayout lowers: `value_layout`.

A memref type's layout (`layout_of`) lays out a buffer, except on a view: the builtin
`strided<…>` type of a `memref.subview`, `reinterpret_cast`, `collapse_shape`,
`expand_shape`, `view` or `transpose` result is upstream's description of the window the
view opens into its source's memory, which upstream lowers as it is (`static offsets`
included). Such a value has no layout of its own; `memref.cast` of it neither. A view of a
layout-typed buffer is another matter: its source carries the layout, and the passes refuse
or lower it there.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import OpResult, SSAValue

from heterolayout.dialects.conversion import is_builtin_strided, layout_of
from heterolayout.layout.model import Layout

VIEW_OPS = frozenset(
    {
        "memref.subview",
        "memref.reinterpret_cast",
        "memref.collapse_shape",
        "memref.expand_shape",
        "memref.view",
        "memref.transpose",
    }
)
"""Ops whose memref result aliases a window of their source's memory."""


def is_upstream_view(value: SSAValue) -> bool:
    """A view result (or a `memref.cast` of one) whose type has a builtin strided layout."""
    if not isinstance(value.type, MemRefType) or not is_builtin_strided(value.type):
        return False
    while isinstance(value, OpResult) and value.op.name == "memref.cast":
        value = value.op.operands[0]
    return isinstance(value, OpResult) and value.op.name in VIEW_OPS


def value_layout(value: SSAValue) -> Layout | None:
    """The layout heterolayout lowers for `value`: its type's, unless it is an upstream view."""
    if not isinstance(value.type, MemRefType) or is_upstream_view(value):
        return None
    return layout_of(value.type)
