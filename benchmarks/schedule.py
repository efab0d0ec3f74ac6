"""Benchmark: what `layout-schedule` makes of naive loop nests, against oneDNN and OpenBLAS.

Two kernels, each written the way a user writes it (a naive loop nest on logical shapes)
plus `layout.assign`s, compiled with `layout-opt -p 'layout-schedule{…},layout-lower'`:

- conv: 1×64×56×56 input, 64 3×3 filters, no padding (output 1×64×54×54); input and output
  `NCHW->nChw16c`, weights `OIHW->OIhw16i16o`;
- matmul: 512³, C = A·B with B in column panels, k inside: `KN->Nk16n` for AVX2 (the
  default target here), `KN->Nk32n` for AVX-512 (two vectors of the target per panel).

Each is timed twice: on its public signature with plain buffers (the conversions into the
layouts at the boundary included), and as the kernel alone (the same function declared with
layout-typed arguments, so no conversion runs). The baselines are oneDNN 3.2's direct
convolution (its own choice of formats; alone, and with reorders from and to plain NCHW/OIHW
buffers), built at run time from benchmarks/onednn_conv.cpp with g++, and numpy's float32
matmul (OpenBLAS). Everything runs on one thread: OMP_NUM_THREADS=1, OPENBLAS_NUM_THREADS=1,
and OPENBLAS_CORETYPE unset for the numpy command alone.

The MLIR module holds the kernels (noinline, and every call between two opaque `rtclock`
calls, so LLVM can neither inline nor merge repetitions) and a `main` that fills the inputs
with small integers (every sum is exact in f32), times single calls of each version in
rotating order, and prints checksums; it runs under `mlir-runner -O3` (host CPU features).
Every baseline is timed one call at a time too. The boundary version allocates its
layout-typed buffers and frees them on every call; oneDNN's harness creates its reorder
buffers once. With glibc's defaults a freed 800 KB buffer is given back to the kernel and
the next call page-faults it in again (about 1 ms per call here, more than the conversions
themselves), so mlir-runner runs with MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_
raised, as a framework's caching allocator keeps memory (`--default-malloc` leaves glibc's
defaults). Rounds alternate MLIR, oneDNN and numpy
runs; the table gives the median and the best per-call time over all rounds as GFLOP/s,
and ratios to the baseline (on a loaded machine the best times are the ones a process got
a core for). Nothing is printed unless every checksum equals numpy's.

    python -m benchmarks.schedule [--quick] [--rounds N] [--target avx2|avx512] [--fma]
                                  [--isa avx2]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPOSITORY = Path(__file__).resolve().parent.parent
from benchmarks import onednn  # noqa: E402
from heterolayout import parse_layout  # noqa: E402
from heterolayout.layout.model import Layout  # noqa: E402
from heterolayout.passes.schedule.layout_schedule import host_target  # noqa: E402
from tests.mlir_tools import find_mlir_tool, find_runner_utils, lower_to_llvm  # noqa: E402

F32 = "f32"


@dataclass(frozen=True)
class Operand:
    name: str
    shape: tuple[int, ...]
    layout: str | None
    """The tag the kernel assigns, or None for a plain buffer."""
    value: Callable[..., np.ndarray] | None
    """Logical value from logical index grids (inputs), None for the output."""
    formula: str = ""
    """The same value as an affine expression of the logical dims plus 100 (MLIR's fill)."""

    def memref(self, typed: bool) -> str:
        shape = "x".join(map(str, self.shape))
        if typed and self.layout is not None:
            return f'memref<{shape}x{F32}, #layout.tag<"{self.layout}">>'
        return f"memref<{shape}x{F32}>"

    def model(self, typed: bool) -> Layout:
        spec = self.layout if typed and self.layout is not None else "identity"
        if spec == "identity":
            dims = "ABCDEFGH"[: len(self.shape)]
            spec = f"{dims}->{dims}"
        return parse_layout(spec, self.shape)


@dataclass(frozen=True)
class Kernel:
    name: str
    operands: tuple[Operand, ...]
    body: str
    """The loop nest over `%<operand name>` buffers, as MLIR lines."""
    flops: int
    reference: Callable[[], np.ndarray]

    def function(self, suffix: str, typed: bool) -> str:
        arguments = ", ".join(f"%{o.name}: {o.memref(typed)}" for o in self.operands)
        lines = [f"func.func @{self.name}_{suffix}({arguments}) attributes {{passthrough = [\"noinline\"]}} {{"]
        if not typed:
            for o in self.operands:
                if o.layout is not None:
                    lines.append(
                        f'  layout.assign %{o.name} to #layout.tag<"{o.layout}"> : {o.memref(False)}'
                    )
        types = {o.name: o.memref(typed) for o in self.operands}
        lines += [line.format(**types) for line in self.body.strip("\n").splitlines()]
        lines += ["  func.return", "}"]
        return "\n".join(lines)

    @property
    def output(self) -> Operand:
        return next(o for o in self.operands if o.value is None)


def _conv_input(n: np.ndarray, c: np.ndarray, h: np.ndarray, w: np.ndarray) -> np.ndarray:
    return (c * 7 + h * 3 + w * 5) % 17 - 8


def _conv_weight(k: np.ndarray, c: np.ndarray, r: np.ndarray, s: np.ndarray) -> np.ndarray:
    return (k * 5 + c * 3 + r * 7 + s) % 9 - 4


CONV_BODY = """
  %zero = arith.constant 0.0 : f32
  affine.for %k = 0 to {K} {{{{
    affine.for %oh = 0 to {OH} {{{{
      affine.for %ow = 0 to {OW} {{{{
        affine.store %zero, %output[0, %k, %oh, %ow] : {{output}}
        affine.for %c = 0 to {C} {{{{
          affine.for %kh = 0 to 3 {{{{
            affine.for %kw = 0 to 3 {{{{
              %x = affine.load %input[0, %c, %oh + %kh, %ow + %kw] : {{input}}
              %w = affine.load %weights[%k, %c, %kh, %kw] : {{weights}}
              %acc = affine.load %output[0, %k, %oh, %ow] : {{output}}
              %p = arith.mulf %x, %w : f32
              %s = arith.addf %acc, %p : f32
              affine.store %s, %output[0, %k, %oh, %ow] : {{output}}
            }}}}
          }}}}
        }}}}
      }}}}
    }}}}
  }}}}
"""


def _conv_reference(c: int, h: int, k: int) -> np.ndarray:
    x = _grid((1, c, h, h), _conv_input)[0]
    w = _grid((k, c, 3, 3), _conv_weight)
    o = h - 2
    out = np.zeros((k, o, o))
    for r in range(3):
        for s in range(3):
            out += np.einsum("chw,kc->khw", x[:, r : r + o, s : s + o], w[:, :, r, s])
    return out.reshape(1, k, o, o)


MATMUL_BODY = """
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to {N} {{{{
    affine.for %j = 0 to {N} {{{{
      affine.store %zero, %c[%i, %j] : {{c}}
      affine.for %k = 0 to {N} {{{{
        %x = affine.load %a[%i, %k] : {{a}}
        %y = affine.load %b[%k, %j] : {{b}}
        %z = affine.load %c[%i, %j] : {{c}}
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %z, %p : f32
        affine.store %s, %c[%i, %j] : {{c}}
      }}}}
    }}}}
  }}}}
"""


def _matmul_a(i: np.ndarray, k: np.ndarray) -> np.ndarray:
    return (i * 3 + k * 5) % 11 - 5


def _matmul_b(k: np.ndarray, n: np.ndarray) -> np.ndarray:
    return (k * 7 + n * 2) % 13 - 6


def _grid(shape: tuple[int, ...], value: Callable[..., np.ndarray]) -> np.ndarray:
    return value(*np.meshgrid(*(np.arange(e) for e in shape), indexing="ij")).astype(np.float64)


@dataclass(frozen=True)
class Sizes:
    channels: int = 64
    """Input and output channels of the convolution."""
    height: int = 56
    """Input height and width."""
    matrix: int = 512


PANELS = {"avx512": 32, "avx2": 16, "sse": 8, "neon": 8}
"""Columns per panel of B: two vectors of the target's width, as a GEMM micro-kernel reads
them (the AVX-512 tile is 8 rows x 32 columns, the AVX2 one 4 x 16)."""


def kernels(sizes: Sizes, target: str = "avx512") -> list[Kernel]:
    c, h, n = sizes.channels, sizes.height, sizes.matrix
    o = h - 2
    conv = Kernel(
        "conv",
        (
            Operand("input", (1, c, h, h), "NCHW->nChw16c", _conv_input,
                    "(d1 * 7 + d2 * 3 + d3 * 5) mod 17 + 92"),
            Operand("weights", (c, c, 3, 3), "OIHW->OIhw16i16o", _conv_weight,
                    "(d0 * 5 + d1 * 3 + d2 * 7 + d3) mod 9 + 96"),
            Operand("output", (1, c, o, o), "NCHW->nChw16c", None),
        ),
        CONV_BODY.format(K=c, C=c, OH=o, OW=o),
        2 * c * c * 9 * o * o,
        lambda: _conv_reference(c, h, c),
    )
    matmul = Kernel(
        "matmul",
        (
            Operand("a", (n, n), None, _matmul_a, "(d0 * 3 + d1 * 5) mod 11 + 95"),
            Operand("b", (n, n), f"KN->Nk{PANELS[target]}n", _matmul_b, "(d0 * 7 + d1 * 2) mod 13 + 94"),
            Operand("c", (n, n), None, None),
        ),
        MATMUL_BODY.format(N=n),
        2 * n**3,
        lambda: _grid((n, n), _matmul_a) @ _grid((n, n), _matmul_b),
    )
    return [conv, matmul]


@dataclass(frozen=True)
class Version:
    suffix: str
    typed: bool
    """Layout-typed signature (the kernel alone) or plain buffers (conversions at the
    boundary)."""
    scheduled: bool


def versions(naive: bool) -> list[Version]:
    chosen = [Version("boundary", False, True), Version("alone", True, True)]
    return chosen + ([Version("naive", True, False)] if naive else [])


def _walk(layout: Layout, body: Callable[[list[str], str], list[str]], tag: str) -> list[str]:
    """A loop nest over the physical buffer of `layout`; `body` gets each logical index as an
    SSA name (Σ digit·weight over the physical ivs) and the physical index list."""
    physical = [f"%{tag}p{d}" for d in range(layout.physical_rank)]
    lines = [
        "  " * (d + 1) + f"affine.for {iv} = 0 to {extent} {{"
        for d, (iv, extent) in enumerate(zip(physical, layout.physical_shape, strict=True))
    ]
    indent = "  " * (layout.physical_rank + 1)
    logical = []
    for dim in range(layout.rank):
        digits = layout.dim_digits(dim)
        assert digits is not None
        terms = " + ".join(f"d{position} * {weight}" for position, weight in digits)
        dims = ", ".join(f"d{d}" for d in range(layout.physical_rank))
        name = f"%{tag}l{dim}"
        lines.append(f"{indent}{name} = affine.apply affine_map<({dims}) -> ({terms})>({', '.join(physical)})")
        logical.append(name)
    lines += body(logical, ", ".join(physical))
    lines += ["  " * (d + 1) + "}" for d in reversed(range(layout.physical_rank))]
    return lines


def _fill(operand: Operand, typed: bool, buffer: str) -> list[str]:
    layout = operand.model(typed)
    assert not layout.has_pad_slots, "benchmark layouts have no padding"
    grids = [f"d{d}" for d in range(layout.rank)]
    expression = operand.formula
    physical = f"memref<{'x'.join(map(str, layout.physical_shape))}xf32>"

    def body(logical: list[str], index: str) -> list[str]:
        indent = "  " * (layout.physical_rank + 1)
        return [
            f"{indent}%{buffer}v = affine.apply affine_map<({', '.join(grids)}) -> ({expression})>({', '.join(logical)})",
            f"{indent}%{buffer}f = func.call @as_value(%{buffer}v) : (index) -> f32",
            f"{indent}affine.store %{buffer}f, %{buffer}[{index}] : {physical}",
        ]

    return _walk(layout, body, buffer)


def _checksum(operand: Operand, typed: bool, buffer: str) -> list[str]:
    layout = operand.model(typed)
    physical = f"memref<{'x'.join(map(str, layout.physical_shape))}xf32>"
    strides = [int(np.prod(operand.shape[d + 1 :])) for d in range(len(operand.shape))]
    dims = ", ".join(f"d{d}" for d in range(layout.rank))
    linear = " + ".join(f"d{d} * {s}" for d, s in enumerate(strides))

    def body(logical: list[str], index: str) -> list[str]:
        indent = "  " * (layout.physical_rank + 1)
        return [
            f"{indent}%{buffer}x = affine.load %{buffer}[{index}] : {physical}",
            f"{indent}%{buffer}d = arith.extf %{buffer}x : f32 to f64",
            f"{indent}%{buffer}at = affine.apply affine_map<({dims}) -> (({linear}) mod 7 + 1)>({', '.join(logical)})",
            f"{indent}%{buffer}wi = arith.index_cast %{buffer}at : index to i64",
            f"{indent}%{buffer}wf = arith.sitofp %{buffer}wi : i64 to f64",
            f"{indent}%{buffer}wd = arith.mulf %{buffer}d, %{buffer}wf : f64",
            f"{indent}%{buffer}s0 = memref.load %sums[%c0] : memref<2xf64>",
            f"{indent}%{buffer}s1 = memref.load %sums[%c1] : memref<2xf64>",
            f"{indent}%{buffer}n0 = arith.addf %{buffer}s0, %{buffer}d : f64",
            f"{indent}%{buffer}n1 = arith.addf %{buffer}s1, %{buffer}wd : f64",
            f"{indent}memref.store %{buffer}n0, %sums[%c0] : memref<2xf64>",
            f"{indent}memref.store %{buffer}n1, %sums[%c1] : memref<2xf64>",
        ]

    return _walk(layout, body, buffer)


def timing_module(kernel: Kernel, lowered: str, chosen: list[Version], repeat: int) -> str:
    """`main`: fill, warm up, time each version `repeat` times in rotating order, checksums."""
    main = ["func.func @main() {", "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index",
            "  %fzero = arith.constant 0.0 : f64"]
    buffers: dict[str, list[tuple[Operand, str, str]]] = {}
    for version in chosen:
        for operand in kernel.operands:
            layout = operand.model(version.typed)
            name = f"{operand.name}_{version.suffix}"
            physical = f"memref<{'x'.join(map(str, layout.physical_shape))}xf32>"
            main.append(f"  %{name} = memref.alloc() : {physical}")
            buffers.setdefault(version.suffix, []).append((operand, name, physical))
            if operand.value is not None:
                main += _fill(operand, version.typed, name)
    calls_text = {
        v.suffix: f"func.call @{kernel.name}_{v.suffix}({', '.join('%' + b for _, b, _ in buffers[v.suffix])}) : "
        f"({', '.join(t for _, _, t in buffers[v.suffix])}) -> ()"
        for v in chosen
    }
    main += [f"  {text}" for text in calls_text.values()]  # warm-up
    for rep in range(repeat):
        for version in _rotated(chosen, rep):
            tag = f"{version.suffix}_{rep}"
            main += [
                f"  %t0_{tag} = func.call @rtclock() : () -> f64",
                f"  {calls_text[version.suffix]}",
                f"  %t1_{tag} = func.call @rtclock() : () -> f64",
                f"  %dt_{tag} = arith.subf %t1_{tag}, %t0_{tag} : f64",
                f"  vector.print %dt_{tag} : f64",
            ]
    main.append("  %sums = memref.alloc() : memref<2xf64>")
    for version in chosen:
        output = next(b for o, b, _ in buffers[version.suffix] if o.value is None)
        main += ["  memref.store %fzero, %sums[%c0] : memref<2xf64>", "  memref.store %fzero, %sums[%c1] : memref<2xf64>"]
        main += _checksum(kernel.output, version.typed, output)
        main += [f"  %sum_{version.suffix} = memref.load %sums[%c0] : memref<2xf64>",
                 f"  %weighted_{version.suffix} = memref.load %sums[%c1] : memref<2xf64>",
                 f"  vector.print %sum_{version.suffix} : f64", f"  vector.print %weighted_{version.suffix} : f64"]
    main += ["  func.return", "}"]
    helpers = """
func.func private @rtclock() -> f64
func.func @as_value(%v: index) -> f32 {
  %shift = arith.constant 100 : index
  %s = arith.subi %v, %shift : index
  %i = arith.index_cast %s : index to i64
  %f = arith.sitofp %i : i64 to f32
  func.return %f : f32
}
"""
    return "module {\n" + helpers + lowered + "\n" + "\n".join(main) + "\n}\n"


def _rotated(chosen: list[Version], rep: int) -> list[Version]:
    shift = rep % len(chosen)
    return chosen[shift:] + chosen[:shift]


def lower(kernel: Kernel, chosen: list[Version], pipeline: str) -> str:
    """Each version through layout-opt (the naive one through layout-lower alone): the
    functions' text."""
    texts = []
    for version in chosen:
        steps = pipeline if version.scheduled else "layout-lower"
        run = subprocess.run(
            [sys.executable, "-m", "heterolayout.tools.opt", "-p", steps],
            input=kernel.function(version.suffix, version.typed),
            capture_output=True, text=True, check=False, cwd=REPOSITORY,
        )
        if run.returncode != 0:
            raise RuntimeError(f"layout-opt failed on {kernel.name}:\n{run.stderr}")
        texts += run.stdout.strip().splitlines()[1:-1]
    return "\n".join(texts)


@dataclass
class Measured:
    times: dict[str, list[float]]
    checksums: dict[str, tuple[float, float]]


CACHING_MALLOC = {"MALLOC_MMAP_THRESHOLD_": str(1 << 30), "MALLOC_TRIM_THRESHOLD_": str(1 << 30)}
"""glibc keeps freed memory for the next call instead of unmapping or trimming it."""


ISA_LIMITS = {
    "avx2": {
        "mattr": "-avx512f",
        "env": {"ONEDNN_MAX_CPU_ISA": "AVX2"},
        "numpy": {"OPENBLAS_CORETYPE": "Haswell"},
    },
}
"""`--isa avx2` on an AVX-512 CPU: LLVM without AVX-512 (so 16 vector registers), oneDNN
and OpenBLAS limited to their AVX2 kernels. The CPU still runs them its own way (port
counts, caches): an AVX2 machine's numbers are not these."""


def run_mlir(
    kernel: Kernel, llvm: str, chosen: list[Version], repeat: int, runner: str, libs: list[str],
    object_file: Path | None = None, caching_malloc: bool = True, isa: str | None = None,
) -> Measured:
    command = [runner, "-e", "main", "-entry-point-result=void", "-O3", "-shared-libs=" + ",".join(libs)]
    if isa is not None:
        command.append(f"--mattr={ISA_LIMITS[isa]['mattr']}")
    if object_file is not None:
        command += ["-dump-object-file", f"-object-filename={object_file}"]
    env = {**os.environ, **(CACHING_MALLOC if caching_malloc else {})}
    run = subprocess.run(
        command, input=llvm, capture_output=True, text=True, check=False, timeout=3600, env=env
    )
    if run.returncode != 0:
        raise RuntimeError(f"mlir-runner failed on {kernel.name}:\n{run.stderr[-3000:]}")
    values = [float(v) for v in run.stdout.split()]
    times: dict[str, list[float]] = {v.suffix: [] for v in chosen}
    for rep in range(repeat):
        for version in _rotated(chosen, rep):
            times[version.suffix].append(values.pop(0))
    checksums = {v.suffix: (values.pop(0), values.pop(0)) for v in chosen}
    return Measured(times, checksums)


VECTOR_ARITHMETIC = re.compile(r"\b(vfmadd\w*ps|vmulps|vaddps)\s.*%([xyz])mm")


def vector_arithmetic(object_file: Path, function: str) -> dict[str, int]:
    """Packed f32 multiply/add/FMA instructions in one function of the object, by register
    width (xmm, ymm, zmm)."""
    dump = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", str(object_file)], capture_output=True, text=True, check=True
    ).stdout
    counts: dict[str, int] = {}
    inside = False
    for line in dump.splitlines():
        if line.endswith(">:"):
            inside = line.split("<")[1].startswith(function + ">")
            continue
        match = VECTOR_ARITHMETIC.search(line) if inside else None
        if match:
            key = f"{'fma' if match.group(1).startswith('vfmadd') else match.group(1)} {match.group(2)}mm"
            counts[key] = counts.get(key, 0) + 1
    return counts


