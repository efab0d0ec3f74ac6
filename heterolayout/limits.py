"""The explicit limits of heterolayout's tools and model, in one place.

Hostile or accidental input (a 10 MB file, nesting thousands deep, a shape of 10^10 elements)
must end in a one-line error naming the limit, never in a Python traceback, a hang or an
exhausted machine. Each limit is named in its message and listed in the README ("Limits").
"""

from __future__ import annotations

import re
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

MAX_RANK = 64
"""Logical and physical dims of a layout: numpy's limit, since the engines and
`pack`/`unpack` hold buffers as numpy arrays of these shapes."""

MAX_ELEMENTS = 2**24
"""Elements (physical slots) that anything may materialise one by one: an engine's buffer,
the random argument of a run, a layout's `offsets()`, `pack`/`unpack`, a point-by-point
injectivity or extent check, the memory walk of `layout-explain`. 2^24 = 16,777,216 slots;
a layout's index arrays take 8 bytes per slot (128 MiB here)."""

MAX_NESTING = 100
"""Nesting depth of brackets (`( [ { <`), hence of types, attributes, regions and loops, in
the MLIR text the tools read and in a layout spec."""

MAX_INPUT_BYTES = 4 * 2**20
"""Size of an MLIR file `layout-opt` or `layout-run` reads: xDSL parses about 100 KB per
second, so 4 MiB is the order of a minute of work."""

RECURSION_LIMIT = 20_000
"""Python's recursion limit inside the tools: deep enough for `MAX_NESTING` levels through
parsing, passes, printing and the interpreter, each of which recurses per level."""

DEFAULT_TIMEOUT = 60.0
"""Seconds of processor time a `layout-run` may use unless `--timeout` says otherwise: four
times what the slowest bundled example takes in the slowest engine, so a runaway loop ends
while real checks pass. Processor time, not wall-clock time, so that a run passes or fails
the same way on a loaded machine."""

_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|->|[(\[{<]|[)\]}>]')
_OPENING = "([{<"


MAX_MESSAGE = 1000
"""Characters of an error message; a longer one (quoting a huge input) keeps both ends."""


def shorten(text: str) -> str:
    if len(text) <= MAX_MESSAGE:
        return text
    half = MAX_MESSAGE // 2
    return f"{text[:half]} … {text[-half:]}"


OUT_OF_MEMORY = (
    "out of memory: the input needs more memory than this process may use (see the limits "
    "on sizes in the README)"
)


class LimitError(ValueError):
    """Input beyond one of the limits above; the message names the limit."""


def check_nesting(text: str, what: str, first_line: int = 1) -> None:
    """Refuse `text` (MLIR or a layout spec) whose brackets nest deeper than `MAX_NESTING`,
    before a recursive parser meets it, naming `what`:line:column (lines from
    `first_line`). Strings, `//` comments and the `->` arrow are skipped."""
    depth = 0
    for match in _BRACKETS.finditer(text):
        token = match.group()
        if len(token) != 1:
            continue
        if token in _OPENING:
            depth += 1
            if depth > MAX_NESTING:
                line = text.count("\n", 0, match.start()) + first_line
                column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
                raise LimitError(
                    f"{what}:{line}:{column}: brackets, types or regions nest deeper than "
                    f"{MAX_NESTING} levels (the nesting limit)"
                )
        elif depth > 0:
            depth -= 1


_DENSE = re.compile(r"dense<(?:[^<>]|<[^<>]*>)*>\s*:\s*(?:tensor|vector)<((?:\d+\s*x\s*)+)")


def check_dense_literals(text: str, what: str) -> None:
    """Refuse a `dense<…>` literal (a splat included) of more than `MAX_ELEMENTS` elements:
    xDSL's parser expands every one into a Python list of all its elements."""
    for match in _DENSE.finditer(text):
        extents = [int(e) for e in match.group(1).replace(" ", "").split("x") if e]
        count = 1
        for extent in extents:
            count *= extent
        if count > MAX_ELEMENTS:
            line = text.count("\n", 0, match.start()) + 1
            check_elements(count, f"{what}:{line}: a dense literal")


def check_source(text: str, what: str, first_line: int = 1) -> None:
    """The checks an MLIR text gets before xDSL parses it."""
    check_nesting(text, what, first_line)
    check_dense_literals(text, what)


def check_input_size(size: int, what: str) -> None:
    if size > MAX_INPUT_BYTES:
        raise LimitError(
            f"{what}: {size} bytes is more than the input limit of {MAX_INPUT_BYTES} bytes "
            f"({MAX_INPUT_BYTES // 2**20} MiB)"
        )


def check_elements(count: int, what: str) -> None:
    if count > MAX_ELEMENTS:
        raise LimitError(
            f"{what}: {count} elements is more than the limit of {MAX_ELEMENTS} elements "
            "that heterolayout materialises one by one"
        )


def too_deep(what: str) -> str:
    """The message for a RecursionError: what was too deep, and the limits that apply."""
    return (
        f"{what} nests too deeply: Python's recursion limit ({sys.getrecursionlimit()} frames) "
        f"was reached; heterolayout supports {MAX_NESTING} levels of brackets, types, regions "
        "and loops, and expressions of a few hundred operators"
    )


@contextmanager
def deep_recursion() -> Iterator[None]:
    """Raise Python's recursion limit to `RECURSION_LIMIT` for a tool's work."""
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


class Timeout(BaseException):
    """The processor-time limit of a run expired (a BaseException, like KeyboardInterrupt, so
    that no `except Exception` on the way swallows it)."""


@contextmanager
def processor_time_limit(seconds: float) -> Iterator[None]:
    """Raise `Timeout` once this process has used `seconds` of processor time from now (0: no
    limit). Needs the main thread and `setitimer` (POSIX); elsewhere there is no limit."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise Timeout

    previous = signal.signal(signal.SIGPROF, expire)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
