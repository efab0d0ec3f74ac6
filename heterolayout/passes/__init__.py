"""heterolayout's passes, by name, for `layout-opt`, `xdsl-opt` (through the `xdsl.universe`
entry point) and any pipeline that registers them.

Each factory imports its pass only when called, so listing the passes stays cheap.
"""

from collections.abc import Callable

from xdsl.passes import ModulePass


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
