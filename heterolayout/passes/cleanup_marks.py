"""Functions marked for `layout-cleanup`: the passes that add loop nests (conversions, pad
fills, linalg ops as loops, guarded transfer lanes) mark the function around them, and
`layout-cleanup` tidies the marked functions only."""

from __future__ import annotations

from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Operation

from heterolayout.dialects.functions import enclosing_function

CLEANUP_MARK = "layout.cleanup"
"""Functions that received loop nests carry this unit attribute until `layout-cleanup`."""


def mark_for_cleanup(op: Operation) -> None:
    """The function around `op` received loop nests: `layout-cleanup` will tidy it."""
    function = enclosing_function(op)
    if function is not None:
        function.attributes[CLEANUP_MARK] = UnitAttr()
