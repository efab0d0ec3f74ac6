"""Execution: the interpreter (xDSL's, with heterolayout's semantics), the compiled engine,
and the `run` / `check` API."""

from heterolayout.execution.api import RunResult, check, run
from heterolayout.execution.comparison import CheckReport, Mismatch, compare_programs
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime.memref import LayoutMemRef

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
