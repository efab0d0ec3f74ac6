"""Upstream MLIR 22's custom syntax where xDSL 0.74 lacks it.

Each module of this package covers one upstream dialect and lists in `OPS` the op classes
heterolayout adds to it: subclasses of xDSL's ops that parse and print upstream's custom
format (xDSL's parse only the generic form, or a different text), and ops xDSL does not
define at all. `extend(ctx)` makes a context load these in place of xDSL's whenever the
dialect loads, so the dialects stay lazy: nothing here is imported before a program
uses the dialect. Each class says in its docstring which xDSL gap it works around.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from xdsl.context import Context
from xdsl.ir import Attribute, Dialect, Operation

EXTENDED = ("affine", "arith", "bufferization", "gpu", "linalg", "llvm", "memref", "scf", "vector")
"""The dialects with a module here (`heterolayout.dialects.upstream.<name>`)."""


def additions(name: str) -> tuple[list[type[Operation]], list[type[Attribute]]]:
    """The op and attribute classes heterolayout adds to (or puts in place of xDSL's in)
    dialect `name`."""
    module = importlib.import_module(f"heterolayout.dialects.upstream.{name}")
    return list(module.OPS), list(getattr(module, "ATTRIBUTES", ()))


def extended_dialect(base: Dialect) -> Dialect:
    """`base` with heterolayout's ops in place of xDSL's of the same name, plus new ones."""
    ops, attributes = additions(base.name)
    replaced = {op.name for op in ops}
    operations = [op for op in base.operations if op.name not in replaced]
    return Dialect(base.name, [*operations, *ops], [*base.attributes, *attributes])


def extended_factory(factory: Callable[[], Dialect]) -> Callable[[], Dialect]:
    return lambda: extended_dialect(factory())


def extend(ctx: Context) -> None:
    """Make `ctx` use heterolayout's ops for the dialects in `EXTENDED`: a dialect registered
    but not loaded yet gets an extending factory (it stays lazy), a loaded one gets the ops
    at once.

    Workaround: xDSL's Context has no way to replace a registered dialect's factory or a
    loaded op, so this writes its two tables directly."""
    for name in EXTENDED:
        if name in {d.name for d in ctx.loaded_dialects}:
            ops, attributes = additions(name)
            for op in ops:
                ctx._loaded_ops[op.name] = op  # pyright: ignore[reportPrivateUsage]
            known = {a.name for a in (*ctx.loaded_attrs, *ctx.loaded_types)}
            for attribute in attributes:
                if attribute.name not in known:
                    ctx.load_attr_or_type(attribute)
        elif name in ctx.registered_dialect_names:
            factory = ctx._registered_dialects[name]  # pyright: ignore[reportPrivateUsage]
            if not getattr(factory, "heterolayout_extended", False):
                extended = extended_factory(factory)
                extended.heterolayout_extended = True  # type: ignore[attr-defined]
                ctx._registered_dialects[name] = extended  # pyright: ignore[reportPrivateUsage]
