"""The native engine: values across the C boundary, results, the library cache, errors, the
reference side of `--check`, and the Python API (`heterolayout.execution.native`).

Values are checked against the compiled engine running the same program (and against
numbers written down here); every test needs MLIR 22 (skipped visibly without it, failed
under CI=true).
"""

from __future__ import annotations

import io
import json
import math
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest

import heterolayout
import heterolayout.execution.native as native
from heterolayout.dialects.context import parse_program
from heterolayout.execution import ExecutionError
from heterolayout.execution.comparison import reference_engine_for
from heterolayout.execution.native import build
from heterolayout.layout.element_types import element_type
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.passes.schedule.layout_schedule import host_target
from tests.planted_bugs import SwapStoreIndices

pytestmark = pytest.mark.usefixtures("native_engine")


def both(text: str, args: list, entry: str = "main") -> tuple:
    """Results and arguments after the call, in the compiled and the native engine."""
    outcomes = []
    for engine in ("compiled", "native"):
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        results = heterolayout.run(text, entry, copies, engine=engine)
        outcomes.append((results, copies))
    return outcomes[0], outcomes[1]


def assert_same(left: tuple, right: tuple) -> None:
    for a, b in zip([*left[0], *left[1]], [*right[0], *right[1]], strict=True):
        if isinstance(a, np.ndarray):
            assert a.dtype == np.asarray(b).dtype and np.array_equal(a, b), (a, b)
        else:
            assert a == b and type(a) is type(b), (a, b)


# ---- scalars, vectors and memrefs across the boundary ------------------------------------------
SCALARS = """
func.func @main(%a: i1, %b: i4, %c: i8, %d: i16, %e: i32, %f: i64, %g: index, %h: f16,
                %i: f32, %j: f64) -> (i1, i4, i8, i16, i32, i64, index, f16, f32, f64) {
  %t = arith.constant true
  %one4 = arith.constant 1 : i4
  %a2 = arith.xori %a, %t : i1
  %b2 = arith.addi %b, %one4 : i4
  %c2 = arith.muli %c, %c : i8
  %d2 = arith.subi %d, %d : i16
  %e2 = arith.addi %e, %e : i32
  %f2 = arith.addi %f, %f : i64
  %g2 = arith.addi %g, %g : index
  %h2 = arith.addf %h, %h : f16
  %i2 = arith.mulf %i, %i : f32
  %j2 = arith.divf %j, %i2 : f64
  func.return %a2, %b2, %c2, %d2, %e2, %f2, %g2, %h2, %i2, %j2 : i1, i4, i8, i16, i32, i64, index, f16, f32, f64
}
"""


def test_scalars_of_every_width_cross_both_ways() -> None:
    text = SCALARS.replace("%j2 = arith.divf %j, %i2 : f64", "%j2 = arith.addf %j, %j : f64")
    args = [1, -8, -7, 12345, -(2**31), 2**62, 7, 1.5, 0.1, -2.5]
    compiled, natively = both(text, args)
    assert_same(compiled, natively)
    assert list(natively[0]) == [0, -7, 49, 0, 0, -(2**63), 14, 3.0, 0.010000000707805157, -5.0]


VECTORS = """
func.func @main(%v: vector<4xf32>, %m: vector<2x3xi16>, %b: vector<8xi1>, %n: vector<3xi4>)
    -> (vector<4xf32>, vector<2x3xi16>, vector<8xi1>, vector<3xi4>) {
  %w = arith.addf %v, %v : vector<4xf32>
  %k = arith.muli %m, %m : vector<2x3xi16>
  %t = arith.constant dense<true> : vector<8xi1>
  %c = arith.xori %b, %t : vector<8xi1>
  %o = arith.addi %n, %n : vector<3xi4>
  func.return %w, %k, %c, %o : vector<4xf32>, vector<2x3xi16>, vector<8xi1>, vector<3xi4>
}
"""


