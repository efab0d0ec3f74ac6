"""Build the small oneDNN C++ harnesses of the benchmarks (benchmark-only: needs the
`onednn-cpu-gomp` and `onednn-devel-cpu-gomp` wheels, `pip install -e '.[bench]'`, and g++).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent


def onednn_prefix() -> Path | None:
    """The install prefix holding include/dnnl.hpp and lib/libdnnl.so, or None."""
    for prefix in {Path(sys.prefix), Path(sysconfig.get_paths()["data"])}:
        if (prefix / "include" / "dnnl.hpp").is_file() and (prefix / "lib" / "libdnnl.so").exists():
            return prefix
    return None


def missing() -> str | None:
    """Why the harnesses cannot be built here, or None."""
    if shutil.which("g++") is None:
        return "g++ not found"
    if onednn_prefix() is None:
        return "oneDNN not installed (pip install -e '.[bench]')"
    return None


def build(source: str, output: Path, *, shared: bool = False) -> Path:
    """Compile benchmarks/`source` against oneDNN into `output` (-O2, rpath to the wheel):
    an executable, or with `shared` a library to load with ctypes."""
    prefix = onednn_prefix()
    assert prefix is not None
    command = [
        "g++", "-O2", "-std=c++17", str(HERE / source), "-o", str(output),
        f"-I{prefix / 'include'}", f"-L{prefix / 'lib'}", "-ldnnl",
        f"-Wl,-rpath,{prefix / 'lib'}",
    ]
    if shared:
        command[1:1] = ["-shared", "-fPIC"]
    subprocess.run(command, check=True, capture_output=True, text=True)
    return output
