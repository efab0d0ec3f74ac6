"""Findings the fuzzer expects until their fixes land (issue 26's numbered findings).

Each entry recognises a finding by its outcome class and message and, where the message
alone is not enough, by the program and the case's earlier findings. A recognised finding is
counted as `known issue`, not as a bug; once the fix is merged its entry is deleted here, and
the fuzzer holds it to the normal rules again.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind

if TYPE_CHECKING:
    from fuzz.programs import Program
    from fuzz.runner import Finding

Applies = Callable[["Program", "Finding", "Sequence[Finding]"], bool]
"""Whether a finding is the issue, given the program and the case's earlier findings."""


@dataclass(frozen=True)
class KnownIssue:
    name: str
    outcome: str
    pattern: re.Pattern[str]
    applies: Applies = lambda program, finding, earlier: True


def _lowered(finding: Finding) -> bool:
    """A configuration that runs the lowered program (not the reference, not unlowered)."""
    return not finding.config.startswith(("plain", "unlowered", "apply", "verify", "pack"))


def _option(finding: Finding) -> str:
    return finding.config.split("/")[0]


def _earlier(earlier: Sequence[Finding], config: str) -> Finding | None:
    return next((f for f in earlier if f.config == config), None)


# ---- finding 1: tiled conversions into a layout whose innermost stored dim is a floordiv --
TILED = "issue 26-1: tiled convert into a floordiv-innermost layout"
_CONVERSION = re.compile(r"(layout\.convert|memref\.copy) at .* is not proven")


@functools.cache
def _floordiv_innermost(memref_type: str) -> bool:
    """A layout of at least the tiled conversions' size whose innermost stored dim is a
    `floordiv` (cyclic maps, cyclic partitions of the last dim, packed lanes under one)."""
    from fuzz.runner import _parsed_type
    from heterolayout.dialects.conversion import layout_of
    from heterolayout.passes.convert_loops import VECTOR_MIN_SLOTS

    layout = layout_of(_parsed_type(memref_type))  # type: ignore[arg-type]
    if layout is None or layout.is_dynamic or layout.size < VECTOR_MIN_SLOTS:
        return False
    index_map = layout.index_map
    if index_map is None:
        return False
    innermost = index_map.results[len(layout.storage_shape) - 1]
    return isinstance(innermost, AffineBinaryOpExpr) and (
        innermost.kind is AffineBinaryOpKind.FloorDiv
    )


def _unproven_tiled(program: Program, finding: Finding, earlier: Sequence[Finding]) -> bool:
    """Translation validation refuses a conversion, in a program with such a layout."""
    return any(_floordiv_innermost(site.memref_type) for site in program.sites)


def _after_unproven_tiled(program: Program, finding: Finding, earlier: Sequence[Finding]) -> bool:
    """A wrong value of an option set whose lowering was found unproven as above."""
    unproven = _earlier(earlier, _option(finding))
    return (
        _lowered(finding)
        and unproven is not None
        and unproven.outcome.value == "known issue"
        and unproven.detail.startswith(TILED)
    )


_PACKED = re.compile(r"Layout\.(?:un)?pack of (memref<.*>): (?:\d+ of|the process died)")


def _pack_into_tiled(program: Program, finding: Finding, earlier: Sequence[Finding]) -> bool:
    """`Layout.pack` / `unpack` take the same tiled conversion."""
    match = _PACKED.search(finding.detail)
    return match is not None and _floordiv_innermost(match[1])


# ---- finding 2: sub-byte vector accesses under upstream's pipeline ----------------------
SUB_BYTE = "issue 26-2: sub-byte vectors wrong under upstream's pipeline"


