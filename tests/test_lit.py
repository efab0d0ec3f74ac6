"""Run the lit + FileCheck regression suite (tests/filecheck) as one pytest test.

This makes the single command `pytest` run everything. To run the suite directly:
`lit -v tests/filecheck` (or a single file / folder of it).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SUITE = Path(__file__).resolve().parent / "filecheck"

# lit has no `python -m lit`; calling its entry point through sys.executable runs lit
# under the same interpreter (and so the same installed console scripts) as pytest.
LIT = [sys.executable, "-c", "import sys; from lit.main import main; sys.exit(main())"]

_COUNT = re.compile(
    r"^\s*(Passed|Failed|Unsupported|Expectedly Failed|Unexpectedly Passed|"
    r"Unresolved|Timed Out|Excluded|Skipped)\s*:\s*(\d+)",
    re.MULTILINE,
)


def test_lit_suite_passes():
    proc = subprocess.run(
        [*LIT, "-v", str(SUITE)],
        capture_output=True,
        text=True,
        timeout=3000,
        check=False,
    )
    output = proc.stdout + proc.stderr
    counts = {name: int(n) for name, n in _COUNT.findall(output)}
    passed = counts.get("Passed", 0)
    summary = ", ".join(f"{n} {name.lower()}" for name, n in counts.items()) or "no summary"
    print(f"lit {SUITE}: {summary}")
    assert proc.returncode == 0, f"lit failed (exit {proc.returncode}; {summary}):\n{output}"
    assert passed > 0, f"lit ran no test:\n{output}"
    allowed = ("Passed", "Unsupported", "Excluded", "Expectedly Failed")
    bad = {k: v for k, v in counts.items() if k not in allowed}
    assert not bad, f"lit reported {bad}:\n{output}"
