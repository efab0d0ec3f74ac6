"""Timing loops compiled with the module, which LLVM cannot fold away.

For each timed function `f`, the module gets `@__heterolayout_time_f(args…, %n) -> f64`:
it makes the memref arguments escape (a call of `heterolayout_opaque` with each buffer's
address), then calls `f` `n` times between two `rtclock()` readings, each call followed by
an opaque call that receives what `f` returned. `f` is marked noinline. So no call can be
proven redundant: at -O3 LLVM deleted repeated calls of a kernel from a plain loop here (a
loop of 5 `memref.copy` calls measured one). The loop costs about a nanosecond per call.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    Float64Type,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.native.module import NATIVE_FUNCTIONS
from heterolayout.execution.runtime.values import element_of

DRIVER_PREFIX = "__heterolayout_time_"
OPAQUE = "heterolayout_opaque"
CLOCK = "rtclock"


def driver_name(function: str) -> str:
    return DRIVER_PREFIX + function


def with_timing(module: ModuleOp, functions: Sequence[str]) -> ModuleOp:
    """A copy of `module` with a timing driver for each of `functions` (noinline)."""
    timed = module.clone()
    table = {op.sym_name.data: op for op in timed.ops if isinstance(op, func.FuncOp)}
    _declare(timed, table, OPAQUE, FunctionType.from_lists([IndexType()], []))
    _declare(timed, table, CLOCK, FunctionType.from_lists([], [Float64Type()]))
    for name in functions:
        function = table.get(name)
        if function is None or not function.body.blocks:
            raise ExecutionError(f"no function @{name} with a body to time")
        function.attributes["passthrough"] = ArrayAttr([StringAttr("noinline")])
        timed.body.block.add_op(_driver(function))
    return timed


def _declare(
    module: ModuleOp, table: dict[str, func.FuncOp], name: str, function_type: FunctionType
) -> None:
    existing = table.get(name)
    if existing is None:
        module.body.block.add_op(func.FuncOp(name, function_type, Region(), visibility="private"))
        return
    if existing.body.blocks or str(existing.function_type) != NATIVE_FUNCTIONS[name]:
        raise ExecutionError(
            f"@{name} is the native run-time's {NATIVE_FUNCTIONS[name]} function; the module "
            f"defines it otherwise ({existing.function_type})"
        )


def _driver(function: func.FuncOp) -> func.FuncOp:
    inputs = list(function.function_type.inputs.data)
    outputs = list(function.function_type.outputs.data)
    block = Block(arg_types=[*inputs, IndexType()])
    params, count = list(block.args[:-1]), block.args[-1]
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    one = arith.ConstantOp(IntegerAttr(1, IndexType()))
    block.add_ops([zero, one])
    for value in params:
        if isinstance(value.type, MemRefType):
            _opaque(block, _address(block, value))
    sinks = [_sink(block, t) for t in outputs]
    start = func.CallOp(CLOCK, [], [Float64Type()])
    block.add_op(start)
    body = Block(arg_types=[IndexType()])
    call = func.CallOp(function.sym_name.data, params, outputs)
    body.add_op(call)
    for result, sink in zip(call.results, sinks, strict=True):
        if sink is None:
            _opaque(body, _address(body, result))
            continue
        body.add_op(memref.StoreOp.get(result, sink, [zero.result]))
        _opaque(body, _address(body, sink))
    if not outputs:
        _opaque(body, zero.result)
    body.add_op(scf.YieldOp())
    block.add_op(scf.ForOp(zero.result, count, one.result, [], Region(body)))
    end = func.CallOp(CLOCK, [], [Float64Type()])
    elapsed = arith.SubfOp(end.res[0], start.res[0])
    block.add_ops([end, elapsed, func.ReturnOp(elapsed.result)])
    return func.FuncOp(
        driver_name(function.sym_name.data),
        FunctionType.from_lists([*inputs, IndexType()], [Float64Type()]),
        Region(block),
    )


def _sink(block: Block, type_attr: Attribute) -> SSAValue | None:
    """A one-element buffer each call stores a scalar or vector result into (memref
    results are passed on by address)."""
    if isinstance(type_attr, MemRefType):
        return None
    element_of(type_attr)  # a scalar or vector the engines know, else an error naming it
    alloca = memref.AllocaOp.get(type_attr, shape=[1])
    block.add_op(alloca)
    return alloca.memref


def _address(block: Block, buffer: SSAValue) -> SSAValue:
    op: Operation = memref.ExtractAlignedPointerAsIndexOp.get(buffer)
    block.add_op(op)
    return op.results[0]


def _opaque(block: Block, value: SSAValue) -> None:
    block.add_op(func.CallOp(OPAQUE, [value], []))
