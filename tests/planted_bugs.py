"""Lowering bugs planted on purpose, to show that `check` and `layout-run --check` catch them."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class SwapStoreIndices(ModulePass):
    """The first 2-D memref.store gets its two indices swapped."""

    name = "test-swap-store-indices"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for store in op.walk():
            if isinstance(store, memref.StoreOp) and len(store.indices) == 2:
                value, target, first, second = store.operands
                store.operands = [value, target, second, first]
                return
