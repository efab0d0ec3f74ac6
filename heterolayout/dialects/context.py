"""The one context the tools, engines, search and Python API read programs with, and
reading and verifying a program in it.

`make_context()` knows every dialect of the environment (xDSL's, and those other packages
register through the `xdsl.universe` entry point, loaded lazily on first use), the `layout`
dialect, and upstream MLIR 22's syntax where xDSL lacks it. Embedding heterolayout in an
xDSL flow starts here: `ctx = heterolayout.context()`, or `heterolayout.dialects.load(ctx)`
(which is `register_dialects`) on a context of one's own (docs/embedding.md).
"""

from __future__ import annotations

import functools

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.universe import Universe

from heterolayout.dialects.diagnostics import verify_ops
from heterolayout.dialects.layout import LayoutDialect
from heterolayout.dialects.upstream import extend
from heterolayout.dialects.upstream.parser import UpstreamParser
from heterolayout.layout.limits import check_source


@functools.cache
def multiverse() -> Universe:
    """Every dialect, pass and target of the environment's `xdsl.universe` entry points,
    looked up once per process (xDSL's tools look them up again for each kind)."""
    return Universe.get_multiverse()


def register_dialects(ctx: Context) -> None:
    """Register in `ctx` every dialect of the environment it does not know yet, the `layout`
    dialect among them (even without `pip install`, when no entry point names it), and
    upstream MLIR 22's syntax where xDSL lacks it (`upstream.extend`: `vector.from_elements`,
    which lowered code uses, among it). Registered dialects load on first use; calling this
    again changes nothing."""
    for name, factory in multiverse().all_dialects.items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    if LayoutDialect.name not in ctx.registered_dialect_names:
        ctx.register_dialect(LayoutDialect.name, lambda: LayoutDialect)
    extend(ctx)


def make_context() -> Context:
    """A context with every dialect the tools read (`register_dialects`)."""
    ctx = Context()
    register_dialects(ctx)
    return ctx


def verify_program(module: ModuleOp) -> None:
    """xDSL's verifier, then the layout verification walk (the checks that need a memref's
    shape)."""
    from heterolayout.dialects.symbol_index import indexed_symbol_lookups
    from heterolayout.dialects.verification import verify_layouts

    with indexed_symbol_lookups():
        verify_ops(module)
    verify_layouts(module)


def parse_program(text: str, name: str = "<input>", ctx: Context | None = None) -> ModuleOp:
    """Parse and verify a module; every op remembers its line and column in `name`."""
    check_source(text, name)
    module = UpstreamParser(ctx or make_context(), text, name).parse_module()
    verify_program(module)
    return module
