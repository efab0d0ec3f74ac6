"""Register tiling: unroll-and-jam parallel loops so that independent accumulators stay in
registers across the reduction loops.

The tile takes `u` vectors along the vector loop and `w` steps of one more parallel loop,
chosen so that copies share operands: the loop some read depends on and another does not
(a convolution's output column: the weights are the same for every column, the input pixel
is the same for every output channel). The pass's own tile takes the fewest operand loads
per multiply-add (`1/u + 1/w`) whose registers fit (`tile_counts`). The load and store of
each accumulator move out of the reduction loops, which carry the values instead; a store of
its initial value just before them is forwarded and dropped.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from heterolayout.dialects.roots import storage_root
from heterolayout.passes.schedule.nest import Access, NotScheduled
from heterolayout.passes.schedule.plan import INNER_RANK, Digit, Plan
from heterolayout.passes.schedule.statements import Instance
from heterolayout.passes.schedule.vectorization import buffer_layout, contiguous_run, element_bits


def register_tile(
    plan: Plan,
    parallel: set[int],
    width: int,
    registers: int,
    sizes: dict[int, int] | None,
    remark: Callable[[str], None],
) -> None:
    """Choose the tile (or take `sizes`: loop → elements), split the digits, and find the
    accumulators."""
    if not plan.inner:
        return
    chosen = _default_sizes(plan, parallel, width, registers) if sizes is None else sizes
    split: dict[int, int] = {}
    for loop, size in sorted(chosen.items()):
        try:
            _check_size(plan, parallel, loop, size)
        except NotScheduled as refusal:
            remark(f"tile size {size} not used: {refusal.reason}")
            continue
        _split(plan, loop, size)
        split[loop] = size
    _fewest_copies_innermost(plan, split)
    _reuse_innermost(plan, parallel)
    plan.hoisted = accumulators(plan)


def _reuse_innermost(plan: Plan, parallel: set[int]) -> None:
    """The tiles of the loop whose copies share an operand go innermost among the loops
    around the tile, so consecutive tiles reuse that operand from cache (a matmul's column
    panel of B for every row tile, as GEMM libraries order their loops). The loop is
    parallel: any place is legal."""
    loop = _reuse_loop(plan, parallel)
    if loop is None:
        return
    moved = [d for d in plan.outer if d.loop == loop]
    plan.outer = [d for d in plan.outer if d.loop != loop] + moved


def vector_length(plan: Plan) -> int:
    """Elements per vector (1 without a vector loop)."""
    loop = plan.vector_loop
    if loop is None:
        return 1
    return min(d.weight for d in plan.digits_of(loop) if d.kind != "vector")


def _default_sizes(plan: Plan, parallel: set[int], width: int, registers: int) -> dict[int, int]:
    nest = plan.nest
    length = vector_length(plan)
    per_vector = max(1, math.ceil(length * element_bits(plan.lead.buffer) / width))
    other = _reuse_loop(plan, parallel)
    available = 1
    if plan.vector_loop is not None:
        available = math.ceil(nest.loops[plan.vector_loop].trips / length)
    steps = 1 if other is None else nest.loops[other].trips
    block = _block_vectors(plan, length) if plan.vector_loop is not None else 1
    moves = other is not None and _broadcasts_along(plan, other)
    if one_vector_tiles(plan.embedded_broadcasts, plan.fused, moves):
        available = block = 1
    along, across = tile_counts(available, block, steps, registers // per_vector, plan.fused)
    sizes: dict[int, int] = {}
    if plan.vector_loop is not None:
        sizes[plan.vector_loop] = along * length
    if other is not None:
        sizes[other] = across
    elif accumulators(plan) and (chained := _parallel_loop(plan, parallel)) is not None:
        sizes[chained] = _chains(
            along,
            nest.loops[chained].trips,
            registers // per_vector,
            plan.fused,
            along == available,
        )
    return sizes


def one_vector_tiles(embedded: bool, fused: bool, broadcast_moves: bool) -> bool:
    """Whether the pass's own tile takes one vector per copy: exact multiply-adds on a
    target with embedded broadcasts, when a broadcast read moves with the copies. A
    broadcast two vectors share is an instruction of its own (`vbroadcastss`), which on
    Zen 4 takes a slot on the FP pipes that the exact mode's separate adds need; one that
    only its multiply reads folds into the multiply's memory operand (`{1to16}`). On Zen 4
    the exact conv in nChw16c went from 0.81–0.83 to 0.96–0.99 of oneDNN, the 512³ matmul
    from 0.75–0.78 to 1.05–1.12 of OpenBLAS (benchmarks/RESULTS.md); on Zen 5 16 × 14 and
    32 × 9 ran the exact conv alike. Fused multiply-adds keep two vectors, which halve the
    broadcasts (conv 0.99–1.01, matmul 1.10–1.12 of the same kernels)."""
    return embedded and not fused and broadcast_moves


def _broadcasts_along(plan: Plan, loop: int) -> bool:
    """Whether a read the vector loop does not move (`broadcast_reads`) moves along `loop`,
    of elements a multiply's memory operand broadcasts (`folds_into_multiply`)."""
    return any(
        folds_into_multiply(element_bits(a.buffer)) and any(loop in e.used_dims() for e in a.exprs)
        for a in broadcast_reads(plan)
    )


