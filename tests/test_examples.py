"""Every program in examples/ (globbed: examples added later are covered too) runs under
`layout-run --check` in every engine, `check` agrees in-process, and the engines compute
bit-identical outputs for the unlowered and for the lowered program. An example whose
`layout.flops` exceeds `PYTHON_ENGINE_FLOPS` (a real layer) is left to the native engine:
the Python engines would take minutes on it (the skip says so). An example with GPU code is
left to the Python engines, which run its kernels on the CPU (the native engine compiles for
the CPU only; `tests/test_cuda_engine.py` has the GPU runs).

The number of compared elements is predicted independently of the checker: every element of
every memref argument and result, plus one per printed line.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import MemRefType, ModuleOp, VectorType
from xdsl.ir import Attribute

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.execution.arguments import (
    DYNAMIC_EXTENT,
    holds_physical,
    physical_argument,
    random_arguments,
)
from heterolayout.execution.entry import find_function
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.tools.run import main as layout_run

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.mlir"))
ENGINES = ("interp", "compiled", "native")
PYTHON_ENGINE_FLOPS = 10_000_000
"""The work (the entry's `layout.flops`) above which the Python engines skip an example."""
OK_LINE = re.compile(r"OK: (\d+) elements compared")
BIT_SEED = 1
"""The seed of the engine comparison (`--check` uses 0: two data sets in all)."""


def example_id(path: Path) -> str:
    return path.stem


@cache
def programs(name: str) -> tuple[ModuleOp, ModuleOp]:
    """The example and its `layout-lower` form, parsed once per test session."""
    module = parse_program((EXAMPLES_DIR / name).read_text(), name)
    return module, apply_pipeline(module, "layout-lower")


def memref_elements(module: ModuleOp) -> int:
    """Elements of @main's memref arguments and of all its results (`?` dims get the
    extent of the random arguments)."""
    types = find_function(module, "main").function_type
    memrefs = [t for t in types.inputs.data if isinstance(t, MemRefType)]
    return sum(_elements(t) for t in [*memrefs, *types.outputs.data])


def _elements(type_attr: Attribute) -> int:
    """1 for a scalar, the element count of a vector or memref."""
    if not isinstance(type_attr, MemRefType | VectorType):
        return 1
    return math.prod(DYNAMIC_EXTENT if e < 0 else e for e in type_attr.get_shape())


def printed_lines(module: ModuleOp, engine: str = "compiled") -> int:
    arguments = random_arguments(find_function(module, "main"), 0)
    output = heterolayout.run(module, "main", arguments, engine=engine, capture=True).output
    assert output is not None
    return len(output.splitlines())


def flops(path: Path) -> int:
    attribute = find_function(programs(path.name)[0], "main").attributes.get("layout.flops")
    return 0 if attribute is None else attribute.value.data  # type: ignore[attr-defined]


def runs_gpu_code(path: Path) -> bool:
    return any(op.name.startswith("gpu.launch") for op in programs(path.name)[0].walk())


def engines_for(path: Path) -> tuple[str, ...]:
    if flops(path) > PYTHON_ENGINE_FLOPS:
        return ("native",)
    if runs_gpu_code(path):
        return ("interp", "compiled")
    return ENGINES


def skip_python_engine_on_a_layer(path: Path, engine: str) -> None:
    if engine in engines_for(path):
        return
    if runs_gpu_code(path):
        pytest.skip(
            f"{path.name}: GPU code; the native engine compiles for the CPU (the Python "
            "engines run the kernels, --engine cuda a GPU)"
        )
    pytest.skip(
        f"{path.name}: layout.flops = {flops(path)} is above {PYTHON_ENGINE_FLOPS}: "
        "the Python engines would take minutes (the native engine checks it)"
    )


def run_cli(*argv: str) -> tuple[int, str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = layout_run(list(argv))
    return code, stdout.getvalue(), stderr.getvalue()


def test_the_examples_folder_is_not_empty() -> None:
    names = {path.name for path in EXAMPLES}
    assert {"conv2d_nchw16c.mlir", "matmul_blocked.mlir", "crouton_eltwise.mlir"} <= names


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("path", EXAMPLES, ids=example_id)
def test_layout_run_check_prints_ok_with_every_element_compared(path: Path, engine: str) -> None:
    skip_python_engine_on_a_layer(path, engine)
    code, stdout, stderr = run_cli(str(path), "--check", "--engine", engine)
    assert (code, stderr) == (0, ""), stdout
    match = OK_LINE.fullmatch(stdout.strip())
    assert match is not None, stdout
    module, _ = programs(path.name)
    expected = memref_elements(module) + printed_lines(module, engines_for(path)[-1])
    assert int(match.group(1)) == expected > 0


@pytest.mark.parametrize("path", EXAMPLES, ids=example_id)
def test_check_in_process_reports_equal_with_the_cli_count(path: Path) -> None:
    engine = engines_for(path)[-1]
    if engine == "native":
        from mlir_tools import require_native_engine

        require_native_engine()
    report = heterolayout.check(path.read_text(), pipeline="layout-lower", seed=0, engine=engine)
    module, _ = programs(path.name)
    assert report.equal, str(report)
    assert report.mismatch is None
    assert report.compared == memref_elements(module) + printed_lines(module, engine)
    assert str(report) == f"OK: {report.compared} elements compared"


def _fingerprint(value: Any) -> Any:
    """A value by its bits: dtype, shape and bytes of arrays, exact bits of floats."""
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, float):
        return ("float", np.float64(value).tobytes())
    return (type(value).__name__, value)


def run_engines(
    module: ModuleOp, arguments: list[Any], engines: tuple[str, ...]
) -> dict[str, Any]:
    """Each engine's results, arguments after the call and printed text, by their bits."""
    outcomes = {}
    for engine in engines:
        args = [a.copy() if isinstance(a, np.ndarray) else a for a in arguments]
        result = heterolayout.run(module, "main", args, engine=engine, capture=True)
        outcomes[engine] = (
            [_fingerprint(r) for r in result],
            [_fingerprint(a) for a in args],
            result.output,
        )
    return outcomes


@pytest.mark.parametrize("path", EXAMPLES, ids=example_id)
def test_engines_are_bit_identical_on_the_program_and_its_lowered_form(
    path: Path, native_engine: None
) -> None:
    engines = engines_for(path)
    if engines == ("native",):
        pytest.skip(f"{path.name}: only the native engine runs it (its --check compares both forms)")
    source, lowered = programs(path.name)
    source_function, lowered_function = (
        find_function(source, "main"),
        find_function(lowered, "main"),
    )
    logical = random_arguments(source_function, BIT_SEED)
    physical = [
        physical_argument(arg, s, t, f"argument {i}") if holds_physical(s, t) else arg
        for i, (arg, s, t) in enumerate(
            zip(
                logical,
                source_function.function_type.inputs,
                lowered_function.function_type.inputs,
                strict=True,
            )
        )
    ]
    for module, arguments in ((source, logical), (lowered, physical)):
        outcomes = run_engines(module, arguments, engines)
        assert all(outcome == outcomes["compiled"] for outcome in outcomes.values())
        results, after, _ = outcomes["compiled"]
        # The run did something: some output argument differs from what went in.
        assert after != [_fingerprint(a) for a in arguments] or results
