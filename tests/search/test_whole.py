"""The whole-program layout search (`heterolayout.tune`, `layout-tune` without
`--hot-nest`): the program's graph and names, the candidates by role, the global choice
against exhaustive enumeration under the same (injected) costs, the never-worse rule, the
report, the CLI. No timing thresholds: costs are injected, and the end-to-end tests only
check that the winner runs and computes what the input does."""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import random
import re
from pathlib import Path
from xml.sax.saxutils import escape

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.execution.engines import load_module
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.search import solve
from heterolayout.search.candidates import program_candidates
from heterolayout.search.graph import ProgramBuffer, ProgramNest, nest_module, read_graph
from heterolayout.search.measure import Cache
from heterolayout.search.program_report import write_report
from heterolayout.search.solve import Factor, eliminate, exhaustive
from heterolayout.search.whole import build_problem, program_with, tune
from heterolayout.tools.run import main as run_main
from heterolayout.tools.tune import main as tune_main
from tests.mlir_tools import require_native_engine

PROGRAM = """
memref.global "private" constant @w1 : memref<16x32xf32> = dense<0.5>
memref.global "private" constant @w2 : memref<32x16xf32> = dense<0.25>
memref.global @public : memref<16xf32> = dense<1.0>
func.func @main(%x: memref<8x16xf32>, %y: memref<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %0 = memref.get_global @w1 : memref<16x32xf32>
  %1 = memref.get_global @w2 : memref<32x16xf32>
  %2 = memref.get_global @public : memref<16xf32>
  %alloc = memref.alloc() : memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%alloc : memref<8x32xf32>)
  linalg.matmul ins(%x, %0 : memref<8x16xf32>, memref<16x32xf32>) outs(%alloc : memref<8x32xf32>)
  %alloc_0 = memref.alloc() : memref<8x32xf32>
  memref.copy %alloc, %alloc_0 : memref<8x32xf32> to memref<8x32xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<8x16xf32>)
  linalg.matmul ins(%alloc_0, %1 : memref<8x32xf32>, memref<32x16xf32>) outs(%y : memref<8x16xf32>)
  memref.dealloc %alloc : memref<8x32xf32>
  memref.dealloc %alloc_0 : memref<8x32xf32>
  func.return
}
"""


class FakeCosts:
    """Deterministic costs from a hash of what is costed; `program` returns the times
    given by name of the program's layouts, else the sum the search predicts."""

    def __init__(self, programs: dict[str, float] | None = None) -> None:
        self.programs = programs or {}
        self.nests = 0

    @staticmethod
    def _hash(text: str) -> float:
        return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) / 2**32

    def nest(self, nest: ProgramNest, layouts: dict[str, str]) -> float:
        self.nests += 1
        return 1e-6 * (1 + self._hash(f"{nest.key}{sorted(layouts.items())}"))

    def boundary(self, buffer: ProgramBuffer, spec: str) -> float:
        return 1e-7 * self._hash(f"{buffer.name}{spec}")

    def tiled(self, nest: ProgramNest, layouts: dict[str, str], hint: object) -> float:
        if hint is None:
            return self.nest(nest, layouts)
        return 1e-6 * (1 + self._hash(f"{nest.key}{sorted(layouts.items())}{hint}"))

    def program(self, source: ModuleOp, entry: str) -> float:
        text = str(source)
        for marker, seconds in self.programs.items():
            if marker in text:
                return seconds
        return 1e-3 + self._hash(text) * 1e-4


def test_every_buffer_is_named_and_every_nest_found() -> None:
    graph = read_graph(load_module(PROGRAM))
    assert list(graph.buffers) == ["x", "y", "alloc", "alloc_0", "@w1", "@w2", "@public"]
    assert [n.name for n in graph.nests] == [
        "n0 fill",
        "n1 matmul",
        "n2 memref.copy",
        "n3 fill",
        "n4 matmul",
    ]
    assert graph.nests[1].buffers == ("x", "@w1", "alloc")
    assert graph.nests[1].written == {"alloc"}
    assert graph.buffers["@w1"].role == "matmul weights"
    assert graph.buffers["@w2"].role == "matmul weights"
    assert graph.buffers["x"].role == "activation"
    assert graph.buffers["@public"].refusal.startswith("is not a private global")
    assert not graph.buffers["x"].written and graph.buffers["y"].written


