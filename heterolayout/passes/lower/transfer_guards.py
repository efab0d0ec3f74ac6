"""Transfers that may leave the memref or are masked (`vector.transfer_read/write` without
`in_bounds = [true]`, or with a mask: the form upstream's vectorizer emits at the edges of a
loop nest) on layout-typed memrefs.

A lane outside the logical extent of the dim the transfer walks, or masked off, reads the
padding value and is not written. The physical buffer cannot say which lanes those are: a
blocked dim's pad slots lie past the logical end inside the buffer (nChw8c with C = 5 has
slots for c = 5…7), so a physical transfer would read their content. Each lane is therefore
its own scalar access under a guard on the logical index (`scf.if start + t < extent`, and
the mask's lane), the read assembled with `vector.from_elements`. What the access's index
ranges decide is not guarded: a lane always inside is a plain access, one always outside the
padding (or nothing). Without a mask, the whole transfer first tests whether all its lanes
are inside (`start + length <= extent`): then it is the in-bounds transfer, lowered as one
vector access where the layout allows (`lower_vectors`).

Through a view with a run-time window the extent is the view's, not its root's: such a
transfer first becomes its guarded lanes on the view itself (`transfers.expand_lanes`),
scalar accesses that `views.folding` then folds into the root like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from xdsl.dialects import arith, scf, vector
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineExpr
from xdsl.pattern_rewriter import PatternRewriter

from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.layout.model import Layout
from heterolayout.passes.index.index_code import IndexEmitter, IndexLeaves
from heterolayout.passes.index.logical_sizes import logical_size, size_source, unknown_size_message
from heterolayout.passes.lower.access_lowering import AccessLowering, inserter_before
from heterolayout.passes.transfers import Transfer, declared_in_bounds

LaneStatus = Literal["in", "out", "guarded"]
InBoundsLowering = Callable[[Operation, PatternRewriter], None]
"""Lowers a transfer known to be in bounds and unmasked (`LowerVectorAccess`'s own way)."""


def guard_problem(op: Transfer, layout: Layout, dim: int) -> str | None:
    """Why the guards cannot be written: the extent of the walked `?` dim is not known."""
    if layout.logical_shape[dim] is not None or declared_in_bounds(op):
        return None
    if size_source(op.source, layout, dim) is None:
        return unknown_size_message(op.source, layout, dim)
    return None


def lower_guarded(
    op: Transfer,
    layout: Layout,
    dim: int,
    state: AccessLowering,
    in_bounds: InBoundsLowering,
    rewriter: PatternRewriter,
) -> None:
    """Lower the transfer `op` (on a layout-typed memref, walking logical dim `dim`)."""
    leaves = state.leaves(op)
    logical = [leaves.recover(i) for i in op.indices]
    unbounded: list[int | None] = list(layout.logical_shape)
    unbounded[dim] = None  # the walked index may lie anywhere: that is the question
    leaves.bound_bare_indices(logical, unbounded)
    vector_type = (op.result if isinstance(op, vector.TransferReadOp) else op.vector).type
    assert isinstance(vector_type, VectorType)
    length = vector_type.get_shape()[0]
    statuses = _statuses(op, layout, dim, logical[dim], leaves, length)
    state.replaced(op)
    if op.mask is None and all(s == "in" for s in statuses):
        in_bounds(op, rewriter)
        return
    guards = _Guards(op, layout, dim, state, leaves, logical)
    if op.mask is None and "guarded" in statuses:
        _split_on_all_inside(op, guards, length, statuses, in_bounds, rewriter)
        return
    result = guards.lanes(statuses, inserter_before(op), op)
    rewriter.replace(op, [], [result] if result is not None else [])


def _statuses(
    op: Transfer,
    layout: Layout,
    dim: int,
    start: AffineExpr,
    leaves: IndexLeaves,
    length: int,
) -> list[LaneStatus]:
    """Per lane: always inside the logical extent, always outside, or known at run time."""
    extent = layout.logical_shape[dim]
    if declared_in_bounds(op):
        return ["in"] * length
    bounds = leaves.simplifier().range_of(start)
    statuses: list[LaneStatus] = []
    for lane in range(length):
        if (
            extent is not None
            and bounds is not None
            and bounds[0] >= 0
            and bounds[1] + lane < extent
        ):
            statuses.append("in")
        elif extent is not None and bounds is not None and bounds[0] + lane >= extent:
            statuses.append("out")
        else:
            statuses.append("guarded")
    return statuses


def _split_on_all_inside(
    op: Transfer,
    guards: _Guards,
    length: int,
    statuses: list[LaneStatus],
    in_bounds: InBoundsLowering,
    rewriter: PatternRewriter,
) -> None:
    """`scf.if start + length <= extent`: the in-bounds transfer, else lane by lane."""
    inside = guards.compare(guards.start + length, "ule")
    whole = op.clone()
    whole.properties["in_bounds"] = ArrayAttr([BoolAttr.from_bool(True)])
    is_read = isinstance(op, vector.TransferReadOp)
    then_block = Block([whole, scf.YieldOp(*whole.results)])
    else_yield = scf.YieldOp()
    else_block = Block([else_yield])
    branch = scf.IfOp(inside, [r.type for r in op.results], [then_block], [else_block])
    rewriter.replace(op, [branch], list(branch.results))
    guards.before = branch
    in_bounds(whole, rewriter)
    lanes = guards.lanes(statuses, inserter_before(else_yield), else_yield)
    if is_read:
        assert lanes is not None
        else_yield.operands = [lanes]


class _Guards:
    """The lanes of one guarded transfer, as scalar accesses under their guards."""

    def __init__(
        self,
        op: Transfer,
        layout: Layout,
        dim: int,
        state: AccessLowering,
        leaves: IndexLeaves,
        logical: Sequence[AffineExpr],
    ) -> None:
        self.op = op
        self.layout = layout
        self.dim = dim
        self.state = state
        self.leaves = leaves
        self.logical = list(logical)
        self.start = logical[dim]
        self.before: Operation = op
        """Where the index code of the guards goes: before the transfer, or the `scf.if`
        that replaced it."""
        self._extent: SSAValue | None = None

    def compare(self, index: AffineExpr, predicate: str) -> SSAValue:
        """`index <predicate> extent` (unsigned: a negative index is outside too), emitted
        with the index code before the transfer (`before`) and shared like it."""
        scope = self.state.index_values.scope(self.before)
        emitter = IndexEmitter(self.leaves, inserter_before(self.before), self.state.mode, scope)
        value = emitter.emit(emitter.best_form(index))
        extent = self.extent()
        return emitter.shared(
            (arith.CmpiOp, predicate, value, extent),
            lambda: arith.CmpiOp(value, extent, predicate),
        )

    def extent(self) -> SSAValue:
        """The logical extent of the walked dim, as an index value."""
        if self._extent is None:
            scope = self.state.index_values.scope(self.before)
            known = self.layout.logical_shape[self.dim]
            if known is not None:
                self._extent = scope.constant(known)
            else:
                self._extent = logical_size(
                    self.op.source,
                    self.layout,
                    self.dim,
                    scope.constant,
                    inserter_before(self.before),
                )
        return self._extent

    def lanes(
        self,
        statuses: Sequence[LaneStatus],
        insert: Callable[[Operation], None],
        anchor: Operation,
    ) -> SSAValue | None:
        """Every lane's access, inserted by `insert` (before `anchor`, in its block); the
        vector read (None for a write)."""
        op = self.op
        vector_type = (op.result if isinstance(op, vector.TransferReadOp) else op.vector).type
        assert isinstance(vector_type, VectorType)
        element = vector_type.element_type
        elements: list[SSAValue] = []
        for lane, status in enumerate(statuses):
            condition = self._condition(lane, status, insert)
            if isinstance(op, vector.TransferReadOp):
                elements.append(self._read(lane, status, condition, element, insert, anchor))
            elif status != "out":
                self._write(lane, condition, vector_type, insert, anchor)
        if not isinstance(op, vector.TransferReadOp):
            return None
        assembled = FromElementsOp(elements, vector_type)
        insert(assembled)
        return assembled.results[0]

    def _condition(
        self, lane: int, status: LaneStatus, insert: Callable[[Operation], None]
    ) -> SSAValue | None:
        """Whether lane `lane` is accessed (None: always, where it is not outside)."""
        if status == "out":
            return None
        terms: list[SSAValue] = []
        if status == "guarded":
            terms.append(self.compare(self.start + lane, "ult"))
        if self.op.mask is not None:
            enabled = vector.ExtractOp(self.op.mask, [lane], IntegerType(1))
            insert(enabled)
            terms.append(enabled.result)
        while len(terms) > 1:
            both = arith.AndIOp(terms[0], terms[1])
            insert(both)
            terms[:2] = [both.result]
        return terms[0] if terms else None

    def _shifted(self, lane: int) -> list[AffineExpr]:
        shifted = list(self.logical)
        shifted[self.dim] = self.start + lane
        return shifted

    def _read(
        self,
        lane: int,
        status: LaneStatus,
        condition: SSAValue | None,
        element: object,
        insert: Callable[[Operation], None],
        anchor: Operation,
    ) -> SSAValue:
        op = self.op
        assert isinstance(op, vector.TransferReadOp)
        if status == "out":
            return op.padding
        if condition is None:
            access = self.state.access(anchor, op.source, self.layout)
            return access.load(self._shifted(lane), self.leaves, insert)
        then_yield = scf.YieldOp()
        branch = scf.IfOp(
            condition, [op.padding.type], [Block([then_yield])], [Block([scf.YieldOp(op.padding)])]
        )
        insert(branch)
        access = self.state.access(then_yield, op.source, self.layout)
        loaded = access.load(self._shifted(lane), self.leaves, inserter_before(then_yield))
        then_yield.operands = [loaded]
        return branch.results[0]

    def _write(
        self,
        lane: int,
        condition: SSAValue | None,
        vector_type: VectorType,
        insert: Callable[[Operation], None],
        anchor: Operation,
    ) -> None:
        op = self.op
        assert isinstance(op, vector.TransferWriteOp)
        if condition is not None:
            then_yield = scf.YieldOp()
            insert(scf.IfOp(condition, [], [Block([then_yield])]))
            anchor, insert = then_yield, inserter_before(then_yield)
        extract = vector.ExtractOp(op.vector, [lane], vector_type.element_type)
        insert(extract)
        access = self.state.access(anchor, op.source, self.layout)
        access.store(extract.result, self._shifted(lane), self.leaves, insert)
