"""Program text written once and rendered twice: with its layouts, and without them.

A generated program names memref types by token (`«3»`); rendering replaces each token with
the type's text, with or without its layout. Lines that only the layout version has
(`layout.assign`) render to nothing in the plain version, and a `layout.convert` renders as
the `memref.copy` that means the same thing without layouts. So one seed gives two programs
whose only difference is where the data lives: the plain one is the reference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tests.fuzz.layouts import FuzzLayout

INDEX_RANGE_UNBOUNDED = 1 << 20
"""The range the generator gives `%n`: never usable as an index as it is, only through a
remainder (so the lowering cannot bound it either)."""


@dataclass(frozen=True)
class MemrefType:
    shape: tuple[int | None, ...]
    """Declared extents; None is `?`."""
    element: str
    layout: FuzzLayout | None = None
    view: str | None = None
    """The `strided<…>` type of a subview: upstream's, in both renderings."""

    def text(self, with_layout: bool) -> str:
        dims = "".join(("?" if e is None else str(e)) + "x" for e in self.shape)
        if self.view is not None:
            return f"memref<{dims}{self.element}, {self.view}>"
        if with_layout and self.layout is not None:
            return f"memref<{dims}{self.element}, {self.layout.text}>"
        return f"memref<{dims}{self.element}>"

    def with_shape(self, shape: tuple[int | None, ...]) -> MemrefType:
        return MemrefType(shape, self.element, self.layout, self.view)

    @property
    def dynamic(self) -> list[int]:
        return [d for d, e in enumerate(self.shape) if e is None]


@dataclass(frozen=True)
class Line:
    """One line; `plain` is its plain-version text ("" drops it), None means the same."""

    text: str
    plain: str | None = None


_TOKEN = re.compile(r"«(\d+)»")


@dataclass
class Types:
    """The program's memref types, each named by a token."""

    table: list[MemrefType] = field(default_factory=list)

    def token(self, memref_type: MemrefType) -> str:
        if memref_type not in self.table:
            self.table.append(memref_type)
        return f"«{self.table.index(memref_type)}»"

    def of(self, token: str) -> MemrefType:
        match = _TOKEN.fullmatch(token)
        assert match is not None, token
        return self.table[int(match[1])]

    def render(self, lines: list[Line], with_layouts: bool) -> str:
        def substitute(match: re.Match[str]) -> str:
            return self.table[int(match[1])].text(with_layouts)

        out = []
        for line in lines:
            text = line.text if with_layouts or line.plain is None else line.plain
            if text:
                out.append(_TOKEN.sub(substitute, text))
        return "\n".join(out) + "\n"


def vector_print(value: str, type_text: str) -> str:
    """`vector.print` in generic form: xDSL 0.74 has no custom syntax for it."""
    return f'"vector.print"({value}) : ({type_text}) -> ()'


def cast(result: str, source: str, source_type: str, result_type: str) -> str:
    """`memref.cast` in generic form (no custom syntax in xDSL 0.74)."""
    return f'{result} = "memref.cast"({source}) : ({source_type}) -> {result_type}'


def is_float(element: str) -> bool:
    return element.startswith("f")


def element_bits(element: str) -> int:
    return int(element[1:])


def wrap_integer(value: int, element: str) -> int:
    """The value an `iN` holds, read as signed (how vector.print prints it; i1 prints 0/1)."""
    bits = element_bits(element)
    low = value & ((1 << bits) - 1)
    if bits == 1:
        return low
    return low - (1 << bits) if low >= 1 << (bits - 1) else low


def fill_value(linear: int, salt: int, element: str) -> int | float:
    """The value the generated fill code stores at row-major position `linear`."""
    mixed = linear * 3 + salt
    if is_float(element):
        return (mixed % 37) * 0.25 - 2.0
    return wrap_integer(mixed, element)


def literal(value: int | float, element: str, dense: bool = False) -> str:
    """A constant's text: i1 is `true`/`false` in dense literals, 0/1 in `arith.constant`."""
    if is_float(element):
        return repr(float(value))
    if element == "i1" and dense:
        return "true" if value else "false"
    return str(int(value))