def expected_checksum(kernel: Kernel) -> tuple[float, float]:
    out = kernel.reference().ravel()
    weights = np.arange(out.size) % 7 + 1
    return float(out.sum()), float((out * weights).sum())


def run_onednn(binary: Path, sizes: Sizes, repeat: int, isa: str | None = None) -> Measured:
    environment = {**os.environ, "OMP_NUM_THREADS": "1", **(ISA_LIMITS[isa]["env"] if isa else {})}
    c, h = str(sizes.channels), str(sizes.height)
    run = subprocess.run(
        [str(binary), "1", c, h, h, c, "3", "3", str(repeat)],
        capture_output=True, text=True, check=True, env=environment,
    )
    fields = {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines()}
    checksum = tuple(float(v) for v in fields["checksum"])
    return Measured(
        {"alone": [float(v) for v in fields["primitive"]],
         "boundary": [float(v) for v in fields["reorders"]]},
        {"alone": checksum, "boundary": checksum},  # type: ignore[dict-item]
    )


NUMPY_TIMING = """
import sys, time
import numpy as np
n = int(sys.argv[2])
i, k = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
a = ((i * 3 + k * 5) % 11 - 5).astype(np.float32)
b = ((i * 7 + k * 2) % 13 - 6).astype(np.float32)
c = a @ b
times = []
for _ in range(int(sys.argv[1])):
    start = time.perf_counter()
    c = a @ b
    times.append(time.perf_counter() - start)
out = c.astype(np.float64).ravel()
print(" ".join(map(repr, times)))
print(out.sum(), (out * (np.arange(out.size) % 7 + 1)).sum())
"""


