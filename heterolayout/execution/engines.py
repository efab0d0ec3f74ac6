"""The engines by name, one of each kind per module."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from heterolayout.dialects.context import parse_program
from heterolayout.execution.errors import ExecutionError

ENGINE_CLASSES = {
    "interp": ("heterolayout.execution.interp.engine", "InterpreterEngine"),
    "compiled": ("heterolayout.execution.compiled.engine", "CompiledEngine"),
    "native": ("heterolayout.execution.native.engine", "NativeEngine"),
    "cuda": ("heterolayout.execution.cuda.engine", "CudaEngine"),
}
"""Each engine's class, by the module that defines it: engines load on first use, so that
importing heterolayout stays cheap (and an engine may use this module's `load_module`)."""
ENGINES = tuple(ENGINE_CLASSES)
AUTO = "auto"
"""The default engine's name: the native engine for a large program (`work.LARGE_WORK`) or
one with an op the Python engines do not run, when upstream MLIR 22 and a C compiler are
installed; the compiled engine otherwise."""
_ENGINES_ATTRIBUTE = "_heterolayout_engines"
"""Where a module keeps its engines. An engine holds ops of its module (whose parents lead
back to the module), so a cache outside the module, even a weak-keyed one, would keep every
module ever run alive; kept on the module, module and engines go away together."""


def load_module(module_or_text: ModuleOp | str, name: str = "<input>") -> ModuleOp:
    if isinstance(module_or_text, ModuleOp):
        return module_or_text
    return parse_program(module_or_text, name)


def chosen_engine(module: ModuleOp, engine: str) -> str:
    """`engine`, or for `auto` the engine `module` runs fastest in (`AUTO`)."""
    if engine != AUTO:
        return engine
    from heterolayout.execution.entry import functions, supported
    from heterolayout.execution.native.build import Tools
    from heterolayout.execution.work import LARGE_WORK, estimate_work

    if any(op.name.startswith("gpu.") for op in module.walk()):
        return "compiled"
    bodies = [op for f in functions(module).values() for op in f.walk() if op is not f]
    if estimate_work(module) < LARGE_WORK and all(supported(op) for op in bodies):
        return "compiled"
    try:
        Tools.find()
    except ExecutionError:
        return "compiled"
    return "native"


def engine_for(module: ModuleOp, engine: str) -> Any:
    """The engine of that kind for `module` (`auto`: `chosen_engine`), made once per module
    (so the compiled engine compiles each function once)."""
    engine = chosen_engine(module, engine)
    if engine not in ENGINES:
        raise ExecutionError(
            f"unknown engine '{engine}' (expected {' or '.join((AUTO, *ENGINES))})"
        )
    per_module: dict[str, Any] | None = getattr(module, _ENGINES_ATTRIBUTE, None)
    if per_module is None:
        per_module = {}
        setattr(module, _ENGINES_ATTRIBUTE, per_module)
    if engine not in per_module:
        module_name, class_name = ENGINE_CLASSES[engine]
        per_module[engine] = getattr(import_module(module_name), class_name)(module)
    return per_module[engine]
