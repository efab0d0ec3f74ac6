"""NVIDIA GPUs: PTX from a program with layouts (`ptx`, through upstream `mlir-opt` 22, no
CUDA toolkit needed) and `--engine cuda` (`engine`, through CuPy: `pip install
heterolayout[cuda]`)."""

from heterolayout.execution.cuda.ptx import CudaError, compile_ptx, entry_names, ptx_passes

__all__ = ["CudaError", "compile_ptx", "entry_names", "ptx_passes"]
