"""The verification walk: the layout checks that need a memref's shape.

An attribute cannot see the memref it sits in, so rank, injectivity on the shape, pack
capacity, pad range and the `?` rules are checked here, on every layout-typed memref of the
IR: op results, block arguments, and memref types inside attributes and properties (function
signatures, `memref.global`). The walk also rejects two different `layout.assign`s on one
buffer, a `#layout` on a tensor type (layouts lay out memory: bufferize first), and uses
of values their definitions do not dominate (xDSL's verifier does not check dominance).
`layout-opt` runs it after parsing and every layout pass runs it on entry.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    MemRefType,
    NoneAttr,
    TensorType,
)
from xdsl.dialects.builtin import StridedLayoutAttr as BuiltinStridedLayoutAttr
from xdsl.dialects.memref import CastOp, GlobalOp
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, ParametrizedAttribute, SSAValue
from xdsl.utils.exceptions import VerifyException

from heterolayout.dialects.attributes import LayoutAttr
from heterolayout.dialects.conversion import is_builtin_strided, layout_of, with_layout
from heterolayout.dialects.diagnostics import fail
from heterolayout.dialects.dominance import check_dominance
from heterolayout.dialects.names import op_name
from heterolayout.dialects.ops import AssignOp
from heterolayout.dialects.roles import VIEW_OPS
from heterolayout.dialects.roots import buffer_root
from heterolayout.dialects.view_types import check_view_type
from heterolayout.dialects.views import value_layout
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.maps import uses_symbols
from heterolayout.layout.model import Layout

_LAYOUT_PREFIX = re.compile(r"^layout '[^']*': ")


def verify_layouts(root: Operation) -> None:
    """Check every layout-typed memref under `root` (and `root` itself); raise a
    `VerifyException` naming the op, where the memref is, and what is wrong. The exception
    carries the IR with the message under the offending op, as xDSL's own verifier does."""
    checked: set[MemRefType] = set()
    assigned: dict[SSAValue, tuple[AssignOp, Layout | None]] = {}
    check_dominance(root)
    for op in root.walk():
        _check_tensors(op)
        view = op_name(op) in VIEW_OPS
        for memref_type, where in _memref_types(op):
            if memref_type in checked or not _needs_check(memref_type):
                continue
            if view and is_builtin_strided(memref_type):
                continue  # a view's strided type is its window, not a layout
            try:
                layout_of(memref_type)
            except LayoutError as error:
                reason = _LAYOUT_PREFIX.sub("", str(error))  # the type already shows it
                _fail(op, f"invalid layout in {op_name(op)} ({where}): {memref_type}: {reason}")
            checked.add(memref_type)
        if view and op.results and op.operands:
            check_view_type(op)
        if isinstance(op, AssignOp):
            _check_single_assign(op, assigned)
        elif isinstance(op, CastOp):
            _check_cast(op)
        elif isinstance(op, GlobalOp):
            _check_initializer(op)


def _check_single_assign(
    op: AssignOp, assigned: dict[SSAValue, tuple[AssignOp, Layout | None]]
) -> None:
    memref_type = op.memref.type
    assert isinstance(memref_type, MemRefType)
    try:
        layout = layout_of(with_layout(memref_type, op.layout))
    except LayoutError:
        return  # the op's own verifier reports it
    root = buffer_root(op.memref)
    if root not in assigned:
        assigned[root] = (op, layout)
        return
    first, first_layout = assigned[root]
    if first.layout == op.layout or _same_layout(first_layout, layout):
        return
    _fail(
        op,
        f"two different layouts assigned to one buffer in {op.name}: {op.layout} here, "
        f"{first.layout} by an earlier layout.assign",
    )


def _check_initializer(op: GlobalOp) -> None:
    """A dense initializer has the global's shape and element type, as upstream requires
    (a splat too: `dense<7> : tensor<2x3xi32>`)."""
    initial = op.initial_value
    memref_type = op.type
    if not isinstance(initial, DenseIntOrFPElementsAttr) or not isinstance(memref_type, MemRefType):
        return
    given = initial.type
    if (
        tuple(given.get_shape()) != tuple(memref_type.get_shape())
        or given.get_element_type() != memref_type.element_type
    ):
        _fail(
            op,
            f"{op.name} @{op.sym_name.data}: the initializer's type {given} does not match "
            f"{memref_type} (expected tensor<{'x'.join(map(str, memref_type.get_shape()))}x"
            f"{memref_type.element_type}>)",
        )


def _check_cast(op: CastOp) -> None:
    """A `memref.cast` may change static and dynamic extents, never the layout: the engines
    would see one logical buffer and the lowering a reinterpreted physical one. A cast to an
    unranked memref (what printMemref* takes) passes the buffer on as it is."""
    source, result = op.source.type, op.dest.type
    if not isinstance(result, MemRefType):
        return
    before = _cast_layout(op.source) if isinstance(source, MemRefType) else None
    after = _cast_layout(op.dest)
    if before is None and after is None:
        return
    change = None
    if before is not None and after is not None and before.index_map == after.index_map:
        change = _physical_extent_change(before, after)
    if change is not None:
        dim, was, becomes = change
        _fail(
            op,
            f"{op.name} from {source} to {result} changes physical extent {dim} of "
            f"{_layout_text(op.source)} from {was} to {becomes}: the layout bounds that extent "
            "over every size of a '?' dim, so the cast would reinterpret the buffer; keep "
            "those dims static in the cast, or use layout.convert into a new buffer",
        )
    if before is not None and after is not None and _equivalent_under_cast(before, after):
        return
    _fail(
        op,
        f"{op.name} from {source} to {result} changes the layout ({_layout_text(op.source)} "
        f"to {_layout_text(op.dest)}): a cast may change static and dynamic extents, never the "
        "layout; use layout.convert into a new buffer",
    )


