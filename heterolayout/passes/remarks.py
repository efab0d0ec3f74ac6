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
    with _handled(_Stderr()):
        yield


class _Collected(logging.Handler):
    def __init__(self, messages: list[str]) -> None:
        super().__init__()
        self.messages = messages

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def remarks_collected(messages: list[str]) -> Iterator[None]:
    """Append each remark's message to `messages` while the block runs (a program that acts
    on what a pass said, as the fuzzer's oracle does)."""
    with _handled(_Collected(messages)):
        yield


@contextmanager
def _handled(handler: logging.Handler) -> Iterator[None]:
    level = LOGGER.level
    LOGGER.addHandler(handler)
    LOGGER.setLevel(logging.INFO)
    try:
        yield
    finally:
        LOGGER.removeHandler(handler)
        LOGGER.setLevel(level)