def test_identical_nests_share_their_text_and_take_layout_typed_arguments() -> None:
    graph = read_graph(load_module(PROGRAM))
    fills = [n for n in graph.nests if n.label == "linalg.fill"]
    assert fills[0].key != fills[1].key  # 8x32 and 8x16
    alone = nest_module(graph.nests[1], {"@w1": '#layout.tag<"KN->Nk8n">'})
    assert 'memref<16x32xf32, #layout.tag<"KN->Nk8n">>' in str(alone)
    assert "memref.get_global" not in str(alone)


def test_an_upstream_strided_argument_is_a_buffer_to_tune() -> None:
    text = PROGRAM.replace(
        "%x: memref<8x16xf32>", "%x: memref<8x16xf32, strided<[?, ?], offset: ?>>"
    ).replace(
        "ins(%x, %0 : memref<8x16xf32>,",
        "ins(%x, %0 : memref<8x16xf32, strided<[?, ?], offset: ?>>,",
    )
    graph = read_graph(load_module(text))
    assert graph.buffers["x"].tunable
    program = program_with(
        load_module(text), "main", {"x": _option("blocked", '#layout.tag<"AB->BA">')}
    )
    assert 'layout.assign %x to #layout.tag<"AB->BA">' in str(program)


def _option(kind: str, spec: str):
    from heterolayout.search.whole import Option

    return Option(kind, spec, spec)


def test_candidates_by_role_follow_onednn() -> None:
    def labels(shape, role, every_block=False):
        found = program_candidates(shape, "f32", role, (16, 8), every_block=every_block)
        return [c.label for c in found]

    assert labels((1, 32, 10, 10), "activation") == ["ABCD->ABCD", "NCHW->nChw16c"]
    assert labels((1, 32, 10, 10), "activation", True) == [
        "ABCD->ABCD",
        "NCHW->nChw16c",
        "NCHW->nChw8c",
    ]
    # 8 channels in blocks of 16 would be half padding: only the block of 8
    assert labels((8, 8, 3, 3), "conv weights") == ["ABCD->ABCD", "OIHW->OIhw8i8o"]
    assert labels((32, 1, 3, 3), "conv weights")[1] == "OIHW->OIhw16o"
    assert labels((16, 32), "matmul weights") == ["AB->AB", "KN->Nk16n"]
    assert labels((32,), "weights") == ["A->A"]


def _random_problem(rng: random.Random) -> tuple[dict[str, int], list[Factor]]:
    names = [f"v{i}" for i in range(rng.randint(2, 6))]
    domains = {n: rng.randint(1, 3) for n in names}
    factors = []
    for _ in range(rng.randint(1, 7)):
        scope = tuple(rng.sample(names, rng.randint(1, min(3, len(names)))))
        table = {
            values: rng.choice([math.inf] if rng.random() < 0.05 else [rng.random()])
            for values in itertools.product(*(range(domains[v]) for v in scope))
        }
        factors.append(Factor(scope, table))
    return domains, factors


@pytest.mark.parametrize("seed", range(40))
def test_variable_elimination_finds_the_exhaustive_optimum(seed: int) -> None:
    domains, factors = _random_problem(random.Random(seed))
    exact = exhaustive(domains, factors)
    found = eliminate(domains, factors)
    assert found.cost == pytest.approx(exact.cost) or found.cost == exact.cost == math.inf
    assert solve.total(factors, found.assignment) == pytest.approx(found.cost)


def test_past_the_table_limit_conditional_modes_improve_on_the_starts(monkeypatch) -> None:
    domains, factors = _random_problem(random.Random(7))
    monkeypatch.setattr(solve, "MAX_TABLE", 1)
    start = {v: 0 for v in domains}
    found = solve.solve(domains, factors, [start])
    assert found.method.startswith("iterated conditional modes")
    assert found.cost <= solve.total(factors, start)
    assert found.cost >= exhaustive(domains, factors).cost


def test_the_search_equals_exhaustive_enumeration_under_the_same_costs() -> None:
    costs = FakeCosts()
    problem = build_problem(load_module(PROGRAM), "main", None, "avx512", costs)
    variables = problem.search.variables
    assert {"alloc", "alloc_0", "@w1", "@w2"} <= set(variables)
    exact = exhaustive(variables, problem.factors)
    result = tune(PROGRAM, target="avx512", costs=FakeCosts())
    searched = result.contender("searched")
    assert searched is not None
    assert searched.predicted_ms == pytest.approx(exact.cost * 1e3)
    assert result.method == "variable elimination (exact)"


