"""What every importer gives the lowering: the graph names of the imported function's inputs
and outputs, set on it as argument and result attributes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from heterolayout.dialects.functions import GRAPH_UNSIGNED


@dataclass(frozen=True)
class Signature:
    """The graph names of the imported function's inputs and outputs, in order."""

    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


def graph_names(
    ir: Any, key: str, names: tuple[str, ...], unsigned: frozenset[str] = frozenset()
) -> Any:
    """An `arg_attrs` / `res_attrs` array (in the importer's MLIR bindings `ir`): one
    dictionary `{key = "name"}` per value, with `GRAPH_UNSIGNED` for those in `unsigned`."""
    return ir.ArrayAttr.get(
        [
            ir.DictAttr.get(
                {
                    key: ir.StringAttr.get(n),
                    **({GRAPH_UNSIGNED: ir.UnitAttr.get()} if n in unsigned else {}),
                }
            )
            for n in names
        ]
    )


def one_line(error: BaseException) -> str:
    """A frontend's exception as one line."""
    text = " ".join(str(error).split())
    return text or type(error).__name__