def _sub_byte_upstream(program: Program, finding: Finding, earlier: Sequence[Finding]) -> bool:
    """The lowered program, run by stock upstream, differs from the reference where the
    compiled engine runs it right, in a program of sub-byte elements (their vector
    accesses and bit-vector containers)."""
    bits = re.fullmatch(r"i(\d+)", program.element)
    compiled = _earlier(earlier, f"{_option(finding)}/compiled")
    return (
        finding.config.endswith("/native")
        and _lowered(finding)
        and bits is not None
        and int(bits[1]) % 8 != 0
        and compiled is not None
        and compiled.outcome.value == "equal"
    )


# ---- finding 3: a parameter written by linalg ops, under a layout.assign ----------------
LINALG = "issue 26-3: linalg writes to an assigned argument lost"
_FUNCTION = re.compile(r"^func\.func [^@]*@(\w+)\((.*)\)", re.M)
_ALIAS = re.compile(r"(%\w+) = (?:memref\.subview |\"memref\.cast\"\()(%\w+)\b")
_OUTS = re.compile(r"^\s*linalg\.\w+.*\bouts\(([^:]*):", re.M)


def _functions(text: str) -> list[tuple[list[str], str]]:
    """Each function's parameter names and body text."""
    starts = list(_FUNCTION.finditer(text))
    found = []
    for number, start in enumerate(starts):
        end = starts[number + 1].start() if number + 1 < len(starts) else len(text)
        found.append((re.findall(r"(%\w+):", start[2]), text[start.end() : end]))
    return found


@functools.cache
def argument_written_by_linalg(text: str) -> bool:
    """Whether some function has a parameter that a linalg op writes (through views and
    casts too), in a program with a `layout.assign` (whose layout reaches the parameter
    directly or through a call): `layout-apply`'s `may_write` passes over linalg ops, so
    a layout it gives the parameter is converted in and never back (all writes lost where
    only linalg ops write it)."""
    if "layout.assign" not in text:
        return False
    for params, body in _functions(text):
        written = {o.strip() for outs in _OUTS.findall(body) for o in outs.split(",")}
        for param in params:
            names = {param}
            for alias, source in _ALIAS.findall(body):
                if source in names:
                    names.add(alias)
            if names & written:
                return True
    return False


def _linalg_argument(program: Program, finding: Finding, earlier: Sequence[Finding]) -> bool:
    return _lowered(finding) and argument_written_by_linalg(program.text)


# ---- found by the fuzzer, no fix under way yet: the native pack of 64-bit containers ------
PACK_I64 = "native pack: pack = i64 overflows the container mask"
_PACK_I64 = re.compile(
    r"Layout\.pack of memref<.*pack = i64.*OverflowError: Python int too large to convert"
)
"""`heterolayout/native/packing.py` masks the words as `out.astype(np.int64) & (1 << 64) - 1`:
`Layout.pack` of 2^20 or more elements into `pack = i64` raises OverflowError."""

_ANY = re.compile("")
KNOWN: tuple[KnownIssue, ...] = (
    KnownIssue(TILED, "unproven access", _CONVERSION, _unproven_tiled),
    KnownIssue(TILED, "wrong value", _ANY, _after_unproven_tiled),
    KnownIssue(TILED, "wrong value", _PACKED, _pack_into_tiled),
    KnownIssue(TILED, "internal error", _PACKED, _pack_into_tiled),
    KnownIssue(SUB_BYTE, "wrong value", _ANY, _sub_byte_upstream),
    KnownIssue(LINALG, "wrong value", _ANY, _linalg_argument),
    KnownIssue(PACK_I64, "internal error", _PACK_I64),
)
"""Issue 26's findings 1 to 3, whose fixes are under way, and one more the fuzzer found:
delete each entry when its fix is merged (`tests/fuzz/corpus/issue26-*` then hold the fixes
to their cases)."""


def known_issue(program: Program, finding: Finding, earlier: Sequence[Finding] = ()) -> str | None:
    """The known issue `finding` is, if any, given the case's earlier findings."""
    for issue in KNOWN:
        if (
            finding.outcome.value == issue.outcome
            and issue.pattern.search(finding.detail)
            and issue.applies(program, finding, earlier)
        ):
            return issue.name
    return None
