"""Errors that name an op, in one line: where it is, which op, and what is wrong.

`fail` raises the error with the op's place attached, not the module: xDSL's `emit_error`
prints the whole module in generic form under the message (a 20-line input gave 33 lines
on stderr). The drivers print `FILE:LINE:COL: error: MESSAGE` (`one_line`), as mlir-opt
does; `--verify-diagnostics` and plain `xdsl-opt` print the message itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import (
    DiagnosticException,
    ParseError,
    PassFailedException,
    VerifyException,
)

from heterolayout.dialects.names import op_name
from heterolayout.layout.limits import shorten

PLACE = "heterolayout_place"
"""The attribute of a raised error that holds the place of its op."""


def where(op: Operation) -> str:
    """How diagnostics name an op: `memref.load at kernel.mlir:7:12`."""
    place = location(op)
    return f"{op_name(op)} {'in' if place.startswith('@') else 'at'} {place}"


def location(op: Operation) -> str:
    """`FILE:LINE:COL` of the op, or the function it is in when it has no location."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    from heterolayout.dialects.functions import FUNCTION_TYPES, enclosing_function

    function = op if isinstance(op, FUNCTION_TYPES) else enclosing_function(op)
    return f"@{function.sym_name.data}" if function is not None else "<unknown location>"


def fail(
    op: Operation, message: str, error: type[DiagnosticException] = PassFailedException
) -> NoReturn:
    """Raise `error(message)` with the place of `op`."""
    exception = error(message)
    setattr(exception, PLACE, location(op))
    raise exception


def one_line(error: BaseException) -> str:
    """The one line a tool prints for an error: `PLACE: error: MESSAGE` when it names an op,
    `FILE:LINE:COL: message` for a parse error (xDSL prints the source line and a caret
    under it too), else the first line of its message (never the module xDSL attaches as a
    note); shortened like every message."""
    if isinstance(error, ParseError):
        location = error.span.get_location()
        text = f"{location.file}:{location.line}:{location.col}: {error.msg.strip()}"
    else:
        text = str(error).strip()
    first = text.splitlines()[0] if text else type(error).__name__
    place = getattr(error, PLACE, None)
    return shorten(first if place is None else f"{place}: error: {first}")


def tool_error(tool: str, error: BaseException) -> str:
    """The line a command-line tool prints for `error`: an op's error as `one_line` gives
    it (the same as layout-opt's), anything else after `TOOL: error:`."""
    if getattr(error, PLACE, None) is not None:
        return one_line(error)
    return f"{tool}: error: {one_line(error)}"


def verify_ops(module: ModuleOp, verify: Callable[[], None] | None = None) -> None:
    """xDSL's verifier (or `verify`, a driver's step that runs it), its failure reported by
    `fail` on the op that does not verify: `'memref.load' op expected an index for each
    dimension` (some of xDSL's verifiers raise a bare `Exception`)."""
    try:
        (verify or module.verify)()
    except Exception as error:
        message = str(error)
        op = _failing_op(module, message)
        if op is None:
            raise
        named = message if message.startswith(op.name) else f"'{op.name}' op {message}"
        fail(op, named, VerifyException)


def _failing_op(module: ModuleOp, message: str) -> Operation | None:
    """The op whose own checks fail with `message` (xDSL's error does not say which)."""
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except Exception as error:  # whatever the op's verifier raises
            if str(error) == message:
                return op
    return None
