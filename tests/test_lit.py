"""Each lit + FileCheck file of tests/filecheck as a pytest case of its own, run by lit.

The cases are the files lit itself discovers (`lit --show-tests`: lit.cfg's suffixes and
excludes), and each runs as `lit -a FILE`, so RUN lines, substitutions and features are
exactly lit's; a failing file fails its own case with lit's report. A lit process costs
about 0.13 s (0.08 s of it the interpreter), small beside the tools its RUN lines start.
Each case gets its own exec root (`HETEROLAYOUT_LIT_OUTPUT`, read by lit.cfg): `%t` files
and lit's `.lit_test_times.txt`, which every lit run rewrites whole, are not shared between
pytest-xdist workers. To run the suite directly: `lit -v tests/filecheck` (or a folder).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parent / "filecheck"

# lit has no `python -m lit`; calling its entry point through sys.executable runs lit
# under the same interpreter (and so the same installed console scripts) as pytest.
LIT = [sys.executable, "-c", "import sys; from lit.main import main; sys.exit(main())"]

SLOW = frozenset(
    {
        "cuda/invalid-ptx.test",
        "cuda/ptx.test",
        "diagnostics/one-line-lowering.mlir",
        "diagnostics/one-line-verification.mlir",
        "dialect/attributes.mlir",
        "dialect/ops.mlir",
        "explain/chunked-quoted.test",
        "explain/errors.test",
        "explain/svg-errors.test",
        "passes/layout-apply/gpu-assign.mlir",
        "passes/layout-apply/invalid-cast-bound-extent.mlir",
        "passes/layout-apply/invalid-strided-cast-dynamic.mlir",
        "passes/layout-lower/affine-load-store.mlir",
        "passes/layout-lower/affine-map-extents.mlir",
        "passes/layout-lower/alloc-dynamic-tiled-tag.mlir",
        "passes/layout-lower/alloc-dynamic-tiled.mlir",
        "passes/layout-lower/alloc-identity-strided.mlir",
        "passes/layout-lower/alloc.mlir",
        "passes/layout-lower/builtin-layouts.mlir",
        "passes/layout-lower/cast-equivalent.mlir",
        "passes/layout-lower/cast.mlir",
        "passes/layout-lower/convert-dynamic-tiled.mlir",
        "passes/layout-lower/convert-tiles.mlir",
        "passes/layout-lower/convert.mlir",
        "passes/layout-lower/copy.mlir",
        "passes/layout-lower/dim-dynamic-tiled.mlir",
        "passes/layout-lower/flatten.mlir",
        "passes/layout-lower/func-call-dynamic-tiled.mlir",
        "passes/layout-lower/func-call.mlir",
        "passes/layout-lower/global-i1.mlir",
        "passes/layout-lower/global-row-major-strided.mlir",
        "passes/layout-lower/invalid-options.mlir",
        "passes/layout-lower/invalid-views.mlir",
        "passes/layout-lower/prefetch.mlir",
        "passes/layout-lower/steps.mlir",
        "passes/layout-lower/sub-byte-accesses-upstream.mlir",
        "passes/layout-lower/transfer-out-of-bounds.mlir",
        "passes/layout-lower/upstream-parses.mlir",
        "passes/layout-lower/validate-containers.mlir",
        "passes/layout-lower/validate-tiles.mlir",
        "passes/layout-lower/validate.mlir",
        "passes/layout-lower/vector.mlir",
        "passes/layout-lower/views-calls.mlir",
        "passes/layout-lower/views-carried.mlir",
        "passes/layout-lower/views-copy.mlir",
        "passes/layout-schedule/invalid-options.mlir",
        "passes/layout-schedule/lowered.mlir",
        "passes/layout-schedule/packed-words.mlir",
        "passes/layout-schedule/register-tile.mlir",
        "passes/layout-schedule/vectorize.mlir",
        "passes/layout-strip/strip.mlir",
        "passes/normalize-memrefs/vector-load.mlir",
        "passes/packed/invalid-bit-order.mlir",
        "passes/packed/invalid-layouts.mlir",
        "passes/packed/upstream-verifies.test",
        "passes/simplify-index/lowered-walks.mlir",
        "targets/attributes.mlir",
        "targets/explain.test",
        "targets/lower.mlir",
    }
)
"""The files that took 1.5 s or more on the loaded 2-core development machine (many RUN lines,
upstream tools): `slow`, out of the fast tier `pytest -m "not slow"`, which still runs at
least one file of every folder."""

_LISTED = re.compile(r"^\s+\S.* :: (\S+)$", re.MULTILINE)
_RESULT = re.compile(r"^([A-Z]+): .* :: (\S+) \(\d+ of \d+\)$", re.MULTILINE)
_UNSUPPORTED_BY = re.compile(
    r"^Test requires the following unavailable features: .*$", re.MULTILINE
)


def _lit(*arguments: str, output: Path | None = None) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ)
    if output is not None:
        environment["HETEROLAYOUT_LIT_OUTPUT"] = str(output)
    return subprocess.run(
        [*LIT, *arguments],
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
        env=environment,
    )


def _discovered(suite: Path = SUITE) -> list[str]:
    """The suite's files as lit lists them, or one case that fails with lit's complaint."""
    listing = _lit("--show-tests", str(suite))
    files = _LISTED.findall(listing.stdout)
    if listing.returncode != 0 or not files:
        return [f"<lit --show-tests failed (exit {listing.returncode})>"]
    return files


def check_lit_file(suite: Path, name: str, output: Path) -> None:
    """Run one file of `suite` through lit: pass, skip (lit's UNSUPPORTED, with the features it
    needs) or fail with lit's report."""
    path = suite / name
    if not path.is_file():
        listing = _lit("--show-tests", str(suite))
        pytest.fail(f"lit cannot list {suite}:\n{listing.stdout}{listing.stderr}", pytrace=False)
    run = _lit("-a", str(path), output=output)
    text = run.stdout + run.stderr
    report = f"`lit -a {path}` (exit {run.returncode}):\n{text}"
    results = _RESULT.findall(text)
    if [file for _, file in results] != [name]:
        pytest.fail(f"lit gave no single result for {name}: {report}", pytrace=False)
    verdict = results[0][0]
    if verdict == "UNSUPPORTED" and run.returncode == 0:
        needs = _UNSUPPORTED_BY.search(text)
        pytest.skip(f"lit: {name}: {needs.group(0) if needs else 'unsupported'}")
    if run.returncode != 0 or verdict not in ("PASS", "XFAIL"):
        pytest.fail(report, pytrace=False)


