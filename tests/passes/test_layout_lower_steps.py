"""`layout-lower` as a pipeline of named steps: the pipelines run them one by one and verify
between them (not after a step that changed nothing), a step that leaves invalid IR is
named as it is caught, and the lowering step walks the module once when there is nothing
to prepare."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from unittest.mock import patch

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from heterolayout.dialects.context import make_context, parse_program
from heterolayout.passes import pipeline
from heterolayout.passes.lower.layout_cleanup import LayoutCleanupPass
from heterolayout.passes.lower.layout_lower import LayoutLowerPass
from heterolayout.passes.lower.layout_lower_memrefs import LayoutLowerMemrefsPass
from heterolayout.passes.packed.layout_sub_byte_accesses import WITHOUT_LAYOUTS
from heterolayout.passes.pipeline import apply_pipeline, with_steps
from heterolayout.passes.unchanged import left_unchanged, unchanged_by
from heterolayout.tools.opt import main as layout_opt
from tests import planted_bugs

STEPS = [
    "layout-erase-hints",
    "layout-apply",
    "layout-fold-converts",
    "layout-lower-memrefs",
    "layout-cleanup",
    "layout-guard-misfolds",
    "layout-sub-byte-accesses",
]

TILED = """
#tiled = affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>
func.func @load(%A: memref<8x8xf32, #tiled>, %i: index) -> f32 {
  %x = memref.load %A[%i, %i] : memref<8x8xf32, #tiled>
  func.return %x : f32
}
"""

EVERY_STEP = """
func.func @steps(%in: memref<16xf32>, %out: memref<16xf32>, %i: index) -> f32 {
  %t = memref.alloc() : memref<16xf32>
  layout.assign %t to #layout.tag<"W->W4w"> : memref<16xf32>
  layout.schedule %t {skip} : memref<16xf32>
  layout.convert %in to %t : memref<16xf32> to memref<16xf32>
  %x = memref.load %t[%i] : memref<16xf32>
  %b = memref.alloc() : memref<16xf32, #layout.tag<"W->W8w">>
  layout.convert %out to %b : memref<16xf32> to memref<16xf32, #layout.tag<"W->W8w">>
  layout.convert %b to %out : memref<16xf32, #layout.tag<"W->W8w">> to memref<16xf32>
  memref.dealloc %b : memref<16xf32, #layout.tag<"W->W8w">>
  memref.dealloc %t : memref<16xf32>
  func.return %x : f32
}
"""

CARRIED_VIEW = """
#tiled = affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>
func.func @carried(%A: memref<8x8xf32, #tiled>, %c: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %v = scf.if %c -> (memref<4x4xf32, strided<[8, 1]>>) {
    %a = memref.subview %A[0, 0] [4, 4] [1, 1] : memref<8x8xf32, #tiled> to memref<4x4xf32, strided<[8, 1]>>
    scf.yield %a : memref<4x4xf32, strided<[8, 1]>>
  } else {
    %b = memref.subview %A[0, 4] [4, 4] [1, 1] : memref<8x8xf32, #tiled> to memref<4x4xf32, strided<[8, 1], offset: 4>>
    %d = memref.cast %b : memref<4x4xf32, strided<[8, 1], offset: 4>> to memref<4x4xf32, strided<[8, 1]>>
    scf.yield %d : memref<4x4xf32, strided<[8, 1]>>
  }
  %x = memref.load %v[%c0, %c0] : memref<4x4xf32, strided<[8, 1]>>
  func.return %x : f32
}
"""


def test_layout_lower_is_its_steps_in_order() -> None:
    assert [s.name for s in LayoutLowerPass().steps()] == STEPS
    options = LayoutLowerPass(index="affine", flatten=True, validate="verbose", convert="gpu")
    assert options.steps()[3] == LayoutLowerMemrefsPass("affine", True, "verbose", "gpu")
    assert [s.name for s in with_steps([LayoutCleanupPass(), options])] == [
        "layout-cleanup",
        *STEPS,
    ]


@pytest.mark.parametrize("program", [TILED, EVERY_STEP, CARRIED_VIEW])
def test_one_pass_lowers_as_the_steps_do(program: str) -> None:
    """`LayoutLowerPass.apply` (plain xdsl-opt) and the steps verified one by one agree."""
    module = parse_program(program)
    stepped = apply_pipeline(module, "layout-lower")
    LayoutLowerPass().apply(make_context(), module)
    assert str(module) == str(stepped)


WITHOUT_LAYOUTS_PROGRAM = """
func.func @bits(%a: memref<64xi1>, %i: index) -> vector<64xi1> {
  %v = vector.load %a[%i] : memref<64xi1>, vector<64xi1>
  func.return %v : vector<64xi1>
}
"""


def test_a_module_without_layouts_is_left_as_it_was() -> None:
    """The note of the first step is gone after the last, in both ways of running them."""
    module = parse_program(WITHOUT_LAYOUTS_PROGRAM)
    stepped = apply_pipeline(module, "layout-lower")
    LayoutLowerPass().apply(make_context(), module)
    for lowered in (module, stepped):
        assert WITHOUT_LAYOUTS not in lowered.attributes
        assert str(lowered) == str(parse_program(WITHOUT_LAYOUTS_PROGRAM))


@pytest.fixture
def verified_after(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The passes and steps `apply_pipeline` verifies the module after, in order."""
    names: list[str] = []
    real = pipeline.naming_the_pass

    def spy(done: ModulePass | None) -> object:
        assert done is not None
        names.append(done.name)
        return real(done)

    monkeypatch.setattr(pipeline, "naming_the_pass", spy)
    yield names


