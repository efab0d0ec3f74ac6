"""The layout attributes that sit inside memref types: `#layout.tag`, `#layout.chunked`,
`#layout.map`, `#layout.strided` (the target kinds are in `target_attributes`).

Each attribute holds its notation's values and builds its `Layout` by calling that
notation's constructor (`heterolayout.layout.constructors`) with them; it never goes
through text. An attribute cannot see the memref it sits in: the checks that need the
shape (rank, injectivity, pack capacity, pad range, `?` rules) run in the verification
walk (`heterolayout.dialects.verification`); the attribute checks what it can alone, and
its parser reports those errors at their position in the file.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    FloatData,
    IntAttr,
    MemRefLayoutAttr,
    NoneAttr,
    StringAttr,
    VectorType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from heterolayout.layout.blocked import Term, blocked_map, check_terms
from heterolayout.layout.chunked import ChunkedError, alias_suggestion, parse_chunked
from heterolayout.layout.constructors import (
    Common,
    chunked_layout,
    map_layout,
    strided_layout,
    tag_layout,
)
from heterolayout.layout.element_types import ElementType, element_type, format_number
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import format_map
from heterolayout.layout.extents import check_map_form
from heterolayout.layout.maps import QUASI_AFFINE, semi_affine_reason, strided_map
from heterolayout.layout.model import Layout, format_shape
from heterolayout.layout.packing import Packing
from heterolayout.layout.tags import TagError, parse_tag

PadAttr = IntAttr | FloatData | NoneAttr
Extent = int | None
COMMON_PARAMETERS = ("pad", "pack", "bit_order")


def pad_attr(value: int | float | None) -> IntAttr | FloatData | NoneAttr:
    """The stored form of a pad value: the default 0 is stored as no pad at all."""
    if isinstance(value, bool):
        raise LayoutError(f"pad {value!r} is not a number")
    if value is None or value == 0:
        return NoneAttr()
    if isinstance(value, float):
        return FloatData(value)
    return IntAttr(int(value))


@dataclass(frozen=True, init=False)  # makes the shared parameters part of __eq__ and __hash__
class LayoutAttr(MemRefLayoutAttr, ParametrizedAttribute, ABC):
    """What every `#layout.…` attribute shares: pad, pack and bit order, and its checks."""

    pad: PadAttr
    pack: TypeAttribute | NoneAttr
    bit_order: StringAttr | NoneAttr

    KIND: ClassVar[str]
    """The notation's name in `#layout.<kind>`."""
    EXTRA_PARAMETERS: ClassVar[tuple[str, ...]] = ()
    """Keyword parameters besides `pad`, `pack` and `bit_order`."""
    CHECKS_RANK: ClassVar[bool] = True
    """Whether `to_layout` refuses a memref whose rank is not `rank` (the target kinds'
    constructors say what rank they need themselves)."""

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
    def physical_shape(self) -> tuple[Extent, ...] | None:
        """The physical shape the attribute spells out, if any (`#layout.map<…, shape = …>`)."""
        return None

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

    # ---- the Layout -------------------------------------------------------------------
    def to_layout(self, shape: Sequence[Extent], dtype: str | ElementType | None) -> Layout:
        """The Layout on a memref's shape (`None` = `?`) and element type."""
        if self.CHECKS_RANK and len(shape) != self.rank:
            raise LayoutError(
                f"layout '{self}': the layout has rank {self.rank} but the memref shape "
                f"{format_shape(shape)} has rank {len(shape)}"
            )
        common = Common(
            pad=self.pad_value,
            dtype=None if dtype is None else element_type(dtype),
            packing=self.packing,
            physical_shape=self.physical_shape,
            where=f"layout '{self}'",
        )
        return self.build(shape, common)

    @abstractmethod
    def build(self, shape: Sequence[Extent], common: Common) -> Layout:
        """The notation's constructor on this attribute's values, with the `common`
        parameters given (`parse_layout` merges its arguments into them)."""

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
        keywords: dict[str, Any] = {}
        first_keyword = not body  # a kind without a body starts with its first keyword
        while first_keyword or parser.parse_optional_punctuation(",") is not None:
            first_keyword = False
            key, value = cls._parse_keyword(parser, keywords)
            keywords[key] = value
        parser.parse_punctuation(">", f" at the end of #{cls.name}")
        written = getattr(parser, "written_parameters", None)
        if isinstance(written, set):  # `parse_layout_attribute` asks what the text spells
            written.update(keywords)
        if "bit_order" in keywords and isinstance(keywords.get("pack"), VectorType):
            parser.raise_error(
                f"#{cls.name}: pack = {keywords['pack']}: bit_order applies to integer "
                "containers only, a vector container has no bit order",
                start,
                parser.pos,
            )
        try:
            parameters = cls.assemble(body, keywords)
            cls.new(parameters)  # runs `verify`, which xDSL would otherwise raise positionless
        except LayoutError as error:
            parser.raise_error(str(error), start, parser.pos)
        except VerifyException as error:
            parser.raise_error(str(error), start, parser.pos)
        return parameters

    @classmethod
    def _parse_keyword(cls, parser: AttrParser, keywords: dict[str, Any]) -> tuple[str, Any]:
        key_start = parser.pos
        key = parser.parse_identifier(f" (a parameter of #{cls.name})")
        allowed = (*cls.EXTRA_PARAMETERS, *COMMON_PARAMETERS)
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
        value = cls.parse_keyword_value(parser, key)
        try:
            if key == "pack":
                Packing(str(value))
            elif key == "bit_order":
                assert isinstance(value, StringAttr)
                Packing("i8", value.data)  # type: ignore[arg-type]
        except LayoutError as error:
            parser.raise_error(f"#{cls.name}: {error}", value_start, parser.pos)
        return key, value

    @classmethod
    def parse_keyword_value(cls, parser: AttrParser, key: str) -> Any:
        """The value of `key = …`: an attribute, or for table-driven parameters the
        Python value (see `target_attributes`)."""
        if key == "pad":
            start = parser.pos
            value = parser.parse_optional_number()
            if value is None:
                parser.raise_error(
                    f"pad = '{parser._current_token.text}' is not a number (integer or float "
                    "literal expected as the pad value)",
                    start,
                )
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
    def parse_body(cls, parser: AttrParser) -> dict[str, Any]: ...

    @classmethod
    def assemble(cls, body: dict[str, Any], keywords: dict[str, Any]) -> tuple[Attribute, ...]:
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
            printer.print_string(f", pad = {format_number(self.pad.data)}")
        if not isinstance(self.pack, NoneAttr):
            printer.print_string(", pack = ")
            printer.print_attribute(self.pack)
        if not isinstance(self.bit_order, NoneAttr):
            printer.print_string(", bit_order = ")
            printer.print_string_literal(self.bit_order.data)
        printer.print_string(">")

    @abstractmethod
    def print_body(self, printer: Printer) -> None: ...


