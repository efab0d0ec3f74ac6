"""Memrefs at run time: plain numpy arrays, and layout-aware memrefs.

A memref without a layout is a numpy array of its shape (plus the vector shape when its
elements are vectors) and its element type's numpy dtype. A layout-typed memref is a
`LayoutMemRef`: the physical buffer the lowered program would hold (`Layout.pack`'s form:
pad slots hold the pad value, packed lanes sit in their containers), read and written in
logical coordinates through the Layout. Both engines use these helpers, so an access fails
with the same message in both.

`memref.dealloc` frees a buffer for good (`RunMemory.dealloc`): a freed numpy buffer is
poisoned and read-only, a freed LayoutMemRef changes class to `FreedLayoutMemRef`. Neither
costs a live buffer anything per access; the helpers below refuse a freed buffer.
"""

from __future__ import annotations

import functools
import math
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, UnrankedMemRefType, VectorType
from xdsl.ir import Attribute

from heterolayout.dialects.dense import dense_array
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime.values import element_of, vector_shape
from heterolayout.layout.element_types import ElementType
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.limits import MAX_ELEMENTS
from heterolayout.layout.model import Layout


@dataclass(frozen=True)
class MemRefInfo:
    """What the engines need from a memref type."""

    type: MemRefType
    shape: tuple[int | None, ...]
    """Logical shape, None for `?`."""
    element: ElementType
    lanes: tuple[int, ...]
    """Shape of a vector element, () for scalar elements."""
    layout: Layout | None

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def is_static(self) -> bool:
        return None not in self.shape


@functools.lru_cache(maxsize=4096)
def memref_info(memref_type: Attribute) -> MemRefInfo:
    if not isinstance(memref_type, MemRefType):
        raise ExecutionError(f"type {memref_type} is not a ranked memref type")
    shape = tuple(None if e == DYNAMIC_INDEX else e for e in memref_type.get_shape())
    element_type = memref_type.element_type
    lanes = vector_shape(element_type) or ()
    element = element_of(element_type)
    try:
        from heterolayout.dialects import layout_of

        layout = layout_of(memref_type)
    except LayoutError as error:
        raise ExecutionError(f"type {memref_type}: {error}") from None
    if layout is not None and isinstance(element_type, VectorType):
        raise ExecutionError(
            f"type {memref_type}: a layout on a memref of vectors is not supported"
        )
    return MemRefInfo(memref_type, shape, element, lanes, layout)


