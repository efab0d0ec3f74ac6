"""The first step of `layout-lower`: every access to a layout-typed memref becomes an access
to its physical buffer. Each pattern reads the layout from its memref operand's type (the
types change only in the second step, `lower_definitions`).

Loads and stores get index code (`ElementAccess`), vector accesses stay vector accesses over
provably contiguous runs and are split otherwise (`lower_vectors`), `memref.dim` and
`memref.rank` give the logical size and rank, conversions and copies across layouts become
loop nests.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import affine, arith, memref
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from heterolayout.dialects.arith_ops import constant_index
from heterolayout.dialects.ops import ConvertOp
from heterolayout.layout.model import Layout
from heterolayout.passes.cleanup_marks import mark_for_cleanup
from heterolayout.passes.convert.loops import convert
from heterolayout.passes.index.logical_sizes import size_source
from heterolayout.passes.index.upstream_folds import misfolded_by_upstream
from heterolayout.passes.lower.access_lowering import (
    AccessLowering,
    affine_access_map,
    inserter_before,
    memref_layout,
)
from heterolayout.passes.packed.element_access import ElementAccess
from heterolayout.passes.physical import identity_layout, physical_type


def in_gpu_code(op: Operation) -> bool:
    """Inside a `gpu.func` or a `gpu.launch` body: code each GPU thread runs."""
    parent = op.parent_op()
    while parent is not None and parent.name not in ("gpu.func", "gpu.launch"):
        parent = parent.parent_op()
    return parent is not None


@dataclass
class NoteConstants(RewritePattern):
    """The program's own integer constants, met in program order, are reused like ours."""

    state: AccessLowering

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ConstantOp, rewriter: PatternRewriter) -> None:
        self.state.index_values.note_constant(op)


@dataclass
class LowerScalarAccess(RewritePattern):
    """`memref.load/store` and `affine.load/store` of one element."""

    state: AccessLowering

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: memref.LoadOp | memref.StoreOp | affine.LoadOp | affine.StoreOp,
        rewriter: PatternRewriter,
    ) -> None:
        layout = memref_layout(op.memref)
        if layout is None:
            return
        leaves = self.state.leaves(op)
        if isinstance(op, affine.LoadOp | affine.StoreOp):
            logical = leaves.map_results(op.map.data, list(op.indices))
        else:
            logical = [leaves.recover(i) for i in op.indices]
        leaves.bound_bare_indices(logical, layout.logical_shape)
        is_affine = isinstance(op, affine.LoadOp | affine.StoreOp)
        access_map = None
        if is_affine and self.state.mode == "affine" and layout.packing is None:
            access_map = affine_access_map(layout, self.state.flatten, logical, leaves)
        if access_map is not None and not misfolded_by_upstream(
            access_map.data.results, leaves.values
        ):
            if isinstance(op, affine.StoreOp):
                new: Operation = affine.StoreOp(op.value, op.memref, leaves.values, access_map)
            else:
                new = affine.LoadOp(op.memref, leaves.values, access_map)
            rewriter.replace(op, new)
            return
        # affine.load may take only affine dims and symbols: computed indices need memref ops
        # (and so do maps upstream folds wrongly: upstream_folds).
        access = self.state.access(op, op.memref, layout)
        insert = inserter_before(op)
        if isinstance(op, memref.LoadOp | affine.LoadOp):
            loaded = access.load(logical, leaves, insert)
            op.results[0].replace_all_uses_with(loaded)
            self.state.maybe_dead.append(loaded.owner)  # type: ignore[arg-type]
        else:
            access.store(op.value, logical, leaves, insert)
        self.state.replaced(op)
        rewriter.erase(op)


@dataclass
class LowerPrefetch(RewritePattern):
    """`memref.prefetch` and `affine.prefetch`: the same hint, on the physical buffer at the
    physical index (of the element's container when packed); affine where it was affine and
    the index code is."""

    state: AccessLowering

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.name not in ("memref.prefetch", "affine.prefetch"):
            return
        from heterolayout.dialects.upstream.affine import PrefetchOp as AffinePrefetchOp
        from heterolayout.dialects.upstream.memref import PREFETCH_HINTS, PrefetchOp

        buffer, indices = op.operands[0], list(op.operands[1:])
        layout = memref_layout(buffer)
        if layout is None:
            return
        leaves = self.state.leaves(op)
        is_affine = op.name == "affine.prefetch"
        if is_affine:
            logical = leaves.map_results(op.properties["map"].data, indices)  # type: ignore[attr-defined]
        else:
            logical = [leaves.recover(i) for i in indices]
        leaves.bound_bare_indices(logical, layout.logical_shape)
        hints = {name: op.properties[name] for name in PREFETCH_HINTS}
        if is_affine and self.state.mode == "affine":
            access_map = affine_access_map(layout, self.state.flatten, logical, leaves)
            if not misfolded_by_upstream(access_map.data.results, leaves.values):
                rewriter.replace(
                    op,
                    AffinePrefetchOp.build(
                        operands=[buffer, leaves.values], properties={**hints, "map": access_map}
                    ),
                )
                return
        access = self.state.access(op, buffer, layout)
        physical = access.indices(logical, leaves, inserter_before(op))
        self.state.replaced(op)
        rewriter.replace(op, PrefetchOp.build(operands=[buffer, physical], properties=hints))


