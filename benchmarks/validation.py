"""Benchmark: what translation validation adds to `layout-lower`.

For every example, and for a generated module of many small blocked accesses in loop nests
(`--accesses`), times `LayoutLowerPass` with `validate=false` and `validate=true` side by
side in one process (parse excluded; each run on a fresh copy of the parsed module;
interleaved repetitions, medians) and prints the ratio, with the accesses proven and how.

    python -m benchmarks.validation [--repeat N] [--accesses N]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import platform
import re
import statistics
import sys
import time
from pathlib import Path

from heterolayout.dialects.context import make_context
from heterolayout.dialects.upstream.parser import UpstreamParser
from heterolayout.passes.lower.layout_lower import LayoutLowerPass

REPOSITORY = Path(__file__).resolve().parent.parent
SUMMARY = re.compile(r"(\d+) of (\d+) accesses proven \((\d+) exhaustively, (\d+) element accesses checked; (\d+) symbolically\)")


def generated(accesses: int) -> str:
    """Functions of 8 accesses each to a blocked buffer in a 2-deep loop nest."""
    lines = []
    buffer = 'memref<32x48xf32, #layout.tag<"HW->HW8h16w">>'
    for f in range(max(1, accesses // 8)):
        lines += [f"func.func @f{f}(%m: {buffer}) {{", "  %v = arith.constant 1.0 : f32", "  affine.for %i = 0 to 30 {", "    affine.for %j = 0 to 44 {"]
        for a in range(4):
            lines.append(f"      %x{a} = affine.load %m[%i + {a % 3}, %j + {a}] : {buffer}")
            lines.append(f"      affine.store %v, %m[%i + {(a + 1) % 3}, %j + {3 - a}] : {buffer}")
        lines += ["    }", "  }", "  func.return", "}"]
    return "\n".join(lines) + "\n"


def time_lowering(text: str, validate: bool) -> tuple[float, str]:
    ctx = make_context()
    module = UpstreamParser(ctx, text, "bench.mlir").parse_module()
    stderr = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stderr(stderr):
        LayoutLowerPass(validate=validate).apply(ctx, module)
    return time.perf_counter() - start, stderr.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--accesses", type=int, default=400)
    arguments = parser.parse_args(argv)
    cases = {p.name: p.read_text() for p in sorted((REPOSITORY / "examples").glob("*.mlir"))}
    cases[f"generated ({arguments.accesses} accesses)"] = generated(arguments.accesses)
    print(f"translation validation cost; Python {platform.python_version()}, {platform.machine()}, repeat {arguments.repeat} (medians)\n")
    print("| module | layout-lower (s) | with validate=true (s) | ratio | accesses proven | exhaustively | symbolically |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    total_plain = total_checked = 0.0
    for name, text in cases.items():
        plain, checked, summary = [], [], ""
        for _ in range(arguments.repeat):
            plain.append(time_lowering(text, False)[0])
            seconds, summary = time_lowering(text, True)
            checked.append(seconds)
        found = SUMMARY.search(summary)
        assert found is not None and found[1] == found[2], summary
        a, b = statistics.median(plain), statistics.median(checked)
        total_plain, total_checked = total_plain + a, total_checked + b
        print(f"| {name} | {a:.3f} | {b:.3f} | {b / a:.2f} | {found[1]} | {found[3]} | {found[5]} |")
    print(f"| all | {total_plain:.3f} | {total_checked:.3f} | {total_checked / total_plain:.2f} | | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
