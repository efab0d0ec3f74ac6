"""Values across the native boundary: how MLIR types sit in memory once lowered to LLVM.

A compiled module is called through the packed wrappers MLIR's execution engine adds to
every function (`void _mlir_<name>(void **args)`): `args[i]` points at the i-th parameter
of the LLVM function, and, when it returns something, `args[n]` points where the result is
stored. func-to-llvm expands a memref parameter into its descriptor's fields (allocated
and aligned pointers, offset, sizes, strides), returns one result as itself and several as
a struct. This module knows the x86-64 data layout of those types: scalars take their
alloc size; a vector is stored as one integer of all its bits (lanes of 1 or 4 bits are
bit-packed) aligned to the next power of two of its bytes; an n-D vector is an array of its
innermost 1-D vectors; a descriptor is {ptr, ptr, i64, [r x i64], [r x i64]}.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType, VectorType
from xdsl.ir import Attribute

from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime.memref import canonical_array, memref_info
from heterolayout.execution.runtime.values import element_of, python_value, vector_shape
from heterolayout.layout.element_types import ElementType

GLOBAL_ALLOCATED = 0xDEADBEEF
"""The allocated pointer finalize-memref-to-llvm gives a `memref.get_global` (not heap)."""


def _pow2_ceil(value: int) -> int:
    return 1 << max(0, value - 1).bit_length()


def scalar_size(element: ElementType) -> int:
    """Bytes a scalar occupies in memory (its alloc size): what its numpy dtype holds."""
    return int(element.numpy_dtype.itemsize)


def _is_bytewise(element: ElementType) -> bool:
    """Whether a vector of this element is an array of whole elements in memory."""
    return element.bits in (8, 16, 32, 64)


@dataclass(frozen=True)
class Rows:
    """The memory form of 1-D vectors of `lanes` elements (an n-D vector is rows of its
    innermost dim; a memref of vectors is rows too)."""

    element: ElementType
    lanes: int

    @property
    def store_bytes(self) -> int:
        return -(-self.lanes * self.element.bits // 8)

    @property
    def alloc_bytes(self) -> int:
        return _pow2_ceil(max(1, self.store_bytes))

    @property
    def is_plain(self) -> bool:
        """Whether rows are exactly the numpy array's bytes (no bit packing, no padding)."""
        return _is_bytewise(self.element) and self.store_bytes == self.alloc_bytes

    def encode(self, values: np.ndarray) -> np.ndarray:
        """(n, lanes) values → (n, alloc_bytes) uint8."""
        count = values.shape[0]
        out = np.zeros((count, self.alloc_bytes), dtype=np.uint8)
        if _is_bytewise(self.element):
            data = np.ascontiguousarray(values.astype(self.element.numpy_dtype))
            out[:, : self.store_bytes] = data.view(np.uint8).reshape(count, self.store_bytes)
            return out
        bits = self.element.bits
        mask = (1 << bits) - 1
        for row, lanes in enumerate(values.tolist()):
            word = sum((int(v) & mask) << (i * bits) for i, v in enumerate(lanes))
            out[row, : self.store_bytes] = np.frombuffer(
                word.to_bytes(self.store_bytes, "little"), dtype=np.uint8
            )
        return out

    def decode(self, raw: np.ndarray) -> np.ndarray:
        """(n, alloc_bytes) uint8 → (n, lanes) values of the element's numpy dtype."""
        count = raw.shape[0]
        dtype = self.element.numpy_dtype
        if _is_bytewise(self.element):
            data = np.ascontiguousarray(raw[:, : self.store_bytes])
            return data.view(dtype).reshape(count, self.lanes).copy()
        bits = self.element.bits
        mask = (1 << bits) - 1
        out = np.empty((count, self.lanes), dtype=dtype)
        for row in range(count):
            word = int.from_bytes(raw[row, : self.store_bytes].tobytes(), "little")
            out[row] = [self.element.wrap((word >> (i * bits)) & mask) for i in range(self.lanes)]
        return out


