"""The `layout` dialect: layout attributes that sit inside memref types, and two ops.

Attributes (`#layout.tag`, `#layout.chunked`, `#layout.map`, `#layout.strided`) print the
text of `heterolayout.layout.render.attribute_text`, which `parse_layout` also reads, so one
grammar serves the IR and the Python API. An attribute cannot see the memref it sits in:
the checks that need the shape (rank, injectivity, pack capacity, pad range, `?` rules) run
in `heterolayout.dialects.verification.verify_layouts`; the attribute itself checks what it
can alone, and its parser reports those errors at their position in the file.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    FloatData,
    IntAttr,
    MemRefLayoutAttr,
    MemRefType,
    NoneAttr,
    StringAttr,
    VectorType,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from heterolayout.dialects.schedule_hint import ScheduleOp
from heterolayout.layout.blocked import Term, blocked_map, check_terms
from heterolayout.layout.chunked import ChunkedError, alias_suggestion, parse_chunked
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import format_map
from heterolayout.layout.maps import strided_map
from heterolayout.layout.model import Layout, check_map_form, format_shape
from heterolayout.layout.packing import Packing
from heterolayout.layout.parse import parse_layout
from heterolayout.layout.tags import TagError, parse_tag
from heterolayout.layout.targets import (
    PARTITION_KINDS,
    PARTITION_PARAMETERS,
    TPU_PARAMETERS,
    TPU_STRIDE_KINDS,
    PartitionSpec,
    TpuSpec,
)

PadAttr = IntAttr | FloatData | NoneAttr
Extent = int | None


def pad_attr(value: int | float | None) -> IntAttr | FloatData | NoneAttr:
    """The stored form of a pad value: the default 0 is stored as no pad at all."""
    if isinstance(value, bool):
        raise LayoutError(f"pad {value!r} is not a number")
    if value is None or value == 0:
        return NoneAttr()
    if isinstance(value, float):
        return FloatData(value)
    return IntAttr(int(value))


def format_pad(value: int | float) -> str:
    """An MLIR number literal: floats keep a `.` so that they lex as floats (`1.0e-20`)."""
    if isinstance(value, int):
        return str(value)
    text = repr(float(value))
    if "." not in text:
        mantissa, _, exponent = text.partition("e")
        text = f"{mantissa}.0" + (f"e{exponent}" if exponent else "")
    return text


@dataclass(frozen=True, init=False)  # makes the shared parameters part of __eq__ and __hash__
class LayoutAttr(MemRefLayoutAttr, ParametrizedAttribute, ABC):
    """What every `#layout.…` attribute shares: pad, pack and bit order, and its checks."""

    pad: PadAttr
    pack: TypeAttribute | NoneAttr
    bit_order: StringAttr | NoneAttr

    KIND: ClassVar[str]
    """The notation's name in `#layout.<kind>` and in `attribute_text(layout, kind)`."""
    EXTRA_PARAMETERS: ClassVar[tuple[str, ...]] = ()
    """Keyword parameters besides `pad`, `pack` and `bit_order`."""

    # ---- values -----------------------------------------------------------------------
    @property
    def pad_value(self) -> int | float:
        return 0 if isinstance(self.pad, NoneAttr) else self.pad.data

    @property
    def packing(self) -> Packing | None:
        if isinstance(self.pack, NoneAttr):
            return None
        order = "lsb" if isinstance(self.bit_order, NoneAttr) else self.bit_order.data
        return Packing(str(self.pack), order)  # type: ignore[arg-type]

    @property
    @abstractmethod
    def rank(self) -> int:
        """The logical rank the layout takes (the memref's rank must equal it)."""

    def get_affine_map(self) -> AffineMap:
        """The multi-result index map, logical index → physical index (as MLIR's tiled
        layouts do; xDSL's interface speaks of one result, which only strided has)."""
        return self.index_map()

    @abstractmethod
    def index_map(self) -> AffineMap: ...

    def to_layout(self, shape: Sequence[Extent], dtype: str | None) -> Layout:
        """The Layout on a memref's shape (`None` = `?`) and element type."""
        if len(shape) != self.rank:
            raise LayoutError(
                f"layout '{self}': the layout has rank {self.rank} but the memref shape "
                f"{format_shape(tuple(shape))} has rank {len(shape)}"
            )
        return parse_layout(str(self), tuple(shape), dtype=dtype)

    # ---- checks -----------------------------------------------------------------------
    def check(self) -> None:
        """The shape-independent checks; raises LayoutError."""
        self.check_body()
        if isinstance(self.pad, FloatData) and not math.isfinite(self.pad.data):
            raise LayoutError(f"pad {self.pad.data} is not a finite number")
        if isinstance(self.pack, NoneAttr):
            if not isinstance(self.bit_order, NoneAttr):
                raise LayoutError(f'bit_order = "{self.bit_order.data}" needs a pack = <container>')
            return
        packing = Packing(str(self.pack))
        if not isinstance(self.bit_order, NoneAttr):
            Packing(packing.container, self.bit_order.data)  # type: ignore[arg-type]

    @abstractmethod
    def check_body(self) -> None: ...

    def verify(self) -> None:
        try:
            self.check()
        except LayoutError as error:
            raise VerifyException(f"#{self.name}: {error}") from None

    # ---- text ---------------------------------------------------------------------------
    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        parser.parse_punctuation("<", f" after #{cls.name}")
        body = cls.parse_body(parser)
        keywords: dict[str, Attribute] = {}
        first_keyword = not body  # a kind without a body starts with its first keyword
        while first_keyword or parser.parse_optional_punctuation(",") is not None:
            first_keyword = False
            key_start = parser.pos
            key = parser.parse_identifier(f" (a parameter of #{cls.name})")
            allowed = (*cls.EXTRA_PARAMETERS, "pad", "pack", "bit_order")
            if key not in allowed:
                parser.raise_error(
                    f"#{cls.name}: unknown parameter '{key}' (expected {', '.join(allowed)})",
                    key_start,
                    parser.pos,
                )
            if key in keywords:
                parser.raise_error(
                    f"#{cls.name}: parameter '{key}' is given twice", key_start, parser.pos
                )
            if parser.parse_optional_punctuation(":") is None:
                parser.parse_punctuation("=", f" after '{key}'")
            value_start = parser.pos
            keywords[key] = cls.parse_keyword_value(parser, key)
            try:
                if key == "pack":
                    Packing(str(keywords[key]))
                elif key == "bit_order":
                    Packing("i8", keywords[key].data)  # type: ignore[attr-defined]
            except LayoutError as error:
                parser.raise_error(f"#{cls.name}: {error}", value_start, parser.pos)
        parser.parse_punctuation(">", f" at the end of #{cls.name}")
        if "bit_order" in keywords and isinstance(keywords.get("pack"), VectorType):
            parser.raise_error(
                f"#{cls.name}: pack = {keywords['pack']}: bit_order applies to integer "
                "containers only, a vector container has no bit order",
                start,
                parser.pos,
            )
        parameters = cls.assemble(body, keywords)
        try:
            cls.new(parameters)  # runs `verify`, which xDSL would otherwise raise positionless
        except VerifyException as error:
            parser.raise_error(str(error), start, parser.pos)
        return parameters

    @classmethod
    def parse_keyword_value(cls, parser: AttrParser, key: str) -> Attribute:
        if key == "pad":
            value = parser.parse_number(context_msg=" as the pad value")
            if parser.parse_optional_punctuation(":") is not None:
                parser.parse_type()  # `pad = 31 : i64`: the memref's element type decides
            return pad_attr(value)
        if key == "pack":
            return parser.parse_type()
        if key == "bit_order":
            return StringAttr(parser.parse_str_literal(' ("lsb" or "msb")'))
        raise AssertionError(key)

    @classmethod
    @abstractmethod
    def parse_body(cls, parser: AttrParser) -> dict[str, Attribute]: ...

    @classmethod
    def assemble(
        cls, body: dict[str, Attribute], keywords: dict[str, Attribute]
    ) -> tuple[Attribute, ...]:
        """The parameters in definition order; absent ones take their defaults."""
        bit_order = keywords.get("bit_order", NoneAttr())
        if isinstance(bit_order, StringAttr) and bit_order.data == "lsb":
            bit_order = NoneAttr()
        values = {
            "pad": keywords.get("pad", NoneAttr()),
            "pack": keywords.get("pack", NoneAttr()),
            "bit_order": bit_order,
            **cls.defaults(),
            **body,
            **{k: v for k, v in keywords.items() if k in cls.EXTRA_PARAMETERS},
        }
        return tuple(values[field] for field, _ in cls.get_irdl_definition().parameters)

    @classmethod
    def defaults(cls) -> dict[str, Attribute]:
        return {}

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        self.print_body(printer)
        if not isinstance(self.pad, NoneAttr):
            printer.print_string(f", pad = {format_pad(self.pad.data)}")
        if not isinstance(self.pack, NoneAttr):
            printer.print_string(", pack = ")
            printer.print_attribute(self.pack)
        if not isinstance(self.bit_order, NoneAttr):
            printer.print_string(", bit_order = ")
            printer.print_string_literal(self.bit_order.data)
        printer.print_string(">")

    @abstractmethod
    def print_body(self, printer: Printer) -> None: ...