@pytest.mark.parametrize(
    ("program", "changed"),
    [
        (TILED, ["layout-lower-memrefs"]),
        (EVERY_STEP, STEPS[:5]),  # the misfold guard and the sub-byte step find nothing
    ],
)
def test_verified_after_each_step_that_changed_the_module(
    program: str, changed: list[str], verified_after: list[str]
) -> None:
    apply_pipeline(parse_program(program), "layout-lower")
    assert verified_after == changed


def test_unchanged_is_said_of_one_pass_and_module_once() -> None:
    module, other = ModuleOp([]), ModuleOp([])
    done, next_one = LayoutCleanupPass(), LayoutCleanupPass(all=True)
    left_unchanged(done, module)
    assert not unchanged_by(next_one, module)  # another pass: and the word is forgotten
    left_unchanged(done, module)
    assert not unchanged_by(done, other)
    left_unchanged(done, module)
    assert unchanged_by(done, module)
    assert not unchanged_by(done, module)


def test_invalid_ir_of_a_step_is_caught_right_after_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A planted bug makes `layout-lower-memrefs` leave IR that does not verify: layout-opt
    stops right after that step, names it and the op, and runs no step after it."""
    source = tmp_path / "tiled.mlir"
    source.write_text(TILED)
    cleanups: list[ModuleOp] = []
    real_cleanup = LayoutCleanupPass.apply

    def cleanup(self: LayoutCleanupPass, ctx: object, op: ModuleOp) -> None:
        cleanups.append(op)
        real_cleanup(self, ctx, op)  # type: ignore[arg-type]

    with (
        planted_bugs.definitions_keep_logical_shapes(),
        patch.object(LayoutCleanupPass, "apply", cleanup),
    ):
        code = layout_opt([str(source), "-p", "layout-lower", "--print-between-passes"])
        with pytest.raises(
            VerifyException, match=r"^after layout-lower-memrefs: 'memref\.load' op"
        ):
            apply_pipeline(parse_program(TILED), "layout-lower")
    out, err = capsys.readouterr()
    assert code == 1
    assert "IR after layout-fold-converts:" in out
    assert "IR after layout-lower-memrefs:" not in out
    assert err.strip() == (
        "@load: error: after layout-lower-memrefs: 'memref.load' op expected an index for "
        "each dimension"
    )
    assert cleanups == []


def test_the_lowering_step_walks_a_module_with_nothing_to_prepare_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = parse_program(TILED)
    walks: list[Operation] = []
    real_walk = Operation.walk

    def walk(self: Operation, **options: bool) -> Iterator[Operation]:
        if isinstance(self, ModuleOp):
            walks.append(self)
        return real_walk(self, **options)

    monkeypatch.setattr(Operation, "walk", walk)
    LayoutLowerMemrefsPass().apply(make_context(), module)
    assert walks == [module]
