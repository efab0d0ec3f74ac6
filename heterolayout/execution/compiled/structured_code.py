"""The compiled engine's code for what real inputs add to hand-written loops: views,
linalg loop nests, `scf.parallel` with its reductions, `cf` branches between blocks and
vector transfers. Same meaning as `extended_functions`, through the same helpers.

A function with several blocks becomes a loop over a block number: each block is a
branch of it, a branch op assigns the target block's arguments and its number.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from xdsl.dialects import affine, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import Block, Operation, Region

from heterolayout.dialects.diagnostics import where
from heterolayout.dialects.structured import StructureError, is_structured, structured
from heterolayout.dialects.upstream.affine_index import delinearize, linearize
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.interp.functions import no_assigned_value
from heterolayout.execution.interp.structured_functions import cast_shape, groups, kept_dims
from heterolayout.execution.runtime import memref as memory
from heterolayout.execution.runtime import transfers, views
from heterolayout.execution.runtime.semantics import (
    ExprContext,
    affine_results,
    bound_groups,
    parallel_reductions,
    reduction_expression,
    reduction_identity,
)

if TYPE_CHECKING:
    from heterolayout.execution.compiled.engine import Terminator, _Writer

Emitter = Callable[["_Writer", Operation], None]


def _tuple(items: list[str]) -> str:
    return f"({''.join(i + ', ' for i in items)})"


def _mixed(w: _Writer, static: Any, dynamic: list[str]) -> str:
    remaining = iter(dynamic)
    return _tuple([next(remaining) if v == DYNAMIC_INDEX else str(v) for v in static.get_values()])


def _view_lists(w: _Writer, op: Operation) -> tuple[str, str, str]:
    names = w.uses(op.operands[1:])
    first, second = len(op.offsets), len(op.offsets) + len(op.sizes)  # type: ignore[attr-defined]
    return (
        _mixed(w, op.static_offsets, names[:first]),  # type: ignore[attr-defined]
        _mixed(w, op.static_sizes, names[first:second]),  # type: ignore[attr-defined]
        _mixed(w, op.static_strides, names[second:]),  # type: ignore[attr-defined]
    )


def _subview(w: _Writer, op: Operation) -> None:
    offsets, sizes, strides = _view_lists(w, op)
    kept = w.bind(kept_dims(op))
    source, at = w.use(op.operands[0]), w.bind(where(op))
    w.line(
        f"{w.define(op.results[0])} = _subview({source}, {offsets}, {sizes}, {strides}, {kept}, {at})"
    )


def _reinterpret_cast(w: _Writer, op: Operation) -> None:
    offsets, sizes, strides = _view_lists(w, op)
    source, at = w.use(op.operands[0]), w.bind(where(op))
    w.line(
        f"{w.define(op.results[0])} = _reinterpret({source}, {offsets}[0], {sizes}, {strides}, {at})"
    )


def _collapse_shape(w: _Writer, op: Operation) -> None:
    source, at = w.use(op.operands[0]), w.bind(where(op))
    w.line(f"{w.define(op.results[0])} = _collapse({source}, {groups(op)}, {at})")


def _expand_shape(w: _Writer, op: Operation) -> None:
    shape = _mixed(w, op.static_output_shape, w.uses(op.operands[1:]))  # type: ignore[attr-defined]
    source, at = w.use(op.operands[0]), w.bind(where(op))
    w.line(f"{w.define(op.results[0])} = _expand({source}, {groups(op)}, {shape}, {at})")


def _transpose(w: _Writer, op: Operation) -> None:
    permutation = [r.position for r in op.permutation.data.results]  # type: ignore[attr-defined]
    source, at = w.use(op.operands[0]), w.bind(where(op))
    w.line(f"{w.define(op.results[0])} = _transpose({source}, {permutation}, {at})")


def _type_cast(w: _Writer, op: Operation) -> None:
    source, at = w.use(op.operands[0]), w.bind(where(op))
    w.line(f"{w.define(op.results[0])} = _type_cast({source}, {cast_shape(op)}, {at})")


def _delinearize(w: _Writer, op: Operation) -> None:
    index, *dynamic = w.uses(op.operands)
    basis = _mixed(w, op.static_basis, dynamic)  # type: ignore[attr-defined]
    results = [w.define(r) for r in op.results]
    w.line(f"{', '.join(results)}, = _delinearize({index}, {basis}, {len(results)})")


def _linearize(w: _Writer, op: Operation) -> None:
    names = w.uses(op.operands)
    count = len(op.multi_index)  # type: ignore[attr-defined]
    basis = _mixed(w, op.static_basis, names[count:])  # type: ignore[attr-defined]
    w.line(f"{w.define(op.results[0])} = _linearize({_tuple(names[:count])}, {basis})")


def _transfer(w: _Writer, op: Operation) -> None:
    plan = w.bind(transfers.plan(op))
    count = len(op.indices)  # type: ignore[attr-defined]
    names = w.uses(op.operands)
    mask = names[-1] if op.mask is not None else "None"  # type: ignore[attr-defined]
    if op.name == "vector.transfer_read":
        source, indices, padding = names[0], names[1 : 1 + count], names[1 + count]
        w.line(
            f"{w.define(op.results[0])} = _transfer_read({plan}, {source}, {_tuple(indices)}, {padding}, {mask})"
        )
    else:
        vector, target, indices = names[0], names[1], names[2 : 2 + count]
        w.line(f"_transfer_write({plan}, {vector}, {target}, {_tuple(indices)}, {mask})")


def _assert(w: _Writer, op: Operation) -> None:
    message = w.bind(f"{where(op)}: assertion failed: {op.msg.data}")  # type: ignore[attr-defined]
    w.line(f"if not {w.use(op.operands[0])}: raise _execution_error({message})")


# ---- scf.parallel ---------------------------------------------------------------------------
def _parallel(w: _Writer, op: Operation) -> None:
    assert isinstance(op, scf.ParallelOp)
    rank = len(op.lowerBound)
    names = w.uses(op.operands)
    accumulators = [w.fresh() for _ in op.initVals]
    if accumulators:
        w.line(f"{', '.join(accumulators)}, = {_tuple(names[3 * rank :])}")
    at = w.bind(where(op))
    for step in names[2 * rank : 3 * rank]:
        w.line(f"if {step} <= 0: raise _step_error({at}, {step})")
    ivs = [w.fresh("i") for _ in range(rank)]
    for number, iv in enumerate(ivs):
        w.line(
            f"{'    ' * number}for {iv} in range({names[number]}, {names[rank + number]}, {names[2 * rank + number]}):"
        )
    body = op.body.block
    for arg, iv in zip(body.args, ivs, strict=True):
        w.define(arg, iv)
    w._depth += rank
    w.line("if True:")
    w.indented(lambda: w.block(body, _reduce_into(w, accumulators)))
    w._depth -= rank
    for result, name in zip(op.results, accumulators, strict=True):
        w.define(result, name)


# ---- affine.parallel ------------------------------------------------------------------------
def _affine_parallel(w: _Writer, op: Operation) -> None:
    """Loops over the iterations in order; each affine.yield folds its values onto the
    results by their reductions (`semantics.reduction_expression`)."""
    assert isinstance(op, affine.ParallelOp)
    names = w.uses(op.operands)
    context = ExprContext(w.bind, where(op))
    lower_map, upper_map = op.lowerBoundsMap.data, op.upperBoundsMap.data
    count = lower_map.num_dims + lower_map.num_symbols
    lower_groups, upper_groups = bound_groups(op)
    lows = _grouped(affine_results(lower_map, names[:count], context), lower_groups, "max")
    highs = _grouped(affine_results(upper_map, names[count:], context), upper_groups, "min")
    steps = [s.value.data for s in op.steps]
    if any(step <= 0 for step in steps):
        raise ExecutionError(f"{where(op)}: steps must be positive, got {steps}")
    reductions = parallel_reductions(op)
    unset = w.bind(_UNSET)
    accumulators = [w.fresh() for _ in reductions]
    for accumulator, (kind, element) in zip(accumulators, reductions, strict=True):
        identity = reduction_identity(kind, element)
        w.line(f"{accumulator} = {unset if identity is None else w.bind(identity)}")
    ivs = [w.fresh("i") for _ in steps]
    for number, (iv, low, high, step) in enumerate(zip(ivs, lows, highs, steps, strict=True)):
        w.line(f"{'    ' * number}for {iv} in range({low}, {high}, {step}):")
    body = op.body.block
    for arg, iv in zip(body.args, ivs, strict=True):
        w.define(arg, iv)

    def fold(terminator: Operation, values: list[str]) -> None:
        for accumulator, (kind, element), value in zip(
            accumulators, reductions, values, strict=True
        ):
            w.line(f"{accumulator} = {reduction_expression(kind, accumulator, value, element)}")

    w._depth += len(ivs)
    w.line("if True:")
    w.indented(lambda: w.block(body, fold))
    w._depth -= len(ivs)
    message = w.bind(no_assigned_value(op))
    for accumulator, (kind, _) in zip(accumulators, reductions, strict=True):
        if kind == "assign":
            w.line(f"if {accumulator} is {unset}: raise {message}")
    for result, accumulator in zip(op.results, accumulators, strict=True):
        w.define(result, accumulator)


_UNSET = object()
"""An "assign" result no iteration has yielded yet."""


def _grouped(bounds: list[str], groups: list[int], pick: str) -> list[str]:
    """Each loop's bound: the max (or min) of its group of the map's results."""
    grouped, start = [], 0
    for size in groups:
        group = bounds[start : start + size]
        grouped.append(group[0] if size == 1 else f"{pick}({', '.join(group)})")
        start += size
    return grouped


def _reduce_into(w: _Writer, accumulators: list[str]) -> Terminator:
    """scf.reduce: each region combines its accumulator with the iteration's value."""

    def terminator(op: Operation, values: list[str]) -> None:
        for region, accumulator, value in zip(op.regions, accumulators, values, strict=True):
            w.line("if True:")
            w.region(region, [accumulator, value], w.assign_to([accumulator]))

    return terminator


