"""Views of layout-typed memrefs whose window is known only at run time fold into their
accesses, as upstream's `fold-memref-alias-ops` folds subviews into loads and stores.

A view with a static window has a layout of its own (the root's composed with the window,
`dialects.views.value_layout`) and lowers like any layout-typed memref. A window with
run-time offsets, strides or sizes (or a view of a root with `?` dims) is no static layout:
each access to such a view becomes the same access to the root, at the root index the window
gives (index code over the access's indices and the window's run-time values, which the
lowering then reads back as leaves and composes with the root's layout). Vector accesses
stay vector accesses when their lanes walk one root dim with unit stride, and are split into
scalar accesses otherwise; `memref.dim` gives the view's extent. `memref.copy` and
`layout.convert` from or into such a view, and into a view with a static window (whose
conversion would fill the composed layout's pad slots: the root outside the window), become
`linalg.copy` (so loops of loads and stores, `linalg_loops`); a transfer that may leave such a
view, or is masked, first becomes its guarded lanes on the view (`transfer_guards`); a copy
of a window onto the
same window (what bufferization leaves after a tiled op that wrote its tile in place) is the
identity and goes away; a prefetch becomes a `memref.prefetch` of the root. Any other user
of such a view is refused by `layout-lower`, naming it.

At each in-bounds access folded from a run-time view, upstream's rules give ranges
(`offset_facts`): a non-empty subview lies inside its source, an index lies inside its view.
The lowering's index code and the translation validator both use them (`ViewFacts`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine, arith, memref
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, ModuleOp, VectorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap, AffineSymExpr
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.arith_ops import constant_index
from heterolayout.dialects.conversion import memref_shape
from heterolayout.dialects.ops import ConvertOp
from heterolayout.dialects.roles import PREFETCHES, VIEW_OPS, roles_of
from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.dialects.views import (
    ViewWindow,
    value_layout,
    view_source,
    view_window,
)
from heterolayout.layout.simplify import IndexSimplifier, Range, simplify_expr
from heterolayout.passes.index.index_code import IndexEmitter, IndexLeaves


def runtime_view(value: SSAValue) -> ViewWindow | None:
    """The window of `value` when it is a view of a layout-typed memref with no static
    layout (a run-time window, or a root with `?` dims)."""
    view = view_window(value)
    if view is None or value_layout(value) is not None:
        return None
    return view


def copies_through_runtime_views(copies: Sequence[memref.CopyOp | ConvertOp]) -> bool:
    """Those of `copies` (`memref.copy`s and `layout.convert`s) from a run-time view, or
    into any view, of a layout-typed memref become `linalg.copy`, which `layout-lower` makes
    loops (a conversion's pad fill would write the root outside a view's window); a copy of
    a window onto itself is erased. Whether any was rewritten."""
    rewritten = False
    for op in copies:
        source, target = (view_window(v) for v in op.operands)
        if source is not None and source == target:
            Rewriter.erase_op(op)
        elif target is not None or runtime_view(op.operands[0]) is not None:
            from xdsl.dialects.linalg.ops import CopyOp  # costs start-up time: only when used

            Rewriter.replace_op(op, CopyOp([op.operands[0]], [op.operands[1]], res=()))
        else:
            continue
        rewritten = True
    return rewritten


ViewFacts = dict[Operation, dict[SSAValue, Range]]
"""For each root access a folded access became: the ranges its window's offsets lie in."""


def fold_runtime_views(module: ModuleOp) -> ViewFacts:
    """Fold every access through a run-time view into an access of its root; erase the
    views left unused. Returns what the folded accesses know of their offsets
    (`offset_facts`), for the lowering and the translation validator."""
    from heterolayout.passes.transfers import expand_lanes, needs_guards

    for op in [o for o in module.walk() if needs_guards(o)]:
        if runtime_view(op.operands[0 if op.results else 1]) is not None:
            expand_lanes(op)  # type: ignore[arg-type]  # guarded against the view's extent
    folding = FoldRuntimeView()
    PatternRewriteWalker(folding, apply_recursively=False).rewrite_module(module)
    views = [op for op in module.walk() if op.name in (*VIEW_OPS, "memref.cast")]
    for op in reversed(views):
        if not any(r.uses for r in op.results) and runtime_view(op.results[0]) is not None:
            Rewriter.erase_op(op)
    return folding.facts


