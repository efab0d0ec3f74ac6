"""The GPU examples against numpy, and their PTX: the NCHW4 int8 convolution computes
numpy's convolution, the NCHW32c reorder writes exactly the nChw32c image of its input (pad
slots untouched), and each compiles to PTX that defines its kernel. (`test_examples` runs
both through `layout-run --check` in both engines, like every example.)"""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from tests.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"


def _conv_reference(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    n, _, h, width = x.shape
    o, _, kh, kw = w.shape
    out = np.zeros((n, o, h - kh + 1, width - kw + 1), dtype=np.int64)
    for i in range(kh):
        for j in range(kw):
            window = x[:, :, i : i + out.shape[2], j : j + out.shape[3]].astype(np.int64)
            out += np.einsum("nchw,oc->nohw", window, w[:, :, i, j].astype(np.int64))
    return out.astype(np.int32)


@pytest.mark.parametrize("engine", ["interp", "compiled"])
def test_nchw4_int8_convolution_matches_numpy(engine: str) -> None:
    program = (EXAMPLES / "gpu_conv_nchw4_int8.mlir").read_text()
    rng = np.random.default_rng(19)
    x = rng.integers(-128, 128, (1, 8, 6, 6), dtype=np.int8)
    w = rng.integers(-128, 128, (8, 8, 3, 3), dtype=np.int8)
    y = np.zeros((1, 8, 4, 4), dtype=np.int32)
    heterolayout.run(program, "main", [x, w, y], engine=engine)
    np.testing.assert_array_equal(y, _conv_reference(x, w))


def test_nchw32c_reorder_writes_the_blocked_image() -> None:
    source = parse_program((EXAMPLES / "gpu_reorder_nchw32c.mlir").read_text())
    lowered = apply_pipeline(source, "layout-lower")
    src = np.random.default_rng(3).standard_normal((2, 40, 3, 5)).astype(np.float32)
    dst = np.full((2, 2, 3, 5, 32), -7.0, dtype=np.float32)  # physical nChw32c, pads marked
    heterolayout.run(lowered, "main", [src, dst])
    padded = np.full((2, 64, 3, 5), -7.0, dtype=np.float32)
    padded[:, :40] = src
    image = padded.reshape(2, 2, 32, 3, 5).transpose(0, 1, 3, 4, 2)
    np.testing.assert_array_equal(dst, image)


@pytest.mark.parametrize(
    ("name", "kernels"),
    [("gpu_conv_nchw4_int8.mlir", ["conv3x3"]), ("gpu_reorder_nchw32c.mlir", ["to_nchw32c"])],
)
def test_examples_compile_to_ptx_naming_their_kernels(
    name: str, kernels: list[str], mlir_opt: str
) -> None:
    from heterolayout.execution.cuda import compile_ptx, entry_names

    modules = compile_ptx((EXAMPLES / name).read_text(), chip="sm_80")
    assert [entry for ptx in modules.values() for entry in entry_names(ptx)] == kernels
    assert all(".target sm_80" in ptx for ptx in modules.values())