def test_the_winner_is_the_fastest_whole_program_and_never_worse_than_the_input() -> None:
    # the program as written measures fastest: it wins, unchanged
    result = tune(PROGRAM, target="avx512", costs=FakeCosts({"layout.assign": 1.0}))
    assert result.winner.name in ("as written", "as written, tiled")
    assert "layout.assign" not in result.program
    assert all(c.ms >= result.winner.ms for c in result.contenders)
    # a laid-out program measures fastest: the searched or a uniform one wins
    result = tune(PROGRAM, target="avx512", costs=FakeCosts({"Nk": 1e-6}))
    assert result.winner.name.removesuffix(", tiled") in ("searched", "all blocked")
    assert "layout.assign" in result.program


def test_only_the_named_buffers_are_tuned() -> None:
    result = tune(PROGRAM, ["@w1"], target="avx512", costs=FakeCosts({"Nk": 1e-6}))
    candidates = {b["buffer"]: b["candidates"] for b in result.buffers}
    assert len(candidates["@w1"]) > 1
    assert candidates["alloc"] == ["as written"] and candidates["@w2"] == ["as written"]


@pytest.mark.parametrize(
    ("names", "message"),
    [
        (["z"], "no buffer named 'z' (buffers: x, y, alloc, alloc_0, @w1, @w2, @public)"),
        (["@public"], "buffer '@public' is not a private global"),
    ],
)
def test_buffer_name_errors(names: list[str], message: str) -> None:
    with pytest.raises(heterolayout.LayoutError, match=re.escape(message)):
        tune(PROGRAM, names, costs=FakeCosts())


def test_the_report_has_every_table_and_a_log_scale_plot(tmp_path: Path) -> None:
    result = tune(PROGRAM, target="avx512", costs=FakeCosts({"Nk": 1e-6}))
    write_report(result, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "graph.svg",
        "plot.svg",
        "table.json",
        "table.md",
    ]
    data = json.loads((tmp_path / "table.json").read_text())
    assert [b["buffer"] for b in data["buffers"]] == list(read_graph(load_module(PROGRAM)).buffers)
    assert {n["nest"] for n in data["nests"]} >= {"n1 matmul", "n4 matmul"}
    assert "log scale" in (tmp_path / "plot.svg").read_text()
    graph = (tmp_path / "graph.svg").read_text()
    chosen = {b["buffer"]: b["chosen"] for b in data["buffers"]}
    assert escape(f"@w1: {chosen['@w1']}") in graph
    table = (tmp_path / "table.md").read_text()
    assert "where the winner's time goes" in table and "boundary" in table


def test_measured_search_of_a_small_program_runs_and_checks(tmp_path: Path) -> None:
    require_native_engine()
    result = tune(PROGRAM, cache=Cache(tmp_path / "cache"))
    out = tmp_path / "best.mlir"
    out.write_text(result.program)
    assert result.program.startswith(f"// layout-tune: layout-opt -p '{result.pipeline}'\n")
    assert run_main([str(out), "--check", "--engine", "native", "-p", result.pipeline]) == 0
    assert all(c.ms >= result.winner.ms for c in result.contenders)


