"""memref.dealloc frees a buffer for good: a later store, copy, convert, dim or (in the
interpreter) load is a one-line error naming the op; the compiled engine's inlined scalar
loads read poison (NaN, or the low bytes of 0xDEADBEEFDEADBEEF), which `check` reports as a
mismatch. Double deallocs and deallocs of arguments, globals and allocas are errors too."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout import check, run
from heterolayout.dialects.context import parse_program
from heterolayout.execution import ExecutionError
from heterolayout.tools.run import main

ENGINES = ("interp", "compiled")
PLAIN = "memref<8xf32>"
TAGGED = 'memref<16xf32, #layout.tag<"W->W4w">>'


def program(body: str, result: str = "", args: str = "") -> str:
    """`@main` with constants %c0, %c1, %f (2.5 : f32), %v (vector<4xf32> of 2.5) and
    %m, a freshly allocated memref<8xf32>; `body` is its lines after those (line 7 on)."""
    returns = f" -> {result}" if result else ""
    return f"""func.func @main({args}){returns} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.5 : f32
  %v = arith.constant dense<2.5> : vector<4xf32>
  %m = memref.alloc() : {PLAIN}
{body}
}}"""


def error_of(text: str, engine: str, args: tuple = ()) -> str:
    with pytest.raises(ExecutionError) as caught:
        run(parse_program(text, "prog.mlir"), "main", args, engine=engine)
    message = str(caught.value)
    assert "\n" not in message
    return message


# ---- stores into a freed buffer: an error in both engines --------------------------------------
STORES = {
    "memref.store": "memref.store %f, %m[%c1] : memref<8xf32>",
    "affine.store": "affine.store %f, %m[3] : memref<8xf32>",
    "vector.store": "vector.store %v, %m[%c0] : memref<8xf32>, vector<4xf32>",
    "affine.vector_store": "affine.vector_store %v, %m[4] : memref<8xf32>, vector<4xf32>",
    "memref.copy": '"memref.copy"(%a, %m) : (memref<8xf32>, memref<8xf32>) -> ()',
    "layout.convert": "layout.convert %a to %m : memref<8xf32> to memref<8xf32>",
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("op", sorted(STORES))
def test_store_after_dealloc_is_an_error(engine: str, op: str) -> None:
    text = program(
        f"  memref.dealloc %m : {PLAIN}\n  {STORES[op]}\n  func.return", args=f"%a: {PLAIN}"
    )
    message = error_of(text, engine, (np.ones(8, np.float32),))
    assert message == f"use of a deallocated memref in {op} at prog.mlir:8:3"


@pytest.mark.parametrize("engine", ENGINES)
def test_store_in_a_callee_names_the_callee_store(engine: str) -> None:
    # The compiled engine finds the place of an inlined store by the generated line that
    # failed: it must be the innermost function's.
    text = f"""func.func @fill(%m: {PLAIN}, %i: index) {{
  %f = arith.constant 1.0 : f32
  memref.store %f, %m[%i] : {PLAIN}
  func.return
}}
func.func @main() {{
  %c2 = arith.constant 2 : index
  %m = memref.alloc() : {PLAIN}
  func.call @fill(%m, %c2) : ({PLAIN}, index) -> ()
  memref.dealloc %m : {PLAIN}
  func.call @fill(%m, %c2) : ({PLAIN}, index) -> ()
  func.return
}}"""
    assert error_of(text, engine) == "use of a deallocated memref in memref.store at prog.mlir:3:3"


@pytest.mark.parametrize("engine", ENGINES)
def test_store_in_a_loop_after_dealloc_is_an_error(engine: str) -> None:
    text = program(
        f"""  memref.dealloc %m : {PLAIN}
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {{
    memref.store %f, %m[%i] : {PLAIN}
  }}
  func.return"""
    )
    assert error_of(text, engine) == "use of a deallocated memref in memref.store at prog.mlir:10:5"


# ---- reads of a freed buffer --------------------------------------------------------------------
READS = {
    "memref.load": ("%r = memref.load %m[%c1] : memref<8xf32>", "f32"),
    "affine.load": ("%r = affine.load %m[1] : memref<8xf32>", "f32"),
    "vector.load": ("%r = vector.load %m[%c0] : memref<8xf32>, vector<4xf32>", "vector<4xf32>"),
    "affine.vector_load": (
        "%r = affine.vector_load %m[0] : memref<8xf32>, vector<4xf32>",
        "vector<4xf32>",
    ),
    "memref.dim": ("%r = memref.dim %m, %c0 : memref<8xf32>", "index"),
    "memref.rank": ('%r = "memref.rank"(%m) : (memref<8xf32>) -> index', "index"),
}
INLINED_IN_COMPILED = {"memref.load", "affine.load"}
"""Scalar loads the compiled engine inlines as numpy indexing: they read the poison."""


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("op", sorted(READS))
def test_read_after_dealloc_raises_or_reads_poison(engine: str, op: str) -> None:
    line, result = READS[op]
    text = program(
        f"  memref.store %f, %m[%c1] : {PLAIN}\n  memref.dealloc %m : {PLAIN}\n  {line}\n  func.return %r : {result}",
        result,
    )
    if engine == "compiled" and op in INLINED_IN_COMPILED:
        (value,) = run(parse_program(text), engine=engine)
        assert np.isnan(value)  # not the 2.5 stored before the dealloc
        return
    assert error_of(text, engine) == f"use of a deallocated memref in {op} at prog.mlir:9:3"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("op", ["memref.copy", "layout.convert"])
def test_copy_from_a_freed_buffer_is_an_error(engine: str, op: str) -> None:
    copy = STORES[op].replace("(%a, %m)", "(%m, %a)").replace("%a to %m", "%m to %a")
    text = program(f"  memref.dealloc %m : {PLAIN}\n  {copy}\n  func.return", args=f"%a: {PLAIN}")
    assert (
        error_of(text, engine, (np.ones(8, np.float32),))
        == f"use of a deallocated memref in {op} at prog.mlir:8:3"
    )


@pytest.mark.parametrize(
    ("element", "poison"),
    [
        ("i8", -17),
        ("i16", -16657),
        ("i32", -559038737),
        ("i64", -2401053088876216593),
        ("index", -2401053088876216593),
    ],
)
def test_compiled_integer_loads_of_freed_memory_read_the_poison_pattern(
    element: str, poison: int
) -> None:
    # Each is the low bytes of 0xDEADBEEFDEADBEEF, read as a signed number.
    text = f"""func.func @main() -> {element} {{
  %c1 = arith.constant 1 : index
  %k = arith.constant 7 : {element}
  %m = memref.alloc() : memref<4x{element}>
  memref.store %k, %m[%c1] : memref<4x{element}>
  memref.dealloc %m : memref<4x{element}>
  %r = memref.load %m[%c1] : memref<4x{element}>
  func.return %r : {element}
}}"""
    assert tuple(run(text, engine="compiled")) == (poison,)
    assert error_of(text, "interp") == "use of a deallocated memref in memref.load at prog.mlir:7:3"


# ---- check: a lowering that frees a buffer too early --------------------------------------------
EARLY_FREE = f"""func.func @main(%a: {PLAIN}) -> f32 {{
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : {PLAIN}
  "memref.copy"(%a, %t) : ({PLAIN}, {PLAIN}) -> ()
  %r = memref.load %t[%c1] : {PLAIN}
  memref.dealloc %t : {PLAIN}
  func.return %r : f32
}}"""


@dataclass(frozen=True)
class DeallocEarly(ModulePass):
    """A planted lowering bug: the first memref.dealloc moves before the first memref.load."""

    name = "test-dealloc-early"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        dealloc = next(o for o in op.walk() if isinstance(o, memref.DeallocOp))
        load = next(o for o in op.walk() if isinstance(o, memref.LoadOp))
        dealloc.detach()
        Rewriter.insert_op(dealloc, InsertPoint.before(load))


def test_check_reports_a_load_of_freed_memory_as_a_mismatch_in_the_compiled_engine() -> None:
    report = check(parse_program(EARLY_FREE, "prog.mlir"), [DeallocEarly()], engine="compiled")
    assert not report.equal
    assert report.mismatch is not None and report.mismatch.what == "result 0"
    assert not np.isnan(report.mismatch.expected) and np.isnan(report.mismatch.actual)


def test_check_reports_a_load_of_freed_memory_as_an_error_in_the_interpreter() -> None:
    with pytest.raises(ExecutionError) as caught:
        check(parse_program(EARLY_FREE, "prog.mlir"), [DeallocEarly()], engine="interp")
    assert str(caught.value) == "use of a deallocated memref in memref.load at prog.mlir:5:3"


@pytest.mark.parametrize("engine", ENGINES)
def test_check_accepts_the_program_freeing_in_time(engine: str) -> None:
    report = check(EARLY_FREE, "canonicalize", engine=engine)
    assert report.equal, str(report)


# ---- double and invalid deallocs ----------------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
def test_double_dealloc_is_an_error(engine: str) -> None:
    text = program(f"  memref.dealloc %m : {PLAIN}\n  memref.dealloc %m : {PLAIN}\n  func.return")
    assert (
        error_of(text, engine)
        == "double dealloc in memref.dealloc at prog.mlir:8:3: the memref is already deallocated"
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_dealloc_in_a_loop_of_a_buffer_from_outside_is_a_double_dealloc(engine: str) -> None:
    text = program(
        f"""  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {{
    memref.dealloc %m : {PLAIN}
  }}
  func.return"""
    )
    assert (
        error_of(text, engine)
        == "double dealloc in memref.dealloc at prog.mlir:9:5: the memref is already deallocated"
    )


CAST = '%d = "memref.cast"(%m) : (memref<8xf32>) -> memref<?xf32>'


@pytest.mark.parametrize("engine", ENGINES)
def test_dealloc_through_a_cast_frees_the_original(engine: str) -> None:
    text = program(
        f"  memref.store %f, %m[%c1] : {PLAIN}\n  {CAST}\n  memref.dealloc %d : memref<?xf32>\n"
        f"  %r = memref.load %m[%c1] : {PLAIN}\n  func.return %r : f32",
        "f32",
    )
    if engine == "compiled":
        (value,) = run(parse_program(text), engine=engine)
        assert np.isnan(value)
    else:
        assert (
            error_of(text, engine) == "use of a deallocated memref in memref.load at prog.mlir:10:3"
        )
    stored = program(
        f"  {CAST}\n  memref.dealloc %d : memref<?xf32>\n  memref.store %f, %m[%c0] : {PLAIN}\n  func.return"
    )
    assert (
        error_of(stored, engine) == "use of a deallocated memref in memref.store at prog.mlir:9:3"
    )
    twice = program(
        f"  {CAST}\n  memref.dealloc %d : memref<?xf32>\n  memref.dealloc %m : {PLAIN}\n  func.return"
    )
    assert (
        error_of(twice, engine)
        == "double dealloc in memref.dealloc at prog.mlir:9:3: the memref is already deallocated"
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_dealloc_of_the_original_frees_the_cast(engine: str) -> None:
    text = program(
        f"  {CAST}\n  memref.dealloc %m : {PLAIN}\n  memref.store %f, %d[%c0] : memref<?xf32>\n  func.return"
    )
    assert error_of(text, engine) == "use of a deallocated memref in memref.store at prog.mlir:9:3"
    dim = program(
        f"  {CAST}\n  memref.dealloc %m : {PLAIN}\n  %n = memref.dim %d, %c0 : memref<?xf32>\n  func.return"
    )
    assert error_of(dim, engine) == "use of a deallocated memref in memref.dim at prog.mlir:9:3"


@pytest.mark.parametrize("engine", ENGINES)
def test_dealloc_of_an_argument_is_an_error_and_leaves_the_argument_alone(engine: str) -> None:
    text = f"""func.func @main(%a: {PLAIN}) {{
  memref.dealloc %a : {PLAIN}
  func.return
}}"""
    argument = np.arange(8, dtype=np.float32)
    message = error_of(text, engine, (argument,))
    assert (
        message
        == "invalid dealloc in memref.dealloc at prog.mlir:2:3: the memref is argument 0 of @main, which the caller owns"
    )
    assert argument.flags.writeable and argument.tolist() == list(range(8))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_callee_may_free_what_its_caller_allocated(engine: str) -> None:
    text = f"""func.func @consume(%a: {PLAIN}) -> f32 {{
  %c3 = arith.constant 3 : index
  %r = memref.load %a[%c3] : {PLAIN}
  memref.dealloc %a : {PLAIN}
  func.return %r : f32
}}
func.func @main(%x: {PLAIN}) -> f32 {{
  %t = memref.alloc() : {PLAIN}
  "memref.copy"(%x, %t) : ({PLAIN}, {PLAIN}) -> ()
  %r = func.call @consume(%t) : ({PLAIN}) -> f32
  func.return %r : f32
}}"""
    assert tuple(run(text, args=(np.arange(8, dtype=np.float32),), engine=engine)) == (3.0,)


@pytest.mark.parametrize("engine", ENGINES)
def test_dealloc_of_a_global_or_an_alloca_is_an_error(engine: str) -> None:
    text = f""""memref.global"() <{{sym_name = "g", sym_visibility = "private", type = {PLAIN}, initial_value = dense<1.0> : tensor<8xf32>}}> : () -> ()
