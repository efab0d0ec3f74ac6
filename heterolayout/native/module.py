"""`compile_module`: an upstream-only module as a `NativeLibrary`.

The text a library is built from is the module as xDSL prints it, with every function that
has a body made public (so each gets a packed wrapper to call it by), vector accesses to
memrefs of sub-byte integers made byte-wide (`narrow`), the external functions it calls
checked against the ones the run-time provides, and an empty entry function for mlir-runner
to run.
"""

from __future__ import annotations

import hashlib
import io

from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, MemRefType, ModuleOp
from xdsl.ir import Block, Operation, Region
from xdsl.printer import Printer

from heterolayout.interpreter.errors import ExecutionError
from heterolayout.interpreter.runner_utils import runner_function
from heterolayout.interpreter.source import op_name, where
from heterolayout.native.build import NOOP_ENTRY, build_library
from heterolayout.native.library import NativeLibrary
from heterolayout.native.narrow import widen_narrow_vector_accesses

NATIVE_FUNCTIONS = {
    "rtclock": "() -> f64",
    "heterolayout_opaque": "(index) -> ()",
}
"""External functions the run-time provides beyond the runner utils: a clock (seconds), and
a call LLVM cannot see into, for timing loops (its operand counts as escaped)."""

_LIBRARIES: dict[str, NativeLibrary] = {}


def layout_user(module: Operation) -> Operation | None:
    """The first op that uses the layout dialect or a layout-typed memref, or None."""
    from heterolayout.dialects.conversion import layout_of
    from heterolayout.dialects.views import value_layout

    for op in module.walk():
        if op_name(op).startswith("layout."):
            return op
        values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
        if any(value_layout(v) is not None for v in values):
            return op  # a view's strided type is its window, not a layout (value_layout)
        if isinstance(op, func.FuncOp):
            types = [*op.function_type.inputs.data, *op.function_type.outputs.data]
            if any(isinstance(t, MemRefType) and layout_of(t) is not None for t in types):
                return op
    return None


def _check_externals(module: ModuleOp) -> None:
    declared = {
        op.sym_name.data: op
        for op in module.ops
        if isinstance(op, func.FuncOp) and not op.body.blocks
    }
    for op in module.walk():
        if not isinstance(op, func.CallOp):
            continue
        callee = op.callee.root_reference.data
        declaration = declared.get(callee)
        if declaration is None:
            continue
        expected = NATIVE_FUNCTIONS.get(callee)
        if expected is None:
            runner_function(callee, declaration.function_type, where(op))
        elif str(declaration.function_type) != expected:
            raise ExecutionError(
                f"{where(op)}: @{callee} is declared as {declaration.function_type}, "
                f"but the native run-time's @{callee} takes {expected}"
            )


def module_text(module: ModuleOp) -> str:
    """The text mlir-opt reads: defined functions public, plus the empty entry."""
    user = layout_user(module)
    if user is not None:
        raise ExecutionError(
            f"{where(user)}: the native engine compiles upstream IR only; strip the layouts "
            "(layout-strip) or lower them (layout-lower) first"
        )
    _check_externals(module)
    prepared = module.clone()
    widen_narrow_vector_accesses(prepared)
    for op in prepared.ops:
        if isinstance(op, func.FuncOp) and op.body.blocks:
            op.properties.pop("sym_visibility", None)
    prepared.body.block.add_op(
        func.FuncOp(NOOP_ENTRY, FunctionType.from_lists([], []), Region(Block([func.ReturnOp()])))
    )
    stream = io.StringIO()
    Printer(stream=stream).print_op(prepared)
    return stream.getvalue() + "\n"


def function_types(module: ModuleOp) -> dict[str, FunctionType]:
    return {
        op.sym_name.data: op.function_type
        for op in module.ops
        if isinstance(op, func.FuncOp) and op.body.blocks
    }


def compile_module(module: ModuleOp) -> NativeLibrary:
    """The module's library, built once per module text (cached on disk and in memory)."""
    text = module_text(module)
    key = hashlib.sha256(text.encode()).hexdigest()
    library = _LIBRARIES.get(key)
    if library is None:
        path, times = build_library(text)
        library = _LIBRARIES[key] = NativeLibrary(path, function_types(module), times)
    return library
