"""Vectorization: which loop becomes vectors, and how long they are.

The vector loop is the one that walks the leading buffer's innermost physical dim with unit
stride (the `16c` of nChw16c, the `n` of a row-major matrix). Its length is the vector
width over the element size (512 bits of f32: 16), cut down to a divisor of every
contiguous run it walks, so that no vector straddles two blocks. Every access that depends
on the vector loop must walk a contiguous run of its own buffer along it; an access that
does not is a scalar, broadcast where a vector needs it (`statements.py` emits both).
`layout-lower` turns the vector accesses into `vector.load/store` of the physical buffers,
since the runs are contiguous there.

Where no loop can be vectorized so, a read that is not contiguous may be gathered lane by
lane instead (`gathers=True`, tried last: `layout_schedule`, which also weighs it against
partial results along a reduction, `estimate.py`), when it is one the register tile's copies
share: a grouped convolution's weights under nChw16c, whose output channels
of a group are contiguous and its weights' are not, are gathered once for a tile of output
columns, and the nest runs on vectors instead of scalars.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

from xdsl.dialects import math as math_dialect
from xdsl.dialects.builtin import IndexType, MemRefType, StridedLayoutAttr, VectorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.roots import storage_root
from heterolayout.dialects.views import value_layout
from heterolayout.layout.element_types import element_type
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import linear_form
from heterolayout.layout.model import Layout
from heterolayout.passes.physical import identity_layout
from heterolayout.passes.schedule.dependence import Dependence
from heterolayout.passes.schedule.nest import (
    Access,
    Nest,
    NotScheduled,
    index_expr,
    is_check,
    is_index_op,
)
from heterolayout.passes.schedule.plan import Digit, Plan
from heterolayout.passes.schedule.reductions import carried_by_accumulators, combining
from heterolayout.passes.schedule.statements import rebuilt


def buffer_layout(buffer: SSAValue) -> Layout:
    """The layout `layout-lower` gives the buffer: its type's, or for a static view of a
    layout-typed buffer the root's composed with the window (`views.value_layout`)."""
    memref_type = buffer.type
    assert isinstance(memref_type, MemRefType)
    try:
        composed = value_layout(buffer)
    except LayoutError:
        composed = None
    found = composed or layout_of(memref_type)
    if found is not None:
        return found
    if isinstance(memref_type.layout, StridedLayoutAttr):
        return _strided_from_zero(buffer, memref_type, memref_type.layout)
    return identity_layout(memref_type)


def _strided_from_zero(
    buffer: SSAValue, memref_type: MemRefType, strided: StridedLayoutAttr
) -> Layout:
    """A view's type with an offset known only at run time: its strides still say which
    dims are contiguous (a stride of 2 is not), so the layout of the same strides from
    offset 0; with a stride known only at run time, no layout (the nest is left alone)."""
    strides = strided.get_strides()
    at_zero = None
    if all(s is not None for s in strides):
        at_zero = layout_of(
            MemRefType(
                memref_type.element_type,
                memref_type.shape,
                StridedLayoutAttr(strides, 0),
                memref_type.memory_space,
            )
        )
    if at_zero is None:
        user = (
            buffer.owner
            if isinstance(buffer.owner, Operation)
            else next(iter(buffer.uses)).operation
        )
        raise NotScheduled(user, f"the strides of {memref_type} are known only at run time")
    return at_zero


def contiguous_run(layout: Layout, dim: int) -> int:
    """The layout's contiguous run along `dim`; 1 (none known) where it has a `?` dim: its
    runs are known only at run time, so such a buffer is never vectorized along."""
    return 1 if layout.is_dynamic else layout.contiguous_run(dim)


def element_bits(buffer: SSAValue) -> int:
    element = buffer.type.element_type  # type: ignore[attr-defined]
    try:
        return element_type(str(element)).bits
    except LayoutError:
        return 0


def vectorize(
    plan: Plan, parallel: set[int], width: int, gathers: bool = False
) -> NotScheduled | None:
    """Pick the vector loop and split its digit into a loop over vectors and the vector;
    why not, when no parallel loop can be. With `gathers`, reads that are not contiguous
    along it but shared by the tile's copies (`_gatherable`) go into `plan.gathered`."""
    try:
        digit, length = _vector_digit(plan, parallel, width, gathers)
    except NotScheduled as refusal:
        plan.gathered.clear()
        return refusal
    _split(plan, plan.outer, digit, length)
    return None


def _split(plan: Plan, digits: list[Digit], digit: Digit, length: int) -> None:
    """The digit (weight 1) becomes a loop over vectors of `length` (dropped where a digit
    of that weight is there already) and the vector."""
    position = digits.index(digit)
    if any(d.loop == digit.loop and d.weight == length for d in digits):
        del digits[position]
    else:
        digits[position] = digit.but(weight=length)
    plan.tile.append(digit.but(kind="vector"))
    plan.vector_loop = digit.loop


