"""What the Layout model borrows from the floors above it, which lend it by registering here.

The model is the ground floor: it imports nothing else of the package. Two of its answers
need a higher floor: the text of the `layout` dialect's attributes (reading `#layout.…` in
`parse_layout`, writing `Layout.notations()`), which `heterolayout.dialects` registers when it
is imported, and the compiled fast path of `Layout.pack`/`unpack`, which
`heterolayout.execution.native` registers. `heterolayout.parse_layout` imports both; without
them, attribute text is an error that says what to import and packing stays in numpy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from heterolayout.layout.errors import LayoutError

if TYPE_CHECKING:
    import numpy as np

    from heterolayout.layout.model import Layout


class AttributeText(Protocol):
    def parse(self, text: str, where: str) -> tuple[Any, set[str]]:
        """The attribute `text` spells (with `pad_value`, `pack`, `packing` and `layout()`),
        and the keyword parameters it writes."""
        ...

    def notations(self, layout: Layout) -> dict[str, str]:
        """The attribute text of every notation that can express `layout`."""
        ...


class NativePacker(Protocol):
    def wants(self, layout: Layout, array: np.ndarray, slots: int, native: bool | None) -> bool:
        """Whether the compiled conversion packs or unpacks `array`, of `slots` physical
        slots (`native=None`: where it pays off)."""
        ...

    def pack(self, layout: Layout, array: np.ndarray, fill: int | float) -> np.ndarray: ...

    def unpack(self, layout: Layout, physical: np.ndarray) -> np.ndarray: ...


@dataclass
class _Services:
    attribute_text: AttributeText | None = None
    native_packer: NativePacker | None = None


_SERVICES = _Services()


def lend_attribute_text(service: AttributeText) -> None:
    _SERVICES.attribute_text = service


def lend_native_packer(service: NativePacker) -> None:
    _SERVICES.native_packer = service


def attribute_text(what: str) -> AttributeText:
    """The dialect's attribute text, or an error naming `what` needed it."""
    service = _SERVICES.attribute_text
    if service is None:
        raise LayoutError(
            f"{what}: `#layout` attribute text needs the layout dialect (import "
            "heterolayout.dialects, or use heterolayout.parse_layout)"
        )
    return service


def native_packer(native: bool | None) -> NativePacker | None:
    """The compiled packer when one is lent; `native=True` without one is an error."""
    service = _SERVICES.native_packer
    if service is None and native is True:
        raise LayoutError(
            "native=True: the compiled conversion needs heterolayout.execution.native "
            "(import it, or use heterolayout.parse_layout)"
        )
    return service


Lender = Callable[[], None]
