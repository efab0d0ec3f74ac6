"""Translation validation (`layout-lower{validate=true|verbose}`): what it proves and what it
catches.

- Every access and every conversion of the lit corpus' inputs and of every example is
  proven, with each option set of `layout-lower` (the remarks of `validate=verbose`,
  counted); a conversion is left unchecked only for a dynamic shape. The conversions of
  every layout kind at every size are proven in tests/test_convert_sizes.py, and
  `layout-run --check` proves the conversions it lowers.
- Wrong index code planted inside the lowering (`planted_bugs.py`: an off-by-one physical
  index, a division emitted as a remainder, a packed lane in the wrong bit order, a vector
  kept whole across a block boundary, an unsound simplification; whole containers with
  swapped lanes, the wrong bit order or the wrong container, a short container store over
  elements; tiled conversions with swapped columns or the wrong bit order) fails the pass
  with the access's op and place and a counterexample whose physical index is the Layout
  model's.
- Regressions from the fuzzer: divisions of values only the loops' or the access's bounds
  show non-negative are proven.
- The term semantics it rests on agree with Python's integer arithmetic on negative values.
"""

from __future__ import annotations

import contextlib
import io
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block
from xdsl.utils.exceptions import DiagnosticException, ParseError, PassFailedException

from heterolayout import parse_layout
from heterolayout.dialects.context import make_context
from heterolayout.dialects.diagnostics import verify_ops
from heterolayout.dialects.upstream.parser import UpstreamParser
from heterolayout.passes.lower.layout_lower import LayoutLowerPass
from heterolayout.passes.schedule.layout_schedule import LayoutSchedulePass
from heterolayout.passes.validate.terms import (
    Symbolic,
    Term,
    TermReader,
    constant,
    evaluate,
    leaf,
    reduce_mods,
)
from tests import planted_bugs
from tests.paths import REPOSITORY

OPTION_SETS = ({}, {"index": "affine"}, {"flatten": True}, {"index": "affine", "flatten": True})
REMARK = re.compile(r"remark: (?P<op>[\w.]+).* proven (?P<how>exhaustively|symbolically)")
CONVERSION = re.compile(
    r"remark: (?:layout\.convert|memref\.copy) (?:proven .*|not checked: (?P<why>.*))$",
    re.MULTILINE,
)
DYNAMIC = "its loops have no constant bounds (a dynamic shape)"


def corpus_inputs() -> Iterator[tuple[str, str]]:
    """Every module of the lit inputs (split at `// -----`) and every example."""
    files = sorted((REPOSITORY / "tests" / "filecheck").rglob("*.mlir"))
    files += sorted((REPOSITORY / "examples").rglob("*.mlir"))
    for path in files:
        for number, chunk in enumerate(path.read_text().split("// -----")):
            yield f"{path.relative_to(REPOSITORY)}#{number}", chunk


def lower(
    text: str,
    name: str = "input.mlir",
    schedule: LayoutSchedulePass | None = None,
    **options: object,
) -> tuple[str, str]:
    """`layout-lower{validate=verbose}` on `text` (after `schedule`): the lowered module and
    what went to stderr."""
    module = UpstreamParser(make_context(), text, name).parse_module()
    verify_ops(module)  # xDSL's verifier, its bare `Exception`s as one VerifyException
    stderr = io.StringIO()
    try:
        with contextlib.redirect_stderr(stderr):
            if schedule is not None:
                schedule.apply(make_context(), module)
            LayoutLowerPass(validate="verbose", **options).apply(make_context(), module)  # type: ignore[arg-type]
    except PassFailedException:
        sys.stderr.write(stderr.getvalue())  # the remarks, for a caller that captures them
        raise
    return str(module), stderr.getvalue()


