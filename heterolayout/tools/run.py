"""`layout-run`: run a program's entry function on seeded random arguments, or check that a
pipeline (by default `layout-lower`) preserves what it computes.

    layout-run FILE [-p PIPELINE] [--entry main] [--engine auto|interp|compiled|native|cuda]
               [--check] [--reference-engine interp|compiled|native] [--seed N]
               [--dynamic-extent N] [--timeout SECONDS]
               [--inputs IN.npz] [--outputs OUT.npz] [--reference MODEL.onnx [--rtol R] [--atol A]]

Arguments are seeded random data; a `?` dim of a memref argument has `--dynamic-extent`
elements (default 8). Without `--check` it runs the program (after PIPELINE when one is given): what the program
prints (`vector.print`, and runner-utils functions such as `printMemrefF32` declared as
external) appears as mlir-runner prints it, then the entry function's results one per line.
`--inputs IN.npz` gives the arguments instead, by graph name (the names `layout-import`
writes) or position (`arr_<i>`, as `numpy.savez` names a list); the graph outputs need not
be given. Then, with `--outputs OUT.npz`, and for a program whose arguments carry graph
names, the outputs are named: the graph outputs (or
every memref argument of a program that marks none) and the results, written to OUT.npz,
or printed one per line as `name: value` (`execution.named`).
`--reference MODEL.onnx` (or a `torch.export` program, MODEL.pt2) runs the program (after
PIPELINE) and onnxruntime (or PyTorch) on the same
inputs (IN.npz, or seeded random data) and prints, per graph output, the largest absolute
and relative errors; it exits 1 when an element is over the tolerance (|got - expected| <=
atol + rtol·|expected|; default per element type, f32: rtol 1e-4 and atol 1e-5 times the
output's largest magnitude; `--rtol`, `--atol` (absolute); frontends/reference.py says why).
With `--check` it runs the program and its lowered form on the same data, compares the
results, every memref argument after the call (in logical form) and the printed lines, and
prints `OK` with the number of compared elements (a printed line counts as one) or the
first mismatch (exit 1); the programs' own printing is not shown. It also proves the
conversions the pipeline's `layout-lower` lowers (`validate=conversions`): one not proven
is an error (exit 1), one that cannot be checked a remark on stderr. `--engine` runs the
program (with `--check`, the lowered one), `--reference-engine` the unlowered side of
`--check` (default: `--engine`). `native` compiles with upstream MLIR 22 and runs a program
that still has layouts as its `layout-strip` form. `cuda` runs host code in the compiled
engine and each `gpu.launch_func` on an NVIDIA GPU through CuPy (kernels lowered first; with
`--check` the unlowered side runs in the compiled engine). The default engine, `auto`, is
the native engine for a large program (an estimated million operations or more per call:
`execution.work`) or one with an op the Python engines do not run, when MLIR 22 and a C
compiler are installed; else the compiled engine.
Errors are one line on stderr and exit 1; set HETEROLAYOUT_TRACEBACK=1 to see a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.ir import Attribute
from xdsl.utils.exceptions import DiagnosticException, ParseError

from heterolayout.dialects.diagnostics import one_line, tool_error
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.limits import (
    DEFAULT_TIMEOUT,
    OUT_OF_MEMORY,
    Timeout,
    check_input_size,
    deep_recursion,
    max_input_bytes,
    processor_time_limit,
    too_deep,
)

TRACEBACK_VARIABLE = "HETEROLAYOUT_TRACEBACK"


def format_value(value: Any, type_attr: Attribute) -> str:
    """Integers in decimal; floats as Python's repr of the shortest digits that identify the
    value in its own type (f32 0.1 prints 0.1); arrays as numpy prints them."""
    if isinstance(value, np.ndarray):
        return str(value)
    if isinstance(value, float):
        from heterolayout.execution.runtime.values import element_of

        dtype = element_of(type_attr).numpy_dtype
        return repr(float(np.format_float_scientific(dtype.type(value), unique=True)))
    return str(int(value))


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="layout-run",
        description="Run an MLIR program's entry function, or check a lowering against it.",
    )
    parser.add_argument("file", help="MLIR file ('-' reads stdin)")
    parser.add_argument(
        "-p", "--pipeline", help="pass pipeline (with --check: the lowering, default layout-lower)"
    )
    parser.add_argument("--entry", default="main", help="function to run (default: main)")
    engines = ("interp", "compiled", "native")
    parser.add_argument(
        "--engine",
        choices=("auto", *engines, "cuda"),
        default="auto",
        help="default: auto, the native engine for a large program (an estimated million "
        "operations or more per call) or one with an op the Python engines do not run, when "
        "MLIR 22 and a C compiler are installed, else compiled; cuda launches the kernels of lowered GPU code on an NVIDIA "
        "GPU through CuPy (with --check: against the compiled engine's run of the unlowered "
        "program)",
    )
    parser.add_argument(
        "--reference-engine",
        choices=engines,
        help="with --check: the engine of the unlowered side (default: --engine)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare the program with its lowered form, and prove the conversions it lowers",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the random arguments (default: 0)"
    )
    parser.add_argument(
        "--dynamic-extent",
        type=int,
        default=8,
        metavar="N",
        help="logical extent of every '?' dim of a memref argument (default: 8); a '?' dim "
        "that a layout tiles gets the physical extent its layout gives that size (8 "
        "elements tiled by 4: a 2x4 buffer)",
    )
    parser.add_argument(
        "--inputs",
        metavar="IN.npz",
        help="the arguments, by graph name or position (arr_0, arr_1, ...); graph outputs "
        "need not be given",
    )
    parser.add_argument(
        "--outputs",
        metavar="OUT.npz",
        help="write the outputs by graph name (the program's results as result_<i>)",
    )
    parser.add_argument(
        "--reference",
        metavar="MODEL",
        help="compare every graph output with onnxruntime's run of the model (PyTorch's for "
        "a torch.export .pt2) on the same "
        "inputs; exit 1 over the tolerance",
    )
    parser.add_argument(
        "--rtol",
        type=float,
        metavar="R",
        help="with --reference: relative tolerance (default per element type; f32: 1e-4)",
    )
    parser.add_argument(
        "--atol",
        type=float,
        metavar="A",
        help="with --reference: absolute tolerance (default per element type; f32: 1e-5 times "
        "the output's largest magnitude, at least 1e-5)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help="stop a run that has used more than SECONDS of processor time, with an error "
        f"(default: {DEFAULT_TIMEOUT:g}; 0: no limit). Processor time, not wall-clock time, "
        "so that a run passes or fails the same way on a loaded machine",
    )
    return parser.parse_args(argv)


def _run(args: argparse.Namespace) -> int:
    from heterolayout.dialects.context import parse_program
    from heterolayout.execution.api import check, run
    from heterolayout.execution.arguments import random_arguments
    from heterolayout.execution.entry import find_function
    from heterolayout.passes.pipeline import apply_pipeline

    if args.file == "-":
        text, name = sys.stdin.read(max_input_bytes() + 1), "<stdin>"
        check_input_size(len(text.encode()), name)
    elif args.file.endswith(".onnx"):
        raise ValueError(
            f"{args.file} is an ONNX model: import it first (layout-import {args.file} -o OUT.mlir)"
        )
    else:
        check_input_size(os.path.getsize(args.file), args.file)
        with open(args.file, encoding="utf-8") as stream:
            text, name = stream.read(), args.file
    module = parse_program(text, name)
    if args.check and (args.inputs or args.outputs or args.reference):
        raise ValueError(
            "--check runs seeded arguments and compares two programs: it takes no --inputs, "
            "--outputs or --reference"
        )
    if args.check:
        report = check(
            module,
            args.pipeline or "layout-lower",
            args.seed,
            entry=args.entry,
            engine=args.engine,
            reference_engine=args.reference_engine,
            dynamic_extent=args.dynamic_extent,
        )
        print(report)
        return 0 if report.equal else 1
    if args.pipeline:
        module = apply_pipeline(module, args.pipeline)
    if args.reference:
        from heterolayout.frontends.reference import compare_with_reference

        compared = compare_with_reference(
            module,
            args.reference,
            _load_inputs(args.inputs) if args.inputs else None,
            entry=args.entry,
            engine=args.engine,
            seed=args.seed,
            rtol=args.rtol,
            atol=args.atol,
        )
        print(compared)
        return 0 if compared.equal else 1
    function = find_function(module, args.entry)
    from heterolayout.dialects.functions import argument_names

    if args.inputs or args.outputs or any(argument_names(function)):
        given = _load_inputs(args.inputs) if args.inputs else None
        outputs = run_named(module, args.entry, given, args.engine, args.seed, args.dynamic_extent)
        if args.outputs:
            write_npz(args.outputs, outputs)
        else:
            for key, value in outputs.items():
                print(f"{key}: {value}")
        return 0
    arguments = random_arguments(function, args.seed, args.dynamic_extent)
    results = run(module, args.entry, arguments, engine=args.engine)
    for value, type_attr in zip(results, function.function_type.outputs.data, strict=True):
        print(format_value(value, type_attr))
    return 0


def _load_inputs(path: str) -> dict[str | int, np.ndarray]:
    """The arrays of an `.npz` file (or one `.npy` array, the first argument) by key."""
    try:
        loaded = np.load(path, allow_pickle=False)
    except (ValueError, EOFError) as error:
        raise ValueError(f"{path}: not a numpy .npz or .npy file ({one_line(error)})") from None
    if isinstance(loaded, np.ndarray):
        return {0: loaded}
    with loaded:
        return {key: loaded[key] for key in loaded.files}


def run_named(
    module: Any,
    entry: str,
    given: dict[str | int, np.ndarray] | None,
    engine: str,
    seed: int,
    dynamic_extent: int,
) -> dict[str, Any]:
    """Run with the given arguments, or seeded random ones for every argument that is not
    a graph output; the outputs by name."""
    from heterolayout.dialects.functions import argument_names
    from heterolayout.execution.api import run
    from heterolayout.execution.arguments import random_arguments
    from heterolayout.execution.entry import find_function

    if given is None:
        function = find_function(module, entry)
        names = argument_names(function)
        randoms = random_arguments(function, seed, dynamic_extent)
        given = {
            i: value
            for i, (value, name) in enumerate(zip(randoms, names, strict=True))
            if name is None or not name.output
        }
    return dict(run(module, entry, given, engine))


def write_npz(path: str, outputs: dict[str, Any]) -> None:
    """The outputs as an `.npz` file, written whole or not at all."""
    from heterolayout.tools.files import write_with

    arrays: dict[str, Any] = {key: np.asarray(value) for key, value in outputs.items()}
    write_with(path, lambda file: np.savez(file, **arrays))


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point; returns the exit code."""
    args = _arguments(argv)
    return report_errors("layout-run", lambda: _run(args), args.timeout)


