"""Fusion: an element-wise nest runs inside the nest next to it, so an activation makes one
trip through memory (oneDNN's post-ops, onnxruntime's fused convolutions).

Two nests that follow each other in a block, with only arithmetic and static allocations
between them, one writing a buffer the other touches, fuse when the one with fewer loops is
a perfect nest whose loops are the other's outer loops (the same first value, step and trip
count each): before the other's inner loops when it comes first (`pre`: a bias broadcast
into a convolution's output), after them when it comes second (`post`: bias, ReLU, a
residual add), into the body when both have the same loops. The scheduler then keeps the
producer's accumulators in registers through the `post` statements (`emission`).

Legal when every buffer both nests touch and one of them writes is accessed everywhere at the
same indices, written over the outer loops only, with each outer loop that runs more than
once an index on its own: two accesses that meet then meet in the same outer iteration, where
the fused nest keeps their original order. Nests that run over the same loops but fail this
stay apart, with a remark naming the buffer. A nest fused before or after another's inner
loops must also write one element per iteration of the outer loops: a reduction across them
would make the other nest's parallel loops (its vector loop among them) carry a dependence.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator, is_side_effect_free

from heterolayout.dialects.roles import SCALAR_LOADS, SCALAR_STORES, roles_of
from heterolayout.dialects.roots import buffer_root, storage_root
from heterolayout.layout.expressions import linear_form
from heterolayout.passes.schedule.forwarding import forward_constant_copies
from heterolayout.passes.schedule.nest import (
    LOOPS,
    Access,
    Nest,
    NotScheduled,
    extract,
    is_arithmetic,
    is_check,
    nest_name,
)

Remark = Callable[[str], None]


def fuse_nests(function: func.FuncOp, chosen: Callable[[Operation], bool], remark: Remark) -> bool:
    """Fuse the nests of `function`'s blocks (those `chosen` accepts); whether one fused."""
    blocks = [b for op in function.walk() for r in op.regions for b in r.blocks]
    changed = False
    said: set[str] = set()

    def once(message: str) -> None:  # sweeps repeat until none fuses: a refusal is said once
        if message not in said:
            said.add(message)
            remark(message)

    for block in blocks:
        if not isinstance(block.parent_op(), LOOPS):
            changed |= forward_constant_copies(block, chosen, remark)
            changed |= _hoist_independent(block, chosen)
            for kinds in (("before", "after"), ("before", "after", "into")):
                while _fuse_block(block, chosen, remark, once, kinds):  # a fused pair meets the
                    changed = True  # nest before it on the next sweep
    return changed


def _hoist_independent(block: Block, chosen: Callable[[Operation], bool]) -> bool:
    """Clear the way between a nest and the nearest nest above it that it could fuse with
    (the same outer loops, a buffer one writes and the other touches): each nest between
    them that shares no written buffer with that one moves above it, as far up as it can go,
    so that the two meet. BatchNorm's scale, computed from constants, sits between a
    convolution and the element-wise nests that read its output and the scale. Moving that
    far keeps the pairs above together (a fill and the convolution it starts)."""
    moved = False
    nests = [op for op in block.ops if isinstance(op, LOOPS) and chosen(op)]
    for consumer in nests:  # moves keep every nest in the block
        producer = _fusable_producer(consumer)
        if producer is None:
            continue
        between: list[Operation] = []
        current = consumer.prev_op
        while current is not producer:
            assert current is not None
            if isinstance(current, LOOPS):
                between.append(current)
            current = current.prev_op
        for nest in reversed(between):
            moved |= _hoist(nest, producer)
    return moved


def _fusable_producer(nest: Operation) -> Operation | None:
    """The nearest nest above `nest` (past movable ops and other nests) over the same outer
    loops that shares a written buffer with it; None where another op comes first."""
    mine = _footprint(nest)
    current = nest.prev_op
    while mine is not None and current is not None:
        if isinstance(current, LOOPS):
            theirs = _footprint(current)
            if theirs is None:
                return None
            if _touch_written(mine, theirs) and _outer_loops_agree(current, nest):
                return current
        elif not _movable(current):
            return None
        current = current.prev_op
    return None


