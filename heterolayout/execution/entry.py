"""The op set both engines run, and the function-level checks they make before running."""

from __future__ import annotations

import sys

from xdsl.dialects import gpu
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import Operation

from heterolayout.dialects.diagnostics import location, where
from heterolayout.dialects.functions import Function, callee_key, function_table
from heterolayout.dialects.names import op_name
from heterolayout.dialects.roles import OP_ROLES
from heterolayout.dialects.structured import is_structured
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.interp.gpu import check_barrier
from heterolayout.execution.runtime.memref import BYTE_VIEW_OP
from heterolayout.execution.runtime.runner_utils import runner_function
from heterolayout.execution.runtime.semantics import VALUE_OPS

NOT_RUN = frozenset({"memref.view"})
"""Ops of the op-role table the engines do not run: `memref.view` reads a byte buffer as
elements of another type, which the engines' typed buffers do not model."""

SUPPORTED_OPS = frozenset(VALUE_OPS) | (frozenset(OP_ROLES) - NOT_RUN) | {BYTE_VIEW_OP}
"""Every op name either engine runs: the value ops, the memory and control ops of the
op-role table and the byte view of sub-byte elements (`views.byte_view_plan`), with the
linalg structured ops (`structured`); anything else is reported before a run starts."""


def supported(op: Operation) -> bool:
    return op_name(op) in SUPPORTED_OPS or is_structured(op)


def too_deep(entry: str) -> ExecutionError:
    return ExecutionError(
        f"@{entry}: calls nest deeper than Python's recursion limit ({sys.getrecursionlimit()})"
    )


def functions(module: ModuleOp) -> dict[str, FuncOp]:
    return {op.sym_name.data: op for op in module.ops if isinstance(op, FuncOp)}


def find_function(module: ModuleOp, name: str) -> FuncOp:
    table = functions(module)
    if name not in table:
        known = ", ".join(f"@{n}" for n in table) or "none"
        raise ExecutionError(f"no function @{name} in the module (functions: {known})")
    function = table[name]
    if not function.body.blocks:
        raise ExecutionError(f"function @{name} is external (it has no body) and cannot be run")
    return function


def reachable_functions(module: ModuleOp, entry: str) -> list[Function]:
    """`entry` and every function with a body it may call or kernel it may launch, each
    checked to hold only supported ops; the external functions it calls must be runner-utils
    functions."""
    table = functions(module)
    kernels = function_table(module)
    order: list[Function] = [find_function(module, entry)]
    seen = {entry}
    for function in order:
        for op in function.walk():
            name = op_name(op)
            if not supported(op) and op is not function:
                raise ExecutionError(f"unsupported op '{name}' at {location(op)}")
            if name == "gpu.barrier":
                check_barrier(op)
            if isinstance(op, gpu.LaunchFuncOp):
                key = callee_key(op)
                kernel = kernels.get(key)
                if not isinstance(kernel, gpu.FuncOp):
                    raise ExecutionError(f"{where(op)}: no gpu.func @{key} in the module")
                if key not in seen:
                    seen.add(key)
                    order.append(kernel)
            if isinstance(op, CallOp):
                callee = op.callee.root_reference.data
                if callee not in table:
                    raise ExecutionError(f"{where(op)}: no function @{callee} in the module")
                if not table[callee].body.blocks:
                    runner_function(callee, table[callee].function_type, where(op))
                    continue
                if callee not in seen:
                    seen.add(callee)
                    order.append(table[callee])
    return order
