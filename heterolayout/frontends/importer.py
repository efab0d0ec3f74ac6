"""`import_model`: a model file (or an ONNX ModelProto) to the bufferized upstream IR every
heterolayout tool takes (docs/models.md)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from heterolayout.frontends.lowering import bufferize, check_signature, to_linalg
from heterolayout.frontends.onnx_import import import_onnx


def import_model(
    model: str | os.PathLike[str] | Any, *, dims: Mapping[str, int] | None = None
) -> str:
    """The model as MLIR text: one public `@main` whose arguments are the graph inputs then
    the graph outputs (written in place), in graph order, each carrying its graph name
    (`heterolayout.input = "x"`, `heterolayout.output = "y"`), weights as constant
    `memref.global`s. `model` is an ONNX file or `onnx.ModelProto`; `dims` gives sizes to
    symbolic dims (`{"N": 1}`). FrontendError (one line) for a model that does not import,
    MissingFrontend when the `onnx` extra is not installed."""
    with tempfile.TemporaryDirectory(prefix="heterolayout-import-") as directory:
        work = Path(directory)
        signature = import_onnx(model, dims or {}, work / "torch.mlirbc")
        to_linalg(work / "torch.mlirbc", work / "linalg.mlir", "onnx")
        bufferize(work / "linalg.mlir", work / "memref.mlir")
        text = (work / "memref.mlir").read_text(encoding="utf-8")
    check_signature(text, signature)
    return text
