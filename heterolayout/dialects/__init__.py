"""The `layout` dialect: `import heterolayout.dialects` and `load(ctx)` make a Context
parse, verify and print every program the tools read (`ctx.load_dialect(LayoutDialect)`
loads the `layout` dialect alone)."""

from xdsl.context import Context

from heterolayout.dialects import dense_printing
from heterolayout.dialects.attributes import (
    ChunkedLayoutAttr,
    LayoutAttr,
    MapLayoutAttr,
    StridedLayoutAttr,
    TagLayoutAttr,
)
from heterolayout.dialects.conversion import (
    element_dtype,
    layout_attr,
    layout_of,
    memref_shape,
    notations,
    preferred_kind,
    with_layout,
)
from heterolayout.dialects.layout import LAYOUT_ATTRIBUTES, LayoutDialect, parse_layout_attribute
from heterolayout.dialects.ops import AssignOp, ConvertOp
from heterolayout.dialects.roots import buffer_root
from heterolayout.dialects.target_attributes import PartitionLayoutAttr, TpuLayoutAttr
from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.dialects.verification import verify_layouts
from heterolayout.layout.model import Layout
from heterolayout.layout.services import lend_attribute_text

dense_printing.install()


class _AttributeText:
    """The dialect's attribute text, lent to the Layout model (`layout.services`)."""

    def parse(self, text: str, where: str) -> tuple[LayoutAttr, set[str]]:
        from heterolayout.dialects.layout import parse_layout_text

        return parse_layout_text(text, where)

    def notations(self, layout: Layout) -> dict[str, str]:
        return notations(layout)


lend_attribute_text(_AttributeText())


def load(ctx: Context) -> None:
    """Make `ctx` read everything heterolayout's tools read: every dialect of the
    environment, the `layout` dialect, and upstream MLIR 22's syntax where xDSL lacks it
    (`context.register_dialects`). Dialects load on first use; a second call changes
    nothing."""
    from heterolayout.dialects.context import register_dialects

    register_dialects(ctx)


__all__ = [
    "LAYOUT_ATTRIBUTES",
    "AssignOp",
    "ChunkedLayoutAttr",
    "ConvertOp",
    "FromElementsOp",
    "LayoutAttr",
    "LayoutDialect",
    "MapLayoutAttr",
    "PartitionLayoutAttr",
    "StridedLayoutAttr",
    "TagLayoutAttr",
    "TpuLayoutAttr",
    "buffer_root",
    "element_dtype",
    "layout_attr",
    "layout_of",
    "load",
    "memref_shape",
    "notations",
    "parse_layout_attribute",
    "preferred_kind",
    "verify_layouts",
    "with_layout",
]
