"""The Layout model, its notations and the numpy reference (loaded on first use)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from heterolayout.layout.element_types import ElementType, element_type
    from heterolayout.layout.errors import LayoutError
    from heterolayout.layout.model import Layout
    from heterolayout.layout.packing import Packing
    from heterolayout.layout.parse import parse_layout, parse_shape

_HOMES = {
    "ElementType": "element_types",
    "element_type": "element_types",
    "LayoutError": "errors",
    "Layout": "model",
    "Packing": "packing",
    "parse_layout": "parse",
    "parse_shape": "parse",
}
__all__ = [
    "ElementType",
    "Layout",
    "LayoutError",
    "Packing",
    "element_type",
    "parse_layout",
    "parse_shape",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'heterolayout.layout' has no attribute {name!r}")
    return getattr(import_module(f"heterolayout.layout.{home}"), name)