func.func @main() {{
  %g = memref.get_global @g : {PLAIN}
  memref.dealloc %g : {PLAIN}
  func.return
}}"""
    assert (
        error_of(text, engine)
        == "invalid dealloc in memref.dealloc at prog.mlir:4:3: the memref is the buffer of memref.global @g"
    )
    text = f"""func.func @main() {{
  %s = memref.alloca() : {PLAIN}
  memref.dealloc %s : {PLAIN}
  func.return
}}"""
    assert (
        error_of(text, engine)
        == "invalid dealloc in memref.dealloc at prog.mlir:3:3: the memref comes from memref.alloca"
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_returning_a_freed_buffer_is_an_error(engine: str) -> None:
    text = program(f"  memref.dealloc %m : {PLAIN}\n  func.return %m : {PLAIN}", PLAIN)
    assert error_of(text, engine) == "@main returns a deallocated memref (result 0)"


@pytest.mark.parametrize("engine", ENGINES)
def test_printing_a_freed_buffer_is_an_error(engine: str) -> None:
    text = f"""func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {{
  %m = memref.alloc() : {PLAIN}
  %u = "memref.cast"(%m) : ({PLAIN}) -> memref<*xf32>
  memref.dealloc %m : {PLAIN}
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  func.return
}}"""
    assert error_of(text, engine) == "use of a deallocated memref in a call of @printMemrefF32"


# ---- layout-typed buffers (the unlowered program) -----------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
def test_a_freed_layout_buffer_cannot_be_read_or_written(engine: str) -> None:
    def tagged(lines: str, result: str = "") -> str:
        returns = f" -> {result}" if result else ""
        return f"""func.func @main(%a: memref<16xf32>){returns} {{
  %c5 = arith.constant 5 : index
  %f = arith.constant 2.5 : f32
  %m = memref.alloc() : {TAGGED}
  memref.store %f, %m[%c5] : {TAGGED}
  memref.dealloc %m : {TAGGED}
{lines}
}}"""

    argument = (np.ones(16, np.float32),)
    load = tagged(f"  %r = memref.load %m[%c5] : {TAGGED}\n  func.return %r : f32", "f32")
    assert (
        error_of(load, engine, argument)
        == "use of a deallocated memref in memref.load at prog.mlir:7:3"
    )
    vector = tagged(
        f"  %r = vector.load %m[%c5] : {TAGGED}, vector<4xf32>\n  func.return %r : vector<4xf32>",
        "vector<4xf32>",
    )
    assert (
        error_of(vector, engine, argument)
        == "use of a deallocated memref in vector.load at prog.mlir:7:3"
    )
    store = tagged(f"  memref.store %f, %m[%c5] : {TAGGED}\n  func.return")
    assert (
        error_of(store, engine, argument)
        == "use of a deallocated memref in memref.store at prog.mlir:7:3"
    )
    convert = tagged(f"  layout.convert %m to %a : {TAGGED} to memref<16xf32>\n  func.return")
    assert (
        error_of(convert, engine, argument)
        == "use of a deallocated memref in layout.convert at prog.mlir:7:3"
    )
    twice = tagged(f"  memref.dealloc %m : {TAGGED}\n  func.return")
    assert (
        error_of(twice, engine, argument)
        == "double dealloc in memref.dealloc at prog.mlir:7:3: the memref is already deallocated"
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_check_of_an_unlowered_program_reading_a_freed_layout_buffer_is_an_error(
    engine: str,
) -> None:
    text = f"""func.func @main(%a: memref<16xf32>) -> f32 {{
  %c5 = arith.constant 5 : index
  %m = memref.alloc() : {TAGGED}
  layout.convert %a to %m : memref<16xf32> to {TAGGED}
  memref.dealloc %m : {TAGGED}
  %r = memref.load %m[%c5] : {TAGGED}
  func.return %r : f32
}}"""
    with pytest.raises(ExecutionError) as caught:
        check(parse_program(text, "prog.mlir"), engine=engine)
    assert str(caught.value) == "use of a deallocated memref in memref.load at prog.mlir:6:3"


# ---- correct programs still run -------------------------------------------------------------------
CORRECT = f"""func.func @main(%a: memref<8xf32>, %b: memref<8xf32>) -> f32 {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : {TAGGED}
  %p = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {{
    %x = memref.load %a[%i] : memref<8xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %p[%i] : memref<8xf32>
    %s = memref.alloca() : memref<1xf32>
    memref.store %y, %s[%c0] : memref<1xf32>
    %q = memref.alloc() : memref<1xf32>
    memref.store %one, %q[%c0] : memref<1xf32>
    %o = memref.load %q[%c0] : memref<1xf32>
    memref.dealloc %q : memref<1xf32>
    %z = memref.load %s[%c0] : memref<1xf32>
    %w = arith.addf %z, %o : f32
    memref.store %w, %t[%i] : {TAGGED}
  }}
  memref.dealloc %p : memref<8xf32>
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {{
    %w = memref.load %t[%i] : {TAGGED}
    memref.store %w, %b[%i] : memref<8xf32>
    %next = arith.addf %acc, %w : f32
    scf.yield %next : f32
  }}
  memref.dealloc %t : {TAGGED}
  func.return %sum : f32
}}"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_correct_program_with_alloc_use_dealloc_runs(engine: str) -> None:
    a = np.linspace(-1.0, 1.0, 8, dtype=np.float32)
    b = np.zeros(8, np.float32)
    (total,) = run(CORRECT, args=(a, b), engine=engine)
    expected = a * np.float32(2.0) + np.float32(1.0)
    np.testing.assert_array_equal(b, expected)
    running = np.float32(0.0)
    for value in expected:
        running = np.float32(running + value)
    assert total == float(running)
    assert check(CORRECT, "layout-lower", engine=engine).equal


