"""`layout.schedule`: steer `layout-schedule` for the loop nests that access one buffer.

    layout.schedule %out {tile = array<i64: 1, 16, 1, 4>, vector_width = 256} : memref<…>

The buffer leads those nests (their loops follow its memory order); `tile` gives the register
tile in elements along each of its logical dims (a multiple of the vector length along the
vectorized dim); `vector_width` is in bits; `skip` leaves the nests alone. It is a hint: the
pass erases it, and `layout-lower` and the engines ignore it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
)
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
)
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class ScheduleOp(IRDLOperation):
    name = "layout.schedule"
    memref = operand_def(MemRefType)
    tile = opt_prop_def(DenseArrayBase)
    vector_width = opt_prop_def(IntegerAttr)
    skip = opt_prop_def(UnitAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$memref attr-dict `:` type($memref)"

    def __init__(
        self,
        memref: SSAValue | Operation,
        tile: tuple[int, ...] | None = None,
        vector_width: int | None = None,
        skip: bool = False,
    ) -> None:
        properties: dict = {}
        if tile is not None:
            properties["tile"] = DenseArrayBase.from_list(IntegerType(64), tile)
        if vector_width is not None:
            properties["vector_width"] = IntegerAttr(vector_width, 64)
        if skip:
            properties["skip"] = UnitAttr()
        super().__init__(operands=[memref], properties=properties)

    @property
    def tile_sizes(self) -> tuple[int, ...] | None:
        return None if self.tile is None else tuple(int(v) for v in self.tile.get_values())

    @property
    def width(self) -> int | None:
        return None if self.vector_width is None else self.vector_width.value.data

    def verify_(self) -> None:
        memref_type = self.memref.type
        assert isinstance(memref_type, MemRefType)
        tile = self.tile_sizes
        if tile is not None:
            if len(tile) != memref_type.get_num_dims():
                raise VerifyException(
                    f"{self.name}: tile has {len(tile)} sizes but {memref_type} has rank "
                    f"{memref_type.get_num_dims()}"
                )
            if any(size < 1 for size in tile):
                raise VerifyException(f"{self.name}: tile sizes must be positive, got {list(tile)}")
        width = self.width
        if width is not None and (width < 8 or width % 8):
            raise VerifyException(
                f"{self.name}: vector_width {width} must be a positive multiple of 8 bits"
            )
