"""Benchmark: the vector FMA pipes' peak on this CPU, the roof of every convolution and
matmul in benchmarks/schedule.py and benchmarks/models.py.

A C loop of 12 independent chains of fused multiply-adds on full vectors (512-bit with
AVX-512, 256-bit with AVX2; more chains than the FMA latency times the pipes, so no chain
waits), compiled by the C compiler the native engine uses, each chain's start drawn at run
time so the compiler folds none. Prints GFLOP/s (2 flops per lane per FMA), the best of a
few timed runs, for each vector width the CPU runs:

    python -m benchmarks.fma_peak [--seconds S]

A kernel's GFLOP/s over this number is how close it runs to the pipes (a kernel at 93% loses
7% to its loads, broadcasts and loop, not to the multiply-adds).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))
from heterolayout.execution.native.toolchain import find_c_compiler  # noqa: E402

CHAINS = 12
ISAS = {
    "avx512": ("__m512", "_mm512", 16, ["-mavx512f", "-mfma"], "avx512f"),
    "avx2": ("__m256", "_mm256", 8, ["-mavx2", "-mfma"], "avx2"),
}
"""ISA: (vector type, intrinsic prefix, f32 lanes, compiler flags, /proc/cpuinfo flag)."""


def source(isa: str) -> str:
    vector, prefix, lanes, _, _ = ISAS[isa]
    starts = ", ".join(f"a{i} = {prefix}_set1_ps(seed * {i + 1})" for i in range(CHAINS))
    steps = " ".join(f"a{i} = {prefix}_fmadd_ps(a{i}, b, c);" for i in range(CHAINS))
    total = " + ".join(f"v[{i * lanes}]" for i in range(CHAINS))
    stores = " ".join(f"{prefix}_storeu_ps(v + {i} * {lanes}, a{i});" for i in range(CHAINS))
    return f"""
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv) {{
  long n = atol(argv[1]);
  float seed = (float)argc * 1e-3f;
  {vector} b = {prefix}_set1_ps(0.999999f), c = {prefix}_set1_ps(seed);
  {vector} {starts};
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long i = 0; i < n; i++) {{ {steps} }}
  clock_gettime(CLOCK_MONOTONIC, &t1);
  float v[{CHAINS * lanes}];
  {stores}
  double s = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
  printf("%.3f %g\\n", {CHAINS}.0 * {lanes} * 2 * n / s / 1e9, (double)({total}));
  return 0;
}}
"""


def supported(isa: str) -> bool:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return f" {ISAS[isa][4]}" in text


def peak(isa: str, seconds: float, compiler: str, work: Path) -> float:
    """The best GFLOP/s of five runs of about `seconds` each."""
    binary = work / f"peak_{isa}"
    (work / f"peak_{isa}.c").write_text(source(isa))
    flags = ISAS[isa][3]
    subprocess.run(
        [compiler, "-O2", *flags, str(work / f"peak_{isa}.c"), "-o", str(binary)], check=True
    )
    rate = float(
        subprocess.run(
            [binary, "1000000"], capture_output=True, text=True, check=True
        ).stdout.split()[0]
    )
    steps = max(1, int(seconds * rate * 1e9 / (CHAINS * ISAS[isa][2] * 2)))
    runs = [
        float(
            subprocess.run(
                [binary, str(steps)], capture_output=True, text=True, check=True
            ).stdout.split()[0]
        )
        for _ in range(5)
    ]
    return max(runs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=0.3, help="length of each run")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error(f"--seconds {args.seconds}: expected a positive length")
    compiler = find_c_compiler()
    if compiler is None:
        print("fma_peak.py: needs a C compiler (cc, gcc or clang)", file=sys.stderr)
        return 1
    isas = [isa for isa in ISAS if supported(isa)]
    if not isas:
        print("fma_peak.py: this CPU has neither AVX-512 nor AVX2", file=sys.stderr)
        return 1
    print("| vectors | chains | peak GFLOP/s (one core) |")
    print("| --- | --- | --- |")
    with tempfile.TemporaryDirectory(prefix="fma-peak-") as directory:
        for isa in isas:
            rate = peak(isa, args.seconds, compiler, Path(directory))
            print(f"| {isa} ({ISAS[isa][2]} f32) | {CHAINS} | {rate:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
