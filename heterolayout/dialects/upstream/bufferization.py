"""bufferization ops as upstream MLIR 22 prints them after `--one-shot-bufferize`.

xDSL 0.74 gap worked around here: `to_buffer` and `to_tensor` require the memref to have
no layout (their type variable ties the memref to the tensor's shape and element type, and
the tensor's memref has none), so the default bufferization output, `to_buffer %t :
tensor<4x8xf32> to memref<4x8xf32, strided<[?, ?], offset: ?>>`, is refused. Upstream
requires the same shape and element type, any layout and memory space.
"""

from __future__ import annotations

from xdsl.dialects import bufferization
from xdsl.dialects.builtin import (
    MemRefType,
    TensorType,
    UnitAttr,
    UnrankedMemRefType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import base, operand_def, opt_prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from heterolayout.dialects.upstream.definitions import override

_ANY_MEMREF = base(MemRefType) | base(UnrankedMemRefType)
_ANY_TENSOR = base(TensorType) | base(UnrankedTensorType)


def _check_matching(op: Operation, tensor: Attribute, memref: Attribute) -> None:
    """Same rank, shape and element type; the memref's layout and memory space are free."""
    ranked = isinstance(tensor, TensorType), isinstance(memref, MemRefType)
    assert isinstance(tensor, TensorType | UnrankedTensorType)
    assert isinstance(memref, MemRefType | UnrankedMemRefType)
    same = ranked[0] == ranked[1] and tensor.element_type == memref.element_type
    if same and ranked[0]:
        same = tuple(tensor.get_shape()) == tuple(memref.get_shape())  # type: ignore[union-attr]
    if not same:
        raise VerifyException(f"{op.name}: {tensor} and {memref} differ in shape or element type")


@override
class ToBufferOp(bufferization.ToBufferOp):
    """`bufferization.to_buffer %t [read_only] : tensor<…> to memref<…, layout>`."""

    tensor = operand_def(_ANY_TENSOR)
    memref = result_def(_ANY_MEMREF)
    read_only = opt_prop_def(UnitAttr)
    parse = Operation.parse  # the format is regenerated for these operands: not the parent's
    print = Operation.print

    def verify_(self) -> None:
        _check_matching(self, self.tensor.type, self.memref.type)


@override
class ToTensorOp(bufferization.ToTensorOp):
    """`bufferization.to_tensor %m [restrict] [writable] : memref<…, layout> to tensor<…>`."""

    memref = operand_def(_ANY_MEMREF)
    tensor = result_def(_ANY_TENSOR)
    writable = opt_prop_def(UnitAttr)
    restrict = opt_prop_def(UnitAttr)
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        _check_matching(self, self.tensor.type, self.memref.type)


OPS: list[type[Operation]] = [ToBufferOp, ToTensorOp]
