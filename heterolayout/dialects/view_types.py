"""The result type of a view of a layout-typed memref: the one upstream gives the same view
of the layout-free program.

A layout never changes what a program computes, so a view of a layout-typed buffer means
the view of its plain logical memref, and its type is what upstream infers there: the
root counts as row-major with offset 0 (`memref<1x64x4x4xf32, #layout.tag<…>>` has the
strides `[1024, 16, 4, 1]`), a view of a view starts from its source's strided type. So
`layout-strip` keeps the view as it is, and upstream-style IR passes through unchanged.
Like upstream, a `?` in the result type matches any value, and an identity layout stands
for row-major strides with offset 0. A `#layout` (or `affine_map`) on the view's type is
refused: the view's layout is derived (the root's composed with the window), not written.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, MemRefType, NoneAttr
from xdsl.dialects.builtin import StridedLayoutAttr as BuiltinStridedLayoutAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.utils.exceptions import VerifyException

from heterolayout.dialects.conversion import memref_shape
from heterolayout.dialects.diagnostics import fail
from heterolayout.dialects.names import op_name
from heterolayout.dialects.views import kept_dims, value_layout, view_source
from heterolayout.layout.model import Layout, row_major_strides

Value = int | None
Strided = tuple[list[Value], Value]
"""Strides and offset; None where a value is known only at run time (`?`)."""


def check_view_type(op: Operation) -> None:
    """Refuse, naming the op, a view of a layout-typed memref whose result type is not the
    one upstream infers for the same view of the layout-free program."""
    result = op.results[0].type
    assert isinstance(result, MemRefType)
    expected = _inferred(op)
    if expected is None:
        return
    given = _type_strides(result)
    if given is not None and _compatible(expected, given, memref_shape(result)):
        return
    fail(
        op,
        f"{op_name(op)} of a layout-typed memref: the result type {result} does not describe "
        f"the view: as upstream types it on the layout-free program it is "
        f"{_strided_text(expected)} (a view's type is its window into its source's logical "
        "memory; its layout is derived from the root's, not written)",
        VerifyException,
    )


def _compatible(expected: Strided, given: Strided, shape: Sequence[Value]) -> bool:
    (strides, offset), (given_strides, given_offset) = expected, given
    if len(strides) != len(given_strides) or not _agree(offset, given_offset):
        return False
    return all(
        extent == 1 or _agree(a, b)
        for a, b, extent in zip(strides, given_strides, shape, strict=True)
    )


def _agree(a: Value, b: Value) -> bool:
    return a is None or b is None or a == b


def source_strides(value: SSAValue) -> Strided | None:
    """The strides and offset upstream sees for `value` in the layout-free program: a
    layout-typed buffer is row-major from 0; a view has its type's."""
    memref_type = value.type
    if not isinstance(memref_type, MemRefType):
        return None
    if view_source(value) is None and value_layout(value) is not None:
        return list(row_major_strides(memref_shape(memref_type))), 0
    return _type_strides(memref_type)


def _type_strides(memref_type: MemRefType) -> Strided | None:
    layout = memref_type.layout
    rank = len(memref_type.get_shape())
    if isinstance(layout, NoneAttr) or (
        isinstance(layout, AffineMapAttr) and layout.data == AffineMap.identity(rank)
    ):
        return list(row_major_strides(memref_shape(memref_type))), 0
    if isinstance(layout, BuiltinStridedLayoutAttr):
        return list(layout.get_strides()), layout.get_offset()
    return None


def _inferred(op: Operation) -> Strided | None:
    """What upstream infers for the view `op` of a (view of a) layout-typed memref; None
    when the op is no view of one."""
    source = op.operands[0]
    if _root_layout(source) is None:
        return None
    base = source_strides(source)
    if base is None:
        return None
    strides, offset = base
    name = op_name(op)
    if name == "memref.subview":
        return _subview(op, strides, offset)
    if name == "memref.reinterpret_cast":
        return _values(op.static_strides.get_values()), _value(op.static_offsets.get_values()[0])  # type: ignore[attr-defined]
    if name == "memref.collapse_shape":
        groups = [[i.value.data for i in g] for g in op.reassociation]  # type: ignore[attr-defined]
        return [strides[g[-1]] if g else 1 for g in groups], offset
    if name == "memref.expand_shape":
        return _expanded(op, strides), offset
    if name == "memref.transpose":
        order = [r.position for r in op.properties["permutation"].data.results]  # type: ignore[attr-defined]
        return [strides[p] for p in order], offset
    return None


def _root_layout(value: SSAValue) -> Layout | None:
    found = view_source(value)
    while found is not None:
        value = found[1]
        found = view_source(value)
    return value_layout(value)


def _subview(op: Operation, strides: list[Value], offset: Value) -> Strided:
    offsets = _values(op.static_offsets.get_values())  # type: ignore[attr-defined]
    steps = _values(op.static_strides.get_values())  # type: ignore[attr-defined]
    sizes = _values(op.static_sizes.get_values())  # type: ignore[attr-defined]
    for start, stride in zip(offsets, strides, strict=True):
        offset = (
            None if offset is None or start is None or stride is None else offset + start * stride
        )
    kept = kept_dims(sizes, memref_shape(op.results[0].type))  # type: ignore[arg-type]
    if kept is None:
        kept = list(range(len(sizes)))
    return [_times(strides[d], steps[d]) for d in kept], offset


def _expanded(op: Operation, strides: list[Value]) -> list[Value]:
    shape = _values(op.static_output_shape.get_values())  # type: ignore[attr-defined]
    result: list[Value] = [None] * len(shape)
    for source_dim, group in enumerate(op.reassociation):  # type: ignore[attr-defined]
        stride = strides[source_dim]
        for dim in reversed([i.value.data for i in group]):
            result[dim] = stride
            stride = _times(stride, shape[dim])
    return result


def _times(a: Value, b: Value) -> Value:
    return None if a is None or b is None else a * b


def _value(value: int) -> Value:
    return None if value == DYNAMIC_INDEX else value


def _values(values: Sequence[int]) -> list[Value]:
    return [_value(v) for v in values]


def _strided_text(strided: Strided) -> str:
    def text(value: Value) -> str:
        return "?" if value is None else str(value)

    strides, offset = strided
    return f"strided<[{', '.join(text(s) for s in strides)}], offset: {text(offset)}>"
