"""The documentation holds together: every relative link in README.md, docs/ and benchmarks/
points to a file that exists (and, for `#anchor` links into Markdown, to a heading there),
the README stays a guide (short), and its example is the bundled file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent
PAGES = [
    REPOSITORY / "README.md",
    *sorted((REPOSITORY / "docs").glob("*.md")),
    REPOSITORY / "benchmarks" / "README.md",
    REPOSITORY / "benchmarks" / "RESULTS.md",
]
README_MAX_LINES = 200

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")


def links(page: Path) -> list[str]:
    """The link targets of a page, outside code blocks and code spans."""
    text = CODE.sub("", FENCE.sub("", page.read_text()))
    return LINK.findall(text)


def anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings: lower case, punctuation dropped but `-` and
    `_`, spaces as `-`; a repeated heading gets `-1`, `-2`, …"""
    found: set[str] = set()
    for heading in re.findall(r"^#+ (.+)$", FENCE.sub("", page.read_text()), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        candidate, n = slug, 0
        while candidate in found:
            n += 1
            candidate = f"{slug}-{n}"
        found.add(candidate)
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPOSITORY)))
def test_every_relative_link_points_to_an_existing_file_and_anchor(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"^[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        if not destination.exists():
            broken.append(f"{target}: no such file")
        elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
            broken.append(f"{target}: no heading with anchor #{anchor}")
    assert not broken, f"{page.relative_to(REPOSITORY)}:\n" + "\n".join(broken)


def test_the_docs_index_lists_every_page() -> None:
    index = REPOSITORY / "docs" / "index.md"
    listed = {target.partition("#")[0] for target in links(index)}
    pages = {p.name for p in (REPOSITORY / "docs").glob("*.md")} - {"index.md"}
    assert pages <= listed, f"docs/index.md does not list {sorted(pages - listed)}"


def test_readme_stays_a_guide() -> None:
    lines = (REPOSITORY / "README.md").read_text().splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"
    assert max(len(line) for line in lines) < 400, "a README line that should be a doc page"


def test_readme_quick_start_commands() -> None:
    """The two commands the README and .ci/run promise."""
    readme = (REPOSITORY / "README.md").read_text()
    assert "pip install -e . && layout-run examples/conv2d_nchw16c.mlir --check" in readme
    assert "pip install -e '.[test]' && pytest" in readme
    assert (REPOSITORY / "examples" / "conv2d_nchw16c.mlir").exists()


def test_readme_example_is_the_bundled_file() -> None:
    readme = (REPOSITORY / "README.md").read_text()
    (block,) = [b for b in re.findall(r"```mlir\n(.*?)```", readme, re.S)]
    first, _, program = block.partition("\n")
    path = re.fullmatch(r"// (\S+\.mlir): .*", first)
    assert path is not None, first
    source = (REPOSITORY / path[1]).read_text().splitlines()
    assert program.splitlines() == [line for line in source if not line.startswith("//")]


@pytest.mark.parametrize("name", ["README.md", "docs/dialect.md"])
def test_python_examples_run(name: str) -> None:
    """The complete Python examples (docs/embedding.md's runs in tests/test_embedding.py;
    docs/notations.md's as a doctest in tests/test_seeds.py)."""
    blocks = re.findall(r"```python\n(.*?)```", (REPOSITORY / name).read_text(), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, name, "exec"), {"__name__": "docs_example"})
