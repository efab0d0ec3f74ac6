"""Hypothesis strategies: random layout cases of every kind, each with an independent model.

A `LayoutCase` is what a user would pass to `parse_layout` (spec text, shape, dtype, pad,
pack, bit order) together with the layout described for `elementwise_reference` (digit terms,
map text or strides), built here from the same random choices, never from heterolayout.
Shapes stay small (at most ~300 logical elements, a few thousand physical slots) so that
hundreds of cases per kind run in seconds.
"""

from __future__ import annotations

import dataclasses
import math
import re
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st

from heterolayout import Layout, parse_layout
from tests import elementwise_reference as reference
from tests.fuzz.choices import Choices, DrawnChoices

Terms = tuple[tuple[int, int | None], ...]

MAX_LOGICAL = 300
MAX_PHYSICAL = 4096


@dataclass(frozen=True)
class ElementInfo:
    """An MLIR element type as the tests see it: numpy stand-in, width, held range."""

    name: str
    numpy_dtype: np.dtype
    bits: int | None  # None for floats
    signed: bool

    @property
    def is_float(self) -> bool:
        return self.bits is None

    @property
    def held_range(self) -> tuple[int, int]:
        """Half-open range of the values numpy holds for this integer type."""
        assert self.bits is not None
        if self.signed:
            return -(2 ** (self.bits - 1)), 2 ** (self.bits - 1)
        return 0, 2**self.bits

    @property
    def pad_range(self) -> tuple[int, int]:
        """Half-open range of integer pads DESIGN allows: signless iN [-2^(N-1), 2^N)."""
        assert self.bits is not None
        if self.name.startswith("ui"):
            return 0, 2**self.bits
        if self.name.startswith("si"):
            return -(2 ** (self.bits - 1)), 2 ** (self.bits - 1)
        return -(2 ** (self.bits - 1)), 2**self.bits

    def held(self, value: int | float) -> int | float:
        """The value numpy holds once `value` is stored (i8 255 is -1, i1 -1 is 1)."""
        return reference.stored_value(value, self.bits, self.signed)

    def random_array(self, shape: Sequence[int], seed: int) -> np.ndarray:
        """Every value the type can hold is likely: random bit patterns for floats (NaN, inf,
        subnormals included), the whole held range for integers."""
        rng = np.random.default_rng(seed)
        if self.is_float:
            width = self.numpy_dtype.itemsize * 8
            bits = rng.integers(0, 2**width, size=tuple(shape), dtype=np.dtype(f"uint{width}"))
            return bits.view(self.numpy_dtype)
        low, high = self.held_range
        return rng.integers(low, high, size=tuple(shape), dtype=self.numpy_dtype, endpoint=False)


def _int(name: str, bits: int, signed: bool) -> ElementInfo:
    width = next(w for w in (8, 16, 32, 64) if w >= bits)
    return ElementInfo(name, np.dtype(f"{'int' if signed else 'uint'}{width}"), bits, signed)


ELEMENTS: dict[str, ElementInfo] = {
    "i1": _int("i1", 1, False),
    "i2": _int("i2", 2, True),
    "i3": _int("i3", 3, True),
    "i4": _int("i4", 4, True),
    "i8": _int("i8", 8, True),
    "i16": _int("i16", 16, True),
    "i32": _int("i32", 32, True),
    "i64": _int("i64", 64, True),
    "si4": _int("si4", 4, True),
    "si8": _int("si8", 8, True),
    "ui2": _int("ui2", 2, False),
    "ui4": _int("ui4", 4, False),
    "ui8": _int("ui8", 8, False),
    "ui16": _int("ui16", 16, False),
    "index": _int("index", 64, True),
    "f16": ElementInfo("f16", np.dtype(np.float16), None, True),
    "bf16": ElementInfo("bf16", np.dtype(np.float32), None, True),
    "f32": ElementInfo("f32", np.dtype(np.float32), None, True),
    "f64": ElementInfo("f64", np.dtype(np.float64), None, True),
}
PACKABLE = ("i1", "i2", "i3", "i4", "i8", "si4", "ui2", "ui4")


