"""From upstream MLIR text to a shared library, once per text.

The route needs only `mlir-22-tools` and a C compiler: `mlir-opt-22` lowers the module to
the LLVM dialect (`LOWER_TO_LLVM`); `mlir-runner-22 -O3 --dump-object-file` compiles it
with LLVM 22 for the host CPU (its features included: AVX2, AVX-512 where present) and
writes the object file, adding a packed wrapper `_mlir_<name>(void **)` for every function
(it runs only an empty entry function); `cc -shared` links the object with the run-time
support (`runtime.c`) into a library.

Libraries are cached on disk under `cache_dir()`: `$HETEROLAYOUT_CACHE_DIR/native`, else
`$XDG_CACHE_HOME/heterolayout/native`, else `~/.cache/heterolayout/native`. The key hashes
the module text, the versions of the tools, their flags and the run-time source, so a
cached library is never stale; `clear_cache()` (or deleting the folder) empties it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.native.toolchain import (
    CC_HINT,
    INSTALL_HINT,
    LOWER_TO_LLVM,
    find_c_compiler,
    find_mlir_tool,
    tool_version,
)

OPTIMIZATION = "-O3"
NOOP_ENTRY = "__heterolayout_noop"
"""The function mlir-runner runs after compiling (it must run something)."""
RUNTIME_SOURCE = Path(__file__).with_name("runtime.c")
LINK_FLAGS = ("-shared", "-Wl,-Bsymbolic", "-Wl,-z,defs", "-Wl,-z,notext")
"""-Bsymbolic: the library's calls of the runtime bind to its own copy; -z defs: a missing
symbol fails the link, naming it, instead of the load; -z notext: the JIT's object uses the
large code model, whose absolute addresses the loader relocates in the text."""
RUNTIME_FLAGS = ("-O2", "-fPIC", "-std=c11")


def cache_dir() -> Path:
    explicit = os.environ.get("HETEROLAYOUT_CACHE_DIR")
    if explicit:
        return Path(explicit) / "native"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "heterolayout" / "native"


def clear_cache() -> None:
    """Delete every cached library (they are rebuilt on demand)."""
    shutil.rmtree(cache_dir(), ignore_errors=True)


@dataclass(frozen=True)
class Tools:
    mlir_opt: str
    mlir_runner: str
    cc: str

    @staticmethod
    def find() -> Tools:
        """The tools, or a one-line error saying what to install."""
        mlir_opt, mlir_runner = find_mlir_tool("mlir-opt"), find_mlir_tool("mlir-runner")
        if mlir_opt is None or mlir_runner is None:
            raise ExecutionError(f"the native engine needs MLIR 22: {INSTALL_HINT}")
        cc = find_c_compiler()
        if cc is None:
            raise ExecutionError(f"the native engine needs a C compiler: {CC_HINT}")
        return Tools(mlir_opt, mlir_runner, cc)

    def fingerprint(self) -> str:
        parts = [
            *(tool_version(t) for t in (self.mlir_opt, self.mlir_runner, self.cc)),
            " ".join(LOWER_TO_LLVM),
            OPTIMIZATION,
            " ".join(LINK_FLAGS + RUNTIME_FLAGS),
            RUNTIME_SOURCE.read_text(),
        ]
        return "\n".join(parts)


@dataclass(frozen=True)
class BuildTimes:
    """Seconds spent in each step of one build (all 0 for a cached library)."""

    lower: float = 0.0
    codegen: float = 0.0
    link: float = 0.0

    @property
    def total(self) -> float:
        return self.lower + self.codegen + self.link


def _key(text: str, tools: Tools) -> str:
    digest = hashlib.sha256()
    digest.update(tools.fingerprint().encode())
    digest.update(b"\0")
    digest.update(text.encode())
    return digest.hexdigest()[:32]


def _run(command: list[str], stage: str, stdin: str | None = None) -> str:
    try:
        done = subprocess.run(
            command, input=stdin, capture_output=True, text=True, check=False, timeout=1800
        )
    except subprocess.TimeoutExpired:
        raise ExecutionError(f"native build: {stage} timed out") from None
    if done.returncode != 0:
        message = _first_error(done.stderr) or f"exit {done.returncode}"
        raise ExecutionError(f"native build: {stage} failed: {message}")
    return done.stdout


def _first_error(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if "error" in line.lower() or "undefined reference" in line:
            return line
    return lines[0] if lines else ""


def runtime(tools: Tools, *, shared: bool) -> Path:
    """The run-time support compiled once: as an object linked into every module library,
    or as a library of its own, against which mlir-runner resolves the module's calls while
    it compiles."""
    path = cache_dir() / f"runtime-{_key('runtime', tools)}.{'so' if shared else 'o'}"
    if not path.exists():
        kind = "-shared" if shared else "-c"
        _atomic_build(
            path,
            lambda out: _run(
                [tools.cc, *RUNTIME_FLAGS, kind, str(RUNTIME_SOURCE), "-o", str(out)],
                "cc (run-time support)",
            ),
        )
    return path


def _atomic_build(path: Path, build) -> None:  # type: ignore[no-untyped-def]
    """Build into a temporary file next to `path`, then rename: concurrent builders and
    interrupted builds never leave a partial library under the final name."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    os.close(handle)
    try:
        build(Path(temporary))
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def build_library(text: str) -> tuple[Path, BuildTimes]:
    """The shared library of upstream MLIR `text` (which must define `NOOP_ENTRY`), built or
    found in the cache."""
    tools = Tools.find()
    path = cache_dir() / f"module-{_key(text, tools)}.so"
    if path.exists():
        return path, BuildTimes()
    support_library, support_object = runtime(tools, shared=True), runtime(tools, shared=False)
    times: dict[str, float] = {}

    def build(out: Path) -> None:
        with tempfile.TemporaryDirectory(prefix="heterolayout-native-") as work:
            start = time.perf_counter()
            llvm = _run([tools.mlir_opt, *LOWER_TO_LLVM], "mlir-opt (lowering to LLVM)", text)
            times["lower"] = time.perf_counter() - start
            start = time.perf_counter()
            objects = Path(work) / "module.o"
            _run(
                [
                    tools.mlir_runner,
                    OPTIMIZATION,
                    "-e",
                    NOOP_ENTRY,
                    "-entry-point-result=void",
                    "--dump-object-file",
                    f"--object-filename={objects}",
                    f"-shared-libs={support_library}",
                ],
                "mlir-runner (code generation)",
                llvm,
            )
            times["codegen"] = time.perf_counter() - start
            start = time.perf_counter()
            _run(
                [tools.cc, *LINK_FLAGS, str(objects), str(support_object), "-lm", "-o", str(out)],
                "cc (linking)",
            )
            times["link"] = time.perf_counter() - start

    _atomic_build(path, build)
    return path, BuildTimes(**times)
