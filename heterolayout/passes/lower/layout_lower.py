"""`layout-lower`: every layout-typed memref becomes a plain physical buffer.

The one-word pipeline users run. It runs, in order:
0. erases `layout.schedule` hints (they steer `layout-schedule`, which runs before it);
1. `layout-apply`, when the module has `layout.assign`s;
2. `layout-fold-converts` (conversions that undo each other);
3. the lowering itself: linalg ops on layout-typed memrefs become loops (`linalg_loops`);
   then it refuses what it cannot lower, naming the op (a user of a layout-typed memref that
   the op-role table gives no role, an external function whose ABI would change, a kernel
   launch whose buffers' layouts differ from the kernel's); then rewrites every access
   through the layout of its memref's type (`lower_accesses`), gives every definition its
   physical type (`lower_definitions`), and folds the lanes of whole-container accesses
   into word ops (`word_folding`);
4. `layout-cleanup` of the functions that received loop nests;
5. in a module that had layouts, vector accesses to sub-byte elements on the memref's bytes
   (`sub_byte_accesses`: upstream would move them as packed bits).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.context import Context
from xdsl.dialects import func, gpu, memref, scf, vector
from xdsl.dialects.builtin import IntegerType, MemRefType, ModuleOp, Signedness, VectorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import PassFailedException

from heterolayout.dialects.arith_ops import constant_index
from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.diagnostics import fail
from heterolayout.dialects.functions import (
    FUNCTION_TYPES,
    Function,
    callee_key,
    display_name,
    function_table,
    is_declaration,
)
from heterolayout.dialects.names import op_name
from heterolayout.dialects.ops import AssignOp, ConvertOp
from heterolayout.dialects.roles import VECTOR_ACCESSES, VIEW_OPS, Roles, roles_of
from heterolayout.dialects.schedule_hint import ScheduleOp
from heterolayout.dialects.verification import verify_layouts
from heterolayout.dialects.views import (
    ViewError,
    layout_user,
    value_layout,
    view_source,
    view_window,
)
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.model import Layout
from heterolayout.passes.collector import collector_paused
from heterolayout.passes.index.layout_simplify_index import erase_dead_ops
from heterolayout.passes.index.logical_sizes import unknown_size_problem
from heterolayout.passes.index.misfold_guard import guard_misfolded_maps
from heterolayout.passes.lower.access_lowering import AccessLowering
from heterolayout.passes.lower.accesses import access_patterns, in_gpu_code
from heterolayout.passes.lower.definitions import definition_patterns
from heterolayout.passes.packed.sub_byte_accesses import access_sub_bytes_as_bytes
from heterolayout.passes.physical import identity_layout
from heterolayout.passes.views.folding import (
    ViewFacts,
    copies_through_runtime_views,
    fold_runtime_views,
    runtime_view,
)

if TYPE_CHECKING:
    from heterolayout.passes.validate.validator import Validator


def _layout(memref_type: Attribute) -> Layout | None:
    return layout_of(memref_type) if isinstance(memref_type, MemRefType) else None


def check_lowerable(module: ModuleOp, flatten: bool, gpu_converts: bool = False) -> None:
    """Refuse, naming the op, what the lowering cannot do: nothing is skipped silently."""
    functions = function_table(module)
    for op in module.walk():
        if isinstance(op, gpu.LaunchFuncOp) and callee_key(op) not in functions:
            _check_foreign_kernel(op)
        if gpu_converts and isinstance(op, ConvertOp) and not in_gpu_code(op):
            _check_grid_conversion(op)
        if isinstance(op, FUNCTION_TYPES):
            _check_signature(op, flatten)
        _check_op(op)
        roles = roles_of(op)
        for position, value in enumerate(op.operands):
            layout = value_layout(value)
            if layout is None:
                _check_runtime_view_use(op, value)
                continue
            _check_supported(op, value, layout, flatten)
            if view_source(value) is not None:
                _check_view_use(op, value, roles)
            if (
                roles is None
                or roles.structured  # not made loops by `linalg_loops`
                or not (roles.touches(position) or position in roles.views)
            ):
                fail(
                    op,
                    f"layout-lower: {op_name(op)} uses the layout-typed memref {value.type} and "
                    "has no lowering; nothing is skipped silently",
                )
        for value in op.results:
            layout = value_layout(value)
            if layout is None:
                continue
            _check_supported(op, value, layout, flatten)
            if roles is None or not (roles.defines or roles.views):
                fail(
                    op,
                    f"layout-lower: {op_name(op)} defines a layout-typed memref {value.type} and "
                    "has no lowering",
                )


def check_views(module: ModuleOp) -> None:
    """Every view of a layout-typed memref has a window the lowering can index, and a type
    that agrees with it (`view_types`); else an error naming the view op."""
    from heterolayout.dialects.view_types import check_view_type

    for op in module.walk():
        if op.name not in VIEW_OPS or not op.results:
            continue
        try:
            if view_window(op.results[0]) is None:
                continue
            value_layout(op.results[0])
        except ViewError as error:
            fail(error.op, f"layout-lower: {error}")
        check_view_type(op)


def _check_view_use(op: Operation, value: SSAValue, roles: Roles | None) -> None:
    """A view of a layout-typed memref lowers into the indexing of its root: it may be
    accessed, viewed, cast, copied, converted, passed to a call (copied at the call,
    `view_boundaries`) and freed (its root is), not returned, carried or bound."""
    if op.name in VIEW_OPS or isinstance(op, memref.CastOp) or roles is None:
        return
    if roles.forwards or roles.frees or roles.binds:
        fail(op, f"layout-lower: {op_name(op)} {_leaving(op, value)}")


def _leaving(op: Operation, value: SSAValue) -> str:
    """Why the view `value` cannot go where `op` takes it."""
    view = f"a view ({value.type}) of a layout-typed memref"
    if op.name in ("func.return", "gpu.return"):
        return (
            f"returns {view}; a view lowers into indexing of its root inside this function, "
            "and the caller has no window to index (return the root buffer, or a buffer the "
            "view is copied into)"
        )
    if op.name == "gpu.launch_func":
        return f"passes {view} to a kernel, which takes whole buffers (pass the root buffer)"
    if op.name == "layout.assign":
        return (
            f"assigns a layout to {view}; a view's layout is its root's, composed with its window"
        )
    return (
        f"carries {view} through a loop or a branch; a view lowers into indexing of one "
        "window of its root, and which window a carried or yielded view is, is chosen at run "
        "time (carry the root buffer and the window's offsets, and open the view where it is "
        "used)"
    )


def _check_runtime_view_use(op: Operation, value: SSAValue) -> None:
    """A view with a run-time window is folded into its accesses (`view_folding`); any
    other user is refused by name."""
    if op.name in VIEW_OPS or isinstance(op, memref.CastOp) or runtime_view(value) is None:
        return
    roles = roles_of(op)
    if roles is not None and (roles.forwards or roles.frees or roles.binds):
        fail(op, f"layout-lower: {op_name(op)} {_leaving(op, value)}")
    fail(
        op,
        f"layout-lower: {op_name(op)} takes a view ({value.type}) of a layout-typed memref "
        "with run-time offsets, strides or sizes (or of a root with '?' dims); only loads, "
        "stores, vector accesses, transfers, prefetches, copies, conversions and "
        "memref.dim/rank go through such a view",
    )


def _check_op(op: Operation) -> None:
    """What the patterns would find out too late: they must not fail half-way."""
    if isinstance(op, memref.GlobalOp):
        layout = _layout(op.type)
        if layout is not None and layout.packing is not None and layout.packing.is_vector:
            fail(
                op,
                f"layout-lower: memref.global @{op.sym_name.data} has a vector-packed layout; "
                "MLIR's dense initializers cannot hold vectors (use an integer container)",
            )
    elif isinstance(op, memref.DimOp) and value_layout(op.source) is not None:
        position = constant_index(op.index)
        if position is None:
            fail(op, "layout-lower: memref.dim of a layout-typed memref needs a constant index")
        rank = op.source.type.get_num_dims()  # type: ignore[attr-defined]
        if not 0 <= position < rank:
            fail(op, f"layout-lower: memref.dim index {position} is out of range for rank {rank}")
        _check_sizes_known(op)
    elif isinstance(op, ConvertOp | memref.CopyOp):
        _check_sizes_known(op)
    elif op.name in VECTOR_ACCESSES:
        loads = op.results
        memref_value = op.operands[0 if loads else 1]
        vector_type = (op.results[0] if loads else op.operands[0]).type
        assert isinstance(vector_type, VectorType)
        layout = value_layout(memref_value)
        if layout is None:
            return
        if vector_type.get_num_dims() != 1:
            from heterolayout.passes.transfers import row_problem

            is_transfer = isinstance(op, vector.TransferReadOp | vector.TransferWriteOp)
            reason = row_problem(op) if is_transfer else None  # type: ignore[arg-type]
            fail(
                op,
                f"layout-lower: {op.name} of {vector_type} on a layout-typed memref: "
                + (reason or "only 1-D vectors are supported (or n-D transfers)"),
            )
        if op.name.startswith("vector.transfer_"):
            from heterolayout.passes.lower.vectors import transfer_problem

            problem = transfer_problem(op, layout)
            if problem is not None:
                fail(op, f"layout-lower: {op.name} on a layout-typed memref: {problem}")


def _check_sizes_known(op: Operation) -> None:
    problem = unknown_size_problem(op)
    if problem is not None:
        fail(op, f"layout-lower: {op.name}: {problem}")


def _check_signature(op: Function, flatten: bool) -> None:
    types = [*op.function_type.inputs.data, *op.function_type.outputs.data]
    layouts = [(t, _layout(t)) for t in types]
    if flatten:
        for memref_type, layout in layouts:
            if layout is not None and layout.is_dynamic:
                fail(
                    op,
                    f"layout-lower: flatten=true needs static shapes, but {display_name(op)} "
                    f"takes or returns {memref_type}",
                )
    if is_declaration(op) and any(layout is not None for _, layout in layouts):
        fail(
            op,
            f"layout-lower: external function @{op.sym_name.data} has a layout-typed "
            "memref in its signature; lowering would change its ABI. Declare it with "
            "the physical type, or define it in this module",
        )
    if isinstance(op, gpu.FuncOp):
        for attribution in op.body.block.args[len(op.function_type.inputs.data) :]:
            layout = _layout(attribution.type)
            if layout is not None and (layout.has_pad_slots or layout.packing is not None):
                fail(
                    op,
                    f"layout-lower: {display_name(op)}: the attribution {attribution.type} "
                    "has pad slots or packed containers, which nothing fills in workgroup "
                    "or private memory; give it a layout without them",
                )


def _check_grid_conversion(op: ConvertOp) -> None:
    target = op.operands[1]
    layout = value_layout(target) or identity_layout(target.type)  # type: ignore[arg-type]
    if layout.blocked_terms is None:
        fail(
            op,
            f"layout-lower: convert=gpu: {op.name} into {target.type}: threads follow the "
            "destination's blocked memory order, and this layout has none",
        )


def _check_foreign_kernel(launch: gpu.LaunchFuncOp) -> None:
    for value in launch.kernelOperands:
        if value_layout(value) is not None:
            fail(
                launch,
                f"layout-lower: {launch.name} passes the layout-typed memref {value.type} to "
                f"@{callee_key(launch)}, which is not defined in this module; lowering would "
                "change its ABI. Convert the buffer to the kernel's type first",
            )


def _check_supported(op: Operation, value: SSAValue, layout: Layout, flatten: bool) -> None:
    element = value.type.element_type  # type: ignore[attr-defined]
    if (
        layout.packing is not None
        and not layout.packing.is_vector
        and isinstance(element, IntegerType)
        and element.signedness.data != Signedness.SIGNLESS
    ):
        fail(
            op,
            f"layout-lower: {value.type}: an integer container holds signless lanes only; "
            f"upstream arith cannot shift or truncate {element} (use i{element.width.data})",
        )
    if flatten and layout.is_dynamic:
        fail(op, f"layout-lower: flatten=true needs static shapes, {value.type} has '?'")


def lower(
    module: ModuleOp,
    index: str,
    flatten: bool,
    validator: Validator | None = None,
    gpu_converts: bool = False,
) -> None:
    """Step 3 of `layout-lower`: linalg ops on layout-typed memrefs become loops, then
    check, rewrite the accesses, retype the definitions, fold whole-container lanes; with
    a `validator`, each access rewrite is proven as it happens (translation validation);
    with `gpu_converts`, host conversions become GPU kernels."""
    if any(isinstance(op, scf.IfOp | scf.ForOp) for op in module.walk()):
        from heterolayout.passes.views.carrying import carry_view_windows

        carry_view_windows(module)
    check_views(module)
    _unroll_transfers(module)
    if any(isinstance(op, func.CallOp | memref.DeallocOp) for op in module.walk()):
        from heterolayout.passes.views.boundaries import copy_views_at_calls, free_roots_of_views

        copy_views_at_calls(module)
        free_roots_of_views(module)
    copies_through_runtime_views(module)
    if any(op.name.startswith("linalg.") for op in module.walk()):
        from heterolayout.passes.lower.linalg_loops import lower_linalg_on_layouts

        lower_linalg_on_layouts(module)
    facts = fold_runtime_views(module)
    check_lowerable(module, flatten, gpu_converts)
    static_views = [
        op for op in module.walk() if op.name in VIEW_OPS and value_layout(op.results[0])
    ]
    state = AccessLowering(index, flatten, gpu_converts, facts=facts)  # type: ignore[arg-type]
    vectors = any(op.name in VECTOR_ACCESSES for op in module.walk())
    accesses: RewritePattern = GreedyRewritePatternApplier(
        access_patterns(state, vectors), dce_enabled=False
    )
    if validator is not None:
        accesses = _Validated(accesses, validator, flatten, facts)
    definitions = GreedyRewritePatternApplier(
        definition_patterns(flatten, state.mode), dce_enabled=False
    )
    for patterns in (accesses, definitions):
        PatternRewriteWalker(patterns, apply_recursively=False).rewrite_module(module)
    for view in static_views:  # accessed through their layouts: now the root buffer
        Rewriter.replace_op(view, [], [view.operands[0]])
    erase_dead_ops(state.maybe_dead)
    if state.words:
        from heterolayout.passes.packed.word_folding import fold_words

        for function in dict.fromkeys(state.words):
            fold_words(function)


def _unroll_transfers(module: ModuleOp) -> None:
    """n-D transfers of layout-typed memrefs (and of their views) become 1-D transfers of
    their rows (`transfers.unroll_rows`), which the lowering takes one by one."""
    from heterolayout.passes.transfers import row_problem, unroll_rows

    for op in module.walk():
        if not isinstance(op, vector.TransferReadOp | vector.TransferWriteOp):
            continue
        vector_type = (op.result if isinstance(op, vector.TransferReadOp) else op.vector).type
        if not isinstance(vector_type, VectorType) or vector_type.get_num_dims() < 2:
            continue
        source = op.source
        if value_layout(source) is None and view_window(source) is None:
            continue
        if row_problem(op) is None:
            unroll_rows(op)


@dataclass
class _Validated(RewritePattern):
    """The access patterns inside the validator's watch: it reads each access of a
    layout-typed memref before its rewrite and proves the ops that replace it."""

    patterns: RewritePattern
    validator: Validator
    flatten: bool
    facts: ViewFacts

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        def is_flat(value: SSAValue) -> bool:
            return self.flatten and value_layout(value) is not None

        with self.validator.watch(op, value_layout, is_flat, self.facts.get(op)):
            self.patterns.match_and_rewrite(op, rewriter)


@dataclass(frozen=True)
class LayoutLowerPass(ModulePass):
    """Rewrite every layout-typed memref into its physical buffer and index code: runs
    `layout-apply` (when needed), `layout-fold-converts`, the lowering, `layout-cleanup`.

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

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.index not in ("arith", "affine"):
            raise PassFailedException(f"layout-lower: index={self.index}: expected arith or affine")
        if self.validate not in (False, True, "verbose", "conversions"):
            raise PassFailedException(
                f"layout-lower: validate={self.validate}: expected false, true, verbose or "
                "conversions"
            )
        if self.convert not in ("loops", "gpu"):
            raise PassFailedException(
                f"layout-lower: convert={self.convert}: expected loops or gpu"
            )
        from heterolayout.passes.convert.layout_fold_converts import LayoutFoldConvertsPass
        from heterolayout.passes.lower.layout_apply import LayoutApplyPass, launches_disagree
        from heterolayout.passes.lower.layout_cleanup import LayoutCleanupPass

        with collector_paused():
            verify_layouts(op)
            has_layouts = layout_user(op) is not None
            for hint in [o for o in op.walk() if isinstance(o, ScheduleOp)]:
                Rewriter.erase_op(hint)  # layout-schedule's hints mean nothing here
            if any(isinstance(o, AssignOp) for o in op.walk()) or launches_disagree(op):
                LayoutApplyPass().apply(ctx, op)
            LayoutFoldConvertsPass().apply(ctx, op)
            validator = None
            if self.validate:
                from heterolayout.passes.validate.validator import Validator

                validator = Validator(conversions_only=self.validate == "conversions")
            try:
                lower(op, self.index, self.flatten, validator, self.convert == "gpu")
            except LayoutError as error:
                raise PassFailedException(f"layout-lower: {error}") from None
            if validator is not None:
                validator.finish(verbose=self.validate == "verbose")
            LayoutCleanupPass().apply(ctx, op)
            guard_misfolded_maps(op)
            if has_layouts:  # a program without layouts keeps its own accesses
                access_sub_bytes_as_bytes(op, self.name)
