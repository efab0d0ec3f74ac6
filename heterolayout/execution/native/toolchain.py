"""Upstream MLIR 22 and the C compiler the native engine builds with: where they are, their
versions, and the pass pipeline that lowers upstream IR to the LLVM dialect.

On Debian the MLIR tools come from the `mlir-22-tools` package (`mlir-opt-22`,
`mlir-runner-22` on PATH, the real binaries in `/usr/lib/llvm-22/bin`). The runner utility
libraries (`printMemrefF32` and friends, for running programs under `mlir-runner`) come from
its dependency `libmlir-22` as versioned files only (`libmlir_runner_utils.so.22.1`).

This module imports nothing heavy (no xDSL), so lit's configuration can load it.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

MLIR_MAJOR = 22
LLVM_PREFIX = Path(f"/usr/lib/llvm-{MLIR_MAJOR}")
INSTALL_HINT = f"mlir-{MLIR_MAJOR}-tools not installed: apt-get install -y mlir-{MLIR_MAJOR}-tools"
CC_HINT = "no C compiler (cc) found: apt-get install -y gcc"

LOWER_TO_LLVM: tuple[str, ...] = (
    "--convert-linalg-to-loops",
    "--convert-vector-to-scf",
    "--lower-affine",
    "--convert-scf-to-cf",
    "--expand-strided-metadata",
    "--lower-affine",
    "--arith-expand",
    "--convert-math-to-llvm",
    "--convert-math-to-libm",
    "--convert-vector-to-llvm",
    "--convert-ub-to-llvm",
    "--finalize-memref-to-llvm",
    "--convert-arith-to-llvm",
    "--convert-index-to-llvm",
    "--convert-func-to-llvm",
    "--convert-cf-to-llvm",
    "--reconcile-unrealized-casts",
)
"""Lowers upstream linalg/func/memref/arith/math/scf/affine/vector IR (what `layout-lower`
emits, and what users bring) to the LLVM dialect. Checked with MLIR 22.1:
- linalg ops become loops first; convert-vector-to-scf turns vector.transfer_read/write
  into loops;
- lower-affine before scf-to-cf (affine.for -> scf.for), and again after
  expand-strided-metadata, which may create affine.apply for subviews/strided memrefs;
- arith-expand rewrites ops with no direct LLVM lowering (ceildivsi, floordivsi, ...);
- math ops LLVM has intrinsics for (sqrt, absf, ctpop, ...) become intrinsics, the rest
  libm calls, before the vector conversion: a libm call takes scalars, so a math op on a
  vector (`math.erf` of a vectorized GELU) becomes `vector.extract`s, calls and
  `vector.insert`s, which convert-vector-to-llvm must still see;
- the vector conversions start some vectors from `ub.poison` (a `vector.transfer_read`
  along a dim that is not the innermost), which convert-ub-to-llvm makes `llvm.mlir.poison`."""

RUNNER_UTILS_NAMES = ("libmlir_runner_utils", "libmlir_c_runner_utils")


def find_mlir_tool(name: str) -> str | None:
    """Path of MLIR tool `name` (`mlir-opt`, `mlir-runner`, ...), or None.

    Looks for `name-22` on PATH, then `/usr/lib/llvm-22/bin/name`, then plain `name` on PATH
    (which may be another MLIR version: callers that care check `--version`).
    """
    versioned = shutil.which(f"{name}-{MLIR_MAJOR}")
    if versioned:
        return versioned
    in_prefix = LLVM_PREFIX / "bin" / name
    if in_prefix.is_file() and os.access(in_prefix, os.X_OK):
        return str(in_prefix)
    return shutil.which(name)


def find_c_compiler() -> str | None:
    """The C compiler that links shared libraries: `$CC`, else `cc`, `gcc` or `clang`."""
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name:
            path = shutil.which(name)
            if path:
                return path
    return None


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
    """Paths of the runner utility libraries for `mlir-runner -shared-libs=`:
    `[libmlir_runner_utils, libmlir_c_runner_utils]`, or `[]` if either is missing."""
    found = [_find_library(stem) for stem in RUNNER_UTILS_NAMES]
    if any(p is None for p in found):
        return []
    return [p for p in found if p is not None]


@functools.cache
def tool_version(path: str) -> str:
    """The first line of `path --version` (part of the native cache key)."""
    try:
        run = subprocess.run(
            [path, "--version"], capture_output=True, text=True, check=False, timeout=60
        )
    except OSError as error:
        return f"unavailable ({error})"
    lines = [line.strip() for line in (run.stdout + run.stderr).splitlines() if line.strip()]
    return " ".join(lines[:2])


def command_text(command: Sequence[str]) -> str:
    return " ".join(command)
