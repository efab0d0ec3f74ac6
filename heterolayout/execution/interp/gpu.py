"""GPU code on the CPU engines: a `gpu.launch_func` or `gpu.launch` runs its kernel once per
thread of the grid, blocks and threads in order (x fastest), the way `--check` needs it to
compare a kernel with its lowered form or with the CPU program it replaces.

A thread's place in the grid (`Place`) is what the id ops read (`gpu.thread_id` and kin).
Workgroup attributions are allocated once per block, private ones once per thread. A
kernel with `gpu.barrier` runs its threads as generators that the compiled engine makes of
it (the barrier is a `yield`): every thread of a block runs up to the barrier before any
goes on, as on the GPU. The interpreter engine runs threads one after another and refuses
a barrier.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import func, gpu
from xdsl.dialects.builtin import MemRefType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation
from xdsl.traits import SymbolTable

from heterolayout.dialects.diagnostics import where
from heterolayout.dialects.functions import callee_key
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.interp.kernels import Cache
from heterolayout.execution.runtime import memref as memory

Place = tuple[int, ...]
"""(block x, y, z, thread x, y, z, grid size x, y, z, block size x, y, z)."""

_FIELDS = {"gpu.block_id": 0, "gpu.thread_id": 3, "gpu.grid_dim": 6, "gpu.block_dim": 9}
_DIMENSIONS = {"x": 0, "y": 1, "z": 2}


def id_field(op: Operation) -> tuple[str, int]:
    """What an id op reads: (its name, the dimension 0, 1 or 2)."""
    dimension = _DIMENSIONS[op.dimension.data.value]  # type: ignore[attr-defined]
    return op.name, dimension


def read_id(place: Place, name: str, dimension: int) -> int:
    if name == "gpu.global_id":
        return place[dimension] * place[9 + dimension] + place[3 + dimension]
    return place[_FIELDS[name] + dimension]


def attribution_infos(kernel: gpu.FuncOp) -> tuple[list[Any], list[Any]]:
    """The memref infos of a kernel's workgroup and private attributions."""
    inputs = len(kernel.function_type.inputs.data)
    count = kernel.attributes.get("workgroup_attributions")
    workgroup = count.value.data if count is not None else 0  # type: ignore[attr-defined]
    extra = [memory.memref_info(a.type) for a in kernel.body.block.args[inputs:]]
    return extra[:workgroup], extra[workgroup:]


def launch_sizes(op: gpu.LaunchFuncOp | gpu.LaunchOp, args: Sequence[Any]) -> list[int]:
    """The grid and block sizes among a launch's operand values (async dependencies first)."""
    start = len(op.asyncDependencies)
    return [int(v) for v in args[start : start + 6]]


def kernel_arguments(op: gpu.LaunchFuncOp, args: Sequence[Any]) -> Sequence[Any]:
    end = len(args) - (op.asyncObject is not None)
    return args[end - len(op.kernelOperands) : end]


def boundary_plan(op: gpu.LaunchFuncOp, kernel: gpu.FuncOp) -> list[Any]:
    """Per kernel argument, the memref info of the kernel's parameter where the launch passes
    another type (a layout the kernel does not take: `layout-apply` converts there too), or
    None."""
    wanted = kernel.function_type.inputs.data
    given = [v.type for v in op.kernelOperands]
    if len(wanted) != len(given):
        raise ExecutionError(
            f"{where(op)}: {len(given)} arguments for the {len(wanted)} parameters of "
            f"@{callee_key(op)}"
        )
    return [
        memory.memref_info(w) if w != g and isinstance(w, MemRefType) else None
        for g, w in zip(given, wanted, strict=True)
    ]


def launch_kernel(
    run: Callable[[Sequence[Any], list[Any]], Any],
    set_place: Callable[[Place], None],
    values: Sequence[Any],
    plan: list[Any],
    sizes: Sequence[int],
    attributions: tuple[list[Any], list[Any]],
    at: str,
) -> None:
    """A `gpu.launch_func`: the arguments the kernel takes in another layout are copied into
    buffers of its types before and back after, then `run(arguments, attributions)` runs
    per thread."""
    passed = list(values)
    copies = []
    for number, info in enumerate(plan):
        if info is None:
            continue
        value = values[number]
        dynamic = [memory.dim(value, d, at) for d, e in enumerate(info.shape) if e is None]
        passed[number] = memory.allocate(info, dynamic, at)
        memory.copy(value, passed[number], at)
        copies.append((passed[number], value))
    launch(lambda place, extra: run(passed, extra), set_place, sizes, attributions, at)
    for copy, value in copies:
        memory.copy(copy, value, at)


def launch(
    run: Callable[[Place, list[Any]], Any],
    set_place: Callable[[Place], None],
    sizes: Sequence[int],
    attributions: tuple[list[Any], list[Any]],
    where: str,
) -> None:
    """Run `run(place, attributions)` for every thread of the grid `sizes` (grid x, y, z,
    block x, y, z). A `run` that returns a generator is a thread with barriers: the block's
    threads are stepped from barrier to barrier together."""
    if any(s <= 0 for s in sizes):
        raise ExecutionError(f"{where}: grid and block sizes must be positive, got {list(sizes)}")
    gx, gy, gz, sx, sy, sz = sizes
    workgroup, private = attributions
    for bz in range(gz):
        for by in range(gy):
            for bx in range(gx):
                shared = [memory.allocate(info, (), where) for info in workgroup]
                waiting: list[tuple[Place, Iterator[Any]]] = []
                for tz in range(sz):
                    for ty in range(sy):
                        for tx in range(sx):
                            place = (bx, by, bz, tx, ty, tz, gx, gy, gz, sx, sy, sz)
                            set_place(place)
                            own = [memory.allocate(info, (), where) for info in private]
                            result = run(place, [*shared, *own])
                            if isinstance(result, Iterator):
                                waiting.append((place, result))
                _run_to_barriers(waiting, set_place, where)