def common_parameters(
    pad: int | float | Attribute | None,
    pack: str | Attribute | None,
    bit_order: str | StringAttr | None,
) -> tuple[Attribute, Attribute, Attribute]:
    """pad, pack and bit order as stored: the defaults (0, none, lsb) as NoneAttr."""
    if not isinstance(pad, Attribute):
        pad = pad_attr(pad)
    if pack is None:
        pack = NoneAttr()
    elif isinstance(pack, str):
        pack = _parse_type(pack)
    order = bit_order.data if isinstance(bit_order, StringAttr) else bit_order
    return pad, pack, NoneAttr() if order in (None, "lsb") else StringAttr(order)


def _parse_type(text: str) -> Attribute:
    from xdsl.context import Context
    from xdsl.parser import Parser

    return Parser(Context(), text).parse_type()


def parse_int_list(parser: AttrParser, what: str, allow_dynamic: bool = False) -> list[Extent]:
    def item() -> Extent:
        start = parser.pos
        if parser.parse_optional_punctuation("?") is not None:
            if allow_dynamic:
                return None
            parser.raise_error(f"'?' is not allowed in {what}", start, parser.pos)
        return parser.parse_integer(allow_boolean=False, context_msg=f" in {what}")

    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, item, f" in {what}")


def _int_list_text(values: Sequence[Extent]) -> str:
    return "[" + ", ".join("?" if v is None else str(v) for v in values) + "]"


