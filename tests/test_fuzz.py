"""The differential fuzzer in the suite: a short seeded run, the saved regression cases, and
tests of the fuzzer itself (the generator's two renderings, its coverage, the outcome
classes). The long run is `benchmarks/fuzz.py`."""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest
from xdsl.utils.exceptions import PassFailedException

from heterolayout.dialects.context import make_context, parse_program
from heterolayout.passes.remarks import remarks_collected
from tests.fuzz.choices import SeededChoices
from tests.fuzz.corpus import corpus_cases, load, save
from tests.fuzz.functions import Site
from tests.fuzz.layouts import GENERATORS, cyclic
from tests.fuzz.models import LAYERS, random_model
from tests.fuzz.programs import LARGE_LOGICAL, Program, large_shape, program_for_seed
from tests.fuzz.runner import (
    OPTIONS,
    SCHEDULES,
    CaseResult,
    Outcome,
    _failure,
    _lowered,
    compare,
    narrow_vector_accesses,
    rotating_options,
    run_case,
)
from tests.onnx_models import require_frontend

SEEDS = range(20)
NATIVE_SEEDS = (11, 17, 21, 24)
"""Through stock upstream MLIR too: sub-byte vector accesses (11, 24), linalg ops into an
argument and a subview with bit counts over packed i1 that `layout-schedule` makes whole-word
(17; its plain twin, scheduled, vectorizes an `i1` map on a subview: `plain-schedule/native`
printed 31 for 1 before `layout.by_element`), a depthwise convolution and a fill into
arguments (21)."""
NEW_PATHS = (
    "linalg.generic",
    "linalg.fill",
    "linalg.transpose",
    "linalg.reduce",
    "memref.subview",
    "written by linalg only",
    "sub-byte vector.load",
    "sub-byte vector.store",
    "nest map",
    "large buffer",
    "layout cyclic",
)
"""Paths of issue 26 the short seeded run must take."""


def _describe(results: list[CaseResult]) -> str:
    return "\n".join(
        f"seed {r.program.seed}: {f.config}: {f.outcome.value}: {f.detail}"
        f"  (python -m benchmarks.fuzz --replay {r.program.seed})"
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
    taken = set().union(*(r.program.features for r in results))
    assert not [p for p in NEW_PATHS if p not in taken], [p for p in NEW_PATHS if p not in taken]


@pytest.mark.slow
def test_seeded_cases_run_natively_like_the_reference(
    mlir_opt, mlir_runner, mlir_runner_libs
) -> None:
    results = [run_case(program_for_seed(seed), native=True) for seed in NATIVE_SEEDS]
    assert not any(r.bugs() for r in results), _describe(results)
    native = [f for r in results for f in r.findings if f.config.endswith("native")]
    assert native and all(f.outcome in (Outcome.EQUAL, Outcome.KNOWN) for f in native), native
    # every lowered option set went through stock upstream, for each case
    for result in results:
        assert len({f.config for f in result.findings if f.config.endswith("/native")}) >= 5


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_cases(), ids=lambda p: p.stem)
def test_saved_case(path, request) -> None:
    case = load(path)
    if case.native:  # its finding shows under stock upstream only
        for fixture in ("mlir_opt", "mlir_runner", "mlir_runner_libs"):
            request.getfixturevalue(fixture)
    result = run_case(case, native=case.native)
    assert not result.bugs(), _describe([result])


# ---- the fuzzer itself ----------------------------------------------------------------------
def test_a_seed_gives_the_same_program_twice_and_a_plain_twin() -> None:
    program = program_for_seed(7)
    assert program_for_seed(7) == program
    assert "#layout" in program.text or "layout.assign" in program.text
    assert "layout" not in program.plain and "strided<" not in program.plain
    assert "affine_map<(d0" not in program.plain.replace("affine.apply affine_map<(d0)", "")


@pytest.mark.slow
def test_generator_covers_every_layout_kind_and_program_feature() -> None:
    features: Counter[str] = Counter()
    for seed in range(400):
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
        # issue 26: linalg (named and generic) into arguments, allocations and views
        "linalg.fill",
        "linalg.copy",
        "linalg.generic",
        "linalg.index",
        "linalg.transpose",
        "linalg.reduce",
        "linalg.broadcast",
        "linalg.matmul",
        "linalg.batch_matmul",
        "linalg.conv_2d_nchw_fchw",
        "linalg.conv_2d_nhwc_hwcf",
        "linalg.depthwise_conv_2d_nchw_chw",
        "linalg named elementwise",
        "memref.subview",
        "memref.subview run-time offset",
        "written by linalg only",
        # sub-byte vector accesses, packed words, buffers of the tiled paths' size
        "sub-byte vector.load",
        "sub-byte vector.store",
        "sub-byte affine.vector_load",
        "sub-byte affine.vector_store",
        "nest map",
        "nest map i1",
        "nest count i1",
        "nest on packed i1",
        "nest matmul",
        "nest convolution",
        "nest row",
        "nest epilogue",
        "nest contraction into an argument",
        "large buffer",
    ]
    assert not [w for w in wanted if features[w] == 0], [w for w in wanted if features[w] == 0]
    assert features["layout packed-int"] and features["layout packed-vector"]


