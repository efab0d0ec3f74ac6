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


KNOWN: tuple[KnownIssue, ...] = ()
"""None now: issue 18's findings 1, 2 and 6, once listed here, are fixed (their fuzz cases
are regression cases in `corpus/`)."""


def known_issue(program: Program, finding: Finding) -> str | None:
    for issue in KNOWN:
        match = issue.pattern.search(finding.detail)
        if finding.outcome.value == issue.outcome and match and issue.applies(program, match):
            return issue.name
    return None
