"""Fuzz cases as files: a failing case saved for the regression corpus, and read back.

A case is two files, `NAME.mlir` (the program with its layouts) and `NAME.plain.mlir` (the
reference). The first starts with comment lines that say where it came from and list the
layout sites the silent-drop check needs (`// site: @kernel assign memref<…>`), so a saved
case stays checkable after the generator has changed; `// native` marks a case the suite
also runs through stock upstream MLIR (one whose finding only shows there).
`tests/fuzz/corpus/` holds the cases the suite runs (`test_fuzz.py`).
"""

from __future__ import annotations

from pathlib import Path

from tests.fuzz.functions import Site
from tests.fuzz.programs import Program

CORPUS = Path(__file__).resolve().parent / "corpus"
_SITE = "// site: "
_NATIVE = "// native"


def save(
    program: Program, directory: Path, name: str | None = None, note: str = "", native: bool = False
) -> Path:
    """Write the case; returns the path of the program with layouts."""
    directory.mkdir(parents=True, exist_ok=True)
    name = name or f"seed-{program.seed}"
    header = [f"// fuzz case {name} (seed {program.seed}, element {program.element})"]
    if note:
        header.append(f"// {note}")
    if native or program.native:
        header.append(_NATIVE)
    header += [f"{_SITE}{s.function} {s.how} {s.memref_type}" for s in program.sites]
    path = directory / f"{name}.mlir"
    path.write_text("\n".join(header) + "\n" + program.text)
    (directory / f"{name}.plain.mlir").write_text(program.plain)
    return path


def load(path: Path) -> Program:
    text = path.read_text()
    sites = []
    element = ""
    native = False
    for line in text.splitlines():
        if line == _NATIVE:
            native = True
        elif line.startswith(_SITE):
            function, how, memref_type = line[len(_SITE) :].split(" ", 2)
            sites.append(Site(function, memref_type, how))
        elif line.startswith("// fuzz case") and "element " in line:
            element = line.rsplit("element ", 1)[1].rstrip(")")
    plain = path.with_name(path.name.replace(".mlir", ".plain.mlir")).read_text()
    return Program(None, text, plain, tuple(sites), frozenset(), element, native)


def corpus_cases() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*.mlir") if not p.name.endswith(".plain.mlir"))