def test_vectors_cross_with_padding_and_packed_bits() -> None:
    args = [
        np.array([1.5, -2, 0.25, 3], np.float32),
        np.array([[1, -2, 3], [300, 5, -6]], np.int16),
        np.array([1, 0, 0, 1, 1, 0, 1, 0], np.uint8),
        np.array([3, -4, 7], np.int8),
    ]
    compiled, natively = both(VECTORS, args)
    assert_same(compiled, natively)
    assert natively[0][2].tolist() == [0, 1, 1, 0, 0, 1, 0, 1]
    assert natively[0][3].tolist() == [6, -8, -2]


MEMREFS = """
"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<3xi32>, initial_value = dense<[7, 8, 9]> : tensor<3xi32>, constant}> : () -> ()
func.func @main(%x: memref<?x3xf32>, %n: memref<5xi4>, %w: memref<2xvector<6xi1>>)
    -> (memref<2x2xf64>, memref<?x3xf32>, memref<3xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %v = memref.load %x[%c1, %c1] : memref<?x3xf32>
  %s = arith.addf %v, %one : f32
  memref.store %s, %x[%c0, %c0] : memref<?x3xf32>
  %four = arith.constant 4 : i4
  %m = memref.load %n[%c1] : memref<5xi4>
  %m2 = arith.addi %m, %four : i4
  memref.store %m2, %n[%c0] : memref<5xi4>
  %lanes = memref.load %w[%c1] : memref<2xvector<6xi1>>
  memref.store %lanes, %w[%c0] : memref<2xvector<6xi1>>
  %fresh = memref.alloc() : memref<2x2xf64>
  %d = arith.constant 2.5 : f64
  memref.store %d, %fresh[%c1, %c0] : memref<2x2xf64>
  memref.store %d, %fresh[%c0, %c0] : memref<2x2xf64>
  memref.store %d, %fresh[%c0, %c1] : memref<2x2xf64>
  memref.store %d, %fresh[%c1, %c1] : memref<2x2xf64>
  %g = memref.get_global @table : memref<3xi32>
  func.return %fresh, %x, %g : memref<2x2xf64>, memref<?x3xf32>, memref<3xi32>
}
"""


def test_memref_arguments_are_written_in_place_and_results_come_back() -> None:
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    n = np.array([0, -3, 5, -8, 7], np.int8)
    w = np.array([[1, 0, 1, 0, 1, 0], [0, 1, 1, 0, 0, 1]], np.uint8)
    compiled, natively = both(MEMREFS, [x, n, w])
    assert_same(compiled, natively)
    results, (x_after, n_after, w_after) = natively
    assert x_after[0, 0] == 5.0 and n_after[0] == 1 and w_after[0].tolist() == [0, 1, 1, 0, 0, 1]
    assert results[0].tolist() == [[2.5, 2.5], [2.5, 2.5]]
    assert np.array_equal(results[1], x_after) and results[2].tolist() == [7, 8, 9]


def stripped(text: str) -> str:
    """`layout-strip`'s form of a program: its vector accesses to sub-byte elements go through
    the memref's bytes (`passes.packed.sub_byte_accesses`), which both engines run as written."""
    return str(apply_pipeline(parse_program(text), "layout-strip"))


def test_vector_accesses_to_sub_byte_memrefs_see_one_element_per_byte() -> None:
    text = stripped("""func.func @main(%m: memref<2x8xi2>) -> vector<4xi2> {
  %c1 = arith.constant 1 : index
  %v = affine.vector_load %m[1, 2] : memref<2x8xi2>, vector<4xi2>
  %w = vector.load %m[%c1, %c1] : memref<2x8xi2>, vector<4xi2>
  %s = arith.addi %v, %w : vector<4xi2>
  affine.vector_store %s, %m[0, 4] : memref<2x8xi2>, vector<4xi2>
  func.return %v : vector<4xi2>
}""")
    assert "affine.vector_load %0[1, 2] : memref<2x8xi8>, vector<4xi8>" in text
    m = np.array([[0, 1, -2, -1, 0, 1, -2, -1], [1, -1, 0, 1, -2, -1, 1, 0]], np.int8)
    compiled, natively = both(text, [m])
    assert_same(compiled, natively)
    assert natively[0][0].tolist() == [0, 1, -2, -1]
    assert natively[1][0][0].tolist() == [
        0,
        1,
        -2,
        -1,
        -1,
        1,
        -1,
        1,
    ]  # (-1) + (-2) wraps to 1 in i2