def _ints_attr(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr(IntAttr(v) for v in values)


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
        tag = tag if isinstance(tag, StringAttr) else StringAttr(tag)
        super().__init__(*common_parameters(pad, pack, bit_order), tag)

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

    def build(self, shape: Sequence[Extent], common: Common) -> Layout:
        return tag_layout(self.tag.data, shape, common)

    def check_body(self) -> None:
        self._parsed()

    @classmethod
    def parse_body(cls, parser: AttrParser) -> dict[str, Any]:
        start = parser.pos
        tag = parser.parse_optional_str_literal()
        if tag is None:
            parser.raise_error(
                f'#{cls.name}: expected the tag as a quoted string, such as "NCHW->nChw8c"', start
            )
        return {"tag": StringAttr(tag)}

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
            pairs = _ints_attr(pairs)
        super().__init__(*common_parameters(pad, pack, bit_order), pairs)

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(p.data for p in self.pairs.data)

    def terms(self, rank: int | None = None) -> tuple[Term, ...]:
        """The pairs as terms, checked against `rank` (by default the rank they name)."""
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
        check_terms(terms, max(0, *values[0::2]) + 1 if rank is None else rank, where)
        return tuple(terms)

    @property
    def rank(self) -> int:
        return max(t.dim for t in self.terms()) + 1

    def index_map(self) -> AffineMap:
        return blocked_map(self.terms(), self.rank)

    def build(self, shape: Sequence[Extent], common: Common) -> Layout:
        return chunked_layout(self.terms(len(shape)), shape, common)

    def check_body(self) -> None:
        self.terms()

    @classmethod
    def parse_body(cls, parser: AttrParser) -> dict[str, Any]:
        """The pair list, or HTP's own text, quoted or not (an alias such as
        `R4CroutonLayout`, `ChunkedMemoryLayout<…>`, `FlatMemoryLayout<4>`): the same
        attribute, printed as its pairs."""
        start = parser.pos
        text = parser.parse_optional_str_literal()
        if text is None:
            text = _htp_text(parser)
        if text is None:
            values = parse_int_list(parser, "the chunked (dim, size) pairs")
            return {"pairs": _ints_attr(values)}  # type: ignore[arg-type]
        try:
            _, terms = parse_chunked(text)
        except ChunkedError as error:
            suggestion = alias_suggestion(text)
            hint = f" (did you mean '{suggestion}'?)" if suggestion else ""
            parser.raise_error(f"#{cls.name}: {error}{hint}", start, parser.pos)
        return {"pairs": _ints_attr([v for t in terms for v in (t.dim, t.size or 0)])}

    def print_body(self, printer: Printer) -> None:
        printer.print_string(_int_list_text(self.values))


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
        super().__init__(*common_parameters(pad, pack, bit_order), index_map, shape_attr)

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

    def build(self, shape: Sequence[Extent], common: Common) -> Layout:
        return map_layout(self.map.data, shape, common)

    def check_body(self) -> None:
        index_map = self.map.data
        check_map_form(index_map)
        physical = self.physical_shape
        if physical is None:
            return
        if len(physical) != len(index_map.results):
            raise LayoutError(
                f"shape = {_int_list_text(physical)} has {len(physical)} extents but the map "
                f"has {len(index_map.results)} results"
            )
        for extent in physical:
            if extent is not None and extent < 0:
                raise LayoutError(f"physical extent {extent} in shape = [...] must not be negative")

    @classmethod
    def parse_body(cls, parser: AttrParser) -> dict[str, Any]:
        start = parser.pos
        try:
            attribute = parser.parse_attribute()
        except NotImplementedError as error:
            # xDSL's affine expression builder raises NotImplementedError, not a ParseError,
            # for semi-affine products such as `d0 * d1`; report it at its position.
            parser.raise_error(
                f"#{cls.name}: the map is semi-affine ({semi_affine_reason(error)}); a layout's "
                f"map is quasi-affine ({QUASI_AFFINE})",
                start,
                parser.pos,
            )
        if not isinstance(attribute, AffineMapAttr):
            parser.raise_error(
                f"#{cls.name}: expected affine_map<…>, got {attribute}", start, parser.pos
            )
        return {"map": attribute}

    @classmethod
    def parse_keyword_value(cls, parser: AttrParser, key: str) -> Attribute:
        if key == "shape":
            values = parse_int_list(parser, "the physical shape", allow_dynamic=True)
            return ArrayAttr(_extent_attr(v) for v in values)
        return super().parse_keyword_value(parser, key)

    @classmethod
    def defaults(cls) -> dict[str, Attribute]:
        return {"shape": NoneAttr()}

    def print_body(self, printer: Printer) -> None:
        printer.print_string(format_map(self.map.data))
        if (physical := self.physical_shape) is not None:
            printer.print_string(f", shape = {_int_list_text(physical)}")


def _htp_text(parser: AttrParser) -> str | None:
    """HTP's text written without quotes: an alias, or `ChunkedMemoryLayout<…>` /
    `FlatMemoryLayout<…>` with their integers; None when no identifier comes next."""
    name = parser.parse_optional_identifier()
    if name is None or name not in ("ChunkedMemoryLayout", "FlatMemoryLayout"):
        return name
    numbers = parser.parse_comma_separated_list(
        parser.Delimiter.ANGLE,
        lambda: str(parser.parse_integer(allow_boolean=False, context_msg=f" in {name}")),
        f" in {name}",
    )
    return f"{name}<{', '.join(numbers)}>"


def _extent_attr(value: Extent) -> IntAttr | NoneAttr:
    return NoneAttr() if value is None else IntAttr(value)


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
            *common_parameters(pad, pack, bit_order), _ints_attr(strides), IntAttr(offset)
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

    def build(self, shape: Sequence[Extent], common: Common) -> Layout:
        return strided_layout(self.get_strides(), self.get_offset(), shape, common)

    def check_body(self) -> None:
        if not self.strides.data:
            raise LayoutError("a strided layout needs at least one stride")

    @classmethod
    def parse_body(cls, parser: AttrParser) -> dict[str, Any]:
        values = parse_int_list(
            parser, "#layout.strided strides (strides and offset are static integers)"
        )
        return {"strides": _ints_attr(values)}  # type: ignore[arg-type]

    @classmethod
    def parse_keyword_value(cls, parser: AttrParser, key: str) -> Attribute:
        if key == "offset":
            return IntAttr(parser.parse_integer(allow_boolean=False, context_msg=" as the offset"))
        return super().parse_keyword_value(parser, key)

    @classmethod
    def defaults(cls) -> dict[str, Attribute]:
        return {"offset": IntAttr(0)}

    def print_body(self, printer: Printer) -> None:
        printer.print_string(f"{_int_list_text(self.get_strides())}, offset = {self.get_offset()}")
