"""How diagnostics and tools name an op (by its own name, also when the context does not
know it) and a value (by its name in the text it was parsed from)."""

from __future__ import annotations

from collections.abc import Mapping
from weakref import WeakKeyDictionary

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation, SSAValue

_SPELLED: WeakKeyDictionary[SSAValue, str] = WeakKeyDictionary()
"""Values whose name in the parsed text is not their name hint: xDSL keeps `%alloc_0` as the
hint `alloc` (and prints it as `%alloc_1` when `%alloc` is taken)."""


def op_name(op: Operation) -> str:
    """The op's own name (xDSL names every unregistered op `builtin.unregistered`)."""
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name


def remember_spelling(value: SSAValue, name: str) -> None:
    """Record that the parsed text names `value` `%name`."""
    if value.name_hint is not None and name != value.name_hint:
        _SPELLED[value] = name


def value_name(value: SSAValue) -> str | None:
    """The value's name as the text it was parsed from spells it (`alloc_0`), else its name
    hint; None for a value without one (`%0`)."""
    return _SPELLED.get(value, value.name_hint)


def carry_spellings(mapping: Mapping[SSAValue, SSAValue]) -> None:
    """Give the clones in `mapping` (original → clone) the originals' spellings."""
    for original, clone in mapping.items():
        spelled = _SPELLED.get(original)
        if spelled is not None:
            _SPELLED[clone] = spelled