def offset_facts(view: ViewWindow) -> dict[SSAValue, Range]:
    """The range of each run-time offset that is, alone, the root index of the view's first
    element along a root dim: upstream requires a non-empty subview to lie inside its
    source, so that index is in [0, D - 1 - (how far the view reaches past it)]. True at
    every access through the view that is in bounds (which makes the view non-empty)."""
    facts: dict[SSAValue, Range] = {}
    view_dims = [AffineExpr.constant(0)] * len(view.window.shape)
    reach = IndexSimplifier(
        {d: (0, e - 1) for d, e in enumerate(view.window.shape) if e is not None}
    )
    symbols = [AffineExpr.symbol(s) for s in range(len(view.symbols))]
    for result, extent in zip(
        view.window.index_map.results, view.layout.logical_shape, strict=True
    ):
        first = simplify_expr(result.replace_dims_and_symbols(view_dims, symbols))
        if not isinstance(first, AffineSymExpr):
            continue
        high = _below(extent)[1]
        beyond = reach.range_of(result + first * -1)
        if beyond is not None and extent is not None:
            high -= max(beyond[1], 0)
        _narrow(facts, view.symbols[first.position], (0, high))
    return facts


def _below(extent: int | None) -> Range:
    """The indices into a dim of `extent` (`?`: at least not negative)."""
    return (0, 2**62 if extent is None else extent - 1)


def _narrow(facts: dict[SSAValue, Range], value: SSAValue, bounds: Range) -> None:
    low, high = facts.get(value, bounds)
    facts[value] = (max(low, bounds[0]), min(high, bounds[1]))


class _Access:
    """Emits root indices for view indices of one access, before it."""

    def __init__(self, op: Operation, view: ViewWindow) -> None:
        self.op = op
        self.view = view
        self.leaves = IndexLeaves()
        self.symbols = [self.leaves.leaf(s) for s in view.symbols]

    def insert(self, new: Operation) -> None:
        Rewriter.insert_op(new, InsertPoint.before(self.op))

    def root_exprs(self, index: Sequence[AffineExpr]) -> list[AffineExpr]:
        return [
            r.replace_dims_and_symbols(list(index), self.symbols)
            for r in self.view.window.index_map.results
        ]

    def root_indices(self, index: Sequence[AffineExpr]) -> list[SSAValue]:
        emitter = IndexEmitter(self.leaves, self.insert, "affine")  # read back by recover()
        return emitter.emit_all(self.root_exprs(index))

    def lane_dim(self, index: Sequence[AffineExpr], dim: int) -> int | None:
        """The root dim that the lanes along view dim `dim` walk with unit stride (the
        others staying put), or None."""
        lane = AffineExpr.dimension(len(self.leaves.values))
        shifted = list(index)
        shifted[dim] = shifted[dim] + lane
        simplifier = IndexSimplifier(self.leaves.ranges)
        walked = None
        for root_dim, (before, after) in enumerate(
            zip(self.root_exprs(index), self.root_exprs(shifted), strict=True)
        ):
            difference = simplifier.simplify(after + before * -1)
            if difference == lane and walked is None:
                walked = root_dim
            elif difference != AffineExpr.constant(0):
                return None
        return walked