WIDE_NARROW = """func.func @main(%m: memref<2x16xi1>, %n: memref<3x5xi12>) -> vector<8xi1> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %v = vector.load %m[%c1, %c3] : memref<2x16xi1>, vector<8xi1>
  %t = arith.constant dense<true> : vector<8xi1>
  %x = arith.xori %v, %t : vector<8xi1>
  vector.store %x, %m[%c0, %c1] {nontemporal = true} : memref<2x16xi1>, vector<8xi1>
  %w = affine.vector_load %n[2, 1] : memref<3x5xi12>, vector<4xi12>
  %s = arith.addi %w, %w : vector<4xi12>
  affine.vector_store %s, %n[0, 0] : memref<3x5xi12>, vector<4xi12>
  func.return %v : vector<8xi1>
}"""


def test_sub_byte_vector_accesses_stay_whole_vectors_of_bytes() -> None:
    """i1 and i12 vectors load and store as i8 and i16 vectors (no lane-by-lane accesses),
    with the values numpy gives (i12 wraps at 2^11)."""
    text = stripped(WIDE_NARROW)
    assert "memref.load" not in text and "memref.store" not in text
    assert "vector.load %1[%c1, %c3] : memref<2x16xi8>, vector<8xi8>" in text
    assert "arith.extui %s : vector<4xi12> to vector<4xi16>" in text
    rng = np.random.default_rng(5)
    m = rng.integers(0, 2, (2, 16)).astype(bool)
    n = rng.integers(-2048, 2048, (3, 5)).astype(np.int16)
    compiled, natively = both(text, [m, n])
    assert_same(compiled, natively)
    results, (m_after, n_after) = natively
    assert results[0].astype(bool).tolist() == m[1, 3:11].tolist()
    expected_m, expected_n = m.copy(), n.copy()
    expected_m[0, 1:9] = ~m[1, 3:11]
    expected_n[0, :4] = (2 * n[2, 1:5].astype(np.int32) + 2048) % 4096 - 2048
    assert (
        m_after.astype(bool).tolist() == expected_m.tolist()
        and n_after.tolist() == expected_n.tolist()
    )


BIT_VECTORS = """func.func @main(%m: memref<3x2xvector<6xi1>>, %n: memref<4xvector<3xi2>>) -> vector<6xi1> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %v = memref.load %m[%c2, %c0] : memref<3x2xvector<6xi1>>
  %t = arith.constant dense<[true, false, true, false, true, false]> : vector<6xi1>
  %x = arith.xori %v, %t : vector<6xi1>
  affine.store %x, %m[0, 1] : memref<3x2xvector<6xi1>>
  %w = affine.load %n[3] : memref<4xvector<3xi2>>
  %s = arith.addi %w, %w : vector<3xi2>
  memref.store %s, %n[%c0] : memref<4xvector<3xi2>>
  func.return %v : vector<6xi1>
}"""


def test_memrefs_of_bit_vectors_are_accessed_a_word_at_a_time() -> None:
    """`pack = vector<6xi1>` containers: each element access is one byte load or store
    (LLVM's x86 backend otherwise moves such vectors bit by bit), values as numpy's."""
    text = stripped(BIT_VECTORS)
    assert "memref<3x2xvector<6xi1>> to memref<3x2xi8>" in text
    assert "memref<4xvector<3xi2>> to memref<4xi8>" in text
    assert text.count(": i8 to i6") == 2 and text.count(": i6 to i8") == 2
    assert "vector.extract %" in text and "from_elements" not in text
    rng = np.random.default_rng(11)
    m = rng.integers(0, 2, (3, 2, 6)).astype(bool)
    n = rng.integers(-2, 2, (4, 3)).astype(np.int8)
    compiled, natively = both(text, [m, n])
    assert_same(compiled, natively)
    results, (m_after, n_after) = natively
    assert results[0].astype(bool).tolist() == m[2, 0].tolist()
    expected_m, expected_n = m.copy(), n.copy()
    expected_m[0, 1] = m[2, 0] ^ np.array([1, 0, 1, 0, 1, 0], bool)
    expected_n[0] = (2 * n[3].astype(np.int32) + 2) % 4 - 2
    assert m_after.astype(bool).tolist() == expected_m.tolist()
    assert n_after.tolist() == expected_n.tolist()


