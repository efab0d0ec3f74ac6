"""Pausing CPython's cyclic garbage collector while a pass builds IR.

A lowering creates hundreds of thousands of objects that all stay alive (the new ops, their
operands and results) and frees few. The cyclic collector, triggered by those allocations,
walks every live object again and again: on large modules it took 40 % of `layout-lower`'s
time, and a share that grows with the module, so the pass was no longer linear. Nothing a
pass frees is lost: cycles it leaves are collected once the collector runs again.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the cyclic collector inside the block; restore its previous state after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
