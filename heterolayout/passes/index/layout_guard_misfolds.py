"""`layout-guard-misfolds`: a step of `layout-lower`, after `layout-cleanup`. The affine maps
upstream would fold wrongly become `affine.apply`s with the division in `arith`
(`misfold_guard`), so that what the lowering hands on means the same under `mlir-opt`."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from heterolayout.passes.index.misfold_guard import guard_misfolded_maps
from heterolayout.passes.unchanged import left_unchanged


@dataclass(frozen=True)
class LayoutGuardMisfoldsPass(ModulePass):
    """Rewrite the affine maps upstream would fold wrongly."""

    name = "layout-guard-misfolds"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not guard_misfolded_maps(op):
            left_unchanged(self, op)