WIDE_BIT_VECTORS = """func.func @main(%m: memref<3xvector<6xi12>>, %n: memref<2xvector<24xi3>>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %v = memref.load %m[%c2] : memref<3xvector<6xi12>>
  %s = arith.addi %v, %v : vector<6xi12>
  memref.store %s, %m[%c0] : memref<3xvector<6xi12>>
  %k = arith.constant dense<[-2048, 2047, -1, 5, 0, 1]> : vector<6xi12>
  affine.store %k, %m[1] : memref<3xvector<6xi12>>
  %w = affine.load %n[1] : memref<2xvector<24xi3>>
  %x = arith.subi %w, %w : vector<24xi3>
  %y = arith.subi %x, %w : vector<24xi3>
  memref.store %y, %n[%c0] : memref<2xvector<24xi3>>
  func.return
}"""


def test_memrefs_of_bit_vectors_over_64_bits_are_accessed_as_i64_words() -> None:
    """`pack = vector<6xi12>` containers (72 bits, allocated 16 bytes) go through the
    memref viewed as `vector<2xi64>`, lanes shifted out of and into the words (LLVM 22's x86
    backend loads and stores these vectors wrong itself); values as numpy's."""
    text = stripped(WIDE_BIT_VECTORS)
    assert "memref<3xvector<6xi12>> to memref<3xvector<2xi64>>" in text
    assert "memref<2xvector<24xi3>> to memref<2xvector<2xi64>>" in text
    assert "arith.shli" in text and "arith.shrui" in text
    rng = np.random.default_rng(3)
    m = rng.integers(-2048, 2048, (3, 6)).astype(np.int16)
    n = rng.integers(-4, 4, (2, 24)).astype(np.int8)
    compiled, natively = both(text, [m, n])
    assert_same(compiled, natively)
    _, (m_after, n_after) = natively
    expected_m, expected_n = m.copy(), n.copy()
    expected_m[0] = (2 * m[2].astype(np.int32) + 2048) % 4096 - 2048
    expected_m[1] = [-2048, 2047, -1, 5, 0, 1]
    expected_n[0] = (-n[1].astype(np.int32) + 4) % 8 - 4
    assert m_after.tolist() == expected_m.tolist() and n_after.tolist() == expected_n.tolist()


def test_an_element_access_llvm_compiles_wrong_is_refused() -> None:
    with pytest.raises(
        ExecutionError, match=r"memref.load of vector<6xi12> on memref<3xvector<6xi12>>: LLVM 22"
    ):
        heterolayout.run(
            WIDE_BIT_VECTORS,
            "main",
            [np.zeros((3, 6), np.int16), np.zeros((2, 24), np.int8)],
            engine="native",
        )


WIDE_VECTORS = """func.func @main(%m: memref<5x3xvector<8xf32>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = memref.load %m[%c1, %c1] : memref<5x3xvector<8xf32>>
  %s = arith.addf %v, %v : vector<8xf32>
  memref.store %s, %m[%c0, %c0] : memref<5x3xvector<8xf32>>
  func.return
}"""


