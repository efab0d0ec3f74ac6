"""The `#layout.<kind><…>` attribute text, shared by `parse_layout` and the dialect.

`#layout.tag<"NCHW->nChw8c", pad = 0, pack = i6, bit_order = "msb">`,
`#layout.chunked<[0, 0, 1, 0, …], pad = 31>`, `#layout.map<affine_map<…>, shape = [4, 4]>`,
`#layout.strided<[40, 1], offset = 3>`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from heterolayout.layout.errors import LayoutError

_HEAD = re.compile(r"^#layout\.([a-z_]+)\s*<(.*)>$", re.S)
_PARAM = re.compile(r"^([a-z_]+)\s*[=:]\s*(.+)$", re.S)
_OPEN, _CLOSE = "<[({", ">])}"


@dataclass
class AttributeText:
    kind: str
    body: str
    params: dict[str, str] = field(default_factory=dict)


def split_top_level(text: str) -> list[str]:
    """Split at commas that are not inside brackets or quotes."""
    parts, depth, quoted, start = [], 0, False, 0
    for position, char in enumerate(text):
        if char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char in _OPEN:
            depth += 1
        elif char in _CLOSE and not (char == ">" and text[position - 1 : position] == "-"):
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:position].strip())
            start = position + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def parse_attribute_text(text: str) -> AttributeText:
    match = _HEAD.match(text.strip())
    if not match:
        raise LayoutError(f"'{text.strip()}': expected #layout.<kind><…>")
    kind, inner = match.groups()
    parts = split_top_level(inner)
    if not parts:
        raise LayoutError(f"'{text.strip()}': #layout.{kind} needs its layout")
    body_parts = [parts[0]]
    params: dict[str, str] = {}
    for part in parts[1:]:
        param = _PARAM.match(part)
        if param is None:
            body_parts.append(part)
            continue
        name, value = param.group(1), param.group(2).strip()
        if name in params:
            raise LayoutError(f"#layout.{kind}: parameter '{name}' is given twice")
        params[name] = value
    return AttributeText(kind, ", ".join(body_parts), params)


def unquote(text: str, what: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise LayoutError(f"{what}: expected a quoted string, got {text}")
    return text[1:-1]


def parse_int_list(text: str, what: str) -> list[int | None]:
    text = text.strip()
    if not (text.startswith("[") and text.endswith("]")):
        raise LayoutError(f"{what}: expected a list [a, b, …], got {text}")
    values: list[int | None] = []
    for item in split_top_level(text[1:-1]):
        if item == "?":
            values.append(None)
            continue
        try:
            values.append(int(item))
        except ValueError:
            raise LayoutError(f"{what}: '{item}' is not an integer") from None
    return values


def parse_number(text: str, what: str) -> int | float:
    text = text.strip()
    if ":" in text:
        text = text.split(":")[0].strip()
    try:
        return int(text, 0)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise LayoutError(f"{what}: '{text}' is not a number") from None


def format_number(value: int | float) -> str:
    """MLIR's literal spelling: a float always has a '.' before any exponent."""
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e16:
            return f"{value:.1f}"
        mantissa, _, exponent = repr(value).partition("e")
        if "." not in mantissa:
            mantissa += ".0"
        return f"{mantissa}e{exponent}" if exponent else mantissa
    return str(value)
