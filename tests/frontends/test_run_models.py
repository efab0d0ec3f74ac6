"""Imported models run with real inputs (docs/models.md): arguments by graph name or
position, outputs by name (`run`, `layout-run --inputs/--outputs`), checked against
onnxruntime (`layout-run --reference`), also with layouts assigned to an activation and a
weight global and the program scheduled and lowered; and the default engine's choice."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.execution.engines import chosen_engine
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.work import LARGE_WORK, estimate_work
from heterolayout.frontends.reference import compare_output, tolerance
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.tools.run import main as layout_run
from tests.onnx_models import (
    assign_after,
    cnn_ops,
    conv_block,
    mlp,
    onnxruntime_outputs,
    random_input,
    require_frontend,
    transformer_ops,
)

MODELS = {"mlp": (mlp, (4, 8)), "conv": (conv_block, (1, 4, 6, 6))}

LAYOUTS = {
    "mlp": [("%alloc", '#layout.tag<"NC->CN">'), ("%0", '#layout.tag<"KN->NK4k">')],
    "conv": [("%alloc", '#layout.tag<"NCHW->nChw2c">'), ("%0", '#layout.tag<"OIHW->OhwI4o">')],
}
"""Per model, layouts for its first activation (`%alloc`) and its first weight global's read
(`%0 = memref.get_global`)."""


@pytest.fixture(scope="module")
def imported() -> dict[str, str]:
    require_frontend()
    return {name: heterolayout.import_model(build()) for name, (build, _) in MODELS.items()}


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = layout_run(list(argv))
    return code, out.getvalue(), err.getvalue()


def _save(tmp_path: Path, name: str, model: Any) -> Path:
    import onnx

    path = tmp_path / f"{name}.onnx"
    onnx.save(model, str(path))
    return path


def _within(actual: np.ndarray, expected: np.ndarray) -> None:
    rtol, atol = tolerance(expected)
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", MODELS)
@pytest.mark.parametrize("engine", ["compiled", "native"])
def test_imported_models_compute_what_onnxruntime_computes(
    imported: dict[str, str], name: str, engine: str
) -> None:
    build, shape = MODELS[name]
    x = random_input(shape)
    outputs = heterolayout.run(imported[name], {"x": x}, engine=engine)
    expected = onnxruntime_outputs(build(), {"x": x})
    assert list(outputs) == ["y"]
    _within(outputs["y"], expected["y"])


@pytest.mark.parametrize("name", MODELS)
def test_with_layouts_scheduled_and_lowered_still_equal_to_onnxruntime(
    imported: dict[str, str], tmp_path: Path, name: str
) -> None:
    build, shape = MODELS[name]
    text = imported[name]
    for definition, layout in LAYOUTS[name]:
        text = assign_after(text, definition, layout)
    program = tmp_path / f"{name}.mlir"
    program.write_text(text)
    pipeline = "layout-schedule,layout-lower"
    code, out, err = _cli(str(program), "--check", "-p", pipeline, "--engine", "native")
    assert (code, err) == (0, "") and out.startswith("OK: ")
    x = random_input(shape, seed=5)
    np.savez(tmp_path / "in.npz", x=x)
    model = _save(tmp_path, name, build())
    code, out, err = _cli(
        str(program),
        "-p",
        pipeline,
        "--inputs",
        str(tmp_path / "in.npz"),
        "--reference",
        str(model),
    )
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "OK: 1 output within tolerance of onnxruntime"
    lowered = heterolayout.run(apply_pipeline(parse_program(text), pipeline), {"x": x})
    _within(lowered["y"], onnxruntime_outputs(build(), {"x": x})["y"])


OPS = {
    "cnn": (cnn_ops, (1, 3, 12, 12), '#layout.tag<"NCHW->NHWC">'),
    "transformer": (transformer_ops, (2, 4, 8), '#layout.tag<"ABC->ACB">'),
}
"""Graphs of the ops of common CNNs and transformers (docs/models.md lists them), their
input's shape, and a layout for their first activation."""


