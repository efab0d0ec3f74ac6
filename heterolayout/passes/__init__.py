"""heterolayout's passes, by name, for `layout-opt`, `xdsl-opt` (through the `xdsl.universe`
entry point) and any pipeline that registers them. `layout-lower` is a pipeline of some of
them (`LayoutLowerPass.steps`): its steps are registered so that a pipeline can run them
one by one (`passes.pipeline.with_steps`).

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


def get_layout_erase_hints() -> type[ModulePass]:
    from heterolayout.passes.lower.layout_erase_hints import LayoutEraseHintsPass

    return LayoutEraseHintsPass


def get_layout_lower_memrefs() -> type[ModulePass]:
    from heterolayout.passes.lower.layout_lower_memrefs import LayoutLowerMemrefsPass

    return LayoutLowerMemrefsPass


def get_layout_guard_misfolds() -> type[ModulePass]:
    from heterolayout.passes.index.layout_guard_misfolds import LayoutGuardMisfoldsPass

    return LayoutGuardMisfoldsPass


def get_layout_sub_byte_accesses() -> type[ModulePass]:
    from heterolayout.passes.packed.layout_sub_byte_accesses import LayoutSubByteAccessesPass

    return LayoutSubByteAccessesPass


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
        "layout-erase-hints": get_layout_erase_hints,
        "layout-lower-memrefs": get_layout_lower_memrefs,
        "layout-cleanup": get_layout_cleanup,
        "layout-guard-misfolds": get_layout_guard_misfolds,
        "layout-sub-byte-accesses": get_layout_sub_byte_accesses,
        "layout-schedule": get_layout_schedule,
        "layout-simplify-index": get_layout_simplify_index,
        "layout-strip": get_layout_strip,
        "layout-verify": get_layout_verify,
    }
