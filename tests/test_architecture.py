"""The package's floors, read from its imports: each package imports only those below it,
no import circle spans two modules' packages, and no private name crosses a module.

The order (docs/architecture.md): layout → dialects → passes → execution → frontends →
search → the façade (`heterolayout/__init__.py`) → tools. `universe.py`, the `xdsl.universe`
entry point, names the passes and the dialect, so it sits just above passes. Every import
counts, at the top of a module, inside a function, or for type checking only.

Inside passes the subpackages have floors of their own, by the same rule: index → packed →
views → convert → validate → lower → schedule. The modules of `passes/` itself hold what
passes share (physical types, cleanup marks, transfers written out, remarks, the collector
pause) and sit below the subpackages; the registry (`passes/__init__.py`) and the pipeline
builder, which name every pass, sit above them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "heterolayout"

FLOORS = ("layout", "dialects", "passes", "execution", "frontends", "search", "tools")
"""The packages, lowest first."""
TOP_LEVEL = {"heterolayout.universe": 2.5, "heterolayout": 5.5}
"""Modules outside the packages, placed between them."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def floor(module: str) -> float:
    if module in TOP_LEVEL:
        return TOP_LEVEL[module]
    package = module.split(".")[1]
    assert package in FLOORS, f"{module} is in no floor: add its package to FLOORS"
    return FLOORS.index(package)


PASS_FLOORS = ("index", "packed", "views", "convert", "validate", "lower", "schedule")
"""The subpackages of passes, lowest first."""
PASSES = PACKAGE / "passes"
PASS_REGISTRY = {"heterolayout.passes", "heterolayout.passes.pipeline"}
"""The modules of passes/ that name every pass: above the subpackages."""


def pass_floor(module: str) -> float:
    """A passes module's floor: its subpackage's, below them all for the shared modules of
    passes/ itself, above them all for the registry."""
    if module in PASS_REGISTRY:
        return len(PASS_FLOORS)
    parts = MODULES[module].relative_to(PASSES).parts
    if len(parts) == 1:
        return -1
    assert parts[0] in PASS_FLOORS, f"{module} is in no floor: add it to PASS_FLOORS"
    return PASS_FLOORS.index(parts[0])


def _type_only(tree: ast.Module) -> set[ast.AST]:
    """The imports under `if TYPE_CHECKING:`, which never run."""
    found: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            for child in node.body:
                found.update(ast.walk(child))
    return found


def imports(module: str, runtime: bool = False) -> Iterator[tuple[str, int, list[str]]]:
    """Each import of a heterolayout module: (the module, line, names taken from it);
    `runtime`: those that run (not the ones for type checking only)."""
    tree = ast.parse(MODULES[module].read_text())
    skipped = _type_only(tree) if runtime else set()
    for node in ast.walk(tree):
        if node in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("heterolayout"):
                    yield alias.name, node.lineno, []
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if not node.module.startswith("heterolayout"):
                continue
            names = [alias.name for alias in node.names]
            submodules = [f"{node.module}.{n}" for n in names if f"{node.module}.{n}" in MODULES]
            yield (
                node.module,
                node.lineno,
                [n for n in names if f"{node.module}.{n}" not in MODULES],
            )
            for submodule in submodules:
                yield submodule, node.lineno, []


EDGES = {
    module: {(target, line, tuple(names)) for target, line, names in imports(module)}
    for module in MODULES
}
RUNTIME_EDGES = {
    module: {target for target, _, _ in imports(module, runtime=True)} for module in MODULES
}


def test_every_import_goes_down_or_stays_on_its_floor() -> None:
    upward = [
        f"{module}:{line} imports {target}"
        for module, edges in EDGES.items()
        for target, line, _ in edges
        if target in MODULES and floor(target) > floor(module)
    ]
    assert not upward, "imports that climb a floor:\n" + "\n".join(sorted(upward))


def test_every_import_in_passes_goes_down_or_stays_on_its_floor() -> None:
    in_passes = [
        m for m in MODULES if m == "heterolayout.passes" or m.startswith("heterolayout.passes.")
    ]
    upward = [
        f"{module}:{line} imports {target}"
        for module in in_passes
        for target, line, _ in EDGES[module]
        if target in in_passes and pass_floor(target) > pass_floor(module)
    ]
    assert not upward, "imports that climb a floor of passes:\n" + "\n".join(sorted(upward))


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _package(module: str) -> str:
    """A module's package: the folder it is in (a package's `__init__` is in it)."""
    path = MODULES[module]
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


@pytest.mark.parametrize("level", ["packages", "modules"])
def test_no_import_circles(level: str) -> None:
    """No circle of imports between packages, nor between the modules of one package
    (a package's `__init__` importing its own modules aside: Python runs it first; imports
    for type checking only, which never run, aside too)."""
    graph: dict[str, set[str]] = {}
    for module, targets in RUNTIME_EDGES.items():
        for target in targets:
            if target not in MODULES or target == module:
                continue
            if level == "packages":
                source, destination = _package(module), _package(target)
                if source != destination and not destination.startswith(source + "."):
                    graph.setdefault(source, set()).add(destination)
            elif MODULES[module].name != "__init__.py" or _package(target) != module:
                graph.setdefault(module, set()).add(target)
    circles = _circles(graph)
    assert not circles, "import circles:\n" + "\n".join(" ↔ ".join(c) for c in circles)


def test_no_private_name_is_imported_from_another_module() -> None:
    crossing = [
        f"{module}:{line} takes {', '.join(n for n in names if n.startswith('_'))} from {target}"
        for module, edges in EDGES.items()
        for target, line, names in edges
        if any(n.startswith("_") and not n.startswith("__") for n in names)
    ]
    assert not crossing, "private names used across modules:\n" + "\n".join(sorted(crossing))


def test_the_root_of_a_memref_value_is_asked_in_one_place() -> None:
    """`dialects/roots.py` answers "which buffer is this value?"; no other module of the IR
    floors defines its own answer (the engines' roots of numpy views are another thing)."""
    defined = [
        f"{module}.{node.name}"
        for module, path in MODULES.items()
        if module != "heterolayout.dialects.roots"
        and not module.startswith("heterolayout.execution")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef)
        and node.name.lstrip("_").endswith("root")
        and node.returns is not None
        and ast.unparse(node.returns) == "SSAValue"
    ]
    assert not defined, "roots defined outside dialects/roots.py: " + ", ".join(defined)
