"""The op set both engines run, and the function-level checks they make before running."""

from __future__ import annotations

import sys

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import Operation

from heterolayout.interpreter.errors import ExecutionError
from heterolayout.interpreter.runner_utils import runner_function
from heterolayout.interpreter.semantics import VALUE_OPS
from heterolayout.interpreter.source import location, op_name, where
from heterolayout.interpreter.structured import is_structured

MEMORY_AND_CONTROL = frozenset(
    {
        "memref.alloc",
        "memref.alloca",
        "memref.dealloc",
        "memref.load",
        "memref.store",
        "memref.dim",
        "memref.rank",
        "memref.extract_aligned_pointer_as_index",
        "memref.copy",
        "memref.cast",
        "memref.get_global",
        "vector.load",
        "vector.store",
        "vector.print",
        "affine.load",
        "affine.store",
        "affine.vector_load",
        "affine.vector_store",
        "affine.for",
        "affine.if",
        "affine.yield",
        "scf.for",
        "scf.if",
        "scf.while",
        "scf.condition",
        "scf.yield",
        "func.call",
        "func.return",
        "layout.assign",
        "layout.convert",
        "layout.schedule",
        "memref.subview",
        "memref.reinterpret_cast",
        "memref.collapse_shape",
        "memref.expand_shape",
        "memref.transpose",
        "vector.type_cast",
        "memref.prefetch",
        "affine.prefetch",
        "affine.delinearize_index",
        "affine.linearize_index",
        "scf.parallel",
        "scf.reduce",
        "scf.reduce.return",
        "cf.br",
        "cf.cond_br",
        "cf.assert",
        "vector.transfer_read",
        "vector.transfer_write",
        "linalg.yield",
        "linalg.index",
    }
)

SUPPORTED_OPS = frozenset(VALUE_OPS) | MEMORY_AND_CONTROL
"""Every op name either engine runs, with the linalg structured ops (`structured`);
anything else is reported before a run starts."""


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


def reachable_functions(module: ModuleOp, entry: str) -> list[FuncOp]:
    """`entry` and every function with a body it may call, each checked to hold only
    supported ops; the external functions it calls must be runner-utils functions."""
    table = functions(module)
    order = [find_function(module, entry)]
    seen = {entry}
    for function in order:
        for op in function.walk():
            name = op_name(op)
            if not supported(op) and op is not function:
                raise ExecutionError(f"unsupported op '{name}' at {location(op)}")
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
