"""`UpstreamParser`: xDSL's parser, reading shapes as MLIR 22 writes them and recording
where each op starts.

Workarounds for xDSL 0.74: it cannot parse a shape with spaces around its `x`
(`memref<2 x i32>`, `vector<4 x f32>`, upstream test syntax): after `2 x`, seeing a type
instead of another dimension, it steps back one character from the type rather than to
the `x`, and then misses the delimiter. It keeps `loc(...)` when the text spells one but
leaves every other op at `loc(unknown)`, so an error could not say where its op is. It
keeps `%alloc_0` as the name hint `alloc`; the name as written is remembered
(`heterolayout.dialects.names.value_name`), so tools can name values as the user does.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr, UnknownLoc
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.parser import Parser
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from heterolayout.dialects.names import remember_spelling

_DIMENSION = (MLIRTokenKind.INTEGER_LIT, MLIRTokenKind.QUESTION)


class UpstreamParser(Parser):
    _line_at: tuple[int, int] = (0, 1)
    """The last op start seen and its line: ops start in text order, so lines are counted
    once over the whole text (xDSL's `Span.get_location` counts from the top each time)."""

    def parse_operation(self) -> Operation:
        span = self._current_token.span
        position, line = self._line_at
        if span.start >= position:
            line += span.input.content.count(span.input.newline, position, span.start)
            self._line_at = (span.start, line)
        else:
            line = span.input.content.count(span.input.newline, 0, span.start) + 1
        op = super().parse_operation()
        if isinstance(op.location, UnknownLoc):
            column = span.start - span.input.get_start_of_line(span.start) + 1
            op.location = FileLineColLoc(
                StringAttr(span.input.name), IntAttr(line + span.line_offset), IntAttr(column)
            )
        return op

    def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        super()._register_ssa_definition(name, values, span)
        if len(values) == 1:
            remember_spelling(values[0], name)

    def parse_affine_map(self) -> AffineMap:
        """xDSL's, with a parse error (not its NotImplementedError) for a semi-affine map."""
        start = self.pos
        try:
            return super().parse_affine_map()
        except NotImplementedError as error:
            self.raise_error(
                f"semi-affine map: {error}; affine maps here (layouts included) are quasi-affine",
                start,
                self.pos,
            )

    def parse_dimension_list(self) -> list[int]:
        """`(dimension x)* dimension`, leaving the `x` before the element type unparsed."""
        if self._current_token.kind not in _DIMENSION:
            return []
        dims = [self.parse_shape_dimension()]
        while True:
            delimiter = self._current_token.span.start
            if self._parse_optional_shape_delimiter() is None:
                return dims
            if self._current_token.kind not in _DIMENSION:
                self._resume_from(delimiter)
                return dims
            dims.append(self.parse_shape_dimension())
