"""The hot-nest layout search (`heterolayout.search.search.tune`, `layout-tune --hot-nest`;
the whole-program search is tests/search/test_whole.py): candidates and skips, the cost
model's ordering, the cache, the CLI and its `-o` output. No timing thresholds: tests that
need a deterministic result use a fake timer."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.roots import storage_root
from heterolayout.execution.engines import load_module
from heterolayout.execution.entry import find_function
from heterolayout.execution.errors import ExecutionError
from heterolayout.layout import parse_layout
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.search.candidates import generate
from heterolayout.search.cost import estimate, summarize, tile_shape
from heterolayout.search.measure import Cache
from heterolayout.search.program import buffer_values, find_buffers, hot_nest, with_layouts
from heterolayout.search.schedules import tiles
from heterolayout.search.search import search_space
from heterolayout.search.search import tune as tune_nest
from heterolayout.tools.run import main as run_main
from heterolayout.tools.tune import main as tune_main
from tests.crosscheck_programs import layout_opt
from tests.mlir_tools import require_native_engine

MATMUL = """
func.func @main(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      affine.store %zero, %c[%i, %j] : memref<4x16xf32>
      affine.for %k = 0 to 8 {
        %x = affine.load %a[%i, %k] : memref<4x8xf32>
        %y = affine.load %b[%k, %j] : memref<8x16xf32>
        %z = affine.load %c[%i, %j] : memref<4x16xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : memref<4x16xf32>
      }
    }
  }
  func.return
}
"""


def _labels(name: str, shape: tuple[int, ...], element: str, tied: tuple[int, ...] = ()):
    found, skipped = generate(name, shape, element, (4, 8), tied)
    return [(c.kind, c.label) for c in found], skipped


def test_candidates_of_a_small_matrix_are_exactly_these() -> None:
    labels, skipped = _labels("a", (4, 6), "f32")
    # Dropped as the memory image of an earlier one: the plain orders (nc, cn), AB->AB2b and
    # AB->BA8b (row-major again, padded to 8 columns like AB->AB4b), AB->AB4a and AB->BA2a,
    # AB->BA4a (column-major, cn), AB->AB8b (= AB->AB4b: both store a * 8 + b).
    assert labels == [
        ("named", "nc"),
        ("named", "cn"),
        ("named", "NC16c16n"),
        ("blocked", "AB->AB2a"),
        ("blocked", "AB->AB4b"),
        ("blocked", "AB->BA2b"),
        ("blocked", "AB->BA4b"),
    ]
    assert skipped == []


def test_joint_candidates_block_every_tied_dim() -> None:
    labels, _ = _labels("w", (4, 6), "f32", tied=(0, 1))
    # block sizes both dims take (dim 0 of extent 4: 2 and 4), the last tied dim innermost;
    # AB->AB2b2a stores (a // 2) * 12 + 2 * b + a % 2, as AB->AB2a does, so it is dropped
    assert [label for kind, label in labels if kind == "joint"] == ["AB->AB4b4a"]


def test_packed_candidates_and_the_packs_that_do_not_fit() -> None:
    labels, skipped = _labels("bits", (2, 12), "i1")
    assert [label for kind, label in labels if kind == "packed"] == [
        'tag<"AB->AB8b", pack = i8>',
        'tag<"AB->AB32b", pack = i32>',
        'tag<"AB->AB64b", pack = i64>',
    ]
    assert [(s.spec, "too small" in s.reason) for s in skipped] == [
        ('#layout.tag<"AB->AB16b", pack = i8>', True),
        ('#layout.tag<"AB->AB64b", pack = i32>', True),
        ('#layout.tag<"AB->AB128b", pack = i64>', True),
    ]


def test_candidates_are_distinct_layouts_of_the_buffer() -> None:
    found, _ = generate("x", (1, 16, 5, 7), "f32", (8,), (1,))
    layouts = [c.layout for c in found]
    assert len(set(layouts)) == len(layouts)
    value = np.arange(16 * 35, dtype=np.float32).reshape(1, 16, 5, 7)
    for candidate in found:
        layout = parse_layout(candidate.spec, value.shape, dtype="f32")
        assert np.array_equal(layout.unpack(layout.pack(value)), value), candidate.spec
    assert {c.kind for c in found} == {"named", "plain", "blocked", "chunked"}


def _summary(text: str = MATMUL):
    module = load_module(text)
    function = find_function(module, "main")
    buffers = find_buffers(module, "main")
    values = buffer_values(function)
    nest = hot_nest(function)
    assert nest is not None
    return buffers, summarize(nest, {storage_root(values[b.name]): b.name for b in buffers})


def _estimate(**specs: str):
    buffers, summary = _summary()
    layouts = {
        b.name: parse_layout(specs.get(b.name, "AB->AB"), b.shape, dtype="f32") for b in buffers
    }
    return estimate(summary, buffers, layouts, 8)


def test_cost_model_reads_the_nest() -> None:
    buffers, summary = _summary()
    assert [b.name for b in buffers] == ["a", "b", "c"]
    assert [b.written for b in buffers] == [False, False, True]
    assert summary.lead == "c" and summary.trips == (4, 16, 8)
    assert summary.flops == 2 * 4 * 16 * 8
    assert summary.reductions() == {2}


def test_cost_model_prefers_contiguous_vectors() -> None:
    plain, transposed = _estimate(), _estimate(b="AB->BA")
    assert plain.lanes == 8 and transposed.lanes == 1
    assert plain.seconds < transposed.seconds


def test_cost_model_charges_padding_and_conversions() -> None:
    dividing, padded = _estimate(c="AB->AB8b"), _estimate(c="AB->AB32b")
    assert padded.padding > dividing.padding == 0
    assert padded.compute > dividing.compute
    assert _estimate().conversion == 0 < _estimate(a="AB->BA").conversion


class CountingTimer:
    """A deterministic stand-in for the native timer: seconds from the lowered module's
    size, so different layouts get different, repeatable times."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, sides, entry):
        self.calls += 1
        return [len(str(lowered)) * 1e-9 for _, lowered in sides]


