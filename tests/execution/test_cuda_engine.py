"""`--engine cuda`. Without CuPy or a GPU it is a one-line error (checked here with CuPy made
unimportable, or replaced by a stand-in without devices). The host side of a GPU run is
checked with a stand-in CuPy that records each launch: the PTX module it loads, the grid,
the block, the argument types and shapes, and that what a kernel writes on the device comes
back to the host. The runs on a real GPU skip with their reason when CuPy or a GPU is
missing (as on the machines CI runs on)."""

from __future__ import annotations

import contextlib
import io
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.execution import ExecutionError
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.tools.run import main as layout_run
from tests.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
REORDER = EXAMPLES / "gpu_reorder_nchw32c.mlir"
CONV = EXAMPLES / "gpu_conv_nchw4_int8.mlir"


def _layout_run(*argv: str) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = layout_run(list(argv))
    return code, stdout.getvalue(), stderr.getvalue()


def test_without_cupy_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cupy", None)  # `import cupy` raises ImportError
    code, stdout, stderr = _layout_run(str(REORDER), "-p", "layout-lower", "--engine", "cuda")
    assert (code, stdout) == (1, "")
    assert (
        stderr == "layout-run: error: --engine cuda needs CuPy: pip install 'heterolayout[cuda]'\n"
    )


class _NoDriver(Exception):
    pass


def _no_devices() -> int:
    raise _NoDriver("cudaErrorNoDevice: no CUDA-capable device is detected")


def test_without_a_gpu_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("cupy")
    fake.cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(getDeviceCount=_no_devices))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "cupy", fake)
    code, _, stderr = _layout_run(str(REORDER), "--check", "--engine", "cuda")
    assert code == 1
    assert stderr == (
        "layout-run: error: --engine cuda: no CUDA GPU "
        "(cudaErrorNoDevice: no CUDA-capable device is detected)\n"
    )


class _Recorder:
    """A stand-in CuPy: modules load from PTX files, kernels record their launches and
    write `marker` into their last memref argument, as a kernel writing its output would."""

    def __init__(self, marker: float) -> None:
        self.marker = marker
        self.loaded: dict[str, str] = {}
        self.launches: list[tuple[str, tuple[int, ...], tuple[int, ...], list[Any]]] = []

    def module(self) -> types.ModuleType:
        fake = types.ModuleType("cupy")
        runtime = types.SimpleNamespace(getDeviceCount=lambda: 1, deviceSynchronize=lambda: None)
        fake.cuda = types.SimpleNamespace(runtime=runtime)  # type: ignore[attr-defined]
        fake.asarray = lambda a: np.array(a, copy=True)  # type: ignore[attr-defined]
        fake.asnumpy = lambda a: np.array(a, copy=True)  # type: ignore[attr-defined]
        fake.RawModule = self._raw_module  # type: ignore[attr-defined]
        return fake

    def _raw_module(self, path: str) -> Any:
        self.loaded[Path(path).name] = Path(path).read_text()
        recorder = self

        class Module:
            def get_function(self, name: str) -> Any:
                def launch(grid: tuple[int, ...], block: tuple[int, ...], args: tuple) -> None:
                    recorder.launches.append((name, grid, block, list(args)))
                    [a for a in args if isinstance(a, np.ndarray)][-1][...] = recorder.marker

                return launch

        return Module()


def test_launches_pass_ptx_grid_and_typed_arguments(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = _Recorder(marker=5.0)
    monkeypatch.setitem(sys.modules, "cupy", recorder.module())
    lowered = apply_pipeline(parse_program(REORDER.read_text()), "layout-lower")
    src = np.ones((2, 40, 3, 5), dtype=np.float32)
    dst = np.zeros((2, 2, 3, 5, 32), dtype=np.float32)
    heterolayout.run(lowered, "main", [src, dst], engine="cuda")
    assert list(recorder.loaded) == ["reorder.ptx"]
    assert ".visible .entry to_nchw32c(" in recorder.loaded["reorder.ptx"]
    ((name, grid, block, args),) = recorder.launches
    assert (name, grid, block) == ("to_nchw32c", (3, 2, 2), (32, 5, 1))
    assert [(a.shape, a.dtype) for a in args] == [
        ((2, 40, 3, 5), np.float32),
        ((2, 2, 3, 5, 32), np.float32),
    ]
    assert (dst == 5.0).all() and (src == 1.0).all()  # the output came back, the input stays


SCALARS = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @axpy(%a: f32, %n: index, %b: i8, %x: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%x: memref<16xf32>, %a: f32) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %b = arith.constant -3 : i8
    gpu.launch_func @k::@axpy blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%a : f32, %c16 : index, %b : i8, %x : memref<16xf32>)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
      memref.store %a, %x[%tx] : memref<16xf32>
      gpu.terminator
    }
    return
  }
}
"""


def test_scalars_take_the_width_of_the_kernel_parameters(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = _Recorder(marker=2.0)
    monkeypatch.setitem(sys.modules, "cupy", recorder.module())
    x = np.zeros(16, dtype=np.float32)
    heterolayout.run(SCALARS, "main", [x, 0.5], engine="cuda")
    (_, _, _, axpy), (outlined, grid, block, _) = recorder.launches
    assert [type(a) for a in axpy[:3]] == [np.float32, np.int64, np.int8]
    assert axpy[:3] == [0.5, 16, -3]
    assert (outlined, grid, block) == ("main_kernel", (1, 1, 1), (16, 1, 1))
    assert sorted(recorder.loaded) == ["k.ptx", "main_kernel.ptx"]
    assert (x == 2.0).all()


def test_kernels_with_layouts_must_be_lowered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cupy", _Recorder(0.0).module())
    with pytest.raises(ExecutionError, match=r"gpu.func @to_nchw32c takes .*-p layout-lower"):
        heterolayout.run(REORDER.read_text(), "main", [np.zeros((2, 40, 3, 5))] * 2, engine="cuda")


def test_the_native_engine_refuses_gpu_code_in_one_line() -> None:
    with pytest.raises(
        ExecutionError, match=r"gpu.launch_func at .*: the native engine compiles for the CPU"
    ):
        heterolayout.run(SCALARS, "main", [np.zeros(16, dtype=np.float32), 0.5], engine="native")


def _gpu_missing() -> str | None:
    try:
        import cupy  # type: ignore[import-not-found]
    except ImportError:
        return "CuPy is not installed (pip install 'heterolayout[cuda]')"
    try:
        if cupy.cuda.runtime.getDeviceCount() > 0:
            return None
    except Exception as error:
        return f"no CUDA GPU: {error}"
    return "no CUDA GPU"


needs_gpu = pytest.mark.skipif(_gpu_missing() is not None, reason=str(_gpu_missing()))


@needs_gpu
@pytest.mark.parametrize("path", [REORDER, CONV], ids=lambda p: p.stem)
def test_examples_on_the_gpu_match_the_cpu(path: Path) -> None:
    code, stdout, stderr = _layout_run(str(path), "--check", "--engine", "cuda")
    assert (code, stderr) == (0, ""), stdout
    assert stdout.startswith("OK: ")
