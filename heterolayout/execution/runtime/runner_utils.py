"""What a program prints under mlir-runner: `vector.print` and the runner-utils functions a
program declares as external (`func.func private @printMemrefF32(memref<*xf32>)`).

The text is mlir-runner's, character for character, except the `base@` address of a printed
memref: a run numbers the buffers it prints (0x1000, 0x2000, …), so both engines print the
same text and a reader still sees which prints show the same buffer. Scalars print as the
runtime's `printI64`/`printU64`/`printF32` do (`%lld`, `%llu`, `%g`; NaN with its sign),
vectors as `( 1, 2, 3 )`, memrefs as `printMemref*` does (metadata line, then the data in
nested brackets, spaced as MemRefDataPrinter spaces them).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import numpy as np
from xdsl.dialects.builtin import FunctionType
from xdsl.ir import Attribute

from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime.values import element_of, vector_shape
from heterolayout.layout.element_types import ElementType
from heterolayout.layout.model import row_major_strides

_U64 = (1 << 64) - 1


def format_float(value: float) -> str:
    """C's `%g`, which prints a NaN with its sign (`-nan`); Python's `g` drops it."""
    if value != value:
        return "-nan" if math.copysign(1.0, value) < 0 else "nan"
    return f"{value:g}"


def format_scalar(value: int | float, element: ElementType) -> str:
    """One value as `vector.print` prints it: floats with `%g`, index and unsigned integers
    unsigned (index -1 prints 18446744073709551615), i1 as 0 or 1, other integers signed."""
    if element.is_float:
        return format_float(float(value))
    if element.kind == "index":
        return str(int(value) & _U64)
    return str(int(value))


def format_vector(value: np.ndarray, element: ElementType) -> str:
    """`( a, b )`, nested for each dimension; a 0-D vector prints as one of shape [1]."""
    if value.ndim == 0:
        return f"( {format_scalar(value.item(), element)} )"
    if value.ndim == 1:
        return "( " + ", ".join(format_scalar(v, element) for v in value.tolist()) + " )"
    return "( " + ", ".join(format_vector(row, element) for row in value) + " )"


@dataclass(frozen=True)
class PrintedType:
    """What `vector.print` needs from its operand's type."""

    element: ElementType
    shape: tuple[int, ...] | None

    @staticmethod
    def of(type_attr: Attribute) -> PrintedType:
        return PrintedType(element_of(type_attr), vector_shape(type_attr))


# ---- printMemref ------------------------------------------------------------------------------
def memref_data(texts: Sequence[str], shape: Sequence[int]) -> str:
    """The `data =` part of printMemref for elements already formatted (C order), as
    MemRefDataPrinter writes it: `", "` between elements plus `rank - dim + 1` spaces before
    each one after the first, a line break after each row of a dimension above the last."""
    rank = len(shape)
    if rank == 0:
        return f"[{texts[0]}]"
    parts: list[str] = []
    strides = list(row_major_strides(shape))

    def emit(position: int, dim: int) -> None:
        if dim == rank:
            parts.append(texts[position])
            return
        extent, stride, depth = shape[dim], strides[dim], rank - dim
        parts.append("[")
        for i in range(extent):
            if i > 0:
                parts.append(" " * (rank - depth + 1))
            emit(position + i * stride, dim + 1)
            if i < extent - 1:
                parts.append(", \n" if depth > 1 else ", ")
        parts.append("]")

    emit(0, 0)
    return "".join(parts)


def memref_text(
    logical: np.ndarray,
    element: ElementType,
    address: int,
    strides: Sequence[int] | None = None,
    offset: int = 0,
) -> str:
    """printMemref's whole output for a buffer holding `logical`."""
    shape = logical.shape
    strides = list(strides) if strides is not None else list(row_major_strides(shape))
    values = logical.ravel().tolist()
    if element.is_float:
        texts = [format_float(float(v)) for v in values]
    elif element.kind == "index":
        texts = [str(int(v) & _U64) for v in values]
    else:
        texts = [str(int(v)) for v in values]
    header = (
        f"Unranked Memref base@ = 0x{address:x} rank = {len(shape)} offset = {offset} "
        f"sizes = [{', '.join(str(e) for e in shape)}] strides = [{', '.join(str(s) for s in strides)}] data = \n"
    )
    return header + memref_data(texts, shape) + "\n"


