"""`layout-ptx`: the PTX of a program's GPU kernels, with its layouts lowered.

    layout-ptx FILE [-p PIPELINE] [--chip sm_90] [-O 3] [--output-dir DIR]

Runs PIPELINE (default `layout-lower`; `-p ''` for none), then upstream mlir-opt 22
(`heterolayout.execution.cuda.ptx_passes`: gpu.launch bodies outlined into kernels, NVVM, the NVPTX
back-end; no CUDA toolkit). Prints each gpu.module's PTX after a `// gpu.module @NAME`
line, or with `--output-dir` writes `DIR/NAME.ptx` per module and prints the files and their
kernels. Errors are one line on stderr and exit 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from xdsl.utils.exceptions import DiagnosticException, ParseError

from heterolayout.dialects.diagnostics import tool_error
from heterolayout.layout.errors import LayoutError

TRACEBACK_VARIABLE = "HETEROLAYOUT_TRACEBACK"


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="layout-ptx",
        description="Compile the GPU kernels of an MLIR program with layouts to PTX "
        "(upstream mlir-opt 22; no CUDA toolkit needed).",
    )
    parser.add_argument("file", help="MLIR file ('-' reads stdin)")
    parser.add_argument(
        "-p",
        "--pipeline",
        default="layout-lower",
        help="pass pipeline first (default: layout-lower)",
    )
    parser.add_argument("--chip", default="sm_90", help="NVIDIA architecture (default: sm_90)")
    parser.add_argument(
        "-O", "--opt-level", type=int, default=3, choices=range(4), help="default: 3"
    )
    parser.add_argument("--output-dir", type=Path, help="write DIR/NAME.ptx per gpu.module")
    return parser.parse_args(argv)


def _run(args: argparse.Namespace) -> int:
    from heterolayout.dialects.context import parse_program
    from heterolayout.execution.cuda.ptx import compile_ptx, entry_names

    if args.file == "-":
        text, name = sys.stdin.read(), "<stdin>"
    else:
        text, name = Path(args.file).read_text(encoding="utf-8"), args.file
    modules = compile_ptx(
        parse_program(text, name), args.pipeline, chip=args.chip, opt_level=args.opt_level
    )
    if args.output_dir is None:
        for module_name, ptx in modules.items():
            print(f"// gpu.module @{module_name}")
            print(ptx)
        return 0
    args.output_dir.mkdir(parents=True, exist_ok=True)
    for module_name, ptx in modules.items():
        path = args.output_dir / f"{module_name}.ptx"
        path.write_text(ptx, encoding="utf-8")
        print(f"{path}: {', '.join(entry_names(ptx))}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point; returns the exit code."""
    args = _arguments(argv)
    try:
        return _run(args)
    except (DiagnosticException, LayoutError, ParseError, OSError, ValueError) as error:
        if os.environ.get(TRACEBACK_VARIABLE):
            raise
        print(tool_error("layout-ptx", error), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
