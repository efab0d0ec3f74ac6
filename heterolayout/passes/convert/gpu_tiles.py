"""A conversion whose source and destination are contiguous along different logical dims,
as a GPU kernel with a shared-memory tile transpose (`layout-lower{convert=gpu}`).

Threads that follow the destination's memory order read the source with a large stride when
the source is contiguous along another logical dim (nChw16c → NCHW: the source walks
channels, the destination columns). Here each block moves a 32×32 tile of the two dims: its
32×8 threads read the tile with thread x along the source's contiguous dim into workgroup
memory (rows padded to 33 against bank conflicts), wait at a barrier, and write it with
thread x along the destination's contiguous dim, pad slots included. Grid x covers the
destination's dim (its padded extent), grid y the source's, grid z every other logical dim
(their index rebuilt from the block id). The kernel is a `gpu.func` in a `gpu.module` of its
own, launched where the conversion was; the Layout model says which dims are contiguous.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, gpu, memref, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.upstream.gpu import OPS, AddressSpace, AddressSpaceAttr, FuncOp
from heterolayout.dialects.upstream.gpu import LaunchFuncOp as Launch
from heterolayout.dialects.upstream.gpu import ModuleOp as GpuModule
from heterolayout.dialects.upstream.gpu import ReturnOp as GpuReturn
from heterolayout.layout.model import Layout
from heterolayout.passes.cleanup_marks import CLEANUP_MARK
from heterolayout.passes.convert.loop_nest import Insert
from heterolayout.passes.index.index_code import IndexEmitter, IndexLeaves
from heterolayout.passes.packed.element_access import ElementAccess, scalar_constant

TILE = 32
ROWS = 8
MAX_BLOCKS_Z = 65535


@dataclass(frozen=True)
class TilePlan:
    write_dim: int
    """The logical dim the destination is contiguous along (thread x when writing)."""
    read_dim: int
    """The logical dim the source is contiguous along (thread x when reading)."""
    write_extent: int
    """The destination's extent along `write_dim`, pad slots included."""
    rest: tuple[int, ...]
    grid: tuple[int, int, int]


