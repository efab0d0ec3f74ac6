"""Benchmark: `layout.convert` lowered by `layout-lower` and run natively, against memcpy of
the same bytes and oneDNN's reorder, side by side in one run.

Each conversion is a function `@convert(%src, %dst)` holding one `layout.convert`, lowered
by `layout-lower` (tiled vector loads, in-register transposes, vector stores; whole
containers for bit-packed destinations) and compiled with upstream MLIR 22 (-O3, host
CPU) into a timing loop that keeps the calls from being folded away
(`heterolayout.execution.native.TimedFunction`). memcpy is `memref.copy` of a flat byte buffer as
large as the larger of the two buffers, compiled and timed the same way (LLVM turns it into
a libc `memcpy` call). All buffers start on a 64-byte boundary. oneDNN's reorder (the `bench` extra: `pip install -e '.[bench]'`,
oneDNN 2023.2.0) runs through a small C++ harness (benchmarks/onednn_reorder.cpp) built with g++ at run time and loaded into
this process, on one thread (OMP_NUM_THREADS=1); conversions oneDNN has no format for show
"—". Every repetition times all variants in a rotating order, so a shared machine's load
hits them alike; the table gives medians over repetitions, and the ratios of the best
(fastest) repetitions.

Before timing, each result is checked: the converted buffer equals numpy's reference
(`Layout.pack(..., native=False)` of the logical tensor), and oneDNN's equals it too.

    python -m benchmarks.reorder [--quick] [--repeat N] [--min-time SECONDS] [--only TEXT]
                                 [--shape N,C,H,W]
"""

from __future__ import annotations

import argparse
import ctypes
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

os.environ["OMP_NUM_THREADS"] = "1"  # before libgomp (through oneDNN) is loaded

import numpy as np

from benchmarks import onednn
from heterolayout import parse_layout
from heterolayout.dialects.context import parse_program
from heterolayout.execution.native import TimedFunction, missing
from heterolayout.passes.pipeline import apply_pipeline

FULL = (8, 64, 112, 112)
QUICK = (2, 32, 28, 28)

@dataclass(frozen=True)
class Case:
    name: str
    shape: tuple[int, ...]
    element: str
    source: str
    """The source memref's layout attribute ("" for a plain memref)."""
    target: str
    onednn: tuple[str, str] | None
    """oneDNN's format tags of source and target, when it has them."""


def cases(shape: tuple[int, int, int, int]) -> list[Case]:
    n, c, h, w = shape
    nhwc = (n, h - 2, w - 2, c - 4)  # H, W padded to multiples of 8 and C to 32 by the crouton
    return [
        Case("NCHW→nChw16c", shape, "f32", "", '#layout.tag<"nChw16c">', ("nchw", "nChw16c")),
        Case("nChw16c→NCHW", shape, "f32", '#layout.tag<"nChw16c">', "", ("nChw16c", "nchw")),
        Case("NCHW→NHWC", shape, "f32", "", '#layout.tag<"nhwc">', ("nchw", "nhwc")),
        Case(
            "OIHW→OIhw16i16o (3×3 weights)",
            (c, c, 3, 3),
            "f32",
            "",
            '#layout.tag<"OIHW->OIhw16i16o">',
            ("oihw", "OIhw16i16o"),
        ),
        Case(
            "NHWC→HTP crouton, pad 31",
            nhwc,
            "i8",
            "",
            '#layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>',  # R4CroutonLayout
            None,
        ),
        Case(
            "i1→i8 bit-packed (NHWC8c)",
            (n, h, w, c),
            "i1",
            "",
            '#layout.tag<"NHWC->NHWC8c", pack = i8>',
            None,
        ),
    ]


def _memref(case: Case, layout: str) -> str:
    dims = "x".join(str(e) for e in case.shape)
    return f"memref<{dims}x{case.element}{', ' + layout if layout else ''}>"


ALIGNMENT = 64
"""Every buffer of the benchmark starts on a cache line, as framework allocators (and
oneDNN's) make them; numpy's own start 16 bytes into one."""


def aligned(array: np.ndarray) -> np.ndarray:
    """A copy of `array` whose data starts at a multiple of `ALIGNMENT` bytes."""
    raw = np.empty(array.nbytes + ALIGNMENT, dtype=np.uint8)
    start = -raw.ctypes.data % ALIGNMENT
    out = raw[start : start + array.nbytes].view(array.dtype).reshape(array.shape)
    out[...] = array
    return out