def report_errors(tool: str, body: Callable[[], int], timeout: float = 0) -> int:
    """Run a tool's body (within `timeout` s of processor time; 0: no limit); an error
    becomes one line on stderr and exit code 1."""
    try:
        with deep_recursion(), processor_time_limit(timeout):
            return body()
    except Timeout:
        print(
            f"{tool}: error: the run used more than {timeout:g} s of processor time "
            "(--timeout; 0 for no limit)",
            file=sys.stderr,
        )
        return 1
    except (DiagnosticException, LayoutError, ParseError, OSError, ValueError) as error:
        if os.environ.get(TRACEBACK_VARIABLE):
            raise
        print(tool_error(tool, error), file=sys.stderr)
        return 1
    except RecursionError:
        if os.environ.get(TRACEBACK_VARIABLE):
            raise
        print(f"{tool}: error: {too_deep('the program')}", file=sys.stderr)
        return 1
    except MemoryError:
        print(f"{tool}: error: {OUT_OF_MEMORY}", file=sys.stderr)
        return 1
    except Exception as error:  # a bug (or a recursion too deep for Python): still one line
        if os.environ.get(TRACEBACK_VARIABLE):
            raise
        print(
            f"{tool}: internal error: {type(error).__name__}: {one_line(error)} "
            f"(set {TRACEBACK_VARIABLE}=1 for the traceback)",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