@pytest.mark.slow
def test_every_access_of_the_corpus_and_the_examples_is_proven() -> None:
    proven: Counter[str] = Counter()
    conversions: Counter[str] = Counter()
    for name, text in corpus_inputs():
        for options in OPTION_SETS:
            try:
                _, remarks = lower(text, name, **options)
            except (DiagnosticException, ParseError, ValueError) as error:
                # the negative tests: inputs the tools refuse, never a validation failure
                assert "translation validation" not in str(error), f"{name} {options}: {error}"
                continue
            assert "not proven" not in remarks, f"{name} {options}:\n{remarks}"
            proven.update(m["how"] for m in REMARK.finditer(remarks))
            conversions.update(m["why"] or "proven" for m in CONVERSION.finditer(remarks))
    assert proven["exhaustively"] >= 300 and proven["symbolically"] >= 4, proven
    assert set(conversions) == {"proven", DYNAMIC} and conversions["proven"] >= 450, conversions


@pytest.mark.slow
def test_every_access_layout_schedule_emits_is_proven() -> None:
    """layout-schedule's loop nests (its lit inputs and the examples, 512- and 128-bit
    vectors): transfers along blocked dims, kept whole or split, and the scalar accesses."""
    files = sorted(
        (REPOSITORY / "tests" / "filecheck" / "passes" / "layout-schedule").glob("*.mlir")
    )
    files += sorted((REPOSITORY / "examples").glob("*.mlir"))
    proven: Counter[str] = Counter()
    for path in files:
        for schedule in (LayoutSchedulePass(), LayoutSchedulePass(vector_width=128)):
            try:
                _, remarks = lower(path.read_text(), path.name, schedule)
            except (DiagnosticException, ParseError, ValueError) as error:
                assert "translation validation" not in str(error), f"{path.name}: {error}"
                continue
            assert "not proven" not in remarks, f"{path.name} {schedule}:\n{remarks}"
            proven.update(m["op"] for m in REMARK.finditer(remarks))
    assert proven["vector.transfer_read"] >= 50 and proven["vector.transfer_write"] >= 10, proven


def test_a_large_domain_is_proven_symbolically() -> None:
    text = """
    func.func @big(%m: memref<1024x2048xf32, #layout.tag<"HW->HW16w">>) {
      %v = arith.constant 1.0 : f32
      affine.for %h = 0 to 1024 {
        affine.for %w = 0 to 2048 {
          affine.store %v, %m[%h, %w] : memref<1024x2048xf32, #layout.tag<"HW->HW16w">>
        }
      }
      func.return
    }"""
    _, remarks = lower(text)
    assert "input.mlir:6:11: remark: affine.store proven symbolically" in remarks, remarks


DYNAMIC_LOOP = """
func.func @dynamic(%m: memref<?x16xf32, #layout.tag<"NC->NC8c">>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %d = memref.dim %m, %c0 : memref<?x16xf32, #layout.tag<"NC->NC8c">>
  %s = scf.for %i = %c1 to %d step %c2 iter_args(%a = %zero) -> (f32) {
    %x = arith.ceildivui %i, %c3 : index
    %v = memref.load %m[%i, %x] : memref<?x16xf32, #layout.tag<"NC->NC8c">>
    %t = arith.addf %a, %v : f32
    scf.yield %t : f32
  }
  func.return %s : f32
}
"""
ARGUMENT_INDEX = """
func.func @argument(%m: memref<?x16xf32, #layout.tag<"NC->NC8c">>, %n: index) -> f32 {
  %c3 = arith.constant 3 : index
  %x = arith.divui %n, %c3 : index
  %v = memref.load %m[%n, %x] : memref<?x16xf32, #layout.tag<"NC->NC8c">>
  func.return %v : f32
}
"""


