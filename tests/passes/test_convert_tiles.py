"""Conversions at memory speed: `Layout.contiguous_run` against brute force, and the tiled,
transposing lowering of `layout.convert` checked in the Python engines and natively, on fixed
cases (blocked formats, tails, pad edges, packed containers) and on random layout pairs."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import f32

import heterolayout
from heterolayout import Layout, parse_layout
from heterolayout.dialects import layout_attr
from heterolayout.dialects.context import parse_program
from heterolayout.passes.convert import loops as convert_loops
from heterolayout.passes.convert.tiles import _pieces, tile_plan
from heterolayout.passes.pipeline import apply_pipeline
from tests.strategies import any_layout_case, block_terms

SETTINGS = settings(
    max_examples=60, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


# ---- contiguity ----------------------------------------------------------------------------------
def brute_force_runs(layout: Layout) -> tuple[int, ...]:
    """The longest aligned run of consecutive slots along every dim, point by point: the
    largest L such that every step from i to i + 1 with i + 1 not a multiple of L moves the
    offset by one."""
    shape: tuple[int, ...] = layout.logical_shape  # type: ignore[assignment]
    lengths = []
    for dim, extent in enumerate(shape):
        good = [True] * max(0, extent - 1)
        for index in np.ndindex(*shape):
            if index[dim] + 1 < extent:
                there = (*index[:dim], index[dim] + 1, *index[dim + 1 :])
                if layout.offset(there) - layout.offset(index) != 1:
                    good[index[dim]] = False
        candidates = [
            n
            for n in range(extent, 1, -1)
            if all(good[i] for i in range(extent - 1) if (i + 1) % n)
        ]
        lengths.append(candidates[0] if candidates else 1)
    return tuple(lengths)


@SETTINGS
@given(any_layout_case())
def test_contiguous_run_is_the_longest_aligned_run(case) -> None:  # type: ignore[no-untyped-def]
    layout = case.build()
    if math.prod(layout.logical_shape) > 600:
        return
    runs = tuple(layout.contiguous_run(dim) for dim in range(layout.rank))
    assert runs == brute_force_runs(layout), layout


def test_contiguous_run_of_named_formats() -> None:
    assert parse_layout("nChw16c", (2, 20, 3, 5)).contiguous_run(1) == 16
    assert parse_layout("W->W4w", (16,)).contiguous_run(0) == 16  # the blocks follow each other
    assert [parse_layout("nchw", (2, 3, 4, 5)).contiguous_run(d) for d in range(4)] == [1, 1, 1, 5]
    assert parse_layout("nchw", (2, 3, 4, 1)).contiguous_run(2) == 4  # rows of one element
    assert parse_layout("affine_map<(d0, d1) -> (d1, d0)>", (1, 1)).contiguous_run(0) == 1


def test_tiles_load_inside_one_physical_row() -> None:
    """`W->W4w` is one run of 16 slots, but its rows hold 4: loads of 8 would leave the row."""
    plan = tile_plan(parse_layout("W->W4w", (4096,)), parse_layout("W->W", (4096,)), f32)
    assert plan is not None and plan.width == 4
    wide = tile_plan(parse_layout("W->W", (4096,)), parse_layout("W->W", (4096,)), f32)
    assert wide is not None and wide.width == 8
    assert (
        tile_plan(parse_layout("nchw", (2, 64, 64, 1)), parse_layout("nhwc", (2, 64, 64, 1)), f32)
        is None
    )


def test_pieces_are_aligned_powers_of_two() -> None:
    assert _pieces(0, 28) == [(0, 16), (16, 8), (24, 4)]
    assert _pieces(28, 32) == [(28, 4)]
    assert _pieces(4, 16) == [(4, 4), (8, 8)]
    assert _pieces(5, 5) == []


# ---- fixed conversions ---------------------------------------------------------------------------
CROUTON = "#layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>"
CASES = {
    "nchw-to-nChw16c": ("", '#layout.tag<"nChw16c">', (2, 32, 9, 16), "f32"),
    "nChw16c-to-nchw": ('#layout.tag<"nChw16c">', "", (2, 32, 9, 16), "f32"),
    "nChw16c-to-nchw-tail": ('#layout.tag<"nChw16c">', "", (2, 48, 5, 13), "f32"),
    "nChw16c-pad-to-nchw": ('#layout.tag<"nChw16c">', "", (1, 40, 9, 16), "f32"),
    "nChw8c-to-nchw-f64": ('#layout.tag<"nChw8c">', "", (1, 24, 9, 24), "f64"),
    "pad-and-tail": ("", '#layout.tag<"nChw16c", pad = -1.0>', (2, 20, 9, 11), "f32"),
    "nchw-to-nhwc-f64": ("", '#layout.tag<"nhwc">', (1, 5, 31, 33), "f64"),
    "oihw16i16o": ("", '#layout.tag<"OIhw16i16o">', (32, 48, 3, 3), "f32"),
    "nChw8c-to-nChw16c": (
        '#layout.tag<"nChw8c">',
        '#layout.tag<"nChw16c">',
        (1, 32, 12, 12),
        "i16",
    ),
    "crouton-pad": ("", CROUTON, (2, 10, 9, 60), "i8"),
    "crouton-f32": ("", CROUTON, (1, 16, 16, 64), "f32"),
    "bits-lsb": ("", '#layout.tag<"NHWC->NHWC8c", pack = i8>', (2, 13, 14, 16), "i1"),
    "bits-msb-pad": (
        "",
        '#layout.tag<"NHWC->NHWC8c", pack = i8, bit_order = "msb", pad = 1>',
        (2, 13, 14, 13),
        "i1",
    ),
    "bits-i6": (
        "",
        '#layout.tag<"NHWC->NHWC6c", pack = i6, bit_order = "msb">',
        (1, 24, 24, 12),
        "i1",
    ),
    "i4-in-i8": ("", '#layout.tag<"NC->NC2c", pack = i8>', (30, 301), "i4"),
    "i8-in-i32": ("", '#layout.tag<"NC->CN4n", pack = i32>', (60, 80), "i8"),
    "bits-groups-pad": ("", '#layout.tag<"NHWC->NHWC8c", pack = i8>', (1, 8, 9, 60), "i1"),
    "bits-i16-msb": (
        "",
        '#layout.tag<"NHWC->NHWC16c", pack = i16, bit_order = "msb">',
        (1, 9, 9, 64),
        "i1",
    ),
    "i2-in-i8-pad": ("", '#layout.tag<"NC->NC4c", pack = i8, pad = 1>', (20, 250), "i2"),
    "i4-in-i32": ("", '#layout.tag<"NC->NC8c", pack = i32>', (9, 512), "i4"),
    "bits-from-nchw": (
        '#layout.tag<"NHWC->NCHW">',
        '#layout.tag<"NHWC->NHWC8c", pack = i8>',
        (2, 9, 16, 24),
        "i1",
    ),
    # transposed tiles whose load dim (W, 35 = 17 tiles of 2 + 1) ends inside a tile while the
    # store dim divides: the last tile was all pad (fuzz seed 33223)
    "chunked-load-dim-tail": (
        "",
        "#layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 4, 2, 4, 3, 32, 1, 2, 2, 2]>",
        (2, 4, 6, 35),
        "i32",
    ),
}


def convert_program(source: str, target: str, shape: tuple[int, ...], element: str) -> str:
    dims = "x".join(str(e) for e in shape)
    a = f"memref<{dims}x{element}{', ' + source if source else ''}>"
    b = f"memref<{dims}x{element}{', ' + target if target else ''}>"
    return f"func.func @main(%a: {a}, %b: {b}) {{\n  layout.convert %a to %b : {a} to {b}\n  func.return\n}}\n"


@pytest.mark.parametrize("engine", ["compiled", "native"])
@pytest.mark.parametrize("name", CASES)
def test_conversion_is_vectorized_and_exact(name: str, engine: str) -> None:
    text = convert_program(*CASES[name])
    lowered = str(apply_pipeline(parse_program(text), "layout-lower"))
    packed = "pack =" in text
    assert ("vector.bitcast" if packed else "vector.load") in lowered
    transposed = (
        name.startswith(("nchw-to-", "nChw")) and name != "nChw8c-to-nChw16c"
    ) or name in ("pad-and-tail", "oihw16i16o", "chunked-load-dim-tail")
    assert packed or ("vector.shuffle" in lowered) == transposed
    report = heterolayout.check(text, seed=3, engine=engine)
    shape = CASES[name][2]
    assert str(report) == f"OK: {2 * math.prod(shape)} elements compared"


@pytest.mark.parametrize("name", ["pad-and-tail", "crouton-pad", "bits-msb-pad"])
def test_small_tiles_in_the_interpreter(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(convert_loops, "VECTOR_MIN_SLOTS", 0)
    source, target, shape, element = CASES[name]
    small = (1, *[min(e, 9) for e in shape[1:-1]], shape[-1])
    assert str(
        heterolayout.check(convert_program(source, target, small, element), seed=1, engine="interp")
    ).startswith("OK")


def test_small_conversions_keep_the_scalar_nest() -> None:
    lowered = str(
        apply_pipeline(
            parse_program(convert_program("", '#layout.tag<"nChw16c">', (1, 16, 4, 4), "f32")),
            "layout-lower",
        )
    )
    assert "vector." not in lowered and "memref.store" in lowered


# ---- random pairs ----------------------------------------------------------------------------------
ELEMENT_TYPES = ("f32", "i8", "i16", "i64")


@st.composite
def conversion_pairs(draw: st.DrawFn) -> tuple[str, str, tuple[int, ...], str]:
    """A random unpacked source layout and a random blocked destination on one shape."""
    case = draw(
        any_layout_case().filter(
            lambda c: c.container is None and c.physical_shape_argument is None
        )
    )
    layout = case.build()
    rank = layout.rank
    terms = draw(block_terms(rank, max_blocks=2, max_size=8))
    element = draw(st.sampled_from(ELEMENT_TYPES))
    source = str(layout_attr(layout.with_params(pad=0), "map"))
    target = (
        f"#layout.chunked<[{', '.join(str(v) for dim, size in terms for v in (dim, size or 0))}]>"
    )
    return source, target, layout.logical_shape, element  # type: ignore[return-value]


@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(pair=conversion_pairs())
def test_random_conversions_tile_and_stay_exact(pair, monkeypatch_module) -> None:  # type: ignore[no-untyped-def]
    source, target, shape, element = pair
    text = convert_program(source, target, shape, element)
    assert heterolayout.check(text, seed=2, engine="compiled").equal, text


@pytest.fixture(scope="module")
def monkeypatch_module():  # type: ignore[no-untyped-def]
    """Random pairs are small: tile them anyway."""
    patch = pytest.MonkeyPatch()
    patch.setattr(convert_loops, "VECTOR_MIN_SLOTS", 0)
    yield patch
    patch.undo()


def test_tile_plans_of_the_reorder_benchmark() -> None:
    def plan(source: str, target: str, shape: tuple[int, ...], element: str):  # type: ignore[no-untyped-def]
        from xdsl.dialects.builtin import Float32Type, IntegerType

        identity = parse_layout(
            f"affine_map<({', '.join(f'd{i}' for i in range(4))}) -> ({', '.join(f'd{i}' for i in range(4))})>",
            shape,
        )
        a = parse_layout(source, shape) if source else identity
        b = parse_layout(target, shape) if target else identity
        return tile_plan(a, b, Float32Type() if element == "f32" else IntegerType(8))

    big = (8, 64, 112, 112)
    p = plan("", "nChw16c", big, "f32")
    assert p is not None and (p.width, p.span, p.store_dim, p.load_dim, p.streaming) == (
        8,
        16,
        1,
        3,
        "always",
    )
    p = plan("nChw16c", "", big, "f32")  # whole 16-channel runs in the source's order, 8×8 blocks
    assert p is not None and (p.width, p.span, p.rows, p.store_dim, p.load_dim) == (8, 8, 16, 3, 1)
    assert (p.order, p.steps, p.streaming) == ((0, 1, 2, 3), {3: 8, 1: 16}, "never")
    p = plan("nChw8c", "", big, "f32")  # runs of one vector: V-wide tiles moved inside
    assert p is not None and (p.rows, p.order[-2:], p.streaming) == (8, (1, 3), "aligned")
    p = plan("nChw16c", "", (8, 40, 112, 112), "f32")  # 40 planes: two tiles of 16, a tail of 8
    assert p is not None and p.rows == 16
    p = plan("", "nhwc", big, "f32")  # whole pixels, adjacent: one block per tile
    assert p is not None and (p.span, p.streaming) == (64, "always")
    p = plan("", "R4CroutonLayout", (8, 110, 110, 60), "i8")
    assert p is not None and (p.width, p.span, p.streaming) == (32, 32, "never")  # pad slots


def test_rows_in_one_cache_set_are_read_a_line_at_a_time() -> None:
    """Channel planes a multiple of 4 KiB apart (64x64 and 32x32 f32 pixels) share an L1 set:
    their tiles read V planes, a whole line of each, the store dim's groups outside the load
    dim's loop; other distances keep V-lane tiles, and so do destinations of 8 MiB or more
    that those write a line per row (streaming stores), not NHWC's 64-channel rows."""
    for shape in ((1, 64, 64, 64), (1, 256, 64, 64)):
        plain = parse_layout("NCHW->NCHW", shape)
        for tag, order in (("nChw16c", (0, 1, 2, 4, 3)), ("nhwc", (0, 1, 3, 2))):
            p = tile_plan(plain, parse_layout(tag, shape), f32)
            assert p is not None and (p.width, p.span, p.rows, p.order, p.streaming) == (
                8,
                8,
                16,
                order,
                "never",
            )
    for shape in ((1, 64, 56, 56), (1, 64, 112, 112), (2, 256, 64, 64)):
        p = tile_plan(parse_layout("NCHW->NCHW", shape), parse_layout("nChw16c", shape), f32)
        assert p is not None and (p.span, p.rows) == (16, 8), shape
    p = tile_plan(
        parse_layout("NCHW->NCHW", (2, 256, 64, 64)), parse_layout("nhwc", (2, 256, 64, 64)), f32
    )
    assert p is not None and (p.span, p.rows, p.streaming) == (8, 16, "never")
    # nChw16c -> NCHW: whole 16-channel runs; where the planes lie in one set, a line of each
    for shape, span in (((1, 64, 64, 64), 16), ((1, 64, 32, 32), 16), ((1, 64, 112, 112), 8)):
        p = tile_plan(parse_layout("nChw16c", shape), parse_layout("NCHW->NCHW", shape), f32)
        assert p is not None and (p.rows, p.span, p.order) == (16, span, (0, 1, 2, 3)), shape


