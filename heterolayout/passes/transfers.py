"""Vector transfers on any memref, written out for passes that cannot take them whole:
which transfers may touch lanes outside their memref or are masked (`needs_guards`), an n-D
transfer as 1-D transfers of its rows (`unroll_rows`), a 1-D transfer as its lanes, each a
scalar access under its guard (`expand_lanes`). No layout is involved: `transfer_guards`
lowers guarded transfers on layout-typed memrefs, with the layout's extents.
"""

from __future__ import annotations

import itertools

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
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.arith_ops import constant_index
from heterolayout.dialects.conversion import memref_shape
from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.passes.cleanup_marks import mark_for_cleanup

Transfer = vector.TransferReadOp | vector.TransferWriteOp


def declared_in_bounds(op: Transfer) -> bool:
    flags = [bool(flag.value.data) for flag in op.in_bounds.data]
    return bool(flags) and all(flags)


def needs_guards(op: Operation) -> bool:
    """Whether a transfer may touch lanes outside its memref, or has a mask."""
    return isinstance(op, vector.TransferReadOp | vector.TransferWriteOp) and (
        op.mask is not None or not declared_in_bounds(op)
    )


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