def test_vector_elements_get_the_alignment_llvm_assumes() -> None:
    """LLVM moves a `vector<8xf32>` element with an aligned 32-byte load; numpy aligns an
    array to 16 bytes. An array whose address lacks the element's alignment is worked on
    in an aligned copy, written back after the call (it faulted: fuzz seed 1136's
    `Layout.pack` into `pack = vector<8xf32>`)."""
    from heterolayout.execution.native.abi import MemRefMemory
    from heterolayout.execution.native.library import _memref_argument

    memory = MemRefMemory(2, element_type("f32"), (8,))
    raw = np.zeros(5 * 3 * 8 + 8, np.float32)
    start, aligned_start = (
        next(i for i in range(8) if (raw.ctypes.data + 4 * i) % 32 == r) for r in (16, 0)
    )
    misaligned = raw[start : start + 120].reshape(5, 3, 8)
    passed = _memref_argument(misaligned, memory, "m")
    assert passed[1] is not None and passed[0].aligned % 32 == 0
    misaligned[1, 1] = np.arange(8)
    heterolayout.run(WIDE_VECTORS, "main", [misaligned], engine="native")
    assert misaligned[0, 0].tolist() == [2.0 * i for i in range(8)]
    aligned = raw[aligned_start : aligned_start + 120].reshape(5, 3, 8)
    assert _memref_argument(aligned, memory, "m")[1] is None  # its own memory, no copy


def test_a_vector_access_upstream_reads_as_packed_bits_is_refused() -> None:
    """The native engine compiles what it is given as upstream does, so it refuses what
    upstream would read as packed bits rather than run it differently from the others."""
    with pytest.raises(
        ExecutionError, match=r"vector.load of vector<8xi1> on memref<2x16xi1>: .*packed bits"
    ):
        heterolayout.run(
            WIDE_NARROW,
            "main",
            [np.zeros((2, 16), bool), np.zeros((3, 5), np.int16)],
            engine="native",
        )


def test_a_plain_float32_array_is_the_memory_the_program_writes() -> None:
    text = """func.func @main(%x: memref<3xf32>) {
  %c = arith.constant 2 : index
  %v = arith.constant 9.0 : f32
  memref.store %v, %x[%c] : memref<3xf32>
  func.return
}"""
    library = native.compile(text)
    x = np.zeros(3, np.float32)
    assert library.call("main", [x]) == ()
    assert x.tolist() == [0.0, 0.0, 9.0]


# ---- programs with layouts run stripped; check pairs engines --------------------------------------
BLOCKED = """
func.func @main(%a: memref<4x8xf32>, %b: memref<8x4xf32>) {
  layout.assign %a to #layout.tag<"NC->CN4n"> : memref<4x8xf32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 8 {
      %v = affine.load %a[%i, %j] : memref<4x8xf32>
      affine.store %v, %b[%j, %i] : memref<8x4xf32>
    }
  }
  func.return
}
"""


TRANSPOSE = """
func.func @main(%a: memref<4x4xf32>, %b: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %a[%i, %j] : memref<4x4xf32>
      memref.store %v, %b[%j, %i] : memref<4x4xf32>
    }
  }
  func.return
}
"""


@pytest.mark.parametrize(
    ("engine", "reference"), [("native", None), ("native", "compiled"), ("compiled", "native")]
)
def test_check_pairs_any_two_engines(engine: str, reference: str | None) -> None:
    report = heterolayout.check(BLOCKED, engine=engine, reference_engine=reference)
    assert str(report) == "OK: 64 elements compared"
    broken = heterolayout.check(
        TRANSPOSE, [SwapStoreIndices()], seed=2, engine=engine, reference_engine=reference
    )
    assert not broken.equal and broken.mismatch is not None
    assert broken.mismatch.what == "argument 1 (memref<4x4xf32>)"


def test_a_layout_buffer_argument_goes_in_and_comes_back_logical() -> None:
    a = np.arange(32, dtype=np.float32).reshape(4, 8)
    b = np.zeros((8, 4), np.float32)
    heterolayout.run(BLOCKED, args=[a, b], engine="native")
    assert np.array_equal(b, a.T)


VIEW = """
func.func @main(%a: memref<8x8xf32, #layout.tag<"NC->CN4n">>) -> f32 {
  %s = memref.subview %a[0, 0] [4, 4] [1, 1] : memref<8x8xf32, #layout.tag<"NC->CN4n">> to memref<4x4xf32, strided<[8, 1]>>
  %c = arith.constant 1 : index
  %v = memref.load %s[%c, %c] : memref<4x4xf32, strided<[8, 1]>>
  func.return %v : f32
}
"""


