"""The interpreter engine: xDSL's Interpreter with heterolayout's InterpreterFunctions."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter

from heterolayout.interpreter.functions import all_functions
from heterolayout.interpreter.program import reachable_functions, too_deep


class InterpreterEngine:
    """Runs functions of one module op by op; the per-op pieces it compiles are kept across
    calls, the state of a run (globals) is not."""

    name = "interp"

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self._functions = all_functions(module)
        self._checked: set[str] = set()

    def call(self, entry: str, args: tuple[Any, ...]) -> tuple[Any, ...]:
        if entry not in self._checked:
            reachable_functions(self.module, entry)
            self._checked.add(entry)
        interpreter = Interpreter(self.module, index_bitwidth=64)
        for functions in self._functions:
            interpreter.register_implementations(functions)
        try:
            return tuple(interpreter.call_op(entry, args))
        except RecursionError:
            raise too_deep(entry) from None
