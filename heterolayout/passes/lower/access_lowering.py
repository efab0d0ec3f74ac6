"""What the patterns of one access-lowering run (`accesses`, `vectors`, `transfer_guards`)
share: the options, the index values emitted so far, the ops a rewrite may have left unused,
and how an access to a layout-typed memref reaches its physical buffer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import AffineMapAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.views import value_layout
from heterolayout.layout.model import Layout
from heterolayout.layout.simplify import Range
from heterolayout.passes.convert.loop_nest import Insert
from heterolayout.passes.index.index_code import IndexLeaves, IndexMode, IndexValues
from heterolayout.passes.packed.element_access import ElementAccess


def memref_layout(value: SSAValue) -> Layout | None:
    """The layout the lowering gives a memref value (None for plain memrefs, upstream views
    and other values)."""
    return value_layout(value)


@dataclass
class AccessLowering:
    """What the access patterns of one run share: the options, the index values emitted so
    far (reused by later accesses), and the ops a rewrite may have left unused."""

    mode: IndexMode
    flatten: bool
    gpu_converts: bool = False
    """`layout.convert`s in host code become `gpu.launch`es (`convert=gpu`)."""
    index_values: IndexValues = field(default_factory=IndexValues)
    maybe_dead: list[Operation] = field(default_factory=list)
    words: list[Operation] = field(default_factory=list)
    """Functions with whole-container accesses: their bitwise lanes become word ops."""
    facts: Mapping[Operation, Mapping[SSAValue, Range]] = field(default_factory=dict)
    """What accesses folded from run-time views know of their offsets (`view_folding`)."""

    def leaves(self, op: Operation) -> IndexLeaves:
        """The index leaves of the access `op`, with what is known of them there."""
        return IndexLeaves(self.facts.get(op))

    def access(
        self, op: Operation, buffer: SSAValue, layout: Layout, shared: bool = True
    ) -> ElementAccess:
        """Element access to `buffer` at `op`; `shared` reuses the index values in scope
        (loop nests keep their own). Only layout-typed buffers are flattened."""
        element = buffer.type.element_type  # type: ignore[attr-defined]
        scope = self.index_values.scope(op) if shared else None
        flat = self.flatten and memref_layout(buffer) is not None
        return ElementAccess(buffer, layout, flat, self.mode, element, scope)

    def replaced(self, op: Operation) -> None:
        """`op` is about to go: its operands' definitions may die with it."""
        self.maybe_dead.extend(o.owner for o in op.operands if isinstance(o.owner, Operation))


def inserter_before(op: Operation) -> Insert:
    return lambda new: Rewriter.insert_op(new, InsertPoint.before(op))


def affine_access_map(
    layout: Layout, flat: bool, logical: Sequence[AffineExpr], leaves: IndexLeaves
) -> AffineMapAttr:
    """The affine access map of the physical index, over the leaves (affine index code)."""
    simplifier = leaves.simplifier()
    exprs = [r.replace_dims_and_symbols(list(logical), []) for r in layout.storage_exprs(flat)]
    return AffineMapAttr(
        AffineMap(len(leaves.values), 0, tuple(simplifier.simplify(e) for e in exprs))
    )
