"""The target layout attributes: `#layout.tpu<…>` (Sophgo TPU local memory) and
`#layout.partition<…>` (FPGA memory banks).

Each holds its notation's parameter dataclass (`TpuParams`, `PartitionParams`) whole, as
one `Data` parameter, and parses and prints it from that dataclass's table of parameters
(`heterolayout.layout.parameters`): a parameter is spelled once, in its dataclass.
Their index map needs the memref's shape, so `get_affine_map()` answers the shape-generic
map with the shape-dependent quantities as symbols (see `tpu.symbolic_map`).
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Data
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from heterolayout.dialects.attributes import (
    COMMON_PARAMETERS,
    Extent,
    LayoutAttr,
    common_parameters,
    parse_int_list,
)
from heterolayout.layout import partition, tpu
from heterolayout.layout.constructors import Common
from heterolayout.layout.model import Layout
from heterolayout.layout.parameters import Parameter, Syntax, format_parameters, parameters_of
from heterolayout.layout.partition import PartitionParams
from heterolayout.layout.tpu import TpuParams

ParamsT = TypeVar("ParamsT", TpuParams, PartitionParams)


class _Params(Data[ParamsT], Generic[ParamsT]):
    """A notation's parameter dataclass as an attribute parameter (printed by its owner)."""

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ParamsT:
        raise NotImplementedError("parsed by the layout attribute that holds it")

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(format_parameters(self.data))


@irdl_attr_definition
class TpuParamsAttr(_Params[TpuParams]):
    name = "layout.tpu_params"


@irdl_attr_definition
class PartitionParamsAttr(_Params[PartitionParams]):
    name = "layout.partition_params"


class TargetLayoutAttr(LayoutAttr, ABC):
    """What the target kinds share: parameters from a table, checked when built."""

    params: TpuParamsAttr | PartitionParamsAttr
    PARAMS: ClassVar[type[TpuParams] | type[PartitionParams]]
    CHECKS_RANK = False

    @classmethod
    def _table(cls) -> tuple[Parameter, ...]:
        return parameters_of(cls.PARAMS)

    def check_body(self) -> None:
        self.params.data.check(f"#{self.name}")

    @property
    def rank(self) -> int:
        return self.params.data.rank

    @classmethod
    def parse_body(cls, parser: AttrParser) -> dict[str, Any]:
        positional = [p for p in cls._table() if p.syntax.positional]
        return {p.name: _parse_value(parser, cls.name, p) for p in positional}

    @classmethod
    def parse_keyword_value(cls, parser: AttrParser, key: str) -> Any:
        for p in cls._table():
            if p.name == key:
                return _parse_value(parser, cls.name, p)
        return super().parse_keyword_value(parser, key)

    @classmethod
    def assemble(cls, body: dict[str, Any], keywords: dict[str, Any]) -> tuple[Attribute, ...]:
        """The written parameters, normalized and checked by the dataclass (a LayoutError
        becomes a parse error at the attribute)."""
        written = {**body, **keywords}
        params = cls.PARAMS.create(
            {k: v for k, v in written.items() if k not in COMMON_PARAMETERS}, f"#{cls.name}"
        )
        common = common_parameters(
            written.get("pad"), written.get("pack"), written.get("bit_order")
        )
        return (*common, cls._wrap(params))

    @classmethod
    def _wrap(cls, params: Any) -> TpuParamsAttr | PartitionParamsAttr:
        return (
            TpuParamsAttr(params) if isinstance(params, TpuParams) else PartitionParamsAttr(params)
        )

    def print_body(self, printer: Printer) -> None:
        printer.print_string(format_parameters(self.params.data))


