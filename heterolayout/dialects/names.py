"""How diagnostics name an op: by its own name, also when the context does not know it."""

from __future__ import annotations

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation


def op_name(op: Operation) -> str:
    """The op's own name (xDSL names every unregistered op `builtin.unregistered`)."""
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name
