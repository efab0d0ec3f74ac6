"""Loading and storing one logical element of a physical buffer.

Unpacked layouts index the buffer directly. Packed layouts address a container and a lane:
an integer container is read with shift-and-truncate (HeteroCL's get_bit) and written with a
masked read-modify-write that leaves the other lanes alone (set_bit); a vector container is
read with `vector.extract` and written with load–`vector.insert`–store.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects import arith, memref, vector
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr

from heterolayout.layout.model import Layout
from heterolayout.passes.index_code import IndexEmitter, IndexLeaves, IndexMode, constant_index
from heterolayout.passes.physical import lane_expr, physical_exprs

Insert = Callable[[Operation], None]


def integer_constant(value: int, width: int) -> arith.ConstantOp:
    """An `iK` constant from any integer with the right low bits (two's complement)."""
    value &= (1 << width) - 1
    if value >> (width - 1):
        value -= 1 << width
    return arith.ConstantOp(IntegerAttr(value, IntegerType(width)))


def scalar_constant(value: int | float, element: Attribute) -> arith.ConstantOp:
    if isinstance(element, IntegerType):
        return integer_constant(int(value), element.width.data)
    if isinstance(element, IndexType):
        return arith.ConstantOp(IntegerAttr(int(value), IndexType()))
    return arith.ConstantOp(FloatAttr(float(value), element))  # type: ignore[arg-type]


def pad_constant(layout: Layout, storage_element: Attribute) -> arith.ConstantOp:
    """The value a whole physical slot holds when it is all pad: for packed layouts, a
    container whose every lane is the pad (unused bits 0)."""
    packing = layout.packing
    if packing is None:
        return scalar_constant(layout.pad, storage_element)
    assert layout.dtype is not None
    lanes = layout.physical_shape[-1]
    assert lanes is not None
    if packing.is_vector:
        assert isinstance(storage_element, VectorType)
        values = [layout.pad] * lanes
        return arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(storage_element, values))
    word = int(packing.to_words(np.full((1, lanes), layout.pad), layout.dtype)[0])
    return integer_constant(word, packing.container_bits)


class ElementAccess:
    """One layout-typed buffer, lowered: emits loads and stores of logical elements."""

    def __init__(
        self,
        buffer: SSAValue,
        layout: Layout,
        flat: bool,
        mode: IndexMode,
        element: Attribute,
    ) -> None:
        self.buffer = buffer
        self.layout = layout
        self.flat = flat
        self.mode = mode
        self.element = element

    def _address(
        self, logical: Sequence[AffineExpr], emitter: IndexEmitter
    ) -> tuple[list[SSAValue], AffineExpr | None]:
        exprs = [r.replace_dims_and_symbols(list(logical), []) for r in physical_exprs(self.layout, self.flat)]
        lane = lane_expr(self.layout)
        composed = None if lane is None else lane.replace_dims_and_symbols(list(logical), [])
        return emitter.emit_all(exprs), composed

    def load(self, logical: Sequence[AffineExpr], leaves: IndexLeaves, insert: Insert) -> SSAValue:
        emitter = IndexEmitter(leaves, insert, self.mode)
        indices, lane = self._address(logical, emitter)
        container = memref.LoadOp.get(self.buffer, indices)
        insert(container)
        if lane is None:
            return container.res
        packing = self.layout.packing
        assert packing is not None
        if packing.is_vector:
            extract = vector.ExtractOp(container.res, [self._position(lane, emitter)], self.element)
            insert(extract)
            return extract.result
        shift = self._shift(lane, emitter, insert)
        shifted = arith.ShRUIOp(container.res, shift)
        insert(shifted)
        if self.layout.dtype is not None and self.layout.dtype.bits == packing.container_bits:
            return shifted.result
        truncated = arith.TruncIOp(shifted.result, self.element)
        insert(truncated)
        return truncated.result

    def store(
        self, value: SSAValue, logical: Sequence[AffineExpr], leaves: IndexLeaves, insert: Insert
    ) -> None:
        emitter = IndexEmitter(leaves, insert, self.mode)
        indices, lane = self._address(logical, emitter)
        if lane is None:
            insert(memref.StoreOp.get(value, self.buffer, indices))
            return
        packing = self.layout.packing
        assert packing is not None and self.layout.dtype is not None
        container = memref.LoadOp.get(self.buffer, indices)
        insert(container)
        if packing.is_vector:
            updated: Operation = vector.InsertOp(value, container.res, [self._position(lane, emitter)])
            insert(updated)
        else:
            width = packing.container_bits
            word_type = IntegerType(width)
            shift = self._shift(lane, emitter, insert)
            bits = self.layout.dtype.bits
            if bits < width:
                widened = arith.ExtUIOp(value, word_type)
                insert(widened)
                value = widened.result
            ops: list[Operation] = []
            field = integer_constant((1 << bits) - 1, width)
            ones = integer_constant(-1, width)
            mask = arith.ShLIOp(field.result, shift)
            keep = arith.XOrIOp(mask.result, ones.result)
            cleared = arith.AndIOp(container.res, keep.result)
            placed = arith.ShLIOp(value, shift)
            updated = arith.OrIOp(cleared.result, placed.result)
            ops = [field, ones, mask, keep, cleared, placed, updated]
            for op in ops:
                insert(op)
        insert(memref.StoreOp.get(updated.results[0], self.buffer, indices))

    def _position(self, lane: AffineExpr, emitter: IndexEmitter) -> SSAValue | int:
        value = emitter.emit(emitter.best_form(lane))
        constant = constant_index(value)
        return value if constant is None else constant

    def _shift(self, lane: AffineExpr, emitter: IndexEmitter, insert: Insert) -> SSAValue:
        """The lane's bit offset in the container, as an `iK` value."""
        packing = self.layout.packing
        assert packing is not None and self.layout.dtype is not None
        bits, width = self.layout.dtype.bits, packing.container_bits
        offset = lane * bits if packing.bit_order == "lsb" else lane * -bits + (width - bits)
        index = emitter.emit(emitter.best_form(offset))
        cast = arith.IndexCastOp(index, IntegerType(width))
        insert(cast)
        return cast.result
