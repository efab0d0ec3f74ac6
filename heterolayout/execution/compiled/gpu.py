"""The compiled engine's GPU ops (`execution.interp.gpu` says how a launch runs on the CPU).

A kernel is compiled like a function (its attributions are trailing parameters); a launch
calls `_gpu_launch` with a closure that runs one thread; a `gpu.launch` body becomes that
closure itself, so it reads the host's values directly. The id ops read the thread's place
from the run state (`S.gpu`). `gpu.barrier` is a `yield`: a kernel or launch body with a
barrier is a generator, stepped from barrier to barrier by `execution.interp.gpu.launch`.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import gpu
from xdsl.ir import Operation

from heterolayout.dialects.diagnostics import where
from heterolayout.dialects.functions import function_key
from heterolayout.execution.compiled.writer import Emitter, Writer
from heterolayout.execution.interp.gpu import (
    Place,
    attribution_infos,
    boundary_plan,
    find_kernel,
    id_field,
    launch,
    launch_kernel,
    read_id,
)


def _run_launch(state: Any, launch_with: Any, *args: Any) -> None:
    """`launch` or `launch_kernel` with the place of each thread kept in `state.gpu`."""
    outer = state.gpu

    def set_place(place: Place) -> None:
        state.gpu = place

    launch_with(args[0], set_place, *args[1:])
    state.gpu = outer


def launch_on_cpu(
    state: Any,
    kernel: str,
    run: Any,
    arguments: tuple[Any, ...],
    plan: list[Any],
    sizes: tuple[int, ...],
    attributions: Any,
    at: str,
) -> None:
    """A `gpu.launch_func` in the compiled engine: the compiled kernel once per thread. (The
    cuda engine replaces this helper with its launcher.)"""
    _run_launch(state, launch_kernel, run, arguments, plan, sizes, attributions, at)


def _sizes(w: Writer, op: gpu.LaunchFuncOp | gpu.LaunchOp) -> str:
    start = len(op.asyncDependencies)
    return "(" + "".join(f"{n}, " for n in w.uses(op.operands[start : start + 6])) + ")"


def _token(w: Writer, op: Operation) -> None:
    for result in op.results:
        w.line(f"{w.define(result)} = None")


def _launch_func(w: Writer, op: Operation) -> None:
    assert isinstance(op, gpu.LaunchFuncOp)
    kernel = find_kernel(op)
    run = w.fresh("_kernel")
    w.line(f"def {run}(_args, _extra):")
    w.indented(
        lambda: w.line(f"return {w.function_names[function_key(kernel)]}(S, *_args, *_extra)")
    )
    arguments = "(" + "".join(f"{a}, " for a in w.uses(op.kernelOperands)) + ")"
    plan = w.bind(boundary_plan(op, kernel))
    infos = w.bind(attribution_infos(kernel))
    at = w.bind(where(op))
    w.line(
        f"_gpu_launch_func(S, {function_key(kernel)!r}, {run}, {arguments}, {plan}, "
        f"{_sizes(w, op)}, {infos}, {at})"
    )
    _token(w, op)


def _launch(w: Writer, op: Operation) -> None:
    assert isinstance(op, gpu.LaunchOp)
    run = w.fresh("_launch")
    body = op.body.blocks.first
    assert body is not None
    w.line(f"def {run}(_place, _extra):")
    names = [w.define(arg) for arg in body.args]
    w.indented(lambda: w.line(f"{', '.join(names)}, = _place"))
    w.region(op.body, names, lambda terminator, values: w.line("return"))
    w.line(f"_gpu_launch(S, _launch, {run}, {_sizes(w, op)}, ([], []), {w.bind(where(op))})")
    _token(w, op)


def _id(w: Writer, op: Operation) -> None:
    name, dimension = id_field(op)
    w.line(f"{w.define(op.results[0])} = _gpu_id(S.gpu, {name!r}, {dimension})")


def _barrier(w: Writer, op: Operation) -> None:
    w.line("yield")


EMITTERS: dict[str, Emitter] = {
    "gpu.launch_func": _launch_func,
    "gpu.launch": _launch,
    "gpu.barrier": _barrier,
    "gpu.wait": _token,
    **dict.fromkeys(
        ("gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.global_id"), _id
    ),
}
HELPERS: dict[str, Any] = {
    "_gpu_launch": _run_launch,
    "_launch": launch,
    "_gpu_launch_func": launch_on_cpu,
    "_gpu_id": read_id,
}