def folds_into_multiply(bits: int) -> bool:
    """Whether a broadcast of `bits`-bit elements can be a multiply's memory operand: AVX-512's
    `{1toN}` takes 32- and 64-bit elements."""
    return bits in (32, 64)


def broadcast_reads(plan: Plan) -> list[Access]:
    """The reads the vector loop does not move: each element goes to every lane."""
    loop = plan.vector_loop
    return [
        access
        for access in plan.nest.accesses.values()
        if not access.write and not any(loop in e.used_dims() for e in access.exprs)
    ]


CHAINS = 8
"""Independent accumulators that keep the combining unit busy: two multiply-adds a cycle
at four cycles' latency (x86 since Haswell, Zen, Neoverse), and more than enough for the
longer latency and fewer ports of NaN-propagating `maximumf` and `minimumf`."""


def _chains(along: int, trips: int, registers: int, fused: bool, whole: bool) -> int:
    """Steps of a loop no read shares across copies: the fewest whose `along × w`
    accumulators reach `CHAINS`, as many as fit (a pooling window's reductions, each one
    dependent chain, run latency-bound with one or two)."""
    across = 1
    while (
        along * across < CHAINS
        and across < trips
        and tile_fits(along, across + 1, registers, fused, whole)
    ):
        across += 1
    return across


def tile_counts(
    available: int, block: int, steps: int, registers: int, fused: bool
) -> tuple[int, int]:
    """The pass's own tile: `u` vectors (of `available`) by `w` steps (of `steps`) of the
    reuse loop, with the fewest operand loads per multiply-add over the whole nest (a `u×w`
    tile loads `u + w` operands for `u·w` multiply-adds; the tiles at the ends are smaller)
    whose registers fit (`tile_fits`). `u` is a multiple or divisor of `block` (the read's
    whole cache lines) or all of `available`; ties go to more vectors."""
    best: tuple[tuple[float, int], int, int] | None = None
    for along in range(1, max(1, available) + 1):
        if block > 1 and along % block and block % along and along != available:
            continue
        for across in range(1, max(1, steps) + 1):
            fits = tile_fits(along, across, registers, fused, along == available)
            if not fits and (along, across) != (1, 1):
                break
            key = (_loads_per_multiply_add(available, along, steps, across), -along)
            if best is None or key < best[0]:
                best = (key, along, across)
    assert best is not None
    return best[1], best[2]


