"""arith ops in upstream MLIR 22's custom syntax.

xDSL 0.74 gaps worked around here: `arith.index_castui` and `arith.remf` are missing,
`arith.select` takes only an `i1` condition (upstream also selects lane by lane with a
vector of `i1`: `arith.select %m, %a, %b : vector<4xi1>, vector<4xf32>`), and
`arith.trunci` / `extui` / `extsi` / `fptosi` / `sitofp` take only scalars (upstream casts
vectors lane by lane: `arith.trunci %v : vector<64xi8> to vector<64xi1>`), and
`arith.cmpf` / `cmpi` give only an `i1` (upstream compares vectors lane by lane:
`arith.cmpf ugt, %a, %b : vector<16xf32>` is a `vector<16xi1>`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import arith
from xdsl.dialects.arith import (
    CMPF_COMPARISON_OPERATIONS,
    CMPI_COMPARISON_OPERATIONS,
    FastMathFlagsAttr,
    FloatingPointLikeBinaryOperation,
    floatingPointLike,
    signlessIntegerLike,
)
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, VectorType, i1
from xdsl.ir import Attribute, Operation, OpTraits, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.printer import Printer
from xdsl.traits import HasCanonicalizationPatternsTrait, Pure
from xdsl.transforms.canonicalization_patterns.arith import ApplyCmpiPredicateToEqualOperands
from xdsl.utils.exceptions import VerifyException

from heterolayout.dialects.upstream.definitions import override


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """`arith.index_castui %x : index to i32`: index_cast that zero-extends. Missing in xDSL."""

    name = "arith.index_castui"

    input = operand_def(base(IntegerType) | base(IndexType))
    result = result_def(base(IntegerType) | base(IndexType))

    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def verify_(self) -> None:
        if isinstance(self.input.type, IndexType) == isinstance(self.result.type, IndexType):
            raise VerifyException(
                f"{self.name}: exactly one of {self.input.type} and {self.result.type} "
                "must be index"
            )


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    """`arith.remf %a, %b : f32`: the remainder with the sign of `a` (C's fmod). Missing in
    xDSL."""

    name = "arith.remf"

    traits = traits_def(Pure())


@override
class SelectOp(arith.SelectOp):
    """`arith.select %c, %a, %b : T`, or `: vector<Nxi1>, vector<NxT>` lane by lane."""

    T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def(base(IntegerType) | base(VectorType))
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)

    assembly_format = None  # type: ignore[assignment]

    def verify_(self) -> None:
        condition = self.cond.type
        if condition == i1:
            return
        result = self.result.type
        if not (
            isinstance(condition, VectorType)
            and condition.element_type == i1
            and isinstance(result, VectorType)
            and condition.get_shape() == result.get_shape()
        ):
            raise VerifyException(
                f"{self.name}: the condition {condition} must be i1 or a vector of i1 of the "
                f"result's shape ({result})"
            )

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        if len(operands) != 3 or len(types) not in (1, 2):
            parser.raise_error("expected `%c, %a, %b : [condition type,] type`")
        condition_type, value_type = (i1, types[0]) if len(types) == 1 else types
        resolved = [
            parser.resolve_operand(o, t)
            for o, t in zip(operands, (condition_type, value_type, value_type), strict=True)
        ]
        op = cls(*resolved)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if isinstance(self.cond.type, VectorType):
            printer.print_string(f"{self.cond.type}, ")
        printer.print_attribute(self.result.type)


def _verify_integer_cast(op: IRDLOperation, narrows: bool) -> None:
    source, target = op.operands[0].type, op.results[0].type
    shapes = [t.get_shape() if isinstance(t, VectorType) else () for t in (source, target)]
    elements = [t.element_type if isinstance(t, VectorType) else t for t in (source, target)]
    widths = [e.width.data for e in elements if isinstance(e, IntegerType)]
    if shapes[0] != shapes[1] or len(widths) != 2:
        raise VerifyException(
            f"{op.name}: {source} and {target} must both be integers or vectors of integers "
            "of one shape"
        )
    if (widths[1] < widths[0]) != narrows or widths[0] == widths[1]:
        direction = "narrower" if narrows else "wider"
        raise VerifyException(f"{op.name}: {target} must be {direction} than {source}")


class _LaneCast:
    """What the lane-by-lane casts share: the generic format (xDSL would regenerate the
    parent's for the wider operands) and a constructor from the target type."""

    parse = Operation.parse
    print = Operation.print

    def __init__(self, op: SSAValue | Operation, target_type: Attribute) -> None:
        IRDLOperation.__init__(self, operands=[op], result_types=[target_type])  # type: ignore[arg-type]


_INTEGER_LIKE = base(IntegerType) | base(VectorType)


@override
class TruncIOp(_LaneCast, arith.TruncIOp):
    """`arith.trunci`, on vectors of integers too."""

    input = operand_def(_INTEGER_LIKE)
    result = result_def(_INTEGER_LIKE)  # type: ignore[arg-type]  # wider than the parent's

    def verify_(self) -> None:
        _verify_integer_cast(self, narrows=True)


@override
class ExtUIOp(_LaneCast, arith.ExtUIOp):
    """`arith.extui`, on vectors of integers too."""

    input = operand_def(_INTEGER_LIKE)
    result = result_def(_INTEGER_LIKE)  # type: ignore[arg-type]  # wider than the parent's

    def verify_(self) -> None:
        _verify_integer_cast(self, narrows=False)


@override
class ExtSIOp(_LaneCast, arith.ExtSIOp):
    """`arith.extsi`, on vectors of integers too."""

    input = operand_def(_INTEGER_LIKE)
    result = result_def(_INTEGER_LIKE)  # type: ignore[arg-type]  # wider than the parent's

    def verify_(self) -> None:
        _verify_integer_cast(self, narrows=False)


_FLOAT_LIKE = floatingPointLike


@override
class FPToSIOp(_LaneCast, arith.FPToSIOp):
    """`arith.fptosi`, on vectors of floats too (lane by lane, as upstream)."""

    input = operand_def(_FLOAT_LIKE)
    result = result_def(_INTEGER_LIKE)  # type: ignore[arg-type]  # wider than the parent's

    def verify_(self) -> None:
        _verify_lane_cast(
            self, 1, "a float or a vector of floats to an integer or a vector of integers"
        )


@override
class SIToFPOp(_LaneCast, arith.SIToFPOp):
    """`arith.sitofp`, on vectors of integers too (lane by lane, as upstream)."""

    input = operand_def(_INTEGER_LIKE)
    result = result_def(_FLOAT_LIKE)  # type: ignore[arg-type]  # wider than the parent's

    def verify_(self) -> None:
        _verify_lane_cast(
            self, 0, "an integer or a vector of integers to a float or a vector of floats"
        )


def _verify_lane_cast(op: FPToSIOp | SIToFPOp, integer: int, what: str) -> None:
    """A cast lane by lane: operand and result of one shape, the integer side (0: the
    operand, 1: the result) integers."""
    source, target = op.input.type, op.result.type
    shapes = [t.get_shape() if isinstance(t, VectorType) else () for t in (source, target)]
    elements = [t.element_type if isinstance(t, VectorType) else t for t in (source, target)]
    if shapes[0] != shapes[1] or not isinstance(elements[integer], IntegerType):
        raise VerifyException(f"{op.name}: {source} to {target}: expected {what} of the same shape")


def comparison_result(operand: SSAValue) -> Attribute:
    """What comparing values of `operand`'s type gives: `i1`, or a vector of `i1` of its
    shape."""
    compared = operand.type
    return VectorType(i1, compared.get_shape()) if isinstance(compared, VectorType) else i1


def _verify_comparison(op: CmpfOp | CmpiOp) -> None:
    if op.lhs.type != op.rhs.type:
        raise VerifyException(f"{op.name}: {op.lhs.type} and {op.rhs.type} differ")
    expected = comparison_result(op.lhs)
    if op.result.type != expected:
        raise VerifyException(
            f"{op.name}: comparing {op.lhs.type} gives {expected}, not {op.result.type}"
        )


def _predicate(arg: int | str, names: Sequence[str], op: str) -> int:
    if isinstance(arg, int):
        return arg
    if arg not in names:
        raise VerifyException(f"{op}: unknown predicate {arg!r}")
    return list(names).index(arg)


@override
class CmpfOp(arith.CmpfOp):
    """`arith.cmpf`, on vectors too (a vector of `i1`, lane by lane)."""

    predicate = prop_def(IntegerAttr)
    lhs = operand_def(floatingPointLike)
    rhs = operand_def(floatingPointLike)
    fastmath = prop_def(FastMathFlagsAttr, default_value=FastMathFlagsAttr("none"))
    result = result_def(base(IntegerType) | base(VectorType))  # type: ignore[arg-type]

    def __init__(
        self,
        operand1: SSAValue | Operation,
        operand2: SSAValue | Operation,
        arg: int | str,
        fastmath: FastMathFlagsAttr | None = None,
    ) -> None:
        lhs = SSAValue.get(operand1)
        IRDLOperation.__init__(
            self,
            operands=[lhs, operand2],
            result_types=[comparison_result(lhs)],
            properties={
                "predicate": IntegerAttr(
                    _predicate(arg, CMPF_COMPARISON_OPERATIONS, self.name), 64
                ),
                "fastmath": fastmath or FastMathFlagsAttr("none"),
            },
        )

    def verify_(self) -> None:
        _verify_comparison(self)


class _ScalarEqualOperands(RewritePattern):
    """xDSL's fold of a comparison of a value with itself, for scalars only: it makes an
    `i1` constant, which would stand in for a vector of `i1`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.CmpiOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.result.type, VectorType):
            ApplyCmpiPredicateToEqualOperands().match_and_rewrite(op, rewriter)


class _CmpiCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (_ScalarEqualOperands(),)


@override
class CmpiOp(arith.CmpiOp):
    """`arith.cmpi`, on vectors too (a vector of `i1`, lane by lane)."""

    predicate = prop_def(IntegerAttr)
    lhs = operand_def(signlessIntegerLike)
    rhs = operand_def(signlessIntegerLike)
    result = result_def(base(IntegerType) | base(VectorType))  # type: ignore[arg-type]

    def __init__(
        self, operand1: SSAValue | Operation, operand2: SSAValue | Operation, arg: int | str
    ) -> None:
        lhs = SSAValue.get(operand1)
        IRDLOperation.__init__(
            self,
            operands=[lhs, operand2],
            result_types=[comparison_result(lhs)],
            properties={
                "predicate": IntegerAttr(_predicate(arg, CMPI_COMPARISON_OPERATIONS, self.name), 64)
            },
        )

    def verify_(self) -> None:
        _verify_comparison(self)


CmpiOp.traits = OpTraits(lambda: (_CmpiCanonicalization(), Pure()))
"""Not the parent's canonicalization, whose fold of equal operands makes an `i1`."""


OPS: list[type[Operation]] = [
    IndexCastUIOp,
    RemFOp,
    SelectOp,
    TruncIOp,
    ExtUIOp,
    ExtSIOp,
    FPToSIOp,
    SIToFPOp,
    CmpfOp,
    CmpiOp,
]
