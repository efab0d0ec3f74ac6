"""The one line a command-line tool prints for an error."""

from __future__ import annotations

from xdsl.utils.exceptions import ParseError

from heterolayout.limits import shorten


def one_line(error: BaseException) -> str:
    """`FILE:LINE:COL: message` for a parse error (xDSL prints the source line and a caret
    under it too), the first line of anything else; shortened like every message."""
    if isinstance(error, ParseError):
        location = error.span.get_location()
        text = f"{location.file}:{location.line}:{location.col}: {error.msg.strip()}"
    else:
        text = str(error).strip()
    first = text.splitlines()[0] if text else type(error).__name__
    return shorten(first)