def test_tune_returns_the_table_as_data_and_resumes_from_the_cache(tmp_path: Path) -> None:
    timer = CountingTimer()
    first = tune_nest(MATMUL, budget=3, timer=timer, cache=Cache(tmp_path))
    assert timer.calls == 4  # the input program and three candidates
    table = first.table()
    assert [row["rank"] for row in table] == [1, 2, 3]
    assert [row["ms"] for row in table] == sorted(row["ms"] for row in table)
    assert set(table[0]["layouts"]) == {"a", "b", "c"}
    assert all(math.isclose(r["speedup"], first.input_ms / r["ms"]) for r in table)
    again = CountingTimer()
    second = tune_nest(MATMUL, budget=3, timer=again, cache=Cache(tmp_path))
    assert again.calls == 0
    assert second.table() == table


def test_a_candidate_that_fails_is_skipped_with_its_reason(tmp_path: Path) -> None:
    calls = []

    def failing(sides, entry):
        calls.append(1)
        if len(calls) == 2:
            raise ExecutionError("the compiler refused it")
        return [1e-3 for _ in sides]

    failing.__qualname__ = "failing"
    result = tune_nest(MATMUL, budget=3, timer=failing, cache=Cache(tmp_path))
    assert len(result.rows) == 2
    assert [s.reason for s in result.skipped if s.spec == "measurement"] == [
        "the compiler refused it"
    ]


def test_tune_output_passes_check(tmp_path: Path) -> None:
    result = tune_nest(MATMUL, budget=2, timer=CountingTimer(), cache=Cache(tmp_path))
    out = tmp_path / "best.mlir"
    out.write_text(result.program)
    assert result.best is not None and "layout.schedule %c" in result.program
    assert result.program.startswith(f"// layout-tune: layout-opt -p '{result.pipeline}'\n")
    assert run_main([str(out), "--check", "-p", result.pipeline]) == 0


