"""`layout-tune`: choose the layouts of a program's buffers by measuring them.

    layout-tune FILE [--buffer NAME]... [--entry F] [--target T] [--fast-math]
                [-o OUT] [--report DIR]
    layout-tune FILE --hot-nest [--buffer NAME]... [--budget N] [--tile SIZES]... …

By default the whole program: a layout for every buffer (arguments, converted at the
public boundary; allocations; private constant globals, repacked at compile time), chosen
over all nests at once from each nest's native time with its buffers' candidate layouts
and each argument's measured boundary conversion (variable elimination, exact; see
docs/tune.md); the winner, the program as written and the uniform choices (all plain, all
blocked) then run whole and the fastest is kept. `--buffer` limits the buffers tuned (the
others keep the program's layouts). `--hot-nest` searches the hottest loop nest's buffers
and register tiles instead (the cost model ranks the joint candidates, `--budget` of them
are measured). Measurements are cached on disk, so a second run resumes. Prints progress on
stderr and the tables on stdout; `-o` writes the winning program, `--report DIR` the tables
(text and JSON), an SVG plot (and for the whole program, graph.svg: the program's graph with
each buffer's chosen layout). Errors are one line on stderr and exit 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from heterolayout.tools.run import report_errors


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="layout-tune", description="Choose the fastest layouts of a program's buffers."
    )
    parser.add_argument("file", help="MLIR file ('-' reads stdin)")
    parser.add_argument("--buffer", action="append", help="buffer to tune (repeatable)")
    parser.add_argument("--entry", default="main", help="function to time (default: main)")
    parser.add_argument("--target", default="host", help="vector target (default: host)")
    parser.add_argument(
        "--fast-math",
        action="store_true",
        help="schedule with fma=true reassociate=true (results may differ in the last bits; exp/erf/tanh/log approximated)",
    )
    parser.add_argument(
        "--hot-nest",
        action="store_true",
        help="search the hottest loop nest's buffers and register tiles only",
    )
    parser.add_argument("--budget", type=int, help="--hot-nest: joint candidates to measure")
    parser.add_argument(
        "--tile", action="append", default=[], help="--hot-nest: register tile, e.g. 1x32x1x3"
    )
    parser.add_argument("-o", "--output", help="write the program with the winning layouts")
    parser.add_argument("--report", help="folder for table.md, table.json, plot.svg, …")
    return parser.parse_args(argv)


def _progress(index: int, count: int, best: object) -> None:
    ms = getattr(best, "ms", None)
    line = f"layout-tune: [{index}/{count}] " + (f"best {ms:.4g} ms" if ms else "no result yet")
    end = "\n" if index == count else ""
    print("\r" + line, end=end, file=sys.stderr, flush=True)


def _step(text: str) -> None:
    print(f"layout-tune: {text}", file=sys.stderr, flush=True)


def _write(
    args: argparse.Namespace, program: str, report: Callable[[Path], None], table: str
) -> None:
    """The tuned program (`--output`), the report (`--report`), the table on stdout."""
    if args.output:
        Path(args.output).write_text(program + "\n", encoding="utf-8")
    if args.report:
        report(Path(args.report))
    print(table)


def _hot_nest(args: argparse.Namespace, text: str) -> int:
    from heterolayout.layout.errors import LayoutError
    from heterolayout.search.report import table_text, write_report
    from heterolayout.search.search import tune

    if args.budget is not None and args.budget < 1:
        raise LayoutError(f"--budget must be at least 1, got {args.budget}")
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
    _write(args, result.program, lambda path: write_report(result, path), table_text(result))
    return 0


def _whole(args: argparse.Namespace, text: str) -> int:
    from heterolayout.layout.errors import LayoutError
    from heterolayout.search.program_report import table_text, write_report
    from heterolayout.search.whole import tune

    if args.budget is not None or args.tile:
        raise LayoutError("--budget and --tile belong to --hot-nest")
    result = tune(
        text,
        args.buffer,
        entry=args.entry,
        target=args.target,
        fast_math=args.fast_math,
        progress=_step,
    )
    _write(args, result.program, lambda path: write_report(result, path), table_text(result))
    return 0


def _tune(args: argparse.Namespace) -> int:
    text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    return _hot_nest(args, text) if args.hot_nest else _whole(args, text)


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point; returns the exit code."""
    args = _arguments(argv)
    return report_errors("layout-tune", lambda: _tune(args))


if __name__ == "__main__":
    sys.exit(main())
