"""Remarks: what a pass decided and why, for people tuning a pipeline.

Passes report through the `heterolayout.remarks` logger; nothing is shown unless someone
asks (`layout-opt -v`, a pass's `remarks=true`, or a logging handler of their own).
"""

from __future__ import annotations

import logging
import sys

LOGGER = logging.getLogger("heterolayout.remarks")


class _Stderr(logging.Handler):
    """Writes to whatever `sys.stderr` is at the time (test captures replace it)."""

    def emit(self, record: logging.LogRecord) -> None:
        print(self.format(record), file=sys.stderr)


def remark(message: str) -> None:
    LOGGER.info("remark: %s", message)


def show_remarks() -> None:
    """Print remarks to stderr (once, however often it is called)."""
    if not any(isinstance(h, _Stderr) for h in LOGGER.handlers):
        LOGGER.addHandler(_Stderr())
    LOGGER.setLevel(logging.INFO)
