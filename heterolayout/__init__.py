"""heterolayout: apply a data layout to a program without rewriting the program.

The names below load on first use, so that the tools (and xDSL, which imports this package
through its `xdsl.universe` entry point) start without what they do not need.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from heterolayout.dialects.context import make_context as context
    from heterolayout.execution import check, run
    from heterolayout.frontends.importer import import_model
    from heterolayout.layout import Layout, LayoutError, Packing, element_type, parse_layout
    from heterolayout.search.whole import tune

__all__ = [
    "Layout",
    "LayoutError",
    "Packing",
    "check",
    "context",
    "element_type",
    "import_model",
    "parse_layout",
    "run",
    "tune",
]
__version__ = "0.1.0"

_LENT_TO_THE_MODEL = ("Layout", "parse_layout")
"""The names that give layouts whose attribute text and `pack`/`unpack` need the floors
above the model (`layout.services`): asking for them lends the dialect and the native packer."""


def __getattr__(name: str) -> Any:
    if name in ("run", "check"):
        from heterolayout import execution

        return getattr(execution, name)
    if name == "import_model":
        from heterolayout.frontends.importer import import_model

        return import_model
    if name == "tune":
        from heterolayout.search.whole import tune

        return tune
    if name == "context":
        from heterolayout.dialects.context import make_context

        return make_context
    if name in _LENT_TO_THE_MODEL:
        import heterolayout.dialects
        import heterolayout.execution.native  # noqa: F401
    if name in __all__:
        from heterolayout import layout

        return getattr(layout, name)
    raise AttributeError(f"module 'heterolayout' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names (`__all__`, `__version__`) and the subpackages loaded so far."""
    loaded = (name for name, value in globals().items() if isinstance(value, ModuleType))
    return sorted({*__all__, "__version__", *loaded})
