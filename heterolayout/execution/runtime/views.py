"""Views at run time: `memref.subview`, `reinterpret_cast`, `collapse_shape`,
`expand_shape` and `transpose` alias the memory of their source.

A view of a plain memref is a numpy view of the same memory (a `View`, which remembers
the buffer the program allocated or received: `reinterpret_cast` counts its offset from
there, as MLIR counts it from the buffer's aligned pointer). A view of a layout-typed
memref is a `LayoutView`: its logical index goes through the view's window to the root's
logical index, then through the root's layout, which is what the view's composed layout
(window, then layout) means. `builtin.unrealized_conversion_cast` of a memref of sub-byte
integers to its bytes (`layout-lower`'s) is a `ByteView` (`byte_view_plan`). Both engines
use these helpers.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    IntegerType,
    MemRefType,
    Signedness,
    StridedLayoutAttr,
    VectorType,
)
from xdsl.ir import Operation

from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.diagnostics import where
from heterolayout.dialects.names import op_name
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime.memref import (
    ByteViewPlan,
    LayoutMemRef,
    MemRef,
    check_live,
    out_of_bounds,
)
from heterolayout.execution.runtime.values import element_of, vector_shape

Index = tuple[int, ...]


class View(np.ndarray):
    """A numpy view that remembers `root`, the buffer it is a window of."""

    root: np.ndarray

    def __array_finalize__(self, obj: Any) -> None:
        self.root = getattr(obj, "root", obj)


class LayoutView(LayoutMemRef):
    """A window of a layout-typed memref: logical indices map to the base's."""

    __slots__ = ("_to_base", "base")

    def __init__(self, base: LayoutMemRef, shape: Index, to_base: Callable[[Index], Index]) -> None:
        self.base = base
        self.shape = shape
        self.layout = base.layout
        self.element = base.element
        self.buffer = base.buffer
        self._to_base = to_base

    def load(self, index: Sequence[int], where: str) -> int | float:
        _check(index, self.shape, where)
        return self.base.load(self._to_base(tuple(index)), where)

    def store(self, index: Sequence[int], value: int | float, where: str) -> None:
        _check(index, self.shape, where)
        self.base.store(self._to_base(tuple(index)), value, where)

    def logical(self) -> np.ndarray:
        out = np.empty(self.shape, dtype=self.element.numpy_dtype)
        for index in np.ndindex(*self.shape):
            out[index] = self.base.load(self._to_base(index), "a view")
        return out

    def write_logical(self, array: np.ndarray) -> None:
        for index in np.ndindex(*self.shape):
            self.base.store(self._to_base(index), array[index].item(), "a view")

    def __repr__(self) -> str:
        return f"LayoutView({self.shape} of {self.base!r})"


def _check(index: Sequence[int], shape: Sequence[int], where: str) -> None:
    for value, extent in zip(index, shape, strict=True):
        if not 0 <= value < extent:
            raise out_of_bounds(where, index, shape, logical=True)


def _root(array: np.ndarray) -> np.ndarray:
    return array.root if isinstance(array, View) else array


def _strided(source: np.ndarray, start: Index, shape: Index, strides: Index, where: str) -> View:
    """The view of `source`'s memory at element `start` (an index of `source`) with
    element `strides` counted in `source`'s own element strides per dim."""
    rank = len(start)
    for first, extent in zip(start, source.shape[:rank], strict=True):
        if extent and not 0 <= first < extent:
            raise out_of_bounds(where, start, source.shape[:rank])
    lanes = source.shape[rank:]
    lane_strides = source.strides[rank:]
    origin = source[tuple(slice(s, None) for s in start)] if rank else source
    view = np.lib.stride_tricks.as_strided(
        origin, shape=shape + lanes, strides=strides + lane_strides, writeable=True
    )
    result = view.view(View)
    result.root = _root(source)
    return result


def subview(
    source: MemRef,
    offsets: Sequence[int],
    sizes: Sequence[int],
    strides: Sequence[int],
    kept: Sequence[int],
    where: str,
) -> MemRef:
    """`memref.subview`: the window `offsets + i·strides` of `sizes`, keeping the window
    dims `kept` (`dialects.views.kept_dims`: rank reduction drops unit dims)."""
    check_live(source, where)
    shape = source.shape[: len(sizes)]
    for dim, (offset, size, stride) in enumerate(zip(offsets, sizes, strides, strict=True)):
        last = offset + (size - 1) * stride
        if size < 0 or (size and not (0 <= offset < shape[dim] and 0 <= last < shape[dim])):
            raise ExecutionError(
                f"{where}: the window {list(offsets)} + {list(sizes)} × {list(strides)} leaves "
                f"the source of shape {list(shape)}"
            )
    dropped = [sizes[d] for d in range(len(sizes)) if d not in kept]
    if any(size != 1 for size in dropped):
        raise ExecutionError(f"{where}: a dim the result drops has size {dropped}, not 1")
    if isinstance(source, LayoutMemRef):

        def to_base(index: Index) -> Index:
            full = [0] * len(sizes)
            for position, dim in enumerate(kept):
                full[dim] = index[position]
            return tuple(o + i * s for o, i, s in zip(offsets, full, strides, strict=True))

        return LayoutView(source, tuple(sizes[d] for d in kept), to_base)
    element_strides = tuple(source.strides[d] * strides[d] for d in kept)
    return _strided(source, tuple(offsets), tuple(sizes[d] for d in kept), element_strides, where)


