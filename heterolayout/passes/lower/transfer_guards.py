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
transfer first becomes its guarded lanes on the view itself (`expand_lanes`), scalar
accesses that `view_folding` then folds into the root like any other.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Literal

from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.conversion import memref_shape
from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.layout.model import Layout
from heterolayout.passes.index.index_code import IndexEmitter, IndexLeaves, constant_index
from heterolayout.passes.lower.accesses import AccessLowering, inserter_before, mark_for_cleanup
from heterolayout.passes.lower.logical_sizes import logical_size, size_source, unknown_size_message

Transfer = vector.TransferReadOp | vector.TransferWriteOp
LaneStatus = Literal["in", "out", "guarded"]
InBoundsLowering = Callable[[Operation, PatternRewriter], None]
"""Lowers a transfer known to be in bounds and unmasked (`LowerVectorAccess`'s own way)."""


def declared_in_bounds(op: Transfer) -> bool:
    flags = [bool(flag.value.data) for flag in op.in_bounds.data]
    return bool(flags) and all(flags)


def needs_guards(op: Operation) -> bool:
    """Whether a transfer may touch lanes outside its memref, or has a mask."""
    return isinstance(op, vector.TransferReadOp | vector.TransferWriteOp) and (
        op.mask is not None or not declared_in_bounds(op)
    )


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


def expand_lanes(op: Transfer) -> None:
    """Replace the transfer `op` by its lanes on the same memref: each a `memref.load` or
    `memref.store` under `scf.if index < memref.dim` (and its mask lane), a read assembled
    with `vector.from_elements`; lanes outside read the padding and are not written."""
    (result,) = op.permutation_map.data.results
    assert isinstance(result, AffineDimExpr)
    dim = result.position
    vector_type = (op.result if isinstance(op, vector.TransferReadOp) else op.vector).type
    assert isinstance(vector_type, VectorType)

    def insert(new: Operation) -> Operation:
        Rewriter.insert_op(new, InsertPoint.before(op))
        return new

    def index(value: int) -> SSAValue:
        return insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).results[0]

    start = op.indices[dim]
    first = constant_index(start)
    static_extent = memref_shape(op.source.type)[dim]  # type: ignore[arg-type]
    known = first is not None and static_extent is not None
    guarded = not declared_in_bounds(op) and not known
    extent = insert(memref.DimOp(op.source, index(dim))).results[0] if guarded else None
    elements: list[SSAValue] = []
    for lane in range(vector_type.get_shape()[0]):
        if known and not declared_in_bounds(op) and not 0 <= first + lane < static_extent:  # type: ignore[operator]
            if isinstance(op, vector.TransferReadOp):
                elements.append(op.padding)
            continue  # outside: the padding, or not written
        if first is not None:
            position = index(first + lane)
        else:
            position = start if lane == 0 else insert(arith.AddiOp(start, index(lane))).results[0]
        indices = list(op.indices)
        indices[dim] = position
        terms: list[SSAValue] = []
        if extent is not None:
            terms.append(insert(arith.CmpiOp(position, extent, "ult")).results[0])
        if op.mask is not None:
            terms.append(insert(vector.ExtractOp(op.mask, [lane], IntegerType(1))).results[0])
        condition = terms[0] if terms else None
        if len(terms) == 2:
            condition = insert(arith.AndIOp(terms[0], terms[1])).results[0]
        if isinstance(op, vector.TransferReadOp):
            load = memref.LoadOp.get(op.source, indices)
            if condition is None:
                elements.append(insert(load).results[0])
                continue
            branch = scf.IfOp(
                condition,
                [op.padding.type],
                [Block([load, scf.YieldOp(load)])],
                [Block([scf.YieldOp(op.padding)])],
            )
            elements.append(insert(branch).results[0])
            continue
        extract = vector.ExtractOp(op.vector, [lane], vector_type.element_type)
        store = memref.StoreOp.get(extract.result, op.source, indices)
        if condition is None:
            insert(extract)
            insert(store)
        else:
            insert(scf.IfOp(condition, [], [Block([extract, store, scf.YieldOp()])]))
    mark_for_cleanup(op)  # its constants and their compares fold
    if isinstance(op, vector.TransferReadOp):
        Rewriter.replace_op(op, FromElementsOp(elements, vector_type))
    else:
        Rewriter.erase_op(op)


def row_problem(op: Transfer) -> str | None:
    """Why an n-D transfer cannot become 1-D transfers of its rows (`unroll_rows`), or None."""
    results = op.permutation_map.data.results
    if not isinstance(results[-1], AffineDimExpr):
        return "its innermost vector dim broadcasts (no memref dim to walk)"
    dims = [r.position for r in results if isinstance(r, AffineDimExpr)]
    if op.mask is not None and (len(dims) != len(results) or dims != sorted(dims)):
        return "a mask with a transposing or broadcasting permutation map is not supported"
    return None


