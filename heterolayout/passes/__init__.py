"""heterolayout's passes, by name, for `layout-opt`, `xdsl-opt` (through the `xdsl.universe`
entry point) and any pipeline that registers them; and the pass classes by name, for Python
pipelines: `from heterolayout.passes import LayoutLowerPass, LayoutSchedulePass`.

Each factory imports its pass only when called, and each class loads on first use, so
listing the passes stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING

from xdsl.passes import ModulePass

if TYPE_CHECKING:
    from heterolayout.passes.convert.layout_fold_converts import LayoutFoldConvertsPass
    from heterolayout.passes.index.layout_simplify_index import SimplifyIndexPass
    from heterolayout.passes.lower.layout_apply import LayoutApplyPass
    from heterolayout.passes.lower.layout_cleanup import LayoutCleanupPass
    from heterolayout.passes.lower.layout_lower import LayoutLowerPass
    from heterolayout.passes.lower.layout_strip import LayoutStripPass
    from heterolayout.passes.lower.layout_verify import LayoutVerifyPass
    from heterolayout.passes.schedule.layout_schedule import LayoutSchedulePass


def get_layout_apply() -> type[ModulePass]:
    from heterolayout.passes.lower.layout_apply import LayoutApplyPass

    return LayoutApplyPass


def get_layout_lower() -> type[ModulePass]:
    from heterolayout.passes.lower.layout_lower import LayoutLowerPass

    return LayoutLowerPass


def get_layout_fold_converts() -> type[ModulePass]:
    from heterolayout.passes.convert.layout_fold_converts import LayoutFoldConvertsPass

    return LayoutFoldConvertsPass


def get_layout_cleanup() -> type[ModulePass]:
    from heterolayout.passes.lower.layout_cleanup import LayoutCleanupPass

    return LayoutCleanupPass


def get_layout_schedule() -> type[ModulePass]:
    from heterolayout.passes.schedule.layout_schedule import LayoutSchedulePass

    return LayoutSchedulePass


def get_layout_simplify_index() -> type[ModulePass]:
    from heterolayout.passes.index.layout_simplify_index import SimplifyIndexPass

    return SimplifyIndexPass


def get_layout_strip() -> type[ModulePass]:
    from heterolayout.passes.lower.layout_strip import LayoutStripPass

    return LayoutStripPass


def get_layout_verify() -> type[ModulePass]:
    from heterolayout.passes.lower.layout_verify import LayoutVerifyPass

    return LayoutVerifyPass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name → factory returning the pass class (xDSL's registry convention)."""
    return {
        "layout-apply": get_layout_apply,
        "layout-fold-converts": get_layout_fold_converts,
        "layout-lower": get_layout_lower,
        "layout-cleanup": get_layout_cleanup,
        "layout-schedule": get_layout_schedule,
        "layout-simplify-index": get_layout_simplify_index,
        "layout-strip": get_layout_strip,
        "layout-verify": get_layout_verify,
    }


PASS_CLASSES = {
    "LayoutApplyPass": "layout-apply",
    "LayoutCleanupPass": "layout-cleanup",
    "LayoutFoldConvertsPass": "layout-fold-converts",
    "LayoutLowerPass": "layout-lower",
    "LayoutSchedulePass": "layout-schedule",
    "LayoutStripPass": "layout-strip",
    "LayoutVerifyPass": "layout-verify",
    "SimplifyIndexPass": "layout-simplify-index",
}
"""Each pass class this package exports → the name it is registered under."""

__all__ = [
    "PASS_CLASSES",
    "LayoutApplyPass",
    "LayoutCleanupPass",
    "LayoutFoldConvertsPass",
    "LayoutLowerPass",
    "LayoutSchedulePass",
    "LayoutStripPass",
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