def _common(
    pad: int | float | Attribute | None,
    pack: str | Attribute | None,
    bit_order: str | StringAttr | None,
) -> tuple[Attribute, Attribute, Attribute]:
    if not isinstance(pad, Attribute):
        pad = pad_attr(pad)
    if pack is None:
        pack = NoneAttr()
    elif isinstance(pack, str):
        pack = _parse_type(pack)
    if isinstance(bit_order, StringAttr):
        bit_order = bit_order.data
    bit_order = NoneAttr() if bit_order in (None, "lsb") else StringAttr(bit_order)
    return pad, pack, bit_order


def _parse_type(text: str) -> Attribute:
    return Parser(Context(), text).parse_type()


def _parse_int_list(parser: AttrParser, what: str, allow_dynamic: bool = False) -> list[Extent]:
    def item() -> Extent:
        start = parser.pos
        if parser.parse_optional_punctuation("?") is not None:
            if allow_dynamic:
                return None
            parser.raise_error(f"'?' is not allowed in {what}", start, parser.pos)
        return parser.parse_integer(allow_boolean=False, context_msg=f" in {what}")

    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, item, f" in {what}")


def _print_int_list(printer: Printer, values: Sequence[Extent]) -> None:
    printer.print_string("[" + ", ".join("?" if v is None else str(v) for v in values) + "]")


