"""The compiled engine's code for linalg ops: each becomes its loop nest
(`dialects.structured`), loading its operands and storing its outputs at every point (the
interpreter's counterpart: `interp.linalg`).
"""

from __future__ import annotations

from xdsl.ir import Operation

from heterolayout.dialects.diagnostics import where
from heterolayout.dialects.structured import StructureError, is_structured, structured
from heterolayout.execution.compiled.writer import Emitter, Writer, tuple_text
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime.expressions import ExprContext
from heterolayout.execution.runtime.semantics import affine_results


def _structured(w: Writer, op: Operation) -> None:
    try:
        plan = structured(op)
    except StructureError as error:
        raise ExecutionError(str(error)) from None
    names = w.uses(op.operands)
    at = w.bind(where(op))
    extents = []
    for operand, dim in plan.extents:
        extent = w.fresh("e")
        w.line(f"{extent} = _dim({names[operand]}, {dim}, {at})")
        extents.append(extent)
    loops = [w.fresh("i") for _ in extents]
    for number, (loop, extent) in enumerate(zip(loops, extents, strict=True)):
        w.line(f"{'    ' * number}for {loop} in range({extent}):")
    w.depth += len(loops)
    context = ExprContext(w.bind, where(op))
    indices = [tuple_text(affine_results(m, loops, context)) for m in plan.maps]
    values = []
    for name, index, is_memref in zip(names, indices, plan.memrefs, strict=True):
        if not is_memref:
            values.append(name)
            continue
        value = w.fresh()
        w.line(f"{value} = _load({name}, {index}, {at})")
        values.append(value)
    outputs = list(zip(names[plan.inputs :], indices[plan.inputs :], strict=True))

    def store(terminator: Operation, yielded: list[str]) -> None:
        for (output, index), value in zip(outputs, yielded, strict=True):
            w.line(f"_store({output}, {index}, {value}, {at})")

    w.linalg_loops.append(loops)
    w.line("if True:")
    w.region(op.regions[0], values, store)
    w.linalg_loops.pop()
    w.depth -= len(loops)


def _index(w: Writer, op: Operation) -> None:
    loops = w.linalg_loops[-1]
    w.define(op.results[0], loops[op.dim.value.data])  # type: ignore[attr-defined]


def emitter_for(op: Operation) -> Emitter | None:
    """The emitter of a linalg structured op (their names are many; the test is the op's)."""
    return _structured if is_structured(op) else None


EMITTERS: dict[str, Emitter] = {"linalg.index": _index}
