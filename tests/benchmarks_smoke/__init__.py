"""Smoke runs of the benchmark scripts, each in a process of its own from the repository root."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

from tests.paths import REPOSITORY


def run_python(arguments: Sequence[str], timeout: int) -> subprocess.CompletedProcess[str]:
    """`python ARGUMENTS` from the repository root, its output captured (not checked)."""
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