# ---- scalars and vectors as parameter values ----------------------------------------------------
def encode_scalar(value: Any, element: ElementType) -> bytes:
    size = scalar_size(element)
    if element.is_float:
        return np.asarray(value, dtype=element.numpy_dtype).tobytes()
    raw = int(python_value(value, element)) & ((1 << element.bits) - 1)  # zero above the width
    return raw.to_bytes(size, "little")


def decode_scalar(data: bytes, element: ElementType) -> int | float:
    if element.is_float:
        return float(np.frombuffer(data[: scalar_size(element)], dtype=element.numpy_dtype)[0])
    return element.wrap(int.from_bytes(data[: scalar_size(element)], "little"))


@dataclass(frozen=True)
class Slot:
    """An LLVM value in memory: how to write a Python value there and read it back."""

    size: int
    align: int

    def encode(self, value: Any) -> bytes:
        raise NotImplementedError

    def decode(self, data: bytes) -> Any:
        raise NotImplementedError


@dataclass(frozen=True)
class ScalarSlot(Slot):
    element: ElementType

    def encode(self, value: Any) -> bytes:
        return encode_scalar(value, self.element)

    def decode(self, data: bytes) -> Any:
        return decode_scalar(data, self.element)


@dataclass(frozen=True)
class VectorSlot(Slot):
    rows: Rows
    shape: tuple[int, ...]

    def encode(self, value: Any) -> bytes:
        data = canonical_array(value, self.rows.element).reshape(-1, self.rows.lanes)
        return self.rows.encode(data).tobytes()

    def decode(self, data: bytes) -> Any:
        raw = np.frombuffer(data[: self.size], dtype=np.uint8).reshape(-1, self.rows.alloc_bytes)
        return self.rows.decode(raw).reshape(self.shape)


@dataclass(frozen=True)
class Descriptor:
    """A ranked memref descriptor's fields."""

    allocated: int
    aligned: int
    offset: int
    sizes: tuple[int, ...]
    strides: tuple[int, ...]

    @staticmethod
    def read(data: bytes, rank: int) -> Descriptor:
        fields = struct.unpack_from(f"<QQq{2 * rank}q", data)
        return Descriptor(
            fields[0], fields[1], fields[2], tuple(fields[3 : 3 + rank]), tuple(fields[3 + rank :])
        )

    def pack(self) -> bytes:
        rank = len(self.sizes)
        return struct.pack(
            f"<QQq{2 * rank}q",
            self.allocated,
            self.aligned,
            self.offset,
            *self.sizes,
            *self.strides,
        )


@dataclass(frozen=True)
class MemRefSlot(Slot):
    """A descriptor: as a parameter it is 3 + 2·rank parameters, as a result one struct."""

    memory: MemRefMemory

    def decode(self, data: bytes) -> Descriptor:
        return Descriptor.read(data, self.memory.rank)


def slot_of(type_attr: Attribute, what: str) -> Slot:
    if isinstance(type_attr, MemRefType):
        memory = MemRefMemory.of(type_attr)
        return MemRefSlot(24 + 16 * memory.rank, 8, memory)
    if isinstance(type_attr, VectorType):
        shape = vector_shape(type_attr) or ()
        rows = Rows(element_of(type_attr), shape[-1] if shape else 1)
        count = math.prod(shape[:-1]) if shape else 1
        return VectorSlot(rows.alloc_bytes * count, rows.alloc_bytes, rows, shape)
    try:
        element = element_of(type_attr)
    except ExecutionError:
        raise ExecutionError(
            f"{what}: type {type_attr} cannot cross the native boundary "
            "(scalars, vectors and ranked memrefs can)"
        ) from None
    size = scalar_size(element)
    return ScalarSlot(size, size, element)


def aligned_copy(array: np.ndarray, alignment: int) -> np.ndarray:
    """A C-contiguous copy of `array` whose data starts at a multiple of `alignment`."""
    raw = np.empty(array.nbytes + alignment, dtype=np.uint8)
    start = -raw.ctypes.data % alignment
    copy = raw[start : start + array.nbytes].view(array.dtype).reshape(array.shape)
    copy[...] = array
    return copy