@dataclass(frozen=True)
class LayoutCase:
    """One random layout: the `parse_layout` call and its independent description."""

    kind: str
    spec: str
    shape: tuple[int, ...]
    element: ElementInfo
    model: reference.Model
    pad: int | float = 0
    pad_argument: int | float | None = None
    pack_argument: str | None = None
    bit_order_argument: str | None = None
    container: str | None = None
    msb_first: bool = False
    physical_shape_argument: tuple[int, ...] | None = None

    def build(self, shape: Sequence[int | None] | None = None) -> Layout:
        """`parse_layout` on the case's shape (or `shape`, e.g. with dynamic dims)."""
        return parse_layout(
            self.spec,
            self.shape if shape is None else tuple(shape),
            dtype=self.element.name,
            pad=self.pad_argument,
            pack=self.pack_argument,
            bit_order=self.bit_order_argument,
            physical_shape=self.physical_shape_argument,
        )

    @property
    def int_container(self) -> reference.IntContainer | None:
        if self.container is None or self.container.startswith("vector"):
            return None
        assert self.element.bits is not None
        return reference.IntContainer(int(self.container[1:]), self.element.bits, self.msb_first)

    def expected_pack(self, x: np.ndarray, pad: int | float | None = None) -> np.ndarray:
        """The elementwise reference: lanes unfolded, then folded into containers if any."""
        physical = self.expected_physical(x, pad)
        container = self.int_container
        return physical if container is None else reference.fold(physical, container)

    def expected_physical(self, x: np.ndarray, pad: int | float | None = None) -> np.ndarray:
        value = self.element.held(self.pad if pad is None else pad)
        return reference.place(self.model, x, value, self.element.numpy_dtype)

    def expected_unpack(self, packed: np.ndarray) -> np.ndarray:
        container = self.int_container
        physical = packed
        if container is not None:
            lanes = reference.physical_shape(self.model, self.shape)[-1]
            physical = reference.unfold(
                packed, lanes, container, self.element.numpy_dtype, self.element.signed
            )
        return reference.gather(self.model, physical, self.shape)


