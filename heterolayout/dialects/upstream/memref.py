"""memref ops in upstream MLIR 22's custom syntax.

xDSL 0.74 gaps worked around here: `memref.global`, `copy`, `cast`, `rank`,
`memory_space_cast` and `extract_aligned_pointer_as_index` have no custom format;
`memref.global` requires a visibility and an initializer (upstream: public by default, and
an external declaration has none); `copy` and `rank` refuse unranked memrefs; `prefetch`
and `transpose` are missing.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    I32,
    I64,
    AffineMapAttr,
    AnyFloatConstr,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    SignlessIntegerConstraint,
    StringAttr,
    SymbolNameConstraint,
    TensorType,
    UnitAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import AffineDimExpr
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    MemoryReadEffect,
    MemoryWriteEffect,
    NoMemoryEffect,
)
from xdsl.utils.exceptions import VerifyException

from heterolayout.dialects.upstream.definitions import override

_ANY_MEMREF = base(MemRefType) | base(UnrankedMemRefType)


@override
class GlobalOp(memref.GlobalOp):
    """`memref.global ["private"] [constant] @name : type [= dense<…> | = dense_resource<…> |
    = uninitialized]`.

    xDSL's requires `sym_visibility` and `initial_value`; upstream leaves both out for a
    public external declaration. xDSL's reads no `dense_resource<handle>`: read here, the
    parser turns it into the dense attribute of the file's blob (`UpstreamParser`)."""

    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = opt_prop_def(StringAttr)  # type: ignore[assignment]
    type = prop_def(MemRefType)
    initial_value = opt_prop_def(UnitAttr | DenseIntOrFPElementsAttr | DenseResourceAttr)  # type: ignore[assignment,arg-type]
    constant = opt_prop_def(UnitAttr)
    alignment = opt_prop_def(IntegerAttr[I64])

    def verify_(self) -> None:
        if isinstance(self.initial_value, DenseResourceAttr):
            raise VerifyException(
                f"{self.name} @{self.sym_name.data}: dense_resource<"
                f"{self.initial_value.resource_handle.data}> has no data (its blob is read "
                "with the file that holds it)"
            )
        if self.alignment is not None:
            value = self.alignment.value.data
            if value <= 0 or value & (value - 1):
                raise VerifyException(f"{self.name}: alignment {value} is not a power of 2")

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        properties: dict[str, object] = {}
        visibility = parser.parse_optional_str_literal()
        if visibility is not None:
            properties["sym_visibility"] = StringAttr(visibility)
        if parser.parse_optional_keyword("constant") is not None:
            properties["constant"] = UnitAttr()
        properties["sym_name"] = StringAttr(parser.parse_symbol_name().data)
        parser.parse_punctuation(":")
        memref_type = parser.parse_type()
        if not isinstance(memref_type, MemRefType):
            parser.raise_error(f"memref.global needs a memref type, got {memref_type}")
        properties["type"] = memref_type
        if parser.parse_optional_punctuation("=") is not None:
            tensor = TensorType(memref_type.element_type, memref_type.get_shape())
            if parser.parse_optional_keyword("uninitialized") is not None:
                properties["initial_value"] = UnitAttr()
            elif parser.parse_optional_keyword("dense_resource") is not None:
                parser.parse_punctuation("<")
                handle = parser.parse_optional_str_literal() or parser.parse_identifier()
                parser.parse_punctuation(">")
                properties["initial_value"] = DenseResourceAttr.from_params(handle, tensor)
            else:
                parser.parse_characters("dense")
                properties["initial_value"] = parser.parse_dense_int_or_fp_elements_attr(tensor)
        attributes = parser.parse_optional_attr_dict()
        if "alignment" in attributes:
            properties["alignment"] = attributes.pop("alignment")
        return cls.build(properties=properties, attributes=attributes)  # type: ignore[arg-type]

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None and self.sym_visibility.data != "public":
            printer.print_string(f' "{self.sym_visibility.data}"')
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        initial = self.initial_value
        if isinstance(initial, UnitAttr):
            printer.print_string(" = uninitialized")
        elif isinstance(initial, DenseIntOrFPElementsAttr):
            printer.print_string(" = ")
            initial.print_without_type(printer)
        extra = dict(self.attributes)
        if self.alignment is not None:
            extra["alignment"] = self.alignment
        printer.print_op_attributes(extra)