def reinterpret_cast(
    source: MemRef, offset: int, sizes: Sequence[int], strides: Sequence[int], where: str
) -> MemRef:
    """`memref.reinterpret_cast`: a strided view counted from the start of the buffer the
    program allocated or received (the source's aligned pointer)."""
    check_live(source, where)
    if isinstance(source, LayoutMemRef):
        return _reinterpret_layout(source, offset, sizes, strides, where)
    root = _root(source)
    flat = root.reshape(-1) if root.ndim else root.reshape(1)
    reach = [offset + sum((n - 1) * s for n, s in zip(sizes, strides, strict=True) if n)]
    reach.append(offset)
    if math.prod(sizes) and (min(reach) < 0 or max(reach) >= flat.size):
        raise ExecutionError(
            f"{where}: offset {offset}, sizes {list(sizes)} and strides {list(strides)} leave "
            f"the buffer of {flat.size} elements"
        )
    itemsize = root.dtype.itemsize
    origin = flat[offset:] if offset < flat.size else flat[:0]
    view = np.lib.stride_tricks.as_strided(
        origin, shape=tuple(sizes), strides=tuple(s * itemsize for s in strides), writeable=True
    ).view(View)
    view.root = root
    return view


def _reinterpret_layout(
    source: LayoutMemRef, offset: int, sizes: Sequence[int], strides: Sequence[int], where: str
) -> LayoutView:
    """`reinterpret_cast` of a layout-typed memref: the strided window over the row-major
    order of the root's logical elements (what it means on the layout-free program)."""
    while isinstance(source, LayoutView):
        source = source.base
    shape = source.shape
    total = math.prod(shape)
    reach = [offset + sum((n - 1) * s for n, s in zip(sizes, strides, strict=True) if n), offset]
    if math.prod(sizes) and (min(reach) < 0 or max(reach) >= total):
        raise ExecutionError(
            f"{where}: offset {offset}, sizes {list(sizes)} and strides {list(strides)} leave "
            f"the buffer of {total} elements"
        )

    def to_base(index: Index) -> Index:
        linear = offset + sum(i * s for i, s in zip(index, strides, strict=True))
        return tuple(int(v) for v in np.unravel_index(linear, shape))

    return LayoutView(source, tuple(sizes), to_base)


def collapse_shape(source: MemRef, groups: Sequence[Sequence[int]], where: str) -> MemRef:
    """`memref.collapse_shape`: each group of dims becomes one; it must be contiguous. No
    groups at all collapse a memref of unit dims to rank 0."""
    check_live(source, where)
    shape = tuple(source.shape)
    rank = len(shape)
    new_shape = tuple(math.prod(shape[d] for d in g) for g in groups)
    if isinstance(source, LayoutMemRef):

        def to_base(index: Index) -> Index:
            full = [0] * rank
            for value, group in zip(index, groups, strict=True):
                if group:
                    unravelled = np.unravel_index(value, [shape[d] for d in group])
                    for d, v in zip(group, unravelled, strict=True):
                        full[d] = int(v)
            return tuple(full)

        return LayoutView(source, new_shape, to_base)
    strides: list[int] = []
    for group in groups:
        live = [d for d in group if shape[d] != 1]
        for outer, inner in itertools.pairwise(live):
            if source.strides[outer] != source.strides[inner] * shape[inner]:
                raise ExecutionError(f"{where}: dims {list(group)} are not contiguous in memory")
        strides.append(source.strides[live[-1]] if live else source.itemsize)
    return _strided(source, (0,) * rank, new_shape, tuple(strides), where)


