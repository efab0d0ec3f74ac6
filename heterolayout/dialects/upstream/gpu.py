"""gpu ops in upstream MLIR 22's custom syntax."""

from __future__ import annotations

from xdsl.ir import Operation

OPS: list[type[Operation]] = []
