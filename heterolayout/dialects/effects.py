"""What a program may do to a buffer, asked of the op-role table (`roles`): the cautious
answer wherever an op has no role for it (it may do anything with the buffer).
"""

from __future__ import annotations

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import SSAValue
from xdsl.traits import SymbolTable

from heterolayout.dialects.roles import roles_of
from heterolayout.dialects.roots import buffer_root


def may_write(value: SSAValue, seen: set[SSAValue] | None = None) -> bool:
    """Conservatively: stored to, copied or converted into, written by a linalg op, or
    flowing on (into a call, a loop, a return; through a cast or a view, whose result is
    followed); taken by an op the op-role table gives no role for it (which may do anything
    with it)."""
    seen = seen or set()
    if value in seen:
        return False
    seen.add(value)
    for use in value.uses:
        user = use.operation
        roles = roles_of(user)
        if roles is None or not (roles.touches(use.index) or use.index in roles.views):
            return True
        if use.index in roles.writes:
            return True
        if isinstance(user, memref.CastOp) or use.index in roles.views:
            if any(may_write(result, seen) for result in user.results):
                return True
        elif roles.forwards:
            return True
    return False


def is_constant_global(value: SSAValue) -> bool:
    """Whether a memref value is a `memref.get_global` of a `constant` global: a buffer
    nothing writes, which holds the same elements at every read."""
    owner = value.owner
    if not isinstance(owner, memref.GetGlobalOp):
        return False
    found = SymbolTable.lookup_symbol(owner, owner.name_)
    return isinstance(found, memref.GlobalOp) and found.constant is not None


def may_return(function: func.FuncOp) -> bool:
    """Whether `function` may return a buffer it did not allocate (a parameter, or a view of
    one): a caller's converted temporary would then outlive the call as the result."""
    fresh = (memref.AllocOp, memref.AllocaOp, memref.GetGlobalOp)
    return any(
        isinstance(operand.type, MemRefType) and not isinstance(buffer_root(operand).owner, fresh)
        for op in function.walk()
        if isinstance(op, func.ReturnOp)
        for operand in op.operands
    )


def returns_used(call: func.CallOp) -> bool:
    return any(isinstance(r.type, MemRefType) and r.uses for r in call.results)