# ---- building blocks -----------------------------------------------------------------------
def fit_shape(
    shape: Sequence[int], size: Callable[[tuple[int, ...]], int], limit: int
) -> tuple[int, ...]:
    """Halve the largest extent until `size(shape)` is at most `limit` (or all extents are 1)."""
    extents = list(shape)
    while size(tuple(extents)) > limit and max(extents) > 1:
        largest = extents.index(max(extents))
        extents[largest] = -(-extents[largest] // 2)
    return tuple(extents)


@st.composite
def shapes(draw: st.DrawFn, rank: int, max_extent: int = 12) -> tuple[int, ...]:
    extents = draw(st.lists(st.integers(1, max_extent), min_size=rank, max_size=rank))
    return fit_shape(extents, math.prod, MAX_LOGICAL)


def blocked_size(terms: Terms) -> Callable[[tuple[int, ...]], int]:
    return lambda shape: math.prod(reference.physical_shape(reference.Blocked(terms), shape))


def choose_block_terms(c: Choices, rank: int, max_blocks: int = 4, max_size: int = 8) -> Terms:
    """Every dim's rest once, random blocks (several per dim allowed), random physical order."""
    blocks = [
        (c.integer(0, rank - 1), c.integer(1, max_size)) for _ in range(c.integer(0, max_blocks))
    ]
    rests: list[tuple[int, int | None]] = [(d, None) for d in range(rank)]
    return tuple(c.permutation(rests + blocks))


@st.composite
def block_terms(draw: st.DrawFn, rank: int, max_blocks: int = 4, max_size: int = 8) -> Terms:
    return choose_block_terms(DrawnChoices(draw), rank, max_blocks, max_size)


@st.composite
def blocked_layout(
    draw: st.DrawFn, rank: int, innermost_block: bool = False
) -> tuple[Terms, tuple[int, ...]]:
    """Terms and a shape whose extents are usually not multiples of the blocks."""
    terms = draw(block_terms(rank))
    if innermost_block:
        lanes = draw(st.integers(1, 8))
        terms = (*terms, (draw(st.integers(0, rank - 1)), lanes))
    shape = draw(shapes(rank))
    size = blocked_size(terms)
    while size(shape) > MAX_PHYSICAL and len(terms) > rank + innermost_block:
        first_block = next(i for i, (_, s) in enumerate(terms) if s is not None)
        terms = terms[:first_block] + terms[first_block + 1 :]
        size = blocked_size(terms)
    return terms, fit_shape(shape, size, MAX_PHYSICAL)


def choose_dim_letters(c: Choices, rank: int) -> str:
    """Distinct random letters naming the logical dims of a tag."""
    return "".join(c.permutation(string.ascii_uppercase)[:rank])


@st.composite
def dim_letters(draw: st.DrawFn, rank: int) -> str:
    return choose_dim_letters(DrawnChoices(draw), rank)


def _letter_case(c: Choices, letter: str) -> str:
    return letter.upper() if c.boolean() else letter.lower()


def choose_tag_text(c: Choices, letters: str, terms: Terms) -> str:
    """`SRC->DST` with letters in random case (case is ignored) and optional spaces."""
    source = "".join(_letter_case(c, letter) for letter in letters)
    target = "".join(
        ("" if size is None else str(size)) + _letter_case(c, letters[dim]) for dim, size in terms
    )
    arrow = c.choice(["->", " -> ", "->  "])
    return f"{source}{arrow}{target}"


def render_tag(draw: st.DrawFn, letters: str, terms: Terms) -> str:
    return choose_tag_text(DrawnChoices(draw), letters, terms)


def tag_terms(source: str, target: str) -> Terms:
    """Terms of a tag read by hand: `[size]letter` per physical dim, letters of `source`."""
    names = source.upper()
    return tuple(
        (names.index(letter.upper()), int(size) if size else None)
        for size, letter in re.findall(r"(\d*)([A-Za-z])", target)
    )


def format_pad(value: int | float) -> str:
    if isinstance(value, float):
        return repr(value)
    return str(value)


@st.composite
def elements(draw: st.DrawFn, names: Sequence[str] = tuple(ELEMENTS)) -> ElementInfo:
    return ELEMENTS[draw(st.sampled_from(list(names)))]


def _not_negative_zero(value: float) -> bool:
    """-0.0 is the default pad and is stored as +0.0, which the reference would not do; see
    test_properties.test_negative_zero_pad_is_the_default_pad."""
    return not (value == 0 and math.copysign(1.0, value) < 0)


@st.composite
def pads(draw: st.DrawFn, element: ElementInfo) -> int | float:
    """Any pad the element type allows, its ends included; floats exact in every width."""
    if element.is_float:
        finite = st.floats(width=16, allow_nan=False, allow_infinity=False)
        return draw(
            st.one_of(st.integers(-32, 32).map(lambda q: q / 4), finite).filter(_not_negative_zero)
        )
    low, high = element.pad_range
    held_low, held_high = element.held_range
    ends = [low, high - 1, held_low, held_high - 1, 0]
    return draw(st.one_of(st.sampled_from(ends), st.integers(low, high - 1)))


@st.composite
def with_parameters(
    draw: st.DrawFn,
    kind: str,
    bare: str | None,
    body: str,
    shape: tuple[int, ...],
    element: ElementInfo,
    model: reference.Model,
    container: str | None = None,
    msb_first: bool = False,
) -> LayoutCase:
    """Pass pad / pack / bit order as arguments, inside `#layout.<kind><body, …>`, or both.

    `bare` is the plain notation (None when there is none, e.g. a chunked pair list)."""
    pad = draw(st.one_of(st.just(0), pads(element)))
    params: list[tuple[str, str, object]] = []
    if pad != 0 or draw(st.booleans()):
        params.append(("pad", format_pad(pad), pad))
    if container is not None:
        params.append(("pack", container, container))
        if not container.startswith("vector") and (msb_first or draw(st.booleans())):
            order = "msb" if msb_first else "lsb"
            params.append(("bit_order", f'"{order}"', order))
    forms = ["arguments", "attribute", "both"] if bare is not None else ["attribute", "both"]
    form = draw(st.sampled_from(forms))
    arguments: dict[str, object] = {}
    in_text: list[str] = []
    for name, text, value in params:
        where = (
            form if form != "both" else draw(st.sampled_from(["arguments", "attribute", "both"]))
        )
        if name == "bit_order" and not any(text.startswith("pack = ") for text in in_text):
            where = "arguments"  # `#layout.…` text is an attribute: its bit order needs its pack
        if where in ("arguments", "both"):
            arguments[name] = value
        if where in ("attribute", "both"):
            in_text.append(f"{name} = {text}")
    if bare is not None and not in_text and (form == "arguments" or draw(st.booleans())):
        spec = bare
    else:
        spec = f"#layout.{kind}<{', '.join([body, *in_text])}>"
    return LayoutCase(
        kind,
        spec,
        shape,
        element,
        model,
        pad=pad,
        pad_argument=arguments.get("pad"),  # type: ignore[arg-type]
        pack_argument=arguments.get("pack"),  # type: ignore[arg-type]
        bit_order_argument=arguments.get("bit_order"),  # type: ignore[arg-type]
        container=container,
        msb_first=msb_first,
    )


def pair_list(terms: Terms) -> str:
    """`#layout.chunked`'s first parameter: the flat (dim, size) list, size 0 for the rest."""
    return "[" + ", ".join(f"{dim}, {size or 0}" for dim, size in terms) + "]"


def chunked_text(rank: int, terms: Terms, separator: str = ",") -> str:
    pairs = ", ".join(f"{dim}{separator}{size or 0}" for dim, size in terms)
    return f"ChunkedMemoryLayout<{rank}, {pairs}>"


# ---- layout kinds --------------------------------------------------------------------------
@st.composite
def tag_cases(draw: st.DrawFn) -> LayoutCase:
    rank = draw(st.integers(1, 5))
    letters = draw(dim_letters(rank))
    terms, shape = draw(blocked_layout(rank))
    element = draw(elements())
    bare = render_tag(draw, letters, terms)
    return draw(with_parameters("tag", bare, f'"{bare}"', shape, element, reference.Blocked(terms)))


# Named formats and the explicit tag each one means (oneDNN logical orders NCHW / NCDHW / OIHW
# / GOIHW / ABCD…, MegEngine formats on NCHW).
NAMED_FORMATS: dict[str, tuple[str, str]] = {
    "nchw": ("NCHW", "NCHW"),
    "nhwc": ("NCHW", "NHWC"),
    "chwn": ("NCHW", "CHWN"),
    "nc": ("NC", "NC"),
    "cn": ("NC", "CN"),
    "nwc": ("NCW", "NWC"),
    "ndhwc": ("NCDHW", "NDHWC"),
    "nCw8c": ("NCW", "NCW8c"),
    "nChw4c": ("NCHW", "NCHW4c"),
    "nChw8c": ("NCHW", "NCHW8c"),
    "nChw16c": ("NCHW", "NCHW16c"),
    "nCdhw8c": ("NCDHW", "NCDHW8c"),
    "NChw16n16c": ("NCHW", "NCHW16n16c"),
    "NC16c16n": ("NC", "NC16c16n"),
    "oihw": ("OIHW", "OIHW"),
    "hwio": ("OIHW", "HWIO"),
    "ohwi": ("OIHW", "OHWI"),
    "OIhw16i16o": ("OIHW", "OIHW16i16o"),
    "OIhw8o8i": ("OIHW", "OIHW8o8i"),
    "IOhw16o16i": ("OIHW", "IOHW16o16i"),
    "Ohwi16o": ("OIHW", "OHWI16o"),
    "OIhw4i16o4i": ("OIHW", "OIHW4i16o4i"),
    "OIhw8i16o2i": ("OIHW", "OIHW8i16o2i"),
    "gOIhw16i16o": ("GOIHW", "GOIHW16i16o"),
    "Goihw8g": ("GOIHW", "GOIHW8g"),
    "abcd": ("ABCD", "ABCD"),
    "acdb": ("ABCD", "ACDB"),
    "aBcd8b": ("ABCD", "ABCD8b"),
    "ABcd16a16b": ("ABCD", "ABCD16a16b"),
    "NCHW4": ("NCHW", "NCHW4c"),
    "NCHW32": ("NCHW", "NCHW32c"),
    "NCHW64": ("NCHW", "NCHW64c"),
    "NCHW88": ("NCHW", "NCHW8c"),
    "CHWN4": ("NCHW", "CHWN4c"),
    "nchw4": ("NCHW", "NCHW4c"),
}


@st.composite
def named_cases(draw: st.DrawFn) -> LayoutCase:
    name = draw(st.sampled_from(sorted(NAMED_FORMATS)))
    source, target = NAMED_FORMATS[name]
    terms = tag_terms(source, target)
    shape = fit_shape(draw(shapes(len(source))), blocked_size(terms), MAX_PHYSICAL)
    element = draw(elements())
    return draw(with_parameters("tag", name, f'"{name}"', shape, element, reference.Blocked(terms)))


# HTP aliases, by the literal pairs of the seed's table.
HTP_ALIASES: dict[str, Terms] = {
    "R4FlatMemoryLayout": ((0, None), (1, None), (2, None), (3, None)),
    "R4NCHWMemoryLayout": ((0, None), (3, None), (2, None), (1, None)),
    "R4Depth32MemoryLayout": ((0, None), (1, None), (3, None), (2, None), (2, 4), (3, 32)),
    "R4CroutonLayout": ((0, None), (1, None), (2, None), (3, None), (1, 8), (2, 8), (3, 32)),
    "R4Crouton4x1Layout": (
        (0, None),
        (1, None),
        (2, None),
        (3, None),
        (1, 8),
        (2, 2),
        (3, 32),
        (2, 4),
    ),
    "R4Crouton2x2Layout": (
        (0, None),
        (1, None),
        (2, None),
        (3, None),
        (1, 4),
        (2, 4),
        (3, 32),
        (1, 2),
        (2, 2),
    ),
    "R4Crouton2Layout": (
        (0, None),
        (1, None),
        (2, None),
        (3, None),
        (1, 8),
        (2, 2),
        (3, 32),
        (2, 2),
    ),
}


@st.composite
def chunked_cases(draw: st.DrawFn) -> LayoutCase:
    form = draw(st.sampled_from(["pairs", "pairs", "list", "flat", "alias"]))
    element = draw(elements())
    if form == "alias":
        name = draw(st.sampled_from(sorted(HTP_ALIASES)))
        terms = HTP_ALIASES[name]
        shape = fit_shape(draw(shapes(4)), blocked_size(terms), MAX_PHYSICAL)
        body = draw(st.sampled_from([name, pair_list(terms)]))
        return draw(
            with_parameters("chunked", name, body, shape, element, reference.Blocked(terms))
        )
    rank = draw(st.sampled_from([4, 4, 1, 2, 3]))
    if form == "flat":
        terms = tuple((d, None) for d in range(rank))
        bare = f"FlatMemoryLayout<{rank}>"
        return draw(
            with_parameters(
                "chunked", bare, bare, draw(shapes(rank)), element, reference.Blocked(terms)
            )
        )
    terms, shape = draw(blocked_layout(rank))
    if form == "list":
        return draw(
            with_parameters(
                "chunked", None, pair_list(terms), shape, element, reference.Blocked(terms)
            )
        )
    bare = chunked_text(rank, terms, draw(st.sampled_from([",", ", "])))
    return draw(with_parameters("chunked", bare, bare, shape, element, reference.Blocked(terms)))


# ---- affine maps ---------------------------------------------------------------------------
def digit_map_results(terms: Terms) -> list[str]:
    """The digit model of `terms` written as affine-map results."""
    results = []
    for position, (dim, size) in enumerate(terms):
        if size is None:
            below = math.prod(s for d, s in terms if d == dim and s is not None)
            results.append(f"d{dim}" if below == 1 else f"d{dim} floordiv {below}")
        else:
            inner = math.prod(s for d, s in terms[position + 1 :] if d == dim and s is not None)
            results.append(
                f"d{dim} mod {size}" if inner == 1 else f"(d{dim} floordiv {inner}) mod {size}"
            )
    return results


def choose_injective_component(ch: Choices, dims: list[int], shape: tuple[int, ...]) -> list[str]:
    """Results that depend on `dims` only and are injective on them; consumes 1 or 2 dims."""
    a = dims.pop(0)
    c = ch.integer(0, 3)
    kinds = ["scaled", "split"] + (["skew", "linearized", "linearized_split"] if dims else [])
    kind = ch.choice(kinds)
    if kind == "scaled":
        k = ch.integer(1, 3)
        term = f"d{a}" if k == 1 else ch.choice([f"d{a} * {k}", f"{k} * d{a}"])
        return [term if c == 0 else f"{term} + {c}"]
    if kind == "split":
        k = ch.integer(1, 5)
        base = f"d{a}" if c == 0 else f"(d{a} + {c})"
        return ch.permutation([f"{base} floordiv {k}", f"{base} mod {k}"])
    b = dims.pop(0)
    if kind == "skew":
        m = ch.integer(1, 3)
        skewed = f"d{a} + d{b}" if m == 1 else f"d{a} * {m} + d{b}"
        return ch.permutation([f"d{a}" if c == 0 else f"d{a} + {c}", skewed])
    gap = ch.integer(0, 2)
    linear = f"d{a} * {shape[b] + gap} + d{b}"
    if kind == "linearized":
        return [linear if c == 0 else f"{linear} + {c}"]
    k = ch.integer(2, 6)
    return ch.permutation([f"({linear}) floordiv {k}", f"({linear}) mod {k}"])


@st.composite
def injective_component(draw: st.DrawFn, dims: list[int], shape: tuple[int, ...]) -> list[str]:
    return choose_injective_component(DrawnChoices(draw), dims, shape)


def map_text(rank: int, results: Sequence[str]) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


@st.composite
def map_model(draw: st.DrawFn) -> tuple[reference.MapText, tuple[int, ...], Terms | None]:
    """A digit-form map (blocked terms) or a non-digit injective one, on a small shape."""
    rank = draw(st.integers(1, 4))
    if draw(st.booleans()):
        terms, shape = draw(blocked_layout(rank))
        text = map_text(rank, digit_map_results(terms))
        if draw(st.booleans()):
            blocked_shape = reference.physical_shape(reference.Blocked(terms), shape)
            return reference.MapText(text, blocked_shape), shape, terms
        return reference.MapText(text), shape, terms
    shape = draw(shapes(rank, max_extent=8))
    dims = list(draw(st.permutations(range(rank))))
    results: list[str] = []
    while dims:
        results += draw(injective_component(dims, shape))
    if draw(st.integers(0, 4)) == 0:
        results.append(str(draw(st.integers(0, 2))))
    results = list(draw(st.permutations(results)))
    model = reference.MapText(map_text(rank, results))
    shape = fit_shape(shape, lambda s: math.prod(reference.physical_shape(model, s)), MAX_PHYSICAL)
    if draw(st.booleans()):
        exact = reference.physical_shape(model, shape)
        extra = draw(st.lists(st.integers(0, 2), min_size=len(exact), max_size=len(exact)))
        grown = tuple(e + x for e, x in zip(exact, extra, strict=True))
        if math.prod(grown) <= MAX_PHYSICAL:
            model = reference.MapText(model.text, grown)
    return model, shape, None


@st.composite
def map_cases(draw: st.DrawFn) -> LayoutCase:
    model, shape, _ = draw(map_model())
    element = draw(elements())
    if model.shape is None:
        # A bare builtin `affine_map<…>` is sized as upstream --normalize-memrefs sizes it
        # (checked against mlir-opt-22 in test_affine_map_extents); `#layout.map` exactly.
        return draw(with_parameters("map", None, model.text, shape, element, model))
    if draw(st.booleans()):
        case = draw(with_parameters("map", model.text, model.text, shape, element, model))
        return dataclasses.replace(case, physical_shape_argument=model.shape)
    explicit = f"shape = [{', '.join(str(e) for e in model.shape)}]"
    pad = draw(st.one_of(st.just(0), pads(element)))
    params = [f"pad = {format_pad(pad)}"] if pad != 0 else []
    spec = f"#layout.map<{', '.join([model.text, explicit, *params])}>"
    return LayoutCase("map", spec, shape, element, model, pad=pad)


# ---- strided -------------------------------------------------------------------------------
@st.composite
def strided_model(draw: st.DrawFn) -> tuple[reference.Strided, tuple[int, ...]]:
    """Injective strides: in a random order each stride exceeds the span of the smaller ones
    (a padded, permuted row-major layout); extent-1 dims take any stride; signs are random
    with the offset keeping every element at a non-negative offset."""
    rank = draw(st.integers(1, 4))
    shape = draw(shapes(rank, max_extent=10))
    order = draw(st.permutations(range(rank)))
    strides = [0] * rank
    span = 0
    for dim in order:
        if shape[dim] == 1:
            strides[dim] = draw(st.integers(0, 5))
            continue
        stride = span + 1 + draw(st.integers(0, 2)) if span else draw(st.integers(1, 3))
        strides[dim] = stride
        span += (shape[dim] - 1) * stride
    signs = draw(st.lists(st.sampled_from([1, 1, -1]), min_size=rank, max_size=rank))
    strides = [s * sign for s, sign in zip(strides, signs, strict=True)]
    low = sum((e - 1) * s for e, s in zip(shape, strides, strict=True) if s < 0)
    offset = -low + draw(st.integers(0, 4))
    return reference.Strided(tuple(strides), offset), shape


@st.composite
def strided_cases(draw: st.DrawFn) -> LayoutCase:
    model, shape = draw(strided_model())
    element = draw(elements())
    strides = ", ".join(str(s) for s in model.strides)
    if model.offset == 0 and draw(st.booleans()):
        bare = f"strided<[{strides}]>"
    else:
        bare = f"strided<[{strides}], offset: {model.offset}>"
    body = f"[{strides}], offset = {model.offset}"
    return draw(with_parameters("strided", bare, body, shape, element, model))


# ---- packed --------------------------------------------------------------------------------
@st.composite
def containers(draw: st.DrawFn, lanes: int, element: ElementInfo) -> tuple[str, bool]:
    """`iK` with lanes·bits ≤ K ≤ 64 (either bit order) or `vector<lanes x T>`."""
    assert element.bits is not None
    needed = lanes * element.bits
    if needed > 64 or draw(st.integers(0, 3)) == 0:
        return f"vector<{lanes}x{element.name}>", False
    standard = [k for k in (8, 16, 32, 64) if k >= needed]
    bits = draw(st.one_of(st.sampled_from(standard), st.integers(needed, min(64, needed + 9))))
    return f"i{bits}", draw(st.booleans())


@st.composite
def packed_cases(draw: st.DrawFn, elements_: Sequence[str] = PACKABLE) -> LayoutCase:
    """HeteroCL-style NHW(C6) packing: a tag or chunked layout whose innermost term is a block."""
    rank = draw(st.integers(1, 4))
    letters = draw(dim_letters(rank))
    terms, shape = draw(blocked_layout(rank, innermost_block=True))
    element = draw(elements(elements_))
    lanes = terms[-1][1]
    assert lanes is not None
    container, msb_first = draw(containers(lanes, element))
    model = reference.Blocked(terms)
    if draw(st.booleans()):
        bare = render_tag(draw, letters, terms)
        return draw(
            with_parameters("tag", bare, f'"{bare}"', shape, element, model, container, msb_first)
        )
    bare = chunked_text(rank, terms)
    body = draw(st.sampled_from([bare, pair_list(terms)]))
    return draw(with_parameters("chunked", bare, body, shape, element, model, container, msb_first))


@st.composite
def bit_cases(draw: st.DrawFn) -> LayoutCase:
    """i1 lanes (at most 8) in an integer container of at most 8 bits, either bit order."""
    rank = draw(st.integers(1, 4))
    letters = draw(dim_letters(rank))
    terms, shape = draw(blocked_layout(rank, innermost_block=True))
    lanes = terms[-1][1]
    assert lanes is not None
    container = f"i{draw(st.integers(lanes, 8))}"
    bare = render_tag(draw, letters, terms)
    model = reference.Blocked(terms)
    element = ELEMENTS["i1"]
    msb_first = draw(st.booleans())
    return draw(
        with_parameters("tag", bare, f'"{bare}"', shape, element, model, container, msb_first)
    )


@st.composite
def float_vector_cases(draw: st.DrawFn) -> LayoutCase:
    """Vector containers of floats (`vector<4xf32>`): lanes kept as a trailing axis."""
    rank = draw(st.integers(1, 4))
    letters = draw(dim_letters(rank))
    terms, shape = draw(blocked_layout(rank, innermost_block=True))
    element = draw(elements(("f16", "f32", "f64", "i8", "i32")))
    container = f"vector<{terms[-1][1]}x{element.name}>"
    bare = render_tag(draw, letters, terms)
    model = reference.Blocked(terms)
    return draw(with_parameters("tag", bare, f'"{bare}"', shape, element, model, container))


LAYOUT_CASES: dict[str, st.SearchStrategy[LayoutCase]] = {
    "tag": tag_cases(),
    "named": named_cases(),
    "chunked": chunked_cases(),
    "map": map_cases(),
    "strided": strided_cases(),
    "packed": st.one_of(packed_cases(), float_vector_cases()),
}


def any_layout_case() -> st.SearchStrategy[LayoutCase]:
    return st.one_of(*LAYOUT_CASES.values())


# ---- invalid input -------------------------------------------------------------------------
@st.composite
def non_injective_maps(draw: st.DrawFn) -> tuple[str, tuple[int, ...]]:
    """A map that sends two logical indices of the shape to one physical index."""
    rank = draw(st.integers(1, 4))
    shape = list(draw(shapes(rank, max_extent=6)))
    a = draw(st.integers(0, rank - 1))
    shape[a] = max(shape[a], 2)
    kinds = ["dropped", "floordiv", "mod"] + (["sum"] if rank > 1 else [])
    kind = draw(st.sampled_from(kinds))
    results = [f"d{d}" for d in range(rank)]
    if kind == "dropped":
        results[a] = str(draw(st.integers(0, 2)))
    elif kind == "floordiv":
        results[a] = f"d{a} floordiv {draw(st.integers(2, 4))}"
    elif kind == "mod":
        results[a] = f"d{a} mod {draw(st.integers(1, shape[a] - 1))}"
    else:
        b = draw(st.sampled_from([d for d in range(rank) if d != a]))
        shape[b] = max(shape[b], 2)
        results[a] = f"d{a} + d{b}"
        del results[b]
    return map_text(rank, list(draw(st.permutations(results)))), tuple(shape)


SPEC_TOKENS = [
    "affine_map<",
    "(",
    ")",
    "d0",
    "d1",
    "d2",
    "->",
    ",",
    " ",
    "floordiv",
    "mod",
    "ceildiv",
    "*",
    "+",
    "-",
    ">",
    "<",
    "[",
    "]",
    "0",
    "1",
    "4",
    "-3",
    "16",
    "strided<",
    "offset:",
    "offset =",
    "#layout.tag<",
    "#layout.map<",
    "#layout.chunked<",
    "#layout.strided<",
    "#layout.tpu<",
    "#layout.",
    '"',
    "NCHW",
    "->",
    "nChw8c",
    "16c",
    "0c",
    "ChunkedMemoryLayout<",
    "FlatMemoryLayout<",
    "R4CroutonLayout",
    "pad = ",
    "pack = ",
    "bit_order = ",
    "shape = ",
    "i6",
    "vector<4xi1>",
    "f32",
    "?",
    "s0",
    "[",
    "x",
    "=",
    ":",
    "99999999999999999999",
]


def garbage_specs() -> st.SearchStrategy[str]:
    """Random text, and random soups of notation tokens that get deeper into the parsers."""
    soup = st.lists(st.sampled_from(SPEC_TOKENS), max_size=14).map("".join)
    return st.one_of(st.text(max_size=40), soup)


@st.composite
def mutated_specs(draw: st.DrawFn) -> tuple[str, tuple[int, ...]]:
    """A valid spec with a few characters deleted, replaced or inserted."""
    case = draw(any_layout_case())
    text = case.spec
    for _ in range(draw(st.integers(1, 3))):
        position = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["delete", "replace", "insert"]))
        char = draw(st.sampled_from(list('0123456789-,<>[]()=:x ?dabcAB.#"')))
        if action == "delete":
            text = text[:position] + text[position + 1 :]
        elif action == "replace":
            text = text[:position] + char + text[position + 1 :]
        else:
            text = text[:position] + char + text[position:]
    return text, case.shape