@pytest.mark.parametrize("engine", ENGINES)
def test_a_read_only_argument_is_copied_not_taken_for_a_freed_buffer(engine: str) -> None:
    text = f"""func.func @main(%a: {PLAIN}) -> f32 {{
  %c1 = arith.constant 1 : index
  %f = arith.constant 4.0 : f32
  memref.store %f, %a[%c1] : {PLAIN}
  %r = memref.load %a[%c1] : {PLAIN}
  func.return %r : f32
}}"""
    argument = np.zeros(8, np.float32)
    argument.flags.writeable = False
    assert tuple(run(text, args=(argument,), engine=engine)) == (4.0,)
    assert argument.tolist() == [0.0] * 8  # a read-only array does not see the writes


# ---- layout-run -----------------------------------------------------------------------------------
USE_AFTER_FREE = program(
    f"  memref.dealloc %m : {PLAIN}\n  memref.store %f, %m[%c1] : {PLAIN}\n  func.return"
)


@pytest.mark.parametrize("engine", ENGINES)
def test_layout_run_reports_use_after_free_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str
) -> None:
    path = tmp_path / "uaf.mlir"
    path.write_text(USE_AFTER_FREE)
    code = main([str(path), "--engine", engine])
    captured = capsys.readouterr()
    assert (code, captured.out) == (1, "")
    assert (
        captured.err
        == f"layout-run: error: use of a deallocated memref in memref.store at {path}:8:3\n"
    )


def test_layout_run_use_after_free_has_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "uaf.mlir"
    path.write_text(USE_AFTER_FREE)
    result = subprocess.run(
        [sys.executable, "-m", "heterolayout.tools.run", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1 and result.stdout == ""
    assert (
        result.stderr
        == f"layout-run: error: use of a deallocated memref in memref.store at {path}:8:3\n"
    )
