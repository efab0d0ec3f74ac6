"""Reduction loops kept rolled: an `scf.for` that asks LLVM not to unroll it.

Where the register tile's copies read overlapping broadcast elements along the innermost
reduction loop (a convolution's input column `ow + kw` is column `ow + 1 + kw - 1` of the
next copy), LLVM unrolls a short loop whole and merges the loads its steps share. On
AVX-512 (`EMBEDDED_BROADCASTS`) that loop stays rolled, and in the exact mode with 16 vector
registers (`keeps_overlaps_rolled`):

- with one vector per copy (the exact mode's tile, `register_tiling.one_vector_tiles`) a
  merged load has several users, no longer folds into a multiply's memory operand
  (`{1to16}`), and costs a `vbroadcastss` on the FP pipes: on Zen 4 the exact conv ran at
  0.74–0.77 of oneDNN that way, 0.96 with the loop rolled;
- with two, the merged broadcasts stay live across the unrolled loop: the ResNet stem's
  7×7 stride-2 convolution spilled (31 stack accesses in its hot loop, 126 FMAs) and ran
  at 1.06× onnxruntime, 0.98× with `kw` rolled (18 FMAs, no stack access); the 3×3 conv of
  benchmarks/schedule.py runs alike either way (benchmarks/RESULTS.md);
- on AVX2 (16 registers), the exact conv's 16 × 5 tile keeps 10 accumulators, which leave
  6 registers for the 3 unrolled steps' 6 weight vectors, products and the 7 broadcasts
  they share: LLVM reorders the steps around them, and the hot loop, alone in L1, ran at
  0.92–0.93 of the FP pipes' peak, 0.94–0.95 rolled (5 broadcasts per step, reloaded).
  With the reduction blocks around the tile (`reduction_blocks`) the conv went from
  0.90–0.91 to 0.92–0.94 of oneDNN. Fused multiply-adds (32 × 3) ran alike either way
  and stay unrolled.

The hint is upstream's: `convert-scf-to-cf` carries an `scf.for`'s `loop_annotation` to
the back edge and LLVM IR gets `llvm.loop.unroll.disable`. `lower-affine` drops the
attributes of an `affine.for`, so the loop is an `scf.for`, and the affine accesses inside
it, whose counter is no valid affine dim, become `memref` and `vector` accesses
(`as_memref_access`).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import affine, scf
from xdsl.ir import Operation, Region, SSAValue
from xdsl.rewriter import Rewriter

from heterolayout.dialects.roles import MAP_ACCESSES, PREFETCHES
from heterolayout.dialects.upstream.llvm import LOOP_ANNOTATION, rolled
from heterolayout.passes.index.memref_accesses import as_memref_access
from heterolayout.passes.schedule.plan import Plan
from heterolayout.passes.schedule.register_tiling import broadcast_reads


def keeps_overlaps_rolled(embedded: bool, fused: bool, registers: int) -> bool:
    """Whether the innermost reduction loop along which the copies' broadcast reads overlap
    stays rolled: on a target with embedded broadcasts, and in the exact mode on one with
    16 vector registers or fewer (the module docstring)."""
    return embedded or (not fused and registers <= 16)


def overlapping_reads(plan: Plan, loop: int) -> bool:
    """Whether the tile's copies read overlapping broadcast elements along `loop`: an index
    of a broadcast read that both `loop` and an unrolled loop move."""
    unrolled = {d.loop for d in plan.tile if d.kind == "unroll"}
    return any(
        loop in e.used_dims() and e.used_dims() & unrolled
        for access in broadcast_reads(plan)
        for e in access.exprs
    )


def rollable(loop: affine.ForOp) -> bool:
    """Constant bounds, and no affine op in the body but the accesses `as_memref_access`
    rewrites (`roles.MAP_ACCESSES`, prefetches aside) and `affine.apply` (which takes any
    index): another one (an `affine.if` of the program's own, say) would need the counter
    as an affine dim, so such a loop stays as it is."""
    return (
        not loop.lowerBoundMap.data.num_dims
        and not loop.upperBoundMap.data.num_dims
        and all(
            _rewritten(op) or isinstance(op, affine.ApplyOp) or not op.name.startswith("affine.")
            for op in loop.body.walk()
            if op is not loop.body.block.last_op
        )
    )


def _rewritten(op: Operation) -> bool:
    return op.name in MAP_ACCESSES and op.name not in PREFETCHES


def roll(loop: affine.ForOp, constant: Callable[[int], SSAValue]) -> scf.ForOp:
    """`loop` (`rollable`) as an `scf.for` that LLVM keeps rolled; `constant` gives index
    constants defined before it."""
    body = loop.body.detach_block(0)
    for op in list(body.walk()):
        _replace_access(op)
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


def _replace_access(op: Operation) -> None:
    if _rewritten(op):
        as_memref_access(op, list(op.indices))  # type: ignore[attr-defined]
