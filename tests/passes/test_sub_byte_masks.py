"""Masks of `i1` in plain memrefs, vectorized by `layout-schedule` in a module without
layouts: the schedule marks the module (`layout.by_element`) and `layout-lower` writes them on
the memref's bytes, so stock upstream MLIR computes what the program means (a `vector<16xi1>`
store wrote 16 packed bits into bytes that hold one element each: wrong values through
mlir-runner, fuzz seed 17; the native engine refused it). A module the schedule made no such
access in keeps its own accesses as written."""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from tests.onnx_models import (
    _conv,
    _tensor,
    _weights,
    graph_model,
    onnxruntime_outputs,
    random_input,
    require_frontend,
)
from tests.paths import REPOSITORY

MASKS = (REPOSITORY / "tests/filecheck/passes/layout-schedule/sub-byte-masks.mlir").read_text()

OWN_VECTOR_STORE = """
func.func @main(%x: memref<8xf32>, %m: memref<8xi1>) {
  %z = arith.constant 0.0 : f32
  %i0 = arith.constant 0 : index
  %v = vector.load %x[%i0] : memref<8xf32>, vector<8xf32>
  %zs = vector.broadcast %z : f32 to vector<8xf32>
  %c = arith.cmpf olt, %v, %zs : vector<8xf32>
  vector.store %c, %m[%i0] : memref<8xi1>, vector<8xi1>
  func.return
}
"""


@pytest.mark.parametrize("engine", ["native", "compiled", "interp"])
@pytest.mark.parametrize("options", ["target=avx2", "target=avx512 fuse=false", "target=sse"])
def test_a_vectorized_mask_means_what_the_program_means(options: str, engine: str) -> None:
    pipeline = f"layout-schedule{{{options}}},layout-lower"
    lowered = str(apply_pipeline(parse_program(MASKS), pipeline))
    assert "memref<4x16xi1>, vector" not in lowered and "memref<4x16xi8>" in lowered
    report = heterolayout.check(MASKS, pipeline=pipeline, engine=engine, seed=2)
    assert report.equal and report.compared > 0, str(report)


def test_the_programs_own_vector_accesses_stay_as_written() -> None:
    pipeline = "layout-schedule,layout-lower"
    lowered = str(apply_pipeline(parse_program(OWN_VECTOR_STORE), pipeline))
    assert "vector.store %c, %m[%i0] : memref<8xi1>, vector<8xi1>" in lowered
    assert "unrealized_conversion_cast" not in lowered and "layout." not in lowered


def test_the_mark_survives_text_and_goes_with_the_lowering() -> None:
    scheduled = str(apply_pipeline(parse_program(MASKS), "layout-schedule{target=avx2}"))
    assert "builtin.module attributes {layout.by_element}" in scheduled
    lowered = str(apply_pipeline(parse_program(scheduled), "layout-lower"))
    assert "layout." not in lowered and "memref<4x16xi8>" in lowered
    stripped = str(apply_pipeline(parse_program(scheduled), "layout-strip"))
    assert "layout." not in stripped and "memref<4x16xi8>" in stripped


@pytest.mark.parametrize("activation", ["PRelu", "Where"])
def test_an_imported_mask_runs_natively_like_onnxruntime(activation: str) -> None:
    """torch-mlir keeps a comparison's mask in an `i1` buffer of its own."""
    require_frontend()
    from onnx import helper

    rng = np.random.default_rng(0)
    slope = helper.make_tensor("slope", 1, [16, 1, 1], rng.uniform(0.1, 0.3, 16).tolist())
    tail = {
        "PRelu": [helper.make_node("PRelu", ["c", "slope"], ["y"])],
        "Where": [
            helper.make_node("Greater", ["c", "x"], ["g"]),
            helper.make_node("Where", ["g", "c", "x"], ["y"]),
        ],
    }[activation]
    nodes = [_conv("c", "x", "w", None, kernel_shape=[3, 3], pads=[1, 1, 1, 1]), *tail]
    shape: list[int | str] = [1, 16, 6, 6]
    model = graph_model(
        nodes,
        [_tensor("x", shape)],
        [_tensor("y", shape)],
        [_weights(rng, "w", (16, 16, 3, 3)), slope],
    )
    text = heterolayout.import_model(model)
    assert "xi1>" in text
    lowered = str(apply_pipeline(parse_program(text), "layout-schedule,layout-lower"))
    x = random_input((1, 16, 6, 6), seed=4)
    got = heterolayout.run(lowered, {"x": x}, engine="native")["y"]
    np.testing.assert_allclose(got, onnxruntime_outputs(model, {"x": x})["y"], rtol=1e-5, atol=1e-5)
