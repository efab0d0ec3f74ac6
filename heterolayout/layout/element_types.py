"""Element types by their MLIR names (`f32`, `i8`, `ui4`, `index`) and their numpy stand-ins."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

import numpy as np

from heterolayout.layout.errors import LayoutError

_FLOATS = {"f16": np.float16, "bf16": np.float32, "f32": np.float32, "f64": np.float64}
_INT_NAME = re.compile(r"^(s|u)?i(\d+)$")
_SIGNIFICANT_BITS = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53}
_MAX_EXPONENT = {"f16": 15, "bf16": 127, "f32": 127, "f64": 1023}


def _overflow_threshold(name: str) -> int:
    """The smallest magnitude that rounds to infinity in a float type (round to nearest,
    ties to even): its largest finite value plus half a unit in the last place."""
    bits, exponent = _SIGNIFICANT_BITS[name], _MAX_EXPONENT[name]
    return (2 ** (bits + 1) - 1) * 2 ** (exponent - bits)


@dataclass(frozen=True)
class ElementType:
    """An MLIR element type, reduced to what layouts need: kind, width and signedness.

    Signless `iN` values are held signed in numpy (two's complement), except `i1`,
    which holds 0 and 1 as MLIR prints it.
    """

    name: str
    kind: Literal["int", "float", "index"]
    bits: int
    signedness: Literal["signless", "signed", "unsigned"] = "signless"

    @property
    def is_integer(self) -> bool:
        return self.kind in ("int", "index")

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def holds_negative(self) -> bool:
        return self.is_float or (self.signedness != "unsigned" and self.bits > 1)

    @property
    def numpy_dtype(self) -> np.dtype:
        if self.kind == "float":
            return np.dtype(_FLOATS[self.name])
        if self.kind == "index":
            return np.dtype(np.int64)
        width = next(w for w in (8, 16, 32, 64) if w >= self.bits)
        return np.dtype(f"int{width}" if self.holds_negative else f"uint{width}")

    @property
    def nbytes(self) -> int:
        """Bytes one element occupies in a plain (unpacked) buffer."""
        return max(1, -(-self.bits // 8)) if self.kind != "float" else self.bits // 8

    def pad_range(self) -> tuple[int, int] | None:
        """Half-open range of integer pad values that fit, or None for floats."""
        if not self.is_integer:
            return None
        if self.signedness == "unsigned":
            return 0, 2**self.bits
        if self.signedness == "signed":
            return -(2 ** (self.bits - 1)), 2 ** (self.bits - 1)
        return -(2 ** (self.bits - 1)), 2**self.bits

    def check_pad(self, pad: int | float, where: str) -> int | float:
        """Return `pad` as this type's Python value, or raise if it does not fit."""
        if self.is_float:
            if isinstance(pad, bool) or not isinstance(pad, (int, float, np.integer, np.floating)):
                raise LayoutError(
                    f"{where}: pad {pad!r} is not a number for element type {self.name}"
                )
            if isinstance(pad, float | np.floating) and not math.isfinite(pad):
                raise LayoutError(
                    f"{where}: pad {pad} is not finite (MLIR's attribute text has no literal for it)"
                )
            if abs(pad) >= _overflow_threshold(self.name):
                largest = (2 ** _SIGNIFICANT_BITS[self.name] - 1) * 2.0 ** (
                    _MAX_EXPONENT[self.name] + 1 - _SIGNIFICANT_BITS[self.name]
                )
                raise LayoutError(
                    f"{where}: pad {pad} does not fit element type {self.name} (largest finite "
                    f"value {largest:g}): it would be stored as infinity"
                )
            return float(pad) + 0.0  # -0.0 is the default pad 0 too
        if isinstance(pad, bool) or not isinstance(pad, (int, float, np.integer, np.floating)):
            raise LayoutError(f"{where}: pad {pad!r} is not a number")
        if isinstance(pad, float) and not pad.is_integer():
            raise LayoutError(
                f"{where}: pad {pad!r} is not an integer, but the element type is {self.name}"
            )
        value = int(pad)
        low, high = self.pad_range()  # type: ignore[misc]
        if not low <= value < high:
            raise LayoutError(
                f"{where}: pad {value} does not fit element type {self.name} "
                f"(allowed: {low} to {high - 1})"
            )
        return value

    def wrap(self, value: int) -> int:
        """The value an integer of this type holds after storing `value` (wraps at the width)."""
        mask = (1 << self.bits) - 1
        raw = value & mask
        if self.holds_negative and raw >> (self.bits - 1):
            return raw - (1 << self.bits)
        return raw

    def __str__(self) -> str:
        return self.name


def element_type(spec: str | ElementType | np.dtype | type) -> ElementType:
    """Parse an MLIR element type name; numpy dtypes are accepted for convenience."""
    if isinstance(spec, ElementType):
        return spec
    if spec is None:
        raise LayoutError("element type None: expected a name such as f32 or i8")
    if not isinstance(spec, str):
        try:
            dtype = np.dtype(spec)
        except TypeError:
            raise LayoutError(
                f"element type {spec!r} is neither a name nor a numpy dtype"
            ) from None
        return _from_numpy(dtype)
    name = spec.strip()
    if name in _FLOATS:
        return ElementType(name, "float", 16 if name in ("f16", "bf16") else int(name[1:]))
    if name == "index":
        return ElementType("index", "index", 64)
    match = _INT_NAME.match(name)
    if match:
        bits = int(match.group(2))
        if not 1 <= bits <= 64:
            raise LayoutError(f"element type {name}: integer widths from 1 to 64 are supported")
        signedness = {"s": "signed", "u": "unsigned", None: "signless"}[match.group(1)]
        return ElementType(name, "int", bits, signedness)  # type: ignore[arg-type]
    raise LayoutError(
        f"unknown element type {spec!r} (expected f16, bf16, f32, f64, iN, siN, uiN or index)"
    )


def _from_numpy(dtype: np.dtype) -> ElementType:
    if dtype == np.bool_:
        return element_type("i1")
    if dtype.kind == "f" and dtype.itemsize in (2, 4, 8):
        return element_type(f"f{dtype.itemsize * 8}")
    if dtype.kind == "i":
        return element_type(f"i{dtype.itemsize * 8}")
    if dtype.kind == "u":
        return element_type(f"ui{dtype.itemsize * 8}")
    raise LayoutError(f"numpy dtype {dtype} has no element type counterpart")
