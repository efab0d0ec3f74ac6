"""linalg ops on layout-typed memrefs become loops inside `layout-lower`.

Each such op (named ops, `linalg.generic`, `linalg.broadcast`, `linalg.reduce`) becomes the
loop nest upstream's `--convert-linalg-to-loops` makes: one `scf.for` per iteration dim,
outermost first, over the extents the indexing maps read; the body loads its operands and
stores its outputs at every point, so reductions run in upstream's order and give its
floats. The loads and stores are then ordinary accesses of layout-typed memrefs, which
`layout-lower` rewrites. `layout-lower` leaves linalg ops on plain memrefs alone;
`layout-schedule` lowers them all (`every=True`), to schedule them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import AffineMapAttr, MemRefType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.transforms.convert_linalg_to_loops import materialize_loop_bound
from xdsl.transforms.loop_nest_lowering_utils import (
    indices_for_map,
    rewrite_linalg_structured_to_loops,
)

from heterolayout.dialects.diagnostics import fail
from heterolayout.dialects.structured import Structured, StructureError, is_structured, structured
from heterolayout.dialects.views import reaches_layout
from heterolayout.passes.cleanup_marks import mark_for_cleanup


def lower_linalg_on_layouts(module: ModuleOp, every: bool = False) -> bool:
    """Rewrite into loops every linalg op with a layout-typed memref operand (`every`: every
    linalg op on memrefs, for `layout-schedule`, which schedules nests on plain buffers too);
    the functions that received loops are marked for `layout-cleanup`. Whether there was
    one."""
    walker = PatternRewriteWalker(LinalgOnLayoutsToLoops(every), apply_recursively=False)
    return walker.rewrite_module(module)


@dataclass(frozen=True)
class LinalgOnLayoutsToLoops(RewritePattern):
    every: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_structured(op) or op.results:
            return
        if not self.every and not any(reaches_layout(v) for v in op.operands):
            return
        mark_for_cleanup(op)
        try:
            nest = structured(op)
        except StructureError as error:
            fail(op, f"layout-lower: {error}")
        point = InsertPoint.before(op)
        block, following = op.parent_block(), op.next_op
        bounds = [
            materialize_loop_bound(
                rewriter,
                point,
                op.operands[operand],  # type: ignore[arg-type]
                dim,
                _memref(op.operands[operand]).get_shape()[dim],
            )
            for operand, dim in nest.extents
        ]
        maps = [AffineMapAttr(m) for m in nest.maps]

        rewrite_linalg_structured_to_loops(
            rewriter,
            op,
            point,
            bounds,
            maps,
            maps[nest.inputs :],
            op.operands,
            op.operands[nest.inputs :],
            nest.body,
            partial(_load, op, nest),
            partial(_store, op, nest),
        )
        if block is not None:
            _name_loops(op.name.removeprefix("linalg."), block, following)


def _name_loops(name: str, block: Block, following: Operation | None) -> None:
    """Name the counters of the loops made for a linalg op after it (`%matmul`, then `%d1`,
    `%d2`, …), so remarks and the printed IR say which op a nest came from."""
    op = following.prev_op if following is not None else block.last_op
    while op is not None and not isinstance(op, scf.ForOp):
        op = op.prev_op
    depth = 0
    while isinstance(op, scf.ForOp):
        op.body.block.args[0].name_hint = name if depth == 0 else f"d{depth}"
        inner = [o for o in op.body.block.ops if isinstance(o, scf.ForOp)]
        op = inner[0] if len(inner) == 1 else None
        depth += 1


def _load(
    op: Operation,
    nest: Structured,
    index: int,
    induction: Sequence[SSAValue],
    rewriter: PatternRewriter,
    at: InsertPoint,
) -> SSAValue:
    """Operand `index` at the point `induction` (a scalar operand is itself)."""
    value = op.operands[index]
    if not nest.memrefs[index]:
        return value
    loaded = memref.LoadOp.get(value, indices_for_map(rewriter, at, nest.maps[index], induction))
    rewriter.insert(loaded, at)
    return loaded.res


def _store(
    op: Operation,
    nest: Structured,
    output: int,
    value: SSAValue,
    induction: Sequence[SSAValue],
    rewriter: PatternRewriter,
    at: InsertPoint,
) -> Operation:
    """Output `output` at the point `induction` gets `value`."""
    index = nest.inputs + output
    stored = memref.StoreOp.get(
        value, op.operands[index], indices_for_map(rewriter, at, nest.maps[index], induction)
    )
    rewriter.insert(stored, at)
    return stored


def _memref(value: SSAValue) -> MemRefType:
    assert isinstance(value.type, MemRefType)
    return value.type