def vectorize_reduction(
    plan: Plan, found: Sequence[Dependence], width: int, reassociate: bool
) -> None:
    """Vectors along a reduction loop, each accumulator a vector of partial results
    (`reductions`), for a nest whose parallel loops walk no contiguous run (a row sum).
    The innermost reduction loop that can be is; its lane digit becomes chunks of the
    vector length, whose last may be shorter. Besides the accumulators' own, the loop
    must carry no dependence: other stores (element-wise code fused into the reduction)
    then write one element per iteration, as vectors."""
    nest = plan.nest
    if not plan.hoisted:
        raise NotScheduled(nest.top, "no accumulator stays in a register across the reduction")
    partials = combining(plan.hoisted, reassociate)
    refusals: list[NotScheduled] = []
    for digit in reversed(plan.inner):
        if digit.weight != 1:
            continue
        try:
            length = _reduction_length(plan, digit.loop, found, width)
        except NotScheduled as refusal:
            refusals.append(refusal)
            continue
        _split(plan, plan.inner, digit, length)
        plan.partials = partials
        return
    raise refusals[0] if refusals else NotScheduled(nest.top, "it has no reduction loop")


def _reduction_length(plan: Plan, loop: int, found: Sequence[Dependence], width: int) -> int:
    nest = plan.nest
    name = nest.loops[loop].name(loop)
    carried = carried_by_accumulators(found, loop, plan.hoisted)
    if carried is not None:
        raise NotScheduled(
            carried.sink.op,
            f"{name} carries a dependence from {carried.source.op.name} to "
            f"{carried.sink.op.name} that is not an accumulator's reduction",
        )
    walking = [a for a in nest.accesses.values() if nest.uses_loop(a, loop)]
    if not walking:
        raise NotScheduled(nest.loops[loop].op, f"no access walks {name}")
    bits = max(element_bits(a.buffer) for a in [*walking, *(load for load, _ in plan.hoisted)])
    if bits == 0 or bits > width:
        raise NotScheduled(
            walking[0].op, f"the element type is wider than {width} bits or not a number"
        )
    return _length_along(nest, loop, width // bits, walking[0].op)


def _vector_digit(plan: Plan, parallel: set[int], width: int, gathers: bool) -> tuple[Digit, int]:
    nest, lead = plan.nest, plan.lead
    layout = buffer_layout(lead.buffer)
    if layout.packing is not None:
        raise NotScheduled(lead.op, "the leading buffer is packed")
    if layout.is_dynamic:
        raise NotScheduled(lead.op, "the leading buffer has a dynamic shape")
    runs = [(contiguous_run(layout, dim), dim) for dim in range(layout.rank)]
    run, dim = max(runs)
    if run < 2:
        raise NotScheduled(lead.op, "no logical dim of the leading buffer is contiguous")
    loop = _unit_loop(nest, lead, dim)
    if loop is None:
        raise NotScheduled(lead.op, f"its contiguous dim {dim} is not one loop plus a constant")
    name = nest.loops[loop].name(loop)
    if loop not in parallel:
        raise NotScheduled(nest.loops[loop].op, f"{name} carries a dependence")
    digit = next((d for d in plan.outer if d.loop == loop and d.weight == 1), None)
    if digit is None or nest.loops[loop].step != 1:
        raise NotScheduled(nest.loops[loop].op, f"{name} is not a loop around the register tile")
    bits = element_bits(lead.buffer)
    if bits == 0 or bits > width:
        raise NotScheduled(lead.op, f"the element type is wider than {width} bits or not a number")
    if gathers:
        plan.gathered.update(_gatherable(plan, parallel, loop))
    return digit, _length_along(nest, loop, width // bits, lead.op, plan.gathered)


def _gatherable(plan: Plan, parallel: set[int], loop: int) -> dict[Operation, str]:
    """The reads that may be gathered along `loop`, each with why it is not contiguous:
    those of a buffer the nest never writes, not packed, that walk no aligned contiguous run
    along it and that the register tile's copies share (`Nest.shared_along` a parallel
    loop), so that one gather serves several vector operations."""
    nest = plan.nest
    found: dict[Operation, str] = {}
    for access in [a for a in nest.accesses.values() if not a.write]:
        if storage_root(access.buffer) in plan.written or not nest.uses_loop(access, loop):
            continue
        if buffer_layout(access.buffer).packing is not None:
            continue
        try:
            _check_contiguous(nest, access, loop, 2)
            continue
        except NotScheduled as refusal:
            reason = refusal.reason
        if any(
            access in nest.shared_along(other)
            for other in parallel
            if other != loop and nest.loops[other].trips > 1
        ):
            found[access.op] = reason
    return found


def _length_along(
    nest: Nest,
    loop: int,
    length: int,
    where: Operation,
    gathered: Collection[Operation] = (),
) -> int:
    """The vector length along `loop`: at most `length` and its trip count, a divisor of
    every contiguous run the accesses walk along it, once every access but the `gathered`
    is checked to walk aligned contiguous runs and every op to take vectors."""
    accesses = [a for a in nest.accesses.values() if a.op not in gathered]
    for access in accesses:
        run = _run_along(nest, access, loop)
        if run == 1:
            _check_contiguous(nest, access, loop, 2)
        length = math.gcd(length, run)
    length = min(length, nest.loops[loop].trips)
    if length < 2:
        name = nest.loops[loop].name(loop)
        raise NotScheduled(where, f"the contiguous runs along {name} are 1 element long")
    for access in accesses:
        _check_contiguous(nest, access, loop, length)
    _check_data_uses(nest, loop)
    _check_vector_ops(nest, loop, length)
    return length


def _unit_loop(nest: Nest, access: Access, dim: int) -> int | None:
    """The loop whose counter is the access's index along `dim`, up to a constant."""
    forms = access.linear(nest.rank)
    if forms is None:
        return None
    coefficients, _ = forms[dim]
    used = [i for i, c in enumerate(coefficients) if c]
    if len(used) != 1 or used[0] >= len(nest.loops) or coefficients[used[0]] != 1:
        return None
    return used[0]


def _run_along(nest: Nest, access: Access, loop: int) -> int:
    """The aligned contiguous run of the access's buffer along the dim the loop walks (0 when
    it does not walk one, or walks all of it contiguously: no constraint)."""
    walked = [d for d, e in enumerate(access.exprs) if loop in e.used_dims()]
    if len(walked) != 1:
        return 0
    layout = buffer_layout(access.buffer)
    run = contiguous_run(layout, walked[0])
    return 0 if run == layout.logical_shape[walked[0]] else run


def _check_contiguous(nest: Nest, access: Access, loop: int, length: int) -> None:
    if not nest.uses_loop(access, loop):
        return
    name = nest.loops[loop].name(loop)
    buffer = f"{access.op.name} of {access.buffer.type}"
    walked = [d for d, e in enumerate(access.exprs) if loop in e.used_dims()]
    form = linear_form(access.exprs[walked[0]], nest.rank) if len(walked) == 1 else None
    if form is None or form[0][loop] != 1:
        raise NotScheduled(access.op, f"{buffer} does not walk one dim with {name} at unit stride")
    (dim,) = walked
    layout = buffer_layout(access.buffer)
    if layout.packing is not None:
        raise NotScheduled(access.op, f"{buffer} is packed")
    run = contiguous_run(layout, dim)
    extent = layout.logical_shape[dim]
    coefficients, constant = form
    others = [c for i, c in enumerate(coefficients) if i != loop] + [constant]
    aligned = run % length == 0 and all(c % run == 0 for c in others)
    if run == 1:
        raise NotScheduled(
            access.op,
            f"{buffer}: dim {dim}, walked by {name}, is not contiguous in memory; give it a "
            f"layout whose innermost physical dim is dim {dim}",
        )
    if run != extent and not aligned:
        raise NotScheduled(
            access.op,
            f"{buffer}: dim {dim}, walked by {name}, is not stored in aligned contiguous runs "
            f"of {length} (its runs are {run} long); give it a layout whose innermost "
            f"physical dim is dim {dim}",
        )


def _check_data_uses(nest: Nest, loop: int) -> None:
    for op in nest.statements():
        if is_index_op(op):
            continue
        for operand in op.operands:
            if not isinstance(operand.type, IndexType) or op in nest.accesses:
                continue
            expr = index_expr(nest, operand)
            if expr is None or loop in expr.used_dims():
                raise NotScheduled(op, f"{op.name} uses the vector loop's index as a value")


SCALAR_POWERS = (math_dialect.FPowIOp, math_dialect.IPowIOp)
"""Ops upstream's LLVM lowering takes on scalars only: `convert-math-to-llvm` makes
`llvm.intr.powi` of `fpowi`, whose power must be a scalar, and has no `ipowi` at all
(`convert-math-to-funcs` calls a function per element). Constant powers are multiplications
before this (`powers.py`)."""


def _check_vector_ops(nest: Nest, loop: int, length: int) -> None:
    """Every op that computes on values loaded along the vector loop must exist on vectors
    (some of xDSL 0.74's take scalars only, `arith.cmpi` among them) and be compiled on
    vectors by upstream's lowering (`SCALAR_POWERS`)."""
    varying: set[SSAValue] = set()
    for op in nest.statements():
        access = nest.accesses.get(op)
        if access is not None:
            if not access.write and nest.uses_loop(access, loop):
                varying.add(op.results[0])
            continue
        if is_index_op(op) or not any(o in varying for o in op.operands):
            continue
        varying.update(op.results)
        if isinstance(op, SCALAR_POWERS):
            what = (
                "a power known only at run time"
                if isinstance(op, math_dialect.FPowIOp)
                else "integers"
            )
            raise NotScheduled(op, f"{op.name} of {what} has no vector form in upstream's lowering")
        if is_check(op):
            continue  # one check of the vector's lanes together (`statements`)
        trial = Block(
            arg_types=[
                VectorType(o.type, [length]) if not isinstance(o.type, VectorType) else o.type
                for o in op.operands
            ]
        )
        try:
            rebuilt(op, list(trial.args), length).verify()
        except VerifyException:
            raise NotScheduled(op, f"{op.name} takes no vectors in xDSL 0.74") from None