def test_cli_writes_the_winner_and_the_report(tmp_path: Path, monkeypatch, capsys) -> None:
    require_native_engine()
    monkeypatch.setenv("HETEROLAYOUT_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "program.mlir"
    source.write_text(PROGRAM)
    out, report = tmp_path / "out.mlir", tmp_path / "report"
    code = tune_main([str(source), "-o", str(out), "--report", str(report)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "| buffer |" in captured.out and "whole program: searched" in captured.err
    assert (report / "graph.svg").read_text().startswith("<svg")
    assert run_main([str(out), "--check", "--engine", "native"]) == 0


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--buffer", "d"], "no buffer named 'd'"),
        (["--budget", "3"], "--budget and --tile belong to --hot-nest"),
        (["--target", "gpu"], "unknown target 'gpu'"),
    ],
)
def test_cli_errors_are_one_line(tmp_path: Path, capsys, arguments, message) -> None:
    source = tmp_path / "program.mlir"
    source.write_text(PROGRAM)
    assert tune_main([str(source), *arguments]) == 1
    err = capsys.readouterr().err
    assert err.startswith("layout-tune: error: ") and message in err
    assert err.count("\n") == 1


def test_cli_error_without_a_nest(tmp_path: Path, capsys) -> None:
    source = tmp_path / "flat.mlir"
    source.write_text("func.func @main(%a: memref<4xf32>) {\n  func.return\n}\n")
    assert tune_main([str(source)]) == 1
    assert capsys.readouterr().err == (
        "layout-tune: error: @main: no nest reads or writes a buffer\n"
    )


@pytest.mark.slow
def test_an_imported_mlp_is_tuned_whole_and_matches_onnxruntime(tmp_path: Path) -> None:
    from tests.onnx_models import mlp, onnxruntime_outputs, random_input, require_frontend

    require_frontend()
    model = mlp(widths=(8, 16, 6))
    text = heterolayout.import_model(model)
    result = heterolayout.tune(text, fast_math=True, cache=Cache(tmp_path))
    names = set(read_graph(load_module(text)).buffers)
    assert {b["buffer"] for b in result.buffers} == names
    assert any(name.startswith("@") for name in names)
    x = random_input((4, 8))
    lowered = apply_pipeline(parse_program(result.program), result.pipeline)
    outputs = heterolayout.run(lowered, {"x": x}, engine="native")
    np.testing.assert_allclose(
        outputs["y"], onnxruntime_outputs(model, {"x": x})["y"], rtol=1e-4, atol=1e-5
    )


class TiledCosts(FakeCosts):
    """A tile on a nest costs `factor` times the pass's own; a program with a
    `layout.schedule` op measures `tiled_ms`."""

    def __init__(self, factor: float, tiled_ms: float) -> None:
        super().__init__({"layout.schedule": tiled_ms * 1e-3})
        self.factor = factor
        self.hints: list[object] = []

    def tiled(self, nest: ProgramNest, layouts: dict[str, str], hint: object) -> float:
        if hint is not None:
            self.hints.append(hint)
        return self.nest(nest, layouts) * (1 if hint is None else self.factor)


def test_each_nest_gets_the_tile_that_runs_it_fastest() -> None:
    """Both matmuls have reduction loops: their generated tiles are tried; faster ones go
    in `layout.schedule` ops on the buffers they store to, and the tiled program, measured
    faster whole, wins; the report names each nest's schedule."""
    costs = TiledCosts(factor=0.5, tiled_ms=1e-3)
    result = tune(PROGRAM, target="avx512", costs=costs)
    assert costs.hints and {h[0] for h in costs.hints} == {"alloc", "y"}  # type: ignore[index]
    assert result.winner.name.endswith(", tiled")
    assert result.program.count("layout.schedule") == 2
    schedules = {n["nest"]: n["schedule"] for n in result.nests if "matmul" in n["nest"]}
    assert len(schedules) == 2 and all(s.startswith("tile ") for s in schedules.values())


@pytest.mark.parametrize(("factor", "tiled_ms"), [(0.99, 1e-3), (0.5, 1e3)])
def test_a_tile_stays_out_unless_it_wins_alone_and_whole(factor: float, tiled_ms: float) -> None:
    """Within 3% of the pass's own alone, or slower whole: the pass's own schedule."""
    result = tune(PROGRAM, target="avx512", costs=TiledCosts(factor, tiled_ms))
    assert not result.winner.name.endswith(", tiled")
    assert "layout.schedule" not in result.program
    assert all(n.get("schedule", "default tile") == "default tile" for n in result.nests)


@pytest.mark.parametrize(("first", "second"), [("%alloc_3", "%alloc_4"), ("%7", "%9")])
def test_tiles_reach_buffers_by_the_names_the_file_spells(first: str, second: str) -> None:
    """`%alloc_3` is a name xDSL keeps only as the file's spelling, `%7` none (the search
    calls it `alloc<i>`); the tiles still land on them in the winner's program."""
    renamed = PROGRAM.replace("%alloc_0", second).replace("%alloc", first)
    result = tune(renamed, target="avx512", costs=TiledCosts(factor=0.5, tiled_ms=1e-3))
    assert result.winner.name.endswith(", tiled")
    assert result.program.count("layout.schedule") == 2