@pytest.mark.parametrize(
    ("text", "points"), [(DYNAMIC_LOOP, 23), (ARGUMENT_INDEX, 48)], ids=["loop", "argument"]
)
def test_unsigned_divisions_of_an_index_known_non_negative_are_proven(
    text: str, points: int
) -> None:
    """Fuzz seeds 2650 and 1598: an unsigned division of a value that is non-negative (a loop
    from 1 up to a dynamic bound; an index the access's bounds show is in [0, D)) reads as a
    floordiv on both sides, whether it is a logical index or part of the physical one, and
    the in-bounds index through the division bounds the value."""
    _, remarks = lower(text)
    # the in-bounds C index bounds the division's operand: i = 1, 3, ..., 45 (ceil(i/3) < 16);
    # n = 0 ... 47 (n/3 < 16)
    assert f"remark: memref.load proven exhaustively over {points} element accesses" in remarks
    # and the same code with the division emitted as a remainder is caught
    with planted_bugs.division_emitted_as_remainder(), pytest.raises(PassFailedException) as bad:
        lower(text)
    assert "memref.load at input.mlir:" in str(bad.value) and "logical index (" in str(bad.value)


UNKNOWN_INDEX = """
func.func @unknown(%m: memref<2x17xf32, #layout.tag<"NC->NC8c">>, %n: index, %c: index) -> f32 {
  %v = memref.load %m[%n, %c] : memref<2x17xf32, #layout.tag<"NC->NC8c">>
  func.return %v : f32
}
"""
MSB_BITS = """
func.func @bits(%m: memref<12xi1, #layout.tag<"C->C6c", pack = i8, bit_order = "msb">>, %v: i1) {
  affine.for %c = 0 to 12 {
    affine.store %v, %m[%c] : memref<12xi1, #layout.tag<"C->C6c", pack = i8, bit_order = "msb">>
  }
  func.return
}
"""
WORDS_TYPE = 'memref<3x20xi1, #layout.tag<"MK->MK8k", pack = i8, bit_order = "msb">>'
WORDS = """
func.func @words(%a: TYPE, %b: TYPE) {
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  affine.for %m = 0 to 3 {
    %v = vector.load %a[%m, %c8] : TYPE, vector<8xi1>
    vector.store %v, %b[%m, %c8] : TYPE, vector<8xi1>
    %w = vector.load %a[%m, %c16] : TYPE, vector<4xi1>
    vector.store %w, %b[%m, %c16] : TYPE, vector<4xi1>
  }
  func.return
}
""".replace("TYPE", WORDS_TYPE)
PLANTED: dict[str, tuple[Callable[[], AbstractContextManager[None]], str, dict[str, object]]] = {
    "off by one": (planted_bugs.innermost_index_off_by_one, "examples/crouton_eltwise.mlir", {}),
    "off by one, affine maps": (
        planted_bugs.innermost_index_off_by_one,
        "examples/matmul_blocked.mlir",
        {"index": "affine"},
    ),
    "off by one, flat": (
        planted_bugs.innermost_index_off_by_one,
        "examples/conv2d_nchw16c.mlir",
        {"flatten": True},
    ),
    "division as remainder": (planted_bugs.division_emitted_as_remainder, UNKNOWN_INDEX, {}),
    "bit order": (planted_bugs.bit_order_ignored, MSB_BITS, {}),
    "container lanes swapped": (planted_bugs.container_lanes_swapped, WORDS, {}),
    "container bit order": (planted_bugs.container_bit_order_ignored, WORDS, {}),
    "container index": (planted_bugs.container_index_one_further, WORDS, {}),
    "container index, flat": (
        planted_bugs.container_index_one_further,
        WORDS,
        {"flatten": True, "index": "affine"},
    ),
    "simplifier drops mod": (
        planted_bugs.simplifier_drops_remainders,
        "examples/crouton_eltwise.mlir",
        {},
    ),
}
COUNTEREXAMPLE = re.compile(
    r"(?P<where>\S+:\d+:\d+): error: (?P<op>[\w.]+) not proven: at .*"
    r"logical index \((?P<logical>[-\d, ]*)\) is physical \((?P<wanted>[-\d, ]*)\)"
    r"(?: (?:bit offset|position) (?P<wanted_lane>-?\d+))? in the layout, but the code computes "
    r"\((?P<got>[-\d, ]*)\)(?: (?:bit offset|position) (?P<got_lane>-?\d+))?"
)


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_planted_wrong_index_code_is_caught_with_a_counterexample(name: str) -> None:
    plant, source, options = PLANTED[name]
    example = source if source.startswith("examples/") else "input.mlir"
    text = (REPOSITORY / source).read_text() if source.startswith("examples/") else source
    lower(text, example, **options)  # the real lowering is proven
    stderr = io.StringIO()
    with plant(), pytest.raises(PassFailedException), contextlib.redirect_stderr(stderr):
        lower(text, example, **options)
    found = COUNTEREXAMPLE.search(stderr.getvalue())  # the remark of the access that fails
    assert found is not None, stderr.getvalue()
    assert found["where"].startswith(example)
    assert (found["wanted"], found["wanted_lane"]) != (found["got"], found["got_lane"])
    # the counterexample's physical index is the Layout model's
    layout = _layout_of_access(text, found["op"], int(found["where"].split(":")[-2]))
    logical = tuple(int(x) for x in found["logical"].split(", "))
    wanted = tuple(int(x) for x in found["wanted"].split(", "))
    physical = layout.physical_index(logical)
    if layout.packing is not None:
        *physical, lane = physical
        bits = layout.dtype.bits
        shift = (
            lane * bits
            if layout.packing.bit_order == "lsb"
            else layout.packing.container_bits - bits - lane * bits
        )
        assert int(found["wanted_lane"]) == shift
    if options.get("flatten") and layout.packing is not None:  # the container's offset
        assert wanted == (int(np.ravel_multi_index(tuple(physical), layout.storage_shape)),)
    elif options.get("flatten"):
        assert wanted == (layout.offset(logical),)
    else:
        assert wanted == tuple(physical)


