"""affine ops in upstream MLIR 22's custom syntax.

xDSL 0.74 gaps worked around here: its access maps (`affine.load %m[%i + symbol(%n)]`)
read every SSA value as a symbol and do not know `symbol(%x)`, so upstream's maps neither
parse nor print back with their dims and symbols; `affine.if` and `affine.parallel` have
no custom format, and `affine.parallel` stores its reductions as strings where upstream
stores `AtomicRMWKind` integers; `affine.prefetch` and `affine.max` are missing (and
`delinearize_index` / `linearize_index`, in `affine_index`).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext

from xdsl.dialects import affine
from xdsl.dialects.builtin import (
    I32,
    AffineMapAttr,
    AffineSetAttr,
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    DenseIntElementsAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    Signedness,
    TensorType,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.parser.affine_parser import AffineParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from heterolayout.dialects.upstream.affine_index import OPS as INDEX_OPS
from heterolayout.dialects.upstream.definitions import override
from heterolayout.dialects.upstream.memref import (
    ATOMIC_KINDS,
    parse_prefetch_hints,
    print_prefetch_hints,
)
from heterolayout.dialects.upstream.parser import semi_affine_indices
from heterolayout.dialects.upstream.scf import parse_result_types, print_result_types


# ---- maps over SSA values: `%x` is a dim, `symbol(%x)` a symbol -----------------------------
class SSAMapSpace:
    """The dims and symbols met while parsing expressions over SSA values."""

    def __init__(self, parser: Parser) -> None:
        self.parser = parser
        # The affine parser shares the parser's state: what it consumes, the parser has.
        self.affine = AffineParser(parser._parser_state)  # pyright: ignore[reportPrivateUsage]
        self.dims: list[Span] = []
        self.symbols: list[Span] = []

    def parse_optional_id(self) -> AffineExpr | None:
        affine_parser = self.affine
        token = affine_parser._parse_optional_token(MLIRTokenKind.PERCENT_IDENT)  # pyright: ignore[reportPrivateUsage]
        if token is not None:
            return AffineExpr.dimension(_position(self.dims, token.span))
        if affine_parser.parse_optional_keyword("symbol") is None:
            return None
        affine_parser.parse_punctuation("(")
        name = affine_parser._parse_token(MLIRTokenKind.PERCENT_IDENT, "expected an SSA value")  # pyright: ignore[reportPrivateUsage]
        affine_parser.parse_punctuation(")")
        return AffineExpr.symbol(_position(self.symbols, name.span))

    def parse_expr(self) -> AffineExpr:
        return self.affine._parse_affine_expr(self.parse_optional_id)  # pyright: ignore[reportPrivateUsage]

    def map(self, results: Sequence[AffineExpr]) -> AffineMap:
        return AffineMap(len(self.dims), len(self.symbols), tuple(results))

    def operands(self) -> list[SSAValue]:
        index = IndexType()
        return [
            self.parser.resolve_operand(UnresolvedOperand(span, 0), index)
            for span in [*self.dims, *self.symbols]
        ]


def _position(spans: list[Span], span: Span) -> int:
    """The position of the SSA value `span` names among those met so far (added if new)."""
    for position, known in enumerate(spans):
        if known.text == span.text:
            return position
    spans.append(span)
    return len(spans) - 1


def parse_ssa_map(parser: Parser) -> tuple[AffineMap, list[SSAValue]]:
    """`[expr, …]` over SSA values: the map (dims, then symbols) and its operands."""
    space = SSAMapSpace(parser)
    start = parser.pos
    try:
        results = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, space.parse_expr)
    except NotImplementedError as error:
        raise semi_affine_indices(parser, start, error) from None
    return space.map(results), space.operands()


_PRECEDENCE = {
    AffineBinaryOpKind.Add: 10,
    AffineBinaryOpKind.Mul: 20,
    AffineBinaryOpKind.Mod: 20,
    AffineBinaryOpKind.FloorDiv: 20,
    AffineBinaryOpKind.CeilDiv: 20,
}


def print_ssa_expr(
    printer: Printer,
    expr: AffineExpr,
    dims: Sequence[SSAValue],
    symbols: Sequence[SSAValue],
    min_precedence: int = 0,
) -> None:
    """`expr` with `%x` for dims and `symbol(%x)` for symbols, parenthesized as MLIR does."""
    if isinstance(expr, AffineConstantExpr):
        printer.print_string(str(expr.value))
    elif isinstance(expr, AffineDimExpr):
        printer.print_ssa_value(dims[expr.position])
    elif isinstance(expr, AffineSymExpr):
        printer.print_string("symbol(")
        printer.print_ssa_value(symbols[expr.position])
        printer.print_string(")")
    else:
        assert isinstance(expr, AffineBinaryOpExpr)
        precedence = _PRECEDENCE[expr.kind]
        with printer.in_parens() if precedence < min_precedence else nullcontext():
            print_ssa_expr(printer, expr.lhs, dims, symbols, precedence)
            printer.print_string(f" {expr.kind.get_token()} ")
            right = precedence if expr.kind == AffineBinaryOpKind.Add else precedence + 1
            print_ssa_expr(printer, expr.rhs, dims, symbols, right)


def print_ssa_map(printer: Printer, affine_map: AffineMap, operands: Sequence[SSAValue]) -> None:
    dims, symbols = operands[: affine_map.num_dims], operands[affine_map.num_dims :]
    with printer.in_square_brackets():
        printer.print_list(affine_map.results, lambda r: print_ssa_expr(printer, r, dims, symbols))


def _parse_access(parser: Parser) -> tuple[SSAValue, AffineMapAttr, list[SSAValue], MemRefType]:
    """`%m[exprs] : memref-type`."""
    source = parser.parse_unresolved_operand()
    access_map, indices = parse_ssa_map(parser)
    parser.parse_punctuation(":")
    memref_type = parser.parse_type()
    if not isinstance(memref_type, MemRefType):
        parser.raise_error(f"expected a memref type, got {memref_type}")
    return (
        parser.resolve_operand(source, memref_type),
        AffineMapAttr(access_map),
        indices,
        memref_type,
    )


def _print_access(printer: Printer, op: Operation) -> None:
    printer.print_ssa_value(op.memref)  # type: ignore[attr-defined]
    print_ssa_map(printer, op.map.data, op.indices)  # type: ignore[attr-defined]
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(op.memref.type)  # type: ignore[attr-defined]


# ---- accesses -------------------------------------------------------------------------------
class LoadOp(affine.LoadOp):
    """`affine.load %m[%i + symbol(%n)] : T`."""

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        source, access_map, indices, memref_type = _parse_access(parser)
        return cls(source, indices, access_map, memref_type.element_type)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_access(printer, self)


class StoreOp(affine.StoreOp):
    """`affine.store %v, %m[%i + symbol(%n)] : T`."""

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target, access_map, indices, memref_type = _parse_access(parser)
        return cls(
            parser.resolve_operand(value, memref_type.element_type), target, indices, access_map
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        _print_access(printer, self)


class VectorLoadOp(affine.VectorLoadOp):
    """`affine.vector_load %m[%i + symbol(%n)] : T, vector<…>`."""

    @classmethod
    def parse(cls, parser: Parser) -> VectorLoadOp:
        source, access_map, indices, _ = _parse_access(parser)
        parser.parse_punctuation(",")
        result_type = parser.parse_type()
        if not isinstance(result_type, VectorType):
            parser.raise_error(f"expected a vector type, got {result_type}")
        return cls(source, indices, access_map, result_type)  # type: ignore[arg-type]

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        _print_access(printer, self)
        printer.print_string(", ")
        printer.print_attribute(self.result.type)


class VectorStoreOp(affine.VectorStoreOp):
    """`affine.vector_store %v, %m[%i + symbol(%n)] : T, vector<…>`."""

    @classmethod
    def parse(cls, parser: Parser) -> VectorStoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target, access_map, indices, _ = _parse_access(parser)
        parser.parse_punctuation(",")
        value_type = parser.parse_type()
        return cls(parser.resolve_operand(value, value_type), target, indices, access_map)  # type: ignore[arg-type]

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        _print_access(printer, self)
        printer.print_string(", ")
        printer.print_attribute(self.value.type)


@irdl_op_definition
class PrefetchOp(IRDLOperation):
    """`affine.prefetch %m[%i + 1], read, locality<3>, data : T`: a hint, no effect on
    values. Missing in xDSL."""

    name = "affine.prefetch"

    memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    isWrite = prop_def(BoolAttr)
    localityHint = prop_def(IntegerAttr[I32])
    isDataCache = prop_def(BoolAttr)
    map = prop_def(AffineMapAttr)

    @classmethod
    def parse(cls, parser: Parser) -> PrefetchOp:
        source = parser.parse_unresolved_operand()
        access_map, indices = parse_ssa_map(parser)
        properties = {**parse_prefetch_hints(parser), "map": AffineMapAttr(access_map)}
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        memref_type = parser.parse_type()
        return cls.build(
            operands=[parser.resolve_operand(source, memref_type), indices],
            properties=properties,
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.memref)
        print_ssa_map(printer, self.map.data, self.indices)
        print_prefetch_hints(printer, self)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)


def _parse_map_operands(parser: Parser) -> tuple[AffineMapAttr, list[SSAValue]]:
    """`#map(%d…)[%s…]`, as affine.apply, min and max write their map and operands."""
    at = parser.pos
    map_attr = parser.parse_attribute()
    if not isinstance(map_attr, AffineMapAttr):
        parser.raise_error("expected an affine map", at)
    dims = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parser.parse_operand(IndexType())
    )
    symbols = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
    )
    return map_attr, [*(dims or []), *(symbols or [])]


def _print_map_operands(
    printer: Printer, map_attr: AffineMapAttr, operands: Sequence[SSAValue]
) -> None:
    printer.print_string(" ")
    printer.print_attribute(map_attr)
    count = map_attr.data.num_dims
    with printer.in_parens():
        printer.print_list(operands[:count], printer.print_ssa_value)
    if map_attr.data.num_symbols:
        with printer.in_square_brackets():
            printer.print_list(operands[count:], printer.print_ssa_value)


@irdl_op_definition
class MaxOp(IRDLOperation):
    """`affine.max #map(%d)[%s]`: the largest result of the map. Missing in xDSL."""

    name = "affine.max"

    arguments = var_operand_def(IndexType)
    result = result_def(IndexType)
    map = prop_def(AffineMapAttr)

    def verify_(self) -> None:
        expected = self.map.data.num_dims + self.map.data.num_symbols
        if len(self.arguments) != expected:
            raise VerifyException(
                f"{self.name}: {len(self.arguments)} operands for a map of {expected}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> MaxOp:
        map_attr, operands = _parse_map_operands(parser)
        return cls.build(
            operands=[operands],
            result_types=[IndexType()],
            properties={"map": map_attr},
            attributes=parser.parse_optional_attr_dict(),
        )

    def print(self, printer: Printer) -> None:
        _print_map_operands(printer, self.map, self.arguments)
        printer.print_op_attributes(self.attributes)


# ---- structured ops -------------------------------------------------------------------------
def _region_with_yield(parser: Parser) -> Region:
    """A region whose implicit `affine.yield` (no results) may be left out."""
    region = parser.parse_region()
    if not region.blocks:
        region.add_block(Block())
    block = region.block
    if not block.ops or not isinstance(block.last_op, affine.YieldOp):
        block.add_op(affine.YieldOp.get())
    return region


class IfOp(affine.IfOp):
    """`affine.if #set(%d)[%s] [-> T] { … } [else { … }]`; xDSL has no format."""

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        at = parser.pos
        condition = parser.parse_attribute()
        if not isinstance(condition, AffineSetAttr):
            parser.raise_error("expected an integer set", at)
        dims = parser.parse_optional_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_operand(IndexType())
        )
        symbols = parser.parse_optional_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
        )
        result_types = parse_result_types(parser)
        then_region = _region_with_yield(parser)
        else_region = Region()
        if parser.parse_optional_keyword("else") is not None:
            else_region = _region_with_yield(parser)
        return cls.build(
            operands=[[*(dims or []), *(symbols or [])]],
            result_types=[result_types],
            properties={"condition": condition},
            regions=[then_region, else_region],
            attributes=parser.parse_optional_attr_dict(),
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.condition)
        count = self.condition.data.num_dims
        with printer.in_parens():
            printer.print_list(self.args[:count], printer.print_ssa_value)
        if self.condition.data.num_symbols:
            with printer.in_square_brackets():
                printer.print_list(self.args[count:], printer.print_ssa_value)
        print_result_types(printer, self.res.types)
        printer.print_string(" ")
        terminators = bool(self.res)
        printer.print_region(self.then_region, print_block_terminators=terminators)
        if self.else_region.blocks:
            printer.print_string(" else ")
            printer.print_region(self.else_region, print_block_terminators=terminators)
        printer.print_op_attributes(self.attributes)


@override
class ParallelOp(affine.ParallelOp):
    """`affine.parallel (%i) = (lb) to (min(ub, …)) [step (s)] [reduce ("addf") -> T]
    { … }`; xDSL has no format and stores the reductions as strings."""

    map_operands = var_operand_def(IndexType)
    reductions = prop_def(ArrayAttr[IntegerAttr])  # type: ignore[arg-type]
    lowerBoundsMap = prop_def(AffineMapAttr)
    lowerBoundsGroups = prop_def(DenseIntElementsAttr)
    upperBoundsMap = prop_def(AffineMapAttr)
    upperBoundsGroups = prop_def(DenseIntElementsAttr)
    steps = prop_def(ArrayAttr[IntegerAttr])  # type: ignore[arg-type]
    res = var_result_def()
    body = region_def("single_block")

    def verify_(self) -> None:
        lower, upper = self.lowerBoundsMap.data, self.upperBoundsMap.data
        needed = lower.num_dims + lower.num_symbols + upper.num_dims + upper.num_symbols
        if len(self.map_operands) != needed:
            raise VerifyException(
                f"{self.name}: {len(self.map_operands)} operands for maps of {needed}"
            )
        for groups, bound in ((self.lowerBoundsGroups, lower), (self.upperBoundsGroups, upper)):
            if sum(groups.get_values()) != len(bound.results):
                raise VerifyException(f"{self.name}: bound groups do not cover {bound}")
        if len(self.reductions) != len(self.res):
            raise VerifyException(f"{self.name}: one reduction per result expected")
        for kind, result in zip(self.reduction_kinds(), self.res, strict=True):
            if not _reduces(kind, result.type):
                raise VerifyException(
                    f'{self.name}: the reduction "{kind}" does not apply to a result of type '
                    f"{result.type}"
                )

    def reduction_kinds(self) -> list[str]:
        """Each result's reduction, by its keyword (`addf`, `assign`, …)."""
        return [ATOMIC_KINDS[k.value.data] for k in self.reductions]  # type: ignore[attr-defined]

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        ivs = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("=")
        lower, lower_groups, lower_operands = _parse_bounds(parser, "max")
        parser.parse_keyword("to")
        upper, upper_groups, upper_operands = _parse_bounds(parser, "min")
        steps = [1] * len(ivs)
        if parser.parse_optional_keyword("step") is not None:
            steps = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_integer)
        reductions: list[int] = []
        if parser.parse_optional_keyword("reduce") is not None:
            kinds = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_str_literal
            )
            unknown = [k for k in kinds if k not in ATOMIC_KINDS]
            if unknown:
                parser.raise_error(f"unknown reduction kind '{unknown[0]}'")
            reductions = [ATOMIC_KINDS.index(k) for k in kinds]
        result_types = parse_result_types(parser)
        index = IndexType()
        body = parser.parse_region([iv.resolve(index) for iv in ivs])
        if not body.block.ops or not isinstance(body.block.last_op, affine.YieldOp):
            body.block.add_op(affine.YieldOp.get())
        return cls.build(
            operands=[[*lower_operands, *upper_operands]],
            result_types=[result_types],
            properties={
                "reductions": ArrayAttr(IntegerAttr(k, 64) for k in reductions),
                "lowerBoundsMap": AffineMapAttr(lower),
                "lowerBoundsGroups": _groups(lower_groups),
                "upperBoundsMap": AffineMapAttr(upper),
                "upperBoundsGroups": _groups(upper_groups),
                "steps": ArrayAttr(IntegerAttr(s, 64) for s in steps),
            },
            regions=[body],
            attributes=parser.parse_optional_attr_dict(),
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        with printer.in_parens():
            printer.print_list(self.body.block.args, printer.print_ssa_value)
        lower, upper = self.lowerBoundsMap.data, self.upperBoundsMap.data
        count = lower.num_dims + lower.num_symbols
        printer.print_string(" = ")
        _print_bounds(printer, lower, self.lowerBoundsGroups, self.map_operands[:count], "max")
        printer.print_string(" to ")
        _print_bounds(printer, upper, self.upperBoundsGroups, self.map_operands[count:], "min")
        steps = [s.value.data for s in self.steps]
        if any(s != 1 for s in steps):
            printer.print_string(f" step ({', '.join(str(s) for s in steps)})")
        if self.reductions:
            kinds = ", ".join(f'"{ATOMIC_KINDS[k.value.data]}"' for k in self.reductions)  # type: ignore[attr-defined]
            printer.print_string(f" reduce ({kinds})")
        print_result_types(printer, self.res.types)
        printer.print_string(" ")
        printer.print_region(
            self.body, print_entry_block_args=False, print_block_terminators=bool(self.res)
        )
        printer.print_op_attributes(self.attributes)


REDUCTION_OPERANDS: dict[str, str] = {
    "assign": "any",
    **dict.fromkeys(("addf", "mulf", "maximumf", "minimumf"), "float"),
    **dict.fromkeys(("addi", "muli", "andi", "ori"), "integer"),
    **dict.fromkeys(("maxs", "mins"), "signed"),
    **dict.fromkeys(("maxu", "minu"), "unsigned"),
}
"""The reductions upstream's verifier lets `affine.parallel` use, and the types each one
reduces: any type ("assign": the result is a value an iteration yields), floats, integers
(signless or not), `siN`, `uiN`."""


def _reduces(kind: str, result_type: Attribute) -> bool:
    operands = REDUCTION_OPERANDS.get(kind)
    if operands == "any":
        return True
    if operands == "float":
        return isinstance(result_type, AnyFloat)
    if not isinstance(result_type, IntegerType):
        return False
    signedness = result_type.signedness.data
    return (
        operands == "integer"
        or (operands == "signed" and signedness == Signedness.SIGNED)
        or (operands == "unsigned" and signedness == Signedness.UNSIGNED)
    )


def _groups(sizes: Sequence[int]) -> DenseIntElementsAttr:
    return DenseIntOrFPElementsAttr.from_list(TensorType(i32, [len(sizes)]), list(sizes))


def _parse_bounds(parser: Parser, keyword: str) -> tuple[AffineMap, list[int], list[SSAValue]]:
    """`(b, …)` where each `b` is an expression over SSA values or `max(e, …)` / `min(…)`."""
    space = SSAMapSpace(parser)
    results: list[AffineExpr] = []
    groups: list[int] = []

    def parse_bound() -> None:
        if parser.parse_optional_keyword(keyword) is not None:
            group = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, space.parse_expr)
        else:
            group = [space.parse_expr()]
        results.extend(group)
        groups.append(len(group))

    parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parse_bound)
    return space.map(results), groups, space.operands()


def _print_bounds(
    printer: Printer,
    bounds: AffineMap,
    groups: DenseIntElementsAttr,
    operands: Sequence[SSAValue],
    keyword: str,
) -> None:
    dims, symbols = operands[: bounds.num_dims], operands[bounds.num_dims :]
    results = list(bounds.results)
    parts: list[list[AffineExpr]] = []
    for size in groups.get_values():
        parts.append(results[: int(size)])
        results = results[int(size) :]

    def print_group(group: list[AffineExpr]) -> None:
        if len(group) == 1:
            print_ssa_expr(printer, group[0], dims, symbols)
            return
        printer.print_string(keyword)
        with printer.in_parens():
            printer.print_list(group, lambda e: print_ssa_expr(printer, e, dims, symbols))

    with printer.in_parens():
        printer.print_list(parts, print_group)


OPS: list[type[Operation]] = [
    *INDEX_OPS,
    LoadOp,
    StoreOp,
    VectorLoadOp,
    VectorStoreOp,
    PrefetchOp,
    MaxOp,
    IfOp,
    ParallelOp,
]
