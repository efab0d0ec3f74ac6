"""Vector accesses to memrefs of integers narrower than their bytes, as whole vectors.

A `memref<…xi2>` holds one element per byte once lowered to LLVM (its GEPs step by the
alloc size of i2, one byte), but LLVM lays a `vector<3xi2>` out bit-packed, so upstream's
`vector.load`/`vector.store` of such a vector reads or writes the packed bits of the first
bytes, not the elements the other engines (and the memref's own scalar accesses) see. Before
compiling, the native engine views such a memref as one of its alloc-size integers (i2 → i8,
i12 → i16: an `unrealized_conversion_cast` between memrefs whose LLVM descriptors are the
same) and accesses that: a load of `vector<Nxi8>` then `arith.trunci`, an `arith.extui`
then a store (LLVM keeps the bits above the width zero in memory, as the ABI does). So a
vector access stays one vector access (LLVM turns `trunci` to i1 plus a bitcast into
`pmovmskb`). Elements wider than 64 bits are still taken lane by lane (scalar
`memref.load`/`store` assembled with `vector.from_elements` / `vector.extract`).

A memref whose elements are vectors of sub-byte integers (`vector<6xi1>`, the containers of
`pack = vector<6xi1>`) holds one packed word per element, but LLVM's x86 backend loads and
stores such a vector bit by bit. Its element accesses go through the same integer view: a
load of the word (`arith.trunci` to the vector's bits, a `vector.bitcast` to its lanes), and
a store of the lanes bitcast to one word (`arith.extui` to the alloc size). Accesses to
memrefs of byte-sized elements, and of other vectors, are left alone.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import affine, arith, memref, vector
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    UnrealizedConversionCastOp,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.interpreter.errors import ExecutionError
from heterolayout.interpreter.source import where

Insert = Callable[[Operation], None]
ACCESSES = (vector.LoadOp, vector.StoreOp, affine.VectorLoadOp, affine.VectorStoreOp)


def is_narrow(memref_type: object) -> bool:
    """A memref of integers whose width is not a whole number of bytes."""
    return (
        isinstance(memref_type, MemRefType)
        and isinstance(memref_type.element_type, IntegerType)
        and memref_type.element_type.width.data % 8 != 0
    )


SCALAR_ACCESSES = (memref.LoadOp, memref.StoreOp, affine.LoadOp, affine.StoreOp)


def word_bits(memref_type: object) -> int | None:
    """For a memref of 1-D vectors of sub-byte integers: the bits of one vector (at most 64),
    else None."""
    if not isinstance(memref_type, MemRefType):
        return None
    element = memref_type.element_type
    if not isinstance(element, VectorType) or element.get_num_dims() != 1:
        return None
    lane = element.element_type
    if not isinstance(lane, IntegerType) or lane.width.data % 8 == 0:
        return None
    bits = element.get_shape()[0] * lane.width.data
    return bits if bits <= 64 else None


def widen_narrow_vector_accesses(module: ModuleOp) -> None:
    for op in list(module.walk()):
        if isinstance(op, SCALAR_ACCESSES):
            buffer = op.operands[1 if isinstance(op, memref.StoreOp | affine.StoreOp) else 0]
            if word_bits(buffer.type) is not None:
                _as_word(op, buffer)
        elif isinstance(op, ACCESSES) and is_narrow(op.operands[1 if _stores(op) else 0].type):
            if _container_bits(op) is None:
                _scalarize(op)
            else:
                _widen(op)


def _as_word(op: Operation, buffer: SSAValue) -> None:
    """An element access to a memref of bit vectors, on the memref viewed as integers."""
    assert isinstance(buffer.type, MemRefType)
    vector_type = buffer.type.element_type
    assert isinstance(vector_type, VectorType)
    bits = word_bits(buffer.type)
    assert bits is not None
    word = IntegerType(bits)
    container = IntegerType(max(8, 1 << (bits - 1).bit_length()))
    add = _inserter(op)
    view = _integer_view(buffer, container, add)
    words = VectorType(word, [1])
    if isinstance(op, memref.LoadOp | affine.LoadOp):
        load = _load_like(op, view)
        add(load)
        value = load.results[0]
        if container != word:
            value = _added(add, arith.TruncIOp(value, word)).results[0]
        value = _added(add, vector.BroadcastOp(value, words)).results[0]
        lanes = _added(add, vector.BitcastOp(value, vector_type))
        op.results[0].replace_all_uses_with(lanes.results[0])
    else:
        packed = _added(add, vector.BitcastOp(op.operands[0], words)).results[0]
        value = _added(add, vector.ExtractOp(packed, [0], word)).results[0]
        if container != word:
            value = _added(add, arith.ExtUIOp(value, container)).results[0]
        add(_store_like(op, value, view))
    Rewriter.erase_op(op)


def _integer_view(buffer: SSAValue, container: IntegerType, add: Insert) -> SSAValue:
    """`buffer` as a memref of `container` integers: the same LLVM descriptor, so
    reconcile-unrealized-casts folds the cast away."""
    memref_type = buffer.type
    assert isinstance(memref_type, MemRefType)
    wide = MemRefType(container, memref_type.shape, memref_type.layout, memref_type.memory_space)
    view = UnrealizedConversionCastOp.get([buffer], [wide])
    add(view)
    return view.results[0]


def _load_like(op: Operation, view: SSAValue) -> Operation:
    if isinstance(op, affine.LoadOp):
        return affine.LoadOp(view, list(op.indices), op.map)
    assert isinstance(op, memref.LoadOp)
    return memref.LoadOp.get(view, list(op.indices))


def _store_like(op: Operation, value: SSAValue, view: SSAValue) -> Operation:
    if isinstance(op, affine.StoreOp):
        return affine.StoreOp(value, view, list(op.indices), op.map)
    assert isinstance(op, memref.StoreOp)
    return memref.StoreOp.get(value, view, list(op.indices))


def _added(add: Insert, op: Operation) -> Operation:
    add(op)
    return op


def _container_bits(op: Operation) -> int | None:
    """Bits of the integer LLVM allocates for one element (the next power of two from 8),
    or None above 64 bits."""
    buffer = op.operands[1 if _stores(op) else 0]
    width = buffer.type.element_type.width.data  # type: ignore[attr-defined]
    bits = max(8, 1 << (width - 1).bit_length())
    return bits if bits <= 64 else None


def _widen(op: Operation) -> None:
    """The access on the memref viewed as alloc-size integers, truncated or extended."""
    add = _inserter(op)
    value = op.operands[0] if _stores(op) else None
    buffer = op.operands[1] if _stores(op) else op.operands[0]
    vector_type = value.type if value is not None else op.results[0].type
    shape = _one_dimensional(op, vector_type, buffer)
    bits = _container_bits(op)
    assert isinstance(buffer.type, MemRefType) and bits is not None
    container = IntegerType(bits)
    view = _integer_view(buffer, container, add)
    indices = _indices(op, add)
    wide_vector = VectorType(container, shape)
    if value is None:
        load = vector.LoadOp(view, indices, wide_vector)
        narrowed = arith.TruncIOp(load.result, vector_type)  # type: ignore[arg-type]
        add(load)
        add(narrowed)
        op.results[0].replace_all_uses_with(narrowed.result)
    else:
        widened = arith.ExtUIOp(value, wide_vector)  # type: ignore[arg-type]
        add(widened)
        hint = op.properties.get("nontemporal")
        add(vector.StoreOp(widened.result, view, indices, hint))  # type: ignore[arg-type]
    Rewriter.erase_op(op)


def _one_dimensional(op: Operation, vector_type: Attribute, buffer: SSAValue) -> list[int]:
    shape = list(vector_type.get_shape())  # type: ignore[attr-defined]
    if len(shape) != 1:
        raise ExecutionError(
            f"{where(op)}: a {len(shape)}-D vector access to {buffer.type} (sub-byte "
            "elements) cannot run natively"
        )
    return shape


def _stores(op: Operation) -> bool:
    return isinstance(op, vector.StoreOp | affine.VectorStoreOp)


def _scalarize(op: Operation) -> None:
    add = _inserter(op)
    value = op.operands[0] if _stores(op) else None
    buffer = op.operands[1] if _stores(op) else op.operands[0]
    vector_type = value.type if value is not None else op.results[0].type
    shape = _one_dimensional(op, vector_type, buffer)
    indices = _indices(op, add)
    element = buffer.type.element_type  # type: ignore[attr-defined]
    lanes = []
    for lane in range(shape[0]):
        position = [*indices[:-1], _plus(indices[-1], lane, add)]
        if value is None:
            load = memref.LoadOp.get(buffer, position)
            add(load)
            lanes.append(load.res)
        else:
            extract = vector.ExtractOp(value, [lane], element)
            add(extract)
            add(memref.StoreOp.get(extract.result, buffer, position))
    if value is None:
        gathered = FromElementsOp(lanes, vector_type)
        add(gathered)
        op.results[0].replace_all_uses_with(gathered.result)
    Rewriter.erase_op(op)


def _indices(op: Operation, add: Insert) -> list[SSAValue]:
    first = 2 if _stores(op) else 1
    operands = list(op.operands[first:])
    if isinstance(op, vector.LoadOp | vector.StoreOp):
        return operands
    access_map: AffineMap = op.properties["map"].data  # type: ignore[attr-defined]
    results: list[SSAValue] = []
    for result in access_map.results:
        single = AffineMap(access_map.num_dims, access_map.num_symbols, (result,))
        apply = affine.ApplyOp(operands, AffineMapAttr(single))
        add(apply)
        results.append(apply.result)
    return results


def _plus(index: SSAValue, lane: int, add: Insert) -> SSAValue:
    if lane == 0:
        return index
    constant = arith.ConstantOp(IntegerAttr(lane, IndexType()))
    total = arith.AddiOp(index, constant.result)
    add(constant)
    add(total)
    return total.result


def _inserter(op: Operation) -> Insert:
    return lambda new: Rewriter.insert_op(new, InsertPoint.before(op))
