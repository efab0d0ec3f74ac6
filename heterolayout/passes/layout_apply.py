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
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, arith, func, memref, scf, vector
from xdsl.dialects.builtin import FunctionType, IndexType, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from heterolayout.dialects.conversion import layout_of, with_layout
from heterolayout.dialects.layout import AssignOp, ConvertOp
from heterolayout.dialects.verification import buffer_root, verify_layouts
from heterolayout.passes.simplify_index import erase_dead_ops

WRITERS = (memref.StoreOp, affine.StoreOp, vector.StoreOp, affine.VectorStoreOp)


def fail(op: Operation, message: str) -> None:
    op.emit_error(message, PassFailedException(message))


def is_public(function: func.FuncOp) -> bool:
    visibility = function.sym_visibility
    return visibility is None or visibility.data == "public"


class Application:
    """One run of layout-apply over a module."""

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self.functions = {
            op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)
        }
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
            if isinstance(function, func.FuncOp) and root.block is function.body.blocks[0]:
                if is_public(function) or _may_return(function):
                    self._convert_at_entry(function, root, wanted)
                else:
                    self.assigned_arguments.add((function.sym_name.data, root.index))
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
        writes = _may_write(argument)
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

    def _retype_argument(self, function: func.FuncOp, index: int, wanted: MemRefType) -> None:
        argument = function.body.blocks[0].args[index]
        if argument.type == wanted:
            return
        inputs = list(function.function_type.inputs.data)
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
        elif isinstance(parent, scf.IfOp):
            yielded = {
                block.last_op.operands[index].type
                for region in parent.regions
                for block in region.blocks
            }
            if len(yielded) != 1:
                fail(
                    op,
                    "layout-apply: the branches of scf.if yield buffers of different layouts "
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
        """Retype a private callee's parameter when every call site passes one new type; a
        parameter a `layout.assign` retyped keeps its layout (its callers convert to it)."""
        passed: dict[tuple[str, int], set[Attribute]] = {}
        for call in self.module.walk():
            if isinstance(call, func.CallOp):
                for index, operand in enumerate(call.arguments):
                    key = (call.callee.root_reference.data, index)
                    passed.setdefault(key, set()).add(operand.type)
        changed = False
        for (name, index), types in passed.items():
            callee = self.functions.get(name)
            if callee is None or is_public(callee) or callee.is_declaration or len(types) != 1:
                continue
            if (name, index) in self.assigned_arguments:
                continue
            (wanted,) = types
            current = callee.function_type.inputs.data[index]
            if isinstance(wanted, MemRefType) and wanted != current:
                self._retype_argument(callee, index, wanted)
                changed = True
        return changed

    def _reconcile_calls(self) -> None:
        for call in list(self.module.walk()):
            if not isinstance(call, func.CallOp):
                continue
            callee = self.functions.get(call.callee.root_reference.data)
            if callee is None:
                continue
            expected = callee.function_type.inputs.data
            for index, (operand, wanted) in enumerate(zip(call.arguments, expected, strict=True)):
                if operand.type != wanted and isinstance(wanted, MemRefType):
                    self._convert_around_call(call, index, operand, wanted, callee)
            for index, (result, declared) in enumerate(
                zip(call.results, callee.function_type.outputs.data, strict=True)
            ):
                if result.type != declared:
                    self._convert_result(call, index, result, declared)

    def _convert_around_call(
        self,
        call: func.CallOp,
        index: int,
        operand: SSAValue,
        wanted: MemRefType,
        callee: func.FuncOp,
    ) -> None:
        if not callee.is_declaration and _may_return(callee) and _returns_used(call):
            fail(
                call,
                f"layout-apply: {call.name} @{callee.sym_name.data} passes {operand.type} where "
                f"the callee takes {wanted} and may return that buffer: a converted copy would "
                "be returned, and writes through it lost. Give every buffer passed to "
                f"@{callee.sym_name.data} one layout",
            )
        temporary = _allocate_like(operand, wanted, call)
        Rewriter.insert_op(ConvertOp(operand, temporary.memref), InsertPoint.before(call))
        call.operands[index] = temporary.memref
        anchor: Operation = call
        if callee.is_declaration or _may_write(callee.body.blocks[0].args[index]):
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


BUFFER_ACCESSES = (
    memref.LoadOp,
    memref.StoreOp,
    affine.LoadOp,
    affine.StoreOp,
    vector.LoadOp,
    vector.StoreOp,
    affine.VectorLoadOp,
    affine.VectorStoreOp,
    memref.DimOp,
    memref.CopyOp,
    ConvertOp,
    AssignOp,
)


def _dies_at_return(value: SSAValue) -> bool:
    """A buffer this function allocated and only accesses: once its converted copy is what
    the function returns, nothing can reach it any more, and it is freed there."""
    if not isinstance(value.owner, memref.AllocOp):
        return False
    for use in value.uses:
        user = use.operation
        if not isinstance(user, BUFFER_ACCESSES):
            return False
        if isinstance(user, memref.StoreOp) and use.index == 0:
            return False
    return True


def _may_write(value: SSAValue, seen: set[SSAValue] | None = None) -> bool:
    """Conservatively: stored to, copied or converted into, passed on, or carried."""
    seen = seen or set()
    if value in seen:
        return False
    seen.add(value)
    for use in value.uses:
        user = use.operation
        if isinstance(user, WRITERS) and use.index == 1:
            return True
        if isinstance(user, (memref.CopyOp, ConvertOp)) and use.index == 1:
            return True
        if isinstance(user, memref.CastOp) and _may_write(user.dest, seen):
            return True
        if isinstance(user, (func.CallOp, scf.ForOp, affine.ForOp, scf.YieldOp, func.ReturnOp)):
            return True
    return False


def _may_return(function: func.FuncOp) -> bool:
    """Whether `function` may return a buffer it did not allocate (a parameter, or a view of
    one): a caller's converted temporary would then outlive the call as the result."""
    fresh = (memref.AllocOp, memref.AllocaOp, memref.GetGlobalOp)
    return any(
        isinstance(operand.type, MemRefType) and not isinstance(buffer_root(operand).owner, fresh)
        for op in function.walk()
        if isinstance(op, func.ReturnOp)
        for operand in op.operands
    )


def _returns_used(call: func.CallOp) -> bool:
    return any(isinstance(r.type, MemRefType) and r.uses for r in call.results)


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
        Application(op).run()
