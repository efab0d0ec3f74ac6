"""Keyword parameters of a notation, each spelled once.

A notation with keyword parameters (`#layout.tpu<lanes = 4, start = 2>`,
`#layout.partition<cyclic, dims = [0], factor = 4>`) is a frozen dataclass whose fields
carry their syntax (`parameter(default, Syntax(...))`). That one table gives the fields
and their defaults, the text (`format_parameters`) and, in the dialect, the attribute
parser: adding a parameter is adding a field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

SyntaxKind = Literal["int", "ints", "int_or_ints", "word_or_ints", "words", "string"]


@dataclass(frozen=True)
class Syntax:
    """How one parameter is written.

    `int` 4; `ints` [1, 2]; `int_or_ints` 4 or [4, 2]; `word_or_ints` aligned or
    [1, 2, 3, 4]; `words` cyclic or [cyclic, block] (a tuple; one word when all are equal);
    `string` "4N". `choices` lists the words allowed; `shown` parameters are
    printed even at their default; a `positional` one is written first, without `name =`.
    """

    kind: SyntaxKind
    choices: tuple[str, ...] = ()
    hint: str = ""
    """What a valid value looks like, for error messages."""
    shown: bool = False
    positional: bool = False


def parameter(default: Any, syntax: Syntax) -> Any:
    """A dataclass field that is a notation parameter."""
    return field(default=default, metadata={"syntax": syntax})


@dataclass(frozen=True)
class Parameter:
    name: str
    default: Any
    syntax: Syntax


def parameters_of(params: type | object) -> tuple[Parameter, ...]:
    """The parameters of a notation's dataclass, in the order they are written."""
    return tuple(
        Parameter(f.name, f.default, f.metadata["syntax"])
        for f in fields(params)  # type: ignore[arg-type]
    )


def format_value(value: Any, syntax: Syntax) -> str:
    if syntax.kind == "string":
        return f'"{value}"'
    if syntax.kind == "words":
        words = tuple(value)
        return words[0] if len(set(words)) == 1 else "[" + ", ".join(words) + "]"
    if isinstance(value, str | int):
        return str(value)
    return format_ints(value)


def format_ints(values: Sequence[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def format_parameters(params: object) -> str:
    """The parameters as the attribute writes them: the positional one, then every shown
    parameter and every other that is set (not None, not its default)."""
    parts = []
    for p in parameters_of(params):
        value = getattr(params, p.name)
        if p.syntax.positional:
            parts.append(format_value(value, p.syntax))
        elif p.syntax.shown or (value is not None and value != p.default):
            parts.append(f"{p.name} = {format_value(value, p.syntax)}")
    return ", ".join(parts)