def _run_to_barriers(
    threads: list[tuple[Place, Iterator[Any]]], set_place: Callable[[Place], None], where: str
) -> None:
    """Step every thread to its next barrier in turn until all have returned; a thread that
    returns while others wait at a barrier is an error (undefined on the GPU)."""
    while threads:
        running = []
        for place, thread in threads:
            set_place(place)
            try:
                next(thread)
                running.append((place, thread))
            except StopIteration:
                pass
        if running and len(running) != len(threads):
            raise ExecutionError(
                f"{where}: some threads of a block returned while others wait at gpu.barrier"
            )
        threads = running


def check_barrier(op: Operation) -> None:
    """A barrier must be in a kernel or a gpu.launch body itself: a device function with a
    barrier would return a generator to its caller instead of running."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, gpu.LaunchOp | gpu.FuncOp | func.FuncOp):
        parent = parent.parent_op()
    if isinstance(parent, gpu.LaunchOp):
        return
    if isinstance(parent, gpu.FuncOp) and "gpu.kernel" in parent.attributes:
        return
    raise ExecutionError(
        f"{where(op)}: the engines run gpu.barrier in kernels and gpu.launch bodies only, "
        "not in device functions"
    )


@register_impls
@dataclass
class GpuFunctions(InterpreterFunctions):
    """gpu launches, kernels and id ops in the interpreter engine."""

    place: Place = (0,) * 12
    kernels: Cache = field(default_factory=Cache)

    def _set_place(self, place: Place) -> None:
        self.place = place

    @impl(gpu.LaunchFuncOp)
    def run_launch_func(
        self, interpreter: Interpreter, op: gpu.LaunchFuncOp, args: PythonValues
    ) -> PythonValues:
        kernel, plan = self.kernels.get(
            op, lambda _: (find_kernel(op), boundary_plan(op, find_kernel(op)))
        )
        name = kernel.sym_name.data

        def run(values: Sequence[Any], extra: list[Any]) -> Any:
            return interpreter.run_ssacfg_region(kernel.body, (*values, *extra), name)

        outer = self.place
        launch_kernel(
            run,
            self._set_place,
            kernel_arguments(op, args),
            plan,
            launch_sizes(op, args),
            attribution_infos(kernel),
            where(op),
        )
        self.place = outer
        return (None,) if op.asyncToken is not None else ()

    @impl(gpu.LaunchOp)
    def run_launch(
        self, interpreter: Interpreter, op: gpu.LaunchOp, args: PythonValues
    ) -> PythonValues:
        def run(place: Place, extra: list[Any]) -> Any:
            return interpreter.run_ssacfg_region(op.body, place, "gpu.launch")

        outer = self.place
        launch(run, self._set_place, launch_sizes(op, args), ([], []), where(op))
        self.place = outer
        return (None,) if op.asyncToken is not None else ()

    def _id(self, op: Operation) -> PythonValues:
        return (read_id(self.place, *id_field(op)),)

    @impl(gpu.ThreadIdOp)
    def run_thread_id(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> Any:
        return self._id(op)

    @impl(gpu.BlockIdOp)
    def run_block_id(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> Any:
        return self._id(op)

    @impl(gpu.BlockDimOp)
    def run_block_dim(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> Any:
        return self._id(op)

    @impl(gpu.GridDimOp)
    def run_grid_dim(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> Any:
        return self._id(op)

    @impl(gpu.GlobalIdOp)
    def run_global_id(self, interpreter: Interpreter, op: Operation, args: PythonValues) -> Any:
        return self._id(op)

    @impl(gpu.BarrierOp)
    def run_barrier(
        self, interpreter: Interpreter, op: gpu.BarrierOp, args: PythonValues
    ) -> PythonValues:
        raise ExecutionError(
            f"{where(op)}: the interp engine runs a block's threads one after another and "
            "cannot wait at a barrier; use --engine compiled"
        )

    @impl(gpu.WaitOp)
    def run_wait(
        self, interpreter: Interpreter, op: gpu.WaitOp, args: PythonValues
    ) -> PythonValues:
        """Launches run to completion: nothing to wait for."""
        return (None,) if op.results else ()

    @impl_terminator(gpu.ReturnOp)
    def run_return(
        self, interpreter: Interpreter, op: gpu.ReturnOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl_terminator(gpu.TerminatorOp)
    def run_terminator(
        self, interpreter: Interpreter, op: gpu.TerminatorOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(()), ()


def find_kernel(op: gpu.LaunchFuncOp) -> gpu.FuncOp:
    kernel = SymbolTable.lookup_symbol(op, op.kernel)
    if not isinstance(kernel, gpu.FuncOp):
        raise ExecutionError(f"{where(op)}: no gpu.func @{callee_key(op)} in the module")
    return kernel
