"""Shared pytest fixtures.

MLIR fixtures: ``mlir_opt``, ``mlir_runner`` (tool paths), ``mlir_runner_libs`` (runner
utility libraries) and ``native_runner`` (``run_native`` bound to them). When the tools
are missing they skip the test with a visible reason, except under ``CI=true``, where
they fail it: CI installs mlir-22-tools and must never skip the upstream cross-checks.
"""

from __future__ import annotations

import functools

import pytest
from mlir_tools import find_mlir_tool, find_runner_utils, require, run_native


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