def _outer_loops_agree(one: Operation, two: Operation) -> bool:
    try:
        nests = extract(one), extract(two)
    except NotScheduled:
        return False
    return _same_loops(*nests, min(len(n.loops) for n in nests))


def _hoist(nest: Operation, past: Operation) -> bool:
    """Move `nest` above the nests before it that it shares no written buffer with, with the
    operand-free allocations and constants it uses; only if it gets above `past`."""
    mine = _footprint(nest)
    if mine is None:
        return False
    used = _used_from_outside(nest)
    anchor: Operation | None = None
    carried: list[Operation] = []
    pending: list[Operation] = []
    passed = False
    current = nest.prev_op
    while current is not None:
        if isinstance(current, LOOPS):
            theirs = _footprint(current)
            if theirs is None or _touch_written(mine, theirs):
                break
            anchor, carried, pending = current, [*carried, *pending], []
            passed |= current is past
        elif _movable(current) and not (set(current.results) & used):
            pass
        elif _movable(current) and not current.operands:
            pending.append(current)
        else:
            break
        current = current.prev_op
    if anchor is None or not passed:
        return False
    for op in [*reversed(carried), nest]:
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(anchor))
    return True


def _footprint(nest: Operation) -> dict[SSAValue, bool] | None:
    """The roots of the buffers `nest` touches, each with whether it writes it; None where an
    op inside does more than load and store (a call, a view, an op of unknown effects)."""
    touched: dict[SSAValue, bool] = {}
    for op in nest.walk():
        if op is nest or isinstance(op, LOOPS) or op.has_trait(IsTerminator):
            continue
        roles = roles_of(op)
        if roles is not None and roles.accesses and not roles.prefetch:
            for position in roles.reads:
                touched.setdefault(storage_root(op.operands[position]), False)
            for position in roles.writes:
                touched[storage_root(op.operands[position])] = True
        elif not is_side_effect_free(op) or any(
            isinstance(o.type, MemRefType) for o in op.operands
        ):
            return None
    return touched


def _touch_written(one: dict[SSAValue, bool], two: dict[SSAValue, bool]) -> bool:
    return any(root in two and (written or two[root]) for root, written in one.items())


def _used_from_outside(nest: Operation) -> set[SSAValue]:
    inside = {r for op in nest.walk() for r in op.results}
    inside |= {a for op in nest.walk() for r in op.regions for b in r.blocks for a in b.args}
    return {o for op in nest.walk() for o in op.operands if o not in inside}


def _fuse_block(
    block: Block,
    chosen: Callable[[Operation], bool],
    remark: Remark,
    refused: Remark,
    kinds: tuple[str, ...],
) -> bool:
    """One sweep over the block; `kinds` of fusion allowed: the first sweep fuses only into
    nests with inner loops, so an element-wise nest between two of them joins its
    producer or consumer before any element-wise neighbour."""
    changed = False
    previous: Operation | None = None
    between: list[Operation] = []
    for op in list(block.ops):
        if isinstance(op, LOOPS) and chosen(op):
            fused = (
                None if previous is None else _fuse(previous, op, between, remark, refused, kinds)
            )
            if fused is not None:
                changed = True
            previous, between = fused or op, []
        elif _movable(op):
            between.append(op)
        else:
            previous, between = None, []
    return changed