@dataclass
class LowerShapeQuery(RewritePattern):
    """`memref.dim` and `memref.rank` answer for the logical shape: a constant, the
    physical dim that carries a `?` dim, or the allocation's size of a tiled `?` dim."""

    state: AccessLowering

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.DimOp | memref.RankOp, rewriter: PatternRewriter
    ) -> None:
        layout = memref_layout(op.source)
        if layout is None:
            return
        scope = self.state.index_values.scope(op)
        if isinstance(op, memref.RankOp):
            rewriter.replace(op, [], [scope.constant(layout.rank)])
            return
        position = constant_index(op.index)
        assert position is not None  # check_lowerable refused the others
        self.state.replaced(op)
        extent = layout.logical_shape[position]
        if extent is not None:
            rewriter.replace(op, [], [scope.constant(extent)])
            return
        source = size_source(op.source, layout, position)
        assert source is not None  # check_lowerable refused the others
        if isinstance(source, SSAValue):
            rewriter.replace(op, [], [source])
            return
        rewriter.replace(op, memref.DimOp(op.source, scope.constant(source)))


@dataclass
class LowerConversion(RewritePattern):
    """`layout.convert`, and `memref.copy` between different layouts: a loop nest that
    walks the destination in its memory order."""

    state: AccessLowering

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConvertOp | memref.CopyOp, rewriter: PatternRewriter) -> None:
        source, destination = op.operands
        layouts = memref_layout(source), memref_layout(destination)
        if isinstance(op, memref.CopyOp):
            if layouts == (None, None):
                return
            flat = self.state.flatten
            if layouts[0] == layouts[1] and _physical(source.type, layouts[0], flat) == _physical(
                destination.type, layouts[1], flat
            ):
                return  # the same physical buffers: a copy still
        grid = self.state.gpu_converts and not in_gpu_code(op)
        accesses = self._any(op, source), self._any(op, destination)
        if not grid or not self._tiled_on_gpu(op, *accesses):
            convert(*accesses, inserter_before(op), grid)
        mark_for_cleanup(op)
        rewriter.erase(op)

    @staticmethod
    def _tiled_on_gpu(op: Operation, source: ElementAccess, destination: ElementAccess) -> bool:
        """`convert=gpu`: a shared-memory tile transpose where the layouts allow one."""
        from heterolayout.passes.convert.gpu_tiles import tile_plan, tiled_convert

        plan = tile_plan(source.layout, destination.layout)
        if plan is not None:
            tiled_convert(source, destination, plan, op)
        return plan is not None

    def _any(self, op: Operation, buffer: SSAValue) -> ElementAccess:
        """Plain memrefs take part in conversions with the identity layout."""
        layout = memref_layout(buffer) or identity_layout(buffer.type)  # type: ignore[arg-type]
        return self.state.access(op, buffer, layout, shared=False)


@dataclass
class FoldPhysicalCast(RewritePattern):
    """A `memref.cast` between layouts whose physical buffers have one type goes away."""

    state: AccessLowering

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CastOp, rewriter: PatternRewriter) -> None:
        source = memref_layout(op.source)
        if source is None:
            return
        flat = self.state.flatten
        dest = _physical(op.dest.type, memref_layout(op.dest), flat)
        if _physical(op.source.type, source, flat) == dest:
            rewriter.replace(op, [], [op.source])


def _physical(memref_type: Attribute, layout: Layout | None, flat: bool) -> Attribute:
    """The type of the physical buffer of a memref type (itself for plain memrefs)."""
    if layout is None:
        return memref_type
    assert isinstance(memref_type, MemRefType)
    return physical_type(memref_type, layout, flat)


def access_patterns(state: AccessLowering, vectors: bool) -> list[RewritePattern]:
    """The patterns of the first step; the vector one (and xDSL's vector dialect) only for
    modules with vector accesses."""
    patterns: list[RewritePattern] = [
        NoteConstants(state),
        LowerScalarAccess(state),
        LowerShapeQuery(state),
        LowerConversion(state),
        FoldPhysicalCast(state),
        LowerPrefetch(state),
    ]
    if vectors:
        from heterolayout.passes.lower.vectors import LowerVectorAccess

        patterns.insert(2, LowerVectorAccess(state))
    return patterns
