"""Models of an older opset, converted to opset 17 before import.

torch-mlir's ONNX lowering registers each op from some opset on, and many from later ones
than the exporters of their day wrote: BatchNormalization from opset 15 (so a ResNet of
opset 13 was refused with "failed to legalize operation 'torch.operator'"), ConvTranspose
from 11. ONNX's own version converter rewrites a model's ops into a newer opset with the
same meaning, and IREE's importer offers it (`iree-import-onnx --opset-version N`). Opset
17 is where every op of the models checked here lowers (tests/onnx_models.py writes it). A
model of opset 17 or later is imported as it is; an older one as converted. When the converter cannot convert a model (an op it has no adapter
for), the model is imported as it was written, and upstream's lowering has the last word.
"""

from __future__ import annotations

from typing import Any

from heterolayout.frontends.graph_edits import default_opset

IMPORTED_OPSET = 17
"""The opset older models are converted to."""


def upgraded(model: Any) -> Any:
    """`model` in opset `IMPORTED_OPSET` when it is older and the converter can convert it,
    else `model` itself."""
    from onnx import version_converter

    if 0 < default_opset(model) < IMPORTED_OPSET:
        try:
            return version_converter.convert_version(model, IMPORTED_OPSET)
        except Exception:  # the converter's ConvertError, RuntimeError and its assertions
            return model
    return model
