"""Remarks: what a pass decided and why, for people tuning a pipeline.

Passes report through the `heterolayout.remarks` logger; nothing is shown unless someone
asks (`layout-opt -v`, a pass's `remarks=true`, or a logging handler of their own).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager

LOGGER = logging.getLogger("heterolayout.remarks")


class _Stderr(logging.Handler):
    """Writes to whatever `sys.stderr` is at the time (test captures replace it)."""

    def emit(self, record: logging.LogRecord) -> None:
        print(self.format(record), file=sys.stderr)


def remark(message: str) -> None:
    LOGGER.info("remark: %s", message)


@contextmanager
def remarks_shown(shown: bool = True) -> Iterator[None]:
    """Print remarks to stderr while the block runs (nothing changes when `shown` is false or
    they are shown already); the logger is as it was afterwards, so one `-v` run or
    `remarks=true` pass in a process leaves the next quiet."""
    if not shown or any(isinstance(h, _Stderr) for h in LOGGER.handlers):
        yield
        return
    handler, level = _Stderr(), LOGGER.level
    LOGGER.addHandler(handler)
    LOGGER.setLevel(logging.INFO)
    try:
        yield
    finally:
        LOGGER.removeHandler(handler)
        LOGGER.setLevel(level)
