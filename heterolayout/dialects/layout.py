"""The `layout` dialect: its attributes (`attributes`, `target_attributes`), its ops
(`ops`), and `parse_layout_attribute`, the one reader of `#layout.…` text."""

from __future__ import annotations

from xdsl.ir import Dialect

from heterolayout.dialects.attributes import (
    ChunkedLayoutAttr,
    LayoutAttr,
    MapLayoutAttr,
    StridedLayoutAttr,
    TagLayoutAttr,
)
from heterolayout.dialects.ops import AssignOp, ConvertOp
from heterolayout.dialects.schedule_hint import ScheduleOp
from heterolayout.dialects.target_attributes import PartitionLayoutAttr, TpuLayoutAttr
from heterolayout.layout.errors import LayoutError

LAYOUT_ATTRIBUTES: tuple[type[LayoutAttr], ...] = (
    TagLayoutAttr,
    ChunkedLayoutAttr,
    MapLayoutAttr,
    StridedLayoutAttr,
    TpuLayoutAttr,
    PartitionLayoutAttr,
)
KINDS = tuple(a.KIND for a in LAYOUT_ATTRIBUTES)

LayoutDialect = Dialect("layout", [AssignOp, ConvertOp, ScheduleOp], list(LAYOUT_ATTRIBUTES))


def parse_layout_attribute(text: str) -> LayoutAttr:
    """`#layout.<kind><…>` text → the attribute, through the dialect's own parsers; errors
    are one-line `LayoutError`s (with the column where the text does not parse)."""
    return parse_layout_text(text)[0]


def parse_layout_text(text: str, where: str | None = None) -> tuple[LayoutAttr, set[str]]:
    """`parse_layout_attribute`, and the keyword parameters the text spells (a written
    default such as `pad = 0` is gone from the attribute but still counts for
    `parse_layout`, whose arguments must agree with it)."""
    from xdsl.context import Context
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError
    from xdsl.utils.mlir_lexer import MLIRTokenKind

    text = text.strip()
    where = where or f"'{text}'"
    kind = text.removeprefix("#layout.").split("<", 1)[0].strip()
    if kind not in KINDS:
        raise LayoutError(
            f"{where}: unknown layout kind #layout.{kind} (expected tag, chunked, map or "
            "strided, or a target layout: tpu or partition)"
        )
    if text.count('"') % 2:
        # xDSL 0.74's string-literal lexer backtracks exponentially on an unmatched quote.
        raise LayoutError(f"{where}: a string literal is not closed")
    ctx = Context()
    ctx.load_dialect(LayoutDialect)
    written: set[str] = set()
    try:
        parser = Parser(ctx, text)
        parser.written_parameters = written  # type: ignore[attr-defined]
        attribute = parser.parse_attribute()
        if parser._current_token.kind != MLIRTokenKind.EOF:  # xDSL has no public "expect end"
            raise ParseError(parser._current_token.span, "unexpected text after the attribute")
    except ParseError as error:
        own = f"#layout.{kind}: "  # the attribute's own checks: say what, not where
        if error.msg.startswith(own):
            raise LayoutError(f"{where}: {error.msg.removeprefix(own)}") from None
        raise LayoutError(f"{where}, column {error.span.start + 1}: {error.msg}") from None
    assert isinstance(attribute, LayoutAttr)
    return attribute, written
