"""One lane of a vector container replaced at a position known only at run time.

`vector.insert %v, %word[%lane]` stored back where the word was loaded is what LLVM 22's x86
backend turns into a scalar store at `word + lane·size`, and, merging such stores of
neighbouring lanes, into one vector store that keeps the word's alignment at an address
that does not have it: `vmovaps %ymm0, (%rdi,%rax,8)` faults for an odd lane (fuzz seed
520614, on every x86 CPU LLVM 22 targets). The lane is selected instead, `arith.select
(vector.step == broadcast %lane), broadcast %v, %word`: a compare and a blend, which every
consumer compiles right. A lane known at compile time stays a `vector.insert`, and so does
a lane of a bit vector (`vector<6xi1>`), which `sub_byte_accesses` stores as one integer.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import vector
from xdsl.dialects.builtin import IndexType, VectorType
from xdsl.ir import Operation, SSAValue

from heterolayout.dialects.upstream.arith import CmpiOp, SelectOp
from heterolayout.dialects.upstream.vector import StepOp
from heterolayout.layout.element_types import element_type


def replace_lane(
    value: SSAValue,
    container: SSAValue,
    position: SSAValue | int,
    insert: Callable[[Operation], None],
) -> SSAValue:
    """`container` with `value` in lane `position`."""
    container_type = container.type
    assert isinstance(container_type, VectorType)
    if isinstance(position, int) or element_type(str(container_type.element_type)).bits % 8:
        op: Operation = vector.InsertOp(value, container, [position])
        insert(op)
        return op.results[0]
    lanes = container_type.get_shape()[0]
    step = StepOp(result_types=[VectorType(IndexType(), [lanes])])
    where = vector.BroadcastOp(position, VectorType(IndexType(), [lanes]))
    chosen = CmpiOp(step.results[0], where.vector, "eq")
    spread = vector.BroadcastOp(value, container_type)
    updated = SelectOp(chosen.result, spread.vector, container)
    for new in (step, where, chosen, spread, updated):
        insert(new)
    return updated.result


def replaced_lane(value: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue] | None:
    """(the value, the container, the lane) when `value` is a container with one lane
    replaced at a run-time position (`replace_lane`'s form)."""
    select = value.owner
    if not isinstance(select, SelectOp):
        return None
    compare, spread = select.cond.owner, select.lhs.owner
    if not (isinstance(compare, CmpiOp) and isinstance(spread, vector.BroadcastOp)):
        return None
    step, where = compare.lhs.owner, compare.rhs.owner
    if compare.predicate.value.data != 0 or not isinstance(step, StepOp):
        return None
    if not isinstance(where, vector.BroadcastOp):
        return None
    return spread.source, select.rhs, where.source
