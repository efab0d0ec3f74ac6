"""What the ONNX import path emits is read, run and laid out (issue 27, point 2).

`tests/frontends/imported/*.mlir` are small ONNX models (`frontend_models.py`) through the import
commands (iree-import-onnx, iree-opt's torch-mlir pipelines, mlir-opt-22's bufferization):
upstream linalg (named ops, `linalg.generic` with broadcast and reduction maps, `linalg.map`,
`linalg.transpose`, `linalg.broadcast`), memref (globals, subviews and copies, reshapes),
math and arith. Each runs on every engine and equals the framework: onnxruntime on the same
model where it is installed, else the numpy reference (itself checked against onnxruntime
where both are). With `layout.assign` on its activations and weight globals it goes through
`layout-lower` (checked against the unlowered program, then run natively on the model's
inputs). One test imports a model again through the commands (it needs onnx,
iree-base-compiler and mlir-opt-22, and skips visibly without them).
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from tests.frontend_models import (
    BY_NAME,
    MODELS,
    Model,
    frontend_file,
    generate,
    import_tools_missing,
    numpy_reference,
    onnxruntime_outputs,
)

FILES = [(m, v) for m in MODELS for v in m.variants]
FILE_IDS = [frontend_file(m, v).stem for m, v in FILES]


def _has_onnxruntime() -> bool:
    try:
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


HAS_ONNXRUNTIME = _has_onnxruntime()


def reference(model: Model) -> list[np.ndarray]:
    """The framework's outputs on the model's inputs: onnxruntime's, else numpy's."""
    feeds = model.feeds()
    if HAS_ONNXRUNTIME:
        return onnxruntime_outputs(model, feeds)
    return numpy_reference(model, feeds)


def arguments(model: Model, text: str) -> list[np.ndarray]:
    """The entry's arguments: the graph inputs, then zeroed outputs (written in place)."""
    function = next(op for op in parse_program(text).walk() if op.name == "func.func")
    types = function.function_type.inputs.data[len(model.inputs) :]
    dtypes = {"f32": np.float32, "i64": np.int64}
    outputs = [np.zeros(t.get_shape(), dtypes[str(t.element_type)]) for t in types]
    return [*model.feeds().values(), *outputs]


def assert_like_framework(model: Model, outputs: list[np.ndarray]) -> None:
    for name, actual, expected in zip(model.outputs, outputs, reference(model), strict=True):
        assert actual.shape == expected.shape, (name, actual.shape, expected.shape)
        if expected.dtype.kind == "f":
            np.testing.assert_allclose(actual, expected, rtol=2e-4, atol=2e-5, err_msg=name)
        else:
            np.testing.assert_array_equal(actual, expected, err_msg=name)


def run_file(model: Model, text: str, engine: str) -> list[np.ndarray]:
    args = arguments(model, text)
    heterolayout.run(text, model.name, args, engine=engine)
    return args[len(model.inputs) :]


@pytest.mark.parametrize(("model", "variant"), FILES, ids=FILE_IDS)
@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
def test_runs_like_the_framework(model: Model, variant: str, engine: str) -> None:
    text = frontend_file(model, variant).read_text()
    assert_like_framework(model, run_file(model, text, engine))


@pytest.mark.skipif(not HAS_ONNXRUNTIME, reason="onnx and onnxruntime not installed")
@pytest.mark.parametrize("model", MODELS, ids=[m.name for m in MODELS])
def test_numpy_reference_is_onnxruntime(model: Model) -> None:
    """The reference used without onnxruntime computes what onnxruntime does."""
    feeds = model.feeds()
    for name, mine, theirs in zip(
        model.outputs,
        numpy_reference(model, feeds),
        onnxruntime_outputs(model, feeds),
        strict=True,
    ):
        assert mine.dtype == theirs.dtype, name
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6, err_msg=name)


# ---- with layouts ------------------------------------------------------------------------------
_DEFINITION = re.compile(r"^\s*(%\w+) = memref\.(alloc|get_global)\b.*: (memref<[^>]*>)\s*$")
_FUNCTION = re.compile(r"^\s*func\.func @\w+\((.*)\)\s*\{\s*$")
_ARGUMENT = re.compile(r"(%\w+): (memref<[^>]*>)")