# ---- linalg ---------------------------------------------------------------------------------
def _structured(w: _Writer, op: Operation) -> None:
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
    w._depth += len(loops)
    context = ExprContext(w.bind, where(op))
    indices = [_tuple(affine_results(m, loops, context)) for m in plan.maps]
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

    stack: list[list[str]] = w.__dict__.setdefault("linalg_loops", [])
    stack.append(loops)
    w.line("if True:")
    w.region(op.regions[0], values, store)
    stack.pop()
    w._depth -= len(loops)


def _index(w: _Writer, op: Operation) -> None:
    loops = w.__dict__["linalg_loops"][-1]
    w.define(op.results[0], loops[op.dim.value.data])  # type: ignore[attr-defined]


# ---- functions of several blocks ------------------------------------------------------------
def emit_blocks(w: _Writer, region: Region, terminator: Terminator) -> None:
    """The blocks of a function body as branches of a loop over the block number."""
    numbers = {block: number for number, block in enumerate(region.blocks)}
    w.__dict__.setdefault("block_numbers", {}).update(numbers)
    for block in list(region.blocks)[1:]:
        for arg in block.args:
            w.define(arg, w.fresh("b"))
    w.line("_b = 0")
    w.line("while True:")
    w._depth += 1
    for block, number in numbers.items():
        w.line(f"{'if' if number == 0 else 'elif'} _b == {number}:")
        w.indented(functools.partial(w.block, block, terminator))
    w._depth -= 1


