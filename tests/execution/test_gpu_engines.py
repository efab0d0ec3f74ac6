"""GPU code on the CPU engines: launches run their kernel once per thread of the grid, the id
ops give each thread its place, barriers (compiled engine) hold a block's threads together,
and kernels that take another layout than the host's buffer see a converted copy. Results
are compared with numpy, before and after `layout-lower`."""

from __future__ import annotations

import numpy as np
import pytest

from heterolayout import passes  # noqa: F401  (registers the passes)
from heterolayout.execution import ExecutionError, check, run
from heterolayout.execution.engines import load_module
from heterolayout.passes.pipeline import apply_pipeline

LAYOUT = '#layout.tag<"NC->Cn">'
BUFFER = f"memref<4x32xf32, {LAYOUT}>"

PROGRAM = f"""
module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @scale(%A: memref<4x32xf32>, %s: f32) kernel {{
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %x = memref.load %A[%b, %t] : memref<4x32xf32>
      %y = arith.mulf %x, %s : f32
      memref.store %y, %A[%b, %t] : memref<4x32xf32>
      gpu.return
    }}
    gpu.func @reverse(%A: {BUFFER}, %B: memref<4x32xf32>) workgroup(%w: memref<32xf32, #gpu.address_space<workgroup>>) kernel {{
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %n = gpu.block_dim x
      %c1 = arith.constant 1 : index
      %x = memref.load %A[%b, %t] : {BUFFER}
      memref.store %x, %w[%t] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %m = arith.subi %n, %t : index
      %j = arith.subi %m, %c1 : index
      %y = memref.load %w[%j] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %y, %B[%b, %t] : memref<4x32xf32>
      gpu.return
    }}
  }}
  func.func @main(%A: {BUFFER}, %s: f32, %B: memref<4x32xf32>, %G: memref<4x32xindex>) {{
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @kernels::@scale blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : {BUFFER}, %s : f32)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c2, %sz = %c1) {{
      %row = arith.addi %bx, %by : index
      %r2 = arith.muli %by, %c2 : index
      %r = arith.addi %bx, %r2 : index
      %col16 = arith.muli %ty, %c16 : index
      %col = arith.addi %col16, %tx : index
      %x = memref.load %A[%r, %col] : {BUFFER}
      %y = arith.addf %x, %s : f32
      memref.store %y, %A[%r, %col] : {BUFFER}
      %g = gpu.global_id x
      memref.store %g, %G[%r, %col] : memref<4x32xindex>
      gpu.terminator
    }}
    gpu.launch_func @kernels::@reverse blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%A : {BUFFER}, %B : memref<4x32xf32>)
    return
  }}
}}
"""


