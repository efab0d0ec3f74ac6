"""Producers written straight into the window of a padded buffer.

Frontends pad an activation by copying it into the interior of a new buffer (`tensor.pad`,
bufferized): the producer writes a local buffer, a copy moves that into a window of the
padded buffer, and the local buffer is freed unread. When the copy is the local buffer's
last read and the buffer's layout is the padded buffer's (or it has none), the padded
buffer, its border fills and the window move above the producer, which then writes the
window itself: the copy, one more trip through memory, and the local buffer go, as oneDNN's
and onnxruntime's convolutions write into the padded input of the next one. The values keep
the layout they were given; a buffer of another layout than the padded one is kept.

Bufferized models reuse one buffer for several activations (a ResNet block's two
convolutions both write the block's output buffer). The copied value then lives from the op
that overwrites the whole buffer without reading it (a bias broadcast, a fill) to the copy,
and the next op that touches the buffer after the copy overwrites it whole again: the ops of
that live range write the window instead, and the buffer keeps its other values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import BroadcastOp, CopyOp, FillOp, GenericOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import Rewriter
from xdsl.traits import ConstantLike

from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.roles import roles_of
from heterolayout.dialects.roots import storage_root
from heterolayout.passes.schedule.padding import copied_window, copy_operands, plain_allocation


@dataclass(frozen=True)
class _Forwarding:
    buffer: SSAValue
    window: SSAValue
    start: Operation
    """The buffer's allocation, or the op that overwrites it whole where the copied value
    starts."""
    live: frozenset[Operation]
    """The ops of the block from `start` to the copy: their uses of the buffer take the
    window."""
    moved: list[Operation]
    """The padded buffer's ops (and their constants) that move above `start`, in order."""
    unused: Operation | None
    """The buffer's allocation when nothing outside the live range touches the buffer but
    its free: both go."""


def write_into_windows(function: func.FuncOp, every: bool, say: Callable[[str], None]) -> int:
    """Make each producer whose value is only copied into a window write the window (with
    `every=false` only windows of layout-typed buffers); how many."""
    count = 0
    for copy in [o for o in function.walk() if isinstance(o, memref.CopyOp | CopyOp)]:
        found = _forwardable(copy)
        if found is None:
            continue
        padded = storage_root(found.window)
        if not every and layout_of(padded.type) is None:
            continue
        block = found.start.parent_block()
        assert block is not None
        for op in found.moved:
            op.detach()
            block.insert_op_before(op, found.start)
        for use in list(found.buffer.uses):
            user = use.operation
            top = block.find_ancestor_op_in_block(user)
            if user is copy or top is None:
                continue
            if top in found.live:
                user.operands[use.index] = found.window
            elif found.unused is not None and isinstance(user, memref.DeallocOp):
                Rewriter.erase_op(user)
        Rewriter.erase_op(copy)
        if found.unused is not None:
            Rewriter.erase_op(found.unused)
        say(
            f"a {found.buffer.type} buffer written straight into its window of {padded.type}: "
            "the copy between them is gone"
        )
        count += 1
    return count


def _forwardable(copy: Operation) -> _Forwarding | None:
    """How the producer can write the window, if it can."""
    operands = copy_operands(copy)
    if operands is None:
        return None
    buffer, window = operands
    block = copy.parent_block()
    alloc = buffer.owner
    if block is None or not isinstance(alloc, memref.AllocOp | memref.AllocaOp):
        return None
    if alloc.parent_block() is not block or not plain_allocation(buffer):
        return None
    padded = storage_root(window)
    view = window.owner
    if not isinstance(view, memref.SubviewOp) or view.source is not padded:
        return None
    if not plain_allocation(padded) or copied_window(copy, padded) is None:
        return None
    assert isinstance(buffer.type, MemRefType) and isinstance(padded.type, MemRefType)
    if layout_of(buffer.type) is not None and buffer.type.layout != padded.type.layout:
        return None
    start = _live_from(buffer, copy)
    dead = _dead_after(buffer, copy)
    if start is None or dead is None:
        return None
    ops = list(block.ops)
    first, end = ops.index(start), ops.index(copy)
    before = ops[ops.index(alloc) + 1 : first]
    unused = alloc if dead and not any(_touches(op, buffer) for op in before) else None
    moved = _padded_ops(padded, start, copy, block)
    if moved is None:
        return None
    return _Forwarding(buffer, window, start, frozenset(ops[first:end]), moved, unused)


