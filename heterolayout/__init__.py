"""heterolayout: apply a data layout to a program without rewriting the program.

The names below load on first use, so that the tools (and xDSL, which imports this package
through its `xdsl.universe` entry point) start without what they do not need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from heterolayout.execution import check, run
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
    if name in ("run", "check"):
        from heterolayout import execution as interpreter

        return getattr(interpreter, name)
    if name == "tune":
        from heterolayout.search.search import tune

        return tune
    if name in __all__:
        from heterolayout import layout

        return getattr(layout, name)
    raise AttributeError(f"module 'heterolayout' has no attribute {name!r}")
