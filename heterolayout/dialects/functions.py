"""Function-like ops and their call sites: `func.func` with `func.call`, and `gpu.func`
kernels with `gpu.launch_func`. The passes treat both pairs the same way (a kernel launch is
a call whose callee runs once per thread), so they ask here rather than name the classes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import func, gpu
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Operation, SSAValue

Function = func.FuncOp | gpu.FuncOp
Call = func.CallOp | gpu.LaunchFuncOp
FUNCTION_TYPES = (func.FuncOp, gpu.FuncOp)
CALL_TYPES = (func.CallOp, gpu.LaunchFuncOp)


def enclosing_function(op: Operation) -> Function | None:
    """The `func.func` or `gpu.func` around `op` (None at module level)."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, FUNCTION_TYPES):
        parent = parent.parent_op()
    return parent


def symbol_key(reference: SymbolRefAttr) -> str:
    """`@f` for a function, `@m::@k` for a kernel in a gpu.module."""
    return "::@".join(
        [reference.root_reference.data, *(r.data for r in reference.nested_references.data)]
    )


def function_key(function: Function) -> str:
    parent = function.parent_op()
    name = function.sym_name.data
    return f"{parent.sym_name.data}::@{name}" if isinstance(parent, gpu.ModuleOp) else name


def function_table(module: ModuleOp) -> dict[str, Function]:
    """Every function and kernel of `module`, by the key its calls use."""
    return {function_key(op): op for op in module.walk() if isinstance(op, FUNCTION_TYPES)}


def callee_key(call: Call) -> str:
    return symbol_key(call.callee if isinstance(call, func.CallOp) else call.kernel)


def call_arguments(call: Call) -> Sequence[SSAValue]:
    """The values a call passes to its callee's parameters, in order."""
    return call.arguments if isinstance(call, func.CallOp) else call.kernelOperands


def argument_position(call: Call, index: int) -> int:
    """The operand number of the call's `index`-th argument."""
    if isinstance(call, func.CallOp):
        return index
    after = len(call.kernelOperands) + (call.asyncObject is not None)
    return len(call.operands) - after + index


def is_private(function: Function) -> bool:
    """Only this module calls it: a private `func.func`, or a kernel (launched from the host
    code of its module; its gpu.module has no other callers)."""
    if isinstance(function, gpu.FuncOp):
        return True
    visibility = function.sym_visibility
    return visibility is not None and visibility.data != "public"


def is_declaration(function: Function) -> bool:
    return isinstance(function, func.FuncOp) and function.is_declaration


def display_name(function: Function) -> str:
    """`@f` for a function, `gpu.func @m::@k` for a kernel or device function."""
    if isinstance(function, func.FuncOp):
        return f"@{function.sym_name.data}"
    return f"{function.name} @{function_key(function)}"


GRAPH_INPUT = "heterolayout.input"
"""The argument attribute naming the graph input an argument holds (`layout-import`)."""
GRAPH_OUTPUT = "heterolayout.output"
"""The argument (or result) attribute naming the graph output it holds: an argument that
carries it is written by the call, in place."""
GRAPH_UNSIGNED = "heterolayout.unsigned"
"""The argument (or result) attribute saying the graph value's integers are unsigned (an
ONNX `uint8`): the memref's are signless, and a call's named outputs are read unsigned."""


@dataclass(frozen=True)
class GraphName:
    """The graph value a function argument or result holds: its name, and whether the call
    writes it (a graph output) or reads it (a graph input)."""

    name: str
    output: bool


def _graph_name(attributes: DictionaryAttr) -> GraphName | None:
    for key, output in ((GRAPH_OUTPUT, True), (GRAPH_INPUT, False)):
        value = attributes.data.get(key)
        if isinstance(value, StringAttr):
            return GraphName(value.data, output)
    return None


def _names(attributes: ArrayAttr[DictionaryAttr] | None, count: int) -> list[GraphName | None]:
    if attributes is None:
        return [None] * count
    return [_graph_name(a) for a in attributes.data]


def argument_names(function: func.FuncOp) -> list[GraphName | None]:
    """Per argument, the graph value it holds (None for an argument without one)."""
    return _names(function.arg_attrs, len(function.function_type.inputs))


def result_names(function: func.FuncOp) -> list[GraphName | None]:
    """Per result, the graph output it returns (None for a result without one)."""
    return _names(function.res_attrs, len(function.function_type.outputs))


def unsigned_arguments(function: func.FuncOp) -> set[int]:
    """The arguments that carry `GRAPH_UNSIGNED`."""
    attributes = function.arg_attrs
    if attributes is None:
        return set()
    return {i for i, a in enumerate(attributes.data) if GRAPH_UNSIGNED in a.data}
