"""Reading what the lowering emitted, for translation validation: the ops that access a
buffer, their indices as terms, and the values ops take apart.

The op sets here are validation's own reading of the lowered IR, kept apart from the
op-role table (`dialects.roles`) that the lowering reads, on purpose: a validator that
asked the lowering's table would inherit its mistakes."""

from __future__ import annotations

from xdsl.dialects import affine, arith, memref, vector
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue

from heterolayout.passes.validate.domain import Access
from heterolayout.passes.validate.terms import Term, TermReader, constant

LOADS = (memref.LoadOp, affine.LoadOp)
STORES = (memref.StoreOp, affine.StoreOp)
VECTORS = (vector.LoadOp, vector.StoreOp, affine.VectorLoadOp, affine.VectorStoreOp)
TRANSFERS = (vector.TransferReadOp, vector.TransferWriteOp)
VECTOR_STORES = (vector.StoreOp, affine.VectorStoreOp)
VECTOR_LOADS = (vector.LoadOp, affine.VectorLoadOp)


def new_ops(access: Access) -> list[Operation]:
    """The ops that took the access's place (between its old neighbours)."""
    ops = []
    op = access.before.next_op if access.before is not None else access.block.first_op
    while op is not None and op is not access.after:
        ops.append(op)
        op = op.next_op
    return ops


def on_buffer(op: Operation | None, access: Access) -> bool:
    if isinstance(op, (memref.LoadOp, memref.StoreOp, affine.LoadOp, affine.StoreOp)):
        return op.memref is access.buffer
    if isinstance(op, (vector.LoadOp, vector.StoreOp)):
        return op.base is access.buffer
    if isinstance(op, (affine.VectorLoadOp, affine.VectorStoreOp)):
        return op.memref is access.buffer
    return False


def indices_of(op: Operation, reader: TermReader) -> list[Term]:
    if isinstance(op, (affine.LoadOp, affine.StoreOp, affine.VectorLoadOp, affine.VectorStoreOp)):
        index_map = op.map.data
        return reader.access_map(index_map.results, list(op.indices), index_map.num_dims)
    return [reader.term_of(i) for i in op.indices]  # type: ignore[attr-defined]


def owner(value: SSAValue) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, Operation) else None


def position_of(op: vector.ExtractOp | vector.InsertOp, reader: TermReader) -> Term | None:
    static = list(op.static_position.iter_values())
    if len(static) != 1:
        return None
    if static[0] >= 0:
        return constant(static[0])
    dynamic = list(op.dynamic_position)
    return reader.term_of(dynamic[0]) if len(dynamic) == 1 else None


def constant_of(value: SSAValue) -> int | None:
    op = owner(value)
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None