def test_a_view_of_a_layout_typed_memref_runs_natively_as_its_stripped_form() -> None:
    """layout-strip keeps the view on the plain memref (its type is upstream's there), so
    the native engine runs the program itself and is its own reference in --check."""
    module = parse_program(VIEW, "view.mlir")
    a = np.arange(64, dtype=np.float32).reshape(8, 8)
    (value,) = heterolayout.run(module, args=[a], engine="native")
    assert value == a[1, 1]
    assert reference_engine_for(module, "native") == ("native", None)


def test_an_external_function_the_runtime_lacks_is_an_error_naming_it() -> None:
    text = """func.func private @mystery(f32)
func.func @main(%x: f32) {
  func.call @mystery(%x) : (f32) -> ()
  func.return
}"""
    with pytest.raises(
        ExecutionError, match=r"@mystery is external \(it has no body\) and cannot be run"
    ):
        heterolayout.run(text, args=[1.0], engine="native")


def test_missing_mlir_is_one_line_saying_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build, "find_mlir_tool", lambda name: None)
    with pytest.raises(ExecutionError) as caught:
        native.compile("func.func @main() { func.return }")
    assert str(caught.value) == (
        "the native engine needs MLIR 22: mlir-22-tools not installed: apt-get install -y mlir-22-tools"
    )
    assert native.missing() == str(caught.value)


