"""PTX from a program with layouts: `layout-lower` (or a given pipeline), then upstream
`mlir-opt` 22 turns every `gpu.module` into PTX text (`gpu-module-to-binary format=isa`
needs LLVM's NVPTX back-end, not the CUDA toolkit).

Kernels take bare pointers (`use-bare-ptr-memref-call-conv`): one `.param .u64` per memref,
then the scalars, so a launcher passes device pointers and values in the order of the
kernel's parameters. That convention needs memrefs of static shape in kernel signatures;
`mlir-opt` refuses others and the error is passed on.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from xdsl.dialects import gpu
from xdsl.dialects.builtin import MemRefType, ModuleOp, NoneAttr
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

MLIR_OPT_NAMES = ("mlir-opt-22", "/usr/lib/llvm-22/bin/mlir-opt")
INSTALL_HINT = "mlir-opt-22 not found: apt-get install -y mlir-22-tools"


def ptx_passes(chip: str, opt_level: int) -> tuple[str, ...]:
    """The upstream passes from lowered IR to PTX: affine and scf to cf (the NVVM lowering
    takes arith, cf, memref and gpu ops), gpu.launch bodies outlined into kernels, then
    NVVM, then the PTX of each gpu.module as a `gpu.binary` attribute."""
    return (
        "--lower-affine",
        "--convert-scf-to-cf",
        "--gpu-kernel-outlining",
        f"--nvvm-attach-target=chip={chip} O={opt_level}",
        "--convert-gpu-to-nvvm=use-bare-ptr-memref-call-conv=1",
        "--reconcile-unrealized-casts",
        "--gpu-module-to-binary=format=isa",
    )


class CudaError(DiagnosticException):
    """A program that cannot become PTX or run on the GPU: one line saying why."""


def find_mlir_opt() -> str:
    for name in MLIR_OPT_NAMES:
        found = shutil.which(name) or (name if Path(name).is_file() else None)
        if found:
            return found
    raise CudaError(INSTALL_HINT)


def compile_ptx(
    module_or_text: ModuleOp | str,
    pipeline: str | Sequence[str | ModulePass] = "layout-lower",
    *,
    chip: str = "sm_90",
    opt_level: int = 3,
) -> dict[str, str]:
    """The PTX text of every `gpu.module` (after outlining: `gpu.launch` bodies included),
    by module name, of the program lowered with `pipeline` (empty: as it is)."""
    from heterolayout.execution.engines import load_module
    from heterolayout.passes.pipeline import apply_pipeline

    if not re.fullmatch(r"sm_\d+[a-z]?", chip):
        raise CudaError(f"chip '{chip}': expected an NVIDIA architecture such as sm_90")
    module = load_module(module_or_text)
    if pipeline:
        module = apply_pipeline(module, pipeline)
    check_bare_pointers(module)
    command = [find_mlir_opt(), *ptx_passes(chip, opt_level)]
    done = subprocess.run(command, input=str(module), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise CudaError(f"mlir-opt: {_first_error(done.stderr)}")
    binaries = dict(_BINARY.findall(done.stdout))
    if not binaries:
        raise CudaError(
            "the program has no gpu.module or gpu.launch: there is no kernel to compile"
        )
    return {name: _unescape(text) for name, text in binaries.items()}


def check_bare_pointers(module: ModuleOp) -> None:
    """Refuse, naming the kernel, a memref parameter a bare pointer cannot stand for."""
    for op in module.walk():
        if not isinstance(op, gpu.FuncOp):
            continue
        for memref_type in op.function_type.inputs.data:
            if not isinstance(memref_type, MemRefType):
                continue
            if not memref_type.has_static_shape() or not isinstance(memref_type.layout, NoneAttr):
                raise CudaError(
                    f"gpu.func @{op.sym_name.data} takes {memref_type}: kernels on the PTX "
                    "path take bare pointers, so their memrefs need static shapes and no "
                    "strided layout"
                )


def entry_names(ptx: str) -> list[str]:
    """The kernels a PTX module defines (its `.entry` names), in order."""
    return re.findall(r"^\.visible \.entry (\w+)\(", ptx, flags=re.MULTILINE)


_BINARY = re.compile(r'gpu\.binary @(\w+)\s.*?assembly = "((?:[^"\\]|\\.)*)"', re.DOTALL)


def _unescape(text: str) -> str:
    """MLIR's string escapes: `\\\\` and `\\XX` (two hex digits)."""
    return re.sub(
        r"\\(\\|[0-9A-Fa-f]{2})",
        lambda m: "\\" if m.group(1) == "\\" else chr(int(m.group(1), 16)),
        text,
    )


def _first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    lines = [line for line in stderr.splitlines() if line.strip()]
    return lines[0] if lines else "failed with no message"