def test_cli_writes_the_winner_and_a_report(tmp_path: Path, monkeypatch, capsys) -> None:
    require_native_engine()
    monkeypatch.setenv("HETEROLAYOUT_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "matmul.mlir"
    source.write_text(MATMUL)
    out, report = tmp_path / "out.mlir", tmp_path / "report"
    code = tune_main(
        [str(source), "--hot-nest", "--budget", "1", "-o", str(out), "--report", str(report)]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "1 of" in captured.out and "[1/1] best" in captured.err
    assert sorted(p.name for p in report.iterdir()) == [
        "plot.svg",
        "skipped.txt",
        "table.json",
        "table.md",
    ]
    assert (report / "plot.svg").read_text().startswith("<svg")
    assert (
        run_main([str(out), "--check", "--engine", "native", "-p", "layout-schedule,layout-lower"])
        == 0
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--buffer", "d"], "no buffer named 'd' (buffers: a, b, c)"),
        (["--budget", "0"], "--budget must be at least 1, got 0"),
        (["--target", "gpu"], "unknown target 'gpu'"),
        (["--entry", "other"], "other"),
        (["--buffer", "a"], "tune the buffer the hot nest stores to ('c') too"),
        (["--tile", "1x2x3"], "tile '1x2x3' has 3 sizes but the stored buffer 'c' has rank 2"),
        (["--tile", "4xq"], "tile '4xq': expected sizes like 1x32x1x3"),
        (["--tile", "0,16"], "tile '0,16': sizes must be positive"),
    ],
)
def test_cli_errors_are_one_line(tmp_path: Path, capsys, arguments, message) -> None:
    source = tmp_path / "matmul.mlir"
    source.write_text(MATMUL)
    assert tune_main([str(source), "--hot-nest", *arguments]) == 1
    err = capsys.readouterr().err
    assert err.startswith("layout-tune: error: ") and message in err
    assert err.count("\n") == 1


def test_cli_error_without_a_loop_nest(tmp_path: Path, capsys) -> None:
    source = tmp_path / "flat.mlir"
    source.write_text("func.func @main(%a: memref<4xf32>) {\n  func.return\n}\n")
    assert tune_main([str(source), "--hot-nest"]) == 1
    assert capsys.readouterr().err == (
        "layout-tune: error: @main: no loop nest layout-schedule can read; name the buffers "
        "(--buffer)\n"
    )


def _matmul(n: int) -> str:
    return (
        MATMUL.replace("4x8xf32", f"{n}x{n}xf32")
        .replace("8x16xf32", f"{n}x{n}xf32")
        .replace("4x16xf32", f"{n}x{n}xf32")
        .replace("to 4 ", f"to {n} ")
        .replace("to 16 ", f"to {n} ")
        .replace("to 8 ", f"to {n} ")
    )


def _space(text: str, fast_math: bool = False, tiles: tuple[str, ...] = ()):
    return search_space(load_module(text), "main", None, "avx2", tiles, fast_math)


def test_generated_tiles_share_twelve_accumulators() -> None:
    # AVX2: 16 registers, 3/4 of them accumulators; u vectors of 8 along j times 12 // u
    # rows of the reuse loop i (A's row is shared by a row's vectors, B's by the rows)
    space = _space(_matmul(64))
    plain = next(j for j in space.joints if all(c.label == "AB->AB" for c in j.choice))
    lead = plain.choice[2].layout
    assert tiles(space.summary, lead, 8, 16) == [(12, 8), (6, 16), (3, 32)]
    # the 4x16 C of MATMUL: four rows at most, and no tile of four vectors (32 > 16 columns)
    small = _space(MATMUL)
    assert tiles(small.summary, small.joints[0].choice[2].layout, 8, 16) == [(4, 8), (4, 16)]


def test_schedules_in_the_space_and_fused_only_with_fast_math() -> None:
    exact, fast = _space(_matmul(64)), _space(_matmul(64), fast_math=True)
    assert {j.schedule.tile for j in exact.joints} >= {None, (12, 8), (6, 16), (3, 32)}
    assert not any(j.schedule.fast for j in exact.joints)
    fused = [j for j in fast.joints if j.schedule.fast]
    assert fused and all(j.schedule.options == "fma=true reassociate=true" for j in fused)
    assert {j.schedule.tile for j in fused} == {j.schedule.tile for j in exact.joints}
    assert len(fast.joints) > len(exact.joints)
    given = _space(_matmul(64), tiles=("2x24",))
    assert {j.schedule.tile for j in given.joints} - {j.schedule.tile for j in exact.joints} == {
        (2, 24)
    }


class RecordingTimer:
    """Records each measured (source, lowered) text; favours lowered code with more fused
    multiply-adds, then more vector ops, so a fused, tiled candidate wins."""

    __qualname__ = "RecordingTimer"

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def __call__(self, sides, entry):
        self.seen += [(str(source), str(lowered)) for source, lowered in sides]
        score = [str(low).count("vector.fma") * 100 + str(low).count("vector") for _, low in sides]
        return [1e-3 / (1 + value) for value in score]


@pytest.mark.slow
def test_without_fast_math_no_candidate_is_fused(tmp_path: Path) -> None:
    timer = RecordingTimer()
    result = tune_nest(MATMUL, budget=1000, timer=timer, cache=Cache(tmp_path))
    assert len(result.rows) == result.space and not result.fast_math
    assert timer.seen and not any("vector.fma" in lowered for _, lowered in timer.seen)
    assert all(row.options == "" and "fma" not in row.pipeline for row in result.rows)


@pytest.mark.slow
def test_fast_math_winner_and_its_output_reproduce(tmp_path: Path) -> None:
    timer = RecordingTimer()
    result = tune_nest(MATMUL, budget=1000, fast_math=True, timer=timer, cache=Cache(tmp_path))
    best = result.best
    assert best is not None and best.options == "fma=true reassociate=true"
    assert best.schedule.endswith("fma+reassociate") and "fma=true" in result.pipeline
    program = load_module(result.program)
    if best.tile is not None:
        sizes = ", ".join(map(str, best.tile))
        assert f"layout.schedule %c {{tile = array<i64: {sizes}>}}" in result.program
    # layout-opt -p PIPELINE on the output gives the very code that was measured
    reproduced = str(apply_pipeline(program, result.pipeline))
    assert "vector.fma" in reproduced
    assert reproduced in [lowered for source, lowered in timer.seen if source == str(program)]
    # the layouts and tile check exactly without fast math
    out = tmp_path / "best.mlir"
    out.write_text(result.program)
    assert run_main([str(out), "--check", "-p", "layout-schedule{target=avx2},layout-lower"]) == 0


@pytest.mark.slow
@pytest.mark.parametrize(("target", "lanes"), [("avx2", 8), ("avx512", 16)])
def test_plain_buffers_are_scheduled_without_an_assign(
    tmp_path: Path, target: str, lanes: int
) -> None:
    timer = RecordingTimer()
    tune_nest(MATMUL, budget=1000, target=target, timer=timer, cache=Cache(tmp_path))
    plain = [(s, low) for s, low in timer.seen if "#layout" not in s]
    inputs = [low for s, low in plain if "layout.schedule" not in s]
    scheduled = [low for s, low in plain if "layout.schedule" in s]
    # the input program, through the same pipeline: its plain nest is scheduled too
    assert len(inputs) == 1 and f"vector<{lanes}xf32>" in inputs[0]
    assert scheduled and all(f"vector<{lanes}xf32>" in low for low in scheduled)
    assert not any("memref.alloc" in low for low in scheduled)  # no copy at the boundary


def _matmul_estimate(n: int, tile=None, fast: bool = False, **specs: str):
    buffers, summary = _summary(_matmul(n))
    layouts = {
        b.name: parse_layout(specs.get(b.name, "AB->AB"), b.shape, dtype="f32") for b in buffers
    }
    return estimate(summary, buffers, layouts, 8, tile, fast, 16)


def test_cost_model_orders_register_tiles_and_fused_multiply_adds() -> None:
    # accumulators u*w against 10 in flight, times min(1, u/2): 6x16 (12, u=2) and the pass's
    # exact tile, 2 vectors x 5 rows (10) > 4x16 (8) > 12x8 (12, but one vector:
    # broadcast-bound)
    tiles = [(6, 16), None, (4, 16), (12, 8)]
    wide, default, four, narrow = (_matmul_estimate(64, t) for t in tiles)
    assert math.isclose(default.compute, wide.compute)
    assert math.isclose(four.compute / wide.compute, 2.5 / 2.0)
    assert math.isclose(narrow.compute / wide.compute, 2.5 / 1.25)
    # fused: the pass's own tile is 4 vectors x 3 rows (12 accumulators), and FMA_GAIN
    assert math.isclose(_matmul_estimate(64, fast=True).compute * 1.2, default.compute)


def test_cost_model_follows_the_exact_one_vector_tiles_of_avx512() -> None:
    # 16 lanes, 32 registers, embedded broadcasts: the pass's own exact tile is one vector
    # by 14 rows (register_tiling.one_vector_tiles), whose broadcasts fold, so it is not
    # broadcast-bound; fused, it keeps two vectors.
    buffers, summary = _summary(_matmul(64))
    layouts = {b.name: parse_layout("AB->AB", b.shape, dtype="f32") for b in buffers}

    def compute(
        tile: tuple[int, ...] | None = None, fast: bool = False, embedded: bool = True
    ) -> float:
        return estimate(summary, buffers, layouts, 16, tile, fast, 32, embedded).compute

    assert math.isclose(compute(), compute((14, 16)))
    assert math.isclose(compute((14, 16)), compute((5, 32)))
    assert math.isclose(compute((14, 16), embedded=False) / compute((14, 16)), 2.0)
    assert math.isclose(compute(fast=True) * 1.2, compute((9, 32)))


@pytest.mark.parametrize(("element", "folded"), [("f32", True), ("i32", True), ("i16", False)])
def test_cost_model_folds_the_broadcasts_the_pass_folds(element: str, folded: bool) -> None:
    # AVX-512's {1toN} broadcasts 32- and 64-bit elements only (register_tiling.
    # folds_into_multiply): an i16 matmul keeps the pass's two-vector exact tile.
    text = _matmul(64).replace("f32", element)
    if element != "f32":
        text = text.replace("0.0", "0").replace("mulf", "muli").replace("addf", "addi")
    buffers, summary = _summary(text)
    layouts = {b.name: parse_layout("AB->AB", b.shape, dtype=element) for b in buffers}
    lanes = 512 // int(element[1:])
    shape = tile_shape(summary, layouts[summary.lead], lanes, None, 32, embedded=True)
    assert (shape.vectors, shape.folded) == ((1, True) if folded else (2, False))
    remarks = layout_opt(text, "-p", "layout-schedule{target=avx512 remarks=true}").stderr
    assert f"loops (%j/{(1 if folded else 2) * lanes}, " in remarks


def test_cost_model_locality_term_follows_cache_sets() -> None:
    steps = 512**3 / (16 * 6)  # inner-loop steps of the 6x16 tile, one line of B each
    row_major = _matmul_estimate(512, (6, 16))
    # B row-major: rows 2 KB apart land in 2 of L1's 64 sets and 32 of L2's 1024 sets
    # (256 lines < 512 rows): every step misses L2
    assert math.isclose(row_major.locality, steps * 0.9e-9)
    # 32-column panels: 128 B apart, 32 sets of L1 (256 lines < 512), 512 sets of L2: L1 misses
    panels32 = _matmul_estimate(512, (6, 16), b="AB->BA32b", c="AB->BA32b")
    assert math.isclose(panels32.locality, steps * 0.35e-9)
    panels16 = _matmul_estimate(512, (6, 16), b="AB->BA16b", c="AB->BA16b")
    assert panels16.locality == 0 and panels16.seconds < panels32.seconds < row_major.seconds
    # 128 rows 2 KB apart need 128 lines: 16 fit in L1's 2 sets, 256 in L2's 32: L1 misses
    small = _matmul_estimate(128, (6, 16))
    assert math.isclose(small.locality, 128**3 / 96 * 0.35e-9)
    # column-major A walks k 2 KB apart too; its 6 rows of a column share one line
    assert math.isclose(_matmul_estimate(512, (6, 16), a="AB->BA").locality, 2 * steps * 0.9e-9)


NAMED = """
memref.global "private" constant @weights : memref<8x16xf32> = dense<0.5>
memref.global @public : memref<8x16xf32> = dense<0.25>
func.func @main(%a: memref<4x8xf32>, %c: memref<4x16xf32>) {
  %alloc = memref.alloc() : memref<4x16xf32>
  %alloc_0 = memref.alloc() : memref<4x16xf32>
  %w = memref.get_global @weights : memref<8x16xf32>
  %p = memref.get_global @public : memref<8x16xf32>
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      affine.store %zero, %alloc[%i, %j] : memref<4x16xf32>
      %q = affine.load %p[%i, %j] : memref<8x16xf32>
      affine.store %q, %alloc_0[%i, %j] : memref<4x16xf32>
    }
  }
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 8 {
        %x = affine.load %a[%i, %k] : memref<4x8xf32>
        %y = affine.load %w[%k, %j] : memref<8x16xf32>
        %z = affine.load %alloc[%i, %j] : memref<4x16xf32>
        %b = affine.load %alloc_0[%i, %j] : memref<4x16xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        %t = arith.addf %s, %b : f32
        affine.store %t, %alloc[%i, %j] : memref<4x16xf32>
      }
    }
  }
  memref.copy %alloc, %c : memref<4x16xf32> to memref<4x16xf32>
  func.return
}
"""


def test_every_buffer_has_its_own_name() -> None:
    # xDSL reads %alloc and %alloc_0 as one name hint, `alloc`; globals by their symbol
    function = find_function(load_module(NAMED), "main")
    assert list(buffer_values(function)) == ["a", "c", "alloc", "alloc_0", "@weights", "@public"]
    # the default buffers: those the hot nest touches, the public global left out
    assert [b.name for b in find_buffers(load_module(NAMED), "main")] == [
        "a",
        "alloc",
        "alloc_0",
        "@weights",
    ]


def test_a_name_that_repeats_in_other_regions_is_numbered() -> None:
    text = """
func.func @main(%n: memref<4xf32>) {
  affine.for %i = 0 to 2 {
    %x = memref.alloc() : memref<4xf32>
  }
  affine.for %i = 0 to 2 {
    %x = memref.alloc() : memref<4xf32>
  }
  %x_1 = memref.alloc() : memref<4xf32>
  func.return
}
"""
    function = find_function(load_module(text), "main")
    assert list(buffer_values(function)) == ["n", "x", "x_2", "x_1"]


def test_a_weight_global_gets_a_layout_and_checks() -> None:
    module = load_module(NAMED)
    program = with_layouts(module, "main", {"@weights": '#layout.tag<"AB->BA">'})
    assert "layout.assign %w" in str(program)
    lowered = str(apply_pipeline(program, "layout-lower"))
    assert "@weights : memref<16x8xf32> = dense<5.000000e-01>" in lowered
    report = heterolayout.check(str(program), pipeline="layout-lower", engine="interp")
    assert report.equal and report.compared > 0, str(report)


@pytest.mark.slow
def test_tune_names_allocations_and_weights(tmp_path: Path) -> None:
    timer = RecordingTimer()
    result = tune_nest(
        NAMED, ["alloc", "alloc_0", "@weights"], budget=1000, timer=timer, cache=Cache(tmp_path)
    )
    assert result.buffers == ["alloc", "alloc_0", "@weights"]
    # some measured candidates lay out the weights and the second allocation
    assert any("@weights : memref<16x8xf32>" in low for _, low in timer.seen)
    assert any(row.layouts["alloc_0"] != "AB->AB" for row in result.rows)
    out = tmp_path / "best.mlir"
    out.write_text(result.program)
    assert run_main([str(out), "--check", "-p", "layout-schedule{target=avx2},layout-lower"]) == 0


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "alloc_2",
            "no buffer named 'alloc_2' (buffers: a, c, alloc, alloc_0, @weights, @public)",
        ),
        ("@public", "buffer '@public' is not a private global"),
    ],
)
def test_cli_buffer_name_errors(tmp_path: Path, capsys, name: str, message: str) -> None:
    source = tmp_path / "named.mlir"
    source.write_text(NAMED)
    assert tune_main([str(source), "--buffer", "alloc", "--buffer", name]) == 1
    err = capsys.readouterr().err
    assert err == f"layout-tune: error: @main: {message}" + (
        ": its type is part of the module's interface\n" if name == "@public" else "\n"
    )
