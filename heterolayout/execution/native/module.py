"""`compile_module`: an upstream-only module as a `NativeLibrary`.

The text a library is built from is the module as xDSL prints it, with every function that
has a body made public (so each gets a packed wrapper to call it by), the external
functions it calls checked against the ones the run-time provides, and an empty entry
function for mlir-runner to run. Nothing in it changes what an access means: a vector access
to sub-byte elements, which upstream would compile as packed bits, and an element access to a
memref of bit vectors of more than 64 bits, which LLVM 22 compiles wrong, are refused
(`layout-lower` and `layout-strip` write such accesses on the memref's bytes).
"""

from __future__ import annotations

import hashlib
import io

from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.ir import Block, Region
from xdsl.printer import Printer

from heterolayout.dialects.diagnostics import where
from heterolayout.dialects.names import op_name
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.native.build import NOOP_ENTRY, build_library
from heterolayout.execution.native.library import NativeLibrary
from heterolayout.execution.runtime.runner_utils import runner_function

NATIVE_FUNCTIONS = {
    "rtclock": "() -> f64",
    "heterolayout_opaque": "(index) -> ()",
}
"""External functions the run-time provides beyond the runner utils: a clock (seconds), and
a call LLVM cannot see into, for timing loops (its operand counts as escaped)."""

_LIBRARIES: dict[str, NativeLibrary] = {}


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


def _check_sub_byte_vectors(module: ModuleOp) -> None:
    from heterolayout.passes.packed.sub_byte_accesses import (
        memref_operand,
        miscompiled_upstream,
        moves_packed_bits,
    )

    for op in module.walk():
        if miscompiled_upstream(op):
            access = op.results[0] if op.results else op.operands[0]
            why = (
                "upstream MLIR 22 holds such a memref one element per byte but moves the "
                "vector as packed bits"
                if moves_packed_bits(op)
                else "LLVM 22 loads and stores vectors of these lanes wrong"
            )
            raise ExecutionError(
                f"{where(op)}: {op_name(op)} of {access.type} on {memref_operand(op).type}: "
                f"{why}, so compiled natively it would not access the elements it names; "
                "layout-strip (or layout-lower) writes it on the memref's bytes"
            )


def module_text(module: ModuleOp) -> str:
    """The text mlir-opt reads: defined functions public, plus the empty entry."""
    from heterolayout.dialects.views import layout_user

    user = layout_user(module)
    if user is not None:
        raise ExecutionError(
            f"{where(user)}: the native engine compiles upstream IR only; strip the layouts "
            "(layout-strip) or lower them (layout-lower) first"
        )
    _check_externals(module)
    _check_sub_byte_vectors(module)
    prepared = module.clone()
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