def test_large_shapes_and_cyclic_maps() -> None:
    """Large buffers reach the tiled conversions' size; cyclic maps end on a floordiv."""
    c = SeededChoices(0)
    for rank in (1, 2, 3, 4):
        for _ in range(20):
            shape = large_shape(c, rank)
            assert LARGE_LOGICAL[0] <= math.prod(shape) <= LARGE_LOGICAL[1], shape
    floordiv_innermost = 0
    for seed in range(40):
        found = cyclic(SeededChoices(seed), (64, 128), "f32", 1 << 15)
        assert found is not None and found.kind == "cyclic"
        results = re.search(r"-> \((.*)\)>", found.text)
        assert results is not None and " mod " in results[1], found.text
        floordiv_innermost += "floordiv" in results[1].split(", ")[-1]
    assert floordiv_innermost > 20  # usually the shape


def test_schedule_makes_whole_words_of_generated_nests() -> None:
    """Some generated nests over packed i1 become word-level code under `layout-schedule`:
    a `math.ctpop` per container (bit counts) and whole-container stores (maps)."""
    counted = mapped = False
    for seed in range(300):
        program = program_for_seed(seed)
        if "nest on packed i1" not in program.features:
            continue
        lowered = str(_lowered(parse_program(program.text), "schedule", validate=False))
        counted |= "math.ctpop" in lowered
        mapped |= bool(re.search(r"vector\.bitcast %\w+ : vector<\d+xi1> to", lowered))
        if counted and mapped:
            return
    raise AssertionError(f"whole words in 300 seeds: ctpop {counted}, container maps {mapped}")


CONTRACTIONS = ("nest matmul", "nest convolution", "nest row")


def test_fast_schedule_reorders_generated_contractions() -> None:
    """Some generated contractions get what only `fma=true reassociate=true` gives: fused
    multiply-adds, partial sums along a reduction, sums added in blocks."""
    wanted = {"vector.fma": False, "vector.reduction": False, "blocks": False}
    for seed in range(600):
        program = program_for_seed(seed)
        if not any(f.startswith(CONTRACTIONS) for f in program.features):
            continue
        module = parse_program(program.text)
        remarks: list[str] = []
        with remarks_collected(remarks):
            SCHEDULES["fast"].apply(make_context(), module)
        scheduled = str(module)
        wanted["vector.fma"] |= "vector.fma" in scheduled
        wanted["vector.reduction"] |= "vector.reduction" in scheduled
        wanted["blocks"] |= any("summed in blocks of" in r for r in remarks)
        if all(wanted.values()):
            return
    raise AssertionError(f"in 600 seeds: {wanted}")


def test_generated_programs_get_gathered_reads() -> None:
    """Some generated nests vectorize only by gathering a read lane by lane (random layouts
    make reads that walk no contiguous run along the vector loop): the fuzzer checks that
    path too."""
    for seed in range(300):
        module = parse_program(program_for_seed(seed).text)
        remarks: list[str] = []
        with remarks_collected(remarks):
            SCHEDULES["schedule"].apply(make_context(), module)
        if any("gathered lane by lane" in r for r in remarks):
            assert "vector.from_elements" in str(module)
            return
    raise AssertionError("no gathered read in 300 seeds")


def test_random_models_cover_every_layer_and_are_reproducible() -> None:
    """The model generator reaches every CNN layer kind and both model kinds within 120
    seeds, each a valid ONNX model, and a seed gives the same model twice."""
    require_frontend()
    drawn = [random_model(seed) for seed in range(120)]
    assert {d.kind for d in drawn} == {"cnn", "encoder"}
    assert set(LAYERS) <= {layer for d in drawn for layer in d.layers}
    again = random_model(11)
    assert again.model.SerializeToString() == drawn[11].model.SerializeToString()
    assert random_model(11, scale=2).shape != drawn[11].shape


@pytest.mark.parametrize("every", [1, 2, 3, 5, 10])
def test_natively_run_seeds_meet_every_option_set(every: int) -> None:
    met = {rotating_options(seed)[0] for seed in range(0, 40 * every, every)}
    assert met == set(OPTIONS) - {"arith"}, met


def test_sub_byte_vector_accesses_are_recognised() -> None:
    assert narrow_vector_accesses("%v = vector.load %a[%c0] : memref<16xi4>, vector<4xi4>")
    assert narrow_vector_accesses("affine.vector_store %v, %a[0] : memref<8xi1>, vector<2xi1>")
    assert not narrow_vector_accesses("%v = vector.load %a[%c0] : memref<16xi8>, vector<4xi8>")
    assert not narrow_vector_accesses("%v = memref.load %a[%c0] : memref<16xi4>")


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
    assert good.outcome is Outcome.EQUAL and len(good.findings) == 2 + 2 + 5, good.findings
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
        "fast",
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


def test_a_copy_from_a_strided_layout_into_a_dynamic_buffer_stays_static() -> None:
    """A strided layout has a static shape: the copy's common shape keeps its dims static
    (seed 1160 cast the source to `?` and the program did not verify)."""
    program = program_for_seed(1160)
    assert "#layout.strided" in program.text
    parse_program(program.text)
