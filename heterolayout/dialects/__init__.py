"""The `layout` dialect: `import heterolayout.dialects` and `load(ctx)` (or
`ctx.load_dialect(LayoutDialect)`) make a Context parse, verify and print layout IR."""

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
from heterolayout.dialects.target_attributes import PartitionLayoutAttr, TpuLayoutAttr
from heterolayout.dialects.upstream import extend
from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.dialects.verification import buffer_root, verify_layouts
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
    """Load the layout dialect into `ctx`; a no-op when `ctx` already has it (loaded, or
    registered through the `xdsl.universe` entry point, which loads it on first use).
    Also teaches `ctx` upstream MLIR 22's syntax where xDSL lacks it (`upstream.extend`),
    including `vector.from_elements`, which lowered code uses."""
    if LayoutDialect.name not in ctx.registered_dialect_names:
        ctx.load_dialect(LayoutDialect)
    load_upstream_syntax(ctx)


def load_upstream_syntax(ctx: Context) -> None:
    """heterolayout's ops for the upstream dialects `ctx` knows; a context that knows no
    `vector` dialect still learns `vector.from_elements` (a loaded op is found before a
    dialect is loaded lazily)."""
    extend(ctx)
    known = {op.name for op in ctx.loaded_ops}
    if "vector" not in ctx.registered_dialect_names and FromElementsOp.name not in known:
        ctx.load_op(FromElementsOp)


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
    "load_upstream_syntax",
    "memref_shape",
    "notations",
    "parse_layout_attribute",
    "preferred_kind",
    "verify_layouts",
    "with_layout",
]