def test_a_vector_kept_whole_across_a_block_boundary_is_caught() -> None:
    text = """
    func.func @across(%m: memref<16xf32, #layout.tag<"C->C8c">>) -> vector<4xf32> {
      %c6 = arith.constant 6 : index
      %v = vector.load %m[%c6] : memref<16xf32, #layout.tag<"C->C8c">>, vector<4xf32>
      func.return %v : vector<4xf32>
    }"""
    _, remarks = lower(text)
    assert (
        "vector.load, split into 4 accesses, proven exhaustively over 4 element accesses" in remarks
    )
    with planted_bugs.every_vector_kept_whole(), pytest.raises(PassFailedException) as caught:
        lower(text)
    # lane 2 of the vector is logical 8: physical (1, 0), not (0, 8)
    assert (
        "logical index (8) is physical (1, 0) in the layout, but the code computes (0, 8)"
        in str(caught.value)
    )


TRANSFER_ALONG_C = """
func.func @along_c(%m: memref<1x32x2x2xf32, #layout.tag<"NCHW->nChw16c">>, %c: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%c0, %c, %c0, %c0], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d1)>} : memref<1x32x2x2xf32, #layout.tag<"NCHW->nChw16c">>, vector<16xf32>
  vector.transfer_write %v, %m[%c0, %c, %c0, %c0] {in_bounds = [true], permutation_map = affine_map<(d0, d1, d2, d3) -> (d1)>} : vector<16xf32>, memref<1x32x2x2xf32, #layout.tag<"NCHW->nChw16c">>
  func.return
}
"""


@pytest.mark.parametrize("start", [0, 8])
def test_transfers_along_a_blocked_dim_are_proven_lane_by_lane(start: int) -> None:
    """What layout-schedule emits: a 1-D transfer along C, not the last logical dim; kept
    whole at a block's start, split where it crosses the 16-channel block."""
    text = TRANSFER_ALONG_C.replace(
        "%c: index) {", "%cx: index) {\n  %c = arith.constant START : index"
    ).replace("START", str(start))
    _, remarks = lower(text)
    how = (
        "kept whole, proven exhaustively over 16"
        if start == 0
        else "split into 16 accesses, proven exhaustively over 16"
    )
    assert f"input.mlir:6:3: remark: vector.transfer_read, {how} element accesses" in remarks, (
        remarks
    )
    assert f"input.mlir:7:3: remark: vector.transfer_write, {how} element accesses" in remarks, (
        remarks
    )