@override
class CopyOp(memref.CopyOp):
    """`memref.copy %a, %b : T to U`; xDSL has no format and refuses unranked memrefs."""

    source = operand_def(_ANY_MEMREF)
    destination = operand_def(_ANY_MEMREF)

    traits = traits_def(MemoryWriteEffect(), MemoryReadEffect())
    assembly_format = "$source `,` $destination attr-dict `:` type($source) `to` type($destination)"

    def verify_(self) -> None:
        source, destination = self.source.type, self.destination.type
        assert isinstance(source, MemRefType | UnrankedMemRefType)
        assert isinstance(destination, MemRefType | UnrankedMemRefType)
        if source.element_type != destination.element_type:
            raise VerifyException(
                f"{self.name}: the element types differ ({source} and {destination})"
            )
        if (
            isinstance(source, MemRefType)
            and isinstance(destination, MemRefType)
            and source.get_shape() != destination.get_shape()
        ):
            raise VerifyException(f"{self.name}: the shapes differ ({source} and {destination})")


@override
class CastOp(memref.CastOp):
    """`memref.cast %a : T to U`; xDSL has no format."""

    source = operand_def(_ANY_MEMREF)
    dest = result_def(_ANY_MEMREF)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"


@override
class MemorySpaceCastOp(memref.MemorySpaceCastOp):
    """`memref.memory_space_cast %a : T to U`; xDSL has no format."""

    source = operand_def(_ANY_MEMREF)
    dest = result_def(_ANY_MEMREF)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"


@override
class RankOp(memref.RankOp):
    """`memref.rank %a : T`; xDSL has no format and refuses unranked memrefs."""

    source = operand_def(_ANY_MEMREF)
    rank = result_def(IndexType)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$source attr-dict `:` type($source)"


@override
class ExtractAlignedPointerAsIndexOp(memref.ExtractAlignedPointerAsIndexOp):
    """`memref.extract_aligned_pointer_as_index %a : T -> index`; xDSL has no format."""

    source = operand_def(_ANY_MEMREF)
    aligned_pointer = result_def(IndexType)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$source attr-dict `:` type($source) `->` type($aligned_pointer)"


@irdl_op_definition
class PrefetchOp(IRDLOperation):
    """`memref.prefetch %m[%i], read, locality<3>, data : T`: a hint, no effect on values.
    Missing in xDSL."""

    name = "memref.prefetch"

    memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    isWrite = prop_def(BoolAttr)
    localityHint = prop_def(IntegerAttr[I32])
    isDataCache = prop_def(BoolAttr)

    @classmethod
    def parse(cls, parser: Parser) -> PrefetchOp:
        source = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        properties = parse_prefetch_hints(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        memref_type = parser.parse_type()
        return cls.build(
            operands=[
                parser.resolve_operand(source, memref_type),
                [parser.resolve_operand(i, IndexType()) for i in indices],
            ],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.memref)
        with printer.in_square_brackets():
            printer.print_list(self.indices, printer.print_ssa_value)
        print_prefetch_hints(printer, self)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)


PREFETCH_HINTS = ("isWrite", "localityHint", "isDataCache")
"""The properties of `memref.prefetch` and `affine.prefetch` that say what to prefetch how."""


def parse_prefetch_hints(parser: Parser) -> dict[str, Attribute]:
    """`, read|write, locality<N>, data|instr` (shared with affine.prefetch)."""
    parser.parse_punctuation(",")
    kind = parser.parse_identifier()
    if kind not in ("read", "write"):
        parser.raise_error(f"expected 'read' or 'write', got '{kind}'")
    parser.parse_punctuation(",")
    parser.parse_characters("locality")
    parser.parse_punctuation("<")
    locality = parser.parse_integer()
    parser.parse_punctuation(">")
    if not 0 <= locality <= 3:
        parser.raise_error(f"locality must be in [0, 3], got {locality}")
    parser.parse_punctuation(",")
    cache = parser.parse_identifier()
    if cache not in ("data", "instr"):
        parser.raise_error(f"expected 'data' or 'instr', got '{cache}'")
    return {
        "isWrite": BoolAttr.from_bool(kind == "write"),
        "localityHint": IntegerAttr(locality, 32),
        "isDataCache": BoolAttr.from_bool(cache == "data"),
    }


