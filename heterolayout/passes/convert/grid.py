"""Conversions as GPU kernels (`layout-lower{convert=gpu}`): a host `layout.convert` becomes
a `gpu.launch` whose threads enumerate the destination's memory order.

The destination's physical dims are given out from the innermost: to thread x, y, z while
a block holds at most 1024 threads (z at most 64), then to block x, y, z (y and z at most
65535); outer dims left over are loops inside each thread. Each thread rebuilds the logical
index from its digits, as the loop form does (`convert_loops`), so neighbouring threads of a
warp write neighbouring destination slots; the ranges of the ids (`gpu_ranges`) let the
index code fold back to the thread and block ids. Pad slots receive the pad value in the
same kernel. The lanes of a packed container stay in one thread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Operation, Region, SSAValue

from heterolayout.dialects.upstream.gpu import OPS, LaunchOp
from heterolayout.passes.convert.loop_nest import Insert, LoopNest

MAX_THREADS = 1024
MAX_THREADS_Z = 64
MAX_BLOCKS_YZ = 65535


def _terminator() -> Operation:
    terminator = next(op for op in OPS if op.name == "gpu.terminator")
    return terminator.create()


def place_dims(
    extents: Sequence[int | None], lanes: int = 0
) -> tuple[list[int], list[int], list[int]]:
    """The physical dims given to threads (x, y, z), to blocks (x, y, z), and to loops
    (outermost first), counting from the innermost dim. The `lanes` innermost dims (the
    lanes of a packed container) are loops: one thread writes all lanes of its word, as
    two threads writing parts of one word would race."""
    order = list(reversed(range(len(extents) - lanes)))
    threads: list[int] = []
    count = 1
    while order and len(threads) < 3:
        extent = extents[order[0]]
        limit = MAX_THREADS_Z if len(threads) == 2 else MAX_THREADS
        if extent is None or extent > limit or count * extent > MAX_THREADS:
            break
        threads.append(order.pop(0))
        count *= extent
    blocks: list[int] = []
    while order and len(blocks) < 3:
        extent = extents[order[0]]
        if blocks and (extent is None or extent > MAX_BLOCKS_YZ):
            break
        blocks.append(order.pop(0))
    return threads, blocks, [*reversed(order), *range(len(extents) - lanes, len(extents))]


class GridNest(LoopNest):
    """`LoopNest`'s interface with the dims on a launch grid: `build` inserts a `gpu.launch`
    and gives the body the thread and block ids (and loop variables) as the digits."""

    def __init__(self, insert: Insert, static_extents: Sequence[int | None], lanes: int) -> None:
        super().__init__(insert)
        self.static_extents = static_extents
        self.lanes = lanes

    def build(
        self,
        extents: Sequence[SSAValue],
        body: Callable[[list[SSAValue], Insert], None],
    ) -> None:
        threads, blocks, loops = place_dims(self.static_extents, self.lanes)
        one = self.index(1)
        grid = [extents[d] for d in blocks] + [one] * (3 - len(blocks))
        block_sizes = [extents[d] for d in threads] + [one] * (3 - len(threads))
        kernel = Block(arg_types=[IndexType()] * 12)
        self.insert(LaunchOp(Region(kernel), grid, block_sizes))
        digits: list[SSAValue | None] = [None] * len(extents)
        for number, dim in enumerate(blocks):
            digits[dim] = kernel.args[number]
        for number, dim in enumerate(threads):
            digits[dim] = kernel.args[3 + number]

        def inner(ivs: list[SSAValue], add: Insert) -> None:
            for dim, iv in zip(loops, ivs, strict=True):
                digits[dim] = iv
            body([d for d in digits if d is not None], add)

        LoopNest(kernel.add_op).build([extents[d] for d in loops], inner)
        kernel.add_op(_terminator())
