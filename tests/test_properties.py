"""Property-based tests of the Layout model against an independent elementwise formulation.

Every layout kind (tags, named formats, HTP chunked, affine maps, strided, packed) gets a few
hundred random cases; each is checked against `elementwise_reference` (pack, unpack, offsets,
physical shape), for injectivity and its inverse, pad slots, and notation round trips.
Random garbage and non-injective maps must fail with a `LayoutError` and nothing else.
"""

from __future__ import annotations

import math
import random
import re

import elementwise_reference as reference
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import (
    ELEMENTS,
    LAYOUT_CASES,
    ElementInfo,
    LayoutCase,
    any_layout_case,
    bit_cases,
    digit_map_results,
    format_pad,
    garbage_specs,
    map_text,
    mutated_specs,
    non_injective_maps,
    pads,
    pair_list,
    tag_terms,
)

from heterolayout import Layout, LayoutError, parse_layout

CASES_PER_KIND = 300
PROPERTIES = settings(
    max_examples=CASES_PER_KIND,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SEEDS = st.integers(0, 2**32 - 1)


def bits_of(array: np.ndarray) -> np.ndarray:
    """Bit patterns, so that NaN payloads and signed zeros compare exactly."""
    if array.dtype.kind == "f":
        return array.view(np.dtype(f"uint{array.dtype.itemsize * 8}"))
    return array


def assert_identical(actual: np.ndarray, expected: np.ndarray, what: str) -> None:
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != {expected.dtype}"
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    assert np.array_equal(bits_of(actual), bits_of(expected)), what


def unfolded(case: LayoutCase, packed: np.ndarray) -> np.ndarray:
    """The physical array with lanes as elements, read from containers by the reference."""
    container = case.int_container
    if container is None:
        return packed
    lanes = reference.physical_shape(case.model, case.shape)[-1]
    return reference.unfold(packed, lanes, container, case.element.numpy_dtype, case.element.signed)


def used_bits_mask(case: LayoutCase) -> int:
    container = case.int_container
    assert container is not None
    lanes = reference.physical_shape(case.model, case.shape)[-1]
    return reference.fold_word([-1] * lanes, container)


def other_pad(element: ElementInfo, seed: int) -> int | float:
    """A second pad for `pack(x, pad=…)`, anywhere in the type's pad range."""
    rng = random.Random(seed)
    if element.is_float:
        return rng.randrange(-40, 40) / 8
    return rng.randrange(*element.pad_range)


def expected_nbytes(case: LayoutCase, physical_shape: tuple[int, ...]) -> int:
    """Bytes of the physical buffer: whole containers when packed, else whole elements."""
    bits = (
        case.element.bits
        if case.element.bits is not None
        else case.element.numpy_dtype.itemsize * 8
    )
    if case.element.name in ("f16", "bf16"):
        bits = 16
    containers, lanes = math.prod(physical_shape[:-1]), physical_shape[-1]
    if case.int_container is not None:
        return containers * reference.storage_dtype(case.int_container.bits).itemsize
    if case.container is not None:
        return containers * -(-lanes * bits // 8)
    return math.prod(physical_shape) * -(-bits // 8)


def check_shapes(case: LayoutCase, layout: Layout) -> None:
    physical_shape = reference.physical_shape(case.model, case.shape)
    assert layout.logical_shape == case.shape
    assert layout.physical_shape == physical_shape
    assert layout.size == math.prod(physical_shape)
    assert layout.logical_size == math.prod(case.shape)
    assert layout.padding_share == pytest.approx(1 - layout.logical_size / layout.size)
    assert layout.storage_shape == (
        physical_shape[:-1] if case.container is not None else physical_shape
    )
    assert layout.nbytes == expected_nbytes(case, physical_shape)
    assert layout.pad == case.pad


def check_pack(case: LayoutCase, layout: Layout, x: np.ndarray) -> np.ndarray:
    """pack / unpack against the elementwise formulation, bit-exact, both ways round."""
    packed, expected = layout.pack(x), case.expected_pack(x)
    assert_identical(packed, expected, f"pack of {case.spec}")
    assert packed.flags.c_contiguous
    assert_identical(layout.unpack(packed), x, "unpack(pack(x))")
    assert_identical(layout.unpack(expected.copy()), x, "unpack(reference pack)")
    assert_identical(case.expected_unpack(packed), x, "reference unpack(pack)")
    wrong = (x.shape[0] + 1, *x.shape[1:])
    with pytest.raises(LayoutError):
        layout.pack(np.zeros(wrong, dtype=x.dtype))
    with pytest.raises(LayoutError):
        layout.unpack(np.zeros((packed.shape[0] + 1, *packed.shape[1:]), dtype=packed.dtype))
    return packed


def check_indices(case: LayoutCase, layout: Layout, seed: int) -> list[int]:
    """Offsets, physical indices, injectivity and the inverse; returns the pad slots."""
    offsets = layout.offsets()
    assert_identical(
        np.asarray(offsets, dtype=np.int64), reference.offsets(case.model, case.shape), "offsets"
    )
    flat = offsets.ravel().tolist()
    assert len(set(flat)) == len(flat) == layout.logical_size
    for flat_index, offset in enumerate(flat):
        assert layout.logical_index(offset) == tuple(
            int(i) for i in np.unravel_index(flat_index, case.shape)
        )
    index_function = reference.index_function(case.model)
    rng = np.random.default_rng(seed)
    for _ in range(8):
        index = tuple(int(rng.integers(0, e)) for e in case.shape)
        physical_index = layout.physical_index(index)
        assert physical_index == index_function(index)
        assert layout.offset(index) == np.ravel_multi_index(physical_index, layout.physical_shape)
    pad_slots = sorted(set(range(layout.size)) - set(flat))
    assert [o for o in range(layout.size) if layout.logical_index(o) is None] == pad_slots
    assert len(pad_slots) == layout.size - layout.logical_size
    return pad_slots


def check_pads(
    case: LayoutCase,
    layout: Layout,
    x: np.ndarray,
    packed: np.ndarray,
    pad_slots: list[int],
    seed: int,
) -> None:
    """Pad slots hold the pad; a pad argument of pack() overrides it; unused bits are 0."""
    lanes = unfolded(case, packed).reshape(-1)
    held = case.element.held(case.pad)
    assert_identical(lanes[pad_slots], np.full(len(pad_slots), held, lanes.dtype), "pad slots")
    override = other_pad(case.element, seed)
    repacked = layout.pack(x, pad=override)
    assert_identical(repacked, case.expected_pack(x, pad=override), "pack(x, pad=p)")
    relanes = unfolded(case, repacked).reshape(-1)
    held = case.element.held(override)
    assert_identical(relanes[pad_slots], np.full(len(pad_slots), held, lanes.dtype), "pad override")
    if case.int_container is not None:
        unused = ~used_bits_mask(case) & ((1 << 64) - 1)
        assert not np.any(packed.astype(np.uint64) & np.uint64(unused))


def independent_notations(case: LayoutCase, layout: Layout) -> list[str]:
    """The case's layout in other notations, written here from the model (not by render.py)."""
    params = f", pad = {format_pad(case.pad)}" if case.pad != 0 else ""
    if case.container is not None:
        params += f", pack = {case.container}"
    if case.msb_first:
        params += ', bit_order = "msb"'
    model = case.model
    if isinstance(model, reference.Blocked):
        shape = reference.physical_shape(model, case.shape)
        text = map_text(len(case.shape), digit_map_results(model.terms))
        return [
            f"#layout.chunked<{pair_list(model.terms)}{params}>",
            f"#layout.map<{text}, shape = [{', '.join(map(str, shape))}]{params}>",
        ]
    if isinstance(model, reference.Strided):
        terms = [f"d{d} * {s}" for d, s in enumerate(model.strides)]
        return [
            f"#layout.map<{map_text(len(case.shape), [' + '.join([*terms, str(model.offset)])])}{params}>"
        ]
    return []


def check_notations(case: LayoutCase, layout: Layout) -> None:
    """Every notation parses back to the same layout; so do notations written independently."""
    notations = layout.notations()
    assert "map" in notations
    assert ("tag" in notations) == ("chunked" in notations) == (layout.blocked_terms is not None)
    if isinstance(case.model, reference.Blocked):
        assert "tag" in notations
    for kind, text in notations.items():
        again = parse_layout(text, case.shape, dtype=case.element.name)
        assert again == layout, f"{kind} notation {text} of {case.spec}"
        assert again.equivalent(layout)
    assert parse_layout(layout, case.shape, dtype=case.element.name) == layout
    for text in independent_notations(case, layout):
        other = parse_layout(text, case.shape, dtype=case.element.name)
        assert other.equivalent(layout), f"{text} is not {case.spec}"
        if isinstance(case.model, reference.Blocked):
            assert other == layout, f"{text} is not {case.spec}"


def check_layout(case: LayoutCase, seed: int) -> None:
    """Every property of one random layout against the elementwise reference."""
    layout = case.build()
    check_shapes(case, layout)
    x = case.element.random_array(case.shape, seed)
    packed = check_pack(case, layout, x)
    pad_slots = check_indices(case, layout, seed)
    check_pads(case, layout, x, packed, pad_slots, seed)
    check_notations(case, layout)


@PROPERTIES
@given(case=LAYOUT_CASES["tag"], seed=SEEDS)
def test_tag_layouts(case: LayoutCase, seed: int) -> None:
    check_layout(case, seed)


@PROPERTIES
@given(case=LAYOUT_CASES["named"], seed=SEEDS)
def test_named_formats(case: LayoutCase, seed: int) -> None:
    check_layout(case, seed)


@PROPERTIES
@given(case=LAYOUT_CASES["chunked"], seed=SEEDS)
def test_chunked_layouts(case: LayoutCase, seed: int) -> None:
    check_layout(case, seed)


@PROPERTIES
@given(case=LAYOUT_CASES["map"], seed=SEEDS)
def test_affine_map_layouts(case: LayoutCase, seed: int) -> None:
    check_layout(case, seed)


@PROPERTIES
@given(case=LAYOUT_CASES["strided"], seed=SEEDS)
def test_strided_layouts(case: LayoutCase, seed: int) -> None:
    check_layout(case, seed)
    strides, offset = case.model.strides, case.model.offset  # type: ignore[union-attr]
    assert case.build().linear == (strides, offset)


@PROPERTIES
@given(case=LAYOUT_CASES["packed"], seed=SEEDS)
def test_packed_layouts(case: LayoutCase, seed: int) -> None:
    check_layout(case, seed)


@PROPERTIES
@given(case=bit_cases(), seed=SEEDS)
def test_i1_lanes_match_numpy_packbits(case: LayoutCase, seed: int) -> None:
    """LSB-first is packbits' "little" order; MSB-first its "big" order, shifted down to K bits."""
    layout = case.build()
    x = case.element.random_array(case.shape, seed)
    lanes = case.expected_physical(x).astype(np.uint8)
    assert case.int_container is not None
    width = case.int_container.bits
    if case.msb_first:
        expected = np.packbits(lanes, axis=-1, bitorder="big")[..., 0] >> (8 - width)
    else:
        expected = np.packbits(lanes, axis=-1, bitorder="little")[..., 0]
    assert_identical(layout.pack(x), expected, f"packbits of {case.spec}")
    assert_identical(layout.unpack(expected), x, f"unpack of packbits for {case.spec}")


# ---- special float pads ----------------------------------------------------------------------
@pytest.mark.parametrize("pad", [math.nan, math.inf, -math.inf], ids=["nan", "inf", "-inf"])
@pytest.mark.parametrize("dtype", ["f16", "f32", "f64"])
def test_non_finite_pads_are_refused(pad: float, dtype: str) -> None:
    """MLIR's attribute text has no literal for them, so no notation could carry them."""
    with pytest.raises(LayoutError, match="not finite"):
        parse_layout("NCHW->nChw8c", (1, 3, 2, 2), dtype=dtype, pad=pad)


@pytest.mark.parametrize("dtype", ["f16", "f32", "f64"])
def test_negative_zero_pad_is_the_default_pad(dtype: str) -> None:
    """-0.0 == 0: it is the default pad, stored (and packed) as +0.0 in every notation."""
    shape = (1, 3, 2, 2)
    layout = parse_layout("NCHW->nChw8c", shape, dtype=dtype, pad=-0.0)
    x = np.arange(12, dtype=ELEMENTS[dtype].numpy_dtype).reshape(shape)
    packed = layout.pack(x)
    model = reference.Blocked(tag_terms("NCHW", "NCHW8c"))
    assert_identical(packed, reference.place(model, x, 0.0, x.dtype), "pack with pad -0.0")
    for kind, text in layout.notations().items():
        again = parse_layout(text, shape, dtype=dtype)
        assert again == layout, f"{kind} notation {text}"
        assert_identical(again.pack(x), packed, f"{kind} notation {text} packs another pad")


# ---- index arithmetic beyond int64 ------------------------------------------------------------
BEYOND_INT64 = [
    ("affine_map<(d0) -> (d0 * 99999999999999999999)>", (2,)),
    ("affine_map<(d0, d1) -> (d0, d1 + 18446744073709551616)>", (2, 2)),
    ("strided<[18446744073709551617, 1]>", (2, 3)),
    ("strided<[1], offset: 9223372036854775808>", (2,)),
    ("affine_map<(d0) -> (d0 * 9223372036854775807)>", (3,)),
    ("affine_map<(d0) -> (d0 + 9223372036854775807)>", (2,)),
]


@pytest.mark.parametrize(("spec", "shape"), BEYOND_INT64)
def test_index_values_beyond_int64_are_diagnosed(spec: str, shape: tuple[int, ...]) -> None:
    """Values past int64 are refused by name (never an OverflowError), and never misread as
    negative after a silent int64 wrap-around."""
    try:
        layout = parse_layout(spec, shape)
    except LayoutError as error:
        assert "negative" not in str(error), str(error)
        return
    if spec.startswith("affine"):
        model: reference.Model = reference.MapText(spec)
    else:
        numbers = [int(n) for n in re.findall(r"\d+", spec)]
        model = reference.Strided(tuple(numbers[: len(shape)]), sum(numbers[len(shape) :]))
    function = reference.index_function(model)
    for index in reference.logical_indices(shape):
        assert layout.physical_index(index) == function(index)


# ---- dynamic dims -------------------------------------------------------------------------------
BLOCKED_CASES = st.one_of(LAYOUT_CASES["tag"], LAYOUT_CASES["named"], LAYOUT_CASES["chunked"])


@PROPERTIES
@given(case=BLOCKED_CASES, data=st.data())
def test_dynamic_dims_specialize_to_the_static_layout(case: LayoutCase, data: st.DataObject) -> None:
    """'?' works on any dim of a blocked layout, blocked dims too (their rest is
    `D ceildiv blocks`), and specializes to the static layout."""
    assert isinstance(case.model, reference.Blocked)
    rank = len(case.shape)
    dynamic = data.draw(st.sets(st.integers(0, rank - 1), min_size=1), label="dynamic dims")
    shape = [None if d in dynamic else e for d, e in enumerate(case.shape)]
    layout = case.build(shape)
    assert layout.is_dynamic and layout.logical_shape == tuple(shape)
    assert layout.specialize(case.shape) == case.build()
    for kind, text in layout.notations().items():
        assert parse_layout(text, shape, dtype=case.element.name) == layout, (
            f"{kind} notation {text}"
        )


@PROPERTIES
@given(case=any_layout_case(), data=st.data())
def test_contradicting_pads_are_rejected(case: LayoutCase, data: st.DataObject) -> None:
    """A pad in the spec and a different pad argument is an error; the same pad is not."""
    in_spec, argument = (
        data.draw(pads(case.element), label="in spec"),
        data.draw(pads(case.element), label="argument"),
    )
    body = re.sub(r", pad = [^,>]+", "", case.spec)
    if not body.startswith("#"):
        return
    spec = f"{body[:-1]}, pad = {format_pad(in_spec)}>"
    options = {
        "dtype": case.element.name,
        "pack": case.pack_argument,
        "bit_order": case.bit_order_argument,
    }
    if in_spec == argument:
        assert parse_layout(spec, case.shape, pad=argument, **options).pad == argument
    else:
        with pytest.raises(LayoutError, match="contradicts"):
            parse_layout(spec, case.shape, pad=argument, **options)
        other = parse_layout(spec, case.shape, **options)
        assert not other.equivalent(parse_layout(body, case.shape, pad=argument, **options))


# ---- invalid input ------------------------------------------------------------------------------
INDEX_PAIR = re.compile(r"logical indices \(([-\d, ]*)\) and \(([-\d, ]*)\) both map")


def read_index(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split(",") if v.strip())


@PROPERTIES
@given(case=non_injective_maps())
def test_non_injective_maps_name_two_colliding_indices(case: tuple[str, tuple[int, ...]]) -> None:
    text, shape = case
    with pytest.raises(LayoutError, match="not injective") as error:
        parse_layout(text, shape)
    found = INDEX_PAIR.search(str(error.value))
    assert found is not None, str(error.value)
    first, second = read_index(found.group(1)), read_index(found.group(2))
    assert first != second
    for index in (first, second):
        assert all(0 <= i < e for i, e in zip(index, shape, strict=True))
    function = reference.map_function(text)
    assert function(first) == function(second)


def parse_or_layout_error(
    spec: str, shape: tuple[int, ...] | str, **options: object
) -> Layout | None:
    """`parse_layout`, which may succeed or raise `LayoutError`, but nothing else."""
    try:
        return parse_layout(spec, shape, **options)  # type: ignore[arg-type]
    except LayoutError as error:
        message = str(error)
        echoed = [spec, str(shape), *(str(v) for v in options.values())]
        one_line = "\n" not in message or any("\n" in text for text in echoed)
        assert message and one_line, f"{spec!r}: message {message!r}"
        return None
    except Exception as error:
        raise AssertionError(
            f"parse_layout({spec!r}, {shape!r}, **{options!r}) raised {error!r}"
        ) from error


def assert_valid(layout: Layout) -> None:
    """A layout that parsed is injective, fits its physical shape, and its notations parse
    back to it."""
    dtype = None if layout.dtype is None else layout.dtype.name
    for kind, text in layout.notations().items():
        assert parse_layout(text, layout.logical_shape, dtype=dtype) == layout, (
            f"{kind} notation {text}"
        )
    if layout.is_dynamic:
        return
    flat = layout.offsets().ravel()
    assert len(set(flat.tolist())) == flat.size
    assert flat.size == 0 or (flat.min() >= 0 and flat.max() < layout.size)


@PROPERTIES
@given(spec=garbage_specs(), shape=st.sampled_from([(4,), (3, 5), (2, 3, 4, 5), (1, 9, 10, 40)]))
def test_garbage_specs_raise_layout_error(spec: str, shape: tuple[int, ...]) -> None:
    layout = parse_or_layout_error(spec, shape)
    if layout is not None:
        assert_valid(layout)


@PROPERTIES
@given(case=mutated_specs())
def test_mutated_specs_raise_layout_error(case: tuple[str, tuple[int, ...]]) -> None:
    spec, shape = case
    layout = parse_or_layout_error(spec, shape)
    if layout is not None:
        assert_valid(layout)


PARAMETER_TEXT = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        [
            "i0",
            "i65",
            "i128",
            "vector<0xi1>",
            "vector<4xf7>",
            "vector<4x>",
            "f32",
            "ui0",
            "si4",
            "index",
            "i6",
            "vector<4xi1>",
            "msb",
            "lsb",
            "MSB",
            "",
        ]
    ),
)


@PROPERTIES
@given(
    case=any_layout_case(),
    dtype=st.one_of(st.none(), PARAMETER_TEXT),
    pack=st.one_of(st.none(), PARAMETER_TEXT),
    bit_order=st.one_of(st.none(), PARAMETER_TEXT),
)
def test_bad_parameters_raise_layout_error(
    case: LayoutCase, dtype: str | None, pack: str | None, bit_order: str | None
) -> None:
    layout = parse_or_layout_error(
        case.spec, case.shape, dtype=dtype, pack=pack, bit_order=bit_order
    )
    if layout is not None:
        assert_valid(layout)


@PROPERTIES
@given(
    case=any_layout_case(),
    shape=st.one_of(st.text(max_size=10), st.lists(st.integers(-3, 6), max_size=5)),
)
def test_bad_shapes_raise_layout_error(case: LayoutCase, shape: str | list[int]) -> None:
    layout = parse_or_layout_error(case.spec, shape, dtype=case.element.name)  # type: ignore[arg-type]
    if layout is not None:
        assert_valid(layout)


def _float_fits(pad: int | float, name: str) -> bool:
    """Whether `pad` is stored as a finite value of the float type: numpy's rounding for
    f16, f32 and f64, bfloat16's 8 significant bits rounded half to even by hand."""
    try:
        wide = float(pad)
    except OverflowError:
        return False
    if math.isinf(wide):
        return False
    if name == "bf16":
        mantissa, exponent = math.frexp(abs(wide))
        rounded = round(mantissa * 2**8) * 2.0 ** (exponent - 8)
        return rounded <= (2**8 - 1) * 2.0 ** (127 - 7)
    numpy_type = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[name]
    with np.errstate(over="ignore"):
        return bool(np.isfinite(numpy_type(wide)))


@PROPERTIES
@given(
    case=any_layout_case(),
    pad=st.one_of(
        st.integers(-(2**70), 2**70),
        st.integers(-300, 300),
        st.floats(allow_nan=False),
        st.sampled_from([65504.0, 65519.0, 65520.0, -1e39, 3.3961e38, 3.4e38, 1e308, 10**400]),
    ),
)
def test_pads_outside_the_type_are_rejected(case: LayoutCase, pad: int | float) -> None:
    element = case.element
    if element.is_float:
        fits = _float_fits(pad, element.name)
    else:
        low, high = element.pad_range
        fits = (isinstance(pad, int) or float(pad).is_integer()) and low <= int(pad) < high
    spec = re.sub(r", pad = [^,>]+", "", case.spec)
    layout = parse_or_layout_error(
        spec,
        case.shape,
        dtype=element.name,
        pad=pad,
        pack=case.pack_argument,
        bit_order=case.bit_order_argument,
    )
    assert (layout is not None) == fits, f"pad {pad!r} on {element.name}"
