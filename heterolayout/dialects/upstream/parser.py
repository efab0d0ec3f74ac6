"""`UpstreamParser`: xDSL's parser, reading shapes as MLIR 22 writes them.

Workaround: xDSL 0.74 cannot parse a shape with spaces around its `x` (`memref<2 x i32>`,
`vector<4 x f32>`, upstream test syntax): after `2 x`, seeing a type instead of another
dimension, it steps back one character from the type rather than to the `x`, and then
misses the delimiter.
"""

from __future__ import annotations

from xdsl.ir.affine import AffineMap
from xdsl.parser import Parser
from xdsl.utils.mlir_lexer import MLIRTokenKind

_DIMENSION = (MLIRTokenKind.INTEGER_LIT, MLIRTokenKind.QUESTION)


class UpstreamParser(Parser):
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
