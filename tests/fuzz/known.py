"""Findings the fuzzer expects until their fixes land (issue 18's numbered findings).

Each entry recognises a finding by its outcome class and message and, where the message
alone is not enough, by the program. A recognised finding is counted as `known issue`, not
as a bug; once the fix is merged its entry is deleted here, and the fuzzer holds it to the
normal rules again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fuzz.programs import Program
    from fuzz.runner import Finding


@dataclass(frozen=True)
class KnownIssue:
    name: str
    outcome: str
    pattern: re.Pattern[str]
    applies: Callable[[Program, re.Match[str]], bool] = lambda program, match: True


def _private(program: Program, match: re.Match[str]) -> bool:
    return f"func.func private {match['function']}(" in program.text


KNOWN: tuple[KnownIssue, ...] = (
    KnownIssue(
        "issue 18 #1 (layout.assign on a private function's argument is discarded)",
        "silent drop",
        re.compile(r"^assign of .* in (?P<function>@\w+):"),
        _private,
    ),
    KnownIssue(
        "issue 18 #2 (i1 globals with an unpacked layout repack true as 255)",
        "internal error",
        re.compile(r"Integer value 255 is out of range for type i1"),
    ),
    KnownIssue(
        "issue 18 #6 (engines reject memref.cast of a vector-packed buffer)",
        "engine error",
        re.compile(r"memref\.cast .*does not match memref<[^>]*xvector<"),
    ),
)


def known_issue(program: Program, finding: Finding) -> str | None:
    for issue in KNOWN:
        match = issue.pattern.search(finding.detail)
        if finding.outcome.value == issue.outcome and match and issue.applies(program, match):
            return issue.name
    return None
