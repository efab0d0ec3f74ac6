"""The Layout model, its notations and the numpy reference."""

from heterolayout.layout.element_types import ElementType, element_type
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.model import Layout
from heterolayout.layout.packing import Packing
from heterolayout.layout.parse import parse_layout, parse_shape

__all__ = [
    "ElementType",
    "Layout",
    "LayoutError",
    "Packing",
    "element_type",
    "parse_layout",
    "parse_shape",
]
