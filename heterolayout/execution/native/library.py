"""A compiled module, loaded with ctypes: its functions called on numpy arrays and Python
values, memref arguments passed as descriptors over the arrays' own memory (no copies)."""

from __future__ import annotations

import ctypes
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import FunctionType

from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.native.abi import (
    GLOBAL_ALLOCATED,
    Descriptor,
    MemRefMemory,
    MemRefSlot,
    Slot,
    aligned_copy,
    slot_of,
)
from heterolayout.execution.native.allocator import keep_freed_memory
from heterolayout.execution.native.build import BuildTimes
from heterolayout.execution.runtime.runner_utils import RUNNER_FUNCTIONS, RunOutput, memref_text
from heterolayout.layout.element_types import element_type

_SCALAR_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_int32, ctypes.c_int64, ctypes.c_double)
_MEMREF_CALLBACK = ctypes.CFUNCTYPE(None, ctypes.c_int32, ctypes.c_int64, ctypes.c_void_p)
_SCALAR_PRINTERS = (
    "printI64",
    "printU64",
    "printF32",
    "printF64",
    "printF16",
    "printBF16",
    "printNewline",
    "printComma",
    "printOpen",
    "printClose",
    "printString",
)
"""In the order of runtime.c's HL_* kinds."""
_MEMREF_ELEMENTS = ("i16", "i32", "i64", "index", "f16", "f32", "f64")
"""In the order of runtime.c's HL_MEMREF_* kinds."""
_LIBC = ctypes.CDLL(None)
_LIBC.free.argtypes = [ctypes.c_void_p]
_LIBC.free.restype = None


def _print_scalar(out: RunOutput, kind: int, bits: int, value: float) -> None:
    name = _SCALAR_PRINTERS[kind]
    if name in ("printF16", "printBF16"):
        if name == "printF16":
            value = float(np.array(bits, dtype=np.uint16).view(np.float16))
        else:
            value = float(np.array(bits << 16, dtype=np.uint32).view(np.float32))
        name = "printF32"
    elif name == "printString":
        out.write(ctypes.string_at(bits).decode("utf-8", "replace"))
        return
    RUNNER_FUNCTIONS[name].run(out, [value if name in ("printF32", "printF64") else bits])


@dataclass
class Printing:
    """Where the library's printing goes during one call, and what went wrong in a callback
    (raised once the call returns: an exception cannot unwind through native frames)."""

    out: RunOutput | None = None
    buffers: dict[int, object] = field(default_factory=dict)
    error: BaseException | None = None

    def scalar(self, kind: int, bits: int, value: float) -> None:
        try:
            if self.out is not None:
                _print_scalar(self.out, kind, bits, value)
        except BaseException as error:  # re-raised once the call returns
            self.error = self.error or error

    def memref(self, kind: int, rank: int, address: int) -> None:
        try:
            if self.out is None:
                return
            element = element_type(_MEMREF_ELEMENTS[kind])
            descriptor = Descriptor.read(ctypes.string_at(address, 24 + 16 * rank), rank)
            logical = MemRefMemory(rank, element, ()).view(descriptor)
            key = self.buffers.setdefault(descriptor.aligned, object())
            self.out.write(
                memref_text(
                    logical,
                    element,
                    self.out.address(key),
                    descriptor.strides,
                    descriptor.offset,
                )
            )
        except BaseException as error:  # re-raised once the call returns
            self.error = self.error or error


