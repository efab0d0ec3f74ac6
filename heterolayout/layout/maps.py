"""The text of affine-map layouts (`affine_map<(d0, d1) -> (…)>`) and strided layouts
(`strided<[…], offset: …>`), both MLIR builtin attributes that xDSL's parser reads.

A `#layout.map`'s physical extents are the exact max + 1 of each result over the logical box
unless a physical shape is given; a builtin `affine_map` layout has upstream's
(`constructors.builtin_map_layout`, `normalize`). A strided layout is a map to one physical
dim: the element offset
`Σ d_i · s_i + offset`, over a 1-D buffer just large enough for it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.dialects.builtin import AffineMapAttr, StridedLayoutAttr
from xdsl.ir import Attribute
from xdsl.ir.affine import AffineExpr, AffineMap, AffineSymExpr

from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import linear_form

QUASI_AFFINE = "+ and -, and *, floordiv, ceildiv and mod by constants"
"""What a quasi-affine map may use, the maps layouts and heterolayout's IR are made of."""

_SEMI_AFFINE = re.compile(r"^(Multiplication|Floor division|Ceil division|Mod) with non-constant")
_OPERATORS = {"Floor division": "floordiv", "Ceil division": "ceildiv", "Mod": "mod"}
_FACTORS = re.compile(r"self: (.*) other: (.*)$")


def semi_affine_reason(error: NotImplementedError, terms: bool = True) -> str:
    """What makes a map semi-affine, from the NotImplementedError xDSL's expression builder
    raises for it ("Multiplication with non-constant … self: d0 other: s0"); `terms=False`
    leaves out the factors (`d0`, `s0`), which mean nothing where the text names values."""
    text = str(error)
    found = _SEMI_AFFINE.match(text)
    if found is None:
        return text
    if found.group(1) == "Multiplication":
        factors = _FACTORS.search(text)
        if factors is None or not terms:
            return "a product of two terms that are not constants"
        return (
            f"{factors.group(1)} * {factors.group(2)} multiplies two terms that are not constants"
        )
    return f"a {_OPERATORS[found.group(1)]} by a term that is not a constant"


def parse_builtin_attribute(text: str, what: str) -> Attribute:
    """One MLIR builtin attribute, parsed by xDSL; errors are one-line `LayoutError`s."""
    from xdsl.context import Context
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    if '"' in text:
        # xDSL 0.74's string-literal lexer backtracks exponentially on an unmatched quote.
        raise LayoutError(
            f"'{text.strip()}': a {what} has no string literals ('\"' at column {text.index(chr(34)) + 1})"
        )
    try:
        parser = Parser(Context(), text.strip())
        attribute = parser.parse_attribute()
        if parser._current_token.kind != MLIRTokenKind.EOF:  # xDSL has no public "expect end"
            raise ParseError(parser._current_token.span, f"unexpected text after the {what}")
    except ParseError as error:
        raise LayoutError(
            f"'{text.strip()}': {error.msg} (at column {error.span.start + 1})"
        ) from None
    except NotImplementedError as error:
        # xDSL's expression builder refuses semi-affine terms with NotImplementedError.
        raise LayoutError(
            f"'{text.strip()}' is semi-affine: {semi_affine_reason(error)}; a layout's map is "
            f"quasi-affine ({QUASI_AFFINE})"
        ) from None
    return attribute


def parse_affine_map(text: str) -> AffineMap:
    """`affine_map<(d0, d1) -> (…)>`."""
    attribute = parse_builtin_attribute(text, "map")
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
    """`strided<[s0, s1, …], offset: k>` → (strides, offset)."""
    try:
        attribute = parse_builtin_attribute(text, "strided layout")
    except LayoutError as error:
        raise LayoutError(f"{error}; expected strided<[s0, s1, …], offset: k>") from None
    if not isinstance(attribute, StridedLayoutAttr):
        raise LayoutError(f"'{text.strip()}': expected strided<[s0, s1, …], offset: k>")
    strides, offset = tuple(attribute.get_strides()), attribute.get_offset()
    if offset is None or None in strides:
        raise LayoutError(
            f"'{text.strip()}': strides and offset must be static integers ('?' is not supported)"
        )
    return strides, offset  # type: ignore[return-value]


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