def run_numpy(sizes: Sizes, repeat: int, isa: str | None = None) -> Measured:
    environment = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    environment["OPENBLAS_NUM_THREADS"] = "1"
    environment.update(ISA_LIMITS[isa]["numpy"] if isa else {})
    run = subprocess.run(
        [sys.executable, "-c", NUMPY_TIMING, str(repeat), str(sizes.matrix)],
        capture_output=True, text=True, check=True, env=environment,
    )
    times_line, checksum_line = run.stdout.strip().splitlines()
    times = [float(v) for v in times_line.split()]
    checksum = tuple(float(v) for v in checksum_line.split())
    return Measured({"alone": times, "boundary": times}, {"alone": checksum, "boundary": checksum})  # type: ignore[dict-item]


def _check(what: str, measured: Measured, expected: tuple[float, float]) -> None:
    for suffix, checksum in measured.checksums.items():
        if checksum != expected:
            raise RuntimeError(f"{what} ({suffix}): checksum {checksum} != numpy's {expected}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one round, few repetitions")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes (conv 16 channels, matmul 64)")
    parser.add_argument("--rounds", type=int, default=None, help="alternating rounds (default 3)")
    parser.add_argument("--repeat", type=int, default=None, help="timings per round (default 20)")
    parser.add_argument(
        "--target", default="host", choices=["host", *sorted(PANELS)],
        help="layout-schedule target (default: this CPU's)",
    )
    parser.add_argument("--fma", action="store_true", help="layout-schedule{fma=true}")
    parser.add_argument("--naive", action="store_true", help="also time the unscheduled kernels")
    parser.add_argument("--options", default="", help="more layout-schedule options")
    parser.add_argument(
        "--isa", choices=sorted(ISA_LIMITS),
        help="limit LLVM, oneDNN and OpenBLAS to this ISA on a CPU that has more (an emulation)",
    )
    parser.add_argument(
        "--default-malloc", action="store_true",
        help="run mlir-runner with glibc's default malloc thresholds (see the docstring)",
    )
    args = parser.parse_args(argv)
    rounds = args.rounds or (1 if args.quick or args.smoke else 3)
    repeat = args.repeat or (5 if args.quick or args.smoke else 20)
    sizes = Sizes(16, 10, 64) if args.smoke else Sizes()
    target = host_target() if args.target == "host" else args.target
    runner, opt, libs = find_mlir_tool("mlir-runner"), find_mlir_tool("mlir-opt"), find_runner_utils()
    if runner is None or opt is None or not libs:
        print("MLIR 22 tools not found (apt-get install -y mlir-22-tools)", file=sys.stderr)
        return 1
    why_not = onednn.missing()
    options = " ".join(filter(None, [f"target={target}", "fma=true" if args.fma else "", args.options]))
    pipeline = f"layout-schedule{{{options}}},layout-lower"
    chosen = versions(args.naive)
    all_kernels = kernels(sizes, target)
    results: dict[str, dict[str, list[float]]] = {}
    arithmetic: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        binary = None if why_not else onednn.build("onednn_conv.cpp", Path(scratch) / "onednn_conv")
        llvm = {}
        for kernel in all_kernels:
            module = timing_module(kernel, lower(kernel, chosen, pipeline), chosen, repeat)
            llvm[kernel.name] = lower_to_llvm(module, mlir_opt=opt, timeout=600)
        expected = {k.name: expected_checksum(k) for k in all_kernels}
        for round_number in range(rounds):
            for kernel in all_kernels:
                dump = Path(scratch) / f"{kernel.name}.o" if round_number == 0 else None
                measured = run_mlir(
                    kernel, llvm[kernel.name], chosen, repeat, runner, libs, dump,
                    caching_malloc=not args.default_malloc, isa=args.isa,
                )
                _check(kernel.name, measured, expected[kernel.name])
                _collect(results, kernel.name, measured)
                if dump is not None:
                    arithmetic[kernel.name] = vector_arithmetic(dump, f"{kernel.name}_alone")
            if binary is not None:
                measured = run_onednn(binary, sizes, repeat, args.isa)
                _check("oneDNN", measured, expected["conv"])
                _collect(results, "onednn", measured)
            measured = run_numpy(sizes, repeat, args.isa)
            _check("numpy", measured, expected["matmul"])
            _collect(results, "numpy", measured)
    flops = {k.name: k.flops for k in all_kernels}
    layouts = {k.name: ", ".join(str(o.layout) for o in k.operands if o.layout) for k in all_kernels}
    malloc = "glibc defaults" if args.default_malloc else "caching (" + " ".join(
        f"{k}={v}" for k, v in CACHING_MALLOC.items()
    ) + ")"
    _report(results, flops, pipeline, why_not, sizes, arithmetic, layouts, malloc)
    if args.isa is not None:
        limits = ISA_LIMITS[args.isa]
        settings = " ".join(f"{k}={v}" for k, v in {**limits["env"], **limits["numpy"]}.items())
        print(f"\nISA limited to {args.isa} (an emulation on this CPU): mlir-runner "
              f"--mattr={limits['mattr']}, {settings}")
    return 0


