"""Passes that changed nothing, so that the verification after them can be skipped.

MLIR's pass manager does not verify again after a pass that preserved everything; xDSL's
`PassPipeline` has no such notion. A pass that found nothing to do says so here
(`left_unchanged`), and the callbacks that verify between passes (`layout-opt`,
`passes.pipeline.apply_pipeline`) ask (`unchanged_by`) before they verify. The steps of
`layout-lower` that have nothing to do in most modules (no hints, no `layout.assign`, no
loop nests to clean up, no misfolded maps, no sub-byte vector accesses) then cost no
verification walk.
"""

from __future__ import annotations

import weakref

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

_last: tuple[weakref.ref[ModulePass], weakref.ref[ModuleOp]] | None = None


def left_unchanged(done: ModulePass, module: ModuleOp) -> None:
    """`done` ran on `module` and changed nothing a verifier could object to."""
    global _last
    _last = (weakref.ref(done), weakref.ref(module))


def unchanged_by(done: ModulePass | None, module: ModuleOp) -> bool:
    """Whether `done` (the pass that just ran) left `module` unchanged. Forgets what was
    said: call it once, after each pass (with None before the first, to forget what an
    earlier run left)."""
    global _last
    last, _last = _last, None
    return done is not None and last is not None and last[0]() is done and last[1]() is module
