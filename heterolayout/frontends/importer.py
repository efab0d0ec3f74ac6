"""`import_model`: a model file (or an ONNX ModelProto) to the bufferized upstream IR every
heterolayout tool takes (docs/models.md)."""

from __future__ import annotations

import os
import tempfile
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from heterolayout.frontends.affine_indices import affine_indices_in_text
from heterolayout.frontends.errors import FrontendError
from heterolayout.frontends.lowering import (
    bufferize,
    check_signature,
    inline_resources,
    to_linalg,
)
from heterolayout.frontends.onnx_import import import_onnx
from heterolayout.frontends.torch_import import import_torch, is_exported_program
from heterolayout.frontends.transposed_convolutions import transposed_convolutions_in_text


def import_model(
    model: str | os.PathLike[str] | Any, *, dims: Mapping[str, int] | None = None
) -> str:
    """The model as MLIR text: one public `@main` whose arguments are the graph inputs then
    the graph outputs (written in place), in graph order, each carrying its graph name
    (`heterolayout.input = "x"`, `heterolayout.output = "y"`), weights as constant
    `memref.global`s.

    `model` is an ONNX file or `onnx.ModelProto` (`dims` gives sizes to its symbolic dims,
    `{"N": 1}`), or a `torch.export.ExportedProgram` or a file `torch.export.save` wrote
    (`.pt2`; PyTorch must be installed). FrontendError (one line) for a model that does not
    import, MissingFrontend when the packages a frontend needs are not installed."""
    torch = is_exported_program(model) or _is_torch_file(model)
    if torch and dims:
        raise FrontendError("dims size the symbolic dims of ONNX models; export with static shapes")
    with tempfile.TemporaryDirectory(prefix="heterolayout-import-") as directory:
        work = Path(directory)
        if torch:
            signature = import_torch(model, work / "torch.mlirbc")
        else:
            signature = import_onnx(model, dims or {}, work / "torch.mlirbc")
        to_linalg(work / "torch.mlirbc", work / "linalg.mlir", "torch" if torch else "onnx")
        bufferize(work / "linalg.mlir", work / "memref.mlir")
        text = inline_resources((work / "memref.mlir").read_text(encoding="utf-8"))
    text = transposed_convolutions_in_text(affine_indices_in_text(text))
    check_signature(text, signature)
    return text


def _is_torch_file(model: Any) -> bool:
    """A file `torch.export.save` wrote: a zip archive (an ONNX model is a protobuf)."""
    if not isinstance(model, (str, os.PathLike)) or not os.path.isfile(model):
        return False
    return str(model).endswith(".pt2") or zipfile.is_zipfile(model)
