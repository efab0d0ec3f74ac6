"""Round trips between `layout-opt` and upstream `mlir-opt` 22 on upstream-style programs.

The corpus (`tests/roundtrip/*.mlir`) is written from upstream MLIR's documented syntax and
its own test inputs (Dialect/MemRef/ops.mlir, SCF/ops.mlir, Affine/ops.mlir,
Linalg/named-ops.mlir, GPU/ops.mlir, …), plus what upstream's bufferization prints. For
each file, `layout-opt` reads it as written, as mlir-opt 22 prints it, and in generic
form; mlir-opt 22 must then print what `layout-opt` wrote exactly as it prints the
original: same ops, operands, attributes and types (mlir-opt renames every value, so
names cannot hide a difference). No file uses a heterolayout layout, so `layout-lower`
must leave each one as it is.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from heterolayout.dialects.context import make_context
from heterolayout.dialects.upstream.parser import UpstreamParser
from heterolayout.dialects.views import value_layout
from heterolayout.tools.opt import main as layout_opt_main
from tests.paths import TESTS

CORPUS = sorted((TESTS / "roundtrip").glob("*.mlir"))
GENERIC_UNREAD = {
    "arith_math.mlir": "MLIR 22's arith.trunci has an overflowFlags property xDSL 0.74 lacks",
    "gpu.mlir": "xDSL 0.74's gpu.memcpy and gpu.dealloc expect operand segment sizes that "
    "upstream's generic form does not write",
}
"""Files whose generic form layout-opt does not read (their custom form it does)."""


def _mlir_opt(mlir_opt: str, text: str, *options: str) -> str:
    proc = subprocess.run(
        [mlir_opt, "--allow-unregistered-dialect", *options],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _layout_opt(text: str, tmp_path: Path, *options: str) -> str:
    source, target = tmp_path / "in.mlir", tmp_path / "out.mlir"
    source.write_text(text)
    code = layout_opt_main(
        [str(source), "--allow-unregistered-dialect", *options, "-o", str(target)]
    )
    assert code == 0
    return target.read_text()


@pytest.mark.parametrize("form", ["as-written", "mlir-opt", "generic"])
@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_layout_opt_reads_and_writes_upstream_syntax(
    path: Path, form: str, mlir_opt: str, tmp_path: Path
) -> None:
    if form == "generic" and path.name in GENERIC_UNREAD:
        pytest.skip(GENERIC_UNREAD[path.name])
    original = path.read_text()
    canonical = _mlir_opt(mlir_opt, original)
    given = {
        "as-written": original,
        "mlir-opt": canonical,
        "generic": _mlir_opt(mlir_opt, original, "--mlir-print-op-generic"),
    }[form]
    ours = _layout_opt(given, tmp_path)
    assert _mlir_opt(mlir_opt, ours) == canonical


@pytest.mark.parametrize("path", CORPUS, ids=[p.name for p in CORPUS])
def test_layout_lower_leaves_programs_without_layouts_alone(
    path: Path, mlir_opt: str, tmp_path: Path
) -> None:
    original = path.read_text()
    ctx = make_context()
    ctx.allow_unregistered = True
    module = UpstreamParser(ctx, original).parse_module()
    values = [v for op in module.walk() for v in op.results] + [
        a for op in module.walk() for r in op.regions for b in r.blocks for a in b.args
    ]
    assert all(value_layout(v) is None for v in values)
    lowered = _layout_opt(original, tmp_path, "-p", "layout-lower")
    assert _mlir_opt(mlir_opt, lowered) == _mlir_opt(mlir_opt, original)