def _expected(a: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    scaled = (a * np.float32(s)).astype(np.float32) + np.float32(s)
    g = np.zeros((4, 32), dtype=np.int64)
    for r in range(4):
        bx = r % 2
        for col in range(32):
            g[r, col] = bx * 16 + col % 16
    return scaled, scaled[:, ::-1], g


@pytest.mark.parametrize("lowered", [False, True], ids=["source", "lowered"])
def test_launches_match_numpy(lowered: bool) -> None:
    module = load_module(PROGRAM)
    if lowered:
        module = apply_pipeline(module, "layout-lower")
    rng = np.random.default_rng(7)
    a = rng.standard_normal((4, 32)).astype(np.float32)
    want_a, want_b, want_g = _expected(a, 1.5)
    b = np.zeros((4, 32), dtype=np.float32)
    g = np.zeros((4, 32), dtype=np.int64)
    if lowered:  # the lowered program takes the physical (transposed) buffer
        physical = np.ascontiguousarray(a.T)
        run(module, "main", [physical, 1.5, b, g], engine="compiled")
        np.testing.assert_array_equal(physical.T, want_a)
    else:
        run(module, "main", [a, 1.5, b, g], engine="compiled")
        np.testing.assert_array_equal(a, want_a)
    np.testing.assert_array_equal(b, want_b)
    np.testing.assert_array_equal(g, want_g)


def test_check_compares_source_and_lowered_launches() -> None:
    report = check(PROGRAM, "layout-lower", entry="main")
    assert report.equal, str(report)
    assert report.compared == 4 * 32 * 3


NO_BARRIER = PROGRAM.replace("gpu.barrier", "")


@pytest.mark.parametrize("engine", ["interp", "compiled"])
def test_engines_agree_without_barrier(engine: str) -> None:
    """Without a barrier the reversal reads its own block's workgroup buffer as each thread
    left it: thread t reads slot 31 - t before thread 31 - t wrote it when t < 16."""
    a = np.arange(128, dtype=np.float32).reshape(4, 32)
    b = np.zeros((4, 32), dtype=np.float32)
    g = np.zeros((4, 32), dtype=np.int64)
    run(NO_BARRIER, "main", [a.copy(), 2.0, b, g], engine=engine)
    scaled, _, _ = _expected(a, 2.0)
    np.testing.assert_array_equal(b[:, 16:], scaled[:, 15::-1])
    np.testing.assert_array_equal(b[:, :16], np.zeros((4, 16), dtype=np.float32))


def test_interp_refuses_a_barrier() -> None:
    a = np.zeros((4, 32), dtype=np.float32)
    with pytest.raises(ExecutionError, match=r"gpu.barrier at .*cannot wait at a barrier"):
        run(PROGRAM, "main", [a, 1.0, a.copy(), np.zeros((4, 32), dtype=np.int64)], engine="interp")


def test_threads_leaving_before_a_barrier_are_an_error() -> None:
    program = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @early(%A: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %low = arith.cmpi ult, %t, %c2 : index
      scf.if %low {
        gpu.barrier
      }
      gpu.return
    }
  }
  func.func @main(%A: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @k::@early blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%A : memref<4xf32>)
    return
  }
}
"""
    with pytest.raises(ExecutionError, match=r"returned while others wait at gpu\.barrier"):
        run(program, "main", [np.zeros(4, dtype=np.float32)])


CONVERSIONS = [
    # (shape, source, target, tiled: contiguous along different dims)
    ("2x40x3x5xf32", '#layout.tag<"NCHW->nChw8c">', '#layout.tag<"NCHW->nChw32c">', False),
    ("2x40x3x5xf32", None, '#layout.tag<"NCHW->nChw32c">', True),
    ("2x17x5x36xf32", '#layout.tag<"NCHW->nChw16c">', None, True),
    ("2x17x5x4xf32", '#layout.tag<"NCHW->nChw8c">', '#layout.tag<"NCHW->NHWC">', False),
    ("1x9x6x6xi8", None, '#layout.tag<"NCHW->NCHW4c", pack = i32>', False),
    ("3x2050xf32", '#layout.tag<"HW->WH">', '#layout.tag<"HW->WH">', False),
    ("2x3x40x33xi16", '#layout.tag<"NCHW->NHWC">', '#layout.tag<"NCHW->nChw16c", pad = 7>', False),
    ("2x40x3x33xi16", None, '#layout.tag<"NCHW->nChw16c", pad = 7>', True),
]


def _conversion(shape: str, source: str | None, target: str | None) -> str:
    a = f"memref<{shape}{', ' + source if source else ''}>"
    b = f"memref<{shape}{', ' + target if target else ''}>"
    return f"""
module attributes {{gpu.container_module}} {{
  func.func @main(%a: {a}, %b: {b}) {{
    layout.convert %a to %b : {a} to {b}
    return
  }}
}}
"""


@pytest.mark.parametrize(("shape", "source", "target", "tiled"), CONVERSIONS)
def test_conversions_as_gpu_kernels_keep_the_contents(
    shape: str, source: str | None, target: str | None, tiled: bool
) -> None:
    """`convert=gpu` against the source program: pads, packing, large dims, tiles."""
    program = _conversion(shape, source, target)
    lowered = apply_pipeline(load_module(program), "layout-lower{convert=gpu}")
    kinds = [op.name for op in lowered.walk() if op.name in ("gpu.launch", "gpu.launch_func")]
    assert kinds == ["gpu.launch_func" if tiled else "gpu.launch"]
    report = check(program, "layout-lower{convert=gpu}", entry="main", engine="compiled")
    assert report.equal, str(report)
    if not tiled:
        assert check(program, "layout-lower{convert=gpu}", entry="main", engine="interp").equal


def test_a_tiled_conversion_writes_the_pad_slots() -> None:
    """The destination's pad slots get its pad value (`--check` compares logical values
    only): 40 channels into nChw16c with pad 7 leave 8 pad channels per pixel."""
    program = _conversion("2x40x3x33xi16", None, '#layout.tag<"NCHW->nChw16c", pad = 7>')
    lowered = apply_pipeline(load_module(program), "layout-lower{convert=gpu}")
    assert any(op.name == "gpu.barrier" for op in lowered.walk())  # the tiled kernel
    a = np.arange(2 * 40 * 3 * 33, dtype=np.int16).reshape(2, 40, 3, 33)
    b = np.zeros((2, 3, 3, 33, 16), dtype=np.int16)
    run(lowered, "main", [a, b])
    padded = np.full((2, 48, 3, 33), 7, dtype=np.int16)
    padded[:, :40] = a
    np.testing.assert_array_equal(b, padded.reshape(2, 3, 16, 3, 33).transpose(0, 1, 3, 4, 2))
