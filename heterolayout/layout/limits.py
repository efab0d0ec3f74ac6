"""The explicit limits of heterolayout's tools and model, in one place.

Hostile or accidental input (a 10 MB file, nesting thousands deep, a shape of 10^10 elements)
must end in a one-line error naming the limit, never in a Python traceback, a hang or an
exhausted machine. Each limit is named in its message and listed in the README ("Limits").
"""

from __future__ import annotations

import os
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
the MLIR text the tools read and in a layout spec, and of operators in one result of a layout
map (whose analyses take time growing with the cube of it: 2 s at 100, 5 s at 200 for
`layout-explain`); `$HETEROLAYOUT_MAX_NESTING` raises it."""

MAX_MAP_PARENTHESES = 1000
"""Nesting depth of the parentheses inside one affine map or set, beyond its own lists of
dims and results: they only group, and cost the parse alone (MLIR 22's parser reads about
5,000 levels, then overflows its stack); `$HETEROLAYOUT_MAX_MAP_PARENTHESES` raises it.
Operators they group still count against `MAX_NESTING` in a layout map."""

NESTING_VARIABLE = "HETEROLAYOUT_MAX_NESTING"
PARENTHESES_VARIABLE = "HETEROLAYOUT_MAX_MAP_PARENTHESES"
INPUT_BYTES_VARIABLE = "HETEROLAYOUT_MAX_INPUT_BYTES"

MAX_INPUT_BYTES = 2**30
"""Size of an MLIR file `layout-opt` or `layout-run` reads, 1 GiB: a model's weights are most
of its text (ResNet-18's 11.7 M floats are 94 MB of hex), and constants parse at tens of MB a
second; ops parse at about 100 KB a second, so a file of ops that large meets the run-time
limit first (`layout-run --timeout`). `$HETEROLAYOUT_MAX_INPUT_BYTES` changes it."""

RECURSION_LIMIT = 20_000
"""Python's recursion limit inside the tools: deep enough for `MAX_NESTING` levels through
parsing, passes, printing and the interpreter, each of which recurses per level, and for
`MAX_MAP_PARENTHESES` levels of parentheses (a few frames each). A raised limit raises it in
proportion (so far, perhaps, that the process's stack cannot hold it)."""

DEFAULT_TIMEOUT = 60.0
"""Seconds of processor time a `layout-run` may use unless `--timeout` says otherwise: four
times what the slowest bundled example takes in the slowest engine, so a runaway loop ends
while real checks pass. Processor time, not wall-clock time, so that a run passes or fails
the same way on a loaded machine."""

_BRACKETS = re.compile(
    r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|//[^\n]*|->|>=|<=|affine_(?:map|set)<|[(\[{<]|[)\]}>]'
)
"""Strings and comments (skipped whole: a weight's hex string is tens of megabytes, so the
pattern repeats one character class, which the regex engine runs as a tight loop, rather than
an alternative per character), arrows and comparisons, and brackets."""
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


def _limit(variable: str, default: int, unit: str = "levels") -> int:
    text = os.environ.get(variable, "")
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise LimitError(f"{variable}={text}: expected a positive number of {unit}")
    return value


def max_nesting() -> int:
    """The nesting limit in force: `MAX_NESTING`, or what `$HETEROLAYOUT_MAX_NESTING` says."""
    return _limit(NESTING_VARIABLE, MAX_NESTING)


def max_map_parentheses() -> int:
    """The parenthesis limit in force: `MAX_MAP_PARENTHESES`, or what
    `$HETEROLAYOUT_MAX_MAP_PARENTHESES` says."""
    return _limit(PARENTHESES_VARIABLE, MAX_MAP_PARENTHESES)


def nesting_limit_text(limit: int) -> str:
    """How a message names the nesting limit and how to raise it."""
    return f"the nesting limit of {limit}; set {NESTING_VARIABLE} to raise it"


def check_nesting(text: str, what: str, first_line: int = 1) -> None:
    """Refuse `text` (MLIR or a layout spec) whose brackets nest deeper than `max_nesting()`,
    or whose parentheses inside one affine map or set nest deeper than
    `max_map_parentheses()`, before a recursive parser meets it, naming `what`:line:column
    (lines from `first_line`). Strings, `//` comments, `->`, and a set's `>=` are skipped."""
    nesting, parentheses = max_nesting(), max_map_parentheses()
    opened: list[str] = []
    depth = grouping = maps = 0
    for match in _BRACKETS.finditer(text):
        if text[match.start()] in '"/':  # a string or a comment, not copied out
            continue
        token = match.group()
        if token in (">=", "<="):  # a constraint of an affine set; else a bracket
            if maps:
                continue
            token = token[0]
        if token.startswith("affine_"):
            opened.append("map")
            maps += 1
            depth += 1
        elif len(token) != 1:
            continue
        elif token == "(" and maps:
            opened.append("group")
            grouping += 1
        elif token in _OPENING:
            opened.append(token)
            depth += 1
        elif opened:
            closed = opened.pop()
            if closed == "group":
                grouping -= 1
                continue
            maps -= closed == "map"
            depth -= 1
            continue
        else:
            continue
        if depth > nesting:
            raise LimitError(
                f"{_position(text, match.start(), what, first_line)}: brackets, types or "
                f"regions nest deeper than {nesting} levels ({nesting_limit_text(nesting)})"
            )
        if grouping > parentheses + 1:  # the map's own lists of dims and results
            raise LimitError(
                f"{_position(text, match.start(), what, first_line)}: parentheses in an affine "
                f"map nest deeper than {parentheses} levels (the parenthesis limit of "
                f"{parentheses}; set {PARENTHESES_VARIABLE} to raise it)"
            )


def _position(text: str, start: int, what: str, first_line: int) -> str:
    line = text.count("\n", 0, start) + first_line
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    return f"{what}:{line}:{column}"


_DENSE_OPEN = re.compile(r"dense<")
_DENSE_BODY = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"\s*>|[^<>"]*(?:<[^<>]*>[^<>"]*)*>')
"""A dense literal's contents up to its closing `>`: a hex string skipped whole, or a list
(whose nested `<>` are a complex number's or a type's)."""
_DENSE_TYPE = re.compile(r"\s*:\s*(?:tensor|vector)<((?:\d+\s*x\s*)+)")


_GLOBAL_TYPE = re.compile(r"memref<((?:\d+\s*x\s*)+)")
_SPLAT_TEXT = 40
"""Characters of a `memref.global`'s initializer at most that can be a splat (one element,
in hex or in decimal): a literal of all its elements is as long as they are many."""


def check_dense_literals(text: str, what: str) -> None:
    """Refuse a `dense<…> : tensor<…>` literal (a splat included) of more than `MAX_ELEMENTS`
    elements, and a `memref.global`'s splat initializer of more: xDSL's parser expands every
    one into a Python list of all its elements (and a hex splat into bytes for all of them).
    Each literal is matched from its start, without backtracking over megabytes of hex; a
    global's hex of all its elements is read as bytes, however many they are."""
    for opening in _DENSE_OPEN.finditer(text):
        body = _DENSE_BODY.match(text, opening.end())
        if body is None:
            continue
        typed = _DENSE_TYPE.match(text, body.end())
        if typed is not None:
            count = _count(typed.group(1))
        elif body.end() - opening.end() <= _SPLAT_TEXT and _follows_equals(text, opening.start()):
            line_start = text.rfind("\n", 0, opening.start()) + 1
            memref = text.rfind("memref<", line_start, opening.start())
            shaped = _GLOBAL_TYPE.match(text, memref) if memref >= 0 else None
            if shaped is None or "[" in text[opening.end() : body.end()]:
                continue
            count = _count(shaped.group(1))
        else:
            continue
        if count > MAX_ELEMENTS:
            line = text.count("\n", 0, opening.start()) + 1
            check_elements(count, f"{what}:{line}: a dense literal")


def _follows_equals(text: str, start: int) -> bool:
    """Whether `=` comes before `start`, spaces aside (a global's initializer)."""
    at = start - 1
    while at >= 0 and text[at] in " \t":
        at -= 1
    return at >= 0 and text[at] == "="


def _count(dims: str) -> int:
    count = 1
    for extent in dims.replace(" ", "").split("x"):
        if extent:
            count *= int(extent)
    return count


def check_source(text: str, what: str, first_line: int = 1) -> None:
    """The checks an MLIR text gets before xDSL parses it."""
    check_nesting(text, what, first_line)
    check_dense_literals(text, what)


def max_input_bytes() -> int:
    """The input size limit in force: `MAX_INPUT_BYTES`, or what
    `$HETEROLAYOUT_MAX_INPUT_BYTES` says."""
    return _limit(INPUT_BYTES_VARIABLE, MAX_INPUT_BYTES, "bytes")


def check_input_size(size: int, what: str) -> None:
    limit = max_input_bytes()
    if size > limit:
        raise LimitError(
            f"{what}: {size} bytes is more than the input limit of {limit} bytes "
            f"({limit / 2**20:g} MiB; set {INPUT_BYTES_VARIABLE} to raise it)"
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
        f"was reached; heterolayout supports {max_nesting()} levels of brackets, types, "
        f"regions and loops and of operators in a layout map ({NESTING_VARIABLE} raises it), "
        f"and {max_map_parentheses()} levels of parentheses in an affine map "
        f"({PARENTHESES_VARIABLE})"
    )


@contextmanager
def deep_recursion() -> Iterator[None]:
    """Raise Python's recursion limit to `RECURSION_LIMIT` for a tool's work, more where the
    nesting limits are raised."""
    previous = sys.getrecursionlimit()
    try:
        nesting, parentheses = max_nesting(), max_map_parentheses()
    except LimitError:  # reported where the limit is checked
        nesting, parentheses = MAX_NESTING, MAX_MAP_PARENTHESES
    scale = max(1.0, nesting / MAX_NESTING, parentheses / MAX_MAP_PARENTHESES)
    sys.setrecursionlimit(max(previous, int(RECURSION_LIMIT * scale)))
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
