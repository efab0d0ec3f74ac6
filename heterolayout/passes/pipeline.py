"""The one pass pipeline builder: pass names to pass instances, and running them with the
layout verification between passes.

`layout-opt`, the engines, the search and the Python API all build their pipelines here, so
a pipeline spec means the same everywhere: xDSL's passes, those of other packages'
`xdsl.universe` entry points, and heterolayout's (`passes.get_all_passes`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException

from heterolayout.dialects.context import make_context, multiverse, verify_program
from heterolayout.passes import get_all_passes
from heterolayout.passes.unchanged import unchanged_by

Pipeline = str | Sequence[str | ModulePass]
"""A pipeline spec (`layout-schedule,layout-lower{index=affine}`), or a sequence of specs
and pass instances."""


class PipelineError(DiagnosticException):
    """A pipeline spec that names no pass or takes a bad option, or a pass that crashed: one
    line naming the pipeline."""


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name → pass class factory, for every pass a pipeline may name."""
    passes = dict(multiverse().all_passes)
    for name, factory in get_all_passes().items():
        passes.setdefault(name, factory)
    return passes


def pipeline_passes(pipeline: Pipeline) -> list[ModulePass]:
    """The pass instances of a pipeline."""
    passes: list[ModulePass] = []
    for part in [pipeline] if isinstance(pipeline, str) else pipeline:
        if not isinstance(part, str):
            passes.append(part)
            continue
        try:
            passes.extend(PassPipeline.parse_spec(available_passes(), part).passes)
        except (ValueError, ArgSpecParseError) as error:  # xDSL raises both for a bad spec
            raise PipelineError(f"pipeline '{part}': {error}") from None
    return passes


def with_steps(passes: Iterable[ModulePass]) -> list[ModulePass]:
    """`passes`, each pass that is a pipeline of named steps (its class has a `steps()`
    method returning them, as `layout-lower`'s has) replaced by its steps, so that the
    verification between passes runs between them too and names them."""
    found: list[ModulePass] = []
    for one in passes:
        steps = getattr(type(one), "steps", None)
        if callable(steps):
            found.extend(with_steps(steps(one)))
        else:
            found.append(one)
    return found


@contextmanager
def naming_the_pass(done: ModulePass | None) -> Iterator[None]:
    """A verification failure after a pass (or a step) says which one left the IR so:
    `after layout-lower-memrefs: 'memref.load' op …`."""
    try:
        yield
    except DiagnosticException as error:
        if done is not None and error.args and isinstance(error.args[0], str):
            error.args = (f"after {done.name}: {error.args[0]}", *error.args[1:])
        raise


def apply_pipeline(module: ModuleOp, pipeline: Pipeline, ctx: Context | None = None) -> ModuleOp:
    """A transformed copy of `module` (the original is left as it is), verified after every
    pass and every step of a pass that has steps (xDSL's verifier and the layout
    verification walk; not after a pass that changed nothing, `passes.unchanged`)."""
    passes = with_steps(pipeline_passes(pipeline))
    transformed = module.clone()

    def verify_after(done: ModulePass | None, module: ModuleOp, _: ModulePass | None) -> None:
        if not unchanged_by(done, module) and done is not None:
            with naming_the_pass(done):
                verify_program(module)

    try:
        PassPipeline(tuple(passes), callback=verify_after).apply(ctx or make_context(), transformed)
    except DiagnosticException:
        raise
    except Exception as error:  # a pass that crashes: say which pipeline, keep it one line
        message = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise PipelineError(
            f"pipeline '{spec_text(pipeline)}' failed: {type(error).__name__}: {message}"
        ) from error
    return transformed


def spec_text(pipeline: Pipeline) -> str:
    if isinstance(pipeline, str):
        return pipeline
    return ",".join(p if isinstance(p, str) else str(p.pipeline_pass_spec()) for p in pipeline)
