"""`torch.export` programs to the torch dialect, with torch-mlir's FX importer (which
iree-base-compiler ships as `iree.compiler.extras.fx_importer`; PyTorch itself is not part of
the `onnx` extra: `pip install torch`). One function `main`, its arguments the program's user
inputs and its results the user outputs, in the program's order, each carrying its name in
the exported graph (`GRAPH_INPUT`, `GRAPH_OUTPUT`); parameters and buffers become constants.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from heterolayout.dialects.functions import GRAPH_INPUT, GRAPH_OUTPUT
from heterolayout.frontends.errors import ONNX_EXTRA, FrontendError, MissingFrontend
from heterolayout.frontends.signature import Signature, graph_names, one_line


def _require() -> tuple[Any, Any, Any]:
    """torch, the FX importer and its MLIR bindings."""
    try:
        import torch
    except ImportError:
        raise MissingFrontend(
            "importing torch.export programs needs PyTorch: pip install torch"
        ) from None
    try:
        from iree.compiler import ir
        from iree.compiler.extras import fx_importer
    except ImportError:
        raise MissingFrontend(
            f"importing torch.export programs needs iree-base-compiler: {ONNX_EXTRA}"
        ) from None
    return torch, fx_importer, ir


def is_exported_program(model: Any) -> bool:
    """Whether `model` is a `torch.export.ExportedProgram` (without importing torch)."""
    return any(c.__name__ == "ExportedProgram" for c in type(model).__mro__)


def import_torch(program: str | os.PathLike[str] | Any, destination: Path) -> Signature:
    """Write an exported program (or one saved with `torch.export.save`) as a torch-dialect
    module (MLIR bytecode) to `destination`."""
    torch, fx_importer, ir = _require()
    exported: Any = program
    if not is_exported_program(program):
        path = Path(program)
        try:
            exported = torch.export.load(str(path))
        except Exception as error:
            raise FrontendError(f"{path}: not a torch.export program ({one_line(error)})") from None
    signature = exported.graph_signature
    mutated = [*signature.buffers_to_mutate.values(), *signature.user_inputs_to_mutate.values()]
    if mutated:
        raise FrontendError(
            f"the program writes its buffer or input '{mutated[0]}': export the model in "
            "eval mode, without in-place updates of its inputs"
        )
    names = Signature(
        tuple(str(n) for n in signature.user_inputs), tuple(str(n) for n in signature.user_outputs)
    )
    context = ir.Context()
    try:
        importer = fx_importer.FxImporter(context=context)
        importer.import_program(exported, func_name="main")
    except Exception as error:  # the importer's own errors and its assertions
        raise FrontendError(f"the FX importer refused the program: {one_line(error)}") from None
    with context:
        module = importer.module.operation
        function = module.regions[0].blocks[0].operations[0]
        count = (len(function.type.inputs), len(function.type.results))
        if count != (len(names.inputs), len(names.outputs)):
            raise FrontendError(
                f"the imported function takes {count[0]} inputs and returns {count[1]} values, "
                f"the program has {len(names.inputs)} user inputs and {len(names.outputs)} "
                "tensor outputs: heterolayout takes tensors only"
            )
        function.attributes["arg_attrs"] = graph_names(ir, GRAPH_INPUT, names.inputs)
        function.attributes["res_attrs"] = graph_names(ir, GRAPH_OUTPUT, names.outputs)
        try:
            module.verify()
        except Exception as error:
            raise FrontendError(f"the imported module is not valid: {one_line(error)}") from None
        with open(destination, "wb") as stream:
            module.write_bytecode(stream)
    return names
