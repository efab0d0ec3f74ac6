"""AVX-512 tiles whose broadcasts fold or stay in registers (`rolled_loops.py`).

- The default exact tile is one vector when a 32- or 64-bit broadcast read moves with the
  tile's steps, and two (as before) for a depthwise convolution, which broadcasts nothing,
  for 8- and 16-bit elements, and with fused multiply-adds.
- LLVM 22 compiles the scheduled conv and matmul for Skylake-AVX512 and Zen 4 into hot loops
  whose every multiply reads its broadcast from memory (`{1to16}`), with no `vbroadcastss`:
  the conv's `kw` loop reaches LLVM IR as `llvm.loop.unroll.disable` through upstream's own
  lowering. With fused multiply-adds the ResNet stem's 7×7 stride-2 window keeps its
  broadcasts in registers through `opt -O3` (no stack access in its hot loop).
- Rolled or not, results are bit for bit the unscheduled program's, in every engine and
  with a tile that leaves a shorter one at the end.
"""

from __future__ import annotations

import pytest

import heterolayout
from benchmarks.hot_loops import CPUS, assembly, hot_loop, llvm_ir, tool
from benchmarks.schedule import Sizes, kernels
from heterolayout.dialects.context import parse_program
from heterolayout.dialects.upstream.llvm import LOOP_ANNOTATION
from heterolayout.passes.pipeline import apply_pipeline
from tests.mlir_tools import require

SIZES = Sizes(channels=32, height=12, matrix=64)

CONV = """
func.func @main(%input: memref<1x16x{H}x{W}xf32, #layout.tag<"NCHW->nChw16c">>,
                %weights: memref<{K}x16x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>,
                %output: memref<1x{K}x{OH}x{OW}xf32, #layout.tag<"NCHW->nChw16c">>) {{
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to {K} {{
    affine.for %oh = 0 to {OH} {{
      affine.for %ow = 0 to {OW} {{
        affine.store %zero, %output[0, %k, %oh, %ow] : memref<1x{K}x{OH}x{OW}xf32, #layout.tag<"NCHW->nChw16c">>
        affine.for %c = 0 to 16 {{
          affine.for %kh = 0 to 3 {{
            affine.for %kw = 0 to 3 {{
              %x = affine.load %input[0, %c, %oh + %kh, %ow + %kw] : memref<1x16x{H}x{W}xf32, #layout.tag<"NCHW->nChw16c">>
              %w = affine.load %weights[%k, %c, %kh, %kw] : memref<{K}x16x3x3xf32, #layout.tag<"OIHW->OIhw16i16o">>
              %acc = affine.load %output[0, %k, %oh, %ow] : memref<1x{K}x{OH}x{OW}xf32, #layout.tag<"NCHW->nChw16c">>
              %p = arith.mulf %x, %w : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %output[0, %k, %oh, %ow] : memref<1x{K}x{OH}x{OW}xf32, #layout.tag<"NCHW->nChw16c">>
            }}
          }}
        }}
      }}
    }}
  }}
  func.return
}}
"""


def conv(channels: int, height: int, width: int) -> str:
    return CONV.format(K=channels, H=height, W=width, OH=height - 2, OW=width - 2)


def scheduled(text: str, options: str) -> list[str]:
    """The names of the loops that carry an annotation after `layout-schedule`."""
    module = apply_pipeline(parse_program(text), f"layout-schedule{{{options}}}")
    return [op.name for op in module.walk() if LOOP_ANNOTATION in op.attributes]


def accumulators(text: str, options: str) -> int:
    """The vectors the innermost reduction loop carries: the register tile's size."""
    module = apply_pipeline(parse_program(text), f"layout-schedule{{{options}}}")
    loops = [op for op in module.walk() if op.name in ("affine.for", "scf.for") and op.results]
    innermost = [
        loop for loop in loops if not any(o is not loop and o in loops for o in loop.walk())
    ]
    return max(len(loop.results) for loop in innermost)


def test_exact_avx512_tiles_take_one_vector_where_a_broadcast_moves_with_the_steps() -> None:
    # kw stays rolled on AVX-512 in both modes; AVX2 (no embedded broadcasts) keeps two
    # vectors per copy, and kw rolled in the exact mode only (16 registers)
    text = conv(32, 10, 11)
    assert accumulators(text, "target=avx512") == 9
    assert scheduled(text, "target=avx512") == ["scf.for"]
    assert accumulators(text, "target=avx512 fma=true") == 18
    assert scheduled(text, "target=avx512 fma=true") == ["scf.for"]
    assert accumulators(text, "target=avx2") == 10
    assert set(scheduled(text, "target=avx2")) == {"scf.for"}
    assert scheduled(text, "target=avx2 fma=true") == []


MATMUL = """
func.func @main(%a: memref<32x64x{T}>, %b: memref<64x{N}x{T}>, %c: memref<32x{N}x{T}>) {{
  affine.for %i = 0 to 32 {{
    affine.for %j = 0 to {N} {{
      affine.for %k = 0 to 64 {{
        %x = affine.load %a[%i, %k] : memref<32x64x{T}>
        %y = affine.load %b[%k, %j] : memref<64x{N}x{T}>
        %z = affine.load %c[%i, %j] : memref<32x{N}x{T}>
        %p = {MUL} %x, %y : {T}
        %s = {ADD} %z, %p : {T}
        affine.store %s, %c[%i, %j] : memref<32x{N}x{T}>
      }}
    }}
  }}
  func.return
}}
"""