def tile_fits(along: int, across: int, registers: int, fused: bool, whole: bool = False) -> bool:
    """Whether a `u×w` tile's registers fit. With 16 registers (AVX2, SSE): `u·w`
    accumulators, the `min(u, w)` operands the copies share (the copies of the loop with
    fewer of them go innermost), and spares: one for the other operand when multiply and
    add are fused, three when they are separate (the product and the operands LLVM's
    scheduler keeps in flight); measured on the conv in nChw16c with AVX2 (benchmarks/
    RESULTS.md): fused 32×3 beats 16×4, exact 16×5 beats 16×4, and 16×6 spills. With 32
    registers (AVX-512, NEON) at most two vectors, and every operand of a step counted
    live (`u·w + u + w` and the spares), as BLIS's AVX-512 and ARMv8 kernels (32×12, 8×12):
    on the conv in nChw16c on AVX-512 (Zen 5) 32×9 runs 12–25% faster than 64×6, whose
    four weight vectors per step lie 1 KB apart in the reductions' exact order, and the
    same with them reassociated; the 512³ matmul loses 3% (benchmarks/RESULTS.md). Three
    vectors when they are `whole`, all of the vector loop: with 48 channels (Zen 5) 48×7 ran
    7% faster than 32×9 and the 16×9 tile left over; with 64, 48×7 and its 16×7 tile 6%
    slower than 32×9."""
    spare = 1 if fused else 3
    if registers >= 32:
        wide = along <= 2 or (whole and along == 3)
        return wide and along * across + along + across + spare <= registers
    return along * across + min(along, across) + spare <= registers


def _loads_per_multiply_add(available: int, along: int, steps: int, across: int) -> float:
    loads = products = 0
    for u, tiles_u in _chunks(max(1, available), along):
        for w, tiles_w in _chunks(max(1, steps), across):
            loads += tiles_u * tiles_w * (u + w)
            products += tiles_u * tiles_w * u * w
    return loads / products


