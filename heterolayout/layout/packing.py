"""Several elements in one container element: `pack = i6`, `pack = vector<6xi1>`.

The lanes are the innermost physical dimension. An integer container `iK` holds lane i at
bits [i·b, (i+1)·b) (LSB-first) or [K-(i+1)·b, K-i·b) (MSB-first), unused bits 0. A vector
container `vector<L x T>` holds the lanes as a vector; numpy stands it in as a trailing axis.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    import numpy as np

from heterolayout.layout.element_types import ElementType, element_type
from heterolayout.layout.errors import LayoutError

_INT_CONTAINER = re.compile(r"^i(\d+)$")
_VECTOR_CONTAINER = re.compile(r"^vector<\s*(\d+)\s*x\s*([a-z0-9]+)\s*>$")
BitOrder = Literal["lsb", "msb"]


@dataclass(frozen=True)
class Packing:
    """A container type and a bit order; `lanes` is fixed by the layout it belongs to."""

    container: str
    bit_order: BitOrder = "lsb"

    def __post_init__(self) -> None:
        object.__setattr__(self, "container", _canonical_container(self.container))
        if self.bit_order not in ("lsb", "msb"):
            raise LayoutError(f'bit_order must be "lsb" or "msb", not {self.bit_order!r}')
        if self.is_vector and self.bit_order != "lsb":
            raise LayoutError(
                f"pack = {self.container}: bit_order applies to integer containers only, "
                "a vector container has no bit order"
            )

    @property
    def is_vector(self) -> bool:
        return self.container.startswith("vector<")

    @property
    def container_bits(self) -> int:
        if self.is_vector:
            raise LayoutError(f"{self.container} is a vector container, not an integer")
        return int(self.container[1:])

    @property
    def vector_shape(self) -> tuple[int, ElementType]:
        match = _VECTOR_CONTAINER.match(self.container)
        assert match is not None
        return int(match.group(1)), element_type(match.group(2))

    @property
    def storage_dtype(self) -> np.dtype:
        """numpy dtype of one integer container: the narrowest unsigned type holding K bits."""
        import numpy as np

        bits = self.container_bits
        if bits > 64:
            raise LayoutError(
                f"pack = {self.container}: containers wider than 64 bits are not supported"
            )
        return np.dtype(f"uint{next(w for w in (8, 16, 32, 64) if w >= bits)}")

    def validate(self, lanes: int | None, dtype: ElementType | None, where: str) -> None:
        """The shape-dependent checks: capacity, element kind, vector length and type."""
        if dtype is None:
            raise LayoutError(f"{where}: pack = {self.container} needs the element type (dtype)")
        if lanes is None:
            raise LayoutError(
                f"{where}: pack = {self.container}: the innermost physical dim is dynamic"
            )
        if self.is_vector:
            length, elem = self.vector_shape
            if length != lanes:
                raise LayoutError(
                    f"{where}: pack = {self.container} has {length} lanes, but the innermost "
                    f"physical dim has {lanes}"
                )
            if elem.name != dtype.name:
                raise LayoutError(
                    f"{where}: pack = {self.container} holds {elem.name}, but the element type is {dtype.name}"
                )
            return
        if not dtype.is_integer or dtype.kind == "index":
            raise LayoutError(
                f"{where}: integer container {self.container} holds integer elements only, not {dtype.name}"
            )
        needed = lanes * dtype.bits
        if needed > self.container_bits:
            raise LayoutError(
                f"{where}: pack container {self.container} is too small: {lanes} lanes x "
                f"{dtype.bits} bits = {needed} bits"
            )

    def to_words(self, lanes_last: np.ndarray, dtype: ElementType) -> np.ndarray:
        """Combine the trailing lane axis into integer containers (bit-exact, unused bits 0)."""
        import numpy as np

        lanes = lanes_last.shape[-1]
        bits, total = dtype.bits, self.container_bits
        mask = np.uint64((1 << bits) - 1)
        values = lanes_last.astype(np.int64).view(np.uint64) & mask
        words = np.zeros(lanes_last.shape[:-1], dtype=np.uint64)
        for lane in range(lanes):
            words |= values[..., lane] << np.uint64(self._shift(lane, bits, total))
        return words.astype(self.storage_dtype)

    def from_words(self, words: np.ndarray, lanes: int, dtype: ElementType) -> np.ndarray:
        """Split integer containers into a trailing lane axis of `dtype` values."""
        import numpy as np

        bits, total = dtype.bits, self.container_bits
        mask = np.uint64((1 << bits) - 1)
        raw = words.astype(np.uint64)
        out = np.empty((*words.shape, lanes), dtype=dtype.numpy_dtype)
        for lane in range(lanes):
            field = (raw >> np.uint64(self._shift(lane, bits, total))) & mask
            if dtype.holds_negative:
                signed = field.astype(np.int64)
                signed -= (signed >> (bits - 1)) << bits
                out[..., lane] = signed
            else:
                out[..., lane] = field
        return out

    def _shift(self, lane: int, bits: int, total: int) -> int:
        return lane * bits if self.bit_order == "lsb" else total - (lane + 1) * bits

    def __str__(self) -> str:
        text = f"pack = {self.container}"
        return text if self.bit_order == "lsb" else f'{text}, bit_order = "{self.bit_order}"'


def _canonical_container(text: str) -> str:
    compact = re.sub(r"\s+", "", text)
    if _INT_CONTAINER.match(compact):
        if not 0 < int(compact[1:]) <= 64:
            raise LayoutError(f"pack = {text}: integer containers from i1 to i64 are supported")
        return compact
    match = _VECTOR_CONTAINER.match(compact)
    if match:
        if int(match.group(1)) <= 0:
            raise LayoutError(f"pack = {text}: the vector length must be positive")
        return f"vector<{int(match.group(1))}x{element_type(match.group(2)).name}>"
    raise LayoutError(
        f"pack = {text}: expected an integer container iK or a vector container vector<LxT>"
    )
