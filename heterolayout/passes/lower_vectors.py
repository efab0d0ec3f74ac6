"""Vector accesses to layout-typed memrefs (`vector.load/store`, `affine.vector_load/store`):
one vector access where the lanes are provably consecutive in the innermost physical dim
(`Layout.runs_contiguously`, with loop variables written `first + step·k` so that their
alignment is known), one scalar access per lane otherwise."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import affine, vector
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.layout.model import Layout
from heterolayout.passes.index_code import IndexEmitter, IndexLeaves
from heterolayout.passes.lower_accesses import (
    AccessLowering,
    affine_access_map,
    inserter_before,
    memref_layout,
)

VectorAccessOp = vector.LoadOp | vector.StoreOp | affine.VectorLoadOp | affine.VectorStoreOp


def vector_operands(op: VectorAccessOp) -> tuple[SSAValue, SSAValue]:
    """The memref a vector access reads or writes, and the vector (loaded or stored)."""
    base = op.memref if isinstance(op, affine.VectorLoadOp | affine.VectorStoreOp) else op.base
    if isinstance(op, vector.LoadOp | affine.VectorLoadOp):
        return base, op.result
    return base, op.value if isinstance(op, affine.VectorStoreOp) else op.vector


@dataclass
class LowerVectorAccess(RewritePattern):
    """A 1-D vector access stays one where its lanes are provably consecutive in the
    innermost physical dim, and is split into scalar accesses otherwise."""

    state: AccessLowering

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VectorAccessOp, rewriter: PatternRewriter) -> None:
        base, vector_value = vector_operands(op)
        layout = memref_layout(base)
        if layout is None:
            return
        is_affine = isinstance(op, affine.VectorLoadOp | affine.VectorStoreOp)
        is_load = isinstance(op, vector.LoadOp | affine.VectorLoadOp)
        stored = None if is_load else vector_value
        vector_type = vector_value.type
        assert isinstance(vector_type, VectorType)
        leaves = IndexLeaves()
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
        if layout.packing is None and layout.runs_contiguously(start, ranges, length, flat):
            new = self._whole(op, is_affine, base, stored, vector_type, layout, logical, leaves)
            rewriter.replace(op, new)
            return
        self._split(op, base, stored, vector_type, layout, logical, leaves, rewriter)

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
        if is_affine and self.state.mode == "affine":
            access_map = affine_access_map(layout, self.state.flatten, logical, leaves)
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
        base: SSAValue,
        stored: SSAValue | None,
        vector_type: VectorType,
        layout: Layout,
        logical: Sequence[AffineExpr],
        leaves: IndexLeaves,
        rewriter: PatternRewriter,
    ) -> None:
        """One scalar access per lane, assembled with `vector.from_elements` or taken apart
        with `vector.extract`."""
        access = self.state.access(op, base, layout)
        insert = inserter_before(op)
        elements: list[SSAValue] = []
        for lane in range(vector_type.get_shape()[0]):
            shifted = [*logical[:-1], logical[-1] + lane]
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
