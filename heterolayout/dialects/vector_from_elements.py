"""`vector.from_elements`, which upstream MLIR has and xDSL 0.74's vector dialect lacks.

Lowered accesses that cannot stay vector accesses assemble their result from scalar loads
with it. `VECTOR_DIALECT` is xDSL's vector dialect plus this op, so contexts that load it
parse, print and verify what `layout-lower` emits.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import VectorType
from xdsl.dialects.vector import Vector
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class FromElementsOp(IRDLOperation):
    """`%v = vector.from_elements %a, %b : vector<2xf32>`: the elements in row-major order."""

    name = "vector.from_elements"

    ELEMENT: ClassVar = VarConstraint("ELEMENT", AnyAttr())

    elements = var_operand_def(ELEMENT)
    result = result_def(VectorType.constr(ELEMENT))

    assembly_format = "$elements attr-dict `:` type($result)"
    traits = traits_def(Pure())

    def __init__(self, elements: list[SSAValue], result_type: Attribute) -> None:
        super().__init__(operands=[elements], result_types=[result_type])

    def verify_(self) -> None:
        assert isinstance(self.result.type, VectorType)
        count = self.result.type.element_count()
        if len(self.elements) != count:
            raise VerifyException(
                f"{self.name}: {len(self.elements)} elements for {self.result.type} "
                f"({count} needed)"
            )


VECTOR_DIALECT = Dialect(
    "vector",
    [*Vector.operations, FromElementsOp],
    [*Vector.attributes],
)
