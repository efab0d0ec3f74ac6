"""Command-line tools (console scripts declared in pyproject.toml)."""
