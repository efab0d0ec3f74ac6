"""The program as a graph for the whole-program search: its buffers (the variables: one
layout each) and its nests (the factors: each op of the entry's body that reads or writes
buffers, with the buffers it touches), and each nest alone as a function of its own.

A nest is a top-level op of the entry function that touches memory: a linalg op, a
`memref.copy`, a loop nest. Views (`memref.subview`, `expand_shape`, …), constants,
allocations and global reads are not nests: a nest that uses them carries them into its
function. A nest's function takes the buffers it touches as arguments, typed with the
candidate layouts, so timing it times the kernel without conversions (`nest_module`); its
text with plain types names the nest, so identical nests (the same op on the same shapes)
share their measurements.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, NoneAttr, StridedLayoutAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.parser import Parser
from xdsl.rewriter import Rewriter
from xdsl.traits import is_side_effect_free

from heterolayout.dialects.context import make_context, verify_program
from heterolayout.dialects.layout import AssignOp
from heterolayout.dialects.names import op_name
from heterolayout.dialects.roles import VIEW_OPS, roles_of
from heterolayout.dialects.roots import storage_root
from heterolayout.execution.entry import find_function
from heterolayout.layout.errors import LayoutError
from heterolayout.search.program import buffer_roots, private_global


def _bookkeeping(op: Operation) -> bool:
    """An op that touches buffers without reading or writing their elements (allocations,
    globals, frees, `layout.assign`, hints, views, returns), by its roles; ops with regions
    and ops without known roles are never bookkeeping (they may compute)."""
    if op.regions:
        return False
    found = roles_of(op)
    if found is None or found.reads or found.writes:
        return False
    allocates = found.defines and not found.forwards
    return bool(
        allocates
        or found.frees
        or found.binds
        or found.hints
        or found.views
        or found.ends_region
        or op.name == "memref.cast"
    )


@dataclass(frozen=True)
class ProgramBuffer:
    """A buffer of the entry function: an argument, an allocation or a global it reads."""

    name: str
    shape: tuple[int, ...]
    element: str
    kind: str
    """`argument`, `allocation` or `global`."""
    assigned: str | None
    """The layout the input program assigns it (attribute text), None: plain."""
    written: bool
    """Whether a nest writes it (a written argument converts back on return)."""
    role: str = "activation"
    """How the program uses it: `activation`, `matmul weights` (a matmul's B), `conv
    weights`, `depthwise weights`, `weights` (another constant global)."""
    refusal: str = ""
    """Why it cannot be given a layout ('' when it can: a static shape, no layout in its
    type but upstream's strided one, and for a global, private)."""

    @property
    def tunable(self) -> bool:
        return not self.refusal

    @property
    def rank(self) -> int:
        return len(self.shape)


@dataclass
class ProgramNest:
    index: int
    op: Operation
    label: str
    """The op's name (`linalg.conv_2d_nchw_fchw`, `affine.for`)."""
    buffers: tuple[str, ...]
    """The buffers it touches, in operand order."""
    written: frozenset[str]
    module: ModuleOp | None = None
    """The nest alone (plain types), None when it cannot be cut out."""
    reason: str = ""
    """Why it cannot be cut out."""
    key: str = field(default="")
    """The text of `module`: identical nests share measurements."""

    @property
    def name(self) -> str:
        return f"n{self.index} {self.label.removeprefix('linalg.')}"


@dataclass
class ProgramGraph:
    module: ModuleOp
    entry: str
    buffers: dict[str, ProgramBuffer]
    nests: list[ProgramNest]


def _assigned(function: func.FuncOp, roots: dict[SSAValue, str]) -> dict[str, str]:
    return {
        roots[storage_root(op.memref)]: str(op.layout)
        for op in function.walk()
        if isinstance(op, AssignOp) and storage_root(op.memref) in roots
    }


def tunable_type(memref_type: MemRefType) -> bool:
    """A static shape, and no layout in the type but upstream's strided one (bufferization
    gives arguments `strided<[?, …], offset: ?>`; `layout.assign` accepts them)."""
    layout = memref_type.layout
    static = all(extent >= 0 for extent in memref_type.get_shape())
    return static and isinstance(layout, NoneAttr | StridedLayoutAttr)


def read_graph(module: ModuleOp, entry: str = "main") -> ProgramGraph:
    """The buffers and nests of `entry`."""
    function = find_function(module, entry)
    roots = buffer_roots(function)
    assigned = _assigned(function, roots)
    nests: list[ProgramNest] = []
    written: set[str] = set()
    for op in list(function.body.block.ops):
        nest = _nest(op, roots, len(nests), function)
        if nest is not None:
            nests.append(nest)
            written |= nest.written
    roles = _roles(nests, roots)
    buffers: dict[str, ProgramBuffer] = {}
    for value, name in roots.items():
        if name in buffers or not isinstance(value.type, MemRefType):
            continue
        memref_type = value.type
        if isinstance(value, BlockArgument):
            kind = "argument"
        elif isinstance(value, OpResult) and isinstance(value.op, memref.GetGlobalOp):
            kind = "global"
        else:
            kind = "allocation"
        refusal = ""
        if any(extent < 0 for extent in memref_type.get_shape()):
            refusal = "has a dynamic shape"
        elif not tunable_type(memref_type):
            refusal = "has a layout in its type already"
        elif kind == "global" and not private_global(module, name):
            refusal = "is not a private global: its type is part of the module's interface"
        buffers[name] = ProgramBuffer(
            name,
            tuple(memref_type.get_shape()),
            str(memref_type.element_type),
            kind,
            assigned.get(name),
            name in written,
            roles.get(name, "weights" if kind == "global" else "activation"),
            refusal,
        )
    return ProgramGraph(module, entry, buffers, nests)


def _roles(nests: list[ProgramNest], roots: dict[SSAValue, str]) -> dict[str, str]:
    """The weights' roles from the ops that read them: a convolution's or a matmul's second
    input (the first use decides)."""
    roles: dict[str, str] = {}
    for nest in nests:
        label = nest.label
        kind = (
            "depthwise weights"
            if "depthwise" in label
            else "conv weights"
            if "conv" in label
            else "matmul weights"
            if "matmul" in label
            else None
        )
        if kind is None or not label.startswith("linalg.") or len(nest.op.operands) < 3:
            continue
        name = roots.get(storage_root(nest.op.operands[1]))
        if name is not None:
            roles.setdefault(name, kind)
    return roles


def _touched(op: Operation, roots: dict[SSAValue, str]) -> tuple[list[str], set[str]]:
    """The buffers `op` (and the ops inside it) takes as memref operands, and those it may
    write (an op without roles may write every memref it takes)."""
    names: list[str] = []
    written: set[str] = set()
    for inner in op.walk():
        roles = roles_of(inner)
        for position, operand in enumerate(inner.operands):
            if not isinstance(operand.type, MemRefType):
                continue
            name = roots.get(storage_root(operand))
            if name is None:
                continue
            if name not in names:
                names.append(name)
            if roles is None or position in roles.writes:
                written.add(name)
    return names, written


def _nest(
    op: Operation, roots: dict[SSAValue, str], index: int, function: func.FuncOp
) -> ProgramNest | None:
    if _bookkeeping(op):
        return None
    names, written = _touched(op, roots)
    if not names:
        return None
    nest = ProgramNest(index, op, op_name(op), tuple(names), frozenset(written))
    try:
        nest.module = _cut_out(op, roots, names, function)
        nest.key = str(nest.module)
    except LayoutError as error:
        nest.reason = str(error)
    return nest


def _cut_out(
    op: Operation, roots: dict[SSAValue, str], names: list[str], function: func.FuncOp
) -> ModuleOp:
    """`op` alone in a function `@main` whose arguments are the buffers it touches (in
    `names`' order, named `%b0`, `%b1`, …), with the views and constants it uses."""
    inside = set(op.walk())
    defs: list[Operation] = []
    by_name: dict[str, SSAValue] = {}
    for value, name in roots.items():
        by_name.setdefault(name, value)

    def visit(value: SSAValue) -> None:
        if value in roots:
            return
        if isinstance(value, BlockArgument):
            if value.block is function.body.block:
                raise LayoutError(f"a nest uses the non-buffer argument {value}")
            return
        assert isinstance(value, OpResult)
        owner = value.op
        if owner in inside or owner in defs:
            return
        pure = op_name(owner) in VIEW_OPS or owner.name == "memref.cast"
        if not (pure or (is_side_effect_free(owner) and not owner.regions)):
            raise LayoutError(f"a nest uses the result of {op_name(owner)}")
        for operand in owner.operands:
            visit(operand)
        defs.append(owner)

    for inner in op.walk():
        for operand in inner.operands:
            visit(operand)
    order = {o: i for i, o in enumerate(function.walk())}
    defs.sort(key=lambda o: order.get(o, -1))
    types = [by_name[name].type for name in names]
    block = Block(arg_types=types)
    mapper: dict[SSAValue, SSAValue] = {}
    for position, (name, argument) in enumerate(zip(names, block.args, strict=True)):
        argument.name_hint = f"b{position}"
        for value, other in roots.items():
            if other == name:
                mapper[value] = argument
    for definition in [*defs, op]:
        block.add_op(definition.clone(value_mapper=mapper))
    block.add_op(func.ReturnOp())
    nest_function = func.FuncOp("main", (types, []), Region(block))
    return ModuleOp([nest_function])


def nest_module(nest: ProgramNest, layouts: dict[str, str]) -> ModuleOp:
    """The nest alone with its arguments typed with `layouts` (buffer name → attribute
    text; a buffer not named keeps its type)."""
    assert nest.module is not None
    ctx = make_context()
    copy = nest.module.clone()
    function = find_function(copy, "main")
    block = function.body.block
    for position, name in enumerate(nest.buffers):
        text = layouts.get(name)
        if text is None:
            continue
        argument = block.args[position]
        old = argument.type
        assert isinstance(old, MemRefType)
        attribute: Attribute = Parser(ctx, text).parse_attribute()
        new = MemRefType(old.element_type, old.shape, attribute)  # type: ignore[arg-type]
        Rewriter.replace_value_with_new_type(argument, new)
    function.function_type = func.FunctionType.from_lists(
        [argument.type for argument in block.args], []
    )
    verify_program(copy)
    return copy