def _tag(memref: str, weight: bool) -> str | None:
    """Weights (globals) reversed dim for dim; activations blocked by 2 along dim 1 (so an
    odd dim is padded): None for rank < 2."""
    rank = len(memref[len("memref<") : -1].split("x")) - 1
    if rank < 2:
        return None
    dims = "ABCDEFGH"[:rank]
    physical = dims[::-1] if weight else f"{dims}2{dims[1].lower()}"
    return f'#layout.tag<"{dims}->{physical}">'


def with_layouts(text: str) -> str:
    """`layout.assign` on every memref argument and allocation (the activations) and every
    global read (the weights) of rank 2 or more."""
    lines = []
    for line in text.splitlines():
        lines.append(line)
        found: list[tuple[str, str, bool]] = []
        if (function := _FUNCTION.match(line)) is not None:
            found = [(v, t, False) for v, t in _ARGUMENT.findall(function.group(1))]
        elif (definition := _DEFINITION.match(line)) is not None:
            value, kind, memref = definition.groups()
            found = [(value, memref, kind == "get_global")]
        for value, memref, weight in found:
            tag = _tag(memref, weight)
            if tag is not None:
                lines.append(f"    layout.assign {value} to {tag} : {memref}")
    return "\n".join(lines) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize(("model", "variant"), FILES, ids=FILE_IDS)
def test_layouts_through_layout_lower(model: Model, variant: str) -> None:
    """Lowered (its conversions proven), the model runs natively like the framework; and
    like the unlowered program on seeded random arguments (`check`), unless an input is
    integer: random indices would read outside the table they index."""
    text = with_layouts(frontend_file(model, variant).read_text())
    assert text.count("layout.assign") >= 2
    module = apply_pipeline(parse_program(text), "layout-lower{validate=conversions}")
    lowered = str(module)
    assert "layout.assign" not in lowered and "#layout." not in lowered
    assert_like_framework(model, run_file(model, lowered, "native"))
    if all(i.dtype == "float32" for i in model.inputs):
        report = heterolayout.check(text, "layout-lower", entry=model.name, engine="compiled")
        assert report, str(report)


# ---- the forms of linalg.map and linalg.reduce -------------------------------------------------
MAP_AND_REDUCE = """
func.func @main(%a: memref<4x5xf32>, %b: memref<4x5xf32>, %c: memref<4x5xf32>,
                %r: memref<4xf32>, %s: memref<4xf32>, %d: memref<4x5xf32>) {
  %cst = arith.constant 1.5 : f32
  linalg.map { arith.subf {fastmath = #arith.fastmath<fast>} } ins(%a, %b : memref<4x5xf32>, memref<4x5xf32>) outs(%c : memref<4x5xf32>) {tag = 1 : i64}
  linalg.map { math.exp } ins(%c : memref<4x5xf32>) outs(%c : memref<4x5xf32>)
  linalg.map ins(%a : memref<4x5xf32>) outs(%c : memref<4x5xf32>)
    (%x: f32, %o: f32) {
      %0 = arith.addf %x, %o : f32
      linalg.yield %0 : f32
    }
  linalg.map outs(%d : memref<4x5xf32>)
    (%o: f32) {
      linalg.yield %cst : f32
    }
  linalg.reduce { arith.subf } ins(%a : memref<4x5xf32>) outs(%r : memref<4xf32>) dimensions = [1] {tag}
  linalg.reduce ins(%a : memref<4x5xf32>) outs(%s : memref<4xf32>) dimensions = [1]
    (%x: f32, %y: f32) {
      %0 = arith.maximumf %x, %y : f32
      linalg.yield %0 : f32
    }
  return
}
"""


@pytest.mark.parametrize("engine", ["interp", "compiled", "native"])
def test_map_and_reduce_forms(engine: str) -> None:
    """Short forms apply the payload op to the inputs (map) or to the init then the input
    (reduce: `subf` gives init - in, in order); a map with no inputs fills."""
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal((4, 5)).astype(np.float32) for _ in range(2))
    c, d = np.zeros((4, 5), np.float32), np.zeros((4, 5), np.float32)
    r, s = np.zeros(4, np.float32), np.zeros(4, np.float32)
    heterolayout.run(MAP_AND_REDUCE, "main", [a, b, c, r, s, d], engine=engine)
    np.testing.assert_allclose(c, np.exp(a - b) + a, rtol=1e-6)
    expected_r = np.zeros(4, np.float32)
    for column in a.T:
        expected_r = expected_r - column
    np.testing.assert_array_equal(r, expected_r)
    np.testing.assert_array_equal(s, np.maximum(a.max(axis=1), 0))
    assert (d == 1.5).all()


