"""Dense initializers that upstream MLIR reads back.

Workaround: xDSL 0.74 prints a dense attribute of more than 100 elements as the hex of its own
storage, one byte per `i1` and 4 or 8 bytes per `i17`–`i24` or `i33`–`i56` element, while MLIR
reads hex with its own widths (`i1` as bits, `iN` as ceil(N/8) bytes) and rejects the text
("elements hex data size is invalid"). Packed globals use such containers (`pack = i24`).
For other widths that are not whole bytes (`i4`, `i6`) xDSL's bytes carry the sign above the
width (-8 as `F8`); MLIR keeps those bits, LLVM stores them in the global, and a zero-extended
load reads 248: a wrong value, not an error. For all these element types the initializer
prints as a nested list, which both parse exactly. And xDSL unpacks every element into a Python
object to find out whether the attribute is a splat before it prints the hex of its bytes;
here a large initializer of other types is told a splat by its bytes and printed as hex
straight from them (the weights of a model: tens of megabytes).
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType
from xdsl.printer import Printer

from heterolayout.dialects.dense import storage_dtype

_XDSL_HEX_THRESHOLD = 100
_print_without_type = DenseIntOrFPElementsAttr.print_without_type


def _hex_differs_from_mlir(element: object) -> bool:
    if not isinstance(element, IntegerType):
        return False
    bits = element.width.data
    return bits % 8 != 0 or element.compile_time_size != -(-bits // 8)


def _print_like_mlir(self: DenseIntOrFPElementsAttr, printer: Printer) -> None:
    length = len(self)
    element = self.get_element_type()
    if (
        length > _XDSL_HEX_THRESHOLD
        and storage_dtype(element) is not None
        and not _hex_differs_from_mlir(element)
    ):
        data = self.data.data
        size = len(data) // length
        if data.count(data[:size]) != length:  # not a splat: what xDSL prints, unpacked never
            printer.print_string(f'dense<"0x{data.hex().upper()}">')
            return
    if (
        len(self) > _XDSL_HEX_THRESHOLD
        and _hex_differs_from_mlir(self.get_element_type())
        and self.shape_is_complete
        and not self.is_splat()
    ):
        printer.print_string("dense")
        with printer.in_angle_brackets():
            self._print_dense_list(self.get_values(), self.get_shape(), printer)
        return
    _print_without_type(self, printer)


def install() -> None:
    """Print such initializers as lists from now on (idempotent)."""
    DenseIntOrFPElementsAttr.print_without_type = _print_like_mlir  # type: ignore[method-assign]
