"""Programs as the engines see them: parsing with source locations, pass pipelines, and the
names and places used in diagnostics."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import (
    FileLineColLoc,
    IntAttr,
    ModuleOp,
    StringAttr,
    UnknownLoc,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass, PassPipeline
from xdsl.universe import Universe
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException

from heterolayout.dialects.names import op_name
from heterolayout.dialects.upstream.parser import UpstreamParser
from heterolayout.interpreter.errors import ExecutionError


@functools.cache
def _multiverse() -> Universe:
    return Universe.get_multiverse()


def make_context() -> Context:
    """Every dialect of the environment, plus the layout dialect (even when heterolayout is
    not installed: no entry point), with the upstream syntax xDSL 0.74 lacks."""
    ctx = Context()
    for name, factory in _multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    from heterolayout.dialects import load

    load(ctx)
    return ctx


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    passes = dict(_multiverse().all_passes)
    from heterolayout.passes import get_all_passes

    for name, factory in get_all_passes().items():
        passes.setdefault(name, factory)
    return passes


class LocatingParser(UpstreamParser):
    """The parser of upstream syntax, recording where each op starts.

    Workaround: xDSL keeps `loc(...)` when the text spells one, but leaves every other op at
    `loc(unknown)`, so a run-time error could not say where the failing op is.
    """

    _counted: tuple[int, int] = (0, 1)
    """(position, line there): ops start in increasing positions, so lines are counted on
    from the last op (xDSL's `Span.get_location` counts from the start of the text, which
    made locating every op quadratic in the file's size)."""

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        location = self._location(start.start, start.input.content, start.input.name)
        op = super().parse_operation()
        if isinstance(op.location, UnknownLoc):
            op.location = location
        return op

    def _location(self, position: int, text: str, name: str) -> FileLineColLoc:
        counted, line = self._counted
        if position < counted:
            counted, line = 0, 1
        line += text.count("\n", counted, position)
        self._counted = (position, line)
        column = position - (text.rfind("\n", 0, position) + 1) + 1
        return FileLineColLoc(StringAttr(name), IntAttr(line), IntAttr(column))


def verify_program(module: ModuleOp) -> None:
    """xDSL's verifier, then the layout verification walk (the checks that need a memref's
    shape)."""
    from heterolayout.dialects import verify_layouts
    from heterolayout.dialects.symbol_index import indexed_symbol_lookups

    with indexed_symbol_lookups():
        module.verify()
    verify_layouts(module)


def parse_program(text: str, name: str = "<input>", ctx: Context | None = None) -> ModuleOp:
    """Parse and verify a module; every op remembers its line and column in `name`."""
    from heterolayout.limits import check_source

    check_source(text, name)
    ctx = ctx or make_context()
    module = LocatingParser(ctx, text, name).parse_module()
    verify_program(module)
    return module


def apply_pipeline(
    module: ModuleOp, pipeline: str | Sequence[str | ModulePass], ctx: Context | None = None
) -> ModuleOp:
    """A transformed copy of `module` (the original is left as it is). `pipeline` is a pass
    pipeline spec (`lower-affine,canonicalize`), or a sequence of specs and pass instances."""
    passes: list[ModulePass] = []
    for part in [pipeline] if isinstance(pipeline, str) else pipeline:
        if not isinstance(part, str):
            passes.append(part)
            continue
        try:
            passes.extend(PassPipeline.parse_spec(available_passes(), part).passes)
        except (ValueError, ArgSpecParseError) as error:  # xDSL raises both for a bad spec
            raise ExecutionError(f"pipeline '{part}': {error}") from None
    transformed = module.clone()
    try:
        PassPipeline(tuple(passes)).apply(ctx or make_context(), transformed)
    except DiagnosticException:
        raise
    except Exception as error:  # a pass that crashes: say which pipeline, keep it one line
        message = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise ExecutionError(
            f"pipeline '{_spec(pipeline)}' failed: {type(error).__name__}: {message}"
        ) from error
    verify_program(transformed)
    return transformed


def _spec(pipeline: str | Sequence[str | ModulePass]) -> str:
    if isinstance(pipeline, str):
        return pipeline
    return ",".join(p if isinstance(p, str) else p.name for p in pipeline)


def enclosing_function(op: Operation) -> str | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, FuncOp):
        parent = parent.parent_op()
    return None if parent is None else parent.sym_name.data


def location(op: Operation) -> str:
    """`FILE:LINE:COL` of the op, or the function it is in when it has no location."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    function = enclosing_function(op)
    return f"@{function}" if function is not None else "<unknown location>"


def where(op: Operation) -> str:
    """How diagnostics name an op: `memref.load at kernel.mlir:7:12`."""
    place = location(op)
    return f"{op_name(op)} {'in' if place.startswith('@') else 'at'} {place}"