def physical(case: Case, attribute: str, logical: np.ndarray) -> np.ndarray:
    """numpy's reference buffer of one side (the logical array itself when plain)."""
    if not attribute:
        return aligned(logical)
    layout = parse_layout(attribute, case.shape, dtype=case.element)
    return aligned(layout.pack(logical, native=False))


def as_argument(array: np.ndarray, function: TimedFunction, position: int) -> np.ndarray:
    """The same bytes as the compiled function's memref argument takes them (a view)."""
    from heterolayout.execution.runtime.memref import memref_info

    info = memref_info(function.library.function_type(function.entry).inputs.data[position])
    return array.view(info.element.numpy_dtype).reshape(tuple(info.shape) + info.lanes)  # type: ignore[arg-type]


def convert_function(case: Case) -> TimedFunction:
    source, target = _memref(case, case.source), _memref(case, case.target)
    text = (
        f"func.func @convert(%src: {source}, %dst: {target}) {{\n"
        f"  layout.convert %src to %dst : {source} to {target}\n"
        "  func.return\n}\n"
    )
    return TimedFunction(apply_pipeline(parse_program(text, case.name), "layout-lower"), "convert")


def copy_function(size: int) -> TimedFunction:
    memref = f"memref<{size}xi8>"
    text = (
        f"func.func @copy(%a: {memref}, %b: {memref}) {{\n"
        f'  "memref.copy"(%a, %b) : ({memref}, {memref}) -> ()\n'  # xDSL 0.74: generic form
        "  func.return\n}\n"
    )
    return TimedFunction(parse_program(text, "memcpy"), "copy")


def random_logical(case: Case, rng: np.random.Generator) -> np.ndarray:
    if case.element == "f32":
        return rng.uniform(-1, 1, case.shape).astype(np.float32)
    if case.element == "i1":
        return rng.integers(0, 2, case.shape).astype(np.uint8)
    return rng.integers(-128, 128, case.shape).astype(np.int8)


class OneDNN:
    """The C++ harness, built once per run."""

    def __init__(self) -> None:
        reason = onednn.missing()
        if reason is not None:
            raise RuntimeError(reason)
        self._work = tempfile.TemporaryDirectory(prefix="heterolayout-onednn-")
        library = onednn.build("onednn_reorder.cpp", Path(self._work.name) / "libreorder.so", shared=True)
        self.handle = ctypes.CDLL(str(library))
        self.handle.hl_reorder_create.restype = ctypes.c_void_p
        self.handle.hl_reorder_create.argtypes = [ctypes.c_long] * 4 + [ctypes.c_char_p] * 2 + [ctypes.c_void_p] * 2
        self.handle.hl_reorder_time.restype = ctypes.c_double
        self.handle.hl_reorder_time.argtypes = [ctypes.c_void_p, ctypes.c_long]

    def reorder(self, case: Case, source: np.ndarray, target: np.ndarray) -> int:
        assert case.onednn is not None
        n, c, h, w = case.shape
        return self.handle.hl_reorder_create(
            n, c, h, w, case.onednn[0].encode(), case.onednn[1].encode(),
            source.ctypes.data, target.ctypes.data,
        )

    def seconds(self, primitive: int, calls: int) -> float:
        return float(self.handle.hl_reorder_time(primitive, calls))


@dataclass
class Variant:
    name: str
    run: object  # Callable[[int], float]: seconds of `calls` calls
    calls: int = 1


def calibrate(run, min_time: float) -> int:  # type: ignore[no-untyped-def]
    calls = 1
    while True:
        elapsed = run(calls)
        if elapsed >= min_time:
            return calls
        calls = max(calls + 1, int(calls * min(100.0, 1.5 * min_time / max(elapsed, 1e-9))))


