"""`layout-apply`: HeteroCL's `s.layout(tensor, layout)`.

Each `layout.assign` retypes the buffer it traces to (an allocation, a function argument or
a private global) for its whole lifetime, and the new type flows on through casts, loop-
carried values, calls and returns. A boundary that cannot take the new type (a public or
external function's signature, a call site that disagrees) gets explicit `layout.convert`s:
into a buffer of the callee's type before the call and, when the callee may write it, back
after the call. Signatures that others may rely on never change silently.

An assigned parameter of a private function keeps its layout: call sites convert to it (the
callee indexes the physical buffer directly), unless the function may return the parameter,
which would hand the caller a temporary; such a function converts at its entry instead.

`gpu.func` kernels are private functions of their module and `gpu.launch_func` their call
sites; a kernel parameter declared with a layout keeps it (its launches convert to it).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, arith, func, gpu, memref, scf
from xdsl.dialects.builtin import FunctionType, IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from heterolayout.dialects.conversion import layout_of, with_layout
from heterolayout.dialects.diagnostics import fail
from heterolayout.dialects.effects import may_return, may_write, returns_used
from heterolayout.dialects.functions import (
    CALL_TYPES,
    FUNCTION_TYPES,
    Call,
    Function,
    argument_position,
    call_arguments,
    callee_key,
    display_name,
    function_key,
    function_table,
    is_declaration,
    is_private,
)
from heterolayout.dialects.names import op_name
from heterolayout.dialects.ops import AssignOp, ConvertOp
from heterolayout.dialects.roles import roles_of
from heterolayout.dialects.roots import buffer_root
from heterolayout.dialects.verification import verify_layouts
from heterolayout.dialects.views import ViewError, value_layout
from heterolayout.passes.index.layout_simplify_index import erase_dead_ops
from heterolayout.passes.unchanged import left_unchanged


def is_public(function: func.FuncOp) -> bool:
    visibility = function.sym_visibility
    return visibility is None or visibility.data == "public"


class Application:
    """One run of layout-apply over a module."""

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self.functions = function_table(module)
        self.globals = {
            op.sym_name.data: op for op in module.walk() if isinstance(op, memref.GlobalOp)
        }
        self.assigned_arguments: set[tuple[str, int]] = set()
        """Private parameters a `layout.assign` retyped: their call sites convert to them."""

    def run(self) -> None:
        assigns = [op for op in self.module.walk() if isinstance(op, AssignOp)]
        for assign in assigns:
            if assign.parent is None:
                continue
            root = buffer_root(assign.memref)
            wanted = with_layout(root.type, assign.layout)  # type: ignore[arg-type]
            if root.type != wanted:
                self._assign_root(assign, root, wanted)
        for assign in [op for op in self.module.walk() if isinstance(op, AssignOp)]:
            owner = assign.memref.owner
            Rewriter.erase_op(assign)
            if isinstance(owner, Operation):
                erase_dead_ops([owner])
        while self._retype_agreeing_callees():
            pass
        self._reconcile_calls()

    # ---- roots -----------------------------------------------------------------------------
    def _assign_root(self, assign: AssignOp, root: SSAValue, wanted: MemRefType) -> None:
        owner = root.owner
        if isinstance(owner, (memref.AllocOp, memref.AllocaOp)):
            self._retype(root, wanted)
            return
        if isinstance(owner, memref.GetGlobalOp):
            self._assign_global(assign, owner, wanted)
            return
        if isinstance(root, BlockArgument):
            function = root.block.parent_op()
            if isinstance(function, FUNCTION_TYPES) and root.block is function.body.blocks[0]:
                if isinstance(function, func.FuncOp) and (
                    is_public(function) or may_return(function)
                ):
                    self._convert_at_entry(function, root, wanted)
                else:
                    self.assigned_arguments.add((function_key(function), root.index))
                    self._retype_argument(function, root.index, wanted)
                return
        fail(
            assign,
            f"layout-apply: {assign.name} applies to an allocation, a function argument or a "
            f"private global; this buffer comes from {_describe(root)}",
        )

    def _assign_global(self, assign: AssignOp, get: memref.GetGlobalOp, wanted: MemRefType) -> None:
        name = get.name_.root_reference.data
        global_op = self.globals.get(name)
        if global_op is None or global_op.sym_visibility.data != "private":
            fail(
                assign,
                f"layout-apply: @{name} is not a private global: its type is part of the "
                "module's interface; copy it into a buffer and assign the layout to that",
            )
        assert global_op is not None
        global_op.properties["type"] = wanted
        for op in list(self.module.walk()):
            if isinstance(op, memref.GetGlobalOp) and op.name_.root_reference.data == name:
                self._retype(op.memref, wanted)

    def _convert_at_entry(
        self, function: func.FuncOp, argument: BlockArgument, wanted: MemRefType
    ) -> None:
        """A public signature stays: the body works on a converted copy, written back on return
        when the function writes it. Returning the argument still returns the caller's buffer."""
        block = function.body.blocks[0]
        uses = [u for u in argument.uses if not isinstance(u.operation, func.ReturnOp)]
        writes = may_write(argument)
        sizes, size_ops = _dynamic_sizes(argument)
        allocation = memref.AllocOp(sizes, [], wanted)
        entry = [*size_ops, allocation, ConvertOp(argument, allocation.memref)]
        Rewriter.insert_op(entry, InsertPoint.at_start(block))
        for use in uses:
            use.operation.operands[use.index] = allocation.memref
        for op in list(function.walk()):
            if isinstance(op, func.ReturnOp):
                if writes:
                    Rewriter.insert_op(
                        ConvertOp(allocation.memref, argument), InsertPoint.before(op)
                    )
                Rewriter.insert_op(memref.DeallocOp.get(allocation.memref), InsertPoint.before(op))
        self._propagate(allocation.memref)

    def _retype_argument(self, function: Function, index: int, wanted: MemRefType) -> None:
        argument = function.body.blocks[0].args[index]
        if argument.type == wanted:
            return
        inputs = list(function.function_type.inputs.data)
        if index >= len(inputs):  # a gpu.func's workgroup or private attribution
            self._retype(argument, wanted)
            return
        inputs[index] = wanted
        function.function_type = FunctionType.from_lists(
            inputs, function.function_type.outputs.data
        )
        self._retype(argument, wanted)

    # ---- propagation -----------------------------------------------------------------------
    def _retype(self, value: SSAValue, wanted: Attribute) -> SSAValue:
        if value.type == wanted:
            return value
        new = Rewriter.replace_value_with_new_type(value, wanted)
        self._propagate(new)
        return new

    def _propagate(self, value: SSAValue) -> None:
        layout = value.type.layout  # type: ignore[attr-defined]
        _refuse_unknown_users(value)
        for use in list(value.uses):
            user, index = use.operation, use.index
            if isinstance(user, memref.CastOp):
                self._propagate_cast(user, layout)
            elif isinstance(user, (scf.ForOp, affine.ForOp)):
                self._propagate_loop(user, index, value)
            elif isinstance(user, scf.WhileOp):
                self._retype(user.before_region.blocks[0].args[index], value.type)
            elif isinstance(user, scf.ConditionOp):
                loop = user.parent_op()
                assert isinstance(loop, scf.WhileOp)
                self._retype(loop.after_region.blocks[0].args[index - 1], value.type)
                self._retype(loop.results[index - 1], value.type)
            elif isinstance(user, (scf.YieldOp, affine.YieldOp)):
                self._propagate_yield(user, index, value)
            elif isinstance(user, func.ReturnOp):
                self._propagate_return(user, index, value)

    def _propagate_cast(self, cast: memref.CastOp, layout: Attribute) -> None:
        wanted = with_layout(cast.dest.type, layout)  # type: ignore[arg-type]
        if layout_of(wanted) is None and layout_of(cast.source.type) is not None:
            fail(
                cast,
                f"layout-apply: {cast.name} to {cast.dest.type} would carry the layout "
                f"{layout} onto a shape with '?', where a builtin strided layout is upstream's "
                "view type, not a layout; a strided layout needs a static shape",
            )
        self._retype(cast.dest, wanted)

    def _propagate_loop(self, loop: scf.ForOp | affine.ForOp, index: int, value: SSAValue) -> None:
        inits = list(loop.iter_args if isinstance(loop, scf.ForOp) else loop.inits)
        if value not in inits:
            return
        position = inits.index(value)
        block = loop.body.blocks[0]
        self._retype(block.args[1 + position], value.type)
        self._retype(loop.results[position], value.type)

    def _propagate_yield(self, op: Operation, index: int, value: SSAValue) -> None:
        parent = op.parent_op()
        if isinstance(parent, (scf.ForOp, affine.ForOp, scf.WhileOp)):
            if isinstance(parent, scf.WhileOp):
                carried = parent.before_region.blocks[0].args[index]
            else:
                carried = parent.body.blocks[0].args[1 + index]
            if carried.type != value.type:
                fail(
                    op,
                    "layout-apply: a loop-carried buffer would change its layout between iterations",
                )
        elif isinstance(parent, affine.ParallelOp):  # an "assign" reduction: the buffer
            self._retype(parent.results[index], value.type)
        elif isinstance(parent, (scf.IfOp, affine.IfOp)):
            yielded = {
                block.last_op.operands[index].type
                for region in parent.regions
                for block in region.blocks
                if block.last_op is not None
            }
            if len(yielded) != 1:
                fail(
                    op,
                    f"layout-apply: the branches of {parent.name} yield buffers of different layouts "
                    f"({', '.join(sorted(str(t) for t in yielded))}); assign one layout to both",
                )
            self._retype(parent.results[index], value.type)

    def _propagate_return(self, op: func.ReturnOp, index: int, value: SSAValue) -> None:
        function = op.parent_op()
        assert isinstance(function, func.FuncOp)
        declared = function.function_type.outputs.data[index]
        if declared == value.type:
            return
        if is_public(function):
            copy = _allocate_like(value, declared, op)
            Rewriter.insert_op(ConvertOp(value, copy.memref), InsertPoint.before(op))
            op.operands[index] = copy.memref
            if _dies_at_return(value):
                Rewriter.insert_op(memref.DeallocOp.get(value), InsertPoint.before(op))
            return
        returned = {r.operands[index].type for r in function.walk() if isinstance(r, func.ReturnOp)}
        if len(returned) != 1:
            fail(
                op,
                f"layout-apply: @{function.sym_name.data} returns buffers of different layouts "
                f"({', '.join(sorted(str(t) for t in returned))}); assign one layout to all of them",
            )
        outputs = list(function.function_type.outputs.data)
        outputs[index] = value.type
        function.function_type = FunctionType.from_lists(
            function.function_type.inputs.data, outputs
        )
        name = function.sym_name.data
        for call in list(self.module.walk()):
            if isinstance(call, func.CallOp) and call.callee.root_reference.data == name:
                self._retype(call.results[index], value.type)

    # ---- call boundaries -------------------------------------------------------------------
    def _retype_agreeing_callees(self) -> bool:
        """Retype a private callee's (or a kernel's) parameter when every call site (every
        launch) passes one new type; a parameter a `layout.assign` retyped keeps its layout
        (its callers convert to it), and so does a kernel parameter declared with one."""
        passed: dict[tuple[str, int], set[Attribute]] = {}
        for call in self.module.walk():
            if isinstance(call, CALL_TYPES):
                for index, operand in enumerate(call_arguments(call)):
                    key = (callee_key(call), index)
                    passed.setdefault(key, set()).add(operand.type)
        changed = False
        for (name, index), types in passed.items():
            callee = self.functions.get(name)
            if callee is None or not is_private(callee) or is_declaration(callee):
                continue
            if len(types) != 1 or (name, index) in self.assigned_arguments:
                continue
            if index >= len(callee.function_type.inputs.data):
                continue
            (wanted,) = types
            current = callee.function_type.inputs.data[index]
            if isinstance(callee, gpu.FuncOp) and _has_layout(current):
                continue
            if isinstance(wanted, MemRefType) and wanted != current:
                self._retype_argument(callee, index, wanted)
                changed = True
        return changed

    def _reconcile_calls(self) -> None:
        for call in list(self.module.walk()):
            if not isinstance(call, CALL_TYPES):
                continue
            callee = self.functions.get(callee_key(call))
            if callee is None:
                continue
            expected = callee.function_type.inputs.data
            arguments = call_arguments(call)
            if len(arguments) != len(expected):
                fail(
                    call,
                    f"layout-apply: {call.name} passes {len(arguments)} arguments to "
                    f"{display_name(callee)}, which takes {len(expected)}",
                )
            for index, (operand, wanted) in enumerate(zip(arguments, expected, strict=True)):
                if operand.type != wanted and isinstance(wanted, MemRefType):
                    self._convert_around_call(call, index, operand, wanted, callee)
            if not isinstance(call, func.CallOp):
                continue
            for index, (result, declared) in enumerate(
                zip(call.results, callee.function_type.outputs.data, strict=True)
            ):
                if result.type != declared:
                    self._convert_result(call, index, result, declared)

    def _convert_around_call(
        self,
        call: Call,
        index: int,
        operand: SSAValue,
        wanted: MemRefType,
        callee: Function,
    ) -> None:
        """The callee gets a copy in its own layout, written back after the call when the
        callee may write it: the conversions at a call site, or at a kernel launch."""
        if (
            isinstance(callee, func.FuncOp)
            and isinstance(call, func.CallOp)
            and not callee.is_declaration
            and may_return(callee)
            and returns_used(call)
        ):
            fail(
                call,
                f"layout-apply: {call.name} @{callee.sym_name.data} passes {operand.type} where "
                f"the callee takes {wanted} and may return that buffer: a converted copy would "
                "be returned, and writes through it lost. Give every buffer passed to "
                f"@{callee.sym_name.data} one layout",
            )
        writes = is_declaration(callee) or may_write(callee.body.blocks[0].args[index])
        if writes and isinstance(call, gpu.LaunchFuncOp) and call.asyncToken is not None:
            fail(
                call,
                f"layout-apply: the async {call.name} passes {operand.type} to "
                f"{display_name(callee)}, which takes {wanted}; the conversion back could "
                "not wait for the kernel (launch it synchronously or pass the kernel's layout)",
            )
        temporary = _allocate_like(operand, wanted, call)
        Rewriter.insert_op(ConvertOp(operand, temporary.memref), InsertPoint.before(call))
        call.operands[argument_position(call, index)] = temporary.memref
        anchor: Operation = call
        if writes:
            back = ConvertOp(temporary.memref, operand)
            Rewriter.insert_op(back, InsertPoint.after(anchor))
            anchor = back
        Rewriter.insert_op(memref.DeallocOp.get(temporary.memref), InsertPoint.after(anchor))

    def _convert_result(
        self, call: func.CallOp, index: int, result: OpResult, declared: Attribute
    ) -> None:
        """A call result typed with a layout its callee does not return: convert after the call."""
        wanted = result.type
        new = Rewriter.replace_value_with_new_type(result, declared)
        sizes, size_ops = _dynamic_sizes(new)
        copy = memref.AllocOp(sizes, [], wanted)
        convert = ConvertOp(new, copy.memref)
        Rewriter.insert_op([*size_ops, copy, convert], InsertPoint.after(call))
        for use in list(new.uses):
            if use.operation is not convert:
                use.operation.operands[use.index] = copy.memref


