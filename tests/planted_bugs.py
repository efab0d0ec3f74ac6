"""Lowering bugs planted on purpose, to show that `check` and `layout-run --check` catch them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from unittest.mock import patch

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, VectorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineExpr, AffineMap
from xdsl.passes import ModulePass

from heterolayout.layout.algebra import Inverse
from heterolayout.layout.model import Layout
from heterolayout.passes.convert import loops as convert_loops
from heterolayout.passes.convert import packed as convert_packed
from heterolayout.passes.convert import tiles as convert_tiles
from heterolayout.passes.index import index_code
from heterolayout.passes.index.index_code import IndexEmitter
from heterolayout.passes.lower import vectors as lower_vectors
from heterolayout.passes.packed import container_access, element_access


@dataclass(frozen=True)
class SwapStoreIndices(ModulePass):
    """The first 2-D memref.store gets its two indices swapped."""

    name = "test-swap-store-indices"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for store in op.walk():
            if isinstance(store, memref.StoreOp) and len(store.indices) == 2:
                value, target, first, second = store.operands
                store.operands = [value, target, second, first]
                return


# ---- wrong index code inside layout-lower, for translation validation --------------------------
# Each context manager makes `layout-lower` emit wrong index code of one kind while it is
# active; `layout-lower{validate=true}` must name the access and give a counterexample.


def _shifted(results: list[AffineExpr]) -> list[AffineExpr]:
    return [*results[:-1], results[-1] + 1]


@contextmanager
def innermost_index_off_by_one() -> Iterator[None]:
    """The innermost physical index one too far, in every access path (element accesses,
    affine maps, kept vectors)."""
    real = Layout.storage_exprs

    def wrong(layout: Layout, flat: bool = False) -> list[AffineExpr]:
        return _shifted(real(layout, flat))

    with patch.object(Layout, "storage_exprs", wrong):
        yield


@contextmanager
def division_emitted_as_remainder() -> Iterator[None]:
    """`arith` index code computes `x mod k` where it should compute `x floordiv k`."""
    real = IndexEmitter._arith

    def wrong(self: IndexEmitter, expr: AffineExpr) -> SSAValue:
        if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.FloorDiv:
            return real(self, expr.lhs % expr.rhs)
        return real(self, expr)

    with patch.object(IndexEmitter, "_arith", wrong):
        yield


@contextmanager
def bit_order_ignored() -> Iterator[None]:
    """Packed lanes placed LSB-first whatever the layout's bit order says."""
    real = element_access.ElementAccess._shift

    def wrong(
        self: element_access.ElementAccess, lane: AffineExpr, emitter: IndexEmitter
    ) -> SSAValue:
        packing = self.layout.packing
        assert packing is not None
        lsb = dataclasses.replace(packing, bit_order="lsb")
        with patch.object(self, "layout", dataclasses.replace(self.layout, packing=lsb)):
            return real(self, lane, emitter)

    with patch.object(element_access.ElementAccess, "_shift", wrong):
        yield


@contextmanager
def every_vector_kept_whole() -> Iterator[None]:
    """Vector accesses kept whole even where they cross a block boundary."""
    with patch.object(Layout, "runs_contiguously", lambda *args, **kwargs: True):
        yield


@contextmanager
def simplifier_drops_remainders() -> Iterator[None]:
    """An unsound simplification: `x mod k` becomes `x` in every best form of an index."""
    real = index_code._best_form

    def wrong(expr: AffineExpr, *args: object) -> AffineExpr:
        return _drop_mod(real(expr, *args))  # type: ignore[arg-type]

    with patch.object(index_code, "_best_form", wrong):
        yield


def _drop_mod(expr: AffineExpr) -> AffineExpr:
    if not isinstance(expr, AffineBinaryOpExpr):
        return expr
    if expr.kind == AffineBinaryOpKind.Mod:
        return _drop_mod(expr.lhs)
    return AffineBinaryOpExpr(expr.kind, _drop_mod(expr.lhs), _drop_mod(expr.rhs))


@contextmanager
def conversion_swaps_two_dims() -> Iterator[None]:
    """A conversion's loop nest rebuilds the logical index with its last two dims swapped."""
    real = Layout.inverse

    @dataclass(frozen=True)
    class Swapped:
        inverse: Inverse

        @property
        def index_map(self) -> AffineMap | None:
            index_map = self.inverse.index_map
            if index_map is None or len(index_map.results) < 2:
                return index_map
            *outer, second, last = index_map.results
            return AffineMap(index_map.num_dims, index_map.num_symbols, (*outer, last, second))

        def __getattr__(self, name: str) -> object:
            return getattr(self.inverse, name)

    def wrong(layout: Layout) -> Inverse:
        return Swapped(real(layout))  # type: ignore[return-value]

    with patch.object(Layout, "inverse", wrong):
        yield