def tile_plan(source: Layout, destination: Layout) -> TilePlan | None:
    """How to tile a conversion, or None where thread-per-slot order is as good or the tile
    cannot be formed (packed or dynamic layouts, pad slots off the destination's dim)."""
    if source.packing or destination.packing or source.is_dynamic or destination.is_dynamic:
        return None
    write, read = destination.contiguous_dim(), source.contiguous_dim()
    digits = None if write is None else destination.dim_digits(write)
    if write is None or read is None or write == read or digits is None:
        return None
    if not set(destination.inverse().pad_dims()) <= {write}:
        return None
    extents = destination.static_physical_shape
    write_extent = sum((extents[p] - 1) * weight for p, weight in digits) + 1
    shape = destination.static_logical_shape
    rest = tuple(d for d in range(len(shape)) if d not in (write, read))
    blocks_z = math.prod(shape[d] for d in rest)
    if blocks_z > MAX_BLOCKS_Z:
        return None
    grid = (-(-write_extent // TILE), -(-shape[read] // TILE), blocks_z)
    return TilePlan(write, read, write_extent, rest, grid)


def _op(name: str) -> type[Operation]:
    return next(op for op in OPS if op.name == name)


def _id(name: str, dimension: str, add: Insert) -> SSAValue:
    op = _op(name)(gpu.DimensionAttr(gpu.DimensionEnum(dimension)))  # type: ignore[call-arg,arg-type]
    add(op)
    return op.results[0]


def tiled_convert(
    source: ElementAccess, destination: ElementAccess, plan: TilePlan, at: Operation
) -> None:
    """Replace nothing: insert the kernel's gpu.module and its launch before `at`."""
    module = at.get_toplevel_object()
    assert isinstance(module, ModuleOp)
    module.attributes["gpu.container_module"] = UnitAttr()
    names = {op.sym_name.data for op in module.walk() if isinstance(op, gpu.ModuleOp)}
    name = next(
        f"layout_convert_{n}" for n in range(len(names) + 1) if f"layout_convert_{n}" not in names
    )
    element = destination.element
    tile = MemRefType(
        element, [TILE, TILE + 1], memory_space=AddressSpaceAttr(AddressSpace.WORKGROUP)
    )
    types = [source.buffer.type, destination.buffer.type]
    body = Block(arg_types=[*types, tile])
    kernel = FuncOp.build(
        properties={"function_type": FunctionType.from_lists(types, [])},
        attributes={
            "sym_name": StringAttr(name),
            "gpu.kernel": UnitAttr(),
            "workgroup_attributions": IntegerAttr(1, i64),
            "gpu.known_block_size": DenseArrayBase.from_list(i32, [TILE, ROWS, 1]),
            "gpu.known_grid_size": DenseArrayBase.from_list(i32, list(plan.grid)),
            CLEANUP_MARK: UnitAttr(),
        },
        regions=[Region(body)],
    )
    gpu_module = GpuModule(StringAttr(name), Region(Block([kernel])))  # type: ignore[arg-type]
    Rewriter.insert_op(gpu_module, InsertPoint.at_end(module.body.block))
    _kernel_body(body, source, destination, plan)
    sizes = []
    for value in (*plan.grid, TILE, ROWS, 1):
        constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
        Rewriter.insert_op(constant, InsertPoint.before(at))
        sizes.append(constant.result)
    launch = Launch.build(
        operands=[[], *sizes, [], [], [], [], [source.buffer, destination.buffer], []],
        result_types=[[]],
        properties={"kernel": SymbolRefAttr(name, [name])},
    )
    Rewriter.insert_op(launch, InsertPoint.before(at))


def _kernel_body(
    body: Block, source: ElementAccess, destination: ElementAccess, plan: TilePlan
) -> None:
    kernel = _TileKernel(body, source, destination, plan)
    kernel.rows(kernel.read_row)
    body.add_op(_op("gpu.barrier").create())
    kernel.rows(kernel.write_row)
    body.add_op(GpuReturn.create())


class _TileKernel:
    """The body of a tile-transpose kernel: ids, index expressions, the two row loops."""

    def __init__(
        self, body: Block, source: ElementAccess, destination: ElementAccess, plan: TilePlan
    ) -> None:
        self.add = body.add_op
        self.plan = plan
        self.src = ElementAccess(
            body.args[0], source.layout, source.flat, source.mode, source.element
        )
        self.dst = ElementAccess(
            body.args[1],
            destination.layout,
            destination.flat,
            destination.mode,
            destination.element,
        )
        self.tile = body.args[2]
        ids = [_id("gpu.block_id", d, self.add) for d in "xyz"]
        ids += [_id("gpu.thread_id", d, self.add) for d in "xy"]
        self.leaves = IndexLeaves()
        self.bx, self.by, bz, self.tx, self.ty = (self.leaves.leaf(v) for v in ids)
        self.shape = destination.layout.static_logical_shape
        self.rest: dict[int, AffineExpr] = {}
        stride = 1
        for dim in reversed(plan.rest):  # the other dims, from block z
            self.rest[dim] = (
                (bz // stride) % self.shape[dim] if stride > 1 else bz % self.shape[dim]
            )
            stride *= self.shape[dim]

    def logical(self, write: AffineExpr, read: AffineExpr) -> list[AffineExpr]:
        index = dict(self.rest)
        index[self.plan.write_dim], index[self.plan.read_dim] = write, read
        return [index[d] for d in range(len(self.shape))]

    def rows(self, emit_row: Callable[[AffineExpr, Insert], None]) -> None:
        """A loop over the tile rows of this thread: row = 8·k + thread y."""
        bounds = [arith.ConstantOp(IntegerAttr(v, IndexType())) for v in (0, TILE // ROWS, 1)]
        for constant in bounds:
            self.add(constant)
        loop = Block(arg_types=[IndexType()])
        first, count, step = (c.result for c in bounds)
        self.add(scf.ForOp(first, count, step, [], Region(loop)))
        emit_row(self.leaves.leaf(loop.args[0]) * ROWS + self.ty, loop.add_op)
        loop.add_op(scf.YieldOp())

    def read_row(self, row: AffineExpr, insert: Insert) -> None:
        """source[..., write = bx·32 + row, read = by·32 + tx] into tile[row, tx]."""
        index = self.logical(self.bx * TILE + row, self.by * TILE + self.tx)
        then = _if(_all_below(index, self.shape, self.leaves, insert, self.src.mode), insert)
        value = self.src.load(index, self.leaves, then.add_op)
        emitter = IndexEmitter(self.leaves, then.add_op, self.src.mode)
        then.add_op(memref.StoreOp.get(value, self.tile, emitter.emit_all([row, self.tx])))
        then.add_op(scf.YieldOp())

    def write_row(self, row: AffineExpr, insert: Insert) -> None:
        """tile[tx, row] into destination[..., write = bx·32 + tx, read = by·32 + row], or
        the pad value where `write` is past the logical extent."""
        plan, leaves, dst = self.plan, self.leaves, self.dst
        write = self.bx * TILE + self.tx
        index = self.logical(write, self.by * TILE + row)
        bounds = list(self.shape)
        bounds[plan.write_dim] = plan.write_extent
        then = _if(_all_below(index, bounds, leaves, insert, dst.mode), insert)
        if plan.write_extent == self.shape[plan.write_dim]:  # no pad slots
            _store_from_tile(then, self.tile, self.tx, row, dst, index, leaves)
            then.add_op(scf.YieldOp())
            return
        emitter = IndexEmitter(leaves, then.add_op, dst.mode)
        extent = AffineExpr.constant(self.shape[plan.write_dim])
        real = arith.CmpiOp(emitter.emit(emitter.best_form(write)), emitter.emit(extent), "ult")
        then.add_op(real)
        data, pad = Block(), Block()
        then.add_op(scf.IfOp(real.result, [], Region(data), Region(pad)))
        _store_from_tile(data, self.tile, self.tx, row, dst, index, leaves)
        data.add_op(scf.YieldOp())
        constant = scalar_constant(dst.layout.pad, dst.element)
        pad.add_op(constant)
        dst.store(constant.result, index, leaves, pad.add_op)
        pad.add_op(scf.YieldOp())
        then.add_op(scf.YieldOp())


def _store_from_tile(
    block: Block,
    tile: SSAValue,
    tx: AffineExpr,
    row: AffineExpr,
    dst: ElementAccess,
    index: list[AffineExpr],
    leaves: IndexLeaves,
) -> None:
    """tile[tx, row] into the destination at `index`."""
    emitter = IndexEmitter(leaves, block.add_op, dst.mode)
    loaded = memref.LoadOp.get(tile, emitter.emit_all([tx, row]))
    block.add_op(loaded)
    dst.store(loaded.res, index, leaves, block.add_op)


def _all_below(
    index: list[AffineExpr],
    bounds: Sequence[int],
    leaves: IndexLeaves,
    insert: Insert,
    mode: str,
) -> SSAValue:
    """`index[d] < bounds[d]` for the dims whose index can reach the bound."""
    simplifier = leaves.simplifier()
    reachable = []
    for expr, bound in zip(index, bounds, strict=True):
        found = simplifier.range_of(expr)
        if found is None or found[1] >= bound:
            reachable.append((expr, bound))
    emitter = IndexEmitter(leaves, insert, mode)  # type: ignore[arg-type]
    condition: SSAValue | None = None
    for expr, bound in reachable:
        below = arith.CmpiOp(
            emitter.emit(emitter.best_form(expr)), emitter.emit(AffineExpr.constant(bound)), "ult"
        )
        insert(below)
        if condition is not None:
            both = arith.AndIOp(condition, below.result)
            insert(both)
            condition = both.result
        else:
            condition = below.result
    if condition is None:
        true = arith.ConstantOp(IntegerAttr(1, IntegerType(1)))
        insert(true)
        condition = true.result
    return condition


def _if(condition: SSAValue, insert: Insert) -> Block:
    then = Block()
    insert(scf.IfOp(condition, [], Region(then)))
    return then