def _text(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def out_of_bounds(
    where: str, index: Sequence[int], bounds: Sequence[int], *, logical: bool = False
) -> ExecutionError:
    kind = "logical " if logical else ""
    return ExecutionError(
        f"out-of-bounds access in {where}: {kind}index {_text(index)} outside {kind}bounds {_text(bounds)}"
    )


def check_index(index: Sequence[int], bounds: Sequence[int], where: str) -> None:
    for value, extent in zip(index, bounds, strict=True):
        if not 0 <= value < extent:
            raise out_of_bounds(where, index, bounds)


class LayoutMemRef:
    """A logical memref seen through a Layout over its physical buffer."""

    __slots__ = (
        "__weakref__",
        "_flat",
        "_lanes",
        "_mask",
        "_offsets",
        "_shifts",
        "buffer",
        "element",
        "layout",
        "shape",
    )

    def __init__(self, layout: Layout, element: ElementType, buffer: np.ndarray) -> None:
        if layout.is_dynamic:
            raise ExecutionError(f"layout {layout!r} has dynamic dims; specialize it first")
        self.layout = layout
        self.element = element
        self.shape: tuple[int, ...] = layout.logical_shape  # type: ignore[assignment]
        self.buffer = np.ascontiguousarray(buffer)
        self._flat = self.buffer.reshape(-1)
        self._offsets: list[int] = layout.offsets().ravel().tolist()
        packing = layout.packing
        self._lanes = 0
        if packing is not None and not packing.is_vector:
            lanes: int = layout.physical_shape[-1]  # type: ignore[assignment]
            self._lanes = lanes
            self._mask = (1 << element.bits) - 1
            self._shifts = tuple(
                packing._shift(lane, element.bits, packing.container_bits) for lane in range(lanes)
            )

    @staticmethod
    def allocate(layout: Layout, element: ElementType) -> LayoutMemRef:
        """A fresh buffer: logical elements 0, pad slots the pad value."""
        zeros = np.zeros(layout.static_logical_shape, dtype=element.numpy_dtype)
        return LayoutMemRef(layout, element, layout.pack(zeros, native=False))

    @staticmethod
    def from_logical(layout: Layout, element: ElementType, array: np.ndarray) -> LayoutMemRef:
        """Packed by numpy: the engines' logical view is the reference `check` compares the
        lowering with, so it never runs the compiled conversion (code under check)."""
        return LayoutMemRef(layout, element, layout.pack(array, native=False))

    def _slot(self, index: Sequence[int], where: str) -> int:
        flat = 0
        for value, extent in zip(index, self.shape, strict=True):
            if not 0 <= value < extent:
                raise out_of_bounds(where, index, self.shape, logical=True)
            flat = flat * extent + value
        return self._offsets[flat]

    def load(self, index: Sequence[int], where: str) -> int | float:
        slot = self._slot(index, where)
        if not self._lanes:
            return self._flat.item(slot)
        word = self._flat.item(slot // self._lanes)
        return self.element.wrap((word >> self._shifts[slot % self._lanes]) & self._mask)

    def store(self, index: Sequence[int], value: int | float, where: str) -> None:
        slot = self._slot(index, where)
        if not self._lanes:
            self._flat[slot] = value
            return
        container = slot // self._lanes
        shift = self._shifts[slot % self._lanes]
        word = self._flat.item(container) & ~(self._mask << shift)
        self._flat[container] = word | ((int(value) & self._mask) << shift)

    def logical(self) -> np.ndarray:
        return self.layout.unpack(self.buffer, native=False)

    def write_logical(self, array: np.ndarray) -> None:
        """Overwrite every logical element (and reset the pad slots to the pad value)."""
        self.buffer[...] = self.layout.pack(array, native=False)

    def __repr__(self) -> str:
        return f"LayoutMemRef({self.layout!r})"


class FreedLayoutMemRef(LayoutMemRef):
    """A deallocated LayoutMemRef: `free` swaps the class, so live ones check nothing per
    access."""

    __slots__ = ()

    def load(self, index: Sequence[int], where: str) -> int | float:
        raise deallocated(where)

    def store(self, index: Sequence[int], value: int | float, where: str) -> None:
        raise deallocated(where)

    def logical(self) -> np.ndarray:
        raise ExecutionError("use of a deallocated memref")

    def write_logical(self, array: np.ndarray) -> None:
        raise ExecutionError("use of a deallocated memref")

    def __repr__(self) -> str:
        return f"FreedLayoutMemRef({self.layout!r})"


BYTE_VIEW_OP = "builtin.unrealized_conversion_cast"
"""The op `layout-lower` and `layout-strip` view a memref of sub-byte elements as its bytes
with (`passes.packed.sub_byte_accesses`); upstream's LLVM lowering folds it, the engines run it
as a `ByteView`."""


@dataclass(frozen=True)
class ByteViewPlan:
    """What a byte view cast does: the source's element (and its vector lanes, 0 for scalar
    elements) seen as the result's integer, or as `words` of them (the result's vector
    lanes, 0 for an integer)."""

    narrow: ElementType
    lanes: int
    wide: ElementType
    source: str
    """The source memref type, for diagnostics."""
    words: int = 0


class ByteView:
    """A memref of sub-byte integers, or of vectors of them, seen as the integers LLVM
    allocates for its elements (`builtin.unrealized_conversion_cast`, which upstream's LLVM
    lowering folds: the two memref types have one descriptor). It is the same memory: an
    element's integer holds its value's bits, zero above its width (as LLVM stores an `iN`),
    a bit vector's lanes packed LSB-first (as LLVM lays out a `vector<6xi1>`), over i64
    words from the first for a vector of more bits. Storing an integer with bits above the
    element's is refused: LLVM's loads of the element assume they are zero."""

    __slots__ = ("base", "plan", "shape")

    def __init__(self, base: np.ndarray, plan: ByteViewPlan) -> None:
        self.base = base
        self.plan = plan
        self.shape: tuple[int, ...] = base.shape[:-1] if plan.lanes else base.shape

    @property
    def _bits(self) -> int:
        return self.plan.narrow.bits * max(1, self.plan.lanes)

    def _words(self, window: tuple[Any, ...], where: str) -> np.ndarray:
        check_live(self.base, where)
        narrow = self.plan.narrow.bits
        fields = self.base[window].astype(np.int64).astype(np.uint64) & np.uint64((1 << narrow) - 1)
        if self.plan.words:
            return canonical_array(self._pack_words(fields), self.plan.wide)
        if self.plan.lanes:
            shifts = np.arange(self.plan.lanes, dtype=np.uint64) * np.uint64(narrow)
            fields = np.bitwise_or.reduce(fields << shifts, axis=-1)
        return canonical_array(fields, self.plan.wide)

    def _pack_words(self, fields: np.ndarray) -> np.ndarray:
        """(…, lanes) fields → (…, words) uint64, lane i at bits [i·b, (i+1)·b) of them."""
        narrow = self.plan.narrow.bits
        words = np.zeros((*fields.shape[:-1], self.plan.words), dtype=np.uint64)
        for lane in range(self.plan.lanes):
            first, shift = divmod(lane * narrow, 64)
            words[..., first] |= fields[..., lane] << np.uint64(shift)
            if shift + narrow > 64:
                words[..., first + 1] |= fields[..., lane] >> np.uint64(64 - shift)
        return words

    def _write_words(self, window: tuple[Any, ...], values: Any, where: str) -> None:
        words = np.asarray(values).astype(np.int64).astype(np.uint64)
        narrow, lanes = self.plan.narrow.bits, self.plan.lanes
        fields = np.zeros((*words.shape[:-1], lanes), dtype=np.uint64)
        for lane in range(lanes):
            first, shift = divmod(lane * narrow, 64)
            field = words[..., first] >> np.uint64(shift)
            if shift + narrow > 64:
                field |= words[..., first + 1] << np.uint64(64 - shift)
            fields[..., lane] = field & np.uint64((1 << narrow) - 1)
        if not np.array_equal(self._pack_words(fields), words):
            raise ExecutionError(
                f"{where}: stores {np.asarray(values).tolist()} through the "
                f"vector<{self.plan.words}x{self.plan.wide}> view of {self.plan.source}: bits "
                f"above the {self._bits} of an element, which upstream's LLVM lowering assumes "
                "are zero"
            )
        self.base[window] = canonical_array(fields, self.plan.narrow)

    def _write(self, window: tuple[Any, ...], values: Any, where: str) -> None:
        check_live(self.base, where)
        if self.plan.words:
            self._write_words(window, values, where)
            return
        wide = self.plan.wide.bits
        words = np.asarray(values).astype(np.int64).astype(np.uint64)
        if wide < 64:
            words &= np.uint64((1 << wide) - 1)
        if self._bits < 64:
            above = words >> np.uint64(self._bits)
            if above.any():
                value = np.asarray(values).reshape(-1)[int(np.flatnonzero(above)[0])]
                raise ExecutionError(
                    f"{where}: stores {value} through the {self.plan.wide} view of "
                    f"{self.plan.source}: bits above the {self._bits} of an element, which "
                    "upstream's LLVM lowering assumes are zero"
                )
        narrow = self.plan.narrow.bits
        if self.plan.lanes:
            shifts = np.arange(self.plan.lanes, dtype=np.uint64) * np.uint64(narrow)
            words = (words[..., None] >> shifts) & np.uint64((1 << narrow) - 1)
        self.base[window] = canonical_array(words, self.plan.narrow)

    def load(self, index: tuple[int, ...], where: str) -> Any:
        check_index(index, self.shape, where)
        words = self._words(tuple(index), where)
        return words if self.plan.words else int(words)

    def store(self, index: tuple[int, ...], value: Any, where: str) -> None:
        check_index(index, self.shape, where)
        self._write(tuple(index), value, where)

    def vector_load(
        self, index: tuple[int, ...], lanes: tuple[int, ...], dtype: np.dtype, where: str
    ) -> np.ndarray:
        window = _vector_window(self.shape, index, lanes, where)
        return self._words(window, where).astype(dtype)

    def vector_store(self, vector: np.ndarray, index: tuple[int, ...], where: str) -> None:
        self._write(_vector_window(self.shape, index, vector.shape, where), vector, where)

    def __repr__(self) -> str:
        return f"ByteView({self.plan.wide} of {self.plan.source})"


def byte_view(source: Any, plan: ByteViewPlan, where: str) -> ByteView:
    if not isinstance(source, np.ndarray):
        raise ExecutionError(f"{where}: a byte view of {plan.source} needs a plain buffer")
    return ByteView(source, plan)


MemRef = np.ndarray | LayoutMemRef


# ---- creation and conversion ------------------------------------------------------------------
def canonical_array(array: Any, element: ElementType) -> np.ndarray:
    """`array` as values of `element` in its numpy dtype (integers wrap, floats round)."""
    data = np.asarray(array)
    dtype = element.numpy_dtype
    if element.is_float:
        return data.astype(dtype)
    if data.dtype.kind == "f":
        data = np.trunc(data)
    if element.bits == 64 and not element.holds_negative:
        return data.astype(np.uint64)
    wide = data.astype(np.int64)
    mask = (1 << element.bits) - 1 if element.bits < 64 else -1
    if element.bits < 64:
        wide = wide & mask
        if element.holds_negative:
            half = 1 << (element.bits - 1)
            wide = ((wide + half) & mask) - half
    return wide.astype(dtype)


def specialized(info: MemRefInfo, shape: Sequence[int]) -> Layout:
    assert info.layout is not None
    if info.layout.is_dynamic:
        return info.layout.specialize(tuple(shape))
    return info.layout


def allocate(info: MemRefInfo, dynamic_sizes: Sequence[int], where: str) -> MemRef:
    sizes = iter(dynamic_sizes)
    shape = tuple(next(sizes) if e is None else e for e in info.shape)
    if any(e < 0 for e in shape):
        raise ExecutionError(f"{where}: negative size in shape {_text(shape)}")
    check_size(info, shape, where)
    if info.layout is None:
        return np.zeros(shape + info.lanes, dtype=info.element.numpy_dtype)
    return LayoutMemRef.allocate(specialized(info, shape), info.element)


def check_size(info: MemRefInfo, shape: Sequence[int], where: str) -> None:
    """Refuse a buffer beyond `MAX_ELEMENTS` slots (the physical ones of a layout) before
    anything is allocated."""
    elements = math.prod(shape) * math.prod(info.lanes)
    if info.layout is not None:
        layout = specialized(info, shape)
        elements = max(elements, layout.size)
    if elements > MAX_ELEMENTS:
        raise ExecutionError(
            f"{where}: a buffer of {elements} elements ({info.type}) is more than the limit of "
            f"{MAX_ELEMENTS} elements that the engines allocate"
        )


def from_logical(array: Any, info: MemRefInfo, what: str) -> MemRef:
    """A memref value of `info`'s type holding the logical contents `array`."""
    data = canonical_array(array, info.element)
    expected_rank = info.rank + len(info.lanes)
    static = info.shape + info.lanes
    if data.ndim != expected_rank or any(
        e is not None and e != d for e, d in zip(static, data.shape, strict=True)
    ):
        raise ExecutionError(
            f"{what}: expected an array for {info.type}, got one of shape {_text(data.shape)}"
        )
    if info.layout is None:
        return np.require(data, requirements="C")  # ascontiguousarray makes a 0-d array 1-d
    return LayoutMemRef.from_logical(specialized(info, data.shape), info.element, data)


def to_logical(value: MemRef) -> np.ndarray:
    """The logical contents of a memref (a copy for layout-aware memrefs, the array itself
    otherwise)."""
    if isinstance(value, LayoutMemRef):
        return value.logical()
    return value


def shape_of(value: MemRef) -> tuple[int, ...]:
    """The logical shape (without the vector shape of vector elements)."""
    if isinstance(value, LayoutMemRef | ByteView):
        return value.shape
    return value.shape


# ---- accesses ---------------------------------------------------------------------------------
def load(memref: MemRef, index: tuple[int, ...], where: str) -> Any:
    """memref.load / affine.load: a scalar, or a vector element (a copy)."""
    if isinstance(memref, LayoutMemRef | ByteView):
        return memref.load(index, where)
    if not memref.flags.writeable:
        raise deallocated(where)
    check_index(index, memref.shape[: len(index)], where)
    if memref.ndim == len(index):
        return memref.item(index)
    return memref[index].copy()


def store(memref: MemRef, index: tuple[int, ...], value: Any, where: str) -> None:
    if isinstance(memref, LayoutMemRef | ByteView):
        memref.store(index, value, where)
        return
    check_index(index, memref.shape[: len(index)], where)
    try:
        memref[index] = value
    except ValueError:  # numpy refuses to write a read-only (freed) buffer
        if is_freed(memref):
            raise deallocated(where) from None
        raise


def _vector_window(
    bounds: tuple[int, ...], index: tuple[int, ...], lanes: tuple[int, ...], where: str
) -> tuple[slice | int, ...]:
    """The region a vector access covers: its shape aligns with the innermost memref dims."""
    check_index(index, bounds, where)
    fixed = len(bounds) - len(lanes)
    if fixed < 0:
        raise ExecutionError(
            f"{where}: a vector of shape {_text(lanes)} does not fit a memref of rank {len(bounds)}"
        )
    for dim, extent in enumerate(lanes):
        start, size = index[fixed + dim], bounds[fixed + dim]
        if start + extent > size:
            last = list(index)
            last[fixed + dim] = start + extent - 1
            raise out_of_bounds(where, last, bounds)
    return (
        *index[:fixed],
        *(slice(index[fixed + d], index[fixed + d] + e) for d, e in enumerate(lanes)),
    )


def vector_load(
    memref: MemRef, index: tuple[int, ...], lanes: tuple[int, ...], dtype: np.dtype, where: str
) -> np.ndarray:
    """vector.load: a whole vector element, or a vector of consecutive scalar elements."""
    if isinstance(memref, ByteView):
        return memref.vector_load(index, lanes, dtype, where)
    check_live(memref, where)
    if isinstance(memref, LayoutMemRef):
        _vector_window(memref.shape, index, lanes, where)
        fixed = len(memref.shape) - len(lanes)
        out = np.empty(lanes, dtype=dtype)
        for inner in np.ndindex(*lanes):
            position = (*index[:fixed], *(s + i for s, i in zip(index[fixed:], inner, strict=True)))
            out[inner] = memref.load(position, where)
        return out
    if memref.ndim > len(index):
        return load(memref, index, where)
    return memref[_vector_window(memref.shape, index, lanes, where)].copy()


def vector_store(vector: np.ndarray, memref: MemRef, index: tuple[int, ...], where: str) -> None:
    if isinstance(memref, ByteView):
        memref.vector_store(vector, index, where)
        return
    check_live(memref, where)
    lanes = vector.shape
    if isinstance(memref, LayoutMemRef):
        _vector_window(memref.shape, index, lanes, where)
        fixed = len(memref.shape) - len(lanes)
        for inner in np.ndindex(*lanes):
            position = (*index[:fixed], *(s + i for s, i in zip(index[fixed:], inner, strict=True)))
            memref.store(position, vector.item(inner), where)
        return
    if memref.ndim > len(index):
        store(memref, index, vector, where)
        return
    memref[_vector_window(memref.shape, index, lanes, where)] = vector


def copy(source: MemRef, target: MemRef, where: str) -> None:
    """memref.copy / layout.convert: the logical contents of `source` into `target`."""
    check_live(source, where)
    check_live(target, where)
    if shape_of(source) != shape_of(target):
        raise ExecutionError(
            f"{where}: source shape {_text(shape_of(source))} differs from target shape {_text(shape_of(target))}"
        )
    if isinstance(target, LayoutMemRef):
        target.write_logical(to_logical(source))
    else:
        np.copyto(target, to_logical(source))


def dim(memref: MemRef, index: int, where: str) -> int:
    check_live(memref, where)
    shape = shape_of(memref)
    if not 0 <= index < len(shape):
        raise ExecutionError(
            f"{where}: dimension {index} is out of range for a memref of rank {len(shape)}"
        )
    return shape[index]


def rank(memref: MemRef, where: str) -> int:
    check_live(memref, where)
    return len(shape_of(memref))


def address(memref: MemRef, where: str) -> int:
    """memref.extract_aligned_pointer_as_index: where the buffer's data starts in memory
    (the physical buffer's, for a layout-typed memref)."""
    check_live(memref, where)
    return int((memref.buffer if isinstance(memref, LayoutMemRef) else memref).ctypes.data)


def cast_target(memref_type: Attribute) -> MemRefInfo | None:
    """What memref.cast checks a buffer against: the ranked result type's info, or None for
    an unranked result (`memref<*xf32>`, what the runner utils' printMemref* take)."""
    if isinstance(memref_type, UnrankedMemRefType):
        return None
    return memref_info(memref_type)


def cast(memref: MemRef, info: MemRefInfo | None, where: str) -> MemRef:
    """memref.cast: the same buffer, checked against the static dims of a ranked new type
    (a buffer of vector elements holds them in its innermost numpy dims)."""
    if info is None:
        return memref
    shape = shape_of(memref)
    rank = len(shape) - len(info.lanes)
    if (
        rank != info.rank
        or shape[rank:] != info.lanes
        or any(e is not None and e != s for e, s in zip(info.shape, shape[:rank], strict=True))
    ):
        raise ExecutionError(
            f"{where}: a memref of shape {_text(shape)} does not match {info.type}"
        )
    if hasattr(memref, "base") and isinstance(memref, LayoutMemRef):
        return memref  # a view's types describe its window (checked by `view_types`)
    before = memref.layout if isinstance(memref, LayoutMemRef) else None
    after = None if info.layout is None else specialized(info, shape[:rank])
    if (before is not None or after is not None) and (
        before is None or after is None or not (before == after or before.equivalent(after))
    ):
        raise ExecutionError(
            f"{where}: the cast to {info.type} changes the layout; a cast may change static "
            "and dynamic extents, never the layout (use layout.convert into a new buffer)"
        )
    return memref


def global_value(info: MemRefInfo, initial: Any) -> MemRef:
    """The buffer of a memref.global: its dense initializer (splats broadcast), or zeros."""
    static: tuple[int, ...] = info.shape  # type: ignore[assignment]
    check_size(info, static, "memref.global")
    if initial is None:
        return allocate(info, (), "memref.global")
    data = dense_array(initial)
    size = math.prod(static) * math.prod(info.lanes)
    if data.size == 1 and size != 1:
        data = np.broadcast_to(data, (size,))
    return from_logical(np.array(data).reshape(static + info.lanes), info, "memref.global")


# ---- deallocation -----------------------------------------------------------------------------
POISON_BITS = 0xDEADBEEFDEADBEEF
"""What a freed integer buffer holds (its low bytes, as the element's numpy dtype): a value a
lowered program that reads freed memory is unlikely to compute by chance."""


def deallocated(where: str) -> ExecutionError:
    return ExecutionError(f"use of a deallocated memref in {where}")


def is_freed(memref: MemRef) -> bool:
    """Whether `memref.dealloc` freed the buffer. Engines hand out only writeable numpy
    buffers (arguments included), so a read-only one is a freed one."""
    if isinstance(memref, LayoutMemRef):
        return isinstance(memref, FreedLayoutMemRef)
    if isinstance(memref, ByteView):
        return is_freed(memref.base)
    return not memref.flags.writeable


def check_live(memref: MemRef, where: str) -> None:
    if is_freed(memref):
        raise deallocated(where)


def poison(dtype: np.dtype) -> int | float:
    """NaN for floats, the low bytes of `POISON_BITS` (as a signed value where the dtype is
    signed) for integers."""
    if dtype.kind == "f":
        return math.nan
    bits = dtype.itemsize * 8
    value = POISON_BITS & ((1 << bits) - 1)
    return value - (1 << bits) if dtype.kind == "i" and value >> (bits - 1) else value


def free(memref: MemRef) -> None:
    """Make the buffer unusable. Loads the compiled engine inlines cannot check, so a freed
    numpy buffer also holds poison: a lowering that reads it computes something else."""
    if isinstance(memref, LayoutMemRef):
        memref.__class__ = FreedLayoutMemRef
        return
    memref.fill(poison(memref.dtype))
    memref.flags.writeable = False


class RunMemory:
    """The memory of one run: the globals' buffers (made on first use), and the buffers
    `memref.dealloc` must refuse: the entry function's arguments (the caller owns them),
    globals, and allocas (MLIR leaves freeing them undefined)."""

    __slots__ = ("_allocas", "_arguments", "entry", "globals")

    def __init__(self, entry: str = "", arguments: Sequence[Any] = ()) -> None:
        self.entry = entry
        self.globals: dict[str, MemRef] = {}
        self._arguments = {
            id(a): (i, a)
            for i, a in enumerate(arguments)
            if isinstance(a, np.ndarray | LayoutMemRef)
        }
        self._allocas: weakref.WeakValueDictionary[int, MemRef] = weakref.WeakValueDictionary()

    def global_buffer(self, name: str, info: MemRefInfo, initial: Any) -> MemRef:
        found = self.globals.get(name)
        if found is None:
            found = self.globals[name] = global_value(info, initial)
        return found

    def alloca(self, memref: MemRef) -> MemRef:
        self._allocas[id(memref)] = memref
        return memref

    def dealloc(self, memref: MemRef, where: str) -> None:
        while isinstance(memref, LayoutMemRef) and hasattr(memref, "base"):
            memref = memref.base  # a view frees its root, as upstream's lowering does
        if is_freed(memref):
            raise ExecutionError(f"double dealloc in {where}: the memref is already deallocated")
        owner = self._owner(memref)
        if owner is not None:
            raise ExecutionError(f"invalid dealloc in {where}: the memref {owner}")
        free(memref)

    def _owner(self, memref: MemRef) -> str | None:
        argument = self._arguments.get(id(memref))
        if argument is not None and argument[1] is memref:
            return f"is argument {argument[0]} of @{self.entry}, which the caller owns"
        for name, buffer in self.globals.items():
            if buffer is memref:
                return f"is the buffer of memref.global @{name}"
        if self._allocas.get(id(memref)) is memref:
            return "comes from memref.alloca"
        return None


def check_returned(entry: str, types: Sequence[Attribute], results: Sequence[Any]) -> None:
    """The entry function must not hand its caller a freed buffer."""
    for number, (type_attr, value) in enumerate(zip(types, results, strict=True)):
        if isinstance(type_attr, MemRefType | UnrankedMemRefType) and is_freed(value):
            raise ExecutionError(f"@{entry} returns a deallocated memref (result {number})")