# ---- memref buffers -------------------------------------------------------------------------
@dataclass(frozen=True)
class MemRefMemory:
    """How a memref's elements sit in memory, against the engines' numpy form (the logical
    shape, plus the vector shape of vector elements)."""

    rank: int
    element: ElementType
    lanes: tuple[int, ...]

    @staticmethod
    def of(memref_type: MemRefType) -> MemRefMemory:
        info = memref_info(memref_type)
        return MemRefMemory(info.rank, info.element, info.lanes)

    @property
    def rows(self) -> Rows | None:
        """The vector element's memory form, None for scalar elements."""
        return Rows(self.element, math.prod(self.lanes)) if self.lanes else None

    @property
    def element_bytes(self) -> int:
        rows = self.rows
        return scalar_size(self.element) if rows is None else rows.alloc_bytes

    @property
    def alignment(self) -> int:
        """The ABI alignment LLVM assumes of an element's address: its alloc size (a
        `vector<8xf32>` is loaded with an aligned 32-byte move, which faults elsewhere)."""
        return self.element_bytes

    @property
    def narrow(self) -> bool:
        """Integers narrower than their numpy dtype. LLVM keeps the bits above their width
        zero in memory (and loads rely on it); numpy holds signed ones sign-extended."""
        return self.rows is None and self.element.is_integer and not _is_bytewise(self.element)

    @property
    def is_direct(self) -> bool:
        """Whether the program can work on the numpy array's memory itself."""
        rows = self.rows
        if rows is None:
            return not (self.narrow and self.element.holds_negative)
        return rows.is_plain and rows.store_bytes == rows.lanes * scalar_size(self.element)

    def staged(self, array: np.ndarray) -> np.ndarray:
        """The memory the program works on when it cannot use the array itself."""
        rows = self.rows
        if rows is None:
            mask = (1 << self.element.bits) - 1
            unsigned = np.dtype(f"uint{8 * scalar_size(self.element)}")
            return (array.astype(np.int64) & mask).astype(unsigned)
        count = array.size // rows.lanes
        return rows.encode(array.reshape(count, rows.lanes))

    def unstage(self, raw: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        rows = self.rows
        if rows is None:
            return canonical_array(raw, self.element)
        return rows.decode(raw.reshape(-1, rows.alloc_bytes)).reshape(shape)

    def descriptor(self, base: int, shape: tuple[int, ...]) -> Descriptor:
        """A C-contiguous descriptor over `base` of the logical `shape`."""
        strides, running = [], 1
        for extent in reversed(shape):
            strides.append(running)
            running *= extent
        return Descriptor(base, base, 0, shape, tuple(reversed(strides)))

    def view(self, descriptor: Descriptor) -> np.ndarray:
        """A copy of the buffer a descriptor describes, in the engines' numpy form."""
        import ctypes

        sizes, strides = descriptor.sizes, descriptor.strides
        shape = sizes + self.lanes
        if 0 in sizes:
            return np.zeros(shape, dtype=self.element.numpy_dtype)
        width = self.element_bytes
        low = descriptor.offset + sum(
            min(0, (s - 1) * t) for s, t in zip(sizes, strides, strict=True)
        )
        high = descriptor.offset + sum(
            max(0, (s - 1) * t) for s, t in zip(sizes, strides, strict=True)
        )
        span = (high - low + 1) * width
        memory = (ctypes.c_uint8 * span).from_address(descriptor.aligned + low * width)
        raw = np.ctypeslib.as_array(memory).reshape(-1, width)
        start = descriptor.offset - low
        picked = np.lib.stride_tricks.as_strided(
            raw[start:],
            shape=(*sizes, width),
            strides=(*(t * width for t in strides), 1),
            writeable=False,
        ).reshape(-1, width)
        picked = np.ascontiguousarray(picked)
        rows = self.rows
        if rows is None:
            values = picked.view(self.element.numpy_dtype).reshape(sizes)
            return canonical_array(values, self.element) if self.narrow else values.copy()
        return rows.decode(picked).reshape(shape)