@pytest.mark.parametrize("engine", ["compiled", "native"])
@pytest.mark.parametrize(
    "target, shape, element",
    [
        ('#layout.tag<"nChw16c">', (2, 32, 32, 32), "f32"),
        ('#layout.tag<"nChw8c">', (1, 24, 32, 32), "f32"),
        ('#layout.tag<"nhwc">', (1, 20, 32, 32), "f32"),
        ('#layout.tag<"nChw16c", pad = -1.0>', (1, 20, 32, 32), "f32"),
        ('#layout.tag<"nChw16c">', (1, 32, 64, 32), "i16"),
        ('#layout.tag<"nChw32c">', (1, 40, 64, 64), "i8"),
    ],
)
def test_line_tiles_stay_exact(
    target: str, shape: tuple[int, ...], element: str, engine: str
) -> None:
    for text in (
        convert_program("", target, shape, element),
        convert_program(target, "", shape, element),
    ):
        assert "vector.shuffle" in str(apply_pipeline(parse_program(text), "layout-lower"))
        report = heterolayout.check(text, seed=5, engine=engine)
        assert str(report) == f"OK: {2 * math.prod(shape)} elements compared"


@st.composite
def planes_in_one_set(draw: st.DrawFn) -> tuple[str, str, tuple[int, ...], str]:
    """Plain NCHW whose channel planes lie a multiple of 4 KiB apart, converted into a
    blocked or channels-last layout (with or without pad slots), or from it."""
    element, size = draw(st.sampled_from([("f32", 4), ("i16", 2), ("i8", 1)]))
    width = draw(st.sampled_from([16, 32, 64]))
    height = 4096 * draw(st.integers(1, 2)) // (width * size)
    channels = draw(st.one_of(st.integers(2, 40), st.sampled_from([32, 48, 64])))
    block = draw(st.sampled_from([4, 8, 16, 32]))
    target = draw(
        st.sampled_from(
            [
                f'#layout.tag<"nChw{block}c">',
                '#layout.tag<"nhwc">',
                f'#layout.tag<"nChw{block}c", pad = 1>',
            ]
        )
    )
    if element == "f32" and "pad = 1" in target:
        target = target.replace("pad = 1", "pad = -1.0")
    shape = (draw(st.integers(1, 2)), channels, height, width)
    return (target, "", shape, element) if draw(st.booleans()) else ("", target, shape, element)


