"""Native execution: modules compiled by upstream MLIR 22 into shared libraries, called
through ctypes with memref descriptors over numpy arrays.

    import heterolayout.execution.native as native
    library = native.compile(module_or_text)           # once per module text, cached on disk
    results = library.call("main", [a, b, c])          # numpy arrays see the writes
    kernel = native.TimedFunction(module, "main")      # a timing loop LLVM cannot fold away
    seconds = kernel.seconds([a, b, c], calls=100)
    print(native.bench(module_or_text, "main"))        # with and without layouts, side by side

`compile` strips layouts a module still has (`layout-strip`); lower them first
(`layout-lower`) to run the physical program. The libraries live in `cache_dir()`
(`$HETEROLAYOUT_CACHE_DIR/native`, else `$XDG_CACHE_HOME/heterolayout/native`, else
`~/.cache/heterolayout/native`); `clear_cache()` empties it. `missing()` says what to
install when MLIR 22 or a C compiler is absent. Importing this package loads nothing heavy:
each name loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from heterolayout.layout.services import lend_native_packer

if TYPE_CHECKING:
    import numpy as np
    from xdsl.dialects.builtin import ModuleOp

    from heterolayout.execution.native.library import NativeLibrary
    from heterolayout.layout.model import Layout

__all__ = [
    "BenchReport",
    "NativeLibrary",
    "TimedFunction",
    "bench",
    "cache_dir",
    "clear_cache",
    "compile",
    "missing",
]


def compile(module_or_text: ModuleOp | str, *, timed: tuple[str, ...] = ()) -> NativeLibrary:
    """The module as a shared library (its layouts stripped), with timing drivers for the
    functions named in `timed` (see `heterolayout.execution.native.timing`)."""
    from heterolayout.execution.engines import load_module
    from heterolayout.execution.native.engine import stripped
    from heterolayout.execution.native.module import compile_module
    from heterolayout.execution.native.timing import with_timing

    module = stripped(load_module(module_or_text))
    return compile_module(with_timing(module, timed) if timed else module)


def missing() -> str | None:
    """What to install for the native engine, or None when everything is there."""
    from heterolayout.execution.errors import ExecutionError
    from heterolayout.execution.native.build import Tools

    try:
        Tools.find()
    except ExecutionError as error:
        return str(error)
    return None


class _CompiledPacker:
    """`Layout.pack`/`unpack` by the compiled conversion (`native.packing`, loaded on first
    use: importing this package stays cheap), lent to the model (`layout.services`)."""

    def wants(self, layout: Layout, array: np.ndarray, slots: int, native: bool | None) -> bool:
        from heterolayout.execution.native import packing

        return packing.wants_native(layout, packing.element_of_array(layout, array), slots, native)

    def pack(self, layout: Layout, array: np.ndarray, fill: int | float) -> np.ndarray:
        from heterolayout.execution.native.packing import native_pack

        return native_pack(layout, array, fill)

    def unpack(self, layout: Layout, physical: np.ndarray) -> np.ndarray:
        from heterolayout.execution.native.packing import native_unpack

        return native_unpack(layout, physical)


lend_native_packer(_CompiledPacker())


def __getattr__(name: str) -> Any:
    if name in ("bench", "BenchReport", "TimedFunction"):
        from heterolayout.execution.native import benchmarking

        return getattr(benchmarking, name)
    if name in ("cache_dir", "clear_cache"):
        from heterolayout.execution.native import build

        return getattr(build, name)
    if name == "NativeLibrary":
        from heterolayout.execution.native.library import NativeLibrary

        return NativeLibrary
    raise AttributeError(f"module 'heterolayout.execution.native' has no attribute {name!r}")
