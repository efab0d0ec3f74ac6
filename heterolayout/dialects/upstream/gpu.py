"""gpu ops in upstream MLIR 22's custom syntax.

xDSL 0.74 defines the gpu ops with no custom format at all, and its `gpu.func` keeps the
kernel mark as a `kernel` property where upstream writes a `gpu.kernel` attribute, and
refuses workgroup and private attributions; `#gpu.address_space` is missing. Covered here:
`gpu.module`, `gpu.func` (attributions, `kernel`, `attributes {…}`), `gpu.return`,
`gpu.launch` and `gpu.terminator`, `gpu.launch_func`, the id and size ops,
`gpu.barrier`, and `gpu.alloc` / `dealloc` / `memcpy` / `wait` with `async` dependencies.
Clusters and `upper_bound` hints are not.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import gpu
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    SymbolNameConstraint,
    UnitAttr,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.irdl import (
    attr_def,
    irdl_attr_definition,
    opt_attr_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from heterolayout.dialects.upstream.definitions import override


class AddressSpace(StrEnum):
    GLOBAL = "global"
    WORKGROUP = "workgroup"
    PRIVATE = "private"


@irdl_attr_definition
class AddressSpaceAttr(EnumAttribute[AddressSpace]):
    """`#gpu.address_space<workgroup>`: the memory space of attributions."""

    name = "gpu.address_space"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> AddressSpace:
        parser.parse_punctuation("<")
        space = AddressSpace(parser.parse_identifier())
        parser.parse_punctuation(">")
        return space


class ModuleOp(gpu.ModuleOp):
    """`gpu.module @name [attributes {…}] { … }`."""

    @classmethod
    def parse(cls, parser: Parser) -> ModuleOp:
        name = parser.parse_symbol_name()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        if not body.blocks:
            body.add_block(Block())
        op = cls(name, body)  # type: ignore[arg-type]
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.attributes:
            printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body)


@override
class FuncOp(gpu.FuncOp):
    """`gpu.func @f(%a: T) [-> U] [workgroup(%w: T)] [private(%p: T)] [kernel]
    [attributes {…}] { … }`. The entry block holds the arguments, then the workgroup
    attributions (their count is the `workgroup_attributions` attribute), then the
    private ones."""

    body = region_def()
    sym_name = attr_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    kernel = opt_prop_def(UnitAttr)
    """xDSL's kernel mark; upstream's (and this parser's) is the `gpu.kernel` attribute."""
    known_block_size = opt_attr_def(DenseArrayBase.constr(i32), attr_name="gpu.known_block_size")
    known_grid_size = opt_attr_def(DenseArrayBase.constr(i32), attr_name="gpu.known_grid_size")

    traits = traits_def(IsolatedFromAbove(), HasParent(gpu.ModuleOp), SymbolOpInterface())

    def verify_(self) -> None:
        inputs = self.function_type.inputs.data
        if self.body.blocks and self.body.block.arg_types[: len(inputs)] != inputs:
            raise VerifyException(
                f"{self.name} @{self.sym_name.data}: the entry block's arguments do not "
                f"start with the function's inputs {list(map(str, inputs))}"
            )
        if "gpu.kernel" in self.attributes and self.function_type.outputs.data:
            raise VerifyException(f"{self.name} @{self.sym_name.data}: a kernel returns nothing")

    @property
    def is_kernel(self) -> bool:
        return "gpu.kernel" in self.attributes

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        name = parser.parse_symbol_name()
        arguments = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: _parse_argument(parser)
        )
        outputs: list[Attribute] = []
        result_attributes: list[DictionaryAttr] = []
        if parser.parse_optional_punctuation("->") is not None:
            results = _parse_results(parser)
            outputs = [t for t, _ in results]
            result_attributes = [a for _, a in results]
        attributions: list[Parser.Argument] = []
        counts = {}
        for keyword in ("workgroup", "private"):
            found: list[Parser.Argument] = []
            if parser.parse_optional_keyword(keyword) is not None:
                found = parser.parse_comma_separated_list(
                    Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=True)
                )
            counts[keyword] = len(found)
            attributions.extend(found)
        attributes: dict[str, Attribute] = {"sym_name": name}
        if parser.parse_optional_keyword("kernel") is not None:
            attributes["gpu.kernel"] = UnitAttr()
        extra = parser.parse_optional_attr_dict_with_keyword()
        if extra is not None:
            attributes |= extra.data
        attributes["workgroup_attributions"] = IntegerAttr(counts["workgroup"], i64)
        body = parser.parse_region([a for a, _ in arguments] + attributions)
        inputs = [a.type for a, _ in arguments]
        properties: dict[str, Attribute] = {
            "function_type": FunctionType.from_lists(inputs, outputs)
        }
        if any(d.data for _, d in arguments):
            properties["arg_attrs"] = ArrayAttr(d for _, d in arguments)
        if any(d.data for d in result_attributes):
            properties["res_attrs"] = ArrayAttr(result_attributes)
        return cls.build(properties=properties, attributes=attributes, regions=[body])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        inputs = self.function_type.inputs.data
        block_args = self.body.block.args
        arg_attrs = self.arg_attrs.data if self.arg_attrs is not None else [None] * len(inputs)
        with printer.in_parens():
            printer.print_list(
                zip(block_args[: len(inputs)], arg_attrs, strict=True),
                lambda pair: _print_argument(printer, *pair),
            )
        outputs = self.function_type.outputs.data
        if outputs:
            printer.print_string(" -> (")
            printer.print_list(outputs, printer.print_attribute)
            printer.print_string(")")
        workgroup = self.attributes.get("workgroup_attributions")
        count = workgroup.value.data if isinstance(workgroup, IntegerAttr) else 0
        attributions = block_args[len(inputs) :]
        for keyword, args in (
            ("workgroup", attributions[:count]),
            ("private", attributions[count:]),
        ):
            if args:
                printer.print_string(f" {keyword}(")
                printer.print_list(args, printer.print_block_argument)
                printer.print_string(")")
        if self.is_kernel:
            printer.print_string(" kernel")
        hidden = ("sym_name", "gpu.kernel", "workgroup_attributions")
        extra = {k: v for k, v in self.attributes.items() if k not in hidden}
        if extra:
            printer.print_op_attributes(extra, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)