def _chunks(total: int, size: int) -> list[tuple[int, int]]:
    """(chunk size, how many): the full chunks, then the rest."""
    full = [(size, total // size)] if total >= size else []
    return full + ([(total % size, 1)] if total % size else [])


def _fewest_copies_innermost(plan: Plan, split: dict[int, int]) -> None:
    """Order the unrolled digits so the loop with the most copies (`split`: loop → tile
    size) is outermost: the copies of the innermost one share their operands with every
    outer copy, so fewer stay live. A stable sort: one loop's digits keep their order."""
    length = vector_length(plan)

    def count(loop: int) -> int:
        return split.get(loop, 1) // (length if loop == plan.vector_loop else 1)

    unrolled = [d for d in plan.tile if d.kind == "unroll"]
    ordered = sorted(unrolled, key=lambda d: -count(d.loop))
    plan.tile = [*ordered, *[d for d in plan.tile if d.kind != "unroll"]]


def _block_vectors(plan: Plan, length: int) -> int:
    """Vectors that cover the longest block a read walks along the vector loop (a matmul's
    32-column panel of B: 4 vectors of 8), so every cache line of it a tile loads is used
    whole; 0 when no read is blocked along it."""
    loop = plan.vector_loop
    blocks = [0]
    for access in plan.nest.accesses.values():
        walked = [d for d, e in enumerate(access.exprs) if loop in e.used_dims()]
        if access.write or len(walked) != 1:
            continue
        layout = buffer_layout(access.buffer)
        run = contiguous_run(layout, walked[0])
        if run < (layout.logical_shape[walked[0]] or 0):
            blocks.append(math.ceil(run / length))
    return max(blocks)


def _reuse_loop(plan: Plan, parallel: set[int]) -> int | None:
    """The innermost (in memory order) parallel loop around the tile that some read depends
    on and another does not: its copies share that other read. With gathered reads, one
    whose copies share a gathered read if any does, so that each gather serves them all."""
    nest = plan.nest

    def shares_a_gather(loop: int) -> bool:
        return any(a.op in plan.gathered for a in nest.shared_along(loop))

    if plan.gathered and (loop := _parallel_loop(plan, parallel, shares_a_gather)) is not None:
        return loop
    return _parallel_loop(plan, parallel, lambda loop: bool(nest.shared_along(loop)))


def _parallel_loop(
    plan: Plan, parallel: set[int], keep: Callable[[int], bool] = lambda loop: True
) -> int | None:
    """The innermost (in memory order) parallel loop around the tile, other than the vector
    loop and of more than one step, that `keep` keeps."""
    best: tuple[int, int] | None = None
    for digit in [d for d in plan.outer if d.kind == "loop"] + [
        d for d in plan.tile if d.kind == "unroll"
    ]:
        loop = digit.loop
        if loop == plan.vector_loop or loop not in parallel or digit.rank == INNER_RANK:
            continue
        if plan.nest.loops[loop].trips < 2 or not keep(loop):
            continue
        if best is None or digit.rank > best[0]:
            best = (digit.rank, loop)
    return None if best is None else best[1]


def _check_size(plan: Plan, parallel: set[int], loop: int, size: int) -> None:
    name = plan.nest.loops[loop].name(loop)
    if loop not in parallel:
        raise NotScheduled(plan.nest.loops[loop].op, f"{name} carries a dependence")
    if not any(d.loop == loop for d in plan.outer):
        raise NotScheduled(plan.nest.loops[loop].op, f"{name} is not a loop around the tile")
    length = vector_length(plan) if loop == plan.vector_loop else 1
    if size < 1 or size % length:
        raise NotScheduled(
            plan.nest.loops[loop].op, f"{name} needs a multiple of the vector length {length}"
        )


def _split(plan: Plan, loop: int, size: int) -> None:
    """The digits of `loop` lighter than `size` become copies; a loop over tiles of `size`
    takes their place unless one already steps by `size`."""
    digits = [d for d in plan.outer if d.loop == loop]
    light = [d for d in digits if d.weight < size]
    if not light:
        return
    at = plan.outer.index(light[0])
    for digit in light:
        plan.outer.remove(digit)
    if not any(d.weight == size for d in digits):
        plan.outer.insert(at, Digit(loop, size, light[0].rank))
    copies = [d.but(kind="unroll") for d in light]
    vectors = [d for d in plan.tile if d.kind == "vector"]
    unrolled = [d for d in plan.tile if d.kind == "unroll"]
    plan.tile = [*unrolled, *copies, *vectors]


def accumulators(plan: Plan) -> list[tuple[Access, Access]]:
    """(load, store) pairs in the innermost statements on one element that no inner loop
    moves and nothing else there touches."""
    nest = plan.nest
    inner = {d.loop for d in plan.inner}
    body = [nest.accesses[op] for op in nest.body if op in nest.accesses]
    pairs = []
    for store in body:
        if not store.write or any(d in inner for e in store.exprs for d in e.used_dims()):
            continue
        root = storage_root(store.buffer)
        same = [a for a in body if storage_root(a.buffer) == root]
        loads = [a for a in same if not a.write and a.exprs == store.exprs]
        if len(same) != 2 or len(loads) != 1:
            continue
        (load,) = loads
        if nest.body.index(load.op) < nest.body.index(store.op):
            pairs.append((load, store))
    return pairs


def copies(instances: list[Instance], digit: Digit) -> list[Instance]:
    """Each instance split along an unrolled digit: its full chunks, then what is left."""
    result = []
    for instance in instances:
        offset, size = instance.offsets[digit.loop], instance.sizes[digit.loop]
        count, rest = divmod(size, digit.weight)
        for k in range(count):
            result.append(instance.but(digit.loop, offset + k * digit.weight, digit.weight))
        if rest:
            result.append(instance.but(digit.loop, offset + count * digit.weight, rest))
    return result
