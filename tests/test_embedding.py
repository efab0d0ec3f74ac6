"""Embedding heterolayout in another xDSL flow (docs/embedding.md): the page's example
pipeline runs as written and prints what `layout-opt` prints for the same spec; `load(ctx)`
gives a context every dialect the tools read; the pass classes and the façade's names are
there by name."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.parser import Parser
from xdsl.passes import ModulePass

import heterolayout
import heterolayout.passes
from heterolayout.dialects import load
from heterolayout.passes import PASS_CLASSES, get_all_passes
from heterolayout.tools.opt import main as layout_opt_main

REPOSITORY = Path(__file__).resolve().parent.parent
PAGE = REPOSITORY / "docs" / "embedding.md"
FROM_ELEMENTS = """
func.func @f(%a: f32, %b: f32) -> vector<2xf32> {
  %v = vector.from_elements %a, %b : vector<2xf32>
  func.return %v : vector<2xf32>
}
"""
"""Upstream MLIR 22's syntax for an op xDSL 0.74 lacks (heterolayout/dialects/upstream)."""


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", PAGE.read_text(), re.S)


def test_the_documented_pipeline_runs_and_prints_what_layout_opt_prints(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(REPOSITORY)
    namespace: dict[str, object] = {"__name__": "embedding_example"}
    for block in _blocks("python"):
        exec(compile(block, str(PAGE), "exec"), namespace)
    printed = capsys.readouterr().out
    assert "OK: 2176 elements compared" in printed
    lowered = str(namespace["lowered"])
    assert lowered in printed
    assert "layout" not in lowered and "affine." not in lowered
    assert "memref<3x8x4x16xf32>" in lowered  # B in its blocked layout, "KN->NK4k16n"

    (command,) = [line for b in _blocks("sh") for line in b.splitlines() if "layout-opt" in line]
    spec = re.fullmatch(r"layout-opt (\S+) -p '(.*)'", command.strip())
    assert spec is not None
    output = tmp_path / "lowered.mlir"
    assert layout_opt_main([spec[1], "-p", spec[2], "-o", str(output)]) == 0
    assert output.read_text().strip() == lowered


def test_load_gives_an_own_context_every_dialect_the_tools_read() -> None:
    ctx = Context()
    load(ctx)
    load(ctx)  # a second call changes nothing
    text = (REPOSITORY / "examples" / "conv2d_nchw16c.mlir").read_text()
    module = Parser(ctx, text).parse_module()
    assert {op.name for op in module.walk()} >= {"func.func", "layout.assign", "affine.for"}
    assert "vector.from_elements" in {
        op.name for op in Parser(ctx, FROM_ELEMENTS).parse_module().walk()
    }


def test_load_keeps_the_dialects_a_context_already_has() -> None:
    from xdsl.dialects.func import Func

    ctx = Context()
    ctx.load_dialect(Func)
    load(ctx)
    assert Func in ctx.loaded_dialects
    assert "layout" in ctx.registered_dialect_names and "memref" in ctx.registered_dialect_names


def test_the_facade_context_reads_upstream_syntax() -> None:
    parsed = Parser(heterolayout.context(), FROM_ELEMENTS).parse_module()
    assert "vector.from_elements" in {op.name for op in parsed.walk()}


def test_every_registered_pass_is_importable_by_its_class_name() -> None:
    assert set(PASS_CLASSES.values()) == set(get_all_passes())
    for class_name, pass_name in PASS_CLASSES.items():
        cls = getattr(heterolayout.passes, class_name)
        assert issubclass(cls, ModulePass)
        assert (cls.__name__, cls.name) == (class_name, pass_name)
        assert class_name in heterolayout.passes.__all__
        assert class_name in dir(heterolayout.passes)
    with pytest.raises(AttributeError, match="NoSuchPass"):
        heterolayout.passes.NoSuchPass  # noqa: B018


def test_dir_lists_the_facade() -> None:
    names = dir(heterolayout)
    assert set(heterolayout.__all__) <= set(names)
    assert {"context", "parse_layout", "run", "check", "tune", "Layout"} <= set(names)
    assert not [n for n in names if n.startswith("_") and n != "__version__"]
    for name in heterolayout.__all__:
        assert getattr(heterolayout, name) is not None


def test_the_facade_parse_layout_reads_attribute_text_in_a_fresh_process() -> None:
    """The model imports nothing above it: `heterolayout.parse_layout` lends it the dialect's
    attribute text and the native packer before it parses."""
    script = (
        "import heterolayout, sys\n"
        "layout = heterolayout.parse_layout('#layout.tag<\"NCHW->nChw8c\">', (1, 9, 2, 2))\n"
        "print(layout.physical_shape)\n"
        "from heterolayout.layout.services import native_packer\n"
        "print(native_packer(None) is not None)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:2] == ["(1, 2, 2, 2, 8)", "True"]