class NativeLibrary:
    """A module compiled to a shared library: `call` runs one of its functions."""

    def __init__(self, path: Path, functions: dict[str, FunctionType], times: BuildTimes) -> None:
        keep_freed_memory()
        self.path = path
        self.times = times
        self.handle = ctypes.CDLL(str(path))
        self._types = functions
        self._printing = Printing()
        self._callbacks = (
            _SCALAR_CALLBACK(self._printing.scalar),
            _MEMREF_CALLBACK(self._printing.memref),
        )
        for name, callback in zip(
            ("heterolayout_print_scalar", "heterolayout_print_memref"),
            self._callbacks,
            strict=True,
        ):
            ctypes.c_void_p.in_dll(self.handle, name).value = ctypes.cast(
                callback, ctypes.c_void_p
            ).value
        self._on_stack = self.handle.heterolayout_on_stack
        self._on_stack.argtypes = [ctypes.c_void_p]
        self._on_stack.restype = ctypes.c_int32

    def packed(self, name: str) -> Any:
        """The packed wrapper `void _mlir_<name>(void **)` of a function."""
        try:
            function = getattr(self.handle, f"_mlir_{name}")
        except AttributeError:
            raise ExecutionError(f"no function @{name} in the compiled module") from None
        function.argtypes = [ctypes.c_void_p]
        function.restype = None
        return function

    def function_type(self, name: str) -> FunctionType:
        found = self._types.get(name)
        if found is None:
            known = ", ".join(f"@{n}" for n in self._types) or "none"
            raise ExecutionError(f"no function @{name} in the module (functions: {known})")
        return found

    def call(self, name: str, args: Sequence[Any], out: RunOutput | None = None) -> tuple[Any, ...]:
        """Run function `name` on engine values (numpy arrays for memrefs and vectors, Python
        numbers for scalars); the arrays see the function's writes. Results come back as
        the same kinds of values (memref results as arrays the caller owns)."""
        function_type = self.function_type(name)
        frame = Frame.build(name, function_type, args)
        self._printing.out = out
        self._printing.buffers = {}
        self._printing.error = None
        try:
            self.packed(name)(frame.pointers)
        finally:
            self._printing.out = None
        frame.finish()
        if self._printing.error is not None:
            raise self._printing.error
        return frame.results(self._on_stack)


