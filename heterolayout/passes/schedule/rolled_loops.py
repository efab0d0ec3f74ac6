"""Reduction loops kept rolled: an `scf.for` that asks LLVM not to unroll it.

With one vector per copy of the register tile, each copy's broadcast read has one
multiply per step, and on a target with embedded broadcasts (AVX-512's `{1to16}`) it folds
into that multiply's memory operand instead of taking a shuffle slot of its own. Where the
copies' reads overlap along the innermost reduction loop (a convolution's input column
`ow + kw` is column `ow + 1 + kw - 1` of the next copy), LLVM would unroll the short loop
whole and merge the loads the steps share; a merged load has several users, no longer
folds, and costs a `vbroadcastss` on the FP pipes (on Zen 4 the exact conv ran at 0.74–0.77
of oneDNN that way, 0.96 with the loop rolled: benchmarks/RESULTS.md).

The hint is upstream's: `convert-scf-to-cf` carries an `scf.for`'s `loop_annotation` to
the back edge and LLVM IR gets `llvm.loop.unroll.disable`. `lower-affine` drops the
attributes of an `affine.for`, so the loop is an `scf.for`, and the affine accesses inside
it, whose indices it no longer makes valid affine dims, become `memref` and `vector`
accesses at `affine.apply` indices.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import affine, memref, scf, vector
from xdsl.ir import Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.upstream.llvm import LOOP_ANNOTATION, rolled
from heterolayout.passes.schedule.plan import Plan
from heterolayout.passes.schedule.register_tiling import broadcast_reads
from heterolayout.passes.schedule.statements import index_value


def overlapping_reads(plan: Plan, loop: int) -> bool:
    """Whether the tile's copies read overlapping broadcast elements along `loop`: an index
    of a broadcast read that both `loop` and an unrolled loop move."""
    unrolled = {d.loop for d in plan.tile if d.kind == "unroll"}
    return any(
        loop in e.used_dims() and e.used_dims() & unrolled
        for access in broadcast_reads(plan)
        for e in access.exprs
    )


ROLLABLE = (
    affine.LoadOp,
    affine.StoreOp,
    affine.VectorLoadOp,
    affine.VectorStoreOp,
    affine.ApplyOp,
)
"""The affine ops an `scf.for` body may hold after `roll` (the accesses become memref and
vector ones; `affine.apply` takes any index)."""


def rollable(loop: affine.ForOp) -> bool:
    """Constant bounds, and no affine op in the body that would need its counter as an
    affine dim (an `affine.if` of the program's own, say): such a loop stays as it is."""
    return (
        not loop.lowerBoundMap.data.num_dims
        and not loop.upperBoundMap.data.num_dims
        and all(
            isinstance(op, ROLLABLE) or not op.name.startswith("affine.")
            for op in loop.body.walk()
            if op is not loop.body.block.last_op
        )
    )


def roll(loop: affine.ForOp, constant: Callable[[int], SSAValue]) -> scf.ForOp:
    """`loop` (`rollable`) as an `scf.for` that LLVM keeps rolled; `constant` gives index
    constants defined before it."""
    body = loop.body.detach_block(0)
    for op in list(body.walk()):
        _replace_access(op, constant)
    terminator = body.last_op
    assert isinstance(terminator, affine.YieldOp)
    Rewriter.replace_op(terminator, scf.YieldOp(*terminator.operands))
    rolled_loop = scf.ForOp(
        constant(loop.lowerBoundMap.data.eval([], [])[0]),
        constant(loop.upperBoundMap.data.eval([], [])[0]),
        constant(loop.step.value.data),
        list(loop.inits),
        Region(body),
    )
    rolled_loop.attributes[LOOP_ANNOTATION] = rolled()
    return rolled_loop


def _replace_access(op: Operation, constant: Callable[[int], SSAValue]) -> None:
    if not isinstance(
        op, affine.LoadOp | affine.StoreOp | affine.VectorLoadOp | affine.VectorStoreOp
    ):
        return
    access = op.map.data
    assert not access.num_symbols, "the nest's symbols are dims of its maps"

    def add(index_op: Operation) -> None:
        Rewriter.insert_op(index_op, InsertPoint.before(op))

    indices = [index_value(r, op.indices, constant, add) for r in access.results]
    replacement: Operation
    if isinstance(op, affine.LoadOp):
        replacement = memref.LoadOp.get(op.memref, indices)
    elif isinstance(op, affine.StoreOp):
        replacement = memref.StoreOp.get(op.value, op.memref, indices)
    elif isinstance(op, affine.VectorLoadOp):
        replacement = vector.LoadOp(op.memref, indices, op.result.type)
    else:
        replacement = vector.StoreOp(op.value, op.memref, indices)
    Rewriter.replace_op(op, replacement)
