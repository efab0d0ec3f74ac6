"""Vector accesses to layout-typed memrefs (`vector.load/store`, `affine.vector_load/store`,
and 1-D transfers along any one logical dim; those that may leave the memref or are masked
are guarded lane by lane, `transfer_guards`): one vector access
where the lanes are provably consecutive in the innermost physical dim
(`Layout.runs_contiguously`, with loop variables written `first + step·k` so that their
alignment is known), one container access where they are the first lanes of one packed
container (`container_access`), one scalar access per lane otherwise."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import affine, vector
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from heterolayout.dialects.functions import enclosing_function
from heterolayout.dialects.roles import VECTOR_LOADS, roles_of
from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.layout.model import Layout
from heterolayout.passes.index.index_code import IndexEmitter, IndexLeaves
from heterolayout.passes.index.upstream_folds import misfolded_by_upstream
from heterolayout.passes.lower.access_lowering import (
    AccessLowering,
    affine_access_map,
    inserter_before,
    memref_layout,
)
from heterolayout.passes.lower.transfer_guards import guard_problem, lower_guarded
from heterolayout.passes.packed.container_access import load_lanes, store_lanes, whole_container
from heterolayout.passes.packed.element_access import ElementAccess
from heterolayout.passes.transfers import needs_guards

VectorAccessOp = (
    vector.LoadOp
    | vector.StoreOp
    | affine.VectorLoadOp
    | affine.VectorStoreOp
    | vector.TransferReadOp
    | vector.TransferWriteOp
)


def vector_operands(op: VectorAccessOp) -> tuple[SSAValue, SSAValue]:
    """The memref a vector access reads or writes (as the op-role table says), and the
    vector (loaded, or stored: every vector store's first operand)."""
    roles = roles_of(op)
    assert roles is not None and roles.vector
    if roles.reads:
        return op.operands[roles.reads[0]], op.results[0]
    return op.operands[roles.writes[0]], op.operands[0]


def transfer_problem(op: Operation, layout: Layout) -> str | None:
    """Why `layout-lower` cannot lower a transfer on a layout-typed memref, or None: it
    lowers 1-D transfers along one dim, in bounds or not, masked or not (`transfer_guards`)."""
    assert isinstance(op, vector.TransferReadOp | vector.TransferWriteOp)
    results = op.permutation_map.data.results
    if len(results) != 1 or not isinstance(results[0], AffineDimExpr):
        return (
            "only transfers along one dim are supported (the permutation map "
            f"{op.permutation_map.data} has no single dim result)"
        )
    return guard_problem(op, layout, results[0].position)


def walked_dim(op: VectorAccessOp) -> int:
    """The logical dim the lanes walk: a transfer's permutation map says, the others walk
    the innermost one."""
    if isinstance(op, vector.TransferReadOp | vector.TransferWriteOp):
        (result,) = op.permutation_map.data.results
        assert isinstance(result, AffineDimExpr)  # transfer_problem refused the others
        return result.position
    return -1


@dataclass
class LowerVectorAccess(RewritePattern):
    """A 1-D vector access stays one where its lanes are provably consecutive in the
    innermost physical dim, and is split into scalar accesses otherwise."""

    state: AccessLowering

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VectorAccessOp, rewriter: PatternRewriter) -> None:
        base, _ = vector_operands(op)
        layout = memref_layout(base)
        if layout is None:
            return
        if needs_guards(op):
            assert isinstance(op, vector.TransferReadOp | vector.TransferWriteOp)
            lower_guarded(op, layout, walked_dim(op), self.state, self._in_bounds, rewriter)
            return
        self._in_bounds(op, rewriter)

    def _in_bounds(self, op: Operation, rewriter: PatternRewriter) -> None:
        """A vector access whose lanes all lie inside the memref, unmasked."""
        assert isinstance(op, VectorAccessOp)
        base, vector_value = vector_operands(op)
        layout = memref_layout(base)
        assert layout is not None
        is_affine = isinstance(op, affine.VectorLoadOp | affine.VectorStoreOp)
        is_load = op.name in VECTOR_LOADS
        dim = walked_dim(op)
        stored = None if is_load else vector_value
        vector_type = vector_value.type
        assert isinstance(vector_type, VectorType)
        leaves = self.state.leaves(op)
        if is_affine:
            logical = leaves.map_results(op.map.data, list(op.indices))  # type: ignore[union-attr]
        else:
            logical = [leaves.recover(i) for i in op.indices]
        leaves.bound_bare_indices(logical, layout.logical_shape)
        self.state.replaced(op)
        length = vector_type.get_shape()[0]
        strided, ranges = leaves.strided()
        start = [e.replace_dims_and_symbols(strided, []) for e in logical]
        flat = self.state.flatten
        if layout.packing is None and layout.runs_contiguously(start, ranges, length, flat, dim):
            new = self._whole(op, is_affine, base, stored, vector_type, layout, logical, leaves)
            rewriter.replace(op, new)
            return
        access = self.state.access(op, base, layout)
        if whole_container(layout, logical, leaves, dim, length, store=stored is not None):
            self._containers(op, access, stored, logical, leaves, length, rewriter)
            return
        self._split(op, access, stored, vector_type, logical, dim, leaves, rewriter)

    def _containers(
        self,
        op: Operation,
        access: ElementAccess,
        stored: SSAValue | None,
        logical: Sequence[AffineExpr],
        leaves: IndexLeaves,
        length: int,
        rewriter: PatternRewriter,
    ) -> None:
        """Lanes that cover the first lanes of one container: one container load or store
        (`container_access`), whose bitwise lanes `fold_words` later turns into word ops."""
        insert = inserter_before(op)
        function = enclosing_function(op)
        if function is not None:
            self.state.words.append(function)
        if stored is None:
            rewriter.replace(op, [], [load_lanes(access, logical, leaves, length, insert)])
        else:
            store_lanes(access, stored, logical, leaves, insert)
            rewriter.erase(op)

    def _whole(
        self,
        op: Operation,
        is_affine: bool,
        base: SSAValue,
        stored: SSAValue | None,
        vector_type: VectorType,
        layout: Layout,
        logical: Sequence[AffineExpr],
        leaves: IndexLeaves,
    ) -> Operation:
        """A contiguous vector access: affine when it was affine and the index code is, else
        a `vector` op on computed indices."""
        is_load = stored is None
        access_map = None
        if is_affine and self.state.mode == "affine":
            access_map = affine_access_map(layout, self.state.flatten, logical, leaves)
        if access_map is not None and not misfolded_by_upstream(
            access_map.data.results, leaves.values
        ):
            if is_load:
                return affine.VectorLoadOp(base, leaves.values, access_map, vector_type)  # type: ignore[arg-type]
            return affine.VectorStoreOp(stored, base, leaves.values, access_map)  # type: ignore[arg-type]
        exprs = [
            r.replace_dims_and_symbols(list(logical), [])
            for r in layout.storage_exprs(self.state.flatten)
        ]
        scope = self.state.index_values.scope(op)
        indices = IndexEmitter(leaves, inserter_before(op), self.state.mode, scope).emit_all(exprs)
        if is_load:
            return vector.LoadOp(base, indices, vector_type)
        return vector.StoreOp(stored, base, indices)  # type: ignore[arg-type]

    def _split(
        self,
        op: Operation,
        access: ElementAccess,
        stored: SSAValue | None,
        vector_type: VectorType,
        logical: Sequence[AffineExpr],
        dim: int,
        leaves: IndexLeaves,
        rewriter: PatternRewriter,
    ) -> None:
        """One scalar access per lane, assembled with `vector.from_elements` or taken apart
        with `vector.extract`."""
        insert = inserter_before(op)
        elements: list[SSAValue] = []
        for lane in range(vector_type.get_shape()[0]):
            shifted = list(logical)
            shifted[dim] = logical[dim] + lane
            if stored is None:
                elements.append(access.load(shifted, leaves, insert))
                continue
            extract = vector.ExtractOp(stored, [lane], vector_type.element_type)
            insert(extract)
            access.store(extract.result, shifted, leaves, insert)
        if stored is None:
            rewriter.replace(op, FromElementsOp(elements, vector_type))
        else:
            rewriter.erase(op)
