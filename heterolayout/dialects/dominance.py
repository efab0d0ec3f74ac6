"""`check_dominance`: every use of a value is dominated by its definition.

xDSL 0.74's verifier does not check this, and its parser accepts forward references, so
IR whose uses come before their definitions (or sit in blocks the definition does not
dominate) parsed, verified, and failed later inside a pass or an engine. A use is
dominated when its definition is an earlier op of the same block, an argument of that
block, or (in a region of several blocks) in a block that dominates it; otherwise the
same question is asked of the op holding the use's region, up to the definition's region.
Regions of ops isolated from above see nothing outside. Time is linear in the IR times
its nesting depth.
"""

from __future__ import annotations

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import VerifyException

from heterolayout.dialects.diagnostics import fail
from heterolayout.dialects.names import op_name


def check_dominance(root: Operation) -> None:
    """Raise a `VerifyException` naming the first op that uses a value its definition does
    not dominate."""
    positions: dict[Operation, int] = {}
    dominators: dict[Region, dict[Block, Block | None]] = {}
    for op in root.walk():
        for operand in op.operands:
            if not _dominates(operand, op, positions, dominators):
                _fail(op, operand)


def _position(op: Operation, positions: dict[Operation, int]) -> int:
    """The op's index in its block (each block is numbered once, when first asked)."""
    found = positions.get(op)
    if found is None:
        block = op.parent
        assert block is not None
        for index, sibling in enumerate(block.ops):
            positions[sibling] = index
        found = positions[op]
    return found


def _dominates(
    value: SSAValue,
    user: Operation,
    positions: dict[Operation, int],
    dominators: dict[Region, dict[Block, Block | None]],
) -> bool:
    if isinstance(value, OpResult):
        definition_block = value.op.parent
    elif isinstance(value, BlockArgument):
        definition_block = value.block
    else:
        return True
    if definition_block is None:
        return False
    at: Operation | None = user
    while at is not None:
        block = at.parent
        if block is None:
            return False
        if block is definition_block:
            if isinstance(value, BlockArgument):
                return True
            return _position(value.op, positions) < _position(at, positions)
        region = block.parent
        if region is not None and region is definition_block.parent:
            return _block_dominates(definition_block, block, region, dominators)
        parent = block.parent_op()
        if parent is not None and _isolated(parent):
            return False
        at = parent
    return False


def _isolated(op: Operation) -> bool:
    """IsolatedFromAbove; an unregistered op claims every trait, so it claims none here."""
    return not isinstance(op, UnregisteredOp) and op.has_trait(IsolatedFromAbove)


def _block_dominates(
    first: Block,
    second: Block,
    region: Region,
    dominators: dict[Region, dict[Block, Block | None]],
) -> bool:
    tree = dominators.get(region)
    if tree is None:
        tree = dominators[region] = _immediate_dominators(region)
    at: Block | None = second
    while at is not None:
        if at is first:
            return True
        at = tree.get(at)
    return False


def _immediate_dominators(region: Region) -> dict[Block, Block | None]:
    """Cooper, Harvey and Kennedy's iterative algorithm over reverse post-order; blocks
    the entry does not reach have no dominator (their uses are not dominated)."""
    entry = region.blocks.first
    if entry is None:
        return {}
    order: list[Block] = []
    seen: set[Block] = set()
    stack: list[tuple[Block, int]] = [(entry, 0)]
    seen.add(entry)
    while stack:
        block, next_successor = stack.pop()
        successors = block.last_op.successors if block.last_op is not None else ()
        if next_successor < len(successors):
            stack.append((block, next_successor + 1))
            successor = successors[next_successor]
            if successor not in seen:
                seen.add(successor)
                stack.append((successor, 0))
        else:
            order.append(block)
    order.reverse()
    number = {block: index for index, block in enumerate(order)}
    predecessors: dict[Block, list[Block]] = {block: [] for block in order}
    for block in order:
        if block.last_op is not None:
            for successor in block.last_op.successors:
                predecessors[successor].append(block)
    idom: dict[Block, Block | None] = {entry: entry}
    changed = True
    while changed:
        changed = False
        for block in order[1:]:
            chosen: Block | None = None
            for predecessor in predecessors[block]:
                if predecessor in idom:
                    chosen = (
                        predecessor if chosen is None else _meet(predecessor, chosen, idom, number)
                    )
            if chosen is not None and idom.get(block) is not chosen:
                idom[block] = chosen
                changed = True
    idom[entry] = None
    return idom


def _meet(a: Block, b: Block, idom: dict[Block, Block | None], number: dict[Block, int]) -> Block:
    while a is not b:
        while number[a] > number[b]:
            a = idom[a]  # type: ignore[assignment]
        while number[b] > number[a]:
            b = idom[b]  # type: ignore[assignment]
    return a


def _fail(op: Operation, value: SSAValue) -> None:
    name = f"%{value.name_hint}" if value.name_hint else f"an operand of type {value.type}"
    owner = value.op.name if isinstance(value, OpResult) else "a block argument"
    message = (
        f"{op_name(op)} uses {name} (defined by {owner}) where its definition does not "
        "dominate the use"
    )
    fail(op, message, VerifyException)
