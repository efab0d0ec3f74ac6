"""The root of a memref value: the one place that answers "which buffer is this?".

Two questions, each asked in one way everywhere:
- `buffer_root`: the buffer a value stands for, through `memref.cast`s only. A view is a
  buffer value of its own here: `layout.assign` binds the buffer it names, and a view of an
  assigned buffer takes its layout from the root composed with its window (`views`).
- `storage_root`: the buffer whose memory a value is, through casts and views
  (`roles.VIEW_OPS`) down to the allocation, argument or global. Aliasing questions (may two
  accesses touch the same memory?) ask this one.
"""

from __future__ import annotations

from xdsl.ir import OpResult, SSAValue

from heterolayout.dialects.roles import VIEW_OPS


def buffer_root(value: SSAValue) -> SSAValue:
    """The buffer a memref value stands for: through `memref.cast` to its source."""
    while isinstance(value, OpResult) and value.op.name == "memref.cast":
        value = value.op.operands[0]
    return value


def storage_root(value: SSAValue) -> SSAValue:
    """The buffer whose memory a memref value is: through `memref.cast` and the views
    (`memref.subview`, `reinterpret_cast`, `collapse_shape`, …) to their source."""
    while isinstance(value, OpResult) and (
        value.op.name == "memref.cast" or value.op.name in VIEW_OPS
    ):
        value = value.op.operands[0]
    return value
