"""`Layout`: the one value every notation reduces to, and every pass and tool sees."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, overload

from xdsl.ir.affine import AffineExpr, AffineMap

from heterolayout.layout.blocked import Term, digit_weights, recognize_terms
from heterolayout.layout.dynamic import evaluate_extents, representative_sizes
from heterolayout.layout.element_types import ElementType
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import (
    evaluate,
    format_map,
    format_shape,
    index_grids,
    linear_form,
)
from heterolayout.layout.extents import check_map_on_shape, dynamic_extents, physical_extents
from heterolayout.layout.limits import MAX_ELEMENTS
from heterolayout.layout.packing import Packing
from heterolayout.layout.services import attribute_text

if TYPE_CHECKING:
    import numpy as np

    from heterolayout.layout.algebra import IndexWindow, Inverse, NotRepresentable

Shape = tuple[int | None, ...]


@dataclass(frozen=True, eq=False)
class Layout:
    """A logical shape, an injective quasi-affine map to physical indices, and a physical shape.

    Build one with `Layout.create` (which validates) or `parse_layout`. Equality is
    structural on the map; `equivalent` compares what the layouts do.
    """

    logical_shape: Shape
    index_map: AffineMap
    physical_shape: Shape
    pad: int | float = 0
    dtype: ElementType | None = None
    packing: Packing | None = None
    dim_names: str | None = field(default=None, compare=False)
    """Letters naming the logical dims (`NCHW`), when the notation names them: labels of
    the logical index space for printing, not part of what the layout does."""
    extents: tuple[AffineExpr, ...] = ()
    """Each physical extent as an expression of the logical sizes (`d<i>` is the size of
    logical dim i): constants where the physical shape is static, `d0 ceildiv 4` where a
    `?` dim is tiled. What an allocation of run-time sizes allocates (`layout-lower`) and
    what `specialize` fills in."""

    @staticmethod
    def create(
        logical_shape: Sequence[int | None],
        index_map: AffineMap,
        physical_shape: Sequence[int | None] | None = None,
        *,
        pad: int | float = 0,
        dtype: ElementType | None = None,
        packing: Packing | None = None,
        dim_names: str | None = None,
        where: str = "layout",
        injective: bool | None = None,
        extents: Sequence[AffineExpr | None] | None = None,
    ) -> Layout:
        """Validate and build. `injective=True` skips the numeric injectivity check when the
        caller's construction proves it (the digit model). `extents` may choose the size
        expression of a `?` physical dim (upstream's, for builtin maps); it must hold the
        result (the caller checks)."""
        shape = tuple(None if e is None else int(e) for e in logical_shape)
        check_map_on_shape(index_map, shape, where)
        physical = physical_extents(shape, index_map, physical_shape, where)
        if dtype is not None:
            pad = dtype.check_pad(pad, where)
        exprs = dynamic_extents(shape, index_map, physical, extents, where)
        layout = Layout(shape, index_map, physical, pad, dtype, packing, dim_names, exprs)
        if packing is not None:
            packing.validate(physical[-1], dtype, where)
        if injective is None:
            injective = layout.blocked_terms is not None
        if not injective and not layout.is_dynamic:
            layout._check_injective(where)
        elif not injective:
            sizes = representative_sizes(shape, index_map)
            if layout.has_tiled_dynamic_dims or math.prod(sizes) <= MAX_ELEMENTS:
                note = f"{where} (size {format_shape(sizes)} stands for every size)"
                layout.specialize(sizes, note)
        return layout

    # ---- identity -------------------------------------------------------------------------
    def _key(self) -> tuple[object, ...]:
        pad: object = self.pad
        if isinstance(pad, float) and math.isnan(pad):
            pad = "nan"
        return (
            self.logical_shape,
            self.index_map,
            self.physical_shape,
            pad,
            self.dtype,
            self.packing,
            self.extents,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def equivalent(self, other: Layout) -> bool:
        """Same logical and physical shapes, pad, type, packing, and the same offset for every index."""
        if (self.logical_shape, self.physical_shape) != (other.logical_shape, other.physical_shape):
            return False
        if self._key()[3:] != other._key()[3:]:
            return False
        import numpy as np

        return bool(np.array_equal(self.offsets(), other.offsets()))

    def __repr__(self) -> str:
        parts = [
            f"logical={format_shape(self.logical_shape)}",
            f"map={format_map(self.index_map)}",
            f"physical={format_shape(self.physical_shape)}",
        ]
        if self.pad != 0:
            parts.append(f"pad={self.pad}")
        if self.dtype is not None:
            parts.append(f"dtype={self.dtype}")
        if self.packing is not None:
            parts.append(str(self.packing))
        return f"Layout({', '.join(parts)})"

    # ---- shape queries --------------------------------------------------------------------
    @property
    def rank(self) -> int:
        return len(self.logical_shape)

    @property
    def physical_rank(self) -> int:
        return len(self.physical_shape)

    @property
    def is_dynamic(self) -> bool:
        return None in self.logical_shape

    @property
    def has_tiled_dynamic_dims(self) -> bool:
        """Whether a `?` dim is used other than as a physical dim of its own: its logical
        size is then not a physical extent (`d0 floordiv 4` has `d0 ceildiv 4`)."""
        return any(self.size_position(d) is None for d in self.dynamic_dims)

    @property
    def dynamic_dims(self) -> tuple[int, ...]:
        return tuple(d for d, e in enumerate(self.logical_shape) if e is None)

    def size_position(self, dim: int) -> int | None:
        """The physical dim whose extent is the size of logical dim `dim` (a `?` dim that
        maps to a physical dim as itself, used nowhere else), else None."""
        bare = AffineExpr.dimension(dim)
        uses = [p for p, r in enumerate(self.index_map.results) if dim in r.used_dims()]
        if len(uses) == 1 and self.index_map.results[uses[0]] == bare:
            return uses[0]
        return None

    @property
    def static_logical_shape(self) -> tuple[int, ...]:
        """The logical shape, for a layout without `?` dims (raises otherwise)."""
        return self._static("the logical shape", self.logical_shape)

    @property
    def static_physical_shape(self) -> tuple[int, ...]:
        """The physical shape, for a layout without `?` dims (raises otherwise)."""
        return self._static("the physical shape", self.physical_shape)

    @property
    def size(self) -> int:
        """Physical slots (elements, lanes counted one by one), padding included."""
        return math.prod(self._static("size", self.physical_shape))

    @property
    def logical_size(self) -> int:
        return math.prod(self._static("logical_size", self.logical_shape))

    @property
    def storage_shape(self) -> Shape:
        """Shape of the physical memref: the lanes dim folds into one container element."""
        return self.physical_shape[:-1] if self.packing is not None else self.physical_shape

    @property
    def nbytes(self) -> int:
        """Bytes of the physical buffer."""
        if self.packing is None:
            if self.dtype is None:
                raise LayoutError("nbytes needs the element type (dtype)")
            return self.size * self.dtype.nbytes
        containers = math.prod(self._static("nbytes", self.storage_shape))
        if self.packing.is_vector:
            assert self.dtype is not None
            return containers * -(-self.physical_shape[-1] * self.dtype.bits // 8)  # type: ignore[operator]
        return containers * self.packing.storage_dtype.itemsize

    @cached_property
    def has_pad_slots(self) -> bool:
        """Whether some physical slot holds no logical element; for a dynamic layout, at
        some size of its `?` dims (a partial tile shows at size 1 or at a size that is no
        multiple of the tiles, `representative_sizes`)."""
        if not self.is_dynamic:
            return self.size != self.logical_size
        ones = [1 if e is None else e for e in self.logical_shape]
        sizes = [ones]
        if self.has_tiled_dynamic_dims:
            sizes.append(list(representative_sizes(self.logical_shape, self.index_map)))
        return any(self.specialize(s).has_pad_slots for s in sizes)

    @property
    def padding_share(self) -> float:
        """Fraction of physical slots that hold no logical element (0 for an empty buffer)."""
        return 1.0 - self.logical_size / self.size if self.size else 0.0

    @cached_property
    def blocked_terms(self) -> tuple[Term, ...] | None:
        """The digit-model terms, when the map is a pure blocking (tags, chunked)."""
        return recognize_terms(self.index_map, self.logical_shape, self.physical_shape)

    @cached_property
    def linear(self) -> tuple[tuple[int, ...], int] | None:
        """(element strides, offset) when `offset(index)` is affine in the index (no div/mod)."""
        if self.is_dynamic:
            return None
        form = linear_form(self.offset_expr, self.rank)
        return None if form is None else (tuple(form[0]), form[1])

    @cached_property
    def offset_expr(self) -> AffineExpr:
        """The linear element offset in memory order, over the logical dims."""
        return row_major_offset(self.index_map.results, self.static_physical_shape)

    def storage_exprs(self, flat: bool = False) -> list[AffineExpr]:
        """The index of the storage element (a container when packed) over the logical
        dims: one per storage dim, or one flat offset into the storage in memory order."""
        results = list(self.index_map.results)
        if self.packing is not None:
            results = results[:-1]
        if not flat:
            return results
        return [row_major_offset(results, self._static("flat storage", self.storage_shape))]

    @property
    def lane_expr(self) -> AffineExpr | None:
        """The lane of a packed layout (its innermost physical result), else None."""
        return self.index_map.results[-1] if self.packing is not None else None

    @property
    def storage_size(self) -> int:
        """Storage elements (containers when packed) of the physical buffer."""
        return math.prod(self._static("storage_size", self.storage_shape))

    def dim_digits(self, dim: int) -> tuple[tuple[int, int], ...] | None:
        """For a pure blocking (tags, chunked, plain): the physical dims that logical dim `dim`
        is split into, outermost first, as (physical position, weight): the logical index is
        Σ digit · weight. None for other layouts."""
        terms = self.blocked_terms
        if terms is None:
            return None
        weights = digit_weights(terms)
        return tuple((p, weights[p]) for p, term in enumerate(terms) if term.dim == dim)

    # ---- index queries --------------------------------------------------------------------
    def physical_index(self, index: Sequence[int]) -> tuple[int, ...]:
        self._check_index(index)
        return self.index_map.eval(list(index), [])

    def offset(self, index: Sequence[int]) -> int:
        """Linear element offset in memory order (C order over the physical shape)."""
        self._check_index(index)
        return int(self.offset_expr.eval(list(index), []))

    def logical_index(self, offset: int) -> tuple[int, ...] | None:
        """The logical index stored at `offset`, or None for a pad slot."""
        import numpy as np

        if not isinstance(offset, int | np.integer) or isinstance(offset, bool):
            raise LayoutError(f"offset {offset!r} is not an integer")
        if not 0 <= offset < self.size:
            raise LayoutError(
                f"offset {offset} is outside the physical buffer of {self.size} slots"
            )
        return self.inverse().at_offset(offset)

    def offsets(self) -> np.ndarray:
        """Offsets of every logical index, as an array of the logical shape (int64)."""
        import numpy as np

        shape = self._static("offsets", self.logical_shape)
        self._check_enumerable("offsets")
        total = evaluate(self.offset_expr, index_grids(shape))
        return np.broadcast_to(np.asarray(total, dtype=np.int64), shape)

    # ---- the algebra (heterolayout.layout.algebra) -------------------------------------------
    def compose(self, window: IndexWindow) -> Layout | NotRepresentable:
        """The layout of the view `window` makes of this layout, or why there is none."""
        from heterolayout.layout.algebra import compose

        return compose(self, window)

    def inverse(self) -> Inverse:
        """Physical slot → logical index or pad (an affine map too, for blockings)."""
        return self._inverse

    @cached_property
    def _inverse(self) -> Inverse:
        from heterolayout.layout.algebra import Inverse

        return Inverse(self)

    def contiguous_dim(self) -> int | None:
        """The logical dim that walks the innermost storage dim with unit stride."""
        from heterolayout.layout.algebra import contiguous_dim

        return contiguous_dim(self)

    def contiguous_run(self, dim: int, step: int | None = None, first: int = 0) -> int:
        """Elements along `dim` stored at consecutive slots. With `step`: how many stay
        consecutive in the innermost storage dim from any index whose `dim` coordinate is
        `first + step·k` (what a loop with that step may load as one vector). Without: the
        longest aligned run L in memory order, from every multiple of L (static layouts)."""
        if step is None:
            return self._aligned_runs[dim]
        from heterolayout.layout.algebra import contiguous_run

        return contiguous_run(self, dim, step, first)

    @cached_property
    def _aligned_runs(self) -> tuple[int, ...]:
        from heterolayout.layout.contiguity import contiguous_runs

        shape = self._static("contiguous_run", self.logical_shape)
        physical = self._static("contiguous_run", self.physical_shape)
        return contiguous_runs(self.index_map.results, shape, physical)

    def runs_contiguously(
        self,
        start: Sequence[AffineExpr],
        ranges: Mapping[int, tuple[int, int]],
        length: int,
        flat: bool = False,
        dim: int = -1,
    ) -> bool:
        """Whether `length` elements along logical dim `dim` from `start` (expressions over
        dims with `ranges`) are consecutive in the innermost storage dim (or flat offset)."""
        from heterolayout.layout.algebra import runs_contiguously

        return runs_contiguously(self, start, ranges, length, flat, dim)

    # ---- numpy reference ------------------------------------------------------------------
    def pack(
        self, array: np.ndarray, pad: int | float | None = None, *, native: bool | None = None
    ) -> np.ndarray:
        """Logical array → physical buffer (C-contiguous; flattened order is memory order).
        Large arrays go through the compiled conversion when MLIR 22 is installed
        (`native=None`); `native=False` forces numpy, `True` the compiled conversion."""
        from heterolayout.layout.reference import pack

        self._check_enumerable("pack")
        return pack(self, array, pad, native)

    def unpack(self, physical: np.ndarray, *, native: bool | None = None) -> np.ndarray:
        """Physical buffer → logical array (`native` as for `pack`)."""
        from heterolayout.layout.reference import unpack

        self._check_enumerable("unpack")
        return unpack(self, physical, native)

    # ---- derived layouts ------------------------------------------------------------------
    def specialize(self, shape: Sequence[int], where: str = "layout") -> Layout:
        """The same layout on a static shape (fills in the `?` dims)."""
        import numpy as np

        if not isinstance(shape, Sequence | np.ndarray):
            raise LayoutError(f"shape {shape!r} is not a sequence of extents")
        if len(shape) != self.rank:
            raise LayoutError(f"shape {format_shape(tuple(shape))} does not have rank {self.rank}")
        for given, extent in zip(shape, self.logical_shape, strict=True):
            if extent is not None and given != extent:
                raise LayoutError(
                    f"shape {format_shape(tuple(shape))} does not match {format_shape(self.logical_shape)}"
                )
        return Layout.create(
            shape,
            self.index_map,
            _specialized_physical(self, shape),
            pad=self.pad,
            dtype=self.dtype,
            packing=self.packing,
            dim_names=self.dim_names,
            where=where,
        )

    def with_params(
        self,
        *,
        pad: int | float | None = None,
        dtype: ElementType | None = None,
        packing: Packing | None = None,
    ) -> Layout:
        return Layout.create(
            self.logical_shape,
            self.index_map,
            self.physical_shape,
            pad=self.pad if pad is None else pad,
            dtype=self.dtype if dtype is None else dtype,
            packing=self.packing if packing is None else packing,
            dim_names=self.dim_names,
            injective=True,
            extents=self.extents,
        )

    # ---- rendering ------------------------------------------------------------------------
    def notations(self) -> dict[str, str]:
        """Every notation that expresses this layout, as `parse_layout` specs: the text of
        the dialect's attributes (`services.attribute_text`)."""
        return attribute_text("notations").notations(self)

    def to_map(self) -> str:
        """`#layout.map<…>` text of this layout."""
        return self.notations()["map"]

    # ---- checks ---------------------------------------------------------------------------
    def _static(self, what: str, shape: Shape) -> tuple[int, ...]:
        if None in shape:
            raise LayoutError(
                f"{what}: the layout has dynamic dims ({format_shape(self.logical_shape)}); "
                "call specialize(shape) first"
            )
        return shape  # type: ignore[return-value]

    def _strides_separate(self) -> bool:
        linear = self.linear
        return linear is not None and _separated(linear[0], self.logical_shape)  # type: ignore[arg-type]

    def _check_enumerable(self, what: str) -> None:
        """Refuse to materialise a layout beyond `MAX_ELEMENTS` slots one by one."""
        slots = max(self.size, self.logical_size)
        if slots > MAX_ELEMENTS:
            raise LayoutError(
                f"{what}: the layout's {slots} slots ({format_shape(self.physical_shape)}) are "
                f"more than the limit of {MAX_ELEMENTS} slots that heterolayout materialises "
                "one by one"
            )

    def _check_index(self, index: Sequence[int]) -> None:
        import numpy as np

        if not isinstance(index, Sequence | np.ndarray) or not all(
            isinstance(v, int | np.integer) and not isinstance(v, bool) for v in index
        ):
            raise LayoutError(f"index {index!r} is not a sequence of integers")
        if len(index) != self.rank:
            raise LayoutError(f"index {tuple(index)} does not have rank {self.rank}")
        for value, extent in zip(index, self.logical_shape, strict=True):
            if value < 0 or (extent is not None and value >= extent):
                raise LayoutError(
                    f"index {tuple(index)} is out of bounds for logical shape {format_shape(self.logical_shape)}"
                )

    def first_clash(self) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        """Two logical indices the map sends to one physical slot (the first in logical
        order), or None when the map is injective on the logical box."""
        import numpy as np

        offsets = self.offsets().ravel()
        order = np.argsort(offsets, kind="stable")
        ordered = offsets[order]
        clashes = np.flatnonzero(ordered[1:] == ordered[:-1])
        if not clashes.size:
            return None
        shape = self.static_logical_shape
        first, second = (
            tuple(int(i) for i in np.unravel_index(order[k], shape))
            for k in (clashes[0], clashes[0] + 1)
        )
        return first, second

    def _check_injective(self, where: str) -> None:
        if self._strides_separate():
            return
        if max(self.size, self.logical_size) > MAX_ELEMENTS:
            raise LayoutError(
                f"{where}: the map's injectivity on {format_shape(self.logical_shape)} would be "
                f"checked point by point, beyond the limit of {MAX_ELEMENTS} points"
            )
        clash = self.first_clash()
        if clash is not None:
            a, b = clash
            raise LayoutError(
                f"{where}: the map is not injective on {format_shape(self.logical_shape)}: "
                f"logical indices {a} and {b} both map to physical index "
                f"{self.index_map.eval(list(a), [])}"
            )


def _separated(coefficients: Sequence[int], shape: Sequence[int]) -> bool:
    """Whether a linear offset is injective because each dim's stride exceeds the span of
    all smaller strides (the test for non-overlapping strided memory)."""
    span = 0
    for stride, extent in sorted(
        (abs(c), e) for c, e in zip(coefficients, shape, strict=True) if e > 1
    ):
        if stride <= span:
            return False
        span += stride * (extent - 1)
    return True


@overload
def row_major_strides(shape: Sequence[int]) -> tuple[int, ...]: ...
@overload
def row_major_strides(shape: Sequence[int | None]) -> tuple[int | None, ...]: ...
def row_major_strides(shape: Sequence[int | None]) -> tuple[int | None, ...]:
    """Element strides of a contiguous row-major buffer (None beyond a `?` extent)."""
    strides: list[int | None] = []
    running: int | None = 1
    for extent in reversed(shape):
        strides.append(running)
        running = None if running is None or extent is None else running * extent
    return tuple(reversed(strides))


def row_major_offset(indices: Sequence[AffineExpr], shape: Sequence[int]) -> AffineExpr:
    """The linear offset of an index into a row-major buffer of `shape`."""
    offset: AffineExpr = AffineExpr.constant(0)
    for index, stride in zip(indices, row_major_strides(shape), strict=True):
        offset = offset + (index if stride == 1 else index * stride)
    return offset


def _specialized_physical(layout: Layout, shape: Sequence[int]) -> tuple[int, ...] | None:
    """Dynamic physical dims take their extent expression's value at `shape`: what an
    allocation of those sizes allocates."""
    return evaluate_extents(layout.extents, [int(e) for e in shape])