def nothing_to_apply(module: ModuleOp) -> bool:
    """No `layout.assign`, and every `gpu.launch_func` passes its kernel the memref types it
    takes (else the boundary needs conversions: upstream would reject the launch)."""
    launches: list[gpu.LaunchFuncOp] = []
    for op in module.walk():
        if isinstance(op, AssignOp):
            return False
        if isinstance(op, gpu.LaunchFuncOp):
            launches.append(op)
    kernels = function_table(module) if launches else {}
    for launch in launches:
        kernel = kernels.get(callee_key(launch))
        if kernel is None:
            continue
        wanted_types = kernel.function_type.inputs.data
        if len(launch.kernelOperands) != len(wanted_types):
            return False  # refused by name when applied
        for value, wanted in zip(launch.kernelOperands, wanted_types, strict=True):
            if value.type != wanted and isinstance(wanted, MemRefType):
                return False
    return True


def _has_layout(memref_type: Attribute) -> bool:
    return isinstance(memref_type, MemRefType) and layout_of(memref_type) is not None


def _dynamic_sizes(value: SSAValue) -> tuple[list[SSAValue], list[Operation]]:
    """`memref.dim` of every `?` of `value`, and the ops that compute them (to insert)."""
    memref_type = value.type
    assert isinstance(memref_type, MemRefType)
    sizes: list[SSAValue] = []
    ops: list[Operation] = []
    for position, extent in enumerate(memref_type.get_shape()):
        if extent >= 0:
            continue
        index = arith.ConstantOp(IntegerAttr(position, IndexType()))
        dim = memref.DimOp(value, index)
        ops += [index, dim]
        sizes.append(dim.result)
    return sizes, ops