def _extent_attr(value: Extent) -> IntAttr | NoneAttr:
    return NoneAttr() if value is None else IntAttr(value)


@irdl_attr_definition
class TagLayoutAttr(LayoutAttr):
    """`#layout.tag<"NCHW->nChw8c">`: a format tag or a named format (oneDNN, MegEngine)."""

    name = "layout.tag"
    KIND = "tag"
    tag: StringAttr

    def __init__(
        self,
        tag: str | StringAttr,
        *,
        pad: int | float | Attribute | None = None,
        pack: str | Attribute | None = None,
        bit_order: str | StringAttr | None = None,
    ) -> None:
        super().__init__(*_common(pad, pack, bit_order), _string(tag))

    def _parsed(self) -> tuple[str, tuple[Term, ...]]:
        try:
            return parse_tag(self.tag.data)
        except TagError as error:
            raise LayoutError(str(error)) from None

    @property
    def rank(self) -> int:
        return len(self._parsed()[0])

    def index_map(self) -> AffineMap:
        names, terms = self._parsed()
        return blocked_map(terms, len(names))

    def check_body(self) -> None:
        self._parsed()

    @classmethod
    def parse_body(cls, parser: AttrParser) -> dict[str, Attribute]:
        return {"tag": StringAttr(parser.parse_str_literal(' (a tag such as "NCHW->nChw8c")'))}

    def print_body(self, printer: Printer) -> None:
        printer.print_string_literal(self.tag.data)


