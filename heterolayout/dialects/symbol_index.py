"""Symbol lookups by name while IR is only read.

Workaround: xDSL 0.74's `SymbolTable.lookup_symbol` scans the symbol table's ops one by one,
and verifying a `func.call` looks its callee up, so verifying a module of thousands of
functions and calls took time quadratic in their number (minutes at a few thousand). While
the IR does not change (verification), `indexed_symbol_lookups` answers from a name index
built once per symbol table.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.traits import SymbolOpInterface, SymbolTable

_scan = SymbolTable.lookup_symbol


@contextmanager
def indexed_symbol_lookups() -> Iterator[None]:
    """Within the block, `SymbolTable.lookup_symbol` uses a name index; the IR must not
    change meanwhile. Blocks may nest (an engine running inside a verified tool)."""
    if SymbolTable.lookup_symbol is not _scan:
        yield
        return
    indexes: dict[int, dict[str, Operation]] = {}

    def lookup(op: Operation, name: str | StringAttr | SymbolRefAttr) -> Operation | None:
        reference = SymbolRefAttr(name) if isinstance(name, str | StringAttr) else name
        anchor: Operation | None = op
        while anchor is not None and not anchor.has_trait(SymbolTable):
            anchor = anchor.parent_op()
        if anchor is None or reference.nested_references.data:
            return _scan(op, name)
        index = indexes.get(id(anchor))
        if index is None:
            index = indexes[id(anchor)] = _index(anchor)
        return index.get(reference.root_reference.data)

    SymbolTable.lookup_symbol = staticmethod(lookup)  # type: ignore[method-assign]
    try:
        yield
    finally:
        SymbolTable.lookup_symbol = staticmethod(_scan)  # type: ignore[method-assign]


def _index(table: Operation) -> dict[str, Operation]:
    """The first op of each name, as the scan finds it."""
    index: dict[str, Operation] = {}
    for op in table.regions[0].block.ops:
        symbol = op.get_trait(SymbolOpInterface)
        if symbol is not None:
            index.setdefault(symbol.get_sym_attr_name(op).data, op)
    return index
