"""Dense initializers as numpy arrays and back, in one step over their bytes.

Workaround: xDSL 0.74 keeps a `dense<…>` attribute's elements as bytes, but its `get_values`
and `from_list` make one Python object per element (and its printer unpacks every element to
test for a splat): seconds and gigabytes for a model's weights (ResNet-18's 11.7 M floats).
The bytes are read and written here with numpy, as xDSL's struct formats lay them out (ints
signed in their storage width, `i1` one byte), for every float and integer element type;
others (complex, bf16) take xDSL's way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import (
    AnyFloat,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute

from heterolayout.layout.element_types import ElementType

if TYPE_CHECKING:
    import numpy as np


def storage_dtype(element: Attribute) -> np.dtype | None:
    """The numpy dtype of xDSL's bytes for one element, or None for a type numpy cannot read
    them as (complex, bf16)."""
    import numpy as np

    layout = getattr(element, "format", None)
    if not isinstance(element, IntegerType | IndexType | AnyFloat) or not isinstance(layout, str):
        return None
    try:
        return np.dtype(layout)
    except TypeError:
        return None


def dense_array(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """The elements as stored, flat (one element for a splat): what `get_values` gives."""
    import numpy as np

    dtype = storage_dtype(attr.get_element_type())
    if dtype is None:
        return np.array(attr.get_values())
    return np.frombuffer(attr.data.data, dtype=dtype)


def wrapped(values: np.ndarray, element: ElementType) -> np.ndarray:
    """Integers as `element` holds them after storing them (`ElementType.wrap`, for arrays):
    `i1` 0 or 1, signless and signed two's complement, unsigned from 0."""
    import numpy as np

    if element.bits == 64:
        return values.astype(np.int64 if element.holds_negative else np.uint64)
    mask = (1 << element.bits) - 1
    wide = values.astype(np.int64) & mask
    if element.holds_negative:
        half = 1 << (element.bits - 1)
        wide = ((wide + half) & mask) - half
    return wide


def dense_attr(type: Any, values: np.ndarray) -> DenseIntOrFPElementsAttr:
    """The dense attribute of `type` (a shaped type) holding `values` (in C order; integers
    in the element type's range), stored as `from_list` stores them: a signless or signed
    integer normalized to the signed range (`IntegerType.normalized_value`: `i1` true is -1)."""
    import numpy as np

    element = type.get_element_type()
    dtype = storage_dtype(element)
    if dtype is None:
        return DenseIntOrFPElementsAttr.from_list(type, np.asarray(values).ravel().tolist())
    array = np.ascontiguousarray(values)
    if isinstance(element, IntegerType) and element.signedness.data != Signedness.UNSIGNED:
        bits = element.width.data
        if bits < 64:
            mask, half = (1 << bits) - 1, 1 << (bits - 1)
            array = ((array.astype(np.int64) + half) & mask) - half
    return DenseIntOrFPElementsAttr(type, BytesAttr(array.astype(dtype, copy=False).tobytes()))


def with_float_bits(
    attr: DenseIntOrFPElementsAttr, elements: list[int | None]
) -> DenseIntOrFPElementsAttr | None:
    """`attr` with each element its tensor literal wrote in hexadecimal taken as the bits of
    a float, as MLIR reads `dense<[1.0, 0x7FC00000]>` (`elements`: the literal's elements in
    order, the bits of each hexadecimal one, None for the others; one for a splat). `attr`
    itself for integer elements or no hexadecimal one; None for a float type numpy cannot
    hold (bf16)."""
    import numpy as np

    element = attr.get_element_type()
    if not isinstance(element, AnyFloat) or all(bits is None for bits in elements):
        return attr
    dtype = storage_dtype(element)
    if dtype is None:
        return None
    values = dense_array(attr).copy()
    unsigned = np.dtype(f"{dtype.byteorder}u{dtype.itemsize}".replace("|", "").replace("=", ""))
    if len(elements) == 1:
        values[...] = np.array(elements[0], unsigned).view(dtype)
    else:
        for index, bits in enumerate(elements):
            if bits is not None:
                values[index] = np.array(bits, unsigned).view(dtype)
    return dense_attr(attr.type, values)