def expand_shape(
    source: MemRef, groups: Sequence[Sequence[int]], output_shape: Sequence[int], where: str
) -> MemRef:
    """`memref.expand_shape`: each source dim splits into the dims of its group."""
    check_live(source, where)
    for dim, group in enumerate(groups):
        if math.prod(output_shape[d] for d in group) != source.shape[dim]:
            raise ExecutionError(
                f"{where}: dims {[output_shape[d] for d in group]} do not multiply to "
                f"{source.shape[dim]}"
            )
    if isinstance(source, LayoutMemRef):

        def to_base(index: Index) -> Index:
            return tuple(
                int(np.ravel_multi_index([index[d] for d in g], [output_shape[d] for d in g]))
                for g in groups
            )

        return LayoutView(source, tuple(output_shape), to_base)
    strides = [0] * len(output_shape)
    for dim, group in enumerate(groups):
        stride = source.strides[dim]
        for d in reversed(group):
            strides[d] = stride
            stride *= output_shape[d]
    rank = len(groups)
    return _strided(source, (0,) * rank, tuple(output_shape), tuple(strides), where)


def type_cast(source: MemRef, shape: Sequence[int], where: str) -> MemRef:
    """`vector.type_cast`: the same contiguous memory, dims moved between the memref and its
    vector elements (`shape` counts both)."""
    check_live(source, where)
    if isinstance(source, LayoutMemRef) or not source.flags.c_contiguous:
        raise ExecutionError(f"{where}: type_cast needs a contiguous memref without a layout")
    view = source.reshape(tuple(shape)).view(View)
    view.root = _root(source)
    return view


def transpose(source: MemRef, permutation: Sequence[int], where: str) -> MemRef:
    """`memref.transpose`: result dim i is source dim `permutation[i]`."""
    check_live(source, where)
    if isinstance(source, LayoutMemRef):
        shape = tuple(source.shape[p] for p in permutation)

        def to_base(index: Index) -> Index:
            full = [0] * len(permutation)
            for position, dim in enumerate(permutation):
                full[dim] = index[position]
            return tuple(full)

        return LayoutView(source, shape, to_base)
    lanes = tuple(range(len(permutation), source.ndim))
    view = np.transpose(source, (*permutation, *lanes)).view(View)
    view.root = _root(source)
    return view


def byte_view_plan(op: Operation) -> ByteViewPlan:
    """What the engines make of `builtin.unrealized_conversion_cast`: only the byte view of a
    memref of sub-byte integers, or of vectors of them, that `layout-lower` and
    `layout-strip` write (`passes.packed.sub_byte_accesses`), used by loads and stores only;
    the memref may be a view (`strided<…>`: the engines hold it as a numpy view)."""
    from heterolayout.dialects.roles import LOADS_AND_STORES
    from heterolayout.passes.packed.sub_byte_accesses import (
        allocation_bits,
        memref_operand,
        sub_byte_element,
        word_view_element,
    )

    source = op.operands[0].type if len(op.operands) == 1 else None
    result = op.results[0].type if len(op.results) == 1 else None
    plan = None
    if (
        isinstance(source, MemRefType)
        and isinstance(result, MemRefType)
        and source.get_shape() == result.get_shape()
        and source.layout == result.layout
        and source.memory_space == result.memory_space
        and (layout_of(source) is None or isinstance(source.layout, StridedLayoutAttr))
    ):
        element = sub_byte_element(source)
        viewed: IntegerType | VectorType | None
        if element is not None:
            allocated = allocation_bits(element.width.data)
            signless = element.signedness.data == Signedness.SIGNLESS
            viewed = IntegerType(allocated) if allocated is not None and signless else None
        else:
            viewed = word_view_element(source)
        if viewed is not None and result.element_type == viewed:
            lanes = vector_shape(source.element_type) or (0,)
            words = vector_shape(viewed) or (0,)
            plan = ByteViewPlan(
                element_of(source.element_type),
                lanes[0],
                element_of(result.element_type),
                str(source),
                words[0],
            )
    types = ", ".join(str(v.type) for v in op.operands)
    if plan is None:
        raise ExecutionError(
            f"{where(op)}: builtin.unrealized_conversion_cast of {types} to "
            f"{', '.join(str(r.type) for r in op.results)}: the engines run it only as the byte "
            "view of a memref of sub-byte integers (or of vectors of them) as the integers LLVM "
            "allocates for its elements, of the same shape and layout (memref<4xi2> to "
            "memref<4xi8>, memref<4xvector<6xi1>> to memref<4xi8>, memref<4xvector<6xi12>> "
            "to memref<4xvector<2xi64>>)"
        )
    for use in op.results[0].uses:
        user = use.operation
        if not (user.name in LOADS_AND_STORES and memref_operand(user) is op.results[0]):
            raise ExecutionError(
                f"{where(user)}: {op_name(user)} takes the byte view {op.results[0].type} of "
                f"{types} ({where(op)}); the engines read and write such a view with loads and "
                "stores only"
            )
    return plan
