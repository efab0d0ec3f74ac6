"""The native engine: the engines' interface (`call(entry, values, out)`) over a compiled
module.

A program with layouts runs as its stripped form (`layout-strip`: plain logical memrefs,
which a layout never changes the meaning of), so the engine computes what the program
computes, like the other engines do on unlowered programs; layout-typed arguments cross in
logical form and come back into their layout buffers. A lowered program runs as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Attribute

from heterolayout.dialects.diagnostics import where
from heterolayout.execution.entry import find_function
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.native.library import NativeLibrary
from heterolayout.execution.native.module import compile_module
from heterolayout.execution.runtime import memref as memory
from heterolayout.execution.runtime.runner_utils import RunOutput
from heterolayout.passes.pipeline import apply_pipeline


def stripped(module: ModuleOp) -> ModuleOp:
    """The module without layouts (itself when it has none)."""
    from heterolayout.dialects.views import layout_user

    if layout_user(module) is None:
        return module
    from heterolayout.passes.lower.layout_strip import LayoutStripPass

    return apply_pipeline(module, [LayoutStripPass()])


class NativeEngine:
    """Runs a module's functions natively (compiled once per module text)."""

    def __init__(self, module: ModuleOp) -> None:
        for op in module.walk():
            if op.name in ("gpu.launch_func", "gpu.launch"):
                raise ExecutionError(
                    f"{where(op)}: the native engine compiles for the CPU; GPU code runs in the "
                    "interp and compiled engines (threads one after another) or with --engine cuda"
                )
        self.module = module
        self.library: NativeLibrary = compile_module(stripped(module))

    def call(self, entry: str, values: Sequence[Any], out: RunOutput) -> tuple[Any, ...]:
        function = find_function(self.module, entry)
        arguments = [v.logical() if isinstance(v, memory.LayoutMemRef) else v for v in values]
        results = self.library.call(entry, arguments, out)
        for value, argument in zip(values, arguments, strict=True):
            if isinstance(value, memory.LayoutMemRef):
                value.write_logical(argument)
        outputs = function.function_type.outputs.data
        return tuple(
            _result(r, t, f"result {i} of @{entry}")
            for i, (r, t) in enumerate(zip(results, outputs, strict=True))
        )


def _result(value: Any, type_attr: Attribute, what: str) -> Any:
    """A layout-typed memref result goes back into its layout (the other engines' form)."""
    if isinstance(type_attr, MemRefType) and memory.memref_info(type_attr).layout is not None:
        return memory.from_logical(value, memory.memref_info(type_attr), what)
    return value
