"""`layout-tune`: search the fastest layouts of a program's buffers by measuring them.

    layout-tune FILE [--buffer NAME]... [--entry F] [--budget N] [-o OUT] [--report DIR]
                [--target host|avx2|avx512|sse|neon] [--fast-math] [--tile SIZES]...

Candidates per buffer (named formats, permutations, blocks, HTP chunked layouts, packings
of sub-byte integers, joint blockings of dims that buffers share) are ranked by a cost model;
the `--budget` cheapest joint candidates (default: a quarter of them) are each assigned,
scheduled, lowered, compiled and timed natively (`layout-schedule{target=host},layout-lower`;
see docs/tune.md), with `layout-schedule`'s register tiles tuned too (`--tile` adds
sizes to try) and, with `--fast-math` only, fused multiply-adds and reassociated
reductions (results may differ in the last bits). Measurements are cached on disk, so a second run resumes. Prints a
progress line with the running best on stderr and the ranked table on stdout; `-o` writes
the program with the winning `layout.assign`s, `--report DIR` the table (text and JSON),
an SVG plot and the skipped candidates with their reasons.
Errors are one line on stderr and exit 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from heterolayout.tools.run import report_errors


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="layout-tune", description="Search the fastest layouts of a program's buffers."
    )
    parser.add_argument("file", help="MLIR file ('-' reads stdin)")
    parser.add_argument("--buffer", action="append", help="buffer to tune (repeatable)")
    parser.add_argument("--entry", default="main", help="function to time (default: main)")
    parser.add_argument("--budget", type=int, help="joint candidates to measure")
    parser.add_argument("--target", default="host", help="vector target (default: host)")
    parser.add_argument(
        "--fast-math",
        action="store_true",
        help="also try fma=true reassociate=true (results may differ in the last bits)",
    )
    parser.add_argument(
        "--tile", action="append", default=[], help="register tile to try, e.g. 1x32x1x3"
    )
    parser.add_argument("-o", "--output", help="write the program with the winning layouts")
    parser.add_argument("--report", help="folder for table.md, table.json, plot.svg, skipped.txt")
    return parser.parse_args(argv)


def _progress(index: int, count: int, best: object) -> None:
    ms = getattr(best, "ms", None)
    line = f"layout-tune: [{index}/{count}] " + (f"best {ms:.4g} ms" if ms else "no result yet")
    end = "\n" if index == count else ""
    print("\r" + line, end=end, file=sys.stderr, flush=True)


def _tune(args: argparse.Namespace) -> int:
    from heterolayout.layout.errors import LayoutError
    from heterolayout.search.report import table_text, write_report
    from heterolayout.search.search import tune

    if args.budget is not None and args.budget < 1:
        raise LayoutError(f"--budget must be at least 1, got {args.budget}")
    text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    result = tune(
        text,
        args.buffer,
        entry=args.entry,
        budget=args.budget,
        target=args.target,
        fast_math=args.fast_math,
        tiles=args.tile,
        progress=_progress,
    )
    if result.best is None:
        raise LayoutError(f"no candidate could be measured ({len(result.skipped)} skipped)")
    if args.output:
        Path(args.output).write_text(result.program + "\n", encoding="utf-8")
    if args.report:
        write_report(result, Path(args.report))
    print(table_text(result))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point; returns the exit code."""
    args = _arguments(argv)
    return report_errors("layout-tune", lambda: _tune(args))


if __name__ == "__main__":
    sys.exit(main())