@irdl_attr_definition
class ChunkedLayoutAttr(LayoutAttr):
    """`#layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32]>`: Hexagon HTP
    `(dim, size)` pairs, outermost first; size 0 is the rest of that dim."""

    name = "layout.chunked"
    KIND = "chunked"
    pairs: ArrayAttr[IntAttr]

    def __init__(
        self,
        pairs: Sequence[int] | ArrayAttr[IntAttr],
        *,
        pad: int | float | Attribute | None = None,
        pack: str | Attribute | None = None,
        bit_order: str | StringAttr | None = None,
    ) -> None:
        if not isinstance(pairs, ArrayAttr):
            pairs = ArrayAttr(IntAttr(p) for p in pairs)
        super().__init__(*_common(pad, pack, bit_order), pairs)

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(p.data for p in self.pairs.data)

    def terms(self) -> tuple[Term, ...]:
        values = self.values
        where = f"chunked pairs [{', '.join(map(str, values))}]"
        if not values or len(values) % 2:
            raise LayoutError(f"{where}: expected (dim, size) pairs")
        terms: list[Term] = []
        for dim, size in zip(values[0::2], values[1::2], strict=True):
            if size < 0:
                raise LayoutError(
                    f"{where}: block size {size} of dim {dim} must be positive (0 means the rest)"
                )
            terms.append(Term(dim, size or None))
        check_terms(terms, max(0, *values[0::2]) + 1, where)
        return tuple(terms)

    @property
    def rank(self) -> int:
        return max(t.dim for t in self.terms()) + 1

    def index_map(self) -> AffineMap:
        terms = self.terms()
        return blocked_map(terms, max(t.dim for t in terms) + 1)

    def check_body(self) -> None:
        self.terms()

    @classmethod
    def parse_body(cls, parser: AttrParser) -> dict[str, Attribute]:
        """The pair list, or HTP's own text as a string (an alias such as
        `"R4CroutonLayout"`, `"ChunkedMemoryLayout<…>"`, `"FlatMemoryLayout<4>"`): the same
        attribute, printed as its pairs."""
        start = parser.pos
        text = parser.parse_optional_str_literal()
        if text is None:
            values = _parse_int_list(parser, "the chunked (dim, size) pairs")
            return {"pairs": ArrayAttr(IntAttr(v) for v in values)}  # type: ignore[arg-type]
        try:
            _, terms = parse_chunked(text)
        except ChunkedError as error:
            suggestion = alias_suggestion(text)
            hint = f" (did you mean '{suggestion}'?)" if suggestion else ""
            parser.raise_error(f"#{cls.name}: {error}{hint}", start, parser.pos)
        pairs = [value for term in terms for value in (term.dim, term.size or 0)]
        return {"pairs": ArrayAttr(IntAttr(v) for v in pairs)}  # type: ignore[arg-type]

    def print_body(self, printer: Printer) -> None:
        _print_int_list(printer, self.values)


