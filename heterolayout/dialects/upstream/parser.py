"""`UpstreamParser`: xDSL's parser, reading shapes as MLIR 22 writes them and recording
where each op starts.

Workarounds for xDSL 0.74: it cannot parse a shape with spaces around its `x`
(`memref<2 x i32>`, `vector<4 x f32>`, upstream test syntax): after `2 x`, seeing a type
instead of another dimension, it steps back one character from the type rather than to
the `x`, and then misses the delimiter. It keeps `loc(...)` when the text spells one but
leaves every other op at `loc(unknown)`, so an error could not say where its op is. It
keeps `%alloc_0` as the name hint `alloc`; the name as written is remembered
(`heterolayout.dialects.names.value_name`), so tools can name values as the user does. Its
affine expression builder refuses a semi-affine map (`d0 * s0`, which MLIR reads) with a
NotImplementedError; here that is a parse error naming the op, the memref type and the map.
It keeps the blobs of a file's `dialect_resources` in the builtin dialect object, which every
context shares, so that one parse's blobs outlive it and rename another's handles (`w` becomes
`w_0`); here each parse keeps its own, and turns a `memref.global`'s `dense_resource<w>`
initializer into the dense attribute of the blob's bytes (what upstream's
`--mlir-elide-resource-strings-if-larger` and importers write for large weights), so that
passes and engines see one kind of initializer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import (
    AnyDenseElement,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FileLineColLoc,
    IndexType,
    IntAttr,
    MemRefType,
    ModuleOp,
    RankedStructure,
    StringAttr,
    TensorType,
    UnknownLoc,
    UnrankedMemRefType,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.parser import Parser
from xdsl.parser.attribute_parser import AttrParser
from xdsl.parser.base_parser import BaseParser
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from heterolayout.dialects.dense import with_float_bits
from heterolayout.dialects.diagnostics import where
from heterolayout.dialects.names import remember_spelling
from heterolayout.layout.maps import QUASI_AFFINE, semi_affine_reason

_DIMENSION = (MLIRTokenKind.INTEGER_LIT, MLIRTokenKind.QUESTION)
_OP_START = re.compile(
    r'(?:(%[^=]*?)\s*=\s*)?("(?:[^"\\\n]|\\.)*"|[A-Za-z_][\w$.]*)(?:\s+"\w+")?(?:\s+(@[\w$.-]+))?'
)


class SemiAffineMapError(ParseError):
    """A semi-affine map (xDSL reads quasi-affine ones only), named with the type and the op
    that carry it as the parser leaves them."""

    def __init__(self, span: Span, map_text: str, reason: str) -> None:
        self.map_text, self.reason = map_text, reason
        self.carrier: str | None = None
        """The memref type whose layout the map is."""
        self.op: str | None = None
        """The op (`func.func @main`) or alias (`#map`) whose text holds the map."""
        super().__init__(span, self.message())

    def message(self) -> str:
        where = "".join(f"{part}: " for part in (self.op, self.carrier) if part)
        if self.map_text.startswith("indices"):
            what = f"the {self.map_text} are semi-affine"
        else:
            what = f"the {'layout' if self.carrier else 'map'} {self.map_text} is semi-affine"
        return (
            f"{where}{what} ({self.reason}); heterolayout reads quasi-affine maps only "
            f"({QUASI_AFFINE})"
        )


def semi_affine_indices(
    parser: BaseParser, start: int, error: NotImplementedError
) -> SemiAffineMapError:
    """The error for indices `[…]` from `start` that xDSL found semi-affine (`%i * %j`)."""
    text = parser.lexer.input.content
    end = text.find("]", start) + 1 or len(text)
    return SemiAffineMapError(
        Span(start, end, parser.lexer.input),
        f"indices {text[start:end]}",
        semi_affine_reason(error, terms=False),
    )


def _closing(text: str, start: int) -> int:
    """The position of the `>` that closes the `<` just before `start` (`->` skipped)."""
    depth = 1
    for position in range(start, len(text)):
        character = text[position]
        if character == "<":
            depth += 1
        elif character == ">" and text[position - 1] != "-":
            depth -= 1
            if depth == 0:
                return position
    return len(text)


def _op_text(text: str, start: int) -> str:
    """The op's name (and symbol) as the text starting at `start` spells it."""
    found = _OP_START.match(text, start)
    if found is None:
        return "an op"
    results, name, symbol = found.groups()
    named = " ".join(filter(None, [name.strip('"'), symbol]))
    if not results:
        return named
    return f"{named} (result{'s' if ',' in results else ''} {results})"


_BLOB_ALIGNMENT = 4
"""A resource blob's hex starts with its alignment, a little-endian 32-bit number."""


def _dense_of_blob(
    op: Operation, handle: str, tensor: TensorType, blob: str
) -> DenseIntOrFPElementsAttr:
    """The dense initializer holding a blob's bytes (decoded in one pass: no per-element
    objects), checked against the global's type."""
    element = tensor.element_type
    size = getattr(element, "compile_time_size", None)
    bits = getattr(getattr(element, "width", None), "data", None)
    if size is None or (bits is not None and bits not in (1, 8, 16, 32, 64)):
        raise VerifyException(
            f"{where(op)}: dense_resource<{handle}> of {element}: blobs of 1-, 8-, 16-, 32- "
            "and 64-bit integers and of floats are supported"
        )
    try:
        data = bytes.fromhex(blob[2:]) if blob.startswith("0x") else None
    except ValueError:
        data = None
    if data is None or len(data) < _BLOB_ALIGNMENT:
        raise VerifyException(f"{where(op)}: dense_resource<{handle}>: the blob is not hex data")
    count = 1
    for extent in tensor.get_shape():
        count *= extent
    payload = len(data) - _BLOB_ALIGNMENT
    if payload != count * size:
        raise VerifyException(
            f"{where(op)}: dense_resource<{handle}> holds {payload} bytes; {tensor} takes "
            f"{count * size}"
        )
    return DenseIntOrFPElementsAttr(tensor, BytesAttr(data[_BLOB_ALIGNMENT:]))  # type: ignore[arg-type]


