"""`affine.delinearize_index` and `affine.linearize_index`, which xDSL 0.74 lacks (MLIR 22's
tiling and coalescing passes emit them).

    %i:2 = affine.delinearize_index %x into (%n, 10) : index, index
    %x = affine.linearize_index disjoint [%i#0, %i#1] by (%n, 10) : index

The basis may leave out the outermost bound (one more result, or index, than bounds).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BoolAttr,
    DenseArrayBase,
    IndexType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


def _parse_basis(parser: Parser) -> tuple[list[int], list[SSAValue]]:
    """`(%n, 10)`: the static basis with `?` for each SSA value, and those values."""
    static: list[int] = []
    dynamic: list[SSAValue] = []

    def element() -> None:
        value = parser.parse_optional_operand(IndexType())
        if value is None:
            static.append(parser.parse_integer())
        else:
            static.append(DYNAMIC_INDEX)
            dynamic.append(value)

    parser.parse_comma_separated_list(Parser.Delimiter.PAREN, element)
    return static, dynamic


def _print_basis(printer: Printer, static: Sequence[int], dynamic: Sequence[SSAValue]) -> None:
    remaining = iter(dynamic)
    printer.print_string("(")
    printer.print_list(
        static,
        lambda v: (
            printer.print_ssa_value(next(remaining))
            if v == DYNAMIC_INDEX
            else printer.print_string(str(v))
        ),
    )
    printer.print_string(")")


def _basis(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


@irdl_op_definition
class DelinearizeIndexOp(IRDLOperation):
    """The multi-index of a linear index in the basis (row-major)."""

    name = "affine.delinearize_index"

    linear_index = operand_def(IndexType)
    dynamic_basis = var_operand_def(IndexType)
    multi_index = var_result_def(IndexType)
    static_basis = prop_def(DenseArrayBase)

    traits = traits_def(Pure())

    def verify_(self) -> None:
        count = len(self.static_basis.get_values())
        if len(self.multi_index) not in (count, count + 1):
            raise VerifyException(
                f"{self.name}: {len(self.multi_index)} results for a basis of {count}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> DelinearizeIndexOp:
        index = parser.parse_operand(IndexType())
        parser.parse_keyword("into")
        static, dynamic = _parse_basis(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types: list[Attribute] = list(
            parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        )
        return cls.build(
            operands=[index, dynamic],
            result_types=[types],
            properties={"static_basis": _basis(static)},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.linear_index)
        printer.print_string(" into ")
        _print_basis(printer, self.static_basis.get_values(), self.dynamic_basis)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list(self.multi_index.types, printer.print_attribute)


@irdl_op_definition
class LinearizeIndexOp(IRDLOperation):
    """The linear index of a multi-index in the basis (row-major)."""

    name = "affine.linearize_index"

    multi_index = var_operand_def(IndexType)
    dynamic_basis = var_operand_def(IndexType)
    linear_index = result_def(IndexType)
    static_basis = prop_def(DenseArrayBase)
    disjoint = opt_prop_def(UnitAttr | BoolAttr)  # type: ignore[arg-type]
    """Set, or `false` (what upstream's generic form writes when it is not)."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def verify_(self) -> None:
        count = len(self.static_basis.get_values())
        if len(self.multi_index) not in (count, count + 1):
            raise VerifyException(
                f"{self.name}: {len(self.multi_index)} indices for a basis of {count}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> LinearizeIndexOp:
        disjoint = parser.parse_optional_keyword("disjoint") is not None
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
        )
        parser.parse_keyword("by")
        static, dynamic = _parse_basis(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        result = parser.parse_type()
        properties: dict[str, Attribute] = {"static_basis": _basis(static)}
        if disjoint:
            properties["disjoint"] = UnitAttr()
        return cls.build(
            operands=[indices, dynamic],
            result_types=[result],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        if isinstance(self.disjoint, UnitAttr) or self.disjoint == BoolAttr.from_bool(True):
            printer.print_string(" disjoint")
        printer.print_string(" [")
        printer.print_list(self.multi_index, printer.print_ssa_value)
        printer.print_string("] by ")
        _print_basis(printer, self.static_basis.get_values(), self.dynamic_basis)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.linear_index.type}")


def delinearize(index: int, basis: Sequence[int], count: int) -> tuple[int, ...]:
    """The `count` results of delinearize_index (count = len(basis) + 1 when the basis
    leaves out the outermost bound, which then is not wrapped)."""
    inner = basis if count > len(basis) else basis[1:]
    results: list[int] = []
    for bound in reversed(inner):
        index, digit = divmod(index, bound)
        results.append(digit)
    results.append(index)
    return tuple(reversed(results))


def linearize(indices: Sequence[int], basis: Sequence[int]) -> int:
    """linearize_index: `Σ index_i · Π basis[i+1:]` (an outermost bound is not needed)."""
    strides = [1]
    for bound in reversed(basis[len(basis) - len(indices) + 1 :]):
        strides.append(strides[-1] * bound)
    return sum(i * s for i, s in zip(indices, reversed(strides), strict=True))


OPS: list[type[Operation]] = [DelinearizeIndexOp, LinearizeIndexOp]