@dataclass
class Frame:
    """The parameters of one call laid out for the packed wrapper, and its result slot."""

    name: str
    keep: list[Any]
    """The arrays the descriptors point into, alive until the call is over."""
    storage: ctypes.Array
    pointers: ctypes.Array
    outputs: list[tuple[Slot, int]]
    result_address: int
    write_backs: list[tuple[np.ndarray, np.ndarray | None, MemRefMemory | None]]
    """(argument, the copy the program worked on, how to read it back: None for a plain
    copy of the argument)."""
    buffers: list[tuple[int, int]]

    @staticmethod
    def build(name: str, function_type: FunctionType, args: Sequence[Any]) -> Frame:
        inputs = function_type.inputs.data
        if len(args) != len(inputs):
            raise ExecutionError(f"@{name} takes {len(inputs)} arguments, got {len(args)}")
        frame = Frame(name, [], None, None, [], 0, [], [])  # type: ignore[arg-type]
        params: list[tuple[bytes, int]] = []
        for number, (arg, type_attr) in enumerate(zip(args, inputs, strict=True)):
            what = f"argument {number} of @{name}"
            slot = slot_of(type_attr, what)
            if isinstance(slot, MemRefSlot):
                params += [(field, 8) for field in frame._memref(arg, slot.memory, what)]
            else:
                params.append((slot.encode(arg), slot.align))
        outputs = [
            slot_of(t, f"result {i} of @{name}") for i, t in enumerate(function_type.outputs.data)
        ]
        frame._lay_out(params, outputs)
        return frame

    def _memref(self, arg: Any, memory: MemRefMemory, what: str) -> list[bytes]:
        """The descriptor fields of a memref argument, as parameters."""
        descriptor, staged, reader = _memref_argument(arg, memory, what)
        used = staged if staged is not None else arg
        self.keep.append(used)
        self.write_backs.append((arg, staged, reader))
        self.buffers.append((used.ctypes.data, used.ctypes.data + used.nbytes))
        head = [struct.pack("<Q", descriptor.allocated), struct.pack("<Q", descriptor.aligned)]
        fields = (descriptor.offset, *descriptor.sizes, *descriptor.strides)
        return head + [struct.pack("<q", v) for v in fields]

    def _lay_out(self, params: list[tuple[bytes, int]], outputs: list[Slot]) -> None:
        """One buffer holds every parameter (each at its alignment, 16 bytes at least) and
        the result slot (its fields at their alignment); `pointers` is the packed wrapper's
        `void **`."""
        offsets, size, widest = [], 0, 16
        for data, align in params:
            align = max(16, align)
            widest = max(widest, align)
            size = -(-size // align) * align
            offsets.append(size)
            size += len(data)
        size = -(-size // 16) * 16
        fields, end = [], 0
        for slot in outputs:
            widest = max(widest, slot.align)
            end = -(-end // slot.align) * slot.align
            fields.append(end)
            end += slot.size
        size = -(-size // widest) * widest
        self.storage = (ctypes.c_uint8 * (size + end + widest))()
        base = ctypes.addressof(self.storage)
        base += -base % widest
        for offset, (data, _) in zip(offsets, params, strict=True):
            ctypes.memmove(base + offset, data, len(data))
        self.pointers = (ctypes.c_void_p * max(1, len(params) + 1))()
        for i, offset in enumerate(offsets):
            self.pointers[i] = base + offset
        self.result_address = base + size
        self.pointers[len(params)] = self.result_address
        self.outputs = [
            (slot, self.result_address + f) for slot, f in zip(outputs, fields, strict=True)
        ]

    def finish(self) -> None:
        """Bring staged buffers back into their arrays."""
        for array, staged, reader in self.write_backs:
            if staged is not None:
                array[...] = staged if reader is None else reader.unstage(staged, array.shape)

    def results(self, on_stack: Any) -> tuple[Any, ...]:
        values: list[Any] = []
        owned: set[int] = set()
        for slot, address in self.outputs:
            data = ctypes.string_at(address, slot.size)
            if not isinstance(slot, MemRefSlot):
                values.append(slot.decode(data))
                continue
            descriptor = slot.decode(data)
            values.append(slot.memory.view(descriptor))
            if self._heap(descriptor.allocated) and not on_stack(descriptor.allocated):
                owned.add(descriptor.allocated)
        for pointer in owned:
            _LIBC.free(pointer)
        return tuple(values)

    def _heap(self, allocated: int) -> bool:
        if allocated in (0, GLOBAL_ALLOCATED):
            return False
        return not any(start <= allocated < end for start, end in self.buffers)


def _memref_argument(
    arg: Any, memory: MemRefMemory, what: str
) -> tuple[Descriptor, np.ndarray | None, MemRefMemory | None]:
    """The descriptor of an argument array, the copy the program works on when it cannot
    work on the array itself (bit-packed or padded vector elements, or elements whose
    alignment the array's address lacks), and how that copy reads back (None: as it is)."""
    if not isinstance(arg, np.ndarray):
        raise ExecutionError(f"{what}: expected a numpy array for a memref")
    dtype = memory.element.numpy_dtype
    if (
        arg.dtype != dtype
        or not arg.flags.c_contiguous
        or arg.ndim != memory.rank + len(memory.lanes)
    ):
        raise ExecutionError(
            f"{what}: expected a C-contiguous {dtype} array of rank {memory.rank + len(memory.lanes)}"
        )
    if memory.lanes and arg.shape[memory.rank :] != memory.lanes:
        raise ExecutionError(f"{what}: vector elements of shape {list(memory.lanes)} expected")
    shape = tuple(arg.shape[: memory.rank])
    aligned = arg.ctypes.data % memory.alignment == 0
    if memory.is_direct and aligned:
        return memory.descriptor(arg.ctypes.data, shape), None, None
    staged, reader = (arg, None) if memory.is_direct else (memory.staged(arg), memory)
    staged = aligned_copy(staged, memory.alignment)
    return memory.descriptor(staged.ctypes.data, shape), staged, reader
