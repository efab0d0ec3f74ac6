"""The native engine's malloc: freed memory kept for the next call.

A compiled program allocates its intermediate buffers with `malloc` and frees them on
every call. With glibc's defaults a buffer above 128 KiB is mapped afresh and unmapped on
free, so each call page-faults its activations in again: on the ResNet basic block of
benchmarks/models.py (four buffers of 0.8 MiB) that is 1.2 ms of a 2.1 ms call. Frameworks
keep such memory (onnxruntime's arena, IREE's caching allocator); the engine asks glibc to
do the same, once per process: buffers up to 32 MiB (glibc's largest mapping threshold)
come from the heap, and the heap is not trimmed below 512 MiB of free memory. Nothing of a
program's meaning changes. `HETEROLAYOUT_MALLOC=default` leaves glibc's defaults.
"""

from __future__ import annotations

import ctypes
import functools
import os

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 512 << 20
VARIABLE = "HETEROLAYOUT_MALLOC"


@functools.cache
def keep_freed_memory() -> bool:
    """Set glibc's thresholds (once); whether they were set (not on other C libraries, nor
    with `HETEROLAYOUT_MALLOC=default`)."""
    if os.environ.get(VARIABLE, "") == "default":
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )
