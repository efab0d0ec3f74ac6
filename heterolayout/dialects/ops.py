"""The layout dialect's ops: `layout.assign` (HeteroCL's `s.layout`) and `layout.convert`
(a reorder between two layouts)."""

from __future__ import annotations

from typing import TypeVar

from xdsl.dialects.builtin import MemRefLayoutAttr, MemRefType, NoneAttr
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from heterolayout.layout.errors import LayoutError
from heterolayout.layout.model import format_shape

_OpT = TypeVar("_OpT", bound=type[IRDLOperation])


def _verify_errors_at_position(op_type: _OpT) -> _OpT:
    """Workaround: xDSL's declarative-format parser checks operand types and properties
    while it builds the op and raises a VerifyException that carries no position; raise it
    through the parser instead, so the diagnostic has file:line:column."""
    parse_with_format = op_type.parse.__func__  # type: ignore[attr-defined]

    def parse(cls: type[IRDLOperation], parser: Parser) -> IRDLOperation:
        start = parser.pos
        try:
            return parse_with_format(cls, parser)
        except VerifyException as error:
            parser.raise_error(f"{cls.name}: {error}", start)

    op_type.parse = classmethod(parse)  # type: ignore[assignment]
    return op_type


@_verify_errors_at_position
@irdl_op_definition
class AssignOp(IRDLOperation):
    """`layout.assign %m to #layout.X : memref<…>`, HeteroCL's `s.layout`: from here on the
    buffer `%m` (its root allocation or argument, for its whole lifetime) has layout X."""

    name = "layout.assign"
    memref = operand_def(MemRefType)
    layout = prop_def(MemRefLayoutAttr)

    assembly_format = "$memref `to` $layout attr-dict `:` type($memref)"

    def __init__(self, memref: SSAValue | Operation, layout: MemRefLayoutAttr) -> None:
        super().__init__(operands=[memref], properties={"layout": layout})

    def verify_(self) -> None:
        from heterolayout.dialects.conversion import layout_of, with_layout

        memref_type = self.memref.type
        assert isinstance(memref_type, MemRefType)
        try:
            assigned = layout_of(with_layout(memref_type, self.layout))
        except LayoutError as error:
            reason = str(error).removeprefix(f"layout '{self.layout}': ")
            raise VerifyException(
                f"{self.name}: {self.layout} does not fit {memref_type}: {reason}"
            ) from None
        if isinstance(memref_type.layout, NoneAttr) or memref_type.layout == self.layout:
            return
        current: object
        try:
            current = layout_of(memref_type)
        except LayoutError:
            current = memref_type.layout  # invalid: the verification walk says why
        if current is not None and current != assigned:
            raise VerifyException(
                f"{self.name}: the memref already has layout {memref_type.layout}; it cannot be "
                f"assigned {self.layout} (layout.convert it into a new buffer instead)"
            )


@_verify_errors_at_position
@irdl_op_definition
class ConvertOp(IRDLOperation):
    """`layout.convert %src to %dst : memref<…, A> to memref<…, B>`: copy the logical contents
    between two layouts (a oneDNN reorder); the destination's pad slots get its pad value."""

    name = "layout.convert"
    source = operand_def(MemRefType)
    destination = operand_def(MemRefType)

    assembly_format = (
        "$source `to` $destination attr-dict `:` type($source) `to` type($destination)"
    )

    def __init__(self, source: SSAValue | Operation, destination: SSAValue | Operation) -> None:
        super().__init__(operands=[source, destination])

    def verify_(self) -> None:
        source, destination = self.source.type, self.destination.type
        assert isinstance(source, MemRefType) and isinstance(destination, MemRefType)
        if source.get_shape() != destination.get_shape():
            raise VerifyException(
                f"{self.name}: source and destination must have the same logical shape, got "
                f"{_shape_text(source)} and {_shape_text(destination)}"
            )
        if source.element_type != destination.element_type:
            raise VerifyException(
                f"{self.name}: source and destination must have the same element type, got "
                f"{source.element_type} and {destination.element_type}"
            )


def _shape_text(memref_type: MemRefType) -> str:
    return format_shape(tuple(None if e < 0 else e for e in memref_type.get_shape()))