def test_map_and_reduce_print_as_upstream_reads_them(mlir_opt: str) -> None:
    """Printed and read back by mlir-opt-22, the ops are the ones it reads from the source."""

    def generic(text: str) -> str:
        done = subprocess.run(
            [mlir_opt, "--mlir-print-op-generic"], input=text, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    printed = str(parse_program(MAP_AND_REDUCE))
    assert "linalg.map" in printed and "linalg.reduce" in printed
    assert generic(printed) == generic(MAP_AND_REDUCE)


# ---- vector math in the native engine ----------------------------------------------------------
GELU_LOOPS = """
func.func @main(%x: memref<8x16xf32>, %y: memref<8x16xf32>) {
  layout.assign %x to #layout.tag<"AB->BA"> : memref<8x16xf32>
  layout.assign %y to #layout.tag<"AB->BA"> : memref<8x16xf32>
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.707106769 : f32
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 16 {
      %v = affine.load %x[%i, %j] : memref<8x16xf32>
      %s = arith.mulf %v, %rsqrt2 : f32
      %e = math.erf %s : f32
      %a = arith.addf %e, %one : f32
      %m = arith.mulf %v, %a : f32
      %r = arith.mulf %m, %half : f32
      affine.store %r, %y[%i, %j] : memref<8x16xf32>
    }
  }
  return
}
"""


def test_scheduled_vector_erf_runs_natively() -> None:
    """GELU's `math.erf`, vectorized by layout-schedule, compiles natively: its libm calls
    scalarize into vector ops, so the math conversions must run before the vector one
    (they ran after: "Dialect `vector' not found for custom op 'vector.extract'")."""
    pipeline = "layout-schedule{target=avx512},layout-lower"
    lowered = str(apply_pipeline(parse_program(GELU_LOOPS), pipeline))
    assert re.search(r"math\.erf %\w+ : vector<8xf32>", lowered), lowered
    x = np.random.default_rng(0).standard_normal((8, 16)).astype(np.float32)
    y = np.zeros_like(x)
    heterolayout.run(lowered, "main", [x, y], engine="native")
    erf = np.vectorize(math.erf)
    expected = 0.5 * x * (1 + erf(x.astype(np.float64) * np.float32(0.707106769)))
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)
    report = heterolayout.check(GELU_LOOPS, pipeline, engine="native")
    assert report, str(report)


# ---- what is not handled is one line -----------------------------------------------------------
UNHANDLED = {
    "linalg.softmax": """
func.func @main(%x: memref<2x5xf32>, %y: memref<2x5xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<2x5xf32>) outs(%y : memref<2x5xf32>)
  return
}
""",
    "memref.atomic_rmw": """
func.func @main(%x: memref<2x5xf32>, %v: f32) {
  layout.assign %x to #layout.tag<"AB->BA"> : memref<2x5xf32>
  %c0 = arith.constant 0 : index
  %r = memref.atomic_rmw addf %v, %x[%c0, %c0] : (f32, memref<2x5xf32>) -> f32
  return
}
""",
}
"""An op the parser does not know, and one the engines and `layout-lower` do not."""


@pytest.mark.parametrize("op", sorted(UNHANDLED))
@pytest.mark.parametrize("tool", ["run", "opt"])
def test_an_unhandled_op_is_one_line(op: str, tool: str, tmp_path: Path) -> None:
    source = tmp_path / "model.mlir"
    source.write_text(UNHANDLED[op])
    # The Python engines run no memref.atomic_rmw; `--engine auto` would take it natively.
    lower = ["-p", "layout-lower"] if tool == "opt" else ["--engine", "compiled"]
    done = subprocess.run(
        [sys.executable, "-m", f"heterolayout.tools.{tool}", str(source), *lower],
        capture_output=True,
        text=True,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert len(lines) == 1 and op in lines[0] and "Traceback" not in done.stderr, done.stderr


# ---- the import itself -------------------------------------------------------------------------
def test_import_again_through_the_commands() -> None:
    """`conv`, imported again with iree-base-compiler and mlir-opt-22, runs like the
    framework (the checked-in files are what the commands make)."""
    missing = import_tools_missing()
    if missing is not None:
        pytest.skip(f"the import commands cannot run: {missing}")
    model = BY_NAME["conv"]
    with tempfile.TemporaryDirectory() as work:
        text = generate(model, "", Path(work))
    assert "linalg.conv_2d_nchw_fchw" in text
    assert_like_framework(model, run_file(model, text, "compiled"))
