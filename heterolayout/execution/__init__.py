"""Execution: the engines (interp, compiled, native, cuda), the runtime semantics they share,
and the `run` / `check` API.

The names below load on first use: importing a subpackage (`execution.native`, which the
façade imports to lend the model its compiled packer) does not load the engines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from heterolayout.execution.api import RunResult, check, run
    from heterolayout.execution.comparison import CheckReport, Mismatch, compare_programs
    from heterolayout.execution.errors import ExecutionError
    from heterolayout.execution.runtime.memref import LayoutMemRef

_HOMES = {
    "RunResult": "heterolayout.execution.api",
    "check": "heterolayout.execution.api",
    "run": "heterolayout.execution.api",
    "CheckReport": "heterolayout.execution.comparison",
    "Mismatch": "heterolayout.execution.comparison",
    "compare_programs": "heterolayout.execution.comparison",
    "ExecutionError": "heterolayout.execution.errors",
    "LayoutMemRef": "heterolayout.execution.runtime.memref",
}

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


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'heterolayout.execution' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted({*__all__, *globals()})