def _case(name: str) -> object:
    marks = [pytest.mark.slow] if name in SLOW else []
    return pytest.param(name, id=name, marks=marks)


@pytest.mark.parametrize("name", [_case(name) for name in _discovered()])
def test_lit_file(name: str, tmp_path: Path) -> None:
    check_lit_file(SUITE, name, tmp_path)


def test_slow_lit_files_exist() -> None:
    """The slow list names files lit runs: a file moved or renamed must not leave it stale."""
    assert sorted(SLOW - set(_discovered())) == []


META_CONFIG = """
import lit.formats
config.name = "meta"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test"]
config.excludes = ["skipped.test"]
"""


def test_each_file_of_a_suite_is_a_case_that_fails_passes_or_skips_as_lit_says(
    tmp_path: Path,
) -> None:
    suite = tmp_path / "suite"
    (suite / "folder").mkdir(parents=True)
    (suite / "lit.cfg").write_text(META_CONFIG)
    (suite / "passes.test").write_text("RUN: true\n")
    (suite / "folder" / "fails.test").write_text("RUN: echo said-before-failing\nRUN: false\n")
    (suite / "needs.test").write_text("REQUIRES: no-such-feature\nRUN: false\n")
    (suite / "skipped.test").write_text("RUN: false\n")
    (suite / "notes.txt").write_text("not a test\n")
    assert sorted(_discovered(suite)) == ["folder/fails.test", "needs.test", "passes.test"]
    check_lit_file(suite, "passes.test", tmp_path / "out-passes")
    with pytest.raises(pytest.fail.Exception) as failed:
        check_lit_file(suite, "folder/fails.test", tmp_path / "out-fails")
    assert "FAIL: meta :: folder/fails.test (1 of 1)" in str(failed.value)
    assert "said-before-failing" in str(failed.value)
    with pytest.raises(pytest.skip.Exception) as skipped:
        check_lit_file(suite, "needs.test", tmp_path / "out-needs")
    assert "no-such-feature" in str(skipped.value)