def _cast_layout(value: SSAValue) -> Layout | None:
    """The layout a cast must keep: the value's own (none for an upstream view, whose strided
    type is its window). An invalid layout is reported elsewhere."""
    try:
        return value_layout(value)
    except LayoutError:
        return None


def _layout_text(value: SSAValue) -> str:
    layout = value.type.layout if isinstance(value.type, MemRefType) else None
    if layout is None or isinstance(layout, NoneAttr) or _cast_layout(value) is None:
        return "no layout"
    return str(layout)


def _equivalent_under_cast(a: Layout, b: Layout) -> bool:
    """Equal, or `Layout.equivalent` on the shape the cast fixes (dims `?` on both sides
    take two stand-in extents)."""
    if _same_layout(a, b):
        return True
    for shape in _cast_shapes(a, b):
        try:
            if not a.specialize(shape).equivalent(b.specialize(shape)):
                return False
        except LayoutError:
            return False
    return True


def _cast_shapes(a: Layout, b: Layout) -> list[list[int]]:
    """The logical shapes a cast between the two types can see: each dim static on either
    side at that size, dims `?` on both sides at two stand-in extents."""
    merged = [
        x if x is not None else y for x, y in zip(a.logical_shape, b.logical_shape, strict=True)
    ]
    return [[stand_in if e is None else e for e in merged] for stand_in in (2, 3)]


def _physical_extent_change(a: Layout, b: Layout) -> tuple[int, int, int] | None:
    """The first physical dim whose extent differs between the cast's two types at a size
    the cast fixes (`d1 mod 6` spans 2 on a dim of 2, 6 on a `?` dim), with both extents."""
    for shape in _cast_shapes(a, b):
        try:
            was, becomes = a.specialize(shape).physical_shape, b.specialize(shape).physical_shape
        except LayoutError:
            return None
        for dim, (x, y) in enumerate(zip(was, becomes, strict=True)):
            if x != y and x is not None and y is not None:
                return dim, x, y
    return None


def _same_layout(a: Layout | None, b: Layout | None) -> bool:
    """One layout seen through types that differ only in which dims are `?` (memref.cast):
    the same map, pad, element type and packing, and physical extents that agree wherever
    both are static."""
    if a is None or b is None:
        return a is b
    if (a.index_map, a.pad, a.dtype, a.packing) != (b.index_map, b.pad, b.dtype, b.packing):
        return False
    return all(
        x is None or y is None or x == y
        for x, y in zip(a.physical_shape, b.physical_shape, strict=True)
    )


def _check_tensors(op: Operation) -> None:
    """A `#layout` on a tensor is an error naming the value: a layout lays out memory."""
    values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
    for value in values:
        if _has_layout_encoding(value.type):
            number = value.index if isinstance(value, OpResult | BlockArgument) else 0
            _fail(
                op,
                f"{op_name(op)}: {_value_name(value, number)} has the tensor type {value.type}; "
                "a #layout applies to memrefs only: bufferize (mlir-opt --one-shot-bufferize) "
                "and assign layouts to the buffers",
            )


def _has_layout_encoding(attribute: Attribute) -> bool:
    return isinstance(attribute, TensorType) and isinstance(attribute.encoding, LayoutAttr)


def _fail(op: Operation, message: str) -> None:
    fail(op, message, VerifyException)


def _needs_check(memref_type: MemRefType) -> bool:
    """Our attributes, builtin affine maps whose results use no symbol (heterolayout treats
    them as `#layout.map`), and builtin strided layouts with static strides."""
    layout = memref_type.layout
    if isinstance(layout, LayoutAttr):
        return True
    if isinstance(layout, BuiltinStridedLayoutAttr):
        # Static strides may still address memory before the buffer (a negative stride
        # without the offset to balance it) or overlap; dynamic ones are not a layout.
        return layout.get_offset() is not None and None not in layout.get_strides()
    return isinstance(layout, AffineMapAttr) and not uses_symbols(layout.data)


def _memref_types(op: Operation) -> Iterator[tuple[MemRefType, str]]:
    for index, result in enumerate(op.results):
        yield from _types_in(result.type, f"result {_value_name(result, index)}")
    for kind, attributes in (("property", op.properties), ("attribute", op.attributes)):
        for name, attribute in attributes.items():
            yield from _types_in(attribute, f"{kind} '{name}'")
    for region in op.regions:
        for block in region.blocks:
            for arg in block.args:
                yield from _types_in(arg.type, f"block argument {_value_name(arg, arg.index)}")


def _value_name(value: SSAValue, index: int) -> str:
    return f"%{value.name_hint}" if value.name_hint else f"#{index}"


def _types_in(attribute: Attribute, where: str) -> Iterator[tuple[MemRefType, str]]:
    if isinstance(attribute, MemRefType):
        yield attribute, where
        yield from _types_in(attribute.element_type, where)
    elif isinstance(attribute, ArrayAttr):
        for item in attribute.data:
            yield from _types_in(item, where)
    elif isinstance(attribute, DictionaryAttr):
        for item in attribute.data.values():
            yield from _types_in(item, where)
    elif isinstance(attribute, ParametrizedAttribute) and not isinstance(attribute, LayoutAttr):
        for item in attribute.parameters:
            yield from _types_in(item, where)
