"""`run` and `check`: run a program, and compare a program with its lowered form.

Arguments and results cross this boundary in logical form: a layout-typed memref argument
takes a logical numpy array (packed into the layout's physical buffer), and comes back
unpacked. `check` gives the unlowered program logical arrays and the lowered program the
physical buffers the layouts pack them into, and compares everything in logical form.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, overload

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from heterolayout.execution.arguments import DYNAMIC_EXTENT, bind_arguments, from_value
from heterolayout.execution.comparison import CheckReport, compare_programs
from heterolayout.execution.engines import AUTO, chosen_engine, engine_for, load_module
from heterolayout.execution.entry import find_function
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.named import NamedResult, bind_named, named_outputs
from heterolayout.execution.runtime.runner_utils import RunOutput
from heterolayout.passes.lower.layout_lower import LayoutLowerPass
from heterolayout.passes.pipeline import apply_pipeline, pipeline_passes


class RunResult(tuple[Any, ...]):
    """What `run` returns: the entry function's results (a tuple, one entry per result), and
    in `output` the text the program printed when run with `capture=True` (None without)."""

    output: str | None

    def __new__(cls, values: Sequence[Any], output: str | None = None) -> RunResult:
        result = super().__new__(cls, values)
        result.output = output
        return result


@overload
def run(
    module_or_text: ModuleOp | str,
    entry: str = "main",
    args: Sequence[Any] = (),
    engine: str = AUTO,
    *,
    capture: bool = False,
) -> RunResult: ...
@overload
def run(
    module_or_text: ModuleOp | str,
    entry: Mapping[str | int, Any],
    args: Sequence[Any] = (),
    engine: str = AUTO,
    *,
    capture: bool = False,
) -> NamedResult: ...
@overload
def run(
    module_or_text: ModuleOp | str,
    entry: str,
    args: Mapping[str | int, Any],
    engine: str = AUTO,
    *,
    capture: bool = False,
) -> NamedResult: ...
def run(
    module_or_text: ModuleOp | str,
    entry: str | Mapping[str | int, Any] = "main",
    args: Sequence[Any] | Mapping[str | int, Any] = (),
    engine: str = AUTO,
    *,
    capture: bool = False,
) -> RunResult | NamedResult:
    """Run `entry` and return its results, one entry per result: Python ints and floats for
    scalars, numpy arrays for vectors and memrefs (layout-typed memrefs in logical form).

    A numpy array passed for a memref argument sees the function's writes (in logical form),
    like a buffer passed to a compiled function.

    Arguments given as a mapping (`run(module, {"x": array})`, or `args={...}`) are bound by
    the graph name an argument carries (`layout-import` writes them) or by position (an int,
    or `arr_<i>` as `numpy.savez` names positional arrays); the graph outputs need not be
    given. The call then returns a `NamedResult`, a dict of the outputs by name:
    `execution.named`.

    The default engine, `auto`, is the native engine for a large program, or one with an op
    the Python engines do not run, when upstream MLIR 22 and a C compiler are installed; the
    compiled engine otherwise (`engines.chosen_engine`).

    What the program prints (`vector.print`, and the runner-utils functions it declares as
    external, such as `printMemrefF32`: see `runner_utils`) is mlir-runner's text. It goes to
    standard output as the program runs; with `capture=True` it is collected instead and
    returned in the result's `output`.
    """
    if isinstance(entry, Mapping):
        if args:
            raise ExecutionError("run: arguments given both as a mapping and in args")
        entry, args = "main", entry
    module = load_module(module_or_text)
    function = find_function(module, entry)
    if isinstance(args, Mapping):
        positional = bind_named(function, args)
        results = run(module, entry, positional, engine, capture=capture)
        return named_outputs(function, positional, results, results.output)
    values = bind_arguments(function, args)
    captured = io.StringIO() if capture else None
    results = engine_for(module, engine).call(entry, tuple(values), RunOutput(captured))
    for arg, value in zip(args, values, strict=True):
        if isinstance(arg, np.ndarray) and value is not arg and arg.flags.writeable:
            logical = from_value(value)
            if isinstance(logical, np.ndarray) and logical.shape == arg.shape:
                arg[...] = logical
    return RunResult(
        [from_value(r) for r in results], captured.getvalue() if captured is not None else None
    )


def check(
    module_or_text: ModuleOp | str,
    pipeline: str | Sequence[str | ModulePass] = "layout-lower",
    seed: int = 0,
    *,
    entry: str = "main",
    engine: str = AUTO,
    dynamic_extent: int = DYNAMIC_EXTENT,
    reference_engine: str | None = None,
    validate: bool = True,
) -> CheckReport:
    """Lower a copy of the program with `pipeline` (a spec, or specs and pass instances) and compare it
    with the original on seeded random arguments (a `?` dim gets `dynamic_extent`
    elements): the results, every memref argument after the call, and the lines the
    program printed (captured, not shown).

    With `validate`, each `layout-lower` of the pipeline that does not validate already
    proves the conversions it lowers (`validate=conversions`): one not proven fails the
    lowering (a `PassFailedException` naming it, with a counterexample), one that cannot
    be checked (a dynamic shape) is a remark on stderr. The seeded run alone sees only the
    logical elements of one input; the proof covers every element and pad slot.

    `engine` runs the lowered program and `reference_engine` (default: the same) the
    original; `auto` chooses by the original program (`engines.chosen_engine`). The native engine runs a program with layouts as its stripped form
    (`layout-strip`)."""
    module = load_module(module_or_text)
    engine = chosen_engine(module, engine)
    if reference_engine is not None:
        reference_engine = chosen_engine(module, reference_engine)
    passes = pipeline_passes(pipeline)
    if validate:
        passes = [
            replace(p, validate="conversions")
            if isinstance(p, LayoutLowerPass) and not p.validate
            else p
            for p in passes
        ]
    lowered = apply_pipeline(module, passes)
    return compare_programs(
        module, lowered, entry, seed, engine, dynamic_extent, reference_engine=reference_engine
    )
