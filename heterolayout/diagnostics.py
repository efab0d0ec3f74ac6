"""Errors that name an op: where it is, which op, and what is wrong."""

from __future__ import annotations

from typing import NoReturn

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, PassFailedException


def fail(
    op: Operation, message: str, error: type[DiagnosticException] = PassFailedException
) -> NoReturn:
    """Raise `error` for `op`."""
    op.emit_error(message, error(message))