def print_prefetch_hints(printer: Printer, op: Operation) -> None:
    is_write = op.properties["isWrite"].value.data  # type: ignore[attr-defined]
    locality = op.properties["localityHint"].value.data  # type: ignore[attr-defined]
    data = op.properties["isDataCache"].value.data  # type: ignore[attr-defined]
    printer.print_string(
        f", {'write' if is_write else 'read'}, locality<{locality}>, {'data' if data else 'instr'}"
    )


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """`memref.transpose %m (i, j) -> (j, i) : T to U`: a view with permuted dims.
    Missing in xDSL."""

    name = "memref.transpose"

    in_ = operand_def(MemRefType)
    result = result_def(MemRefType)
    permutation = prop_def(AffineMapAttr)

    traits = traits_def(NoMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        source = parser.parse_unresolved_operand()
        permutation = parser.parse_affine_map()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        result_type = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(source, source_type)],
            result_types=[result_type],
            properties={"permutation": AffineMapAttr(permutation)},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.in_)
        printer.print_string(f" {self.permutation.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.in_.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        permutation = self.permutation.data
        rank = self.in_.type.get_num_dims()  # type: ignore[attr-defined]
        dims = sorted(r.position for r in permutation.results if isinstance(r, AffineDimExpr))
        if permutation.num_dims != rank or dims != list(range(rank)):
            raise VerifyException(f"{self.name}: expected a permutation map of rank {rank}")


ATOMIC_KINDS = (
    "addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
    "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori",
)  # fmt: skip
"""Upstream's AtomicRMWKind keywords; the stored `kind` is the position here."""


@override
class AtomicRMWOp(memref.AtomicRMWOp):
    """`memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4xf32>) -> f32`; xDSL has no format."""

    T: ClassVar = VarConstraint("T", AnyFloatConstr | SignlessIntegerConstraint)

    value = operand_def(T)
    memref = operand_def(MemRefType.constr(T))
    indices = var_operand_def(IndexType)
    kind = prop_def(IntegerAttr[I64])
    result = result_def(T)

    traits = traits_def(MemoryWriteEffect(), MemoryReadEffect())

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        keyword = parser.parse_identifier()
        if keyword not in ATOMIC_KINDS:
            parser.raise_error(f"unknown atomic_rmw kind '{keyword}'")
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        memref_type = parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.build(
            operands=[
                parser.resolve_operand(value, value_type),
                parser.resolve_operand(target, memref_type),
                [parser.resolve_operand(i, IndexType()) for i in indices],
            ],
            result_types=[result_type],
            properties={"kind": IntegerAttr(ATOMIC_KINDS.index(keyword), 64)},
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {ATOMIC_KINDS[self.kind.value.data]} ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        printer.print_ssa_value(self.memref)
        with printer.in_square_brackets():
            printer.print_list(self.indices, printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : ({self.value.type}, {self.memref.type}) -> {self.result.type}")


@override
class AllocaScopeOp(memref.AllocaScopeOp):
    """`memref.alloca_scope [-> (T…)] { … }`; xDSL has no format. As upstream, a scope
    returning nothing may leave its `memref.alloca_scope.return` out."""

    res = var_result_def()
    scope = region_def()

    @classmethod
    def parse(cls, parser: Parser) -> AllocaScopeOp:
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_type
            )
        region = parser.parse_region()
        block = region.block
        if not block.ops or not isinstance(block.last_op, memref.AllocaScopeReturnOp):
            block.add_op(AllocaScopeReturnOp.create())
        attributes = parser.parse_optional_attr_dict()
        return cls.build(result_types=[result_types], regions=[region], attributes=attributes)

    def print(self, printer: Printer) -> None:
        if self.res:
            printer.print_string(" -> (")
            printer.print_list(self.res.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.scope, print_block_terminators=bool(self.res))
        printer.print_op_attributes(self.attributes)


@override
class AllocaScopeReturnOp(memref.AllocaScopeReturnOp):
    """`memref.alloca_scope.return %v : T`; xDSL has no format."""

    ops = var_operand_def()

    traits = traits_def(IsTerminator(), HasParent(AllocaScopeOp))
    assembly_format = "attr-dict ($ops^ `:` type($ops))?"


OPS: list[type[Operation]] = [
    GlobalOp,
    CopyOp,
    CastOp,
    MemorySpaceCastOp,
    RankOp,
    ExtractAlignedPointerAsIndexOp,
    PrefetchOp,
    TransposeOp,
    AtomicRMWOp,
    AllocaScopeOp,
    AllocaScopeReturnOp,
]