def unroll_rows(op: Transfer) -> None:
    """An n-D transfer becomes one 1-D transfer per row (along its innermost vector dim),
    each at the start offset along the memref dims the outer vector dims walk, with its row of
    the mask; a row whose outer index may lie outside (a dim not declared in bounds) is
    read as padding and not written there (`scf.if index < memref.dim`). A read is
    assembled with `vector.insert` into the padding broadcast."""
    results = op.permutation_map.data.results
    is_read = isinstance(op, vector.TransferReadOp)
    vector_type = (op.result if is_read else op.vector).type  # type: ignore[union-attr]
    assert isinstance(vector_type, VectorType)
    shape = vector_type.get_shape()
    flags = [bool(f.value.data) for f in op.in_bounds.data] or [False] * len(shape)
    row_type = VectorType(vector_type.element_type, [shape[-1]])
    walked = results[-1]
    assert isinstance(walked, AffineDimExpr)
    row_map = AffineMapAttr(AffineMap(len(op.indices), 0, (walked,)))
    row_bounds = ArrayAttr([BoolAttr.from_bool(flags[-1])])

    def insert(new: Operation) -> Operation:
        Rewriter.insert_op(new, InsertPoint.before(op))
        return new

    def index(value: int) -> SSAValue:
        return insert(arith.ConstantOp(IntegerAttr(value, IndexType()))).results[0]

    extents: dict[int, SSAValue] = {}
    static_shape = memref_shape(op.source.type)  # type: ignore[arg-type]
    assembled = None
    if is_read:
        assert isinstance(op, vector.TransferReadOp)
        assembled = insert(vector.BroadcastOp(op.padding, vector_type)).results[0]
    for outer in itertools.product(*(range(n) for n in shape[:-1])):
        walks = [
            (r.position, step, declared)
            for r, step, declared in zip(results, outer, flags, strict=False)
            if isinstance(r, AffineDimExpr)  # a broadcast dim: every row reads the same
        ]
        if any(
            not declared
            and (first := constant_index(op.indices[dim])) is not None
            and (extent := static_shape[dim]) is not None
            and not 0 <= first + step < extent
            for dim, step, declared in walks
        ):
            continue  # a row outside: the padding, or nothing written
        indices = list(op.indices)
        conditions: list[SSAValue] = []
        for dim, step, declared in walks:
            first = constant_index(op.indices[dim])
            if first is not None:
                indices[dim] = index(first + step)
            elif step:
                indices[dim] = insert(arith.AddiOp(indices[dim], index(step))).results[0]
            if declared or (first is not None and static_shape[dim] is not None):
                continue
            if dim not in extents:
                extents[dim] = insert(memref.DimOp(op.source, index(dim))).results[0]
            inside = arith.CmpiOp(indices[dim], extents[dim], "ult")
            conditions.append(insert(inside).results[0])
        mask = None
        if op.mask is not None:
            mask_row = VectorType(IntegerType(1), [shape[-1]])
            mask = insert(vector.ExtractOp(op.mask, list(outer), mask_row)).results[0]
        while len(conditions) > 1:
            conditions[:2] = [insert(arith.AndIOp(conditions[0], conditions[1])).results[0]]
        if is_read:
            assert isinstance(op, vector.TransferReadOp) and assembled is not None
            row: Operation = vector.TransferReadOp(
                op.source, indices, op.padding, row_type, row_bounds, row_map, mask
            )
            value = row.results[0]
            if conditions:
                padding = vector.BroadcastOp(op.padding, row_type)
                branch = scf.IfOp(
                    conditions[0],
                    [row_type],
                    [Block([row, scf.YieldOp(value)])],
                    [Block([padding, scf.YieldOp(padding)])],
                )
                insert(branch)
                value = branch.results[0]
            else:
                insert(row)
            assembled = insert(vector.InsertOp(value, assembled, list(outer))).results[0]
            continue
        assert isinstance(op, vector.TransferWriteOp)
        part = vector.ExtractOp(op.vector, list(outer), row_type)
        row = vector.TransferWriteOp(part.result, op.source, indices, row_bounds, mask, row_map)
        if conditions:
            insert(scf.IfOp(conditions[0], [], [Block([part, row, scf.YieldOp()])]))
        else:
            insert(part)
            insert(row)
    if assembled is not None:
        Rewriter.replace_op(op, [], [assembled])
    else:
        Rewriter.erase_op(op)
