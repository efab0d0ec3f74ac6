"""Loading and storing one logical element of a physical buffer.

Unpacked layouts index the buffer directly. Packed layouts address a container and a lane:
an integer container is read with shift-and-truncate (HeteroCL's get_bit) and written with a
masked read-modify-write that leaves the other lanes alone (set_bit); a vector container is
read with `vector.extract` and written with load–`vector.insert`–store.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    AnyFloat,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr

from heterolayout.layout.element_types import element_type
from heterolayout.layout.model import Layout
from heterolayout.passes.index.index_code import (
    IndexEmitter,
    IndexLeaves,
    IndexMode,
    IndexScope,
)
from heterolayout.passes.packed.lane_update import replace_lane
from heterolayout.passes.physical import storage_element

Insert = Callable[[Operation], None]


def integer_constant(value: int, width: int) -> arith.ConstantOp:
    """An `iK` constant from any integer with the right low bits (two's complement)."""
    return arith.ConstantOp(IntegerAttr(_signed(value, width), IntegerType(width)))


def _signed(value: int, width: int) -> int:
    """The `iK` value with the same low bits, as MLIR prints it."""
    return element_type(f"i{width}").wrap(value)


def scalar_constant(value: int | float, element: Attribute) -> arith.ConstantOp:
    if isinstance(element, IntegerType):
        return integer_constant(int(value), element.width.data)
    if isinstance(element, IndexType):
        return arith.ConstantOp(IntegerAttr(int(value), IndexType()))
    assert isinstance(element, AnyFloat)
    return arith.ConstantOp(FloatAttr(float(value), element))


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
    import numpy as np

    word = int(packing.to_words(np.full((1, lanes), layout.pad), layout.dtype)[0])
    return integer_constant(word, packing.container_bits)


class ElementAccess:
    """One layout-typed buffer, lowered: emits loads and stores of logical elements.

    This is where a logical index becomes physical index code, for every access the
    lowering emits (loads, stores, the lanes of split vector accesses, conversion loops):
    `_address` composes the layout's storage map with the logical index and `IndexEmitter`
    turns the result into index ops. A check of the emitted address (translation
    validation) belongs here, next to `_address`.
    """

    def __init__(
        self,
        buffer: SSAValue,
        layout: Layout,
        flat: bool,
        mode: IndexMode,
        element: Attribute,
        scope: IndexScope | None = None,
    ) -> None:
        self.buffer = buffer
        self.layout = layout
        self.flat = flat
        self.mode = mode
        self.element = element
        """The logical element type."""
        self.storage = storage_element(layout, element)
        """The element type of the physical buffer: the container when packed."""
        self.scope = scope
        self._containers: dict[tuple[SSAValue, ...], SSAValue] = {}
        """Containers loaded since the last store (the lanes of one split vector load share them)."""

    def _address(
        self, logical: Sequence[AffineExpr], emitter: IndexEmitter
    ) -> tuple[list[SSAValue], AffineExpr | None]:
        exprs = [
            r.replace_dims_and_symbols(list(logical), [])
            for r in self.layout.storage_exprs(self.flat)
        ]
        lane = self.layout.lane_expr
        composed = None if lane is None else lane.replace_dims_and_symbols(list(logical), [])
        return emitter.emit_all(exprs), composed

    def load(self, logical: Sequence[AffineExpr], leaves: IndexLeaves, insert: Insert) -> SSAValue:
        emitter = IndexEmitter(leaves, insert, self.mode, self.scope)
        indices, lane = self._address(logical, emitter)
        if lane is None:
            loaded = self._load(indices)
            insert(loaded)
            return loaded.res
        container = self._containers.get(tuple(indices))
        if container is None:
            loaded = self._load(indices)
            insert(loaded)
            container = self._containers[tuple(indices)] = loaded.res
        packing = self.layout.packing
        assert packing is not None
        if packing.is_vector:
            from xdsl.dialects import vector

            extract = vector.ExtractOp(container, [self._position(lane, emitter)], self.element)
            insert(extract)
            return extract.result
        shift = self._shift(lane, emitter)
        shifted = arith.ShRUIOp(container, shift)
        insert(shifted)
        if self.layout.dtype is not None and self.layout.dtype.bits == packing.container_bits:
            return shifted.result
        assert isinstance(self.element, IntegerType)
        truncated = arith.TruncIOp(shifted.result, self.element)
        insert(truncated)
        return truncated.result

    def store(
        self, value: SSAValue, logical: Sequence[AffineExpr], leaves: IndexLeaves, insert: Insert
    ) -> None:
        emitter = IndexEmitter(leaves, insert, self.mode, self.scope)
        indices, lane = self._address(logical, emitter)
        self._containers.clear()
        if lane is None:
            insert(self._store(value, indices))
            return
        packing = self.layout.packing
        assert packing is not None and self.layout.dtype is not None
        container = self._load(indices)
        insert(container)
        if packing.is_vector:
            updated = replace_lane(value, container.res, self._position(lane, emitter), insert)
        else:
            width = packing.container_bits
            word_type = IntegerType(width)
            shift = self._shift(lane, emitter)
            bits = self.layout.dtype.bits
            if bits < width:
                widened = arith.ExtUIOp(value, word_type)
                insert(widened)
                value = widened.result
            field = emitter.constant(_signed((1 << bits) - 1, width), word_type)
            ones = emitter.constant(-1, word_type)
            mask = emitter.shared((arith.ShLIOp, field, shift), lambda: arith.ShLIOp(field, shift))
            keep = emitter.shared((arith.XOrIOp, mask, ones), lambda: arith.XOrIOp(mask, ones))
            cleared = arith.AndIOp(container.res, keep)
            placed = arith.ShLIOp(value, shift)
            combined = arith.OrIOp(cleared.result, placed.result)
            for op in (cleared, placed, combined):
                insert(op)
            updated = combined.result
        insert(self._store(updated, indices))

    def indices(
        self, logical: Sequence[AffineExpr], leaves: IndexLeaves, insert: Insert
    ) -> list[SSAValue]:
        """The physical index of the element at `logical` (of its container when packed)."""
        indices, _ = self._address(logical, IndexEmitter(leaves, insert, self.mode, self.scope))
        return indices

    def load_vector(
        self, logical: Sequence[AffineExpr], leaves: IndexLeaves, insert: Insert, lanes: int
    ) -> SSAValue:
        """`lanes` elements from `logical` on, which the caller knows to be consecutive
        along the innermost physical dim (an unpacked layout)."""
        from xdsl.dialects import vector

        indices, lane = self._address(logical, IndexEmitter(leaves, insert, self.mode, self.scope))
        assert lane is None
        loaded = vector.LoadOp(self.buffer, indices, VectorType(self.element, [lanes]))
        insert(loaded)
        return loaded.result

    def store_vector(
        self,
        value: SSAValue,
        logical: Sequence[AffineExpr],
        leaves: IndexLeaves,
        insert: Insert,
        *,
        streaming: bool = False,
    ) -> None:
        """Store a vector at `logical` on (consecutive along the innermost physical dim);
        `streaming` marks the store nontemporal (it bypasses the caches)."""
        from xdsl.dialects import vector

        indices, lane = self._address(logical, IndexEmitter(leaves, insert, self.mode, self.scope))
        assert lane is None
        self._containers.clear()
        hint = BoolAttr.from_bool(True) if streaming else None
        insert(vector.StoreOp(value, self.buffer, indices, hint))

    def load_container(
        self, logical: Sequence[AffineExpr], leaves: IndexLeaves, insert: Insert
    ) -> SSAValue:
        """The whole container where the element at `logical` lives."""
        indices, _ = self._address(logical, IndexEmitter(leaves, insert, self.mode, self.scope))
        loaded = self._load(indices)
        insert(loaded)
        return loaded.res

    def store_container(
        self, word: SSAValue, logical: Sequence[AffineExpr], leaves: IndexLeaves, insert: Insert
    ) -> None:
        """Store a whole container (all its lanes) where the element at `logical` lives."""
        indices, _ = self._address(logical, IndexEmitter(leaves, insert, self.mode, self.scope))
        self._containers.clear()
        insert(self._store(word, indices))

    def store_containers(
        self, words: SSAValue, logical: Sequence[AffineExpr], leaves: IndexLeaves, insert: Insert
    ) -> None:
        """Store a vector of whole containers: the first where the element at `logical`
        lives, the others after it along the innermost storage dim."""
        from xdsl.dialects import vector

        indices, _ = self._address(logical, IndexEmitter(leaves, insert, self.mode, self.scope))
        self._containers.clear()
        insert(vector.StoreOp(words, self.buffer, indices))

    def _load(self, indices: Sequence[SSAValue]) -> memref.LoadOp:
        """`memref.load`, built without the generic constructor's argument checking (a large
        part of the cost of lowering many accesses); the op is the same."""
        return memref.LoadOp.create(operands=[self.buffer, *indices], result_types=[self.storage])

    def _store(self, value: SSAValue, indices: Sequence[SSAValue]) -> memref.StoreOp:
        return memref.StoreOp.create(operands=[value, self.buffer, *indices])

    def _position(self, lane: AffineExpr, emitter: IndexEmitter) -> SSAValue | int:
        """A lane known at compile time is a static position (no constant op)."""
        form = emitter.best_form(lane)
        if isinstance(form, AffineConstantExpr):
            return form.value
        return emitter.emit(form)

    def _shift(self, lane: AffineExpr, emitter: IndexEmitter) -> SSAValue:
        """The lane's bit offset in the container, as an `iK` value."""
        packing = self.layout.packing
        assert packing is not None and self.layout.dtype is not None
        bits, width = self.layout.dtype.bits, packing.container_bits
        offset = lane * bits if packing.bit_order == "lsb" else lane * -bits + (width - bits)
        form = emitter.best_form(offset)
        word_type = IntegerType(width)
        if isinstance(form, AffineConstantExpr):
            return emitter.constant(_signed(form.value, width), word_type)
        index = emitter.emit(form)
        return emitter.shared(
            (arith.IndexCastOp, index, word_type), lambda: arith.IndexCastOp(index, word_type)
        )