def _parse_argument(parser: Parser) -> tuple[Parser.Argument, DictionaryAttr]:
    argument = parser.parse_argument(expect_type=True)
    attributes = parser.parse_optional_dictionary_attr_dict()
    return argument, DictionaryAttr(attributes)


def _parse_results(parser: Parser) -> list[tuple[Attribute, DictionaryAttr]]:
    def result() -> tuple[Attribute, DictionaryAttr]:
        return parser.parse_type(), DictionaryAttr(parser.parse_optional_dictionary_attr_dict())

    if parser.parse_optional_punctuation("(") is None:
        return [(parser.parse_type(), DictionaryAttr({}))]
    results = parser.parse_comma_separated_list(Parser.Delimiter.NONE, result)
    parser.parse_punctuation(")")
    return results


def _print_argument(printer: Printer, arg: SSAValue, attributes: DictionaryAttr | None) -> None:
    printer.print_block_argument(arg)  # type: ignore[arg-type]
    if attributes is not None and attributes.data:
        printer.print_string(" ")
        printer.print_attr_dict(attributes.data)


class ReturnOp(gpu.ReturnOp):
    """`gpu.return [%v : T]`."""

    @classmethod
    def parse(cls, parser: Parser) -> ReturnOp:
        values: Sequence[SSAValue] = []
        unresolved = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        )
        if unresolved:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
            values = parser.resolve_operands(unresolved, types, parser.pos)
        op = cls.build(operands=[values])
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        if self.args:
            printer.print_string(" ")
            printer.print_list(self.args, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list(self.args.types, printer.print_attribute)
        printer.print_op_attributes(self.attributes)


def _bare(cls: type[Operation], doc: str) -> type[Operation]:
    """An op with no operands, results aside, printed as its name and attributes."""

    def parse(kind: type[Operation], parser: Parser) -> Operation:
        op = kind.create(result_types=[IndexType()] * len(cls.get_irdl_definition().results))  # type: ignore[attr-defined]
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print_(self: Operation, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)

    return type(
        cls.__name__, (cls,), {"parse": classmethod(parse), "print": print_, "__doc__": doc}
    )


def _dimension(cls: type[Operation]) -> type[Operation]:
    """`gpu.thread_id x` and its kin: the dimension as a bare `x`, `y` or `z`."""

    def parse(kind: type[Operation], parser: Parser) -> Operation:
        dimension = gpu.DimensionAttr(gpu.DimensionEnum(parser.parse_identifier()))
        op = kind(dimension)  # type: ignore[call-arg,arg-type]
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print_(self: Operation, printer: Printer) -> None:
        printer.print_string(f" {self.dimension.data}")  # type: ignore[attr-defined]
        printer.print_op_attributes(self.attributes)

    doc = f"`{cls.name} x`."
    return type(
        cls.__name__, (cls,), {"parse": classmethod(parse), "print": print_, "__doc__": doc}
    )


_SEGMENTS = "operandSegmentSizes"


def _parse_async(parser: Parser) -> tuple[bool, list[SSAValue]]:
    """`[async] [[%dep, …]]`."""
    is_async = parser.parse_optional_keyword("async") is not None
    token = gpu.AsyncTokenType()
    dependencies = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_operand(token)
    )
    return is_async, list(dependencies or [])


