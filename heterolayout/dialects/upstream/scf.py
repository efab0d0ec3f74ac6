"""scf ops in upstream MLIR 22's custom syntax.

xDSL 0.74 gaps worked around here: `scf.parallel` has no custom format, and `scf.if`
needs parentheses around a single result type (`scf.if %c -> (f32)`), which upstream
writes without them (`scf.if %c -> f32`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, i1
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer


def parse_result_types(parser: Parser) -> Sequence[Attribute]:
    """`-> T` or `-> (T, …)`, or nothing."""
    if parser.parse_optional_punctuation("->") is None:
        return []
    if parser.parse_optional_punctuation("(") is None:
        return [parser.parse_type()]
    if parser.parse_optional_punctuation(")") is not None:
        return []
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return types


def print_result_types(printer: Printer, types: Sequence[Attribute]) -> None:
    """As upstream: `-> T` for one type, `-> (T, U)` for several, nothing for none."""
    if not types:
        return
    printer.print_string(" -> ")
    if len(types) == 1:
        printer.print_attribute(types[0])
        return
    with printer.in_parens():
        printer.print_list(types, printer.print_attribute)


class IfOp(scf.IfOp):
    """`scf.if %c -> T { … } else { … }`: also a single result type without parentheses."""

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        condition = parser.parse_operand(i1)
        result_types = parse_result_types(parser)
        then_region = cls.parse_region_with_yield(parser)
        else_region = scf.Region()
        if parser.parse_optional_keyword("else") is not None:
            else_region = cls.parse_region_with_yield(parser)
        attributes = parser.parse_optional_attr_dict()
        return cls(condition, result_types, then_region, else_region, attributes)


class ParallelOp(scf.ParallelOp):
    """`scf.parallel (%i) = (%lb) to (%ub) step (%s) [init (%x)] [-> T] { … scf.reduce }`;
    xDSL has no format."""

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        ivs = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        index = IndexType()
        parser.parse_punctuation("=")
        lower = _index_operands(parser)
        parser.parse_keyword("to")
        upper = _index_operands(parser)
        parser.parse_keyword("step")
        steps = _index_operands(parser)
        inits: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("init") is not None:
            inits = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
        result_types = parse_result_types(parser)
        if len(result_types) != len(inits):
            parser.raise_error(
                f"scf.parallel: {len(inits)} init values for {len(result_types)} result types"
            )
        body = parser.parse_region([iv.resolve(index) for iv in ivs])
        block = body.block
        if not block.ops or not isinstance(block.last_op, scf.ReduceOp):
            block.add_op(ReduceOp())
        attributes = parser.parse_optional_attr_dict()
        op = cls(
            lower,
            upper,
            steps,
            body,
            [parser.resolve_operand(v, t) for v, t in zip(inits, result_types, strict=True)],
        )
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        with printer.in_parens():
            printer.print_list(self.body.block.args, printer.print_ssa_value)
        for keyword, values in (
            (" = ", self.lowerBound),
            (" to ", self.upperBound),
            (" step ", self.step),
        ):
            printer.print_string(keyword)
            with printer.in_parens():
                printer.print_list(values, printer.print_ssa_value)
        if self.initVals:
            printer.print_string(" init ")
            with printer.in_parens():
                printer.print_list(self.initVals, printer.print_ssa_value)
        print_result_types(printer, self.res.types)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)


class ReduceOp(scf.ReduceOp):
    """`scf.reduce(%a, %b : f32, i32) { … }, { … }`: xDSL's format leaves out the comma
    between the regions."""

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        args: Sequence[SSAValue] = []
        if parser.parse_optional_punctuation("(") is not None:
            unresolved = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            args = parser.resolve_operands(unresolved, types, parser.pos)
        regions = []
        region = parser.parse_optional_region()
        while region is not None:
            regions.append(region)
            if parser.parse_optional_punctuation(",") is None:
                break
            region = parser.parse_region()
        op = cls(args, regions)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        if self.args:
            printer.print_string("(")
            printer.print_list(self.args, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list(self.args.types, printer.print_attribute)
            printer.print_string(")")
        for number, region in enumerate(self.reductions):
            printer.print_string(", " if number else " ")
            printer.print_region(region)
        printer.print_op_attributes(self.attributes)


def _index_operands(parser: Parser) -> list[SSAValue]:
    return parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parser.parse_operand(IndexType())
    )


OPS: list[type[Operation]] = [IfOp, ParallelOp, ReduceOp]