def _parse_value(parser: AttrParser, attribute: str, p: Parameter) -> Any:
    """One value as its syntax writes it; a word outside its choices is an error at it."""
    syntax, what = p.syntax, f"{p.name} ({p.syntax.hint})" if p.syntax.hint else p.name
    if syntax.kind == "int":
        return parser.parse_integer(allow_boolean=False, context_msg=f" as {p.name}")
    if syntax.kind == "ints":
        return tuple(parse_int_list(parser, what))
    if syntax.kind == "int_or_ints":
        value = parser.parse_optional_integer(allow_boolean=False)
        return value if value is not None else tuple(parse_int_list(parser, what))
    if syntax.kind == "string":
        return parser.parse_str_literal(f" ({syntax.hint})")
    if syntax.kind == "word_or_ints":
        start = parser.pos
        word = parser.parse_optional_identifier()
        if word is None:
            return tuple(parse_int_list(parser, what))
        if word not in syntax.choices:
            parser.raise_error(
                f"#{attribute}: {p.name} = {word} (expected {syntax.hint})", start, parser.pos
            )
        return word
    return _parse_words(parser, attribute, syntax)


def _parse_words(parser: AttrParser, attribute: str, syntax: Syntax) -> tuple[str, ...]:
    def word() -> str:
        start = parser.pos
        found = parser.parse_optional_identifier()
        if found not in syntax.choices:
            got = "" if found is None else f", not '{found}'"
            parser.raise_error(f"#{attribute}: expected {syntax.hint}{got}", start, parser.pos)
        assert found is not None
        return found

    if parser.parse_optional_punctuation("[") is None:
        return (word(),)
    words = [word()]
    while parser.parse_optional_punctuation(",") is not None:
        words.append(word())
    parser.parse_punctuation("]", f" after the {syntax.hint}")
    return tuple(words)


@irdl_attr_definition
class TpuLayoutAttr(TargetLayoutAttr):
    """`#layout.tpu<lanes = 4, start = 2, stride = aligned>`: Sophgo TPU local memory, an NCHW
    tensor over X lanes (NPUs); also `lmem`, `address`, `matrix = W` and `mode = "4N"`."""

    name = "layout.tpu"
    KIND = "tpu"
    PARAMS = TpuParams
    EXTRA_PARAMETERS = tuple(p.name for p in parameters_of(TpuParams))
    params: TpuParamsAttr

    def __init__(
        self,
        params: TpuParams,
        *,
        pad: int | float | Attribute | None = None,
        pack: str | Attribute | None = None,
        bit_order: str | StringAttr | None = None,
    ) -> None:
        super().__init__(*common_parameters(pad, pack, bit_order), TpuParamsAttr(params))

    def index_map(self) -> AffineMap:
        return tpu.symbolic_map(self.params.data)

    def build(self, shape: Sequence[Extent], common: Common) -> Layout:
        return tpu.tpu_layout(self.params.data, shape, common)


@irdl_attr_definition
class PartitionLayoutAttr(TargetLayoutAttr):
    """`#layout.partition<cyclic, dims = [0], factor = 4>`: FPGA memory banks (Vivado
    `array_partition`), bank dims first; `[cyclic, block]` and `factor = [2, 4]` partition
    several dims in one attribute."""

    name = "layout.partition"
    KIND = "partition"
    PARAMS = PartitionParams
    EXTRA_PARAMETERS = tuple(
        p.name for p in parameters_of(PartitionParams) if not p.syntax.positional
    )
    params: PartitionParamsAttr

    def __init__(
        self,
        params: PartitionParams,
        *,
        pad: int | float | Attribute | None = None,
        pack: str | Attribute | None = None,
        bit_order: str | StringAttr | None = None,
    ) -> None:
        super().__init__(*common_parameters(pad, pack, bit_order), PartitionParamsAttr(params))

    def index_map(self) -> AffineMap:
        """For the smallest rank the partitioned dims fit in; a memref of higher rank
        carries each further dim as itself."""
        return partition.symbolic_map(self.params.data)

    def build(self, shape: Sequence[Extent], common: Common) -> Layout:
        return partition.partition_layout(self.params.data, shape, common)
