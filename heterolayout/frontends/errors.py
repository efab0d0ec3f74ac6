"""The frontends' errors: one line each, naming the model, the value or the op."""

from __future__ import annotations

ONNX_EXTRA = "pip install 'heterolayout[onnx]'"
"""What installs the ONNX frontend (onnx, iree-base-compiler) and onnxruntime."""


class FrontendError(ValueError):
    """A model the frontend cannot take, or a frontend tool that failed: one line."""


class MissingFrontend(FrontendError):
    """The optional packages a frontend needs are not installed: the line says what to install."""