def _print_async(printer: Printer, op: Operation) -> None:
    if op.results and isinstance(op.results[-1].type, gpu.AsyncTokenType):
        printer.print_string(" async")
    dependencies = op.asyncDependencies  # type: ignore[attr-defined]
    if dependencies:
        printer.print_string(" [")
        printer.print_list(dependencies, printer.print_ssa_value)
        printer.print_string("]")


class AllocOp(gpu.AllocOp):
    """`gpu.alloc [async] [deps] (%sizes)[%symbols] [host_shared] : memref<…>`."""

    @classmethod
    def parse(cls, parser: Parser) -> AllocOp:
        is_async, dependencies = _parse_async(parser)
        index = IndexType()
        sizes = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_operand(index)
        )
        host_shared = parser.parse_optional_keyword("host_shared") is not None
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(parser.parse_type(), sizes, host_shared, dependencies, is_async)  # type: ignore[arg-type]
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        _print_async(printer, self)
        printer.print_string(" (")
        printer.print_list(self.dynamicSizes, printer.print_ssa_value)
        printer.print_string(")")
        if self.hostShared is not None:
            printer.print_string(" host_shared")
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.result.type}")


class DeallocOp(gpu.DeallocOp):
    """`gpu.dealloc [async] [deps] %m : memref<…>`. (xDSL's definition keeps operand segment
    sizes, which upstream's generic form lacks: only the custom form is read.)"""

    @classmethod
    def parse(cls, parser: Parser) -> DeallocOp:
        is_async, dependencies = _parse_async(parser)
        buffer = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(parser.resolve_operand(buffer, parser.parse_type()), dependencies, is_async)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        _print_async(printer, self)
        printer.print_string(" ")
        printer.print_ssa_value(self.buffer)
        printer.print_op_attributes(self.attributes, reserved_attr_names=(_SEGMENTS,))
        printer.print_string(f" : {self.buffer.type}")


class MemcpyOp(gpu.MemcpyOp):
    """`gpu.memcpy [async] [deps] %dst, %src : T, U`. (xDSL's definition keeps operand segment
    sizes, which upstream's generic form lacks: only the custom form is read.)"""

    @classmethod
    def parse(cls, parser: Parser) -> MemcpyOp:
        is_async, dependencies = _parse_async(parser)
        destination = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        source = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        destination_type = parser.parse_type()
        parser.parse_punctuation(",")
        source_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(source, source_type),
            parser.resolve_operand(destination, destination_type),
            dependencies,
            is_async,
        )
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        _print_async(printer, self)
        printer.print_string(" ")
        printer.print_list((self.dst, self.src), printer.print_ssa_value)
        printer.print_op_attributes(self.attributes, reserved_attr_names=(_SEGMENTS,))
        printer.print_string(f" : {self.dst.type}, {self.src.type}")


class WaitOp(gpu.WaitOp):
    """`gpu.wait [async] [deps]`."""

    @classmethod
    def parse(cls, parser: Parser) -> WaitOp:
        is_async, dependencies = _parse_async(parser)
        op = cls.build(
            operands=[dependencies], result_types=[[gpu.AsyncTokenType()] if is_async else []]
        )
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        _print_async(printer, self)
        printer.print_op_attributes(self.attributes)


def _parse_sizes(parser: Parser) -> Sequence[SSAValue]:
    """`in (%x, %y, %z)`."""
    parser.parse_keyword("in")
    index = IndexType()
    sizes = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parser.parse_operand(index)
    )
    if len(sizes) != 3:
        parser.raise_error("expected three sizes")
    return sizes


def _print_typed(printer: Printer, value: SSAValue) -> None:
    printer.print_ssa_value(value)
    printer.print_string(f" : {value.type}")


def _print_assignment(printer: Printer, name: SSAValue, value: SSAValue) -> None:
    printer.print_ssa_value(name)
    printer.print_string(" = ")
    printer.print_ssa_value(value)


