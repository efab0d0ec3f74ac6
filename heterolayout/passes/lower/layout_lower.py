"""`layout-lower`: every layout-typed memref becomes a plain physical buffer.

The one-word pipeline users run. It is a pipeline of named steps, each a pass of its own,
which `layout-opt` (and `passes.pipeline.apply_pipeline`) run one by one, verifying between
them; `LayoutLowerPass.apply` runs them in turn where it is called as one pass (plain
`xdsl-opt`, other xDSL flows):

1. `layout-erase-hints`: `layout.schedule` hints go (they steer `layout-schedule`, which
   runs before); a module with no layouts is noted (`layout.without_layouts`);
2. `layout-apply`, which has something to do only when the module has `layout.assign`s (or
   a kernel launch whose buffers' layouts differ from the kernel's);
3. `layout-fold-converts` (conversions that undo each other);
4. `layout-lower-memrefs`, the lowering itself, with the options: it refuses what it cannot
   lower, naming the op, rewrites every access through the layout of its memref's type and
   gives every definition its physical type;
5. `layout-cleanup` of the functions that received loop nests;
6. `layout-guard-misfolds`: affine maps upstream would fold wrongly are rewritten;
7. `layout-sub-byte-accesses`: in a module that had layouts, vector accesses to sub-byte
   elements go through the memref's bytes (upstream would move them as packed bits).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from heterolayout.passes.collector import collector_paused
from heterolayout.passes.lower.layout_lower_memrefs import LayoutLowerMemrefsPass, option_problem


@dataclass(frozen=True)
class LayoutLowerPass(ModulePass):
    """Rewrite every layout-typed memref into its physical buffer and index code: runs
    `layout-erase-hints`, `layout-apply`, `layout-fold-converts`, `layout-lower-memrefs`,
    `layout-cleanup`, `layout-guard-misfolds` and `layout-sub-byte-accesses` (`steps`).

    The index code comes out without duplicates (values are shared between accesses as they
    are emitted, constants sit at the top of each function) and the dead code of rewritten
    accesses is erased from the ops they touched; only functions that received loop nests
    (conversions, pad fills) are cleaned up.

    Options: `index=arith|affine` (the index code), `flatten=false|true` (1-D physical
    buffers indexed by linear offsets), `validate=false|true|verbose|conversions`
    (translation validation of every rewritten access: a summary line, or a remark per
    access, on stderr; an access not proven fails the pass; `conversions`: of the
    conversions alone, silent but for a remark per conversion not checked, as
    `layout-run --check` runs it), `convert=loops|gpu` (host conversions as loop nests, or
    as GPU kernels that write the destination in its memory order)."""

    name = "layout-lower"

    index: str = "arith"
    flatten: bool = False
    validate: bool | str = False
    convert: str = "loops"

    def steps(self) -> tuple[ModulePass, ...]:
        """The passes `layout-lower` runs, in order; a bad option fails here, naming it."""
        problem = option_problem(self.index, self.validate, self.convert)
        if problem is not None:
            raise PassFailedException(f"{self.name}: {problem}")
        from heterolayout.passes.convert.layout_fold_converts import LayoutFoldConvertsPass
        from heterolayout.passes.index.layout_guard_misfolds import LayoutGuardMisfoldsPass
        from heterolayout.passes.lower.layout_apply import LayoutApplyPass
        from heterolayout.passes.lower.layout_cleanup import LayoutCleanupPass
        from heterolayout.passes.lower.layout_erase_hints import LayoutEraseHintsPass
        from heterolayout.passes.packed.layout_sub_byte_accesses import (
            LayoutSubByteAccessesPass,
        )

        return (
            LayoutEraseHintsPass(),
            LayoutApplyPass(),
            LayoutFoldConvertsPass(),
            LayoutLowerMemrefsPass(self.index, self.flatten, self.validate, self.convert),
            LayoutCleanupPass(),
            LayoutGuardMisfoldsPass(),
            LayoutSubByteAccessesPass(),
        )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with collector_paused():
            for step in self.steps():
                step.apply(ctx, op)
