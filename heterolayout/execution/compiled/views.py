"""The compiled engine's code for views: `memref.subview`, `reinterpret_cast`,
`collapse_shape`, `expand_shape`, `transpose`, `vector.type_cast` and byte views call the
shared `runtime.views` helpers (the interpreter's counterparts: `interp.views`).
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Operation

from heterolayout.dialects.diagnostics import where
from heterolayout.execution.compiled.writer import Emitter, Writer, mixed_text
from heterolayout.execution.interp.views import cast_shape, groups, kept_dims
from heterolayout.execution.runtime import memref as memory
from heterolayout.execution.runtime import views


def _view_lists(w: Writer, op: Operation) -> tuple[str, str, str]:
    names = w.uses(op.operands[1:])
    first, second = len(op.offsets), len(op.offsets) + len(op.sizes)  # type: ignore[attr-defined]
    return (
        mixed_text(op.static_offsets, names[:first]),  # type: ignore[attr-defined]
        mixed_text(op.static_sizes, names[first:second]),  # type: ignore[attr-defined]
        mixed_text(op.static_strides, names[second:]),  # type: ignore[attr-defined]
    )


def _subview(w: Writer, op: Operation) -> None:
    offsets, sizes, strides = _view_lists(w, op)
    kept = w.bind(kept_dims(op))
    source, at = w.use(op.operands[0]), w.bind(where(op))
    w.line(
        f"{w.define(op.results[0])} = _subview({source}, {offsets}, {sizes}, {strides}, {kept}, {at})"
    )


def _reinterpret_cast(w: Writer, op: Operation) -> None:
    offsets, sizes, strides = _view_lists(w, op)
    source, at = w.use(op.operands[0]), w.bind(where(op))
    w.line(
        f"{w.define(op.results[0])} = _reinterpret({source}, {offsets}[0], {sizes}, {strides}, {at})"
    )


def _collapse_shape(w: Writer, op: Operation) -> None:
    source, at = w.use(op.operands[0]), w.bind(where(op))
    w.line(f"{w.define(op.results[0])} = _collapse({source}, {groups(op)}, {at})")


def _expand_shape(w: Writer, op: Operation) -> None:
    shape = mixed_text(op.static_output_shape, w.uses(op.operands[1:]))  # type: ignore[attr-defined]
    source, at = w.use(op.operands[0]), w.bind(where(op))
    w.line(f"{w.define(op.results[0])} = _expand({source}, {groups(op)}, {shape}, {at})")


def _transpose(w: Writer, op: Operation) -> None:
    permutation = [r.position for r in op.permutation.data.results]  # type: ignore[attr-defined]
    source, at = w.use(op.operands[0]), w.bind(where(op))
    w.line(f"{w.define(op.results[0])} = _transpose({source}, {permutation}, {at})")


def _type_cast(w: Writer, op: Operation) -> None:
    source, at = w.use(op.operands[0]), w.bind(where(op))
    w.line(f"{w.define(op.results[0])} = _type_cast({source}, {cast_shape(op)}, {at})")


def _byte_view(w: Writer, op: Operation) -> None:
    plan, at = w.bind(views.byte_view_plan(op)), w.bind(where(op))
    w.line(f"{w.define(op.results[0])} = _byte_view({w.use(op.operands[0])}, {plan}, {at})")


EMITTERS: dict[str, Emitter] = {
    "memref.subview": _subview,
    "memref.reinterpret_cast": _reinterpret_cast,
    "memref.collapse_shape": _collapse_shape,
    "memref.expand_shape": _expand_shape,
    "memref.transpose": _transpose,
    "vector.type_cast": _type_cast,
    memory.BYTE_VIEW_OP: _byte_view,
}

HELPERS: dict[str, Any] = {
    "_subview": views.subview,
    "_reinterpret": views.reinterpret_cast,
    "_collapse": views.collapse_shape,
    "_expand": views.expand_shape,
    "_transpose": views.transpose,
    "_type_cast": views.type_cast,
    "_byte_view": memory.byte_view,
}