@pytest.mark.parametrize("name", OPS)
def test_the_ops_of_cnns_and_transformers_equal_onnxruntime(
    tmp_path: Path, name: str, native_engine: None
) -> None:
    require_frontend()
    build, shape, layout = OPS[name]
    model = build()
    text = heterolayout.import_model(model)
    x = random_input(shape, seed=3)
    expected = onnxruntime_outputs(model, {"x": x})
    outputs = heterolayout.run(text, {"x": x}, engine="native")
    assert list(outputs) == list(expected)
    for key, value in expected.items():
        _within(outputs[key], value)
    program = tmp_path / f"{name}.mlir"
    program.write_text(assign_after(text, "%alloc", layout))
    np.savez(tmp_path / "in.npz", x=x)
    pipeline = "layout-schedule,layout-lower"
    code, out, err = _cli(
        str(program),
        "-p",
        pipeline,
        "--inputs",
        str(tmp_path / "in.npz"),
        "--reference",
        str(_save(tmp_path, name, model)),
    )
    assert (code, err) == (0, "")
    assert out.splitlines()[-1].endswith("within tolerance of onnxruntime")
    code, out, err = _cli(str(program), "--check", "-p", pipeline)
    assert (code, err) == (0, "") and out.startswith("OK: ")


def test_inputs_and_outputs_round_trip_by_graph_name(
    imported: dict[str, str], tmp_path: Path
) -> None:
    program = tmp_path / "mlp.mlir"
    program.write_text(imported["mlp"])
    x = random_input((4, 8), seed=7)
    np.savez(tmp_path / "in.npz", x=x)
    code, out, err = _cli(
        str(program), "--inputs", str(tmp_path / "in.npz"), "--outputs", str(tmp_path / "out.npz")
    )
    assert (code, out, err) == (0, "", "")
    with np.load(tmp_path / "out.npz") as written:
        assert written.files == ["y"]
        _within(written["y"], onnxruntime_outputs(mlp(), {"x": x})["y"])
        np.testing.assert_array_equal(
            written["y"], heterolayout.run(program.read_text(), {"x": x})["y"]
        )
    np.savez(tmp_path / "positional.npz", x)
    code, out, err = _cli(
        str(program),
        "--inputs",
        str(tmp_path / "positional.npz"),
        "--outputs",
        str(tmp_path / "p.npz"),
    )
    assert (code, out, err) == (0, "", "")
    with np.load(tmp_path / "out.npz") as by_name, np.load(tmp_path / "p.npz") as by_position:
        np.testing.assert_array_equal(by_name["y"], by_position["y"])


def test_reference_fails_on_a_model_that_computes_something_else(
    imported: dict[str, str], tmp_path: Path
) -> None:
    program = tmp_path / "mlp.mlir"
    program.write_text(imported["mlp"])
    same = _save(tmp_path, "same", mlp())
    code, out, err = _cli(str(program), "--reference", str(same))
    assert (code, err) == (0, "")
    line = out.splitlines()[0]
    assert line.startswith("y: max abs error ") and line.endswith("): ok")
    assert ", max relative error " in line and " (rtol 0.0001, atol " in line
    other = _save(tmp_path, "other", mlp(perturb=0.5))
    code, out, err = _cli(str(program), "--reference", str(other))
    assert (code, err) == (1, "")
    assert out.splitlines()[-1] == "MISMATCH with onnxruntime: y"
    assert " elements over" in out.splitlines()[0]
    code, out, err = _cli(str(program), "--reference", str(other), "--atol", "10")
    assert (code, err) == (0, "")


def test_compare_output_measures_absolute_and_relative_error() -> None:
    expected = np.array([1.0, -2.0, 0.0, np.nan], dtype=np.float32)
    actual = np.array([1.0001, -2.0, 1e-6, np.nan], dtype=np.float32)
    comparison = compare_output("y", actual, expected)
    assert comparison.max_abs == pytest.approx(1e-4, rel=1e-2)
    assert comparison.max_rel == pytest.approx(1e-4, rel=1e-2)
    assert (comparison.over, comparison.within) == (0, True)
    assert compare_output("y", actual, expected, rtol=1e-5, atol=1e-6).over == 1
    assert not compare_output("y", actual[:3], expected).within
    # The default atol follows the output's scale: an output that cancels to near zero
    # among outputs of 1000 carries an error of their size.
    large = np.array([1000.0, 0.0, -800.0], dtype=np.float32)
    near = large + np.array([0.0, 5e-2, 0.0], dtype=np.float32)
    assert compare_output("y", near, large).within
    assert compare_output("y", near, large).atol == pytest.approx(1e-1)
    assert compare_output("y", near, large, atol=1e-5).over == 1
    far = large + np.array([0.0, 0.2, 0.0], dtype=np.float32)
    assert compare_output("y", far, large).over == 1