def _allocate_like(value: SSAValue, memref_type: Attribute, before: Operation) -> memref.AllocOp:
    """A new buffer of `memref_type` with `value`'s dynamic sizes, inserted before `before`."""
    sizes, size_ops = _dynamic_sizes(value)
    allocation = memref.AllocOp(sizes, [], memref_type)
    Rewriter.insert_op([*size_ops, allocation], InsertPoint.before(before))
    return allocation


def _dies_at_return(value: SSAValue) -> bool:
    """A buffer this function allocated and only accesses: once its converted copy is what
    the function returns, nothing can reach it any more, and it is freed there."""
    if not isinstance(value.owner, memref.AllocOp):
        return False
    for use in value.uses:
        roles = roles_of(use.operation)
        if roles is None or not roles.touches(use.index) or roles.forwards or roles.frees:
            return False
    return True


def _refuse_unknown_users(value: SSAValue) -> None:
    """A buffer that takes a layout may reach (directly or through views) only ops the
    op-role table gives a role for it: what another op does with it is unknown."""
    for use in value.uses:
        user = use.operation
        roles = roles_of(user)
        if roles is None or not (roles.touches(use.index) or use.index in roles.views):
            name = op_name(user)
            fail(
                user,
                f"layout-apply: {name} takes {value.type}, a buffer that layout.assign lays "
                f"out, and heterolayout does not know what {name} does with it (nothing is "
                "assumed harmless); pass it a plain copy (layout.convert) or assign the "
                "layout to another buffer",
            )
        if use.index in roles.views:
            for result in user.results:
                _refuse_unindexable_view(result)
                _refuse_unknown_users(result)


def _refuse_unindexable_view(view: SSAValue) -> None:
    """A view of a buffer that takes a layout must open a window of its logical index
    space (`dialects.views`); a `memref.view` of its bytes does not, nor would the IR
    verify (upstream's takes identity layouts only)."""
    try:
        value_layout(view)
    except ViewError as error:
        fail(error.op, f"layout-apply: {error}")


def _describe(value: SSAValue) -> str:
    if isinstance(value, OpResult):
        return f"a result of {value.op.name}"
    parent = value.owner.parent_op() if isinstance(value.owner, Block) else None
    return f"a block argument of {parent.name if parent else 'a block'}"


@dataclass(frozen=True)
class LayoutApplyPass(ModulePass):
    """Retype the buffer behind every `layout.assign` and propagate the new type."""

    name = "layout-apply"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        verify_layouts(op)
        if nothing_to_apply(op):
            left_unchanged(self, op)
            return
        Application(op).run()
        verify_layouts(op)  # a propagated layout may not survive a cast (a bound extent)
