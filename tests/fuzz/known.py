"""Findings the fuzzer expects until their fixes land (none at present).

Each entry recognises a finding by its outcome class and message and, where the message
alone is not enough, by the program and the case's earlier findings. A recognised finding is
counted as `known issue`, not as a bug; once the fix is merged its entry is deleted here, and
the fuzzer holds it to the normal rules again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.fuzz.programs import Program
    from tests.fuzz.runner import Finding

Applies = Callable[["Program", "Finding", "Sequence[Finding]"], bool]
"""Whether a finding is the issue, given the program and the case's earlier findings."""


@dataclass(frozen=True)
class KnownIssue:
    name: str
    outcome: str
    pattern: re.Pattern[str]
    applies: Applies = lambda program, finding, earlier: True


KNOWN: tuple[KnownIssue, ...] = ()
"""Findings whose fixes are under way: delete each entry when its fix is merged."""


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
