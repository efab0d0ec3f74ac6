"""Nine networks checked against the framework with layouts (issue 27, point 5).

A ResNet basic block, a strided downsampling block with a 1x1 shortcut, a ResNet stem
(7x7 stride 2, max-pool), a MobileNetV2 inverted residual (1x1, depthwise 3x3, 1x1), an MLP,
a ResNeXt bottleneck (a grouped convolution whose groups are narrower than the channel block),
a transformer encoder layer (MatMul, Softmax, LayerNorm, GELU, residuals) and a GPT-2
feed-forward block as exporters write it (LayerNorm written out with Pow 2, GELU's tanh
approximation with Pow 3: `math.fpowi`, which upstream compiles on scalars only), and the
ops of common CNNs in one graph, built with
`onnx.helper` and seeded random weights (tests/onnx_models.py), are imported; oneDNN-style
layouts are assigned to every image activation (arguments and allocations: channels blocked
by 4; matrices and sequences stay plain, as oneDNN's matmul keeps them) and every weight
global (OIhw4i4o, KN->Nk4n, ...); the program goes through
`layout-schedule,layout-lower` and runs natively on the same inputs as onnxruntime
(`layout-run --reference`), and `layout-run --check` compares it with the program as imported.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.passes.remarks import remarks_collected
from heterolayout.tools.run import main as layout_run
from tests.onnx_models import (
    basic_block,
    cnn_ops,
    downsampling_block,
    encoder_layer,
    gpt2_mlp,
    inverted_residual,
    mlp,
    onnxruntime_outputs,
    random_input,
    require_frontend,
    resnet_stem,
    resnext_block,
    with_onednn_layouts,
)

NETWORKS: dict[str, tuple[Callable[[], Any], tuple[int, ...]]] = {
    "basic_block": (basic_block, (1, 8, 8, 8)),
    "downsampling_block": (downsampling_block, (1, 8, 8, 8)),
    "resnet_stem": (resnet_stem, (1, 3, 32, 32)),
    "inverted_residual": (inverted_residual, (1, 8, 8, 8)),
    "resnext_block": (resnext_block, (1, 8, 8, 8)),
    "mlp": (mlp, (4, 8)),
    "encoder_layer": (encoder_layer, (1, 8, 16)),
    "gpt2_mlp": (gpt2_mlp, (1, 8, 16)),
    "cnn_ops": (cnn_ops, (1, 3, 12, 12)),
}
"""Each network's builder and its input's shape."""

PIPELINE = "layout-schedule,layout-lower"


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = layout_run(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def frontend() -> None:
    require_frontend()


@pytest.mark.slow
@pytest.mark.usefixtures("frontend")
@pytest.mark.parametrize("name", NETWORKS)
def test_laid_out_scheduled_and_lowered_equal_onnxruntime(name: str, tmp_path: Path) -> None:
    import onnx

    build, shape = NETWORKS[name]
    model = build()
    text, assigned = with_onednn_layouts(heterolayout.import_model(model))
    weights = text.count("memref.get_global")
    assert assigned >= 2 and weights >= 1
    program = tmp_path / f"{name}.mlir"
    program.write_text(text)
    onnx.save(model, str(tmp_path / f"{name}.onnx"))
    x = random_input(shape, seed=7)
    np.savez(tmp_path / "in.npz", x=x)

    lowered = str(apply_pipeline(parse_program(text), PIPELINE))
    assert "layout.assign" not in lowered and "#layout." not in lowered
    outputs = heterolayout.run(lowered, {"x": x}, engine="native")
    expected = onnxruntime_outputs(model, {"x": x})
    assert list(outputs) == list(expected) == ["y"]
    np.testing.assert_allclose(outputs["y"], expected["y"], rtol=1e-4, atol=1e-4)

    code, out, err = _cli(
        str(program),
        "-p",
        PIPELINE,
        "--engine",
        "native",
        "--inputs",
        str(tmp_path / "in.npz"),
        "--reference",
        str(tmp_path / f"{name}.onnx"),
    )
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "OK: 1 output within tolerance of onnxruntime"

    code, out, err = _cli(str(program), "--check", "-p", PIPELINE, "--engine", "native")
    assert (code, err) == (0, "") and out.startswith("OK: "), out + err


@pytest.mark.usefixtures("frontend")
def test_narrow_groups_run_on_vectors_with_their_weights_gathered() -> None:
    """Groups of 2 channels under nChw4c: the grouped convolution's vectors walk a group's
    output channels, its plain weights are gathered lane by lane (a remark says so), and
    the block equals onnxruntime."""
    model = resnext_block()
    text, _ = with_onednn_layouts(heterolayout.import_model(model))
    assert "linalg.conv_2d_ngchw_gfchw" in text
    remarks: list[str] = []
    with remarks_collected(remarks):
        lowered = apply_pipeline(parse_program(text), "layout-schedule{target=avx2},layout-lower")
    grouped = [r for r in remarks if "nest %conv_2d_ngchw_gfchw" in r]
    assert any("gathered lane by lane: memref.load of memref<4x2x2x3x3xf32>" in r for r in grouped)
    assert any("scheduled:" in r and "vector<2xf32> along" in r for r in grouped), grouped
    x = random_input((1, 8, 8, 8), seed=5)
    outputs = heterolayout.run(str(lowered), {"x": x}, engine="native")
    expected = onnxruntime_outputs(model, {"x": x})["y"]
    np.testing.assert_allclose(outputs["y"], expected, rtol=1e-4, atol=1e-4)


ORIENTED = """
func.func @main(%arg0: memref<1x8x6x6xf32>, %arg1: memref<1x8x4x4xf32>, %arg2: memref<4x16xf32>) {
    %0 = memref.get_global @w : memref<8x16xf32>
    %alloc = memref.alloc() : memref<16x8xf32>
    linalg.transpose ins(%0 : memref<8x16xf32>) outs(%alloc : memref<16x8xf32>) permutation = [1, 0]
    %alloc_0 = memref.alloc() : memref<8x8x3x3xf32>
    linalg.conv_2d_nchw_fchw ins(%arg0, %alloc_0 : memref<1x8x6x6xf32>, memref<8x8x3x3xf32>) outs(%arg1 : memref<1x8x4x4xf32>)
    return
}
"""


def test_the_onednn_helper_blocks_weights_as_their_readers_see_them() -> None:
    """A weight matrix the program transposes (Gemm `transB=1`: [N, K] data) gets the
    transposed tag, so the blocks are of the matmul's columns; a buffer a convolution reads
    as its filter gets the weights' tag, not the activations'."""
    text, assigned = with_onednn_layouts(ORIENTED, 8)
    assert '%0 to #layout.tag<"NK->Nk8n"> : memref<8x16xf32>' in text
    assert '%alloc_0 to #layout.tag<"OIHW->OIhw8i8o"> : memref<8x8x3x3xf32>' in text
    assert "%alloc to" not in text and assigned == 4


GROUPED = """
func.func @main(%arg0: memref<1x32x6x6xf32>, %arg1: memref<1x32x4x4xf32>) {
    %0 = memref.get_global @wide : memref<2x16x16x3x3xf32>
    %1 = memref.get_global @narrow : memref<8x4x4x3x3xf32>
    return
}
"""


def test_the_onednn_helper_blocks_grouped_weights_within_their_groups() -> None:
    """Grouped convolution weights, as importers reshape them ([groups, outputs, inputs of a
    group, kh, kw]), are blocked on both channels within a group (oneDNN's gOIhw16i16o);
    groups narrower than the block keep them plain (its goihw), as a 3-channel first
    convolution's inputs are."""
    text, assigned = with_onednn_layouts(GROUPED, 16)
    assert '%0 to #layout.tag<"GOIHW->GOIhw16i16o"> : memref<2x16x16x3x3xf32>' in text
    assert "%1 to" not in text and assigned == 3
