"""Ops compiled into small Python functions, once per op: a value op's expression
(`semantics`), an affine map, an `affine.if` condition; and the per-op cache that holds them
(and any other piece an op's implementation builds the first time it runs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import affine
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap

from heterolayout.dialects.diagnostics import where
from heterolayout.dialects.names import op_name
from heterolayout.execution.runtime.expressions import ExprContext
from heterolayout.execution.runtime.semantics import (
    RUNTIME,
    affine_condition,
    affine_results,
    value_expression,
)

Kernel = Callable[..., Any]


def kernel_namespace() -> tuple[dict[str, Any], Callable[[object], str]]:
    """A namespace for generated lambdas and the `bind` that adds constants to it."""
    namespace = dict(RUNTIME)

    def bind(value: object) -> str:
        name = f"_k{len(namespace)}"
        namespace[name] = value
        return name

    return namespace, bind


def compile_kernel(op: Operation) -> Kernel:
    """The op's semantic expression as a function of its operands."""
    namespace, bind = kernel_namespace()
    params = [f"a{i}" for i in range(len(op.operands))]
    expression = value_expression(op_name(op), op, params, ExprContext(bind, where(op)))
    return eval(f"lambda {', '.join(params)}: {expression}", namespace)


def compile_map(affine_map: AffineMap, op: Operation) -> Kernel:
    """An affine map as a function of its dims and symbols, returning the tuple of results."""
    namespace, bind = kernel_namespace()
    params = [f"a{i}" for i in range(affine_map.num_dims + affine_map.num_symbols)]
    results = affine_results(affine_map, params, ExprContext(bind, where(op)))
    return eval(f"lambda {', '.join(params)}: ({''.join(r + ', ' for r in results)})", namespace)


def compile_condition(op: Operation) -> Kernel:
    """An affine.if integer set as a predicate of its dims and symbols."""
    namespace, bind = kernel_namespace()
    assert isinstance(op, affine.IfOp)
    test = affine_condition(
        op.condition.data, [f"a{i}" for i in range(len(op.operands))], ExprContext(bind, where(op))
    )
    params = ", ".join(f"a{i}" for i in range(len(op.operands)))
    return eval(f"lambda {params}: {test}", namespace)


@dataclass
class Cache:
    """Per-op compiled pieces, built the first time an op runs. Keyed by the op's id: an
    op hashes through a Python-level `__hash__`, and the functions live no longer than the
    engine that holds their module."""

    kernels: dict[int, Any] = field(default_factory=dict)

    def get(self, op: Operation, build: Callable[[Operation], Any]) -> Any:
        found = self.kernels.get(id(op))
        if found is None:
            found = self.kernels[id(op)] = build(op)
        return found
