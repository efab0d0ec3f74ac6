"""Where things are, for tests at any depth of tests/."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPOSITORY = TESTS.parent
EXAMPLES = REPOSITORY / "examples"
