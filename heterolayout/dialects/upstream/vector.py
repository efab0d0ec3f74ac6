"""vector ops in upstream MLIR 22's custom syntax.

xDSL 0.74 gaps worked around here: `vector.print` takes only an operand (upstream also
prints strings and chooses its punctuation) and has no format; `from_elements`,
`multi_reduction`, `contract`, `shape_cast`, `transpose`, `extract_strided_slice`,
`insert_strided_slice`, `step`, `constant_mask`, `outerproduct` and `type_cast` are missing,
with the
`#vector.punctuation` and `#vector.iterator_type` attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import auto
from typing import ClassVar

from xdsl.dialects import vector
from xdsl.dialects.builtin import (
    I64,
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    VectorType,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from heterolayout.dialects.upstream.definitions import override
from heterolayout.dialects.vector_from_elements import FromElementsOp


def _angle_identifier(parser: AttrParser) -> str:
    parser.parse_punctuation("<")
    name = parser.parse_identifier()
    parser.parse_punctuation(">")
    return name


class Punctuation(StrEnum):
    NO_PUNCTUATION = auto()
    NEWLINE = auto()
    COMMA = auto()
    OPEN = auto()
    CLOSE = auto()


@irdl_attr_definition
class PunctuationAttr(EnumAttribute[Punctuation]):
    """`#vector.punctuation<newline>`: what `vector.print` writes after its value."""

    name = "vector.punctuation"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Punctuation:
        return Punctuation(_angle_identifier(parser))


class IteratorType(StrEnum):
    PARALLEL = auto()
    REDUCTION = auto()


@irdl_attr_definition
class IteratorTypeAttr(EnumAttribute[IteratorType]):
    """`#vector.iterator_type<parallel>`: one dim of a `vector.contract`."""

    name = "vector.iterator_type"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> IteratorType:
        return IteratorType(_angle_identifier(parser))


def _int_list(parser: Parser) -> list[int]:
    return parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_integer)


def _dense(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


def _print_int_list(printer: Printer, values: Sequence[int]) -> None:
    printer.print_string(f"[{', '.join(str(v) for v in values)}]")


@override
class PrintOp(vector.PrintOp):
    """`vector.print %x : T`, `vector.print str "text"`, with an optional
    `punctuation <comma>`."""

    source = opt_operand_def()  # type: ignore[assignment]
    punctuation = opt_prop_def(PunctuationAttr)
    stringLiteral = opt_prop_def(StringAttr)

    def __init__(self, source: Operation | object) -> None:
        super().__init__(source)  # type: ignore[arg-type]

    @classmethod
    def parse(cls, parser: Parser) -> PrintOp:
        operands: list[SSAValue] = []
        properties: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("str") is not None:
            properties["stringLiteral"] = StringAttr(parser.parse_str_literal())
        else:
            source = parser.parse_optional_unresolved_operand()
            if source is not None:
                parser.parse_punctuation(":")
                operands.append(parser.resolve_operand(source, parser.parse_type()))
        if parser.parse_optional_keyword("punctuation") is not None:
            properties["punctuation"] = PunctuationAttr(PunctuationAttr.parse_parameter(parser))
        properties.setdefault("punctuation", PunctuationAttr(Punctuation.NEWLINE))
        attributes = parser.parse_optional_attr_dict()
        return cls.build(operands=[operands], properties=properties, attributes=attributes)

    def print(self, printer: Printer) -> None:
        if self.source is not None:
            printer.print_string(" ")
            printer.print_ssa_value(self.source)
            printer.print_string(" : ")
            printer.print_attribute(self.source.type)
        if self.stringLiteral is not None:
            printer.print_string(" str ")
            printer.print_attribute(self.stringLiteral)
        if self.punctuation is not None and self.punctuation.data != Punctuation.NEWLINE:
            printer.print_string(f" punctuation <{self.punctuation.data}>")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class MultiReductionOp(IRDLOperation):
    """`vector.multi_reduction <add>, %v, %acc [0] : vector<2x4xf32> to vector<4xf32>`."""

    name = "vector.multi_reduction"

    T: ClassVar = VarConstraint("T", AnyAttr())

    source = operand_def(VectorType)
    acc = operand_def(T)
    dest = result_def(T)
    kind = prop_def(CombiningKindAttr)
    reduction_dims = prop_def(DenseArrayBase)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> MultiReductionOp:
        kind = CombiningKindFlag(_angle_identifier(parser))
        parser.parse_punctuation(",")
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        acc = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        dims = _int_list(parser)
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        dest_type = parser.parse_type()
        return cls.build(
            operands=[
                parser.resolve_operand(source, source_type),
                parser.resolve_operand(acc, dest_type),
            ],
            result_types=[dest_type],
            properties={"kind": CombiningKindAttr(kind), "reduction_dims": _dense(dims)},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" <{self.kind.data}>, ")
        printer.print_ssa_value(self.source)
        printer.print_string(", ")
        printer.print_ssa_value(self.acc)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        _print_int_list(printer, self.reduction_dims.get_values())
        printer.print_string(f" : {self.source.type} to {self.dest.type}")

    def verify_(self) -> None:
        source = self.source.type
        assert isinstance(source, VectorType)
        dims = self.reduction_dims.get_values()
        if any(not 0 <= d < source.get_num_dims() for d in dims):
            raise VerifyException(f"{self.name}: reduction dims {list(dims)} out of range")


@irdl_op_definition
class ContractionOp(IRDLOperation):
    """`vector.contract {indexing_maps = […], iterator_types = ["parallel", …], kind =
    #vector.kind<add>} %a, %b, %c : A, B into C`."""

    name = "vector.contract"

    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    acc = operand_def(AnyAttr())
    result = result_def(AnyAttr())
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    iterator_types = prop_def(ArrayAttr[IteratorTypeAttr])
    kind = prop_def(CombiningKindAttr, default_value=CombiningKindAttr(CombiningKindFlag.ADD))

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> ContractionOp:
        trait = parser.parse_optional_attr_dict()
        iterators = trait.pop("iterator_types", ArrayAttr([]))
        properties: dict[str, Attribute] = {
            "indexing_maps": trait.pop("indexing_maps", ArrayAttr([])),
            "iterator_types": ArrayAttr(
                IteratorTypeAttr(IteratorType(i.data)) if isinstance(i, StringAttr) else i
                for i in iterators.data  # type: ignore[attr-defined]
            ),
        }
        if "kind" in trait:
            properties["kind"] = trait.pop("kind")
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lhs_type = parser.parse_type()
        parser.parse_punctuation(",")
        rhs_type = parser.parse_type()
        parser.parse_keyword("into")
        result_type = parser.parse_type()
        if len(operands) != 3:
            parser.raise_error("vector.contract takes three operands (masks are not supported)")
        types = (lhs_type, rhs_type, result_type)
        return cls.build(
            operands=[parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True)],
            result_types=[result_type],
            properties=properties,
            attributes={**trait, **attributes},
        )

    def print(self, printer: Printer) -> None:
        iterators = ", ".join(f'"{i.data}"' for i in self.iterator_types)
        printer.print_string(" {indexing_maps = ")
        printer.print_attribute(self.indexing_maps)
        printer.print_string(f", iterator_types = [{iterators}], kind = ")
        printer.print_attribute(self.kind)
        printer.print_string("} ")
        printer.print_list(self.operands, printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.lhs.type}, {self.rhs.type} into {self.result.type}")


@irdl_op_definition
class ShapeCastOp(IRDLOperation):
    """`vector.shape_cast %v : vector<2x4xf32> to vector<8xf32>`."""

    name = "vector.shape_cast"

    source = operand_def(VectorType)
    result = result_def(VectorType)

    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """`vector.transpose %v, [1, 0] : vector<2x4xf32> to vector<4x2xf32>`."""

    name = "vector.transpose"

    vector = operand_def(VectorType)
    result = result_def(VectorType)
    permutation = prop_def(DenseArrayBase)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        permutation = _int_list(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        result_type = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(source, source_type)],
            result_types=[result_type],
            properties={"permutation": _dense(permutation)},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.vector)
        printer.print_string(", ")
        _print_int_list(printer, self.permutation.get_values())
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.vector.type} to {self.result.type}")


@irdl_op_definition
class ExtractStridedSliceOp(IRDLOperation):
    """`vector.extract_strided_slice %v {offsets = [1], sizes = [2], strides = [1]} : …`."""

    name = "vector.extract_strided_slice"

    vector = operand_def(VectorType)
    result = result_def(VectorType)
    offsets = prop_def(ArrayAttr[IntegerAttr[I64]])
    sizes = prop_def(ArrayAttr[IntegerAttr[I64]])
    strides = prop_def(ArrayAttr[IntegerAttr[I64]])

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())
    assembly_format = "$vector attr-dict `:` type($vector) `to` type(results)"


@irdl_op_definition
class InsertStridedSliceOp(IRDLOperation):
    """`vector.insert_strided_slice %a, %b {offsets = [2], strides = [1]} : … into …`."""

    name = "vector.insert_strided_slice"

    T: ClassVar = VarConstraint("T", base(VectorType))

    valueToStore = operand_def(VectorType)
    dest = operand_def(T)
    result = result_def(T)
    offsets = prop_def(ArrayAttr[IntegerAttr[I64]])
    strides = prop_def(ArrayAttr[IntegerAttr[I64]])

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())
    assembly_format = "$valueToStore `,` $dest attr-dict `:` type($valueToStore) `into` type($dest)"


@irdl_op_definition
class StepOp(IRDLOperation):
    """`vector.step : vector<4xindex>`: 0, 1, 2, …"""

    name = "vector.step"

    result = result_def(VectorType.constr(IndexType()))

    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"


@irdl_op_definition
class ConstantMaskOp(IRDLOperation):
    """`vector.constant_mask [2] : vector<4xi1>`."""

    name = "vector.constant_mask"

    mask_dim_sizes = prop_def(DenseArrayBase)
    result = result_def(VectorType)

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> ConstantMaskOp:
        sizes = _int_list(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls.build(
            result_types=[parser.parse_type()],
            properties={"mask_dim_sizes": _dense(sizes)},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_int_list(printer, self.mask_dim_sizes.get_values())
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.result.type}")


@irdl_op_definition
class OuterProductOp(IRDLOperation):
    """`vector.outerproduct %a, %b[, %acc] : vector<4xf32>, vector<4xf32>`."""

    name = "vector.outerproduct"

    lhs = operand_def(VectorType)
    rhs = operand_def(AnyAttr())
    acc = opt_operand_def(VectorType)
    result = result_def(VectorType)
    kind = prop_def(CombiningKindAttr, default_value=CombiningKindAttr(CombiningKindFlag.ADD))

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> OuterProductOp:
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        properties = {"kind": attributes.pop("kind")} if "kind" in attributes else {}
        parser.parse_punctuation(":")
        lhs_type = parser.parse_type()
        parser.parse_punctuation(",")
        rhs_type = parser.parse_type()
        assert isinstance(lhs_type, VectorType)
        element = lhs_type.element_type
        if isinstance(rhs_type, VectorType):
            result_type: Attribute = VectorType(
                element, [*lhs_type.get_shape(), *rhs_type.get_shape()]
            )
        else:
            result_type = lhs_type
        types = [lhs_type, rhs_type, result_type][: len(operands)]
        return cls.build(
            operands=[parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True)]
            + ([] if len(operands) == 3 else [[]]),
            result_types=[result_type],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_ssa_value)
        extra = dict(self.attributes)
        if self.kind.data != CombiningKindFlag.ADD:
            extra["kind"] = self.kind
        printer.print_op_attributes(extra)
        printer.print_string(f" : {self.lhs.type}, {self.rhs.type}")


@irdl_op_definition
class TypeCastOp(IRDLOperation):
    """`vector.type_cast %m : memref<vector<4x1xf32>> to memref<4xvector<1xf32>>`: the same
    memory with dims moved between the memref and its vector elements (what
    `--convert-vector-to-scf` emits)."""

    name = "vector.type_cast"

    memref = operand_def(MemRefType)
    result = result_def(MemRefType)

    traits = traits_def(Pure())
    assembly_format = "$memref attr-dict `:` type($memref) `to` type($result)"


OPS: list[type[Operation]] = [
    FromElementsOp,
    PrintOp,
    MultiReductionOp,
    ContractionOp,
    ShapeCastOp,
    TransposeOp,
    ExtractStridedSliceOp,
    InsertStridedSliceOp,
    StepOp,
    ConstantMaskOp,
    OuterProductOp,
    TypeCastOp,
]
ATTRIBUTES: list[type[Attribute]] = [PunctuationAttr, IteratorTypeAttr]