class FoldRuntimeView(RewritePattern):
    """An access through a run-time view becomes an access of the view's root; `facts`
    records the offsets' ranges for each root access made from an in-bounds one."""

    def __init__(self) -> None:
        self.facts: ViewFacts = {}

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if isinstance(op, memref.DimOp | memref.RankOp):
            _fold_shape_query(op, rewriter)
            return
        position = _memref_position(op)
        if position is None:
            return
        view = runtime_view(op.operands[position])
        if view is None:
            return
        access = _Access(op, view)
        index = _view_index(op, access.leaves)
        block, before, after = op.parent_block(), op.prev_op, op.next_op
        if isinstance(op, memref.LoadOp | affine.LoadOp):
            rewriter.replace(op, memref.LoadOp.get(view.root, access.root_indices(index)))
        elif isinstance(op, memref.StoreOp | affine.StoreOp):
            rewriter.replace(
                op, memref.StoreOp.get(op.value, view.root, access.root_indices(index))
            )
        elif op.name in PREFETCHES:
            from heterolayout.dialects.upstream.memref import PREFETCH_HINTS, PrefetchOp

            hints = {name: op.properties[name] for name in PREFETCH_HINTS}
            root_indices = access.root_indices(index)
            rewriter.replace(
                op, PrefetchOp.build(operands=[view.root, root_indices], properties=hints)
            )
        else:
            _fold_vector(op, access, index, rewriter)
        if _in_bounds(op):
            facts = offset_facts(view)
            for expr, extent in zip(index, view.window.shape, strict=True):
                if isinstance(expr, AffineDimExpr):  # an index used as it is into the view
                    _narrow(facts, access.leaves.values[expr.position], _below(extent))
            for new in _between(block, before, after, view.root) if block else ():
                self.facts[new] = facts


def _in_bounds(op: Operation) -> bool:
    """Whether the access is undefined unless its index lies inside the view (a transfer
    with out-of-bounds lanes is not)."""
    from xdsl.dialects import vector

    if isinstance(op, vector.TransferReadOp | vector.TransferWriteOp):
        return all(bool(flag.value.data) for flag in op.in_bounds.data)
    return True


def _between(
    block: Block, before: Operation | None, after: Operation | None, root: SSAValue
) -> list[Operation]:
    """The accesses of `root` that a rewrite put in `block` between `before` and `after`."""
    first = before.next_op if before is not None else block.first_op
    found: list[Operation] = []
    while first is not None and first is not after:
        if root in first.operands and _memref_position(first) is not None:
            found.append(first)
        first = first.next_op
    return found


def _memref_position(op: Operation) -> int | None:
    """The memref operand of a load or store (the op-role table's access)."""
    roles = roles_of(op)
    if roles is None or not roles.accesses:
        return None
    return (*roles.reads, *roles.writes)[0]


def _view_index(op: Operation, leaves: IndexLeaves) -> list[AffineExpr]:
    """The access's view index over `leaves`."""
    if isinstance(op, affine.LoadOp | affine.StoreOp | affine.VectorLoadOp | affine.VectorStoreOp):
        return leaves.map_results(op.map.data, list(op.indices))
    if op.name == "affine.prefetch":
        return leaves.map_results(op.properties["map"].data, list(op.operands[1:]))  # type: ignore[attr-defined]
    return [leaves.leaf(i) for i in op.indices]  # type: ignore[attr-defined]


def _fold_vector(
    op: Operation, access: _Access, index: list[AffineExpr], rewriter: PatternRewriter
) -> None:
    """A vector access along one view dim: one access of the root where that dim walks a
    root dim with unit stride (its innermost for loads and stores), else one per lane."""
    from xdsl.dialects import vector

    is_transfer = isinstance(op, vector.TransferReadOp | vector.TransferWriteOp)
    is_load = isinstance(op, vector.LoadOp | affine.VectorLoadOp | vector.TransferReadOp)
    vector_value = op.results[0] if is_load else op.operands[0]
    vector_type = vector_value.type
    assert isinstance(vector_type, VectorType)
    dim = len(index) - 1
    if is_transfer:
        (result,) = op.permutation_map.data.results  # type: ignore[attr-defined]  # checked 1-D
        dim = result.position
    walked = access.lane_dim(index, dim)
    root = access.view.root
    rank = len(access.view.window.index_map.results)
    if walked is not None and (is_transfer or walked == rank - 1):
        indices = access.root_indices(index)
        if is_transfer:
            new = _transfer(op, root, indices, AffineMap(rank, 0, (AffineExpr.dimension(walked),)))
        elif is_load:
            new = vector.LoadOp(root, indices, vector_type)
        else:
            new = vector.StoreOp(vector_value, root, indices)
        rewriter.replace(op, new)
        return
    _per_lane(op, access, index, dim, vector_value, is_load, rewriter)