def measure(case: Case, onednn: OneDNN | None, repeat: int, min_time: float) -> dict[str, float]:
    rng = np.random.default_rng(0)
    logical = random_logical(case, rng)
    source = physical(case, case.source, logical)
    expected = physical(case, case.target, logical)
    target = aligned(np.zeros_like(expected))
    converted = convert_function(case)
    arguments = [as_argument(source, converted, 0), as_argument(target, converted, 1)]
    converted.seconds(arguments, 1)
    if not np.array_equal(target, expected):
        raise RuntimeError(f"{case.name}: the converted buffer differs from numpy's reference")
    size = max(source.nbytes, expected.nbytes)
    blob_in, blob_out = aligned(np.zeros(size, dtype=np.int8)), aligned(np.zeros(size, dtype=np.int8))
    copy = copy_function(size)
    variants = [
        Variant("ours", lambda calls: converted.seconds(arguments, calls)),
        Variant("memcpy", lambda calls: copy.seconds([blob_in, blob_out], calls)),
    ]
    if onednn is not None and case.onednn is not None:
        theirs = aligned(np.zeros_like(expected))
        primitive = onednn.reorder(case, source, theirs)
        onednn.seconds(primitive, 1)
        if not np.array_equal(theirs, expected):
            raise RuntimeError(f"{case.name}: oneDNN's reorder differs from numpy's reference")
        variants.append(Variant("oneDNN", lambda calls: onednn.seconds(primitive, calls)))
    for variant in variants:
        variant.calls = calibrate(variant.run, min_time)
    times: dict[str, list[float]] = {v.name: [] for v in variants}
    for repetition in range(repeat):
        shift = repetition % len(variants)
        for variant in variants[shift:] + variants[:shift]:
            times[variant.name].append(variant.run(variant.calls) / variant.calls)  # type: ignore[operator]
    medians = {name: statistics.median(values) for name, values in times.items()}
    medians.update({f"best {name}": min(values) for name, values in times.items()})
    medians["bytes"] = float(size)
    medians["source_bytes"] = float(source.nbytes)
    medians["target_bytes"] = float(expected.nbytes)
    return medians


def machine() -> str:
    model = platform.processor() or "unknown CPU"
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        for line in lscpu.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"shape {QUICK} instead of {FULL}")
    parser.add_argument("--repeat", type=int, default=11, help="repetitions (default 11)")
    parser.add_argument("--min-time", type=float, default=0.1, help="seconds per timed slot")
    parser.add_argument("--no-onednn", action="store_true", help="leave oneDNN out")
    parser.add_argument("--only", default="", help="the cases whose name contains this text")
    parser.add_argument("--shape", default="", help="N,C,H,W instead of the default shape")
    args = parser.parse_args(argv)
    shape = QUICK if args.quick else FULL
    if args.shape:
        try:
            dims = tuple(int(e) for e in args.shape.split(","))
        except ValueError:
            dims = ()
        if len(dims) != 4 or min(dims) < 1 or dims[1] < 5 or min(dims[2:]) < 3:
            parser.error(f"--shape {args.shape}: expected N,C,H,W with C >= 5 and H, W >= 3")
        shape = dims  # type: ignore[assignment]
    reason = missing()
    if reason is not None:
        print(reason, file=sys.stderr)
        return 1
    onednn = None if args.no_onednn else OneDNN()
    print(f"# layout.convert natively vs memcpy and oneDNN's reorder ({machine()}; "
          f"{args.repeat} repetitions, medians and best; OMP_NUM_THREADS=1)")
    print()
    header = ["conversion", "shape", "bytes in → out", "memcpy ms", "ours ms", "oneDNN ms",
              "ours / memcpy", "oneDNN / memcpy", "ours / oneDNN",
              "best ours / memcpy", "best ours / oneDNN"]
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for case in [c for c in cases(shape) if args.only in c.name]:
        result = measure(case, onednn, args.repeat, args.min_time)
        ours, copy = result["ours"], result["memcpy"]
        theirs = result.get("oneDNN")
        best, best_copy, best_theirs = result["best ours"], result["best memcpy"], result.get("best oneDNN")
        cells = [
            case.name,
            "×".join(str(e) for e in case.shape) + f" {case.element}",
            f"{result['source_bytes'] / 1e6:.1f} MB → {result['target_bytes'] / 1e6:.1f} MB",
            f"{copy * 1e3:.3g}",
            f"{ours * 1e3:.3g}",
            "—" if theirs is None else f"{theirs * 1e3:.3g}",
            f"{ours / copy:.2f}",
            "—" if theirs is None else f"{theirs / copy:.2f}",
            "—" if theirs is None else f"{ours / theirs:.2f}",
            f"{best / best_copy:.2f}",
            "—" if best_theirs is None else f"{best / best_theirs:.2f}",
        ]
        print("| " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
