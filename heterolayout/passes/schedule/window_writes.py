"""Producers written straight into the window of a padded buffer.

Frontends pad an activation by copying it into the interior of a new buffer (`tensor.pad`,
bufferized): the producer writes a local buffer, a copy moves that into a window of the
padded buffer, and the local buffer is freed unread. When the copy is the local buffer's
last read and the buffer's layout is the padded buffer's (or it has none), the padded
buffer, its border fills and the window move above the producer, which then writes the
window itself: the copy, one more trip through memory, and the local buffer go, as oneDNN's
and onnxruntime's convolutions write into the padded input of the next one. The values keep
the layout they were given; a buffer of another layout than the padded one is kept.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.linalg.ops import CopyOp, FillOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.traits import ConstantLike

from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.roles import roles_of
from heterolayout.dialects.roots import storage_root
from heterolayout.passes.schedule.padding import copied_window, copy_operands, plain_allocation


def write_into_windows(function: func.FuncOp, every: bool, say: Callable[[str], None]) -> int:
    """Make each producer whose buffer is only copied into a window write the window (with
    `every=false` only windows of layout-typed buffers); how many."""
    count = 0
    for copy in [o for o in function.walk() if isinstance(o, memref.CopyOp | CopyOp)]:
        found = _forwardable(copy)
        if found is None:
            continue
        buffer, window, moved = found
        padded = storage_root(window)
        if not every and layout_of(padded.type) is None:
            continue
        alloc = buffer.owner
        assert isinstance(alloc, Operation)
        block = alloc.parent_block()
        assert block is not None
        for op in moved:
            op.detach()
            block.insert_op_before(op, alloc)
        for use in list(buffer.uses):
            user = use.operation
            if user is copy:
                continue
            if isinstance(user, memref.DeallocOp):
                Rewriter.erase_op(user)
            else:
                user.operands[use.index] = window
        Rewriter.erase_op(copy)
        Rewriter.erase_op(alloc)
        say(
            f"a {buffer.type} buffer written straight into its window of {padded.type}: "
            "the copy between them is gone"
        )
        count += 1
    return count


def _forwardable(copy: Operation) -> tuple[SSAValue, SSAValue, list[Operation]] | None:
    """(the local buffer, the window, the ops that move above the buffer's allocation: the
    padded buffer's own, in order) when the producer can write the window."""
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
    if not _only_accessed_before(buffer, copy, block):
        return None
    return _padded_ops(padded, alloc, copy, block)


def _only_accessed_before(buffer: SSAValue, copy: Operation, block: Block) -> bool:
    """Every use of `buffer` is a load, a store or a linalg op before the copy (they take
    any strided memref), or its free."""
    for use in buffer.uses:
        user = use.operation
        if user is copy or isinstance(user, memref.DeallocOp):
            continue
        roles = roles_of(user)
        top = block.find_ancestor_op_in_block(user)
        if roles is None or top is None or not (roles.accesses or roles.structured):
            return False
        if use.index not in roles.reads and use.index not in roles.writes:
            return False
        if not top.is_before_in_block(copy):
            return False
    return True


def _padded_ops(
    padded: SSAValue, alloc: Operation, copy: Operation, block: Block
) -> tuple[SSAValue, SSAValue, list[Operation]] | None:
    """The ops between the buffer's allocation and the copy that touch the padded buffer
    (its allocation, its static views and fills), after the constants they use; None when
    another op touches it there, or one of them uses a value defined there."""
    buffer = copy.operands[0]
    window = copy.operands[1]
    moved: list[Operation] = []
    op = alloc.next_op
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
            if top is not None and top.is_before_in_block(alloc):
                continue
            if top is not owner or not owner.has_trait(ConstantLike):
                return None
            constants.append(owner)
    return buffer, window, [*constants, *moved]


def _padding_op(op: Operation, padded: SSAValue) -> bool:
    """The padded buffer's allocation, a static view of it, or a fill of one."""
    if isinstance(op, memref.AllocOp | memref.AllocaOp):
        return op.memref is padded
    if isinstance(op, memref.SubviewOp):
        return not (op.offsets or op.sizes or op.strides)
    return isinstance(op, FillOp) and not op.res
