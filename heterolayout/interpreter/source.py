"""Programs as the engines see them: parsing with source locations, pass pipelines, and the
names and places used in diagnostics."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ModuleOp,
)
from xdsl.ir import Operation
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException

from heterolayout.diagnostics import location, verify_ops
from heterolayout.dialects.names import op_name
from heterolayout.dialects.upstream.parser import UpstreamParser
from heterolayout.interpreter.errors import ExecutionError
from heterolayout.universe import multiverse


def make_context() -> Context:
    """Every dialect of the environment, plus the layout dialect (even when heterolayout is
    not installed: no entry point), with the upstream syntax xDSL 0.74 lacks."""
    ctx = Context()
    for name, factory in multiverse().all_dialects.items():
        ctx.register_dialect(name, factory)
    from heterolayout.dialects import load

    load(ctx)
    return ctx


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    passes = dict(multiverse().all_passes)
    from heterolayout.passes import get_all_passes

    for name, factory in get_all_passes().items():
        passes.setdefault(name, factory)
    return passes


def verify_program(module: ModuleOp) -> None:
    """xDSL's verifier, then the layout verification walk (the checks that need a memref's
    shape)."""
    from heterolayout.dialects import verify_layouts
    from heterolayout.dialects.symbol_index import indexed_symbol_lookups

    with indexed_symbol_lookups():
        verify_ops(module)
    verify_layouts(module)


def parse_program(text: str, name: str = "<input>", ctx: Context | None = None) -> ModuleOp:
    """Parse and verify a module; every op remembers its line and column in `name`."""
    from heterolayout.limits import check_source

    check_source(text, name)
    ctx = ctx or make_context()
    module = UpstreamParser(ctx, text, name).parse_module()
    verify_program(module)
    return module


def apply_pipeline(
    module: ModuleOp, pipeline: str | Sequence[str | ModulePass], ctx: Context | None = None
) -> ModuleOp:
    """A transformed copy of `module` (the original is left as it is). `pipeline` is a pass
    pipeline spec (`lower-affine,canonicalize`), or a sequence of specs and pass instances."""
    passes = pipeline_passes(pipeline)
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


def pipeline_passes(pipeline: str | Sequence[str | ModulePass]) -> list[ModulePass]:
    """The pass instances of a pipeline spec, or of a sequence of specs and instances."""
    passes: list[ModulePass] = []
    for part in [pipeline] if isinstance(pipeline, str) else pipeline:
        if not isinstance(part, str):
            passes.append(part)
            continue
        try:
            passes.extend(PassPipeline.parse_spec(available_passes(), part).passes)
        except (ValueError, ArgSpecParseError) as error:  # xDSL raises both for a bad spec
            raise ExecutionError(f"pipeline '{part}': {error}") from None
    return passes


def _spec(pipeline: str | Sequence[str | ModulePass]) -> str:
    if isinstance(pipeline, str):
        return pipeline
    return ",".join(p if isinstance(p, str) else str(p.pipeline_pass_spec()) for p in pipeline)


def where(op: Operation) -> str:
    """How diagnostics name an op: `memref.load at kernel.mlir:7:12`."""
    place = location(op)
    return f"{op_name(op)} {'in' if place.startswith('@') else 'at'} {place}"
