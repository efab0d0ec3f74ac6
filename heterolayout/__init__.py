"""heterolayout: apply a data layout to a program without rewriting the program."""

from typing import Any

from heterolayout.layout import Layout, LayoutError, Packing, element_type, parse_layout

__all__ = [
    "Layout",
    "LayoutError",
    "Packing",
    "check",
    "element_type",
    "parse_layout",
    "run",
    "tune",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """`run`, `check` and `tune` load the interpreter on first use, so tools that never
    execute IR (layout-opt, layout-explain) start without it."""
    if name in ("run", "check"):
        from heterolayout import interpreter

        return getattr(interpreter, name)
    if name == "tune":
        from heterolayout.search.search import tune

        return tune
    raise AttributeError(f"module 'heterolayout' has no attribute {name!r}")