# ---- the runner-utils functions -----------------------------------------------------------------
class RunOutput:
    """Where one run's printing goes, and the one thing mlir-runner's printing remembers
    across prints: which buffer has which base address."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self._addresses: dict[int, tuple[object, int]] = {}

    def write(self, text: str) -> None:
        self.stream.write(text)

    def vector_print(self, value: Any, printed: PrintedType, end: str = "\n") -> None:
        if printed.shape is None:
            self.write(format_scalar(value, printed.element) + end)
        else:
            self.write(format_vector(np.asarray(value), printed.element) + end)

    def print_op(self, values: Sequence[Any], plan: PrintPlan) -> None:
        """vector.print: its operand, or its string, then its punctuation."""
        if plan.printed is not None:
            self.vector_print(values[0], plan.printed, plan.end)
        else:
            self.write((plan.text or "") + plan.end)

    def address(self, buffer: object) -> int:
        found = self._addresses.get(id(buffer))
        if found is None:
            found = self._addresses[id(buffer)] = (buffer, 0x1000 * (len(self._addresses) + 1))
        return found[1]

    def print_memref(self, memref: Any, element: ElementType, where: str) -> None:
        from heterolayout.execution.runtime.memref import LayoutMemRef, check_live
        from heterolayout.execution.runtime.views import LayoutView, View

        check_live(memref, where)
        strides: Sequence[int] | None = None
        offset = 0
        buffer = memref
        if isinstance(memref, LayoutMemRef):
            logical = memref.logical()
            if memref.layout.linear is not None and not isinstance(memref, LayoutView):
                strides, offset = memref.layout.linear  # what a strided memref's descriptor holds
        else:
            logical = np.asarray(memref)
            if isinstance(memref, View):  # a view's descriptor: its root, offset and strides
                buffer, size = memref.root, memref.itemsize
                strides = [s // size for s in memref.strides[: memref.ndim]]
                offset = (memref.ctypes.data - buffer.ctypes.data) // size
        self.write(memref_text(logical, element, self.address(buffer), strides, offset))

    def call(self, name: str, args: Sequence[Any]) -> tuple[()]:
        """Run runner-utils function `name` (checked by `runner_function` beforehand)."""
        RUNNER_FUNCTIONS[name].run(self, args)
        return ()


PUNCTUATION = {"newline": "\n", "comma": ", ", "open": "( ", "close": " )", "no_punctuation": ""}
"""What vector.print writes after its value, by its `punctuation`."""


@dataclass(frozen=True)
class PrintPlan:
    """What a vector.print prints: a value of `printed` type or the string `text`, then
    `end`."""

    printed: PrintedType | None
    text: str | None
    end: str

    @staticmethod
    def of(op: Any) -> PrintPlan:
        punctuation = op.properties.get("punctuation")
        text = op.properties.get("stringLiteral")
        end = PUNCTUATION[str(punctuation.data)] if punctuation is not None else "\n"
        printed = PrintedType.of(op.operands[0].type) if op.operands else None
        return PrintPlan(printed, text.data if text is not None else None, end)


@dataclass(frozen=True)
class RunnerFunction:
    """A runner-utils function: its MLIR signature and what it prints."""

    signature: str
    run: Callable[[RunOutput, Sequence[Any]], None]


def _memref_printer(element: str) -> RunnerFunction:
    from heterolayout.layout.element_types import element_type

    kind = element_type(element)
    mlir = "index" if element == "index" else element
    call = f"a call of @printMemref{'Ind' if element == 'index' else element.upper()}"
    return RunnerFunction(
        f"(memref<*x{mlir}>) -> ()", lambda out, args: out.print_memref(args[0], kind, call)
    )


def _text(text: str) -> RunnerFunction:
    return RunnerFunction("() -> ()", lambda out, args: out.write(text))


RUNNER_FUNCTIONS: dict[str, RunnerFunction] = {
    "printMemrefI16": _memref_printer("i16"),
    "printMemrefI32": _memref_printer("i32"),
    "printMemrefI64": _memref_printer("i64"),
    "printMemrefInd": _memref_printer("index"),
    "printMemrefF16": _memref_printer("f16"),
    "printMemrefF32": _memref_printer("f32"),
    "printMemrefF64": _memref_printer("f64"),
    "printI64": RunnerFunction("(i64) -> ()", lambda out, args: out.write(str(int(args[0])))),
    "printU64": RunnerFunction(
        "(i64) -> ()", lambda out, args: out.write(str(int(args[0]) & _U64))
    ),
    "printF32": RunnerFunction("(f32) -> ()", lambda out, args: out.write(format_float(args[0]))),
    "printF64": RunnerFunction("(f64) -> ()", lambda out, args: out.write(format_float(args[0]))),
    "printNewline": _text("\n"),
    "printComma": _text(", "),
    "printOpen": _text("( "),
    "printClose": _text(" )"),
}
"""The functions of MLIR's runner utils the engines provide, by symbol name (printMemrefI8
is left out: it prints its bytes as characters)."""


def runner_function(name: str, function_type: FunctionType, where: str) -> RunnerFunction:
    """The runner-utils function an external declaration names, checked against its
    declared signature; an external function the engines do not provide is an error."""
    found = RUNNER_FUNCTIONS.get(name)
    if found is None:
        known = ", ".join(RUNNER_FUNCTIONS)
        raise ExecutionError(
            f"{where}: @{name} is external (it has no body) and cannot be run: the engines "
            f"provide only these runner-utils functions: {known}"
        )
    if str(function_type) != found.signature:
        raise ExecutionError(
            f"{where}: @{name} is declared as {function_type}, but the runner utils' @{name} takes {found.signature}"
        )
    return found
