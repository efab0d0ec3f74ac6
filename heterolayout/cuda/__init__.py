"""NVIDIA GPUs: PTX from a program with layouts (`ptx`, through upstream `mlir-opt` 22, no
CUDA toolkit needed) and `--engine cuda` (`engine`, through CuPy: `pip install
heterolayout[cuda]`)."""

from heterolayout.cuda.ptx import PTX_PASSES, CudaError, compile_ptx, entry_names

__all__ = ["PTX_PASSES", "CudaError", "compile_ptx", "entry_names"]
