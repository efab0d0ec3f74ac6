"""heterolayout's passes, by name, for `layout-opt`, `xdsl-opt` (through the `xdsl.universe`
entry point) and any pipeline that registers them; and the pass classes by name, for Python
pipelines: `from heterolayout.passes import LayoutLowerPass, LayoutSchedulePass`.
`layout-lower` is a pipeline of some of them (`LayoutLowerPass.steps`): its steps are
registered so that a pipeline can run them one by one (`passes.pipeline.with_steps`).

Each factory imports its pass only when called, and each class loads on first use, so
listing the passes stays cheap.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING

from xdsl.passes import ModulePass

if TYPE_CHECKING:
    from heterolayout.passes.convert.layout_fold_converts import LayoutFoldConvertsPass
    from heterolayout.passes.index.layout_guard_misfolds import LayoutGuardMisfoldsPass
    from heterolayout.passes.index.layout_simplify_index import SimplifyIndexPass
    from heterolayout.passes.lower.layout_apply import LayoutApplyPass
    from heterolayout.passes.lower.layout_cleanup import LayoutCleanupPass
    from heterolayout.passes.lower.layout_erase_hints import LayoutEraseHintsPass
    from heterolayout.passes.lower.layout_lower import LayoutLowerPass
    from heterolayout.passes.lower.layout_lower_memrefs import LayoutLowerMemrefsPass
    from heterolayout.passes.lower.layout_strip import LayoutStripPass
    from heterolayout.passes.lower.layout_verify import LayoutVerifyPass
    from heterolayout.passes.packed.layout_sub_byte_accesses import LayoutSubByteAccessesPass
    from heterolayout.passes.schedule.layout_schedule import LayoutSchedulePass

PASSES: dict[str, tuple[str, str]] = {
    "layout-apply": ("heterolayout.passes.lower.layout_apply", "LayoutApplyPass"),
    "layout-fold-converts": (
        "heterolayout.passes.convert.layout_fold_converts",
        "LayoutFoldConvertsPass",
    ),
    "layout-lower": ("heterolayout.passes.lower.layout_lower", "LayoutLowerPass"),
    "layout-erase-hints": ("heterolayout.passes.lower.layout_erase_hints", "LayoutEraseHintsPass"),
    "layout-lower-memrefs": (
        "heterolayout.passes.lower.layout_lower_memrefs",
        "LayoutLowerMemrefsPass",
    ),
    "layout-cleanup": ("heterolayout.passes.lower.layout_cleanup", "LayoutCleanupPass"),
    "layout-guard-misfolds": (
        "heterolayout.passes.index.layout_guard_misfolds",
        "LayoutGuardMisfoldsPass",
    ),
    "layout-sub-byte-accesses": (
        "heterolayout.passes.packed.layout_sub_byte_accesses",
        "LayoutSubByteAccessesPass",
    ),
    "layout-schedule": ("heterolayout.passes.schedule.layout_schedule", "LayoutSchedulePass"),
    "layout-simplify-index": (
        "heterolayout.passes.index.layout_simplify_index",
        "SimplifyIndexPass",
    ),
    "layout-strip": ("heterolayout.passes.lower.layout_strip", "LayoutStripPass"),
    "layout-verify": ("heterolayout.passes.lower.layout_verify", "LayoutVerifyPass"),
}
"""The one table of heterolayout's passes: name → (module, class). Modules load only when a
pass is asked for, so listing the passes stays cheap."""

PASS_CLASSES = {cls: name for name, (_, cls) in PASSES.items()}
"""Each pass class this package exports → the name it is registered under."""


def _factory(module: str, cls: str) -> Callable[[], type[ModulePass]]:
    def load() -> type[ModulePass]:
        found: type[ModulePass] = getattr(importlib.import_module(module), cls)
        return found

    return load


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name → factory returning the pass class (xDSL's registry convention)."""
    return {name: _factory(module, cls) for name, (module, cls) in PASSES.items()}


__all__ = [
    "PASSES",
    "PASS_CLASSES",
    "LayoutApplyPass",
    "LayoutCleanupPass",
    "LayoutEraseHintsPass",
    "LayoutFoldConvertsPass",
    "LayoutGuardMisfoldsPass",
    "LayoutLowerMemrefsPass",
    "LayoutLowerPass",
    "LayoutSchedulePass",
    "LayoutStripPass",
    "LayoutSubByteAccessesPass",
    "LayoutVerifyPass",
    "SimplifyIndexPass",
    "get_all_passes",
]


def __getattr__(name: str) -> type[ModulePass]:
    if name in PASS_CLASSES:
        return get_all_passes()[PASS_CLASSES[name]]()
    raise AttributeError(f"module 'heterolayout.passes' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names (`__all__`) and the subpackages loaded so far."""
    loaded = (name for name, value in globals().items() if isinstance(value, ModuleType))
    return sorted({*__all__, *loaded})