def _collect(results: dict[str, dict[str, list[float]]], name: str, measured: Measured) -> None:
    for suffix, times in measured.times.items():
        results.setdefault(name, {}).setdefault(suffix, []).extend(times)


ROWS = {
    "boundary": "with boundary conversions",
    "alone": "kernel alone",
    "naive": "naive nest, layout-lower only",
}


def _report(
    results: dict[str, dict[str, list[float]]],
    flops: dict[str, int],
    pipeline: str,
    why_not: str | None,
    sizes: Sizes,
    arithmetic: dict[str, dict[str, int]],
    layouts: dict[str, str],
    malloc: str,
) -> None:
    c, h, n = sizes.channels, sizes.height, sizes.matrix
    b = layouts["matmul"]
    print(f"machine: {_cpu_model()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; one thread")
    print(f"pipeline: layout-opt -p '{pipeline}'; mlir-runner -O3 (host CPU features)")
    print(f"mlir-runner's malloc: {malloc}")
    print(f"conv 1x{c}x{h}x{h}, 3x3, {c}->{c}; matmul {n}^3 (B {b}); medians over all timings (best in parentheses)")
    print()
    print("| kernel | version | ms | GFLOP/s | baseline | baseline ms | baseline GFLOP/s | ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    baselines = {"conv": ("onednn", "oneDNN direct conv"), "matmul": ("numpy", "numpy/OpenBLAS")}
    for kernel, (baseline, label) in baselines.items():
        for suffix, text in ROWS.items():
            if suffix not in results[kernel]:
                continue
            ours = statistics.median(results[kernel][suffix])
            best = min(results[kernel][suffix])
            line = (
                f"| {kernel} | {text} | {ours * 1e3:.3f} | {flops[kernel] / ours / 1e9:.1f} "
                f"({flops[kernel] / best / 1e9:.1f}) |"
            )
            if baseline in results:
                key = "boundary" if suffix == "boundary" else "alone"
                theirs = statistics.median(results[baseline][key])
                their_best = min(results[baseline][key])
                name = label + (" + reorders" if baseline == "onednn" and key == "boundary" else "")
                line += (
                    f" {name} | {theirs * 1e3:.3f} | {flops[kernel] / theirs / 1e9:.1f} "
                    f"({flops[kernel] / their_best / 1e9:.1f}) | {theirs / ours:.2f} "
                    f"({their_best / best:.2f}) |"
                )
            else:
                line += f" {label}: {why_not} | | | |"
            print(line)
    print()
    for kernel, counts in arithmetic.items():
        found = ", ".join(f"{count} {key}" for key, count in sorted(counts.items())) or "none"
        print(f"@{kernel}_alone packed f32 multiply/add/FMA instructions: {found}")


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
