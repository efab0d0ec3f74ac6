"""Which memref values carry a layout that heterolayout lowers (`value_layout`), and the
window a view opens into its root (`view_window`).

A memref type's layout (`layout_of`) lays out a buffer, except on a view (`roles.VIEW_OPS`):
the builtin `strided<…>` type of a `memref.subview`, `reinterpret_cast`, `collapse_shape`,
`expand_shape`, `view` or `transpose` result is upstream's description of the window the
view opens into its source's memory, which upstream lowers as it is (`static offsets`
included). Such a value has no layout of its own; `memref.cast` of it neither.
`memref.view` and `vector.type_cast` are views too, whose elements are no window of a
layout-typed source's logical index space (`ViewError`).

A view of a layout-typed buffer (the root) is a window into the root's logical index space:
its type is the one upstream gives the same view of the plain logical memref
(`view_types`), and its layout is the root's layout composed with the view's window through
the Layout algebra (`Layout.compose`). A window with run-time offsets, strides or sizes
composes at each access instead (`passes.views.folding`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, MemRefType
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr

from heterolayout.dialects.conversion import is_builtin_strided, layout_of, memref_shape
from heterolayout.dialects.names import op_name
from heterolayout.dialects.roles import VIEW_OPS
from heterolayout.layout.algebra import Affine, Extent, IndexWindow, NotRepresentable
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.model import Layout


class ViewError(LayoutError):
    """A view of a layout-typed memref that heterolayout cannot index: names the op."""

    def __init__(self, op: Operation, reason: str) -> None:
        super().__init__(f"{op_name(op)} of a layout-typed memref: {reason}")
        self.op = op


@dataclass(frozen=True)
class ViewWindow:
    """A view (or a chain of views) of the layout-typed buffer `root`: view index → root's
    logical index through `window`, whose symbols are the run-time values `symbols`."""

    root: SSAValue
    layout: Layout
    """The root's layout."""
    window: IndexWindow
    symbols: tuple[SSAValue, ...]
    sizes: tuple[SSAValue | None, ...]
    """Each view dim's run-time size where the view's shape has `?` (else None)."""


def view_source(value: SSAValue) -> tuple[Operation, SSAValue] | None:
    """The view op that defines `value` (through `memref.cast`s) and its source, or None."""
    while isinstance(value, OpResult) and value.op.name == "memref.cast":
        value = value.op.operands[0]
    if isinstance(value, OpResult) and value.op.name in VIEW_OPS:
        return value.op, value.op.operands[0]
    return None


def view_window(value: SSAValue) -> ViewWindow | None:
    """The window of `value` into its layout-typed root, when it is a view of one (chains of
    views compose); None otherwise. Raises `ViewError` for a view that cannot be indexed."""
    found = view_source(value)
    if found is None or not isinstance(value.type, MemRefType):
        return None
    op, source = found
    inner = view_window(source)
    if inner is None:
        layout = value_layout(source)
        if layout is None:
            return None
        shape = layout.logical_shape
        inner = ViewWindow(source, layout, IndexWindow.identity(shape), (), (None,) * len(shape))
    try:
        window, symbols, sizes = _op_window(op, inner)
    except LayoutError as error:
        if isinstance(error, ViewError):
            raise
        raise ViewError(op, str(error)) from None
    typed = memref_shape(value.type)
    if len(typed) != len(window.shape) or any(
        t is not None and t != e for t, e in zip(typed, window.shape, strict=True)
    ):
        raise ViewError(op, f"the result type {value.type} does not have the view's shape")
    return ViewWindow(inner.root, inner.layout, window, symbols, sizes)


def _op_window(
    op: Operation, inner: ViewWindow
) -> tuple[IndexWindow, tuple[SSAValue, ...], tuple[SSAValue | None, ...]]:
    """The window of one view op over its source, chained after the source's own."""
    name = op_name(op)
    source_shape = inner.window.shape
    own: list[SSAValue] = []
    sizes: list[SSAValue | None] = []
    if name == "memref.subview":
        offsets, size_values, strides = _mixed_operands(op, own, sizes)
        kept = kept_dims(size_values, memref_shape(op.results[0].type))  # type: ignore[arg-type]
        if kept is None:
            raise ViewError(op, "its result type does not match its sizes")
        dropped = [d for d in range(len(size_values)) if d not in kept]
        sizes = [s for d, s in enumerate(sizes) if d in kept]
        window = IndexWindow.subview(offsets, size_values, strides, dropped, len(own))
    elif name == "memref.reinterpret_cast":
        offsets, size_values, strides = _mixed_operands(op, own, sizes)
        root_shape = inner.layout.logical_shape  # counted from the root's start, as upstream
        window = IndexWindow.reinterpret(root_shape, offsets[0], size_values, strides, len(own))
        return window, (*own,), tuple(sizes)
    elif name == "memref.collapse_shape":
        window = IndexWindow.collapse(source_shape, _groups(op))
        sizes = [None] * len(window.shape)
    elif name == "memref.expand_shape":
        shape = _extents(op.static_output_shape.get_values(), op.output_shape, sizes)  # type: ignore[attr-defined]
        window = IndexWindow.expand(shape, _groups(op))
    elif name == "memref.transpose":
        permutation = op.properties["permutation"]
        assert isinstance(permutation, AffineMapAttr)
        results = permutation.data.results
        order = [r.position for r in results if isinstance(r, AffineDimExpr)]
        window = IndexWindow.transpose(source_shape, order)
        sizes = [inner.sizes[p] for p in order]
    elif name == "vector.type_cast":
        raise ViewError(
            op,
            "it makes the buffer's contiguous row-major memory one vector, and a layout-typed "
            "buffer's memory is in its physical order (load with vector.load or "
            "vector.transfer_read, or convert into a plain buffer first)",
        )
    else:
        raise ViewError(
            op,
            "it reinterprets its source's bytes as elements of another type, and a "
            "layout-typed buffer's bytes lie in its physical order: the elements it names are "
            "no window of the logical index space (assign the layout to a buffer of the "
            "viewed type instead)",
        )
    combined = inner.window.then(window)
    return combined, (*inner.symbols, *own), tuple(sizes)