def _transfer(op: Operation, root: SSAValue, indices: list[SSAValue], walk: AffineMap) -> Operation:
    """The transfer `op` on `root` at `indices`, its lanes walking `walk`."""
    from xdsl.dialects import vector

    permutation = AffineMapAttr(walk)
    if isinstance(op, vector.TransferReadOp):
        return vector.TransferReadOp(
            root, indices, op.padding, op.result.type, op.in_bounds, permutation, op.mask
        )
    assert isinstance(op, vector.TransferWriteOp)
    return vector.TransferWriteOp(op.vector, root, indices, op.in_bounds, op.mask, permutation)


def _per_lane(
    op: Operation,
    access: _Access,
    index: list[AffineExpr],
    dim: int,
    vector_value: SSAValue,
    is_load: bool,
    rewriter: PatternRewriter,
) -> None:
    """One scalar access of the root per lane."""
    from xdsl.dialects import vector

    vector_type = vector_value.type
    assert isinstance(vector_type, VectorType)
    root = access.view.root
    elements: list[SSAValue] = []
    for lane in range(vector_type.get_shape()[0]):
        shifted = list(index)
        shifted[dim] = index[dim] + lane
        indices = access.root_indices(shifted)
        if is_load:
            load = memref.LoadOp.get(root, indices)
            access.insert(load)
            elements.append(load.res)
            continue
        extract = vector.ExtractOp(vector_value, [lane], vector_type.element_type)
        access.insert(extract)
        access.insert(memref.StoreOp.get(extract.result, root, indices))
    if is_load:
        rewriter.replace(op, FromElementsOp(elements, vector_type))
    else:
        rewriter.erase(op)


def _fold_shape_query(op: memref.DimOp | memref.RankOp, rewriter: PatternRewriter) -> None:
    """`memref.dim` of a run-time view: its static extent, or the run-time size the view
    op took; `memref.rank`: its rank."""
    view = runtime_view(op.source)
    if view is None:
        return
    shape = view.window.shape
    if isinstance(op, memref.RankOp):
        rewriter.replace(op, arith.ConstantOp(IntegerAttr(len(shape), IndexType())))
        return
    position = constant_index(op.index)
    if position is None or not 0 <= position < len(shape):
        return  # refused by name in check_lowerable
    size = _size(op.source, position, InsertPoint.before(op))
    if isinstance(size, int):
        rewriter.replace(op, arith.ConstantOp(IntegerAttr(size, IndexType())))
    elif size is not None:
        rewriter.replace(op, [], [size])


def _size(value: SSAValue, position: int, at: InsertPoint) -> SSAValue | int | None:
    """The extent of dim `position` of the view (or root) `value`: static, the run-time
    size its view op took, or computed at `at` from its source's (a collapsed dim is the
    product of its group's, a transposed dim its source dim's; a root's is `memref.dim`)."""
    extent = memref_shape(value.type)[position]  # type: ignore[arg-type]
    if extent is not None:
        return extent
    found = view_source(value)
    if found is None:
        index = arith.ConstantOp(IntegerAttr(position, IndexType()))
        dim = memref.DimOp(value, index)
        Rewriter.insert_op([index, dim], at)
        return dim.result
    view = view_window(value)
    if view is not None and view.window.shape[position] is not None:
        return view.window.shape[position]
    if view is not None and view.sizes[position] is not None:
        return view.sizes[position]
    op, source = found
    if op.name == "memref.transpose":
        order = [r.position for r in op.properties["permutation"].data.results]  # type: ignore[attr-defined]
        return _size(source, order[position], at)
    if op.name != "memref.collapse_shape":
        return None
    product: SSAValue | int = 1
    for dim in op.reassociation.data[position].data:  # type: ignore[attr-defined]
        factor = _size(source, dim.value.data, at)
        if factor is None:
            return None
        if isinstance(product, int) and isinstance(factor, int):
            product *= factor
            continue
        if product == 1:
            product = factor
            continue
        lhs, rhs = (v if isinstance(v, SSAValue) else _constant(v, at) for v in (product, factor))
        multiply = arith.MuliOp(lhs, rhs)
        Rewriter.insert_op(multiply, at)
        product = multiply.result
    return product


def _constant(value: int, at: InsertPoint) -> SSAValue:
    constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
    Rewriter.insert_op(constant, at)
    return constant.result