def test_named_arguments_errors(imported: dict[str, str]) -> None:
    x = random_input((4, 8))
    with pytest.raises(ExecutionError, match=r"has no argument named 'z' \(graph names: 'x', 'y'"):
        heterolayout.run(imported["mlp"], {"z": x})
    with pytest.raises(ExecutionError, match=r"argument 0 \('x'\) given twice"):
        heterolayout.run(imported["mlp"], {"x": x, "arr_0": x})
    with pytest.raises(
        ExecutionError, match=r"argument 0 \('x'\) of type memref<4x8xf32> not given"
    ):
        heterolayout.run(imported["mlp"], {})


MATMUL = """
func.func @main(%a: memref<{n}x{n}xf32>, %b: memref<{n}x{n}xf32>, %c: memref<{n}x{n}xf32>) {{
  linalg.matmul ins(%a, %b : memref<{n}x{n}xf32>, memref<{n}x{n}xf32>) outs(%c : memref<{n}x{n}xf32>)
  return
}}
"""

LOOPS = """
func.func @main(%m: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c64 step %c1 {
    affine.for %j = 0 to 10 step 3 {
      memref.store %one, %m[%i] : memref<64xf32>
    }
  }
  return
}
"""


def test_work_is_counted_per_loop_iteration_and_linalg_point() -> None:
    # Module-level ops: func and return count once each; the linalg op n**3 times.
    assert estimate_work(parse_program(MATMUL.format(n=8))) == 1 + 8**3 + 1
    # func, 4 constants, scf.for and return once; the scf.for's body (affine.for, yield)
    # 64 times; the affine.for's (store, yield) 64 * 4 times (0, 3, 6, 9).
    assert estimate_work(parse_program(LOOPS)) == 1 + 4 + 1 + 1 + 64 * 2 + 64 * 4 * 2


def test_the_default_engine_is_native_for_a_large_program(native_engine: None) -> None:
    small, large = parse_program(MATMUL.format(n=8)), parse_program(MATMUL.format(n=128))
    assert estimate_work(large) >= LARGE_WORK > estimate_work(small)
    assert (chosen_engine(small, "auto"), chosen_engine(large, "auto")) == ("compiled", "native")
    assert chosen_engine(large, "interp") == "interp"
    ctlz = parse_program(
        "func.func @main(%a: i32) -> i32 {\n  %r = math.ctlz %a : i32\n  func.return %r : i32\n}"
    )
    assert chosen_engine(ctlz, "auto") == "native"  # the Python engines do not run math.ctlz
    assert heterolayout.run(ctlz, args=(1,)) == (31,)
    a = random_input((128, 128))
    c = np.zeros((128, 128), np.float32)
    heterolayout.run(MATMUL.format(n=128), args=(a, a, c))
    np.testing.assert_allclose(c, a @ a, rtol=1e-5, atol=1e-4)


def test_inputs_without_outputs_print_by_name_and_check_takes_none(
    imported: dict[str, str], tmp_path: Path
) -> None:
    program = tmp_path / "two.mlir"
    program.write_text(imported["mlp"])
    x = random_input((4, 8), seed=2)
    np.savez(tmp_path / "in.npz", x=x)
    code, out, err = _cli(str(program), "--inputs", str(tmp_path / "in.npz"))
    assert (code, err) == (0, "") and out.startswith("y: [[")
    code, out, err = _cli(str(program))  # seeded inputs; the outputs by name all the same
    assert (code, err) == (0, "") and out.startswith("y: [[")
    code, out, err = _cli(str(_save(tmp_path, "mlp", mlp())))
    assert (code, out) == (1, "")
    assert err.endswith(
        "mlp.onnx is an ONNX model: import it first (layout-import "
        f"{tmp_path / 'mlp.onnx'} -o OUT.mlir)\n"
    )
    code, out, err = _cli(str(program), "--check", "--inputs", str(tmp_path / "in.npz"))
    assert (code, out) == (1, "")
    assert err == (
        "layout-run: error: --check runs seeded arguments and compares two programs: it takes "
        "no --inputs, --outputs or --reference\n"
    )
    (tmp_path / "bad.npz").write_bytes(b"not numpy")
    code, out, err = _cli(str(program), "--inputs", str(tmp_path / "bad.npz"))
    assert (code, out) == (1, "") and err.count("\n") == 1
    assert "bad.npz: not a numpy .npz or .npy file" in err


def test_help_says_how_the_default_engine_chooses() -> None:
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit):
        layout_run(["--help"])
    assert "default: auto, the native engine for a large program" in " ".join(
        out.getvalue().split()
    )
