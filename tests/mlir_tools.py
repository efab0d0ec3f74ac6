"""Locate upstream MLIR 22 tools and run MLIR programs natively.

Shared by the pytest cross-checks (through the fixtures in ``conftest.py``) and by the
lit configuration in ``tests/filecheck/lit.cfg``. This module imports neither pytest nor
heterolayout at import time, so both can load it.

On Debian the tools come from the ``mlir-22-tools`` package (``mlir-opt-22``,
``mlir-runner-22`` on PATH, the real binaries in ``/usr/lib/llvm-22/bin``). The runner
utility libraries (``printMemrefF32`` and friends) come from its dependency ``libmlir-22``
as versioned files only (``libmlir_runner_utils.so.22.1``); the unversioned ``.so``
symlinks are in ``libmlir-22-dev``, which is not needed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

MLIR_MAJOR = 22
LLVM_PREFIX = Path(f"/usr/lib/llvm-{MLIR_MAJOR}")
INSTALL_HINT = f"mlir-{MLIR_MAJOR}-tools not installed: apt-get install -y mlir-{MLIR_MAJOR}-tools"

# Lowers upstream func/memref/arith/scf/affine/vector IR (what `layout-lower` emits) to the
# LLVM dialect for `mlir-runner`. Checked with MLIR 22.1:
# - convert-vector-to-scf first, so vector.transfer_read/write become loops;
# - lower-affine before scf-to-cf (affine.for -> scf.for), and again after
#   expand-strided-metadata, which may create affine.apply for subviews/strided memrefs;
# - arith-expand rewrites ops with no direct LLVM lowering (ceildivsi, floordivsi, ...).
LOWER_TO_LLVM: tuple[str, ...] = (
    "--convert-vector-to-scf",
    "--lower-affine",
    "--convert-scf-to-cf",
    "--expand-strided-metadata",
    "--lower-affine",
    "--arith-expand",
    "--convert-vector-to-llvm",
    "--finalize-memref-to-llvm",
    "--convert-arith-to-llvm",
    "--convert-index-to-llvm",
    "--convert-func-to-llvm",
    "--convert-cf-to-llvm",
    "--reconcile-unrealized-casts",
)

RUNNER_UTILS_NAMES = ("libmlir_runner_utils", "libmlir_c_runner_utils")


def find_mlir_tool(name: str) -> str | None:
    """Path of MLIR tool `name` (``mlir-opt``, ``mlir-runner``, ...), or None.

    Looks for ``name-22`` on PATH, then ``/usr/lib/llvm-22/bin/name``, then plain ``name``
    on PATH (which may be another MLIR version: callers that care check ``--version``).
    """
    versioned = shutil.which(f"{name}-{MLIR_MAJOR}")
    if versioned:
        return versioned
    in_prefix = LLVM_PREFIX / "bin" / name
    if in_prefix.is_file() and os.access(in_prefix, os.X_OK):
        return str(in_prefix)
    return shutil.which(name)


def _library_dirs() -> list[Path]:
    dirs = [LLVM_PREFIX / "lib"]
    runner = find_mlir_tool("mlir-runner")
    if runner:
        # .../llvm-22/bin/mlir-runner -> .../llvm-22/lib (follows the /usr/bin symlink).
        dirs.append(Path(os.path.realpath(runner)).parent.parent / "lib")
    unique: list[Path] = []
    for d in dirs:
        if d not in unique and d.is_dir():
            unique.append(d)
    return unique


def _find_library(stem: str) -> str | None:
    for d in _library_dirs():
        exact = d / f"{stem}.so"
        if exact.is_file():
            return str(exact)
        # Versioned only, e.g. libmlir_runner_utils.so.22.1; prefer this MLIR's version.
        versioned = sorted(d.glob(f"{stem}.so.*"), reverse=True)
        preferred = [p for p in versioned if p.name.startswith(f"{stem}.so.{MLIR_MAJOR}")]
        for p in preferred or versioned:
            if p.is_file():
                return str(p)
    return None


def find_runner_utils() -> list[str]:
    """Paths of the runner utility libraries for ``mlir-runner -shared-libs=``.

    Returns ``[libmlir_runner_utils, libmlir_c_runner_utils]``, or ``[]`` if either is missing.
    """
    found = [_find_library(stem) for stem in RUNNER_UTILS_NAMES]
    if any(p is None for p in found):
        return []
    return [p for p in found if p is not None]


def missing_tools() -> list[str]:
    """Names of the MLIR pieces that ``run_native`` needs and that are not installed."""
    missing = [name for name in ("mlir-opt", "mlir-runner") if find_mlir_tool(name) is None]
    if not find_runner_utils():
        missing.append("runner utils (" + ", ".join(f"{n}.so" for n in RUNNER_UTILS_NAMES) + ")")
    return missing


def require(path, what: str):
    """Return `path`, or skip the current test (fail it when CI=true) if it is missing.

    Outside CI a missing MLIR install skips with a visible reason; in CI (``CI=true``) it
    fails, so the upstream cross-checks can never be skipped silently there.
    """
    if path:
        return path
    import pytest

    message = f"{what} not found; {INSTALL_HINT}"
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