def test_a_transfer_kept_whole_across_a_block_boundary_is_caught() -> None:
    text = TRANSFER_ALONG_C.replace(
        "%c: index) {", "%cx: index) {\n  %c = arith.constant 8 : index"
    )
    with planted_bugs.every_vector_kept_whole(), pytest.raises(PassFailedException) as caught:
        lower(text)
    # lane 8 along C is logical (0, 16, 0, 0): block 1 of 16 channels, not lane 16 of block 0
    message = str(caught.value)
    assert "vector.transfer_read at input.mlir:6:3 is not proven" in message, message
    assert (
        "logical index (0, 16, 0, 0) is physical (0, 1, 0, 0, 0) in the layout, but the code computes (0, 0, 0, 0, 16)"
        in message
    ), message


def test_a_conversion_that_misplaces_elements_is_caught() -> None:
    text = (REPOSITORY / "examples" / "crouton_eltwise.mlir").read_text()
    _, remarks = lower(text, "crouton.mlir")
    assert (
        "crouton.mlir:18:3: remark: layout.convert proven exhaustively over 3600 element accesses"
        in remarks
    )
    with planted_bugs.conversion_swaps_two_dims(), pytest.raises(PassFailedException) as caught:
        lower(text, "crouton.mlir")
    message = str(caught.value)
    assert (
        "layout.convert at crouton.mlir:18:3 is not proven: logical index (0, 0, 0, 10)" in message
    )
    assert "should come from source slot 10, but is never written" in message


def test_a_conversion_of_a_dynamic_shape_is_reported_unchecked() -> None:
    text = """
    func.func @dynamic(%a: memref<?x8xf32>, %n: index) {
      %b = memref.alloc(%n) : memref<?x8xf32, #layout.tag<"NC->CN">>
      layout.convert %a to %b : memref<?x8xf32> to memref<?x8xf32, #layout.tag<"NC->CN">>
      memref.dealloc %b : memref<?x8xf32, #layout.tag<"NC->CN">>
      func.return
    }"""
    _, remarks = lower(text)
    assert (
        "input.mlir:4:7: remark: layout.convert not checked: its loops have no constant bounds"
        in remarks
    )
    assert (
        "0 of 1 accesses proven" in remarks and "1 not checked (-v names each and why)" in remarks
    )


EMPTY = """
func.func @empty(%a: memref<2x0x5x4xf32, #layout.tag<"NCHW->nChw8c">>, %b: memref<0x4xi8, #layout.map<affine_map<(d0, d1) -> (d1, d0)>>>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = arith.constant 0.0 : f32
  %d = memref.dim %a, %c1 : memref<2x0x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  %r = scf.for %i = %c0 to %d step %c1 iter_args(%acc = %s) -> (f32) {
    %v = memref.load %a[%c0, %i, %c0, %c0] : memref<2x0x5x4xf32, #layout.tag<"NCHW->nChw8c">>
    %w = arith.addf %acc, %v : f32
    scf.yield %w : f32
  }
  %z = memref.alloc() : memref<0x4xi8>
  layout.convert %b to %z : memref<0x4xi8, #layout.map<affine_map<(d0, d1) -> (d1, d0)>>> to memref<0x4xi8>
  memref.dealloc %z : memref<0x4xi8>
  func.return %r : f32
}"""


def test_accesses_and_conversions_of_an_empty_box_are_proven() -> None:
    """A zero-size dim (tests/hostile/zero-size.mlir): no index is in bounds, so every access
    holds, and a conversion's loops run zero times (this failed the proof and crashed it)."""
    _, remarks = lower(EMPTY)
    assert "input.mlir:8:5: remark: memref.load proven exhaustively over 0 element" in remarks
    assert "input.mlir:13:3: remark: layout.convert proven exhaustively over 0 element" in remarks