def _jump(w: _Writer, block: Block, values: list[str]) -> None:
    if block.args:
        w.line(f"{', '.join(w.uses(block.args))}, = {_tuple(values)}")
    w.line(f"_b = {w.__dict__['block_numbers'][block]}")
    w.line("continue")


def _br(w: _Writer, op: Operation) -> None:
    _jump(w, op.successors[0], w.uses(op.operands))


def _cond_br(w: _Writer, op: Operation) -> None:
    condition, *rest = w.uses(op.operands)
    then_count = len(op.then_arguments)  # type: ignore[attr-defined]
    w.line(f"if {condition}:")
    w.indented(lambda: _jump(w, op.successors[0], rest[:then_count]))
    w.line("else:")
    w.indented(lambda: _jump(w, op.successors[1], rest[then_count:]))


def _byte_view(w: _Writer, op: Operation) -> None:
    plan, at = w.bind(views.byte_view_plan(op)), w.bind(where(op))
    w.line(f"{w.define(op.results[0])} = _byte_view({w.use(op.operands[0])}, {plan}, {at})")


def _hint(w: _Writer, op: Operation) -> None:
    """memref.prefetch and affine.prefetch: hints that change no value."""


def emitter_for(op: Operation) -> Emitter | None:
    """The emitter of a linalg structured op (their names are many; the test is the op's)."""
    return _structured if is_structured(op) else None


def _execution_error(message: str) -> ExecutionError:
    return ExecutionError(message)


EMITTERS: dict[str, Emitter] = {
    "memref.subview": _subview,
    "memref.reinterpret_cast": _reinterpret_cast,
    "memref.collapse_shape": _collapse_shape,
    "memref.expand_shape": _expand_shape,
    "memref.transpose": _transpose,
    "vector.type_cast": _type_cast,
    memory.BYTE_VIEW_OP: _byte_view,
    "memref.prefetch": _hint,
    "affine.prefetch": _hint,
    "affine.delinearize_index": _delinearize,
    "affine.linearize_index": _linearize,
    "vector.transfer_read": _transfer,
    "vector.transfer_write": _transfer,
    "scf.parallel": _parallel,
    "affine.parallel": _affine_parallel,
    "linalg.index": _index,
    "cf.br": _br,
    "cf.cond_br": _cond_br,
    "cf.assert": _assert,
}

HELPERS: dict[str, Any] = {
    "_subview": views.subview,
    "_reinterpret": views.reinterpret_cast,
    "_collapse": views.collapse_shape,
    "_expand": views.expand_shape,
    "_transpose": views.transpose,
    "_type_cast": views.type_cast,
    "_byte_view": memory.byte_view,
    "_delinearize": delinearize,
    "_linearize": linearize,
    "_transfer_read": transfers.read,
    "_transfer_write": transfers.write,
    "_execution_error": _execution_error,
    "_dim": memory.dim,
}
