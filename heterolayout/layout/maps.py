"""Affine-map layouts (`affine_map<(d0, d1) -> (…)>`) and strided layouts (`strided<[…], offset: …>`).

A map's physical extents are the exact max + 1 of each result over the logical box unless a
physical shape is given. A strided layout is a map to one physical dim: the element offset
`Σ d_i · s_i + offset`, over a 1-D buffer just large enough for it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr
from xdsl.ir.affine import AffineExpr, AffineMap, AffineSymExpr
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.mlir_lexer import MLIRTokenKind

from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import linear_form

_STRIDED = re.compile(r"^strided\s*<\s*\[([^\]]*)\]\s*(?:,\s*offset\s*[:=]\s*([^>\s]+)\s*)?>$")


def parse_affine_map(text: str) -> AffineMap:
    """Parse with xDSL's own parser; errors become one-line `LayoutError`s."""
    if '"' in text:
        # xDSL 0.74's string-literal lexer backtracks exponentially on an unmatched quote.
        raise LayoutError(
            f"'{text.strip()}': a map has no string literals ('\"' at column {text.index(chr(34)) + 1})"
        )
    try:
        parser = Parser(Context(), text.strip())
        attribute = parser.parse_attribute()
        if parser._current_token.kind != MLIRTokenKind.EOF:  # xDSL has no public "expect end"
            raise ParseError(parser._current_token.span, "unexpected text after the map")
    except ParseError as error:
        raise LayoutError(
            f"'{text.strip()}': {error.msg} (at column {error.span.start + 1})"
        ) from None
    except NotImplementedError as error:
        # xDSL's expression builder refuses semi-affine terms with NotImplementedError.
        raise LayoutError(f"'{text.strip()}' is not quasi-affine: {error}") from None
    if not isinstance(attribute, AffineMapAttr):
        raise LayoutError(f"'{text.strip()}' is not an affine_map<…>")
    return attribute.data


def uses_symbols(index_map: AffineMap) -> bool:
    """Whether a result of the map uses one of its symbols."""
    return any(
        isinstance(node, AffineSymExpr) for result in index_map.results for node in result.dfs()
    )


def without_unused_symbols(index_map: AffineMap) -> AffineMap:
    """The map without its symbols when no result uses them (upstream --normalize-memrefs
    normalizes such a layout and drops the allocation's symbol operands); else unchanged."""
    if not index_map.num_symbols or uses_symbols(index_map):
        return index_map
    return AffineMap(index_map.num_dims, 0, index_map.results)


def parse_strided(text: str) -> tuple[tuple[int, ...], int]:
    match = _STRIDED.match(text.strip())
    if not match:
        raise LayoutError(f"'{text.strip()}': expected strided<[s0, s1, …], offset: k>")
    try:
        strides = tuple(int(s) for s in match.group(1).split(",")) if match.group(1).strip() else ()
        offset = int(match.group(2)) if match.group(2) else 0
    except ValueError:
        raise LayoutError(
            f"'{text.strip()}': strides and offset must be static integers ('?' is not supported)"
        ) from None
    return strides, offset


def strided_map(strides: Sequence[int], offset: int) -> AffineMap:
    total: AffineExpr | None = None
    for dim, stride in enumerate(strides):
        term = AffineExpr.dimension(dim) if stride == 1 else AffineExpr.dimension(dim) * stride
        total = term if total is None else total + term
    if total is None:
        total = AffineExpr.constant(offset)
    elif offset:
        total = total + offset
    return AffineMap(len(strides), 0, (total,))


def strides_of(index_map: AffineMap) -> tuple[tuple[int, ...], int] | None:
    """Strides and offset of a one-result affine map, if it is `Σ d_i · s_i + offset`."""
    if len(index_map.results) != 1:
        return None
    form = linear_form(index_map.results[0], index_map.num_dims)
    if form is None:
        return None
    strides, offset = tuple(form[0]), form[1]
    return (strides, offset) if strided_map(strides, offset) == index_map else None


def format_strided(strides: Sequence[int], offset: int) -> str:
    return f"strided<[{', '.join(str(s) for s in strides)}], offset: {offset}>"