@settings(
    max_examples=30, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(case=planes_in_one_set())
def test_line_tiles_on_random_planes_in_one_set(case) -> None:  # type: ignore[no-untyped-def]
    assert heterolayout.check(convert_program(*case), seed=4, engine="compiled").equal, case


def test_packed_groups_load_whole_runs() -> None:
    """Containers are built G at a time from one vector of lanes where the lanes run along
    the source's innermost dim, one lane load each where they do not."""
    from heterolayout.passes.convert.packed import Grouping, grouping

    def groups(
        source: str, target: str, shape: tuple[int, ...], dtype: str, **options: object
    ) -> Grouping:
        dims = ", ".join(f"d{i}" for i in range(len(shape)))
        plain = source or f"affine_map<({dims}) -> ({dims})>"
        return grouping(
            parse_layout(plain, shape, dtype=dtype),
            parse_layout(target, shape, dtype=dtype, **options),
        )

    assert groups("", "NHWC->NHWC8c", (8, 112, 112, 64), "i1", pack="i8") == Grouping(8, True)
    assert groups("", "NHWC->NHWC8c", (1, 8, 9, 60), "i1", pack="i8") == Grouping(
        8, True
    )  # the last group pads
    assert groups("", "NHWC->NHWC16c", (1, 9, 9, 64), "i1", pack="i16") == Grouping(4, True)
    assert groups("", "NC->NC2c", (30, 301), "i4", pack="i8") == Grouping(1, True)  # 151 containers
    assert groups("", "NC->NC4c", (4, 64), "i1", pack="i8") == Grouping(
        1, True
    )  # 4 lanes of 8 bits
    assert groups("", "NC->CN4n", (60, 80), "i8", pack="i32") == Grouping(1, False)  # lanes along n
    assert groups("NHWC->NCHW", "NHWC->NHWC8c", (2, 9, 16, 24), "i1", pack="i8") == Grouping(
        1, False
    )


def test_the_bit_packed_benchmark_conversion_is_one_vector_per_pixel() -> None:
    """NHWC → NHWC8c of i1: 64 lanes loaded at once (the bytes of the i1 memref as i8,
    truncated), bitcast into 8 containers, stored at once."""
    text = convert_program("", '#layout.tag<"NHWC->NHWC8c", pack = i8>', (2, 4, 16, 64), "i1")
    printed = str(apply_pipeline(parse_program(text), "layout-lower"))
    assert printed.count("vector.load") == 1 and "memref<2x4x16x64xi8>, vector<64xi8>" in printed
    assert ": vector<64xi8> to vector<64xi1>" in printed
    assert ": vector<64xi1> to vector<8xi8>" in printed
    assert printed.count("vector.store") == 1 and "memref.load" not in printed


@st.composite
def whole_run_conversions(draw: st.DrawFn) -> tuple[str, str, tuple[int, ...], str]:
    """Blocked channels (whole runs of 2 to 4 vectors, or of one) back to NCHW, with tails
    along c and w."""
    element = draw(st.sampled_from(("f32", "f64", "i16", "i8")))
    block = draw(st.sampled_from((8, 16)))
    shape = (
        draw(st.integers(1, 2)),
        draw(st.integers(1, 3)) * block + draw(st.sampled_from((0, 0, 3, block - 1))),
        draw(st.integers(1, 4)),
        draw(st.integers(1, 40)),
    )
    return f'#layout.tag<"nChw{block}c">', "", shape, element


@settings(
    max_examples=20, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(case=whole_run_conversions())
def test_whole_run_tiles_stay_exact(case, monkeypatch_module) -> None:  # type: ignore[no-untyped-def]
    assert heterolayout.check(convert_program(*case), seed=4, engine="compiled").equal, case


@st.composite
def packed_conversions(draw: st.DrawFn) -> tuple[str, str, tuple[int, ...], str]:
    """Plain NHWC into containers of 2 to 32 lanes along c (groups of containers where the
    lanes fill them), either bit order, c padded or not."""
    element = draw(st.sampled_from(("i1", "i2", "i4")))
    bits = int(element[1:])
    container = draw(st.sampled_from([w for w in (8, 16, 32) if w // bits >= 2]))
    lanes = draw(st.sampled_from([n for n in (2, 4, 8, 16, 32) if n * bits <= container]))
    order = draw(st.sampled_from(("lsb", "msb")))
    channels = draw(st.integers(1, 4)) * lanes * draw(st.sampled_from((1, 2, 4))) - draw(
        st.sampled_from((0, 0, 1))
    )
    shape = (1, draw(st.integers(1, 3)), draw(st.integers(1, 5)), max(channels, 1))
    target = f'#layout.tag<"NHWC->NHWC{lanes}c", pack = i{container}, bit_order = "{order}">'
    return "", target, shape, element


@settings(
    max_examples=20, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(case=packed_conversions())
def test_packed_groups_stay_exact(case, monkeypatch_module) -> None:  # type: ignore[no-untyped-def]
    assert heterolayout.check(convert_program(*case), seed=6, engine="compiled").equal, case


@pytest.mark.parametrize("engine", ["compiled", "native"])
@pytest.mark.parametrize(
    ("source", "built"),
    [("", "vector.load"), ('#layout.tag<"NHWC->NCHW">', "vector.from_elements")],
)
@pytest.mark.parametrize("channels", [60, 64])
def test_vector_containers_are_built_whole(
    channels: int, source: str, built: str, engine: str
) -> None:
    """`pack = vector<6xi1>`: each container is its six lanes (one vector load where they run
    along the source, else `vector.from_elements`) stored at once; a partial last container
    (64 = 10·6 + 4) too, each lane an `scf.if` yielding the source's element or the pad,
    never one read-modify-write per lane (`vector.insert`)."""
    target = '#layout.tag<"NHWC->NHWC6c", pack = vector<6xi1>>'
    shape = (1, 9, 9, channels)
    text = convert_program(source, target, shape, "i1")
    lowered = str(apply_pipeline(parse_program(text), "layout-lower"))
    assert f"= {built} " in lowered
    assert "vector.insert" not in lowered
    assert ("scf.if" in lowered and "-> (i1)" in lowered) == (channels % 6 != 0)
    apply_pipeline(parse_program(text), "layout-lower{validate=true}")  # raises unless proven
    report = heterolayout.check(text, seed=3, engine=engine)
    assert str(report) == f"OK: {2 * math.prod(shape)} elements compared"


SHORT_BLOCK = "#layout.chunked<[1, 0, 0, 0, 1, 6, 1, 6, 0, 5], pad = {pad}, pack = vector<5xi1>>"
"""Fuzz seed 560192's layout: rows in blocks of 5 lanes (103 = 20·5 + 3), columns split 36/6/6."""


@pytest.mark.parametrize("engine", ["compiled", "native"])
@pytest.mark.parametrize("pad", [-1, 0])
@pytest.mark.parametrize("shape", [(103, 73), (98, 50), (1003, 7)])
def test_partial_containers_are_built_whole(shape: tuple[int, int], pad: int, engine: str) -> None:
    """The last block's containers hold 3 rows and 2 pad lanes. Each is stored once, its
    lanes chosen by `scf.if`: built by one read-modify-write per lane, LLVM 22's `-O3` for
    AVX-512 CPUs gave lane 1 lane 0's bit (wrong natively on such hosts only; the form is
    checked on every host)."""
    text = convert_program("", SHORT_BLOCK.format(pad=pad), shape, "i1")
    lowered = str(apply_pipeline(parse_program(text), "layout-lower{validate=true}"))
    assert "vector.insert" not in lowered and lowered.count("-> (i1)") == 5
    report = heterolayout.check(text, seed=3, engine=engine)
    assert str(report) == f"OK: {2 * math.prod(shape)} elements compared"


def test_a_partial_container_chosen_by_a_wrong_test_is_not_proven(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Translation validation evaluates each lane's `scf.if` at every point: a lane that
    yields the pad one row too early leaves that row's element unwritten."""
    from heterolayout.passes.convert import packed

    real = packed.all_below

    def one_short(emitter, pairs, add):  # type: ignore[no-untyped-def]
        return real(emitter, [(value, bound - 1) for value, bound in pairs], add)

    monkeypatch.setattr(packed, "all_below", one_short)
    text = convert_program("", SHORT_BLOCK.format(pad=0), (103, 73), "i1")
    with pytest.raises(Exception, match=r"translation validation.*\(102, 0\).*never written"):
        apply_pipeline(parse_program(text), "layout-lower{validate=true}")