@pytest.mark.parametrize(
    ("element", "folds"),
    [("f32", True), ("f64", True), ("i32", True), ("i16", False), ("i8", False)],
)
def test_one_vector_tiles_only_for_elements_avx512_broadcasts(element: str, folds: bool) -> None:
    # {1toN} broadcasts 32- and 64-bit elements: narrower ones keep the two-vector tile
    # (a matmul's 32 rows: 11 + 11 + 10 rows of one vector, or 2 vectors x 8 rows).
    floating = element.startswith("f")
    text = MATMUL.format(
        T=element,
        N=2048 // int(element[1:]),
        MUL="arith.mulf" if floating else "arith.muli",
        ADD="arith.addf" if floating else "arith.addi",
    )
    assert accumulators(text, "target=avx512") == (11 if folds else 16)
    assert accumulators(text, "target=avx512 fma=true") == 16
    assert scheduled(text, "target=avx512") == []


def test_a_depthwise_conv_broadcasts_nothing_and_keeps_its_tile() -> None:
    from tests.passes.test_schedule import example

    text = example("depthwise_conv_schedule").read_text()
    assert scheduled(text, "target=avx512") == []
    assert accumulators(text, "target=avx512") == accumulators(text, "target=avx512 fma=true")


@pytest.mark.parametrize("cpu", [cpu for _, cpu in CPUS["avx512"]])
@pytest.mark.parametrize("kernel", ["conv", "matmul"])
def test_every_exact_multiply_reads_its_broadcast_from_memory(kernel: str, cpu: str) -> None:
    for name in ("opt", "llc", "mlir-translate", "mlir-opt"):
        require(tool(name), f"{name}-22 (apt-get install llvm-22)")
    function = next(k for k in kernels(SIZES, "avx512") if k.name == kernel).function("alone", True)
    ir = llvm_ir(function, "avx512", "")
    assert ("llvm.loop.unroll.disable" in ir) == (kernel == "conv")
    loop = hot_loop(assembly(ir, "x86_64-linux-gnu", cpu))
    folded = [i for i in loop.instructions if "vmulps" in i and "{1to16}" in i]
    assert loop.multiply_adds >= 8
    assert len(folded) == loop.multiply_adds, "\n".join(loop.instructions)
    assert not [i for i in loop.instructions if "vbroadcastss" in i]


STEM = """
func.func @main(%input: memref<1x3x41x41xf32>,
                %weights: memref<64x3x7x7xf32, #layout.tag<"OIHW->Oihw16o">>,
                %output: memref<1x64x18x18xf32, #layout.tag<"NCHW->nChw16c">>) {
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to 64 {
    affine.for %oh = 0 to 18 {
      affine.for %ow = 0 to 18 {
        affine.store %zero, %output[0, %k, %oh, %ow] : memref<1x64x18x18xf32, #layout.tag<"NCHW->nChw16c">>
        affine.for %c = 0 to 3 {
          affine.for %kh = 0 to 7 {
            affine.for %kw = 0 to 7 {
              %x = affine.load %input[0, %c, %oh * 2 + %kh, %ow * 2 + %kw] : memref<1x3x41x41xf32>
              %w = affine.load %weights[%k, %c, %kh, %kw] : memref<64x3x7x7xf32, #layout.tag<"OIHW->Oihw16o">>
              %acc = affine.load %output[0, %k, %oh, %ow] : memref<1x64x18x18xf32, #layout.tag<"NCHW->nChw16c">>
              %p = arith.mulf %x, %w : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %output[0, %k, %oh, %ow] : memref<1x64x18x18xf32, #layout.tag<"NCHW->nChw16c">>
            }
          }
        }
      }
    }
  }
  func.return
}
"""


@pytest.mark.parametrize("cpu", [cpu for _, cpu in CPUS["avx512"]])
def test_a_fused_wide_strided_conv_keeps_its_broadcasts_in_registers(cpu: str) -> None:
    # The ResNet stem's 7x7 stride-2 convolution with fused multiply-adds: two vectors by 9
    # of its 18 columns. Unrolled whole by LLVM's -O3, kw's merged broadcasts spilled (31 stack
    # accesses in a hot loop of 126 FMAs); rolled, each kw step is 18 FMAs on 9 broadcasts.
    for name in ("llc", "opt", "mlir-translate", "mlir-opt"):
        require(tool(name), f"{name}-22 (apt-get install llvm-22)")
    assert scheduled(STEM, "target=avx512 fma=true") == ["scf.for"]
    ir = llvm_ir(STEM, "avx512", "fma=true")
    loop = hot_loop(assembly(ir, "x86_64-linux-gnu", cpu)).instructions
    assert len([i for i in loop if "vfmadd" in i]) == 18, "\n".join(loop)
    assert not [i for i in loop if "(%rsp)" in i], "\n".join(loop)


@pytest.mark.parametrize("engine", ["interp", "compiled"])
@pytest.mark.parametrize(
    "shape",
    [(32, 10, 12), (16, 5, 21), (48, 4, 7)],
    ids=lambda s: "x".join(map(str, s)),
)
def test_rolled_loops_keep_every_bit(shape: tuple[int, int, int], engine: str) -> None:
    text = conv(*shape)
    assert set(scheduled(text, "target=avx512")) == {"scf.for"}
    report = heterolayout.check(
        text, pipeline="layout-schedule{target=avx512},layout-lower", seed=5, engine=engine
    )
    assert report.equal, str(report)
    assert report.compared > 0


def test_rolled_loops_keep_every_bit_natively(native_runner) -> None:  # type: ignore[no-untyped-def]
    report = heterolayout.check(
        conv(16, 5, 21),
        pipeline="layout-schedule{target=avx512},layout-lower",
        seed=7,
        engine="native",
    )
    assert report.equal, str(report)
