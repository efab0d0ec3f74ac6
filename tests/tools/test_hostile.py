"""Hostile input against `layout-opt`, `layout-run`, `layout-explain` and `parse_layout`.

Each input gets a clean error (exit 1, one line on stderr naming the problem and the limit
that applies, no traceback) or the right answer, within a wall-clock bound that only catches
hangs and under a memory limit set in the child. The corpus: the files in `tests/hostile/`
(see its README for their header), inputs generated here because they are large, and cases
of the Python API.
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.execution.arguments import random_arguments
from heterolayout.execution.entry import find_function
from heterolayout.layout.limits import (
    MAX_ELEMENTS,
    MAX_INPUT_BYTES,
    MAX_MAP_PARENTHESES,
    MAX_NESTING,
    MAX_RANK,
)
from heterolayout.passes.pipeline import apply_pipeline
from tests.paths import TESTS

HOSTILE = TESTS / "hostile"
HANG_BOUND = 120
"""Seconds after which a run counts as hung: generous for a loaded 2-core machine; not a
timing threshold (the slowest case here takes a few seconds on an idle one)."""
MEMORY_BOUND = 3 * 2**30
"""Address space of a child: a run that tries to materialise 10^10 elements fails here."""
SLOW = frozenset(
    {
        "long-loop",
        "thousands-of-functions",
        "thousands-of-functions-run",
        "call-chain-1000",
        "call-chain-1000-interp",
    }
)
"""Files and generated inputs that take seconds by design (runs ended by `--timeout`, a
thousand functions): `slow`, out of the fast tier."""
TOOLS = {
    "layout-opt": "heterolayout.tools.opt",
    "layout-run": "heterolayout.tools.run",
    "layout-explain": "heterolayout.tools.explain",
}


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BOUND, MEMORY_BOUND))


def run_tool(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    environment.pop("HETEROLAYOUT_TRACEBACK", None)
    return subprocess.run(
        [sys.executable, "-m", TOOLS[tool], *args],
        capture_output=True,
        text=True,
        timeout=HANG_BOUND,
        preexec_fn=_limit_memory,
        env=environment,
        check=False,
    )


def assert_clean_error(result: subprocess.CompletedProcess[str], fragment: str, tool: str) -> None:
    """Exit 1, the fragment on the first line of stderr, no traceback. layout-run and
    layout-explain print exactly one line; layout-opt's verifier diagnostics add the IR
    under the message (issue 12 makes them one line)."""
    stderr = result.stderr
    assert result.returncode == 1, f"exit {result.returncode}\n{stderr[:2000]}"
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr[:2000]
    first = stderr.splitlines()[0] if stderr else ""
    assert fragment in first, f"{fragment!r} not in {first[:2000]!r}"
    assert len(first) <= 1200, "a message quotes at most the ends of a huge input"
    if tool != "layout-opt":
        assert stderr.count("\n") == 1, stderr[:2000]


def assert_answer(result: subprocess.CompletedProcess[str], fragment: str) -> None:
    assert result.returncode == 0, result.stderr[:2000]
    assert fragment in result.stdout, result.stdout[:2000]


# ---- the files of tests/hostile --------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    path: Path
    command: tuple[str, ...]
    error: str | None
    output: str | None


def cases() -> list[Case]:
    found = []
    for path in sorted(HOSTILE.glob("*.mlir")):
        header = [
            line[3:].strip() for line in path.read_text().splitlines() if line.startswith("// ")
        ]
        runs = [h[len("RUN:") :].split() for h in header if h.startswith("RUN:")]
        error = next((h[len("ERROR:") :].strip() for h in header if h.startswith("ERROR:")), None)
        output = next(
            (h[len("OUTPUT:") :].strip() for h in header if h.startswith("OUTPUT:")), None
        )
        assert runs and (error is None) != (output is None), f"{path.name}: bad header"
        found += [Case(path, tuple(run), error, output) for run in runs]
    return found


def slow_if_named(name: str) -> list[pytest.MarkDecorator]:
    return [pytest.mark.slow] if name in SLOW else []


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, id=f"{c.path.stem}:{' '.join(c.command)}", marks=slow_if_named(c.path.stem))
        for c in cases()
    ],
)
@pytest.mark.slow
def test_hostile_file(case: Case) -> None:
    tool, *args = case.command
    result = run_tool(tool, *args, str(case.path))
    if case.error is not None:
        assert_clean_error(result, case.error.replace("{{FILE}}", str(case.path)), tool)
    else:
        assert case.output is not None
        assert_answer(result, case.output)


# ---- generated inputs ------------------------------------------------------------------------
def nested_loops(depth: int, trips: int = 1) -> str:
    """`depth` nested scf.for, the outer three with `trips` iterations, adding 1 to m[0]."""
    layout = 'memref<4xf32, #layout.tag<"W->W2w">>'
    lines = [
        f"func.func @main(%m: {layout}) -> f32 {{",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        f"  %n = arith.constant {trips} : index",
        "  %x = arith.constant 1.0 : f32",
    ]
    lines += [
        f"  scf.for %i{i} = %c0 to {'%n' if i < 3 else '%c1'} step %c1 {{" for i in range(depth)
    ]
    lines += [
        f"  %v = memref.load %m[%c0] : {layout}",
        "  %w = arith.addf %v, %x : f32",
        f"  memref.store %w, %m[%c0] : {layout}",
    ]
    lines += ["  }"] * depth
    lines += [f"  %r = memref.load %m[%c0] : {layout}", "  func.return %r : f32", "}"]
    return "\n".join(lines) + "\n"


def nested_regions(depth: int) -> str:
    opening = "".join(f'  %r{i} = "test.op"() ({{\n' for i in range(depth))
    closing = "}) : () -> i32\n" * depth
    return (
        f'func.func @main() {{\n{opening}  "test.term"() : () -> ()\n{closing}  func.return\n}}\n'
    )


def map_argument(expression: str) -> str:
    return (
        f"func.func @main(%a: memref<4xf32, #layout.map<affine_map<(d0) -> ({expression}, d0)>>>) {{\n"
        "  func.return\n}\n"
    )


def builtin_map_argument(expression: str) -> str:
    """A function loading through a memref with a builtin affine_map layout of `expression`."""
    memref = f"memref<4xf32, affine_map<(d0) -> ({expression})>>"
    return (
        f"func.func @main(%a: {memref}) -> f32 {{\n  %c1 = arith.constant 1 : index\n"
        f"  %v = memref.load %a[%c1] : {memref}\n  func.return %v : f32\n}}\n"
    )


def called_functions(count: int) -> str:
    """`count` small functions, each called once from @main."""
    layout = 'memref<64xf32, #layout.tag<"W->W8w">>'
    functions = [
        f"func.func private @f{f}(%m: {layout}) -> f32 {{\n  %c{f} = arith.constant {f % 64} : index\n"
        f"  %v = memref.load %m[%c{f}] : {layout}\n  func.return %v : f32\n}}"
        for f in range(count)
    ]
    calls = [f"  %v{f} = func.call @f{f}(%m) : ({layout}) -> f32" for f in range(count)]
    main = (
        f"func.func @main(%m: {layout}) -> f32 {{\n"
        + "\n".join(calls)
        + f"\n  func.return %v{count - 1} : f32\n}}"
    )
    return "\n".join([*functions, main]) + "\n"


def call_chain(depth: int) -> str:
    """@f0 calls @f1 … calls @f(depth-1), which doubles its argument."""
    functions = [
        f"func.func private @f{f}(%x: i32) -> i32 {{\n  %r = func.call @f{f + 1}(%x) : (i32) -> i32\n"
        "  func.return %r : i32\n}"
        for f in range(depth - 1)
    ]
    functions.append(
        f"func.func private @f{depth - 1}(%x: i32) -> i32 {{\n  %r = arith.addi %x, %x : i32\n  func.return %r : i32\n}}"
    )
    functions.append(
        "func.func @main() -> i32 {\n  %x = arith.constant 21 : i32\n  %r = func.call @f0(%x) : (i32) -> i32\n  func.return %r : i32\n}"
    )
    return "\n".join(functions) + "\n"


def unit_blocks(count: int) -> str:
    tag = "W->W" + "1w" * count
    return f'func.func @main(%a: memref<8xf32, #layout.tag<"{tag}">>) {{\n  func.return\n}}\n'


def big_program(size: int) -> str:
    body = "  %c = arith.constant 1 : index\n" * (size // 32 + 1)
    return f"func.func @main() {{\n{body}  func.return\n}}\n"


NESTING = (
    f"nest deeper than {MAX_NESTING} levels (the nesting limit of {MAX_NESTING}; "
    "set HETEROLAYOUT_MAX_NESTING to raise it)"
)
PARENTHESES = (
    f"parentheses in an affine map nest deeper than {MAX_MAP_PARENTHESES} levels (the "
    f"parenthesis limit of {MAX_MAP_PARENTHESES}; set HETEROLAYOUT_MAX_MAP_PARENTHESES to "
    "raise it)"
)
GENERATED: list[tuple[str, Callable[[], str], tuple[str, ...], str | None, str | None]] = [
    # id, program, command, expected error, expected output
    (
        "parentheses",
        lambda: map_argument("(" * 3000 + "d0" + ")" * 3000),
        ("layout-opt",),
        PARENTHESES,
        None,
    ),
    # Parentheses that group (MLIR 22 reads about 5,000 levels) work to the parenthesis limit,
    # in builtin maps and layouts; the operators they group count as nesting
    (
        "parentheses-200",
        lambda: map_argument("(" * 200 + "d0 floordiv 2" + ")" * 200),
        ("layout-run", "--check"),
        None,
        "OK: 4 elements compared",
    ),
    (
        "parentheses-1000",
        lambda: builtin_map_argument("(" * 1000 + "d0" + ")" * 1000),
        ("layout-run", "--check"),
        None,
        "OK: 5 elements compared",
    ),
    (
        "parentheses-1001",
        lambda: builtin_map_argument("(" * 1001 + "d0" + ")" * 1001),
        ("layout-opt",),
        PARENTHESES,
        None,
    ),
    (
        "grouped-operators",
        lambda: map_argument("(" * 200 + "d0" + " floordiv 2)" * 200),
        ("layout-opt",),
        "nests 200 operators deep, more than the nesting limit of",
        None,
    ),
    (
        "types",
        lambda: (
            "func.func @main(%a: "
            + "memref<2x" * 3000
            + "f32"
            + ">" * 3000
            + ") {\n  func.return\n}\n"
        ),
        ("layout-opt",),
        NESTING,
        None,
    ),
    (
        "tuple-types",
        lambda: (
            "func.func @main(%a: "
            + "tuple<" * 3000
            + "f32"
            + ">" * 3000
            + ") {\n  func.return\n}\n"
        ),
        ("layout-run",),
        NESTING,
        None,
    ),
    (
        "regions",
        lambda: nested_regions(3000),
        ("layout-opt", "--allow-unregistered-dialect"),
        NESTING,
        None,
    ),
    ("loops-1500", lambda: nested_loops(1500), ("layout-run", "--check"), NESTING, None),
    (
        "loops-1500-lower",
        lambda: nested_loops(1500),
        ("layout-opt", "-p", "layout-lower"),
        NESTING,
        None,
    ),
    (
        "floordiv-chain",
        lambda: map_argument("d0" + " floordiv 2" * 3000),
        ("layout-opt",),
        f"nests 3000 operators deep, more than the nesting limit of {MAX_NESTING}; set HETEROLAYOUT_MAX_NESTING to raise it",
        None,
    ),
    (
        "floordiv-chain-run",
        lambda: map_argument("d0" + " floordiv 2" * 3000),
        ("layout-run",),
        "nests 3000 operators deep",
        None,
    ),
    # Below the limit, deep nests work in both engines (the compiled one hands loops nested
    # deeper than Python compiles, 20, to the interpreter) and through the lowering.
    (
        "loops-90",
        lambda: nested_loops(90, trips=2),
        ("layout-run", "--check"),
        None,
        "OK: 5 elements compared",
    ),
    (
        "loops-90-interp",
        lambda: nested_loops(90, trips=2),
        ("layout-run", "--check", "--engine", "interp"),
        None,
        "OK: 5 elements compared",
    ),
    (
        "loops-25-value",
        lambda: nested_loops(25, trips=2),
        ("layout-run", "--seed", "3"),
        None,
        None,
    ),
    (
        "thousands-of-functions",
        lambda: called_functions(1000),
        ("layout-opt", "-p", "layout-lower"),
        None,
        "func.func private @f999(%m: memref<8x8xf32>) -> f32 {",
    ),
    (
        "thousands-of-functions-run",
        lambda: called_functions(1000),
        ("layout-run", "--check"),
        None,
        "OK: 65 elements compared",
    ),
    ("call-chain-1000", lambda: call_chain(1000), ("layout-run",), None, "42"),
    (
        "call-chain-1000-interp",
        lambda: call_chain(1000),
        ("layout-run", "--engine", "interp"),
        None,
        "42",
    ),
    (
        "unit-blocks",
        lambda: unit_blocks(5000),
        ("layout-opt",),
        f"5001 physical dims, more than the limit of {MAX_RANK}",
        None,
    ),
]


@pytest.mark.parametrize(
    ("name", "program", "command", "error", "output"),
    [pytest.param(*g, id=g[0], marks=slow_if_named(g[0])) for g in GENERATED],
)
@pytest.mark.slow
def test_generated(
    tmp_path: Path,
    name: str,
    program: Callable[[], str],
    command: tuple[str, ...],
    error: str | None,
    output: str | None,
) -> None:
    path = tmp_path / f"{name}.mlir"
    path.write_text(program())
    tool, *args = command
    result = run_tool(tool, *args, str(path))
    if error is not None:
        assert_clean_error(result, error, tool)
    elif output is not None:
        assert_answer(result, output)
    else:  # 25 loops, three of them with 2 trips: m[0] + 8, against the interpreter
        assert result.returncode == 0, result.stderr
        (argument,) = random_arguments(find_function(parse_program(path.read_text()), "main"), 3)
        assert float(result.stdout) == pytest.approx(
            float(np.float32(argument[0]) + np.float32(8.0))
        )


@pytest.mark.parametrize("tool", ["layout-opt", "layout-run"])
def test_the_input_limit_is_set_by_its_variable(tmp_path: Path, tool: str, monkeypatch) -> None:
    """The default (`MAX_INPUT_BYTES`, 1 GiB) takes a model's weights; a smaller limit set
    in the environment refuses a 10 MB file before reading it, naming the variable."""
    assert MAX_INPUT_BYTES >= 2**30
    path = tmp_path / "big.mlir"
    path.write_text(big_program(10 * 2**20))
    monkeypatch.setenv("HETEROLAYOUT_MAX_INPUT_BYTES", str(4 * 2**20))
    assert_clean_error(
        run_tool(tool, str(path)),
        "is more than the input limit of 4194304 bytes (4 MiB; set "
        "HETEROLAYOUT_MAX_INPUT_BYTES to raise it)",
        tool,
    )
    monkeypatch.setenv("HETEROLAYOUT_MAX_INPUT_BYTES", "lots")
    assert_clean_error(
        run_tool(tool, str(path)),
        "HETEROLAYOUT_MAX_INPUT_BYTES=lots: expected a positive number of bytes",
        tool,
    )


# ---- layout-explain --------------------------------------------------------------------------
EXPLAIN = [
    (
        "deep-spec",
        ["affine_map<(d0) -> (" + "(" * 3000 + "d0" + ")" * 3000 + ")>", "--shape", "8"],
        PARENTHESES,
        None,
    ),
    (
        "floordiv-chain",
        ["affine_map<(d0) -> (d0" + " floordiv 2" * 3000 + ")>", "--shape", "8"],
        "nests 3000 operators deep",
        None,
    ),
    (
        "huge-block",
        ["W->W99999999999999999999999w", "--shape", "4"],
        "block size 99999999999999999999999",
        None,
    ),
    (
        "huge-extent",
        ["W->W4w", "--shape", "99999999999999999999999"],
        "extent 99999999999999999999999 is too large",
        None,
    ),
    (
        "unit-blocks",
        ["W->W" + "1w" * 5000, "--shape", "8"],
        f"more than the limit of {MAX_RANK}",
        None,
    ),
    (
        "pad-f16",
        ["W->W4w", "--shape", "4", "--dtype", "f16", "--pad", "1e6"],
        "does not fit element type f16",
        None,
    ),
    (
        "pad-infinite",
        ["W->W4w", "--shape", "4", "--dtype", "f32", "--pad", "1e400"],
        "pad inf is not finite",
        None,
    ),
    (
        "pad-f32-overflow",
        ["W->W4w", "--shape", "4", "--dtype", "f32", "--pad", "1e39"],
        "does not fit element type f32",
        None,
    ),
    ("negative-stride", ["strided<[1, -4]>", "--shape", "4x4"], "is negative", None),
    (
        "huge-map",
        ["affine_map<(d0, d1) -> (d0 + d1, d1)>", "--shape", "100000x100000"],
        f"beyond the limit of {MAX_ELEMENTS} points",
        None,
    ),
    (
        "huge-svg",
        ["RC->CR", "--shape", "100000x100000", "--svg", "x.svg"],
        f"--svg: 10000000000 slots are more than the limit of {MAX_ELEMENTS}",
        None,
    ),
    # Valid: huge layouts are explained without their walk; empty ones; the quoted alias.
    (
        "huge-tag",
        ["W->W4w", "--shape", "10000000000"],
        None,
        "memory walk:    not listed: 10000000000 slots are more than the limit",
    ),
    (
        "huge-permutation",
        ["RC->CR", "--shape", "100000x100000", "--dtype", "f32"],
        None,
        "bytes:          40000000000 (f32)",
    ),
    ("zero-size", ["NCHW->nChw8c", "--shape", "2x0x5x4"], None, "physical shape: 2x0x5x4x8"),
    (
        "zero-size-picture",
        ["R4CroutonLayout", "--shape", "1x0x5x30"],
        None,
        "picture:        none (the buffer is empty)",
    ),
    (
        "quoted-alias",
        ['#layout.chunked<"R4CroutonLayout">', "--shape", "1x3x5x30"],
        None,
        "physical shape: 1x1x1x1x8x8x32",
    ),
]


@pytest.mark.parametrize(("name", "args", "error", "output"), EXPLAIN, ids=[e[0] for e in EXPLAIN])
def test_explain(
    tmp_path: Path, name: str, args: list[str], error: str | None, output: str | None
) -> None:
    args = [str(tmp_path / a) if a.endswith(".svg") else a for a in args]
    result = run_tool("layout-explain", *args)
    if error is not None:
        assert_clean_error(result, error, "layout-explain")
        assert not list(tmp_path.iterdir()), "nothing is written on an error"
    else:
        assert output is not None
        assert_answer(result, output)


# ---- the Python API --------------------------------------------------------------------------
LAYOUT = heterolayout.parse_layout("NCHW->nChw8c", (2, 17, 5, 4), dtype="f32")
HUGE = heterolayout.parse_layout("RC->CR", (100000, 100000), dtype="f32")
API: list[tuple[str, Callable[[], object], str]] = [
    ("shape-none", lambda: heterolayout.parse_layout("W->W4w", None), "shape None is not a shape"),  # type: ignore[arg-type]
    ("shape-int", lambda: heterolayout.parse_layout("W->W4w", 5), "shape 5 is not a shape"),  # type: ignore[arg-type]
    (
        "shape-infinite",
        lambda: heterolayout.parse_layout("W->W4w", (float("inf"),)),  # type: ignore[arg-type]
        "'inf' is not an extent",
    ),
    ("shape-bool", lambda: heterolayout.parse_layout("W->W4w", (True,)), "True is not an extent"),
    (
        "shape-rank",
        lambda: heterolayout.parse_layout("affine_map<(d0) -> (d0)>", (1,) * 100),
        f"more than the limit of {MAX_RANK}",
    ),
    (
        "dtype-int",
        lambda: heterolayout.parse_layout("W->W4w", (4,), dtype=5),  # type: ignore[arg-type]
        "is neither a name nor a numpy dtype",
    ),
    ("dtype-none", lambda: heterolayout.element_type(None), "element type None"),  # type: ignore[arg-type]
    (
        "pad-huge-int",
        lambda: heterolayout.parse_layout("W->W4w", (4,), dtype="f32", pad=10**400),
        "does not fit element type f32",
    ),
    (
        "pad-huge-int-i8",
        lambda: heterolayout.parse_layout("W->W4w", (4,), dtype="i8", pad=10**400),
        "does not fit element type i8",
    ),
    (
        "pad-f16",
        lambda: heterolayout.parse_layout("W->W4w", (4,), dtype="f16", pad=1e6),
        "does not fit element type f16",
    ),
    (
        "pad-infinite",
        lambda: heterolayout.parse_layout("W->W4w", (4,), dtype="f32", pad=1e400),
        "is not finite",
    ),
    (
        "pack-int",
        lambda: heterolayout.parse_layout("W->W4w", (4,), pack=5),  # type: ignore[arg-type]
        "pack 5 is not a container type",
    ),
    (
        "parentheses",
        lambda: heterolayout.parse_layout(
            "affine_map<(d0) -> (" + "(" * 3000 + "d0" + ")" * 3000 + ")>", (8,)
        ),
        PARENTHESES,
    ),
    (
        "floordiv-chain",
        lambda: heterolayout.parse_layout(
            "affine_map<(d0) -> (d0" + " floordiv 2" * 3000 + ")>", (8,)
        ),
        "nests 3000 operators deep",
    ),
    (
        "huge-block",
        lambda: heterolayout.parse_layout("W->W99999999999999999999999w", (4,)),
        "is too large",
    ),
    (
        "unit-blocks",
        lambda: heterolayout.parse_layout("W->W" + "1w" * 5000, (8,)),
        f"5001 physical dims, more than the limit of {MAX_RANK}",
    ),
    (
        "huge-map",
        lambda: heterolayout.parse_layout(
            "affine_map<(d0, d1) -> (d0 + d1, d1)>", (100000, 100000)
        ),
        "point by point",
    ),
    (
        "pack-huge",
        lambda: HUGE.pack(np.broadcast_to(np.float32(0), (100000, 100000))),
        f"more than the limit of {MAX_ELEMENTS} slots",
    ),
    (
        "unpack-huge",
        lambda: HUGE.unpack(np.broadcast_to(np.float32(0), (100000, 100000))),
        f"more than the limit of {MAX_ELEMENTS} slots",
    ),
    ("offsets-huge", lambda: HUGE.offsets(), f"more than the limit of {MAX_ELEMENTS} slots"),
    ("offset-float", lambda: LAYOUT.offset((0.5, 0, 0, 0)), "is not a sequence of integers"),  # type: ignore[arg-type]
    ("offset-none", lambda: LAYOUT.offset(None), "is not a sequence of integers"),  # type: ignore[arg-type]
    ("logical-index-none", lambda: LAYOUT.logical_index(None), "offset None is not an integer"),  # type: ignore[arg-type]
    ("specialize-none", lambda: LAYOUT.specialize(None), "is not a sequence of extents"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("name", "call", "fragment"), API, ids=[a[0] for a in API])
def test_python_api(name: str, call: Callable[[], object], fragment: str) -> None:
    with pytest.raises(heterolayout.LayoutError) as error:
        call()
    message = str(error.value)
    assert fragment in message and "\n" not in message and len(message) <= 1200, message[:2000]


def test_huge_layouts_answer_without_enumerating() -> None:
    """Extents and injectivity of digit and strided maps come in closed form: a layout of
    10^10 elements is built at once, and answers index questions."""
    strided = heterolayout.parse_layout("strided<[1, 100000]>", (100000, 100000))
    assert strided.physical_shape == (10**10,)
    assert strided.offset((3, 7)) == 3 + 7 * 100000
    assert HUGE.physical_shape == (100000, 100000) and HUGE.offset((1, 2)) == 2 * 100000 + 1
    tag = heterolayout.parse_layout("W->W4w", (10**10,))
    assert tag.physical_shape == (2_500_000_000, 4) and tag.offset((10**10 - 1,)) == 10**10 - 1


# ---- zero-size dims --------------------------------------------------------------------------
ZERO = [
    # spec, logical shape, physical shape: the rest of an empty dim is 0, blocks keep their size
    ("NCHW->nChw8c", (2, 0, 5, 4), (2, 0, 5, 4, 8)),
    ("NCHW->nChw8c", (0, 17, 5, 4), (0, 3, 5, 4, 8)),
    ("R4CroutonLayout", (1, 0, 5, 30), (1, 0, 1, 1, 8, 8, 32)),
    ('#layout.chunked<"R4CroutonLayout">', (1, 3, 0, 30), (1, 1, 0, 1, 8, 8, 32)),
    # a map's result spans the dims it uses: 0 when one of them is empty
    ("affine_map<(d0, d1) -> (d1, d0)>", (0, 4), (4, 0)),
    ("affine_map<(d0, d1) -> (d1 floordiv 4, d0, d1 mod 4)>", (3, 0), (0, 3, 0)),
    ("#layout.map<affine_map<(d0) -> (d0)>, shape = [4]>", (0,), (4,)),
    # strided: a buffer up to the largest offset; an empty box has none
    ("strided<[8, 1], offset: 5>", (3, 0), (0,)),
    # targets: their own extents (lanes or banks stay)
    ("tpu<lanes = 4, start = 0, stride = aligned>", (1, 0, 2, 2), (4, 0)),
    ("partition<cyclic, dims = [0], factor = 4>", (0,), (4, 0)),
    ('#layout.tag<"RW->RW6w", pack = i6>', (0, 6), (0, 1, 6)),
]


@pytest.mark.parametrize(("spec", "shape", "physical"), ZERO, ids=[f"{z[0]}-{z[1]}" for z in ZERO])
def test_zero_size_dims(spec: str, shape: tuple[int, ...], physical: tuple[int, ...]) -> None:
    dtype = "i1" if "pack" in spec else "f32"
    layout = heterolayout.parse_layout(spec, shape, dtype=dtype)
    assert layout.physical_shape == physical
    assert layout.logical_size == 0 and layout.offsets().shape == shape
    empty = np.zeros(shape, dtype=layout.dtype.numpy_dtype)  # type: ignore[union-attr]
    packed = layout.pack(empty)
    assert packed.shape == layout.storage_shape and layout.unpack(packed).shape == shape
    assert layout.has_pad_slots == (layout.size > 0)


def test_zero_size_program_runs_natively(native_runner) -> None:  # type: ignore[no-untyped-def]
    """The lowered empty buffers are valid upstream: the program runs and prints the
    logical size it read through memref.dim and its empty sum."""
    program = """
