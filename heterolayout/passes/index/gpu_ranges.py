"""The ranges of GPU thread and block ids, for index simplification in kernels.

A thread id lies in [0, block size), a block id in [0, grid size). The sizes are known from
a kernel's `gpu.known_block_size` / `gpu.known_grid_size` (what upstream's outlining
attaches), from the constant sizes of a `gpu.launch` around the id, or from the constant
sizes of every `gpu.launch_func` of the kernel in its module (the largest). Unknown sizes
still give a non-negative id, which makes divisions by constants unsigned.
"""

from __future__ import annotations

from xdsl.dialects import gpu
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from heterolayout.dialects.arith_ops import constant_index
from heterolayout.dialects.functions import callee_key, function_key
from heterolayout.layout.simplify import Range

UNKNOWN_SIZE = 2**31 - 1
"""No more threads or blocks per dim than a signed 32-bit count (CUDA's grid x limit)."""

_IDS = {"gpu.block_id": ("grid", 0), "gpu.thread_id": ("block", 0)}
_SIZES = {"gpu.grid_dim": "grid", "gpu.block_dim": "block"}


def gpu_id_range(value: SSAValue) -> Range | None:
    """Inclusive range of a GPU id or size value, None for any other value."""
    if isinstance(value, BlockArgument):
        return _launch_argument_range(value)
    owner = value.owner
    assert isinstance(owner, Operation)
    if owner.name == "gpu.global_id":
        return (0, UNKNOWN_SIZE * UNKNOWN_SIZE)
    if owner.name not in _IDS and owner.name not in _SIZES:
        return None
    dimension = ("x", "y", "z").index(owner.dimension.data.value)  # type: ignore[attr-defined]
    which = _IDS[owner.name][0] if owner.name in _IDS else _SIZES[owner.name]
    size = _known_size(owner, which, dimension)
    if owner.name in _SIZES:
        return (size, size) if size is not None else (1, UNKNOWN_SIZE)
    return (0, (size or UNKNOWN_SIZE) - 1)


def _launch_argument_range(value: BlockArgument) -> Range | None:
    block = value.owner
    assert isinstance(block, Block)
    launch = block.parent_op()
    if not isinstance(launch, gpu.LaunchOp) or value.index >= 12:
        return None
    group, dimension = divmod(value.index, 3)
    which = "grid" if group in (0, 2) else "block"
    size = _constant_size(_launch_sizes(launch, which)[dimension])
    if group >= 2:
        return (size, size) if size is not None else (1, UNKNOWN_SIZE)
    return (0, (size or UNKNOWN_SIZE) - 1)


def _known_size(op: Operation, which: str, dimension: int) -> int | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, gpu.LaunchOp | gpu.FuncOp):
        parent = parent.parent_op()
    if isinstance(parent, gpu.LaunchOp):
        return _constant_size(_launch_sizes(parent, which)[dimension])
    if not isinstance(parent, gpu.FuncOp):
        return None
    known = parent.attributes.get(f"gpu.known_{which}_size")
    if isinstance(known, DenseArrayBase):
        return int(known.get_values()[dimension])
    return _largest_launch(parent, which, dimension)


def _largest_launch(kernel: gpu.FuncOp, which: str, dimension: int) -> int | None:
    """The largest constant size of every launch of `kernel` in its module (None when a
    launch has a size that is not constant, or there is none)."""
    module = kernel.parent_op()
    while module is not None and not isinstance(module, ModuleOp):
        module = module.parent_op()
    if module is None:
        return None
    key = function_key(kernel)
    sizes = [
        _constant_size(_launch_sizes(op, which)[dimension])
        for op in module.walk()
        if isinstance(op, gpu.LaunchFuncOp) and callee_key(op) == key
    ]
    if not sizes or any(s is None for s in sizes):
        return None
    return max(s for s in sizes if s is not None)


def _launch_sizes(op: gpu.LaunchOp | gpu.LaunchFuncOp, which: str) -> list[SSAValue]:
    if which == "grid":
        return [op.gridSizeX, op.gridSizeY, op.gridSizeZ]
    return [op.blockSizeX, op.blockSizeY, op.blockSizeZ]


def _constant_size(value: SSAValue) -> int | None:
    size = constant_index(value)
    return size if size is not None and size > 0 else None