TILED = {
    "transpose": ("memref<64x64xf32>", 'memref<64x64xf32, #layout.tag<"NC->CN">>', 4096),
    "padded": ("memref<64x60xf32>", 'memref<64x60xf32, #layout.tag<"NC->NC8c">>', 3840),
    "packed": (
        "memref<64x120xi1>",
        'memref<64x120xi1, #layout.tag<"NC->NC6c", pack = i8, bit_order = "msb">>',
        7680,
    ),
}
TILED_TEXT = """
func.func @tiled(%a: SOURCE) {
  %b = memref.alloc() : DESTINATION
  layout.convert %a to %b : SOURCE to DESTINATION
  memref.dealloc %b : DESTINATION
  func.return
}"""


def _tiled(name: str) -> str:
    source, destination, _ = TILED[name]
    return TILED_TEXT.replace("SOURCE", source).replace("DESTINATION", destination)


@pytest.mark.parametrize("name", sorted(TILED))
def test_a_tiled_vector_conversion_is_proven_element_by_element(name: str) -> None:
    """Conversions into destinations of 4096 slots or more take the tiled path (vector loads,
    shuffle transposes, pad pieces, containers built whole, vector stores): every element
    of every store traced back to its source element, each logical element moved once."""
    text = _tiled(name)
    lowered, remarks = lower(text)
    assert "vector.store" in lowered or "vector.bitcast" in lowered  # the tiled path
    elements = TILED[name][2]
    assert (
        f"input.mlir:4:3: remark: layout.convert proven exhaustively over {elements} element "
        "accesses" in remarks
    ), remarks


@pytest.mark.parametrize(
    ("name", "plant", "message"),
    [
        (
            "transpose",
            planted_bugs.tile_transpose_swaps_rows,
            "logical index (0, 0) (destination slot 0) should come from source slot 0, but is "
            "written 1 time(s), from source slot(s) 1",
        ),
        (
            "packed",
            planted_bugs.packed_tile_bit_order_ignored,
            "logical index (0, 0) (destination slot 0) should come from source slot 0, but is "
            "never written",
        ),
    ],
)
def test_a_wrong_tiled_conversion_is_caught(
    name: str, plant: Callable[[], AbstractContextManager[None]], message: str
) -> None:
    with plant(), pytest.raises(PassFailedException) as bad:
        lower(_tiled(name))
    assert f"layout.convert at input.mlir:4:3 is not proven: {message}" in str(bad.value), bad.value


VECTOR_CONTAINERS = """
func.func @lanes(%a: TYPE) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  affine.for %m = 0 to 2 {
    %v = vector.load %a[%m, %c0] : TYPE, vector<4xf32>
    %w = vector.load %a[%m, %c4] : TYPE, vector<2xf32>
    vector.store %w, %a[%m, %c4] : TYPE, vector<2xf32>
    vector.store %v, %a[%m, %c0] : TYPE, vector<4xf32>
  }
  func.return
}
""".replace("TYPE", 'memref<2x6xf32, #layout.tag<"MK->MK4k", pack = vector<4xf32>>>')
BIG_WORDS = """
func.func @big(%a: TYPE, %b: TYPE) {
  affine.for %x = 0 to 2048 {
    affine.for %m = 0 to 1024 {
      affine.for %k = 0 to 9 step 8 {
        %v = affine.vector_load %a[%x, %m, %k] : TYPE, vector<8xi1>
        affine.vector_store %v, %b[%x, %m, %k] : TYPE, vector<8xi1>
      }
      %w = affine.vector_load %a[%x, %m, 16] : TYPE, vector<4xi1>
      affine.vector_store %w, %b[%x, %m, 16] : TYPE, vector<4xi1>
    }
  }
  func.return
}
""".replace(
    "TYPE", 'memref<2048x1024x20xi1, #layout.tag<"AMK->AMK8k", pack = i8, bit_order = "msb">>'
)