@irdl_attr_definition
class MapLayoutAttr(LayoutAttr):
    """`#layout.map<affine_map<(d0, d1) -> (…)>, shape = [4, 4]>`: any quasi-affine index map;
    without `shape` the physical extents are the exact max + 1 over the logical box."""

    name = "layout.map"
    KIND = "map"
    EXTRA_PARAMETERS = ("shape",)
    map: AffineMapAttr
    shape: ArrayAttr[IntAttr | NoneAttr] | NoneAttr

    def __init__(
        self,
        index_map: AffineMap | AffineMapAttr,
        shape: Sequence[Extent] | None = None,
        *,
        pad: int | float | Attribute | None = None,
        pack: str | Attribute | None = None,
        bit_order: str | StringAttr | None = None,
    ) -> None:
        if isinstance(index_map, AffineMap):
            index_map = AffineMapAttr(index_map)
        shape_attr = NoneAttr() if shape is None else ArrayAttr(_extent_attr(e) for e in shape)
        super().__init__(*_common(pad, pack, bit_order), index_map, shape_attr)

    @property
    def physical_shape(self) -> tuple[Extent, ...] | None:
        if isinstance(self.shape, NoneAttr):
            return None
        return tuple(None if isinstance(e, NoneAttr) else e.data for e in self.shape.data)

    @property
    def rank(self) -> int:
        return self.map.data.num_dims

    def index_map(self) -> AffineMap:
        return self.map.data

    def check_body(self) -> None:
        index_map = self.map.data
        check_map_form(index_map)
        physical = self.physical_shape
        if physical is None:
            return
        if len(physical) != len(index_map.results):
            raise LayoutError(
                f"shape = [{', '.join('?' if e is None else str(e) for e in physical)}] has "
                f"{len(physical)} extents but the map has {len(index_map.results)} results"
            )
        for extent in physical:
            if extent is not None and extent < 0:
                raise LayoutError(f"physical extent {extent} in shape = [...] must not be negative")

    @classmethod
    def parse_body(cls, parser: AttrParser) -> dict[str, Attribute]:
        start = parser.pos
        try:
            attribute = parser.parse_attribute()
        except NotImplementedError as error:
            # xDSL's affine expression builder raises NotImplementedError, not a ParseError,
            # for semi-affine products such as `d0 * d1`; report it at its position.
            parser.raise_error(f"#{cls.name}: {error}", start, parser.pos)
        if not isinstance(attribute, AffineMapAttr):
            parser.raise_error(
                f"#{cls.name}: expected affine_map<…>, got {attribute}", start, parser.pos
            )
        return {"map": attribute}

    @classmethod
    def parse_keyword_value(cls, parser: AttrParser, key: str) -> Attribute:
        if key == "shape":
            values = _parse_int_list(parser, "the physical shape", allow_dynamic=True)
            return ArrayAttr(_extent_attr(v) for v in values)
        return super().parse_keyword_value(parser, key)

    @classmethod
    def defaults(cls) -> dict[str, Attribute]:
        return {"shape": NoneAttr()}

    def print_body(self, printer: Printer) -> None:
        printer.print_string(format_map(self.map.data))
        if (physical := self.physical_shape) is not None:
            printer.print_string(", shape = ")
            _print_int_list(printer, physical)


@irdl_attr_definition
class StridedLayoutAttr(LayoutAttr):
    """`#layout.strided<[40, 1], offset = 3>`: element strides and an offset over a 1-D
    physical buffer. Builtin `strided<…>` says the same but cannot carry pad or packing."""

    name = "layout.strided"
    KIND = "strided"
    EXTRA_PARAMETERS = ("offset",)
    strides: ArrayAttr[IntAttr]
    offset: IntAttr

    def __init__(
        self,
        strides: Sequence[int],
        offset: int = 0,
        *,
        pad: int | float | Attribute | None = None,
        pack: str | Attribute | None = None,
        bit_order: str | StringAttr | None = None,
    ) -> None:
        super().__init__(
            *_common(pad, pack, bit_order), ArrayAttr(IntAttr(s) for s in strides), IntAttr(offset)
        )

    def get_strides(self) -> Sequence[int]:
        return tuple(s.data for s in self.strides.data)

    def get_offset(self) -> int:
        return self.offset.data

    @property
    def rank(self) -> int:
        return len(self.strides.data)

    def index_map(self) -> AffineMap:
        return strided_map(self.get_strides(), self.get_offset())

    def check_body(self) -> None:
        if not self.strides.data:
            raise LayoutError("a strided layout needs at least one stride")

    @classmethod
    def parse_body(cls, parser: AttrParser) -> dict[str, Attribute]:
        values = _parse_int_list(
            parser, "#layout.strided strides (strides and offset are static integers)"
        )
        return {"strides": ArrayAttr(IntAttr(v) for v in values)}  # type: ignore[arg-type]

    @classmethod
    def parse_keyword_value(cls, parser: AttrParser, key: str) -> Attribute:
        if key == "offset":
            return IntAttr(parser.parse_integer(allow_boolean=False, context_msg=" as the offset"))
        return super().parse_keyword_value(parser, key)

    @classmethod
    def defaults(cls) -> dict[str, Attribute]:
        return {"offset": IntAttr(0)}

    def print_body(self, printer: Printer) -> None:
        _print_int_list(printer, self.get_strides())
        printer.print_string(f", offset = {self.get_offset()}")


