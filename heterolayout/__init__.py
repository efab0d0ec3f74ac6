"""heterolayout: apply a data layout to a program without rewriting the program."""

from heterolayout.interpreter import check, run  # noqa: F401
from heterolayout.layout import Layout, LayoutError, Packing, element_type, parse_layout

__all__ = ["Layout", "LayoutError", "Packing", "element_type", "parse_layout"]
__version__ = "0.1.0"
