"""Arguments and outputs by name: a model's inputs bound by the graph names its entry's
arguments carry (`dialects.functions.GRAPH_INPUT` / `GRAPH_OUTPUT`, written by
`layout-import`), or by position; its outputs returned by name.

A key binds an argument by its graph name, or by position: an int, or `arr_<i>` (the names
`numpy.savez` gives positional arrays, so an `.npz` written from a list binds in order).
A graph output (an argument the call writes) that is not given is allocated, zero-filled.

The outputs of a call, by name: the arguments marked as graph outputs, or, in a function
that marks none, every memref argument (by its graph name, else `arr_<i>`); then the
results (by their graph name, else `result_<i>`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.func import FuncOp

from heterolayout.dialects.functions import (
    GraphName,
    argument_names,
    result_names,
    unsigned_arguments,
)
from heterolayout.execution.arguments import from_value
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime.values import element_of

POSITION = re.compile(r"arr_(\d+)")


class NamedResult(dict[str, Any]):
    """What `run` returns for named arguments: the outputs by name (numpy arrays, scalars
    for scalar results), and in `output` the printed text with `capture=True`."""

    output: str | None = None


def _label(index: int, name: GraphName | None) -> str:
    return f"argument {index}" + (f" ('{name.name}')" if name else "")


def argument_index(function: FuncOp, key: str | int) -> int:
    """The argument a key names: its graph name, or its position (an int or `arr_<i>`)."""
    names = argument_names(function)
    count = len(names)
    if isinstance(key, str):
        by_name = {n.name: i for i, n in enumerate(names) if n is not None}
        if key in by_name:
            return by_name[key]
        match = POSITION.fullmatch(key)
        if match is None:
            known = ", ".join(f"'{n}'" for n in by_name) or "none"
            raise ExecutionError(
                f"@{function.sym_name.data} has no argument named '{key}' (graph names: "
                f"{known}; positions: 0 to {count - 1}, or arr_0 to arr_{count - 1})"
            )
        key = int(match.group(1))
    if isinstance(key, bool) or not isinstance(key, int) or not 0 <= key < count:
        raise ExecutionError(
            f"@{function.sym_name.data} has no argument {key!r} (positions: 0 to {count - 1})"
        )
    return key


def bind_named(function: FuncOp, given: Mapping[str | int, Any]) -> list[Any]:
    """The positional arguments of a call given by name or position (outputs allocated)."""
    names = argument_names(function)
    bound: dict[int, tuple[str | int, Any]] = {}
    for key, value in given.items():
        index = argument_index(function, key)
        if index in bound:
            raise ExecutionError(
                f"@{function.sym_name.data}: {_label(index, names[index])} given twice "
                f"(as {bound[index][0]!r} and {key!r})"
            )
        bound[index] = (key, value)
    arguments = []
    for index, (name, type_attr) in enumerate(
        zip(names, function.function_type.inputs.data, strict=True)
    ):
        if index in bound:
            arguments.append(bound[index][1])
        elif name is not None and name.output and isinstance(type_attr, MemRefType):
            arguments.append(_zeros(function, index, name, type_attr))
        else:
            raise ExecutionError(
                f"@{function.sym_name.data}: {_label(index, name)} of type {type_attr} not given"
            )
    return arguments


def _zeros(function: FuncOp, index: int, name: GraphName, type_attr: MemRefType) -> np.ndarray:
    shape = type_attr.get_shape()
    if any(size < 0 for size in shape):
        raise ExecutionError(
            f"@{function.sym_name.data}: {_label(index, name)} has a dynamic shape "
            f"({type_attr}): give it an array"
        )
    return np.zeros(shape, dtype=element_of(type_attr.element_type).numpy_dtype)


def output_keys(function: FuncOp) -> list[tuple[str, int | None]]:
    """The outputs of a call in order: (name, argument index), or (name, None) for each of
    the function's results, in order after the arguments."""
    names = argument_names(function)
    marked = [i for i, n in enumerate(names) if n is not None and n.output]
    if not marked:
        marked = [
            i for i, t in enumerate(function.function_type.inputs.data) if isinstance(t, MemRefType)
        ]
    keys: list[tuple[str, int | None]] = []
    for i in marked:
        name = names[i]
        keys.append((name.name if name is not None else f"arr_{i}", i))
    for i, result in enumerate(result_names(function)):
        keys.append((result.name if result is not None else f"result_{i}", None))
    seen: set[str] = set()
    for key, _ in keys:
        if key in seen:
            raise ExecutionError(f"@{function.sym_name.data}: two outputs are named '{key}'")
        seen.add(key)
    return keys


def named_outputs(
    function: FuncOp, arguments: Sequence[Any], results: Sequence[Any], output: str | None
) -> NamedResult:
    """The outputs of a call that took `arguments` and returned `results`, by name."""
    named = NamedResult()
    remaining = iter(results)
    unsigned = unsigned_arguments(function)
    for key, index in output_keys(function):
        value = from_value(arguments[index]) if index is not None else next(remaining)
        if index in unsigned and isinstance(value, np.ndarray) and value.dtype.kind == "i":
            value = value.view(np.dtype(f"u{value.dtype.itemsize}"))
        named[key] = value
    named.output = output
    return named