# ---- wrong whole-container accesses (container_access) ------------------------------------------
@contextmanager
def container_lanes_swapped() -> Iterator[None]:
    """The shuffles of whole containers take lanes 0 and 1 from each other's slots."""
    real = container_access._lane_type

    def wrong(layout: Layout, element: Attribute) -> tuple[VectorType, list[int]]:
        view, positions = real(layout, element)
        return view, [positions[1], positions[0], *positions[2:]]

    with patch.object(container_access, "_lane_type", wrong):
        yield


@contextmanager
def container_bit_order_ignored() -> Iterator[None]:
    """Whole containers read and written LSB-first whatever the layout's bit order says."""
    real = container_access._lane_type

    def wrong(layout: Layout, element: Attribute) -> tuple[VectorType, list[int]]:
        packing = layout.packing
        assert packing is not None
        lsb = dataclasses.replace(layout, packing=dataclasses.replace(packing, bit_order="lsb"))
        return real(lsb, element)

    with patch.object(container_access, "_lane_type", wrong):
        yield


@contextmanager
def container_index_one_further() -> Iterator[None]:
    """Whole containers loaded and stored one container further along the last dim."""
    real_load = element_access.ElementAccess.load_container
    real_store = element_access.ElementAccess.store_container

    def further(
        access: element_access.ElementAccess, logical: list[AffineExpr]
    ) -> list[AffineExpr]:
        lanes = access.layout.physical_shape[-1]
        assert lanes is not None
        return [*logical[:-1], logical[-1] + lanes]

    def load(self: element_access.ElementAccess, logical, leaves, insert):  # type: ignore[no-untyped-def]
        return real_load(self, further(self, logical), leaves, insert)

    def store(self: element_access.ElementAccess, word, logical, leaves, insert):  # type: ignore[no-untyped-def]
        return real_store(self, word, further(self, logical), leaves, insert)

    with (
        patch.object(element_access.ElementAccess, "load_container", load),
        patch.object(element_access.ElementAccess, "store_container", store),
    ):
        yield


@contextmanager
def partial_container_stored_whole() -> Iterator[None]:
    """A vector store shorter than its container stored as the whole container even where
    the lanes after it hold elements (they get the pad value)."""
    real = lower_vectors.whole_container

    def wrong(layout, logical, leaves, dim, length, store):  # type: ignore[no-untyped-def]
        return real(layout, logical, leaves, dim, length, False)

    with patch.object(lower_vectors, "whole_container", wrong):
        yield


# ---- wrong tiled conversions (convert_tiles, convert_packed) ------------------------------------
@contextmanager
def tile_transpose_swaps_rows() -> Iterator[None]:
    """The in-register transpose of a tile gives its first two columns in each other's place."""
    real = convert_tiles.transpose

    def wrong(rows, add):  # type: ignore[no-untyped-def]
        columns = real(rows, add)
        return [columns[1], columns[0], *columns[2:]]

    with patch.object(convert_tiles, "transpose", wrong):
        yield


@contextmanager
def packed_tile_bit_order_ignored() -> Iterator[None]:
    """Containers built whole by a conversion packed LSB-first whatever the bit order says."""
    real = convert_packed._store_words

    def wrong(source, destination, *args):  # type: ignore[no-untyped-def]
        packing = destination.layout.packing
        lsb = dataclasses.replace(packing, bit_order="lsb")
        with patch.object(
            destination, "layout", dataclasses.replace(destination.layout, packing=lsb)
        ):
            return real(source, destination, *args)

    with patch.object(convert_packed, "_store_words", wrong):
        yield


@contextmanager
def pad_slots_get_an_element() -> Iterator[None]:
    """The scalar nest of a conversion stores the source's first element into the
    destination's pad slots instead of the pad value: no logical index reads a pad slot, so
    a seeded run compared in logical form cannot see it."""

    def wrong(source, destination, logical, leaves, add, pairs):  # type: ignore[no-untyped-def]
        def move(insert: Callable[[Operation], None]) -> None:
            convert_loops._move(source, destination, logical, leaves, insert)

        def element_as_pad(insert: Callable[[Operation], None]) -> None:
            first = [AffineExpr.constant(0)] * len(logical)
            value = source.load(first, leaves, insert)
            destination.store(value, logical, leaves, insert)

        if not pairs:
            move(add)
            return
        emitter = IndexEmitter(leaves, add, destination.mode)
        convert_tiles.branch_below(emitter, pairs, add, move, element_as_pad)

    with patch.object(convert_loops, "_move_or_pad", wrong):
        yield


# ---- invalid IR inside layout-lower, for the verification between its steps ----------------


@contextmanager
def definitions_keep_logical_shapes() -> Iterator[None]:
    """`layout-lower-memrefs` gives each layout-typed definition its logical shape without
    the layout, not its physical type: the accesses it rewrote index the physical buffer,
    so the IR after the step does not verify (a 2-D memref loaded with 4 indices)."""
    from heterolayout.passes.lower import definitions

    def logical(memref_type: MemRefType, layout: Layout, flatten: bool) -> MemRefType:
        return MemRefType(memref_type.element_type, memref_type.get_shape())

    with patch.object(definitions, "physical_type", logical):
        yield
