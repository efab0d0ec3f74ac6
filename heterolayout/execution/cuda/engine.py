"""`--engine cuda`: host code runs in the compiled engine, each `gpu.launch_func` launches its
kernel on an NVIDIA GPU through CuPy (`pip install 'heterolayout[cuda]'`).

The module's `gpu.launch` bodies are outlined into kernels (upstream `gpu-kernel-outlining`),
every gpu.module is compiled to PTX once (`ptx.compile_ptx`) and loaded with
`cupy.RawModule(path=…)`. A launch copies its memref arguments (numpy arrays) to the device, passes
scalars with the width of the kernel's parameter types, and copies the memrefs back when the
kernel is done: runs and `--check` see numpy in and out. Kernels must be lowered (no layout
left in a kernel signature) and take memrefs of static shape (bare pointers).
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from xdsl.dialects import gpu
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute

from heterolayout.dialects.context import parse_program
from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.functions import function_key
from heterolayout.execution.compiled.engine import CompiledEngine
from heterolayout.execution.cuda.ptx import CudaError, compile_ptx, find_mlir_opt
from heterolayout.execution.errors import ExecutionError

INSTALL_HINT = "--engine cuda needs CuPy: pip install 'heterolayout[cuda]'"


def load_cupy() -> ModuleType:
    """CuPy with a CUDA GPU behind it, or a one-line error saying which is missing."""
    try:
        import cupy  # type: ignore[import-not-found]
    except ImportError:
        raise ExecutionError(INSTALL_HINT) from None
    try:
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as error:  # CuPy raises its own CUDARuntimeError without a driver
        raise ExecutionError(f"--engine cuda: no CUDA GPU ({error})") from None
    if count == 0:
        raise ExecutionError("--engine cuda: no CUDA GPU (CuPy sees 0 devices)")
    return cupy


def scalar_type(type_attr: Attribute) -> Any:
    """The numpy type a kernel's scalar parameter is passed as (the PTX parameter's width)."""
    if isinstance(type_attr, IndexType):
        return np.int64
    if isinstance(type_attr, IntegerType):
        width = type_attr.width.data
        return {1: np.bool_, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}[width]
    for float_type, numpy_type in (
        (Float16Type, np.float16),
        (Float32Type, np.float32),
        (Float64Type, np.float64),
    ):
        if isinstance(type_attr, float_type):
            return numpy_type
    raise ExecutionError(f"--engine cuda: cannot pass a {type_attr} to a kernel")


class CudaEngine(CompiledEngine):
    """The compiled engine with kernels launched on the GPU."""

    name = "cuda"

    def __init__(self, module: ModuleOp) -> None:
        self.cupy = load_cupy()
        module = outline_launches(module)
        super().__init__(module)
        kernels = [op for op in module.walk() if isinstance(op, gpu.FuncOp)]
        for kernel in kernels:
            for memref_type in kernel.function_type.inputs.data:
                if isinstance(memref_type, MemRefType) and layout_of(memref_type) is not None:
                    raise ExecutionError(
                        f"--engine cuda: gpu.func @{kernel.sym_name.data} takes {memref_type}; "
                        "kernels run on the GPU once lowered (-p layout-lower)"
                    )
        self.parameters = {function_key(k): k.function_type.inputs.data for k in kernels}
        try:
            ptx = compile_ptx(module, ()) if kernels else {}
        except CudaError as error:
            raise ExecutionError(str(error)) from None
        self._ptx_files = tempfile.TemporaryDirectory(prefix="heterolayout-ptx-")
        self.modules = {}
        for name, text in ptx.items():
            path = Path(self._ptx_files.name) / f"{name}.ptx"
            path.write_text(text, encoding="utf-8")
            self.modules[name] = self.cupy.RawModule(path=str(path))

    def helpers(self) -> dict[str, Any]:
        return {"_gpu_launch_func": self.launch}

    def launch(
        self,
        state: Any,
        kernel: str,
        run: Any,
        arguments: tuple[Any, ...],
        plan: list[Any],
        sizes: tuple[int, ...],
        attributions: Any,
        at: str,
    ) -> None:
        """One `gpu.launch_func` on the GPU: memrefs to the device and back, scalars typed."""
        if any(info is not None for info in plan):
            raise ExecutionError(f"{at}: a launch passes another layout than its kernel takes")
        module_name, _, kernel_name = kernel.partition("::@")
        function = self.modules[module_name].get_function(kernel_name)
        device: list[Any] = []
        copies: list[tuple[Any, np.ndarray]] = []
        for value, type_attr in zip(arguments, self.parameters[kernel], strict=True):
            if isinstance(type_attr, MemRefType):
                if not isinstance(value, np.ndarray):
                    raise ExecutionError(f"{at}: a kernel argument is a view, not a buffer")
                on_device = self.cupy.asarray(value)
                copies.append((on_device, value))
                device.append(on_device)
            else:
                device.append(scalar_type(type_attr)(value))
        grid, block = tuple(int(s) for s in sizes[:3]), tuple(int(s) for s in sizes[3:])
        function(grid, block, tuple(device))
        self.cupy.cuda.runtime.deviceSynchronize()
        for on_device, host in copies:
            host[...] = self.cupy.asnumpy(on_device)


def outline_launches(module: ModuleOp) -> ModuleOp:
    """`module` with its gpu.launch bodies outlined into kernels (upstream's pass)."""
    if not any(isinstance(op, gpu.LaunchOp) for op in module.walk()):
        return module
    done = subprocess.run(
        [find_mlir_opt(), "--gpu-kernel-outlining"],
        input=str(module),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise ExecutionError(f"--engine cuda: gpu-kernel-outlining failed: {done.stderr.strip()}")
    return parse_program(done.stdout, "<outlined>")