def _mixed_operands(
    op: Operation, symbols: list[SSAValue], sizes: list[SSAValue | None]
) -> tuple[list[Affine], list[Extent], list[Affine]]:
    """A subview's or reinterpret_cast's offsets, sizes and strides: constants, or a new
    symbol for each run-time offset or stride (its value appended to `symbols`), `?` for
    each run-time size (its value appended to `sizes`)."""
    offsets = _symbolic(op.static_offsets.get_values(), op.offsets, symbols)  # type: ignore[attr-defined]
    extents = _extents(op.static_sizes.get_values(), op.sizes, sizes)  # type: ignore[attr-defined]
    strides = _symbolic(op.static_strides.get_values(), op.strides, symbols)  # type: ignore[attr-defined]
    return offsets, extents, strides


def _symbolic(
    static: Sequence[int], dynamic: Sequence[SSAValue], symbols: list[SSAValue]
) -> list[Affine]:
    remaining = iter(dynamic)
    values: list[Affine] = []
    for value in static:
        if value == DYNAMIC_INDEX:
            values.append(AffineExpr.symbol(len(symbols)))
            symbols.append(next(remaining))
        else:
            values.append(value)
    return values


def _extents(
    static: Sequence[int], dynamic: Sequence[SSAValue], sizes: list[SSAValue | None]
) -> list[Extent]:
    remaining = iter(dynamic)
    values: list[Extent] = []
    for value in static:
        dynamic_size = value == DYNAMIC_INDEX
        values.append(None if dynamic_size else value)
        sizes.append(next(remaining) if dynamic_size else None)
    return values


def _groups(op: Operation) -> list[list[int]]:
    return [[i.value.data for i in g] for g in op.reassociation]  # type: ignore[attr-defined]


def kept_dims(sizes: Sequence[int | None], result_shape: Sequence[int | None]) -> list[int] | None:
    """Which window dims a subview keeps, from its static sizes and result shape (None for
    `?`), matched greedily left to right as upstream's rank-reduction mask; every dim left
    out must have static size 1. None when they do not match."""
    kept: list[int] = []
    for dim, size in enumerate(sizes):
        if len(kept) < len(result_shape) and result_shape[len(kept)] == size:
            kept.append(dim)
        elif size != 1:
            return None
    return kept if len(kept) == len(result_shape) else None


def is_upstream_view(value: SSAValue) -> bool:
    """A view result (or a `memref.cast` of one) whose type has a builtin strided layout."""
    if not isinstance(value.type, MemRefType) or not is_builtin_strided(value.type):
        return False
    return view_source(value) is not None


def reaches_layout(value: SSAValue) -> bool:
    """Whether `value` is a layout-typed memref or a view of one (whose accesses
    `layout-lower` rewrites)."""
    return value_layout(value) is not None or view_window(value) is not None


def value_layout(value: SSAValue) -> Layout | None:
    """The layout heterolayout lowers for `value`: its type's; for a view of a layout-typed
    buffer with a static window, the root's layout composed with the window; None for other
    views (views of plain memrefs; run-time windows, which `view_window` describes).
    Raises `LayoutError` (a `ViewError` naming the op) when the composition is no layout."""
    if not isinstance(value.type, MemRefType):
        return None
    found = view_source(value)
    if found is None:
        return layout_of(value.type)
    view = view_window(value)
    if view is None or not view.window.is_static or view.layout.is_dynamic:
        return None
    composed = _compose(view.layout, view.window)
    if isinstance(composed, NotRepresentable):
        raise ViewError(found[0], composed.reason)
    return composed


@lru_cache(maxsize=1024)
def _compose(layout: Layout, window: IndexWindow) -> Layout | NotRepresentable:
    return layout.compose(window)


def layout_user(root: Operation) -> Operation | None:
    """The first op under `root` that uses the layout dialect or a layout-typed memref, or
    None: whether there is anything for `layout-lower` or `layout-strip` to do."""
    from xdsl.dialects.func import FuncOp

    for op in root.walk():
        if op_name(op).startswith("layout."):
            return op
        values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
        if any(value_layout(v) is not None for v in values):
            return op  # a view's strided type is its window, not a layout (value_layout)
        if isinstance(op, FuncOp):
            types = [*op.function_type.inputs.data, *op.function_type.outputs.data]
            if any(isinstance(t, MemRefType) and layout_of(t) is not None for t in types):
                return op
    return None
