"""Checks of a lowered module that neither xDSL's verifier nor the engines make: SSA
dominance (xDSL 0.74 does not check it) and memref types that keep a layout."""

from __future__ import annotations

import math

from xdsl.dialects import func
from xdsl.dialects.builtin import AffineMapAttr, MemRefType, NoneAttr, StridedLayoutAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineMap


def dominance_violations(module: Operation) -> list[str]:
    """Operands whose definition does not dominate their use, in modules whose regions have
    single blocks: a block argument must belong to a block enclosing the use, an op result
    must come from an op earlier in the use's block or in an enclosing block, before the
    use's ancestor there."""
    position: dict[Operation, int] = {}
    for op in module.walk():
        for region in op.regions:
            assert len(region.blocks) <= 1, f"{op.name} has a region of several blocks"
            for block in region.blocks:
                position.update((o, i) for i, o in enumerate(block.ops))
    problems = []
    for op in module.walk():
        for number, operand in enumerate(op.operands):
            if not _dominates(operand, op, position):
                problems.append(
                    f"operand {number} ({operand.name_hint or operand}) of {op.name}: {op}"
                )
    return problems


def _dominates(value: SSAValue, user: Operation, position: dict[Operation, int]) -> bool:
    if isinstance(value, BlockArgument):
        block: Block | None = user.parent_block()
        while block is not None:
            if block is value.owner:
                return True
            parent = block.parent_op()
            block = None if parent is None else parent.parent_block()
        return False
    definition = value.owner
    assert isinstance(definition, Operation)
    defining_block = definition.parent_block()
    if defining_block is None:  # erased or detached
        return False
    ancestor: Operation | None = user
    while ancestor is not None:
        if ancestor.parent_block() is defining_block:
            return ancestor is not definition and position[definition] < position[ancestor]
        ancestor = ancestor.parent_op()
    return False


def memref_types(root: Operation) -> list[MemRefType]:
    """The memref types of every value (results, block arguments) and signature in `root`."""
    types = []
    for op in root.walk():
        values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
        types += [v.type for v in values if isinstance(v.type, MemRefType)]
        if isinstance(op, func.FuncOp):
            signature = [*op.function_type.inputs.data, *op.function_type.outputs.data]
            types += [t for t in signature if isinstance(t, MemRefType)]
    return types


def non_identity(memref_type: MemRefType) -> bool:
    """A layout other than the identity (which xDSL keeps where MLIR would drop it: the
    identity map, contiguous row-major strides at offset 0)."""
    layout = memref_type.layout
    shape = memref_type.get_shape()
    if isinstance(layout, NoneAttr):
        return False
    if isinstance(layout, StridedLayoutAttr):
        row_major = [math.prod(shape[d + 1 :]) for d in range(len(shape))]
        return not (list(layout.get_strides()) == row_major and layout.get_offset() == 0)
    return not (isinstance(layout, AffineMapAttr) and layout.data == AffineMap.identity(len(shape)))