def _fuse(
    first: Operation,
    second: Operation,
    between: list[Operation],
    remark: Remark,
    refused: Remark,
    kinds: tuple[str, ...],
) -> Operation | None:
    """The fused nest, or None where the two nests stay apart."""
    try:
        nests = extract(first), extract(second)
    except NotScheduled:
        return None
    outer = min(len(n.loops) for n in nests)
    if not _same_loops(*nests, outer):
        return None
    one, two = nests
    if len(one.loops) == outer and one.perfect and len(two.loops) > outer:
        if not (two.perfect or two.split == outer):
            return None
        where = "before"
    elif len(two.loops) == outer and two.perfect and len(one.loops) > outer:
        if not (one.perfect or one.split == outer):
            return None
        where = "after"
    elif len(one.loops) == len(two.loops) == outer and one.perfect and two.perfect:
        where = "into"
    else:
        return None
    if where not in kinds or not _shared_written(one, two):
        return None
    absorbed, target = (first, second) if where == "before" else (second, first)
    place = "into the body of" if where == "into" else f"{where} the inner loops of"
    conflict = _conflict(one, two, outer)
    if conflict is None and where != "into":
        conflict = _carried_across(one if where == "before" else two, outer)
    if conflict is not None:
        if "into" in kinds:  # the last sweep: a pair refused in the first is refused again
            refused(
                f"nest {nest_name(absorbed)} not fused {place} nest {nest_name(target)}: {conflict}"
            )
        return None
    message = f"nest {nest_name(absorbed)} fused {place} nest {nest_name(target)}"
    if where == "before":
        block = _move_body(one, two, outer, at_start=True)
        Rewriter.erase_op(first)
        fused = second
    else:
        for op in between:
            op.detach()
            Rewriter.insert_op(op, InsertPoint.before(first))
        block = _move_body(two, one, outer, at_start=False)
        Rewriter.erase_op(second)
        fused = first
    forwarded = forward_stored_values(block)
    if forwarded:
        message += f"; {forwarded} load(s) read the value stored before them"
    remark(message)
    return fused


def _movable(op: Operation) -> bool:
    """An op a fusion may move above the first nest: arithmetic, or a static allocation or
    global (roles: defines a buffer, reads and writes none, takes no operand)."""
    if op.regions:
        return False
    if is_arithmetic(op):
        return True
    found = roles_of(op)
    return (
        found is not None
        and found.defines
        and not (found.forwards or found.reads or found.writes)
        and not op.operands
    )


def _same_loops(one: Nest, two: Nest, outer: int) -> bool:
    return all(
        type(a.op) is type(b.op) and (a.first, a.step, a.trips) == (b.first, b.step, b.trips)
        for a, b in zip(one.loops[:outer], two.loops[:outer], strict=True)
    )


def _shared_written(one: Nest, two: Nest) -> bool:
    """Whether one nest writes a buffer the other touches: only then does fusing save a
    trip through memory (and it keeps unrelated nests free to fuse with their own)."""
    mine = {storage_root(a.buffer): a.write for a in one.accesses.values()}
    theirs = {storage_root(a.buffer): a.write for a in two.accesses.values()}
    return any(root in theirs and (written or theirs[root]) for root, written in mine.items())


def _conflict(one: Nest, two: Nest, outer: int) -> str | None:
    """Why fusing could reorder two accesses that meet, or two checks, or None when it
    cannot."""
    messages = [{o.msg.data for o in n.statements() if is_check(o)} for n in (one, two)]
    if all(messages) and len(messages[0] | messages[1]) > 1:
        return "both check conditions (cf.assert) with different messages: another would fail first"
    accesses = [*one.accesses.values(), *two.accesses.values()]
    written = {storage_root(a.buffer) for a in accesses if a.write}
    for root in written:
        mine = [a for a in one.accesses.values() if storage_root(a.buffer) == root]
        theirs = [a for a in two.accesses.values() if storage_root(a.buffer) == root]
        if not mine or not theirs:
            continue
        shared = [*mine, *theirs]
        name = _buffer_name(shared[0].buffer)
        if len({buffer_root(a.buffer) for a in shared}) > 1 or len({a.exprs for a in shared}) > 1:
            return f"{name} is accessed at different indices or through different views"
        if not _one_element_per_iteration(shared[0], one, outer):
            return f"{name} is not one element per iteration of the outer loops"
    return None


