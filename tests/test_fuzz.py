"""The differential fuzzer in the suite: a short seeded run, the saved regression cases, and
tests of the fuzzer itself (the generator's two renderings, its coverage, the outcome
classes). The long run is `benchmarks/fuzz.py`."""

from __future__ import annotations

from collections import Counter

import pytest
from fuzz.corpus import corpus_cases, load, save
from fuzz.functions import Site
from fuzz.layouts import GENERATORS
from fuzz.programs import Program, program_for_seed
from fuzz.runner import CaseResult, Outcome, _failure, compare, run_case
from xdsl.utils.exceptions import PassFailedException

SEEDS = range(10)
NATIVE_SEEDS = (10, 11)


def _describe(results: list[CaseResult]) -> str:
    return "\n".join(
        f"seed {r.program.seed}: {f.config}: {f.outcome.value}: {f.detail}"
        f"  (python benchmarks/fuzz.py --replay {r.program.seed})"
        for r in results
        for f in r.bugs()
    )


@pytest.mark.slow
def test_short_seeded_run_finds_no_bug() -> None:
    results = [run_case(program_for_seed(seed)) for seed in SEEDS]
    assert not any(r.bugs() for r in results), _describe(results)
    outcomes = Counter(f.outcome for r in results for f in r.findings)
    # the generator makes valid programs: most configurations run and agree
    assert outcomes[Outcome.EQUAL] >= 0.7 * sum(outcomes.values()), outcomes


@pytest.mark.slow
def test_seeded_cases_run_natively_like_the_reference(
    mlir_opt, mlir_runner, mlir_runner_libs
) -> None:
    results = [run_case(program_for_seed(seed), native=True) for seed in NATIVE_SEEDS]
    assert not any(r.bugs() for r in results), _describe(results)
    native = [f for r in results for f in r.findings if f.config.endswith("native")]
    assert native and all(f.outcome in (Outcome.EQUAL, Outcome.KNOWN) for f in native), native


@pytest.mark.parametrize("path", corpus_cases(), ids=lambda p: p.stem)
def test_saved_case(path) -> None:
    result = run_case(load(path))
    assert not result.bugs(), _describe([result])


# ---- the fuzzer itself ----------------------------------------------------------------------
def test_a_seed_gives_the_same_program_twice_and_a_plain_twin() -> None:
    program = program_for_seed(7)
    assert program_for_seed(7) == program
    assert "#layout" in program.text or "layout.assign" in program.text
    assert "layout" not in program.plain and "strided<" not in program.plain
    assert "affine_map<(d0" not in program.plain.replace("affine.apply affine_map<(d0)", "")


def test_generator_covers_every_layout_kind_and_program_feature() -> None:
    features: Counter[str] = Counter()
    for seed in range(300):
        features.update(program_for_seed(seed).features)
    kinds = {k if k != "packed" else p for k in GENERATORS for p in ("packed-int", "packed-vector")}
    missing = [k for k in kinds if features[f"layout {k}"] == 0]
    assert not missing, missing
    wanted = [
        "scf.for iter_args",
        "affine.for iter_args",
        "scf.if result else",
        "func.call",
        "memref.cast",
        "memref.copy",
        "layout.convert",
        "vector.load",
        "vector.store",
        "affine.vector_load",
        "affine.vector_store",
        "memref.global",
        "memref.global constant",
        "loop to memref.dim",
        "call through a converted temporary",
        "memref.alloca",
    ]
    assert not [w for w in wanted if features[w] == 0], [w for w in wanted if features[w] == 0]


def _program(text: str, plain: str, sites: tuple[Site, ...] = ()) -> Program:
    return Program(None, text, plain, sites, frozenset(), "f32")


PRINTS_2 = """func.func @main() {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  %v = arith.constant 2.0 : f32
  memref.store %v, %a[%c0] : memref<4xf32>
  LAYOUT
  %w = memref.load %a[%c0] : memref<4xf32>
  "vector.print"(%w) : (f32) -> ()
  memref.dealloc %a : memref<4xf32>
  func.return
}
"""


def test_outcome_classes() -> None:
    plain = PRINTS_2.replace("LAYOUT", "")
    assigned = PRINTS_2.replace(
        "LAYOUT", 'layout.assign %a to #layout.tag<"A->2aA"> : memref<4xf32>'
    )
    site = Site("@main", 'memref<4xf32, #layout.tag<"A->2aA">>', "assign")
    good = run_case(_program(assigned, plain, (site,)))
    # unlowered and the first option set on both engines, the others on the compiled one
    assert good.outcome is Outcome.EQUAL and len(good.findings) == 2 + 2 + 4, good.findings
    # a layout the program never puts anywhere is reported as dropped
    missing = Site("@main", 'memref<4xf32, #layout.tag<"A->A3a">>', "assign")
    dropped = run_case(_program(assigned, plain, (missing,)))
    assert dropped.outcome is Outcome.DROP
    assert {f.config for f in dropped.findings if f.outcome is Outcome.DROP} == {
        "apply",
        "arith",
        "affine",
        "flat",
        "affine-flat",
        "schedule",
    }
    wrong = run_case(_program(assigned.replace("2.0", "3.0"), plain))
    assert wrong.outcome is Outcome.WRONG and "'3', reference '2'" in wrong.bugs()[0].detail
    refused = run_case(_program(assigned.replace('"A->2aA"', '"A->0aA"'), plain))
    assert refused.outcome is Outcome.REFUSAL
    broken = run_case(_program(plain, "this is not MLIR"))
    assert broken.outcome is Outcome.GENERATOR
    assert _failure(PassFailedException("layout-lower: no"))[0] is Outcome.REFUSAL
    assert _failure(KeyError("x"))[0] is Outcome.INTERNAL
    result = CaseResult(good.program)
    compare(result, "x", "1\n2\n", "1\n3\n")
    assert result.findings[0].detail == "printed line 2: '2', reference '3'"


def test_saved_case_reads_back(tmp_path) -> None:
    program = program_for_seed(3)
    path = save(program, tmp_path, note="a note")
    loaded = load(path)
    assert loaded.sites == program.sites and loaded.plain == program.plain
    assert loaded.text.endswith(program.text) and loaded.element == program.element