class _TargetLayoutAttr(LayoutAttr, ABC):
    """What the target kinds share: the map needs the memref's shape (and, for `tpu`, its
    element type), so `index_map()` has none and `to_layout` goes straight to the model."""

    def index_map(self) -> AffineMap:
        raise LayoutError(
            f"#{self.name}: the index map depends on the memref's shape; "
            "take it from layout_of(memref type) instead"
        )

    def to_layout(self, shape: Sequence[Extent], dtype: str | None) -> Layout:
        return parse_layout(str(self), tuple(shape), dtype=dtype)

    def check_body(self) -> None:
        try:
            self.spec()
        except LayoutError as error:
            raise LayoutError(str(error).removeprefix(f"#{self.name}: ")) from None

    @abstractmethod
    def spec(self) -> TpuSpec | PartitionSpec:
        """The checked parameters (raises LayoutError)."""

    @abstractmethod
    def spec_text(self) -> str:
        """The parameters' text, checked or not (errors print the attribute too)."""

    def print_body(self, printer: Printer) -> None:
        printer.print_string(self.spec_text())


def _optional_int(value: Attribute | None) -> int | None:
    return value.data if isinstance(value, IntAttr) else None


def _ints(values: ArrayAttr[IntAttr]) -> tuple[int, ...]:
    return tuple(v.data for v in values.data)


@irdl_attr_definition
class TpuLayoutAttr(_TargetLayoutAttr):
    """`#layout.tpu<lanes = 4, start = 2, stride = aligned>`: Sophgo TPU local memory, an NCHW
    tensor over X lanes (NPUs); also `lmem`, `address`, `matrix = W` and `mode = "4N"`."""

    name = "layout.tpu"
    KIND = "tpu"
    EXTRA_PARAMETERS = TPU_PARAMETERS
    lanes: IntAttr | NoneAttr
    start: IntAttr
    stride: StringAttr | ArrayAttr[IntAttr]
    lmem: IntAttr | NoneAttr
    address: IntAttr | NoneAttr
    matrix: IntAttr | NoneAttr
    mode: StringAttr | NoneAttr

    @staticmethod
    def from_spec(
        spec: TpuSpec,
        *,
        pad: int | float | Attribute | None = None,
        pack: str | Attribute | None = None,
        bit_order: str | StringAttr | None = None,
    ) -> TpuLayoutAttr:
        return TpuLayoutAttr.new((*_common(pad, pack, bit_order), *_tpu_parameters(spec)))

    def _raw(self) -> dict[str, object]:
        stride = self.stride.data if isinstance(self.stride, StringAttr) else _ints(self.stride)
        return {
            "lanes": _optional_int(self.lanes),
            "start": self.start.data,
            "stride": stride,
            "lmem": _optional_int(self.lmem),
            "address": _optional_int(self.address),
            "matrix": _optional_int(self.matrix),
            "mode": self.mode.data if isinstance(self.mode, StringAttr) else None,
        }

    def spec(self) -> TpuSpec:
        return TpuSpec.create(**self._raw())  # type: ignore[arg-type]

    def spec_text(self) -> str:
        return TpuSpec(**self._raw()).text()  # type: ignore[arg-type]

    @property
    def rank(self) -> int:
        return self.spec().rank

    @classmethod
    def parse_body(cls, parser: AttrParser) -> dict[str, Attribute]:
        return {}

    @classmethod
    def parse_keyword_value(cls, parser: AttrParser, key: str) -> Attribute:
        if key == "stride":
            start = parser.pos
            kind = parser.parse_optional_identifier()
            if kind in TPU_STRIDE_KINDS:
                return StringAttr(kind)
            if kind is not None:
                parser.raise_error(
                    f"#{cls.name}: stride = {kind} (expected aligned, compact or [Ns, Cs, Hs, Ws])",
                    start,
                    parser.pos,
                )
            values = _parse_int_list(parser, "stride (aligned, compact or [Ns, Cs, Hs, Ws])")
            return ArrayAttr(IntAttr(v) for v in values)  # type: ignore[arg-type]
        if key == "mode":
            return StringAttr(parser.parse_str_literal(' (a storage mode: "4N", "2N" or "2IC")'))
        if key in TPU_PARAMETERS:
            return IntAttr(parser.parse_integer(allow_boolean=False, context_msg=f" as {key}"))
        return super().parse_keyword_value(parser, key)

    @classmethod
    def assemble(
        cls, body: dict[str, Attribute], keywords: dict[str, Attribute]
    ) -> tuple[Attribute, ...]:
        raw = {key: keywords.get(key, NoneAttr()) for key in TPU_PARAMETERS}
        try:
            stride = raw["stride"]
            spec = TpuSpec.create(
                _optional_int(raw["lanes"]),
                _optional_int(raw["start"]),
                "aligned" if isinstance(stride, NoneAttr) else _stride_value(stride),
                _optional_int(raw["lmem"]),
                _optional_int(raw["address"]),
                _optional_int(raw["matrix"]),
                raw["mode"].data if isinstance(raw["mode"], StringAttr) else None,
            )
        except LayoutError:
            return super().assemble(body, keywords)  # `verify` reports it, at its position
        normalized = dict(zip(TPU_PARAMETERS, _tpu_parameters(spec), strict=True))
        return super().assemble(body, {**keywords, **normalized})

    @classmethod
    def defaults(cls) -> dict[str, Attribute]:
        return {
            "lanes": NoneAttr(),
            "start": IntAttr(0),
            "stride": StringAttr("aligned"),
            "lmem": NoneAttr(),
            "address": NoneAttr(),
            "matrix": NoneAttr(),
            "mode": NoneAttr(),
        }


