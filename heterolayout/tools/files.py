"""Files the tools write: whole or not at all."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from typing import BinaryIO


def write_with(path: str, write: Callable[[BinaryIO], object]) -> None:
    """Write through a temporary file and a rename, so `path` is complete or untouched."""
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".layout-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            write(file)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_file(path: str, text: str) -> None:
    """Write text (UTF-8) whole or not at all."""
    write_with(path, lambda file: file.write(text.encode("utf-8")))
