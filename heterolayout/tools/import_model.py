"""`layout-import`: a model to the bufferized upstream IR every heterolayout tool takes.

    layout-import MODEL [-o OUT.mlir] [--dim NAME=SIZE ...]

OUT holds one public `@main` whose arguments are the graph inputs then the graph outputs
(written in place), in graph order, each carrying its graph name (`heterolayout.input =
"x"`, `heterolayout.output = "y"`), and the weights as constant `memref.global`s. MODEL is
an ONNX file, or a `torch.export` program saved with `torch.export.save` (a `.pt2`, where
PyTorch is installed). The frontend is iree-base-compiler's importers and torch-mlir
pipelines, and upstream MLIR 22 bufferizes (docs/models.md); it is the optional extra
`pip install 'heterolayout[onnx]'`.
Without `-o` the module goes to standard output; `-o` is written only when the import
succeeds. Errors are one line on stderr and exit 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from heterolayout.tools.files import write_file
from heterolayout.tools.run import report_errors


def _dim(text: str) -> tuple[str, int]:
    name, _, size = text.partition("=")
    if not name or not size.isdigit() or int(size) < 1:
        raise argparse.ArgumentTypeError(f"expected NAME=SIZE with a positive size, got '{text}'")
    return name, int(size)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="layout-import",
        description="Import a model (ONNX, or torch.export .pt2) as bufferized upstream MLIR: one public @main "
        "taking the graph inputs then the graph outputs, each carrying its graph name.",
        epilog="Needs the onnx extra: pip install 'heterolayout[onnx]' (onnx, "
        "iree-base-compiler, onnxruntime) and MLIR 22 (apt-get install -y mlir-22-tools).",
    )
    parser.add_argument(
        "model",
        help="ONNX model file (external data beside it), or a torch.export program (.pt2)",
    )
    parser.add_argument("-o", "--output", help="MLIR file to write (default: standard output)")
    parser.add_argument(
        "--dim",
        type=_dim,
        action="append",
        default=[],
        metavar="NAME=SIZE",
        help="the size of a symbolic dim of an ONNX graph's inputs and outputs, such as a "
        "batch size N (repeatable); heterolayout runs static shapes",
    )
    return parser.parse_args(argv)


def _import(args: argparse.Namespace) -> int:
    from heterolayout.frontends.importer import import_model

    text = import_model(args.model, dims=dict(args.dim))
    if args.output is None or args.output == "-":
        sys.stdout.write(text)
    else:
        write_file(args.output, text)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point; returns the exit code."""
    args = _arguments(argv)
    return report_errors("layout-import", lambda: _import(args))


if __name__ == "__main__":
    sys.exit(main())
