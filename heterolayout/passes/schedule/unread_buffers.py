"""Second outputs nothing reads: a local allocation whose every read only feeds values
stored back into it, written by a loop nest that also writes other buffers, is dropped, with
the stores into it and the arithmetic only they used.

torch-mlir's Softmax keeps the arg max index beside each row's maximum, in a buffer nothing
reads: its `select` on the running maximum made the reduction no plain combination, so the
row maximum could not be vectorized (`reductions`). The buffer's uses are read off the op
roles (`dialects/roles.py`); any use that is not a scalar load, a scalar store or a free
(a view, a call, a vector access, an op heterolayout does not know) keeps the buffer. A
nest that writes nothing else is left as written (dead code is not this pass's concern),
and so is a buffer given a layout (the layout a user asked for is never dropped silently).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import func, memref
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.traits import IsTerminator, is_side_effect_free

from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.roles import roles_of
from heterolayout.passes.schedule.nest import LOOPS, loops_around


def drop_unread_buffers(function: func.FuncOp, say: Callable[[str], None]) -> bool:
    """Drop each unread local buffer of `function`; whether any was."""
    changed = False
    for alloc in [o for o in function.walk() if isinstance(o, memref.AllocOp | memref.AllocaOp)]:
        if layout_of(alloc.memref.type) is not None:
            continue
        found = _unread(alloc.memref)
        if found is None:
            continue
        loads, others = found
        _erase(alloc, loads, others)
        say(f"dropped a {alloc.memref.type} buffer: it is written but never read")
        changed = True
    return changed


def _unread(buffer: SSAValue) -> tuple[list[Operation], list[Operation]] | None:
    """(its loads, its stores and frees) when every load only feeds its stores' values."""
    loads: list[Operation] = []
    stores: list[Operation] = []
    frees: list[Operation] = []
    for use in buffer.uses:
        op, position = use.operation, use.index
        roles = roles_of(op)
        if roles is None:
            return None
        scalar = roles.accesses and not roles.vector and not roles.prefetch
        if position in roles.frees:
            frees.append(op)
        elif scalar and position in roles.writes and position not in roles.reads:
            stores.append(op)
        elif scalar and position in roles.reads and position not in roles.writes:
            loads.append(op)
        else:
            return None
    if not stores or any(op.operands[0] == buffer for op in stores):
        return None
    if not any(_writes_another_buffer(op, buffer) for op in stores):
        return None
    if not all(_only_stored_back(load.results[0], stores) for load in loads):
        return None
    return loads, [*stores, *frees]


def _writes_another_buffer(store: Operation, buffer: SSAValue) -> bool:
    """The outermost loop around `store` also writes a buffer other than `buffer`."""
    loops = loops_around(store)
    if not loops:
        return False
    for op in loops[-1].walk():
        roles = roles_of(op)
        if roles is not None and any(op.operands[w] != buffer for w in roles.writes):
            return True
    return False


def _only_stored_back(value: SSAValue, stores: list[Operation]) -> bool:
    """Every value computed from `value` ends as the value one of `stores` stores."""
    seen: set[SSAValue] = set()
    work = [value]
    while work:
        current = work.pop()
        if current in seen:
            continue
        seen.add(current)
        for use in current.uses:
            user = use.operation
            if user in stores:
                if use.index != 0:
                    return False
                continue
            if user.regions or user.has_trait(IsTerminator) or not is_side_effect_free(user):
                return False
            work.extend(user.results)
    return True


def _erase(alloc: Operation, loads: list[Operation], others: list[Operation]) -> None:
    """The stores and frees, then what only they used (pure ops, the buffer's loads), the
    allocation, and the loops left with nothing in them."""
    nests = {loops[-1] for op in others if (loops := loops_around(op))}
    work: list[Operation] = list(loads)  # one whose value nothing uses is reached from no store
    for op in others:
        work.extend(o.owner for o in op.operands if isinstance(o.owner, Operation))
        Rewriter.erase_op(op)
    removable = set(loads)
    while work:
        op = work.pop()
        if op.parent is None or any(r.uses for r in op.results):
            continue
        if op not in removable and (op.regions or not is_side_effect_free(op)):
            continue
        work.extend(o.owner for o in op.operands if isinstance(o.owner, Operation))
        Rewriter.erase_op(op)
    Rewriter.erase_op(alloc)
    for nest in nests:
        if _emptied(nest):
            Rewriter.erase_op(nest)


def _emptied(loop: Operation) -> bool:
    """Erase the loops in `loop` that hold nothing but their terminator; whether `loop`
    does now."""
    block = loop.regions[0].block
    for inner in [o for o in block.ops if isinstance(o, LOOPS)]:
        if _emptied(inner):
            Rewriter.erase_op(inner)
    return len(block.ops) == 1 and not loop.results
