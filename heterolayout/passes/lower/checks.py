"""What `layout-lower-memrefs` refuses before it rewrites anything, naming the op: nothing
is skipped silently, and no pattern fails half-way.

The checks read the module through its `LoweringFacts` (each value's layout and view
window derived once), not by walking it again.
"""

from __future__ import annotations

from xdsl.dialects import gpu, memref, vector
from xdsl.dialects.builtin import IntegerType, MemRefType, Signedness, VectorType
from xdsl.ir import Attribute, Operation, SSAValue

from heterolayout.dialects.arith_ops import constant_index
from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.diagnostics import fail
from heterolayout.dialects.functions import (
    FUNCTION_TYPES,
    Function,
    callee_key,
    display_name,
    is_declaration,
)
from heterolayout.dialects.names import op_name
from heterolayout.dialects.ops import ConvertOp
from heterolayout.dialects.roles import VECTOR_ACCESSES, VIEW_OPS, Roles, roles_of
from heterolayout.dialects.views import ViewError, view_source
from heterolayout.layout.model import Layout
from heterolayout.passes.index.logical_sizes import unknown_size_problem
from heterolayout.passes.lower.accesses import in_gpu_code
from heterolayout.passes.lower.facts import LoweringFacts
from heterolayout.passes.physical import identity_layout


def _layout(memref_type: Attribute) -> Layout | None:
    return layout_of(memref_type) if isinstance(memref_type, MemRefType) else None


def check_lowerable(facts: LoweringFacts, flatten: bool, gpu_converts: bool = False) -> None:
    """Refuse, naming the op, what the lowering cannot do: nothing is skipped silently."""
    for op in facts.ops:
        if isinstance(op, gpu.LaunchFuncOp) and callee_key(op) not in facts.functions:
            _check_foreign_kernel(op, facts)
        if gpu_converts and isinstance(op, ConvertOp) and not in_gpu_code(op):
            _check_grid_conversion(op, facts)
        if isinstance(op, FUNCTION_TYPES):
            _check_signature(op, flatten)
        _check_op(op, facts)
        roles = roles_of(op)
        for position, value in enumerate(op.operands):
            layout = facts.layout(value)
            if layout is None:
                _check_runtime_view_use(op, value, facts)
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
            layout = facts.layout(value)
            if layout is None:
                continue
            _check_supported(op, value, layout, flatten)
            if roles is None or not (roles.defines or roles.views):
                fail(
                    op,
                    f"layout-lower: {op_name(op)} defines a layout-typed memref {value.type} and "
                    "has no lowering",
                )


def check_views(facts: LoweringFacts) -> None:
    """Every view of a layout-typed memref has a window the lowering can index, and a type
    that agrees with it (`view_types`); else an error naming the view op."""
    from heterolayout.dialects.view_types import check_view_type

    for op in facts.views:
        try:
            if facts.window(op.results[0]) is None:
                continue
            facts.layout(op.results[0])
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


def _check_runtime_view_use(op: Operation, value: SSAValue, facts: LoweringFacts) -> None:
    """A view with a run-time window is folded into its accesses (`view_folding`); any
    other user is refused by name."""
    if op.name in VIEW_OPS or isinstance(op, memref.CastOp):
        return
    if facts.runtime_window(value) is None:
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


def _check_op(op: Operation, facts: LoweringFacts) -> None:
    """What the patterns would find out too late: they must not fail half-way."""
    if isinstance(op, memref.GlobalOp):
        layout = _layout(op.type)
        if layout is not None and layout.packing is not None and layout.packing.is_vector:
            fail(
                op,
                f"layout-lower: memref.global @{op.sym_name.data} has a vector-packed layout; "
                "MLIR's dense initializers cannot hold vectors (use an integer container)",
            )
    elif isinstance(op, memref.DimOp) and facts.layout(op.source) is not None:
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
        layout = facts.layout(memref_value)
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


def _check_grid_conversion(op: ConvertOp, facts: LoweringFacts) -> None:
    target = op.operands[1]
    layout = facts.layout(target) or identity_layout(target.type)  # type: ignore[arg-type]
    if layout.blocked_terms is None:
        fail(
            op,
            f"layout-lower: convert=gpu: {op.name} into {target.type}: threads follow the "
            "destination's blocked memory order, and this layout has none",
        )


def _check_foreign_kernel(launch: gpu.LaunchFuncOp, facts: LoweringFacts) -> None:
    for value in launch.kernelOperands:
        if facts.layout(value) is not None:
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
