"""linalg ops as the loop nests they mean, for both engines.

Every linalg op the engines run is a structured op: an indexing map per operand (inputs,
then outputs), a body computing the output elements from the input and output elements,
and loops whose extents are the operand dims the maps read directly. Named ops use the
body and maps of their `linalg.generic` form; `linalg.broadcast` and `linalg.reduce`
state theirs through `dimensions`, and `linalg.map` walks every operand whole. The loops run in order, the body reading and writing
the outputs in memory at each point, which is upstream's `convert-linalg-to-loops`: the
same order of reductions, so the same floats. `linalg.map` maps every operand by the
identity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Block, Operation
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from heterolayout.dialects.diagnostics import where


class StructureError(ValueError):
    """A linalg op whose loop nest cannot be read (on tensors, or a loop no operand sizes):
    one line naming the op. The engines raise it as their `ExecutionError`."""


@dataclass(frozen=True)
class Structured:
    """A linalg op's loop nest."""

    maps: tuple[AffineMap, ...]
    """One per operand, inputs first; a scalar input has a map with no results."""
    inputs: int
    body: Block
    extents: tuple[tuple[int, int], ...]
    """Per loop, the (operand, dim) whose size is the loop's extent."""
    memrefs: tuple[bool, ...]
    """Per operand, whether it is a memref (else a scalar passed as it is)."""

    @property
    def loops(self) -> int:
        return len(self.extents)


_BY_NAME = ("linalg.broadcast", "linalg.reduce", "linalg.map")
"""Structured ops xDSL does not define as `LinalgStructuredOperation`s."""


def is_structured(op: Operation) -> bool:
    return isinstance(op, LinalgStructuredOperation) or op.name in _BY_NAME


def structured(op: Operation) -> Structured:
    """The loop nest of a linalg op (StructureError for an op on tensors)."""
    if op.results:
        raise StructureError(f"{where(op)}: linalg on tensors does not run; bufferize first")
    if op.name == "linalg.map":
        rank = op.operands[-1].type.get_num_dims()  # type: ignore[attr-defined]
        maps, inputs = (AffineMap.identity(rank),) * len(op.operands), len(op.operands) - 1
    elif op.name in ("linalg.broadcast", "linalg.reduce"):
        maps, inputs = _dimension_maps(op), 1
    else:
        assert isinstance(op, LinalgStructuredOperation)
        maps, inputs = tuple(m.data for m in op.get_indexing_maps()), len(op.inputs)
    loops = maps[-1].num_dims
    extents = tuple(_extent_source(op, maps, d) for d in range(loops))
    return Structured(
        maps,
        inputs,
        op.regions[0].block,
        extents,
        tuple(isinstance(o.type, MemRefType) for o in op.operands),
    )


def _dimension_maps(op: Operation) -> tuple[AffineMap, ...]:
    """broadcast: the input leaves out the added `dimensions`; reduce: the init leaves out
    the reduced ones. The other operand walks every loop."""
    rank = op.operands[1 if op.name == "linalg.broadcast" else 0].type.get_num_dims()  # type: ignore[attr-defined]
    dimensions = set(op.dimensions.get_values())  # type: ignore[attr-defined]
    full = AffineMap.identity(rank)
    partial = AffineMap(
        rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d not in dimensions)
    )
    return (partial, full) if op.name == "linalg.broadcast" else (full, partial)


def _extent_source(op: Operation, maps: Sequence[AffineMap], loop: int) -> tuple[int, int]:
    wanted: AffineExpr = AffineDimExpr(loop)
    for operand, affine_map in enumerate(maps):
        for dim, result in enumerate(affine_map.results):
            if result == wanted:
                return operand, dim
    raise StructureError(f"{where(op)}: no operand dim gives the extent of loop d{loop}")