class LaunchFuncOp(gpu.LaunchFuncOp):
    """`gpu.launch_func [async] [deps] @m::@k blocks in (…) threads in (…)
    [dynamic_shared_memory_size %s] [args(%a : T, …)]`."""

    @classmethod
    def parse(cls, parser: Parser) -> LaunchFuncOp:
        is_async, dependencies = _parse_async(parser)
        kernel = parser.parse_attribute()
        parser.parse_keyword("blocks")
        grid = _parse_sizes(parser)
        parser.parse_keyword("threads")
        block = _parse_sizes(parser)
        shared: list[SSAValue] = []
        if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
            shared = [parser.parse_operand(i32)]
        arguments: list[SSAValue] = []
        if parser.parse_optional_keyword("args") is not None:

            def argument() -> SSAValue:
                value = parser.parse_unresolved_operand()
                parser.parse_punctuation(":")
                return parser.resolve_operand(value, parser.parse_type())

            arguments = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, argument)
        op = cls.build(
            operands=[dependencies, *grid, *block, [], [], [], shared, arguments, []],
            result_types=[[gpu.AsyncTokenType()] if is_async else []],
            properties={"kernel": kernel},
        )
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        _print_async(printer, self)
        printer.print_string(" ")
        printer.print_attribute(self.kernel)
        for keyword, sizes in (
            ("blocks", (self.gridSizeX, self.gridSizeY, self.gridSizeZ)),
            ("threads", (self.blockSizeX, self.blockSizeY, self.blockSizeZ)),
        ):
            printer.print_string(f" {keyword} in (")
            printer.print_list(sizes, printer.print_ssa_value)
            printer.print_string(")")
        if self.dynamicSharedMemorySize is not None:
            printer.print_string(" dynamic_shared_memory_size ")
            printer.print_ssa_value(self.dynamicSharedMemorySize)
        if self.kernelOperands:
            printer.print_string(" args(")
            printer.print_list(self.kernelOperands, lambda v: _print_typed(printer, v))
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)


class LaunchOp(gpu.LaunchOp):
    """`gpu.launch [async] [deps] blocks(%bx, %by, %bz) in (%gx = %a, …) threads(%tx, …) in
    (%sx = %b, …) [dynamic_shared_memory_size %s] { … }`."""

    @classmethod
    def parse(cls, parser: Parser) -> LaunchOp:
        is_async, dependencies = _parse_async(parser)
        ids: list[Parser.UnresolvedArgument] = []
        sizes: list[Parser.UnresolvedArgument] = []
        operands: list[SSAValue] = []
        index = IndexType()
        for keyword in ("blocks", "threads"):
            parser.parse_keyword(keyword)
            ids += parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
            )
            parser.parse_keyword("in")

            def assignment() -> None:
                sizes.append(parser.parse_argument(expect_type=False))
                parser.parse_punctuation("=")
                operands.append(parser.parse_operand(index))

            parser.parse_comma_separated_list(Parser.Delimiter.PAREN, assignment)
        if len(ids) != 6 or len(sizes) != 6:
            parser.raise_error("gpu.launch: expected three block and three thread dims")
        shared = None
        if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
            shared = parser.parse_operand(i32)
        arguments = [a.resolve(index) for a in (*ids, *sizes)]
        body = parser.parse_region(arguments)
        op = cls(body, operands[:3], operands[3:], [], is_async, dependencies, shared)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        _print_async(printer, self)
        args = self.body.block.args
        grid = (self.gridSizeX, self.gridSizeY, self.gridSizeZ)
        block = (self.blockSizeX, self.blockSizeY, self.blockSizeZ)
        for keyword, ids, names, values in (
            ("blocks", args[0:3], args[6:9], grid),
            ("threads", args[3:6], args[9:12], block),
        ):
            printer.print_string(f" {keyword}(")
            printer.print_list(ids, printer.print_ssa_value)
            printer.print_string(") in (")
            printer.print_list(
                zip(names, values, strict=True), lambda pair: _print_assignment(printer, *pair)
            )
            printer.print_string(")")
        if self.dynamicSharedMemorySize is not None:
            printer.print_string(" dynamic_shared_memory_size ")
            printer.print_ssa_value(self.dynamicSharedMemorySize)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)


_SIZES: Sequence[type[Operation]] = (
    gpu.ThreadIdOp,
    gpu.BlockIdOp,
    gpu.BlockDimOp,
    gpu.GridDimOp,
    gpu.GlobalIdOp,
)

OPS: list[type[Operation]] = [
    ModuleOp,
    FuncOp,
    ReturnOp,
    LaunchOp,
    LaunchFuncOp,
    AllocOp,
    DeallocOp,
    MemcpyOp,
    WaitOp,
    _bare(gpu.BarrierOp, "`gpu.barrier`."),
    _bare(gpu.TerminatorOp, "`gpu.terminator`."),
    _bare(gpu.LaneIdOp, "`gpu.lane_id`."),
    _bare(gpu.NumSubgroupsOp, "`gpu.num_subgroups`."),
    _bare(gpu.SubgroupIdOp, "`gpu.subgroup_id`."),
    _bare(gpu.SubgroupSizeOp, "`gpu.subgroup_size`."),
    *(_dimension(op) for op in _SIZES),
]
ATTRIBUTES: list[type[Attribute]] = [AddressSpaceAttr]