def _stride_value(stride: Attribute) -> str | tuple[int, ...]:
    if isinstance(stride, StringAttr):
        return stride.data
    assert isinstance(stride, ArrayAttr)
    return _ints(stride)  # type: ignore[arg-type]


def _tpu_parameters(spec: TpuSpec) -> tuple[Attribute, ...]:
    def optional(value: int | None) -> IntAttr | NoneAttr:
        return NoneAttr() if value is None else IntAttr(value)

    stride = (
        StringAttr(spec.stride)
        if isinstance(spec.stride, str)
        else ArrayAttr(IntAttr(v) for v in spec.stride)
    )
    return (
        IntAttr(spec.lanes),
        IntAttr(spec.start),
        stride,
        optional(spec.lmem),
        optional(spec.address),
        optional(spec.matrix),
        NoneAttr() if spec.mode is None else StringAttr(spec.mode),
    )


@irdl_attr_definition
class PartitionLayoutAttr(_TargetLayoutAttr):
    """`#layout.partition<cyclic, dims = [0], factor = 4>`: FPGA memory banks (Vivado
    `array_partition`), bank dims first; `[cyclic, block]` and `factor = [2, 4]` partition
    several dims in one attribute."""

    name = "layout.partition"
    KIND = "partition"
    EXTRA_PARAMETERS = PARTITION_PARAMETERS
    kinds: ArrayAttr[StringAttr]
    dims: ArrayAttr[IntAttr] | NoneAttr
    factor: IntAttr | ArrayAttr[IntAttr] | NoneAttr

    @staticmethod
    def from_spec(
        spec: PartitionSpec,
        *,
        pad: int | float | Attribute | None = None,
        pack: str | Attribute | None = None,
        bit_order: str | StringAttr | None = None,
    ) -> PartitionLayoutAttr:
        return PartitionLayoutAttr.new(
            (*_common(pad, pack, bit_order), *_partition_parameters(spec))
        )

    def _raw(self) -> dict[str, object]:
        factor: int | tuple[int, ...] | None = None
        if isinstance(self.factor, IntAttr):
            factor = self.factor.data
        elif isinstance(self.factor, ArrayAttr):
            factor = _ints(self.factor)
        return {
            "kinds": tuple(k.data for k in self.kinds.data),
            "dims": None if isinstance(self.dims, NoneAttr) else _ints(self.dims),
            "factor": factor,
        }

    def spec(self) -> PartitionSpec:
        return PartitionSpec.create(**self._raw())  # type: ignore[arg-type]

    def spec_text(self) -> str:
        raw = self._raw()
        return PartitionSpec(raw["kinds"], raw["dims"] or (), raw["factor"]).text()  # type: ignore[arg-type]

    @property
    def rank(self) -> int:
        """The smallest rank the partitioned dims fit in."""
        return max(self.spec().dims) + 1

    @classmethod
    def parse_body(cls, parser: AttrParser) -> dict[str, Attribute]:
        def kind() -> StringAttr:
            start = parser.pos
            name = parser.parse_optional_identifier()
            if name not in PARTITION_KINDS:
                parser.raise_error(
                    f"#{cls.name}: expected a partition kind (cyclic, block or complete)",
                    start,
                    parser.pos,
                )
            return StringAttr(name)

        if parser.parse_optional_punctuation("[") is not None:
            kinds = [kind()]
            while parser.parse_optional_punctuation(",") is not None:
                kinds.append(kind())
            parser.parse_punctuation("]", " after the partition kinds")
        else:
            kinds = [kind()]
        return {"kinds": ArrayAttr(kinds)}

    @classmethod
    def parse_keyword_value(cls, parser: AttrParser, key: str) -> Attribute:
        if key == "dims":
            return ArrayAttr(IntAttr(v) for v in _parse_int_list(parser, "dims"))  # type: ignore[arg-type]
        if key == "factor":
            value = parser.parse_optional_integer(allow_boolean=False)
            if value is not None:
                return IntAttr(value)
            return ArrayAttr(IntAttr(v) for v in _parse_int_list(parser, "factor"))  # type: ignore[arg-type]
        return super().parse_keyword_value(parser, key)

    @classmethod
    def assemble(
        cls, body: dict[str, Attribute], keywords: dict[str, Attribute]
    ) -> tuple[Attribute, ...]:
        kinds = body["kinds"]
        dims, factor = keywords.get("dims"), keywords.get("factor")
        assert isinstance(kinds, ArrayAttr)
        try:
            spec = PartitionSpec.create(
                tuple(k.data for k in kinds.data),
                _ints(dims) if isinstance(dims, ArrayAttr) else None,
                _ints(factor) if isinstance(factor, ArrayAttr) else _optional_int(factor),
            )
        except LayoutError:
            return super().assemble(body, keywords)  # `verify` reports it, at its position
        kinds, dims, factor = _partition_parameters(spec)
        return super().assemble({"kinds": kinds}, {**keywords, "dims": dims, "factor": factor})

    @classmethod
    def defaults(cls) -> dict[str, Attribute]:
        return {"dims": NoneAttr(), "factor": NoneAttr()}


def _partition_parameters(spec: PartitionSpec) -> tuple[Attribute, Attribute, Attribute]:
    factor: Attribute
    if spec.factor is None:
        factor = NoneAttr()
    elif isinstance(spec.factor, int):
        factor = IntAttr(spec.factor)
    else:
        factor = ArrayAttr(IntAttr(v) for v in spec.factor)
    return (
        ArrayAttr(StringAttr(k) for k in spec.kinds),
        ArrayAttr(IntAttr(d) for d in spec.dims),
        factor,
    )


def _string(value: str | StringAttr) -> StringAttr:
    return value if isinstance(value, StringAttr) else StringAttr(value)


LAYOUT_ATTRIBUTES: tuple[type[LayoutAttr], ...] = (
    TagLayoutAttr,
    ChunkedLayoutAttr,
    MapLayoutAttr,
    StridedLayoutAttr,
    TpuLayoutAttr,
    PartitionLayoutAttr,
)


# ---- ops ------------------------------------------------------------------------------------
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


LayoutDialect = Dialect(
    "layout",
    [AssignOp, ConvertOp, ScheduleOp],
    list(LAYOUT_ATTRIBUTES),
)