WHOLE_CONTAINERS = {
    "msb-bits": (
        WORDS,
        [
            "6:5: remark: vector.load, 8 lanes of one container, proven exhaustively over 24",
            "7:5: remark: vector.store, 8 lanes of one container, proven exhaustively over 24",
            "8:5: remark: vector.load, 4 lanes of one container, proven exhaustively over 12",
            "9:5: remark: vector.store, 4 lanes of one container, proven exhaustively over 12",
        ],
    ),
    "vector-containers": (
        VECTOR_CONTAINERS,
        [
            "6:5: remark: vector.load, 4 lanes of one container, proven exhaustively over 8",
            "7:5: remark: vector.load, 2 lanes of one container, proven exhaustively over 4",
            "8:5: remark: vector.store, 2 lanes of one container, proven exhaustively over 4",
            "9:5: remark: vector.store, 4 lanes of one container, proven exhaustively over 8",
        ],
    ),
    "symbolic": (
        BIG_WORDS,
        [
            "6:9: remark: affine.vector_load, 8 lanes of one container, proven symbolically",
            "7:9: remark: affine.vector_store, 8 lanes of one container, proven symbolically",
            "9:7: remark: affine.vector_load, 4 lanes of one container, proven symbolically",
            "10:7: remark: affine.vector_store, 4 lanes of one container, proven symbolically",
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(WHOLE_CONTAINERS))
def test_whole_container_accesses_are_proven_lane_by_lane(name: str) -> None:
    """One container load or store and its broadcast/bitcast/shuffle/extract: each lane
    traced to its slot; a short store's other lanes are pad (the dim ends there)."""
    text, expected = WHOLE_CONTAINERS[name]
    _, remarks = lower(text)
    for remark in expected:
        assert f"input.mlir:{remark}" in remarks, remarks


def test_a_short_container_store_over_elements_is_caught() -> None:
    """Stored whole where the lanes after the vector hold elements, not pad: the lane the
    pad value overwrites and the element it holds (the Layout model's)."""
    text = WORDS.replace("%c16]", "%c8]")
    _, remarks = lower(text)
    assert "input.mlir:9:5: remark: vector.store, split into 4 accesses, proven" in remarks
    with planted_bugs.partial_container_stored_whole(), pytest.raises(PassFailedException) as bad:
        lower(text)
    assert (
        "vector.store at input.mlir:9:5 is not proven: at %m = 0: the store at logical index "
        "(0, 8) writes the pad value to lane 7 of container (0, 1), which holds logical index "
        "(0, 15)" in str(bad.value)
    ), bad.value
    assert parse_layout(WORDS_TYPE.split(", ", 1)[1][:-1], (3, 20), dtype="i1").physical_index(
        (0, 15)
    ) == (0, 1, 7)


def _layout_of_access(text: str, op_name: str, line: int):  # type: ignore[no-untyped-def]
    """The Layout of the memref the op at `line` accesses (after layout-apply)."""
    from heterolayout.dialects.conversion import layout_of
    from heterolayout.passes.lower.layout_apply import LayoutApplyPass

    module = UpstreamParser(make_context(), text, "x.mlir").parse_module()
    LayoutApplyPass().apply(make_context(), module)
    for op in module.walk():
        if op.name == op_name and op.location.line.data == line:  # type: ignore[attr-defined]
            memref = next(o for o in op.operands if hasattr(o.type, "layout"))
            return layout_of(memref.type)
    raise AssertionError(f"no {op_name} at line {line}")


# ---- the terms ----------------------------------------------------------------------------------
def _index(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def test_terms_evaluate_with_each_ops_own_semantics() -> None:
    x = leaf(Block(arg_types=[IndexType()]).args[0])
    values = {x: np.arange(-9, 10, dtype=np.int64)}
    numbers = list(range(-9, 10))

    def run(kind: str, divisor: int) -> list[int]:
        return [int(v) for v in evaluate(Term(kind, (x, constant(divisor))), values, {})]  # type: ignore[union-attr]

    assert run("floordiv", 4) == [n // 4 for n in numbers]
    assert run("mod", 4) == [n % 4 for n in numbers]
    assert run("ceildiv", 4) == [-(-n // 4) for n in numbers]
    assert run("divsi", 4) == [int(n / 4) for n in numbers]
    assert run("remsi", 4) == [n - 4 * int(n / 4) for n in numbers]
    assert run("divui", 4) == [
        (n % 2**64) // 4 - (2**64 if (n % 2**64) // 4 >= 2**63 else 0) for n in numbers
    ]
    assert run("remui", 3) == [(n % 2**64) % 3 for n in numbers]
    assert run("ceildivui", 4) == [
        -(-(n % 2**64) // 4) - (2**64 if -(-(n % 2**64) // 4) >= 2**63 else 0) for n in numbers
    ]
    for width in (2, 8, 63):  # a cast to iN keeps the low N bits, read as signed
        wide = {x: np.array([0, -1, 2 ** (width - 1), 2**width - 1, 5], dtype=np.int64)}
        cast = evaluate(Term("cast", (x,), value=width), wide, {})
        low = [int(v) & (2**width - 1) for v in wide[x]]
        assert [int(v) for v in cast] == [v - 2**width if v >= 2 ** (width - 1) else v for v in low]  # type: ignore[union-attr]


def test_symbolic_form_reads_unsigned_division_only_where_the_dividend_is_not_negative() -> None:
    x = leaf(Block(arg_types=[IndexType()]).args[0])
    quotient = Term("divui", (x, constant(4)))
    unbounded = Symbolic(lambda term: None)
    assert unbounded.expr(quotient).used_dims() == {1}  # an atom of its own
    bounded = Symbolic(lambda term: (0, 15) if term == x else None)
    assert str(bounded.expr(quotient)) == "(d0 floordiv 4)"
    # floor modulo as index code writes it for a possibly negative x
    remainder = Term("remsi", (x, constant(4)))
    negative = Term("cmp", (remainder, constant(0)), value=2)
    select = Term("select", (negative, Term("add", (remainder, constant(4))), remainder))
    assert str(unbounded.expr(select)) == "(d0 mod 4)"


def test_term_reader_reads_index_ops_and_stops_at_other_values() -> None:
    block = Block(arg_types=[IndexType()])
    four, three = _index(4), _index(3)
    quotient = arith.DivUIOp(block.args[0], four.result)
    total = arith.AddiOp(quotient.result, three.result)
    for op in (four, three, quotient, total):
        block.add_op(op)
    term = TermReader().term_of(total.result)
    assert term == Term("add", (Term("divui", (leaf(block.args[0]), constant(4))), constant(3)))


def test_remainders_reduce_their_coefficients() -> None:
    from xdsl.ir.affine import AffineExpr

    d = AffineExpr.dimension(0)
    assert reduce_mods((d * -1 + 3) % 5) == reduce_mods((d * 4 + 3) % 5)
    assert parse_layout("NC->NC8c", (2, 16)).physical_index((1, 9)) == (1, 1, 1)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(
    a=st.integers(-4, 4).filter(bool),
    b=st.integers(-6, 6),
    divisors=st.lists(st.tuples(st.booleans(), st.integers(1, 5)), max_size=2),
    low=st.integers(-3, 3),
    span=st.integers(0, 6),
)
def test_in_bounds_narrows_an_atom_through_divisions_exactly(
    a: int, b: int, divisors: list[tuple[bool, int]], low: int, span: int
) -> None:
    """Fuzz seed 3483: an index `(a·x + b) floordiv c` in [low, high] bounds x (so the
    divisions of x read as floordiv/mod on both sides); the bounds are exactly the x that
    satisfy it."""
    from xdsl.ir.affine import AffineExpr

    from heterolayout.passes.validate.domain import atom_bounds

    x = AffineExpr.dimension(0)
    expr = x * a + b
    for ceil, c in divisors:
        expr = expr.ceil_div(c) if ceil else expr // c
    found = atom_bounds(expr, low, low + span)
    assert found is not None and found[0] == 0
    first, last = found[1]
    inside = [v for v in range(-200, 201) if low <= expr.eval([v], []) <= low + span]
    assert inside == list(range(max(first, -200), min(last, 200) + 1))
