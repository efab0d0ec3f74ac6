"""Shared pytest fixtures.

MLIR fixtures: ``mlir_opt``, ``mlir_runner`` (tool paths), ``mlir_runner_libs`` (runner
utility libraries), ``native_runner`` (``run_native`` bound to them) and ``native_engine``
(the native engine can build); tests parametrized with the engine "native" require it
too. When the tools are missing they skip the test with a visible reason, except under
``CI=true``, where they fail it: CI installs mlir-22-tools and must never skip the
upstream cross-checks.
"""

from __future__ import annotations

import functools

import pytest

from tests.mlir_tools import (
    find_mlir_tool,
    find_runner_utils,
    require,
    require_native_engine,
    run_native,
)


@pytest.fixture(autouse=True)
def _native_engine_needs_mlir(request: pytest.FixtureRequest) -> None:
    """A test parametrized with the native engine skips visibly without MLIR 22 (fails
    under CI=true), like the upstream cross-checks."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and "native" in callspec.params.values():
        require_native_engine()


@pytest.fixture
def native_engine() -> None:
    """Requires the native engine (MLIR 22 and a C compiler)."""
    require_native_engine()


@pytest.fixture
def mlir_opt() -> str:
    return require(find_mlir_tool("mlir-opt"), "mlir-opt")


@pytest.fixture
def mlir_runner() -> str:
    return require(find_mlir_tool("mlir-runner"), "mlir-runner")


@pytest.fixture
def mlir_runner_libs() -> list[str]:
    return require(find_runner_utils(), "MLIR runner utils (libmlir_runner_utils.so)")


@pytest.fixture
def native_runner(mlir_opt, mlir_runner, mlir_runner_libs):
    """``run_native`` with the located tools: ``native_runner(mlir_text, entry="main")``."""
    return functools.partial(
        run_native, mlir_opt=mlir_opt, mlir_runner=mlir_runner, shared_libs=mlir_runner_libs
    )
