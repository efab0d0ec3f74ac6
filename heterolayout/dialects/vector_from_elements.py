"""`vector.from_elements`, which upstream MLIR has and xDSL 0.74's vector dialect lacks.

Lowered accesses that cannot stay vector accesses assemble their result from scalar loads
with it. `heterolayout.dialects.load` teaches a context this op (xDSL's own vector dialect
is not loaded for it), so that it parses, prints and verifies what `layout-lower` emits.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, SSAValue
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
