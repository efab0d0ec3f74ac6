"""Execution: the interpreter (xDSL's, with heterolayout's semantics), the compiled engine,
and the `run` / `check` API."""

from heterolayout.interpreter.api import RunResult, check, run
from heterolayout.interpreter.comparison import CheckReport, Mismatch, compare_programs
from heterolayout.interpreter.errors import ExecutionError
from heterolayout.interpreter.memref import LayoutMemRef

__all__ = [
    "CheckReport",
    "ExecutionError",
    "LayoutMemRef",
    "Mismatch",
    "RunResult",
    "check",
    "compare_programs",
    "run",
]
