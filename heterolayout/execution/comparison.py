"""Comparing a program with its lowered form: the first mismatch, in logical coordinates."""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Attribute

from heterolayout.execution.arguments import (
    DYNAMIC_EXTENT,
    from_value,
    holds_physical,
    logical_of_physical,
    random_arguments,
    side_arguments,
)
from heterolayout.execution.engines import engine_for
from heterolayout.execution.entry import find_function
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime.runner_utils import RunOutput


@dataclass(frozen=True)
class Mismatch:
    """The first difference: what differs, where (logical coordinates), and both values."""

    what: str
    index: tuple[int, ...]
    expected: Any
    actual: Any

    def __str__(self) -> str:
        at = f" at [{', '.join(str(i) for i in self.index)}]" if self.index else ""
        return f"{self.what}{at}: unlowered {self.expected!r}, lowered {self.actual!r}"


@dataclass(frozen=True)
class CheckReport:
    """The outcome of `check`: equal, or the first mismatch."""

    compared: int
    mismatch: Mismatch | None = None
    note: str | None = None
    """How the reference side ran, when not as asked (see `reference_engine`)."""

    @property
    def equal(self) -> bool:
        return self.mismatch is None

    def __bool__(self) -> bool:
        return self.equal

    def __str__(self) -> str:
        suffix = f" ({self.note})" if self.note else ""
        if self.mismatch is None:
            return f"OK: {self.compared} elements compared{suffix}"
        return f"MISMATCH in {self.mismatch}{suffix}"


def _same(a: Any, b: Any) -> bool:
    """Bit-identical for floats (NaN equals NaN, -0.0 differs from 0.0)."""
    if isinstance(a, float) or isinstance(b, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    return bool(a == b)


def first_difference(what: str, expected: Any, actual: Any) -> tuple[int, Mismatch | None]:
    """Elements compared and the first mismatch (C order) of two values in logical form."""
    if not isinstance(expected, np.ndarray) and not isinstance(actual, np.ndarray):
        return 1, None if _same(expected, actual) else Mismatch(what, (), expected, actual)
    expected, actual = np.asarray(expected), np.asarray(actual)
    if expected.shape != actual.shape:
        return 0, Mismatch(f"{what} (shape)", (), list(expected.shape), list(actual.shape))
    if expected.dtype.kind == "f" or actual.dtype.kind == "f":
        left, right = expected.astype(np.float64), actual.astype(np.float64)
        differs = left.view(np.uint64) != right.view(np.uint64)
    else:
        differs = expected != actual
    if not differs.any():
        return expected.size, None
    index = tuple(int(i) for i in np.unravel_index(int(np.argmax(differs.ravel())), expected.shape))
    return expected.size, Mismatch(what, index, expected[index].item(), actual[index].item())


def compare_programs(
    source: ModuleOp,
    lowered: ModuleOp,
    entry: str = "main",
    seed: int = 0,
    engine: str = "compiled",
    dynamic_extent: int = DYNAMIC_EXTENT,
    reference_engine: str | None = None,
) -> CheckReport:
    """Run both programs on the same seeded data (`?` dims of `dynamic_extent`); compare
    results, memref arguments and the printed output. `engine` runs the lowered program,
    `reference_engine` (default: the same) the source program."""
    source_function, lowered_function = find_function(source, entry), find_function(lowered, entry)
    source_types = source_function.function_type
    lowered_types = lowered_function.function_type
    if len(source_types.inputs) != len(lowered_types.inputs) or len(source_types.outputs) != len(
        lowered_types.outputs
    ):
        raise ExecutionError(
            f"@{entry} changed its signature from {source_types} to {lowered_types}: cannot compare"
        )
    logical = random_arguments(source_function, seed, dynamic_extent)
    source_args = side_arguments(logical, source_function, source_function, entry)
    lowered_args = side_arguments(logical, source_function, lowered_function, entry)
    reference, note = reference_engine_for(source, reference_engine or engine)
    printed = (io.StringIO(), io.StringIO())
    expected = engine_for(source, reference).call(entry, tuple(source_args), RunOutput(printed[0]))
    actual = engine_for(lowered, engine).call(entry, tuple(lowered_args), RunOutput(printed[1]))

    def logical_form(value: Any, s: Attribute, t: Attribute, expected: Any) -> Any:
        if not holds_physical(s, t):
            return from_value(value)
        return logical_of_physical(value, s, np.shape(from_value(expected)))

    compared = 0
    pairs = [
        (f"result {i}", e, a, s, t)
        for i, (e, a, s, t) in enumerate(
            zip(expected, actual, source_types.outputs, lowered_types.outputs, strict=True)
        )
    ] + [
        (f"argument {i} ({s})", e, a, s, t)
        for i, (e, a, s, t) in enumerate(
            zip(source_args, lowered_args, source_types.inputs, lowered_types.inputs, strict=True)
        )
        if isinstance(s, MemRefType)
    ]
    for what, e, a, s, t in pairs:
        count, mismatch = first_difference(what, from_value(e), logical_form(a, s, t, e))
        compared += count
        if mismatch is not None:
            return CheckReport(compared, mismatch, note)
    count, mismatch = first_printed_difference(printed[0].getvalue(), printed[1].getvalue())
    return CheckReport(compared + count, mismatch, note)


def reference_engine_for(source: ModuleOp, engine: str) -> tuple[str, str | None]:
    """The engine that runs the source program, and a note when it is not `engine`: the
    native engine runs a program with layouts as its stripped form (`layout-strip`, which
    takes every program); a GPU run (cuda) is checked against the compiled engine."""
    if engine == "cuda":
        return "compiled", None
    return engine, None


END_OF_OUTPUT = "<end of output>"


def first_printed_difference(expected: str, actual: str) -> tuple[int, Mismatch | None]:
    """Lines compared (each printed line counts as one element) and the first that differs."""
    left, right = expected.splitlines(), actual.splitlines()
    for number in range(max(len(left), len(right))):
        want = left[number] if number < len(left) else END_OF_OUTPUT
        got = right[number] if number < len(right) else END_OF_OUTPUT
        if want != got:
            return number + 1, Mismatch(f"printed line {number + 1}", (), want, got)
    return len(left), None