func.func private @printI64(i64)
func.func private @printF32(f32)
func.func private @printNewline()
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<2x0x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  %d = memref.dim %a, %c1 : memref<2x0x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  %s = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %d step %c1 iter_args(%acc = %s) -> (f32) {
    %v = memref.load %a[%c0, %i, %c0, %c0] : memref<2x0x5x4xf32, #layout.tag<"NCHW->nChw8c">>
    %w = arith.addf %acc, %v : f32
    scf.yield %w : f32
  }
  memref.dealloc %a : memref<2x0x5x4xf32, #layout.tag<"NCHW->nChw8c">>
  %n = arith.index_cast %d : index to i64
  func.call @printI64(%n) : (i64) -> ()
  func.call @printNewline() : () -> ()
  func.call @printF32(%r) : (f32) -> ()
  func.call @printNewline() : () -> ()
  func.return
}"""
    lowered = str(apply_pipeline(parse_program(program), "layout-lower"))
    assert "memref.alloc() : memref<2x0x5x4x8xf32>" in lowered
    assert native_runner(lowered).split() == ["0", "0"]


@pytest.mark.slow
def test_verification_looks_each_callee_up_once() -> None:
    """Verifying `func.call`s scanned the module for every callee (xDSL's lookup): time
    quadratic in the number of functions, minutes at a few thousand. Counted, not timed: the
    symbol names read while parsing and verifying 400 functions and calls stay linear."""
    from xdsl.traits import SymbolOpInterface

    reads = 0
    original = SymbolOpInterface.get_sym_attr_name

    def counted(self, op):  # type: ignore[no-untyped-def]
        nonlocal reads
        reads += 1
        return original(self, op)

    SymbolOpInterface.get_sym_attr_name = counted  # type: ignore[method-assign]
    try:
        module = parse_program(called_functions(400))
        heterolayout.run(module, args=(np.zeros(64, np.float32),), engine="interp")
        apply_pipeline(module, "layout-lower")
    finally:
        SymbolOpInterface.get_sym_attr_name = original  # type: ignore[method-assign]
    assert reads < 10 * 400, reads  # a scan per call would read about 400 * 400 / 2


@pytest.mark.parametrize("name", ["f16", "f32"])
def test_float_pads_are_refused_where_they_round_to_infinity(name: str) -> None:
    """Accepted up to the last value numpy rounds to a finite one, refused from there on."""
    numpy_type = {"f16": np.float16, "f32": np.float32}[name]
    largest = numpy_type(np.finfo(numpy_type).max)
    step = float(largest) - float(np.nextafter(largest, numpy_type(0)))
    threshold = float(largest) + step / 2
    below = float(np.nextafter(threshold, 0.0))
    with np.errstate(over="ignore"):
        assert np.isfinite(numpy_type(below)) and np.isinf(numpy_type(threshold))
    heterolayout.parse_layout("W->W4w", (3,), dtype=name, pad=-below)
    with pytest.raises(heterolayout.LayoutError, match=f"does not fit element type {name}"):
        heterolayout.parse_layout("W->W4w", (3,), dtype=name, pad=threshold)


def test_the_nesting_limits_are_raised_by_their_variables(monkeypatch) -> None:
    deep = "affine_map<(d0) -> (" + "(" * 1500 + "d0" + ")" * 1500 + ")>"
    grouped = "affine_map<(d0) -> (" + "(" * 150 + "d0" + " floordiv 2)" * 150 + ", d0)>"
    for spec, fragment in ((deep, PARENTHESES), (grouped, "nests 150 operators deep")):
        with pytest.raises(heterolayout.LayoutError, match=re.escape(fragment)):
            heterolayout.parse_layout(spec, (8,))
    monkeypatch.setenv("HETEROLAYOUT_MAX_MAP_PARENTHESES", "2000")
    monkeypatch.setenv("HETEROLAYOUT_MAX_NESTING", "150")
    assert heterolayout.parse_layout(deep, (8,)).physical_shape == (8,)
    assert heterolayout.parse_layout(grouped, (8,)).physical_shape == (1, 8)
    monkeypatch.setenv("HETEROLAYOUT_MAX_NESTING", "many")
    with pytest.raises(heterolayout.LayoutError, match="HETEROLAYOUT_MAX_NESTING=many: expected"):
        heterolayout.parse_layout("W->W4w", (8,))


def test_the_slow_cases_exist() -> None:
    names = {case.path.stem for case in cases()} | {g[0] for g in GENERATED}
    assert sorted(SLOW - names) == []
