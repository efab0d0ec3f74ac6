"""Smoke run of benchmarks/gpu.py without a GPU: `--ptx-only --small` builds every kernel
(conversions with convert=gpu, the NCHW4 and NCHW int8 convolutions), compiles it to PTX and
prints its launch; without CuPy or a GPU a timing run says so and exits 1."""

from __future__ import annotations

import re

import pytest

from tests.benchmarks_smoke import run_python
from tests.mlir_tools import find_mlir_tool, require

SCRIPT = ("-m", "benchmarks.gpu")


def test_gpu_benchmark_builds_every_kernel() -> None:
    require(find_mlir_tool("mlir-opt"), "mlir-opt")
    run = run_python([*SCRIPT, "--ptx-only", "--small"], timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    titles = [line.split(":")[0] for line in lines]
    assert titles == [
        "NCHW -> nChw32c",
        "NCHW -> NHWC",
        "nChw16c -> NCHW",
        "conv NCHW4 int8",
        "conv NCHW int8",
    ]
    # NCHW -> nChw32c on 2x64x7x7: the source is contiguous in W, the destination in C, so
    # the kernel moves 32x32 tiles of (C, W) through shared memory: 32x8 threads a block,
    # grid (C tiles, W tiles, n*h).
    assert "grid (2, 1, 14) block (32, 8, 1)" in lines[0]
    for line in lines:
        kernel = re.search(r"::(\w+) grid", line)
        assert kernel is not None and f"ptx ['{kernel.group(1)}']" in line


def test_gpu_benchmark_without_a_gpu_says_so() -> None:
    try:
        import cupy  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("CuPy is installed: a run would time the GPU, not report its absence")
    require(find_mlir_tool("mlir-opt"), "mlir-opt")
    run = run_python([*SCRIPT, "--small"], timeout=300)
    assert run.returncode == 1
    assert (
        run.stderr
        == "benchmarks/gpu.py: --engine cuda needs CuPy: pip install 'heterolayout[cuda]'\n"
    )