class UpstreamParser(Parser):
    _line_at: tuple[int, int] = (0, 1)
    """The last op start seen and its line: ops start in text order, so lines are counted
    once over the whole text (xDSL's `Span.get_location` counts from the top each time)."""
    _blobs: dict[tuple[str, str], str] | None = None
    """This parse's resource blobs, by dialect and handle."""
    _literal_elements: list[int | None] | None = None
    """The elements of the tensor literal being parsed, in order: the bits of a hexadecimal
    one (`0x7FC00000`), None for any other."""

    def parse_dense_int_or_fp_elements_attr(
        self, type: RankedStructure[AnyDenseElement] | None
    ) -> DenseIntOrFPElementsAttr:
        """xDSL's, with MLIR's meaning of a hexadecimal element of a float tensor literal: its
        bits (`dense<[1.0, 0x7FC00000, 0xFF800000]>`: 1, NaN and -inf, as MLIR prints NaN and
        infinities), where xDSL took its integer value (2.1e9, 4.3e9)."""
        outer, self._literal_elements = self._literal_elements, []
        try:
            attr = super().parse_dense_int_or_fp_elements_attr(type)
            elements = self._literal_elements
        finally:
            self._literal_elements = outer
        read = with_float_bits(attr, elements)
        if read is None:
            self.raise_error(
                f"hexadecimal elements of a dense {attr.get_element_type()} literal are not "
                "read yet"
            )
        return read

    def _parse_tensor_literal_element(self) -> AttrParser._TensorLiteralElement:
        token = self._current_token
        element = super()._parse_tensor_literal_element()
        if self._literal_elements is not None:
            hexadecimal = token.kind == MLIRTokenKind.INTEGER_LIT and token.text[:2] in ("0x", "0X")
            self._literal_elements.append(int(token.text, 16) if hexadecimal else None)
        return element

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        module = super().parse_module(allow_implicit_module)
        blobs, self._blobs = self._blobs or {}, None
        for op in module.walk():
            initial = op.properties.get("initial_value") if op.name == "memref.global" else None
            if isinstance(initial, DenseResourceAttr):
                handle = initial.resource_handle.data
                blob = blobs.get(("builtin", handle))
                if blob is None:
                    raise VerifyException(
                        f"{where(op)}: dense_resource<{handle}>: the file has no blob of that "
                        "name in its dialect_resources"
                    )
                assert isinstance(initial.type, TensorType)
                op.properties["initial_value"] = _dense_of_blob(op, handle, initial.type, blob)
        return module

    def _parse_dialect_resource_handle(
        self, dialect_name: str, interface: OpAsmDialectInterface
    ) -> str:
        """The handle as written (xDSL's declares it in the shared dialect object)."""
        if self._current_token.kind == MLIRTokenKind.STRING_LIT:
            return self.parse_str_literal()
        return self.parse_identifier(" for resource handle")

    def _parse_resource(self, dialect_name: str, interface: OpAsmDialectInterface) -> None:
        """`handle: "0x…"`, kept for this parse (xDSL's stores it in the dialect object)."""
        key = self._parse_dialect_resource_handle(dialect_name, interface)
        self._parse_token(MLIRTokenKind.COLON, "expected `:`")
        if self._blobs is None:
            self._blobs = {}
        self._blobs[(dialect_name, key)] = self.parse_str_literal()

    def parse_operation(self) -> Operation:
        span = self._current_token.span
        position, line = self._line_at
        if span.start >= position:
            line += span.input.content.count(span.input.newline, position, span.start)
            self._line_at = (span.start, line)
        else:
            line = span.input.content.count(span.input.newline, 0, span.start) + 1
        try:
            op = super().parse_operation()
        except SemiAffineMapError as error:
            if error.op is None:
                error.op = _op_text(span.input.content, span.start)
                error.msg = error.message()
            raise
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
            text = self.lexer.input.content
            end = _closing(text, start)
            raise SemiAffineMapError(
                Span(start, end, self.lexer.input),
                f"affine_map<{text[start:end]}>",
                semi_affine_reason(error),
            ) from None

    def parse_affine_map_of_ssa_ids(self) -> tuple[AffineMap, Sequence[SSAValue[IndexType]]]:
        """xDSL's, with a parse error for semi-affine indices (`[%i * %j]`)."""
        start = self.pos
        try:
            return super().parse_affine_map_of_ssa_ids()
        except NotImplementedError as error:
            raise semi_affine_indices(self, start, error) from None

    def _parse_memref_attrs(self) -> MemRefType | UnrankedMemRefType:
        inside = self.pos
        try:
            return super()._parse_memref_attrs()
        except SemiAffineMapError as error:
            if error.carrier is None:
                text = self.lexer.input.content
                start = text.rfind("memref", 0, inside)
                error.carrier = " ".join(text[start : _closing(text, inside) + 1].split())
                error.msg = error.message()
            raise

    def _parse_alias_def(self) -> None:
        name = self._current_token.text
        try:
            super()._parse_alias_def()
        except SemiAffineMapError as error:
            if error.op is None:
                error.op = f"the alias {name}"
                error.msg = error.message()
            raise

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
