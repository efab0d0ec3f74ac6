"""Frontends: models from frameworks to the bufferized upstream IR every heterolayout tool
takes (`layout-import`, `import_model`), and the framework's own run of a model to compare
with (`layout-run --reference`).

The names below load on first use: the frontends' packages (onnx, iree-base-compiler,
onnxruntime) are an optional extra, asked for only when a model is imported or run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from heterolayout.frontends.errors import FrontendError, MissingFrontend
    from heterolayout.frontends.importer import import_model

_HOMES = {
    "FrontendError": "heterolayout.frontends.errors",
    "MissingFrontend": "heterolayout.frontends.errors",
    "import_model": "heterolayout.frontends.importer",
}

__all__ = ["FrontendError", "MissingFrontend", "import_model"]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'heterolayout.frontends' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted({*__all__, *globals()})
