"""InterpreterFunctions for `vector.transfer_read` and `vector.transfer_write` (the shared
meaning is `runtime.transfers`; the compiled engine's code: `compiled.transfers`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import vector
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)

from heterolayout.execution.interp.kernels import Cache
from heterolayout.execution.runtime import transfers


@register_impls
@dataclass
class TransferFunctions(InterpreterFunctions):
    """vector.transfer_read and vector.transfer_write (see `transfers`)."""

    cache: Cache = field(default_factory=Cache)

    @impl(vector.TransferReadOp)
    def run_transfer_read(
        self, interpreter: Interpreter, op: vector.TransferReadOp, args: PythonValues
    ) -> PythonValues:
        plan = self.cache.get(op, transfers.plan)
        count = len(op.indices)
        mask = args[2 + count] if op.mask is not None else None
        return (transfers.read(plan, args[0], args[1 : 1 + count], args[1 + count], mask),)

    @impl(vector.TransferWriteOp)
    def run_transfer_write(
        self, interpreter: Interpreter, op: vector.TransferWriteOp, args: PythonValues
    ) -> PythonValues:
        plan = self.cache.get(op, transfers.plan)
        count = len(op.indices)
        mask = args[2 + count] if op.mask is not None else None
        transfers.write(plan, args[0], args[1], args[2 : 2 + count], mask)
        return ()