def _live_from(buffer: SSAValue, copy: Operation) -> Operation | None:
    """Where the copied value starts: the last op before the copy that overwrites the
    buffer whole, else its allocation; None when an op on the way touches it otherwise than
    by a load, a store or a linalg op (they take any strided memref)."""
    op = copy.prev_op
    while op is not None:
        if op is buffer.owner:
            return op
        if _touches(op, buffer):
            if not _accesses_directly(op, buffer):
                return None
            if _overwrites(op, buffer):
                return op
        op = op.prev_op
    return None


def _dead_after(buffer: SSAValue, copy: Operation) -> bool | None:
    """True when nothing but its free touches the buffer after the copy, False when the
    first op that does overwrites it whole, None otherwise."""
    op = copy.next_op
    while op is not None:
        if isinstance(op, memref.DeallocOp) and op.memref is buffer:
            return True
        if _touches(op, buffer):
            return False if _overwrites(op, buffer) else None
        op = op.next_op
    return True


def _touches(op: Operation, buffer: SSAValue) -> bool:
    return any(
        isinstance(v.type, MemRefType) and storage_root(v) is buffer
        for inner in op.walk()
        for v in inner.operands
    )


def _accesses_directly(op: Operation, buffer: SSAValue) -> bool:
    """Every use of `buffer` in `op` is a load's, a store's or a linalg op's operand (no
    view, no call)."""
    for inner in op.walk():
        for index, operand in enumerate(inner.operands):
            if not isinstance(operand.type, MemRefType) or storage_root(operand) is not buffer:
                continue
            roles = roles_of(inner)
            if operand is not buffer or roles is None:
                return False
            if not (roles.accesses or roles.structured):
                return False
            if index not in roles.reads and index not in roles.writes:
                return False
    return True


def _overwrites(op: Operation, buffer: SSAValue) -> bool:
    """The op stores every element of `buffer` and reads none: a fill or a broadcast into
    it, or an all-parallel linalg.generic that writes `buffer` alone, through the identity
    map, and ignores its old values."""
    if isinstance(op, FillOp):
        return list(op.outputs) == [buffer] and buffer not in op.inputs
    if isinstance(op, BroadcastOp):
        return op.init is buffer and op.input is not buffer
    if not isinstance(op, GenericOp) or op.res or list(op.outputs) != [buffer]:
        return False
    if any(storage_root(v) is buffer for v in op.inputs):
        return False
    if any(kind.data != IteratorType.PARALLEL for kind in op.iterator_types.data):
        return False
    written = op.indexing_maps.data[-1].data
    identity = AffineMap.identity(written.num_dims)
    return written == identity and not op.body.block.args[-1].uses


def _padded_ops(
    padded: SSAValue, start: Operation, copy: Operation, block: Block
) -> list[Operation] | None:
    """The ops between `start` and the copy that touch the padded buffer (its allocation,
    its static views and fills), after the constants they use; None when another op touches
    it there, or one of them uses a value defined there."""
    moved: list[Operation] = []
    op = start.next_op
    while op is not None and op is not copy:
        touches = any(
            isinstance(v.type, MemRefType) and storage_root(v) is padded
            for o in op.walk()
            for v in [*o.operands, *o.results]
        )
        if touches:
            if not _padding_op(op, padded):
                return None
            moved.append(op)
        op = op.next_op
    constants: list[Operation] = []
    for op in moved:
        for operand in op.operands:
            owner = operand.owner
            if not isinstance(owner, Operation) or owner in moved or owner in constants:
                continue
            top = block.find_ancestor_op_in_block(owner)
            if top is not None and top.is_before_in_block(start):
                continue
            if top is not owner or not owner.has_trait(ConstantLike):
                return None
            constants.append(owner)
    return [*constants, *moved]


def _padding_op(op: Operation, padded: SSAValue) -> bool:
    """The padded buffer's allocation, a static view of it, or a fill of one."""
    if isinstance(op, memref.AllocOp | memref.AllocaOp):
        return op.memref is padded
    if isinstance(op, memref.SubviewOp):
        return not (op.offsets or op.sizes or op.strides)
    return isinstance(op, FillOp) and not op.res
