"""Benchmark: `Layout.pack` / `Layout.unpack` against numpy's own formulation and memcpy.

For each layout the same float32 tensor is packed and unpacked by heterolayout and by a
hand-written numpy reshape / transpose / copy (with `np.pad` where the layout pads), after
checking that both produce equal arrays, so the comparison is of equal work. Every time is
reported as a ratio against `np.copyto` of the logical bytes into a preallocated array of
the same size (memcpy), timed in the same round; the table shows the median over rounds,
with the operations interleaved within each round so machine load affects all alike.

    python -m benchmarks.pack [--quick] [--repeat N]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

import heterolayout

FULL_SHAPE = (8, 64, 112, 112)
QUICK_SHAPE = (2, 32, 28, 28)


@dataclass(frozen=True)
class Case:
    """One layout: its spec, and numpy's formulation of its pack and unpack."""

    name: str
    spec: str
    numpy_pack: Callable[[np.ndarray], np.ndarray]
    numpy_unpack: Callable[[np.ndarray], np.ndarray]


def _round_up(extent: int, block: int) -> int:
    return -(-extent // block) * block


def cases(shape: tuple[int, int, int, int]) -> list[Case]:
    """The three benchmarked layouts on `shape`: read as NCHW for the tags, and as NHWC for
    the crouton, whose blocks of 8 (H), 8 (W) and 32 (C) pad the dims they do not divide."""
    n, c, h, w = shape
    if c % 16:
        raise ValueError(f"nChw16c formulation needs C divisible by 16, got {c}")

    def nchw16c_pack(x: np.ndarray) -> np.ndarray:
        return x.reshape(n, c // 16, 16, h, w).transpose(0, 1, 3, 4, 2).copy()

    def nchw16c_unpack(p: np.ndarray) -> np.ndarray:
        return p.transpose(0, 1, 4, 2, 3).reshape(n, c, h, w)

    def nhwc_pack(x: np.ndarray) -> np.ndarray:
        return x.transpose(0, 2, 3, 1).copy()

    def nhwc_unpack(p: np.ndarray) -> np.ndarray:
        return p.transpose(0, 3, 1, 2).copy()

    # The crouton reads the same 4-D tensor as N, H, W, C = shape.
    hh, ww, cc = shape[1], shape[2], shape[3]
    hp, wp, cp = _round_up(hh, 8), _round_up(ww, 8), _round_up(cc, 32)

    def crouton_pack(x: np.ndarray) -> np.ndarray:
        padded = np.pad(x, ((0, 0), (0, hp - hh), (0, wp - ww), (0, cp - cc)))
        blocks = padded.reshape(n, hp // 8, 8, wp // 8, 8, cp // 32, 32)
        return blocks.transpose(0, 1, 3, 5, 2, 4, 6).copy()

    def crouton_unpack(p: np.ndarray) -> np.ndarray:
        padded = p.transpose(0, 1, 4, 2, 5, 3, 6).reshape(n, hp, wp, cp)
        return padded[:, :hh, :ww, :cc].copy()

    return [
        Case("NCHW->nChw16c", "NCHW->nChw16c", nchw16c_pack, nchw16c_unpack),
        Case("NCHW->NHWC", "NCHW->NHWC", nhwc_pack, nhwc_unpack),
        Case("R4CroutonLayout (as NHWC)", "R4CroutonLayout", crouton_pack, crouton_unpack),
    ]


def _seconds(operation: Callable[[], object]) -> float:
    start = time.perf_counter()
    result = operation()
    elapsed = time.perf_counter() - start
    del result
    return elapsed


@dataclass
class Ratios:
    """Per-round times divided by that round's memcpy time."""

    pack: list[float]
    numpy_pack: list[float]
    unpack: list[float]
    numpy_unpack: list[float]


def measure(shape: tuple[int, int, int, int], repeat: int) -> tuple[dict[str, Ratios], float]:
    """Median-ready ratios per case, and the median memcpy time in seconds.

    Raises AssertionError when heterolayout and numpy disagree on any result."""
    x = np.random.default_rng(0).standard_normal(shape, dtype=np.float32)
    memcpy_target = np.empty_like(x)
    prepared = []
    for case in cases(shape):
        layout = heterolayout.parse_layout(case.spec, shape, dtype="f32")
        packed = layout.pack(x)
        expected = case.numpy_pack(x)
        assert packed.shape == expected.shape and np.array_equal(packed, expected), (
            f"{case.name}: heterolayout pack differs from the numpy formulation"
        )
        unpacked = layout.unpack(packed)
        assert np.array_equal(unpacked, case.numpy_unpack(packed)), (
            f"{case.name}: heterolayout unpack differs from the numpy formulation"
        )
        assert np.array_equal(unpacked, x), f"{case.name}: unpack(pack(x)) != x"
        prepared.append((case, layout, packed))

    ratios = {case.name: Ratios([], [], [], []) for case, _, _ in prepared}
    memcpy_times: list[float] = []
    for round_index in range(repeat):
        for case, layout, packed in prepared:
            memcpy = _seconds(lambda: np.copyto(memcpy_target, x))
            memcpy_times.append(memcpy)
            timed = {
                "pack": lambda layout=layout: layout.pack(x),
                "numpy_pack": lambda case=case: case.numpy_pack(x),
                "unpack": lambda layout=layout, packed=packed: layout.unpack(packed),
                "numpy_unpack": lambda case=case, packed=packed: case.numpy_unpack(packed),
            }
            order = list(timed) if round_index % 2 == 0 else list(reversed(timed))
            entry = ratios[case.name]
            for key in order:
                getattr(entry, key).append(_seconds(timed[key]) / memcpy)
    return ratios, statistics.median(memcpy_times)


def table(ratios: dict[str, Ratios]) -> str:
    header = (
        "| layout | pack/memcpy | numpy pack/memcpy | unpack/memcpy | numpy unpack/memcpy "
        "| pack/numpy | unpack/numpy |"
    )
    lines = [header, "|" + " --- |" * 7]
    for name, r in ratios.items():
        pack_vs_numpy = [a / b for a, b in zip(r.pack, r.numpy_pack, strict=True)]
        unpack_vs_numpy = [a / b for a, b in zip(r.unpack, r.numpy_unpack, strict=True)]
        cells = [r.pack, r.numpy_pack, r.unpack, r.numpy_unpack, pack_vs_numpy, unpack_vs_numpy]
        lines.append(
            f"| {name} | " + " | ".join(f"{statistics.median(c):.3g}" for c in cells) + " |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help=f"small tensor {QUICK_SHAPE} for a smoke run"
    )
    parser.add_argument("--repeat", type=int, default=7, help="rounds (median taken; default 7)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    shape = QUICK_SHAPE if args.quick else FULL_SHAPE
    try:
        ratios, memcpy = measure(shape, args.repeat)
    except AssertionError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    nbytes = int(np.prod(shape)) * 4
    print(
        f"float32 {'x'.join(map(str, shape))} ({nbytes / 2**20:.1f} MiB), "
        f"median of {args.repeat} interleaved rounds; memcpy = np.copyto into a preallocated "
        f"array, median {memcpy * 1e3:.3f} ms"
    )
    print(
        f"Python {platform.python_version()}, numpy {np.__version__}, "
        f"{platform.machine()}; crouton reads the shape as N, H, W, C"
    )
    print()
    print(table(ratios))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