# ---- the cache -----------------------------------------------------------------------------------
def test_libraries_are_cached_by_text_tools_and_flags(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HETEROLAYOUT_CACHE_DIR", str(tmp_path))
    from heterolayout.execution.native import module

    monkeypatch.setattr(module, "_LIBRARIES", {})
    text = "func.func @main(%a: i32) -> i32 { %b = arith.addi %a, %a : i32\n func.return %b : i32 }"
    first = native.compile(text)
    assert first.times.total > 0 and first.path.parent == tmp_path / "native"
    monkeypatch.setattr(module, "_LIBRARIES", {})
    second = native.compile(text)
    assert second.path == first.path and second.times.total == 0
    assert second.call("main", [21]) == (42,)
    native.clear_cache()
    assert not (tmp_path / "native").exists()


# ---- timing --------------------------------------------------------------------------------------
def test_a_timed_function_runs_its_kernel_each_call() -> None:
    text = """func.func @bump(%m: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %v = memref.load %m[%c0] : memref<1xi64>
  %w = arith.addi %v, %one : i64
  memref.store %w, %m[%c0] : memref<1xi64>
  func.return
}"""
    kernel = native.TimedFunction(parse_program(text), "bump")
    counter = np.zeros(1, np.int64)
    assert kernel.seconds([counter], 1000) > 0
    assert counter[0] == 1000


FORM_NAMES = ["program", "scheduled without layouts", "layout-free"]

PADDED_ARGUMENT = """
func.func @main(%a: memref<3x5xf32, #layout.tag<"NC->CN4n">>, %b: memref<5x3xf32>) {
  affine.for %i = 0 to 3 {
    affine.for %j = 0 to 5 {
      %v = affine.load %a[%i, %j] : memref<3x5xf32, #layout.tag<"NC->CN4n">>
      affine.store %v, %b[%j, %i] : memref<5x3xf32>
    }
  }
  func.return
}
"""


def _positive(value: object) -> bool:
    return isinstance(value, float) and math.isfinite(value) and value > 0


def _layout_bench(*argv: str) -> tuple[int, str, str]:
    from heterolayout.tools.bench import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_bench_times_the_program_scheduled_without_layouts_and_layout_free() -> None:
    text = BLOCKED.replace(
        "func.func @main(%a: memref<4x8xf32>, %b: memref<8x4xf32>) {",
        "func.func @main(%a: memref<4x8xf32>, %b: memref<8x4xf32>) attributes {layout.flops = 64 : i64} {",
    )
    report = native.bench(text, repeat=3, min_time=0.001)
    assert report.flops == 64 and report.baseline is None
    assert [(f.name, f.pipeline, f.same_as) for f in report.forms] == [
        ("program", "layout-lower", None),
        ("scheduled without layouts", "layout-strip,layout-lower", None),
        ("layout-free", "layout-strip", None),
    ]
    timings = [f.timing for f in report.forms]
    assert len({id(t) for t in timings}) == 3  # each timed on its own
    for timing in timings:
        assert len(timing.per_call) == 3 and all(_positive(t) for t in timing.per_call)
        assert timing.minimum <= timing.median <= timing.maximum and timing.calls >= 1
        assert _positive(timing.gflops(report.flops))
    assert report.program is timings[0] and report.layout_free is timings[2]
    assert _positive(report.ratio) and report.ratio == report.ratios()["program / layout-free"]
    assert _positive(report.layout_ratio)
    lines = str(report).splitlines()
    assert lines[0] == (
        "@main: 3 interleaved repetitions, seed 0, 64 flop/call; ms per call: median, min, max"
    )
    assert lines[1].split() == [
        *["form", "pipeline", "ms/call", "min", "max", "calls/rep", "GFLOP/s", "/", "layout-free"]
    ]
    assert [line[:27].rstrip() for line in lines[2:5]] == FORM_NAMES
    assert lines[5].startswith("program / scheduled without layouts: ")
    assert "what the layout earns" in lines[5] and len(lines) == 6


def test_bench_baseline_is_a_fourth_form() -> None:
    report = native.bench(
        BLOCKED,
        pipeline="layout-schedule,layout-lower",
        baseline="layout-lower",
        repeat=2,
        min_time=0.001,
    )
    names = [f.name for f in report.forms]
    assert names == [*FORM_NAMES, "baseline"] and report.form("baseline").same_as is None
    assert report.scheduled is not report.program
    assert report.baseline is not None and len(report.baseline.per_call) == 2
    assert _positive(report.ratio) and report.ratio == report.ratios()["program / baseline"]
    assert str(report).splitlines()[-1].startswith("program / baseline: ")


@pytest.mark.parametrize("forced", ["avx2", "avx512"])
def test_bench_says_what_the_host_target_was(monkeypatch: pytest.MonkeyPatch, forced: str) -> None:
    """`layout-schedule` without `target=` schedules for the host: the report says for what."""
    monkeypatch.setenv("HETEROLAYOUT_HOST_TARGET", forced)
    report = native.bench(BLOCKED, pipeline="layout-schedule,layout-lower", repeat=1, min_time=0)
    assert report.host_target == forced
    assert f", layout-schedule target=host: {forced};" in str(report).splitlines()[0]
    named = native.bench(
        BLOCKED, pipeline="layout-schedule{target=avx2},layout-lower", repeat=1, min_time=0
    )
    assert named.host_target is None and "target=host" not in str(named)


def test_bench_times_a_program_once_when_forms_are_the_same() -> None:
    """`''` and `layout-strip` make the layout-free program, a leading `layout-strip` makes
    the scheduled one: said in the report, not timed twice."""
    for pipeline in ("", "layout-strip", None):
        report = native.bench(
            BLOCKED, pipeline=pipeline, baseline="layout-strip", repeat=1, min_time=0
        )
        assert [f.same_as for f in report.forms] == [
            "layout-free",
            "layout-free",
            None,
            "layout-free",
        ]
        assert report.program is report.scheduled is report.layout_free is report.baseline
        assert report.ratio == report.layout_ratio == 1.0
        assert "same as layout-free (timed once)" in str(report)
        assert "program / scheduled without layouts: 1.000 (the same program)" in str(report)
    report = native.bench(BLOCKED, pipeline="layout-strip,layout-lower", repeat=1, min_time=0)
    assert [(f.pipeline, f.same_as) for f in report.forms] == [
        ("layout-strip,layout-lower", "scheduled without layouts"),
        ("layout-strip,layout-lower", None),
        ("layout-strip", None),
    ]


def test_bench_gives_the_plain_forms_logical_arguments() -> None:
    """A layout-typed argument with padding: the stripped forms take the logical buffer,
    not the layout's larger physical one."""
    report = native.bench(PADDED_ARGUMENT, baseline="layout-strip", repeat=1, min_time=0)
    assert [f.same_as for f in report.forms] == [None, None, None, "layout-free"]


def test_layout_bench_cli(tmp_path: Path) -> None:
    path = tmp_path / "blocked.mlir"
    path.write_text(BLOCKED)
    common = [str(path), "--repeat", "2", "--min-time", "0.001", "--flops", "64"]
    code, out, err = _layout_bench(*common, "--baseline", "layout-strip")
    assert (code, err) == (0, "")
    assert "GFLOP/s" in out and "/ layout-free" in out
    for name, pipeline in [
        ("program", "layout-lower"),
        ("scheduled without layouts", "layout-strip,layout-lower"),
        ("layout-free", "layout-strip"),
    ]:
        assert any(line.split("  ")[0] == name and pipeline in line for line in out.splitlines())
    assert "baseline                   layout-strip               same as layout-free" in out
    assert "program / scheduled without layouts: " in out and "program / baseline: " in out


def test_layout_bench_json(tmp_path: Path) -> None:
    path = tmp_path / "blocked.mlir"
    path.write_text(BLOCKED)
    code, out, err = _layout_bench(
        str(path), "-p", "layout-schedule,layout-lower", "--repeat", "2", "--min-time", "0.001",
        "--seed", "3", "--json",
    )  # fmt: skip
    assert (code, err) == (0, "")
    data = json.loads(out)  # stdout is the JSON object and nothing else
    assert {k: data[k] for k in ("entry", "repeat", "seed", "min_time", "flops")} == {
        "entry": "main",
        "repeat": 2,
        "seed": 3,
        "min_time": 0.001,
        "flops": None,
    }
    assert data["host_target"] == host_target()  # layout-schedule's default target
    assert list(data["forms"]) == FORM_NAMES
    pipelines = [form["pipeline"] for form in data["forms"].values()]
    assert pipelines == [
        "layout-schedule,layout-lower",
        "layout-strip,layout-schedule,layout-lower",
        "layout-strip",
    ]
    for form in data["forms"].values():
        assert form["same_as"] is None and form["gflops"] is None
        assert isinstance(form["calls_per_repetition"], int) and form["calls_per_repetition"] >= 1
        assert all(_positive(form[k]) for k in ("median_ms", "min_ms", "max_ms"))
        assert form["min_ms"] <= form["median_ms"] <= form["max_ms"]
        assert _positive(form["ratio_to_layout_free"])
    assert data["forms"]["layout-free"]["ratio_to_layout_free"] == 1.0
    assert list(data["ratios"]) == [
        "program / scheduled without layouts",
        "program / layout-free",
    ]
    assert all(_positive(r) for r in data["ratios"].values())
    code, out, err = _layout_bench(
        str(path), "-p", "", "--flops", "64", "--repeat", "1", "--min-time", "0.001", "--json"
    )
    data = json.loads(out)
    assert data["host_target"] is None  # no form schedules
    assert [f["same_as"] for f in data["forms"].values()] == ["layout-free", "layout-free", None]
    assert data["forms"]["program"]["median_ms"] == data["forms"]["layout-free"]["median_ms"]
    assert _positive(data["forms"]["program"]["gflops"])
    assert data["ratios"] == {
        "program / scheduled without layouts": 1.0,
        "program / layout-free": 1.0,
    }


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--entry", "nothing"], "no function @nothing in the module (functions: @main)"),
        (["--repeat", "0"], "repeat must be at least 1, got 0"),
        (["--min-time", "nan"], "min_time must be a non-negative number of seconds, got nan"),
        (["-p", "no-such-pass"], "pipeline 'no-such-pass'"),
        (["--baseline", "no-such-pass"], "pipeline 'no-such-pass'"),
    ],
)
def test_layout_bench_errors_are_one_line(tmp_path: Path, argv: list[str], message: str) -> None:
    path = tmp_path / "blocked.mlir"
    path.write_text(BLOCKED)
    for json_flag in ([], ["--json"]):
        code, out, err = _layout_bench(
            str(path), "--repeat", "1", "--min-time", "0", *argv, *json_flag
        )
        assert (code, out) == (1, "")
        assert err.startswith("layout-bench: error: ") and message in err
        assert err.count("\n") == 1 and "Traceback" not in err
