"""Locate upstream MLIR 22 tools and run MLIR programs natively.

Shared by the pytest cross-checks (through the fixtures in ``conftest.py``) and by the
lit configuration in ``tests/filecheck/lit.cfg``. Where the tools are and the pipeline that
lowers to LLVM are the package's (``heterolayout.execution.native.toolchain``, which imports nothing
heavy); this module adds running a program under ``mlir-runner`` and the pytest skips.

On Debian the tools come from the ``mlir-22-tools`` package (``mlir-opt-22``,
``mlir-runner-22`` on PATH, the real binaries in ``/usr/lib/llvm-22/bin``). The runner
utility libraries (``printMemrefF32`` and friends) come from its dependency ``libmlir-22``
as versioned files only (``libmlir_runner_utils.so.22.1``); the unversioned ``.so``
symlinks are in ``libmlir-22-dev``, which is not needed.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence

from heterolayout.execution.native.toolchain import (
    INSTALL_HINT,
    LLVM_PREFIX,
    LOWER_TO_LLVM,
    MLIR_MAJOR,
    RUNNER_UTILS_NAMES,
    find_mlir_tool,
    find_runner_utils,
)

__all__ = [
    "INSTALL_HINT",
    "LLVM_PREFIX",
    "LOWER_TO_LLVM",
    "MLIR_MAJOR",
    "NativeRunError",
    "find_mlir_tool",
    "find_runner_utils",
    "lower_to_llvm",
    "missing_tools",
    "require",
    "require_native_engine",
    "run_native",
]


def missing_tools() -> list[str]:
    """Names of the MLIR pieces that ``run_native`` needs and that are not installed."""
    missing = [name for name in ("mlir-opt", "mlir-runner") if find_mlir_tool(name) is None]
    if not find_runner_utils():
        missing.append("runner utils (" + ", ".join(f"{n}.so" for n in RUNNER_UTILS_NAMES) + ")")
    return missing


def require_native_engine() -> None:
    """Skip the current test (fail it when CI=true) unless the native engine can build:
    MLIR 22 and a C compiler."""
    from heterolayout.execution.native import missing

    reason = missing()
    if reason is not None:
        _skip_or_fail(reason)


def require(path, what: str):
    """Return `path`, or skip the current test (fail it when CI=true) if it is missing.

    Outside CI a missing MLIR install skips with a visible reason; in CI (``CI=true``) it
    fails, so the upstream cross-checks can never be skipped silently there.
    """
    if path:
        return path
    _skip_or_fail(f"{what} not found; {INSTALL_HINT}")


def _skip_or_fail(message: str) -> None:
    import pytest

    if os.environ.get("CI") == "true":
        pytest.fail(f"{message} (CI=true: MLIR cross-checks must not be skipped)", pytrace=False)
    pytest.skip(message)


class NativeRunError(RuntimeError):
    """An upstream tool rejected or failed on a program; the message carries its stderr."""


def _run(cmd: Sequence[str], stdin: str, stage: str, timeout: float) -> str:
    try:
        proc = subprocess.run(
            list(cmd), input=stdin, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired as exc:
        raise NativeRunError(f"{stage} timed out after {timeout}s: {' '.join(cmd)}") from exc
    if proc.returncode != 0:
        raise NativeRunError(
            f"{stage} failed (exit {proc.returncode}): {' '.join(cmd)}\n"
            f"--- stderr ---\n{proc.stderr}\n--- stdout ---\n{proc.stdout}"
        )
    return proc.stdout


def _tool(path: str | None, name: str) -> str:
    path = path or find_mlir_tool(name)
    if path is None:
        raise NativeRunError(f"{name} not found; {INSTALL_HINT}")
    return path


def lower_to_llvm(
    mlir_text: str,
    *,
    mlir_opt: str | None = None,
    pipeline: Sequence[str] = LOWER_TO_LLVM,
    timeout: float = 120,
) -> str:
    """Lower upstream MLIR text to the LLVM dialect with ``mlir-opt`` and return it."""
    cmd = [_tool(mlir_opt, "mlir-opt"), *pipeline]
    return _run(cmd, mlir_text, "mlir-opt", timeout)


def run_native(
    mlir_text: str,
    *,
    entry: str = "main",
    entry_result: str = "void",
    mlir_opt: str | None = None,
    mlir_runner: str | None = None,
    shared_libs: Sequence[str] | None = None,
    pipeline: Sequence[str] = LOWER_TO_LLVM,
    timeout: float = 120,
) -> str:
    """Lower `mlir_text` to LLVM with `pipeline`, run `entry` with mlir-runner, return stdout.

    Raises NativeRunError (with the tool's stderr) if lowering or execution fails.
    `shared_libs` defaults to the runner utils, so programs may call ``printMemrefF32``
    etc. (declare them with ``attributes { llvm.emit_c_interface }``) or use vector.print.
    """
    llvm_text = lower_to_llvm(mlir_text, mlir_opt=mlir_opt, pipeline=pipeline, timeout=timeout)
    libs = list(find_runner_utils() if shared_libs is None else shared_libs)
    cmd = [_tool(mlir_runner, "mlir-runner"), "-e", entry, f"-entry-point-result={entry_result}"]
    if libs:
        cmd.append("-shared-libs=" + ",".join(libs))
    return _run(cmd, llvm_text, "mlir-runner", timeout)