def _carried_across(absorbed: Nest, outer: int) -> str | None:
    """Why the nest fused before or after another's inner loops would make one of the outer
    loops carry a dependence (it reduces across them: a softmax's maximum over a
    convolution's channels), or None. Those loops are the other nest's parallel loops, its
    vector loop and register tile among them: with them carried, it would run scalar."""
    for access in absorbed.accesses.values():
        if access.write and not _one_element_per_iteration(access, absorbed, outer):
            name = _buffer_name(access.buffer)
            return (
                f"it writes {name} across iterations of the outer loops, which would then "
                "carry a dependence"
            )
    return None


def _one_element_per_iteration(access: Access, nest: Nest, outer: int) -> bool:
    forms = [linear_form(e, nest.rank) for e in access.exprs]
    if any(f is None for f in forms):
        return False
    coefficients = [f[0] for f in forms if f is not None]
    if any(c[d] for c in coefficients for d in range(outer, nest.rank)):
        return False
    alone = {
        next(d for d, c in enumerate(row) if c)
        for row in coefficients
        if sum(1 for c in row if c) == 1
    }
    return all(d in alone for d in range(outer) if nest.loops[d].trips > 1)


def _move_body(source: Nest, target: Nest, outer: int, at_start: bool) -> Block:
    """`source`'s innermost statements into `target`'s loop at depth `outer`, at the start
    of its body or before its terminator, reading `target`'s counters; that loop's block."""
    block = target.loops[outer - 1].op.regions[0].blocks.first
    assert block is not None
    for old, new in zip(source.loops[:outer], target.loops[:outer], strict=True):
        old.iv.replace_all_uses_with(new.iv)
    anchor = block.first_op if at_start else block.last_op
    assert anchor is not None
    for op in source.body:
        op.detach()
        block.insert_op_before(op, anchor)
    return block


def forward_stored_values(block: Block) -> int:
    """Each scalar load in `block` of the element a store earlier in the block wrote, with no
    write that may reach the buffer between them, reads the stored value instead (a fused
    consumer reading what its producer stored in the same iteration: a comparison's mask, an
    intermediate activation), and a store the block overwrites before anything may read the
    buffer goes; how many loads were forwarded. Any op with regions or effects of its own,
    other than an access or a check (`nest.is_check`: it touches no memory, and the stores
    it could cut off end with the program), ends what is known."""
    stored: dict[tuple[object, ...], SSAValue] = {}
    unread: dict[tuple[object, ...], Operation] = {}
    forwarded = 0
    for op in list(block.ops):
        element = _element(op)
        if element is not None and op.name in SCALAR_LOADS:
            value = stored.get(element)
            if value is not None and value.type == op.results[0].type:
                op.results[0].replace_all_uses_with(value)
                Rewriter.erase_op(op)
                forwarded += 1
            else:
                unread = {k: v for k, v in unread.items() if k[0] is not element[0]}
        elif element is not None and op.name in SCALAR_STORES:
            stored = {k: v for k, v in stored.items() if k[0] is not element[0]}
            stored[element] = op.operands[0]
            if element in unread:
                Rewriter.erase_op(unread[element])
            unread[element] = op
        elif (op.regions or not is_side_effect_free(op)) and not is_check(op):
            stored, unread = {}, {}
    return forwarded


def _element(op: Operation) -> tuple[object, ...] | None:
    """Which element a scalar load or store names: its buffer's storage, the buffer, the
    access kind, its map and index operands (equal keys: the same element)."""
    roles = roles_of(op)
    if roles is None or roles.indices is None or op.name not in SCALAR_LOADS | SCALAR_STORES:
        return None
    position = (roles.writes or roles.reads)[0]
    buffer = op.operands[position]
    indices = tuple(op.operands[roles.index_start :])
    mapping = op.properties.get("map") if roles.indices == "map" else None
    return (storage_root(buffer), buffer, roles.indices, mapping, indices)


def _buffer_name(value: SSAValue) -> str:
    return f"%{value.name_hint}" if value.name_hint else f"the {value.type} buffer"
