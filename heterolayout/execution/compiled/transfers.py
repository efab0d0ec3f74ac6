"""The compiled engine's code for `vector.transfer_read` and `vector.transfer_write`: calls
of the shared `runtime.transfers` helpers with the op's plan.
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Operation

from heterolayout.execution.compiled.writer import Emitter, Writer, tuple_text
from heterolayout.execution.runtime import transfers


def _transfer(w: Writer, op: Operation) -> None:
    plan = w.bind(transfers.plan(op))
    count = len(op.indices)  # type: ignore[attr-defined]
    names = w.uses(op.operands)
    mask = names[-1] if op.mask is not None else "None"  # type: ignore[attr-defined]
    if op.name == "vector.transfer_read":
        source, indices, padding = names[0], names[1 : 1 + count], names[1 + count]
        w.line(
            f"{w.define(op.results[0])} = _transfer_read({plan}, {source}, {tuple_text(indices)}, {padding}, {mask})"
        )
    else:
        vector, target, indices = names[0], names[1], names[2 : 2 + count]
        w.line(f"_transfer_write({plan}, {vector}, {target}, {tuple_text(indices)}, {mask})")


EMITTERS: dict[str, Emitter] = {
    "vector.transfer_read": _transfer,
    "vector.transfer_write": _transfer,
}

HELPERS: dict[str, Any] = {
    "_transfer_read": transfers.read,
    "_transfer_write": transfers.write,
}
