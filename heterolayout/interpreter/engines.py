"""The engines by name, one of each kind per module."""

from __future__ import annotations

import weakref
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from heterolayout.interpreter.errors import ExecutionError
from heterolayout.interpreter.source import parse_program

ENGINES = ("interp", "compiled")
_engines: weakref.WeakKeyDictionary[ModuleOp, dict[str, Any]] = weakref.WeakKeyDictionary()


def load_module(module_or_text: ModuleOp | str, name: str = "<input>") -> ModuleOp:
    if isinstance(module_or_text, ModuleOp):
        return module_or_text
    return parse_program(module_or_text, name)


def engine_for(module: ModuleOp, engine: str) -> Any:
    """The engine of that kind for `module`, made once per module (so the compiled engine
    compiles each function once). Engines load on first use: importing heterolayout stays
    cheap."""
    if engine not in ENGINES:
        raise ExecutionError(f"unknown engine '{engine}' (expected {' or '.join(ENGINES)})")
    per_module = _engines.setdefault(module, {})
    if engine not in per_module:
        if engine == "interp":
            from heterolayout.interpreter.interp import InterpreterEngine as Engine
        else:
            from heterolayout.interpreter.compiled import CompiledEngine as Engine  # type: ignore[assignment]
        per_module[engine] = Engine(module)
    return per_module[engine]
