"""heterolayout: apply a data layout to a program without rewriting the program."""

from typing import Any

from heterolayout.layout import Layout, LayoutError, Packing, element_type, parse_layout

__all__ = ["Layout", "LayoutError", "Packing", "check", "element_type", "parse_layout", "run"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """`run` and `check` load the interpreter on first use, so tools that never execute IR
    (layout-opt, layout-explain) start without it."""
    if name in ("run", "check"):
        from heterolayout import interpreter

        return getattr(interpreter, name)
    raise AttributeError(f"module 'heterolayout' has no attribute {name!r}")
