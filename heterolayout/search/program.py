"""The program a search works on: its tunable buffers, its hot loop nest, and the program
with a layout per buffer (as `layout.assign`s, or as layout-typed arguments).

A buffer is a memref argument of the entry function, a `memref.alloc` in it, or a global it
reads (`memref.get_global`), with a static shape. An argument or allocation is named by its
SSA name as the input text spells it (`%input` → `input`, `%alloc_0` → `alloc_0`), else
`arg<i>` / `alloc<i>`; a name that repeats (values of different regions, a program built in
Python) gets `_1`, `_2`, … in the function's order. A global is named by its symbol
(`@weights`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, NoneAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.rewriter import Rewriter

from heterolayout.dialects.context import make_context, verify_program
from heterolayout.dialects.layout import AssignOp
from heterolayout.dialects.names import carry_spellings, value_name
from heterolayout.dialects.roots import storage_root
from heterolayout.dialects.schedule_hint import ScheduleOp
from heterolayout.execution.entry import find_function
from heterolayout.layout.errors import LayoutError
from heterolayout.passes.schedule.nest import LOOPS, Nest, NotScheduled, extract


@dataclass(frozen=True)
class Buffer:
    name: str
    shape: tuple[int, ...]
    element: str
    """The element type as MLIR spells it (`f32`, `i1`)."""
    argument: int | None
    """Position among the entry's arguments, None for an allocation."""
    written: bool
    """Whether the hot nest stores to it (a written argument converts back at the end)."""
    assigned: str | None
    """The layout attribute the input program gives it, as text (None: plain)."""

    @property
    def type_text(self) -> str:
        return f"memref<{'x'.join(map(str, self.shape))}x{self.element}>"

    @property
    def elements(self) -> int:
        return math.prod(self.shape)


def buffer_roots(function: func.FuncOp) -> dict[SSAValue, str]:
    """Every candidate buffer's root values with its name: arguments, allocations, then
    the `memref.get_global` results (each read of one global under its name)."""
    named: list[tuple[SSAValue, str]] = []
    for position, argument in enumerate(function.body.block.args):
        if isinstance(argument.type, MemRefType):
            named.append((argument, value_name(argument) or f"arg{position}"))
    allocations = [op for op in function.walk() if isinstance(op, memref.AllocOp)]
    for position, op in enumerate(allocations):
        named.append((op.memref, value_name(op.memref) or f"alloc{position}"))
    wanted = {name for _, name in named}
    taken: set[str] = set()
    roots: dict[SSAValue, str] = {}
    for value, name in named:
        unique, suffix = name, 0
        while unique in taken or (unique != name and unique in wanted):
            suffix += 1
            unique = f"{name}_{suffix}"
        taken.add(unique)
        roots[value] = unique
    for read in function.walk():
        if isinstance(read, memref.GetGlobalOp):
            roots[read.memref] = f"@{read.name_.root_reference.data}"
    return roots


def buffer_values(function: func.FuncOp) -> dict[str, SSAValue]:
    """Every candidate buffer of the function by name (a global: its first read)."""
    values: dict[str, SSAValue] = {}
    for value, name in buffer_roots(function).items():
        values.setdefault(name, value)
    return values


def hot_nest(function: func.FuncOp) -> Nest | None:
    """The loop nest (as layout-schedule reads it) with the most innermost iterations."""
    best: tuple[int, Nest] | None = None
    for op in function.walk():
        if not isinstance(op, LOOPS) or isinstance(op.parent_op(), LOOPS):
            continue
        try:
            nest = extract(op)
        except NotScheduled:
            continue
        work = math.prod(loop.trips for loop in nest.loops)
        if best is None or work > best[0]:
            best = (work, nest)
    return None if best is None else best[1]


def _assigned(function: func.FuncOp, roots: dict[SSAValue, str]) -> dict[str, str]:
    """Buffer name → the layout the input program assigns it, as text."""
    return {
        roots[storage_root(op.memref)]: str(op.layout)
        for op in function.walk()
        if isinstance(op, AssignOp) and storage_root(op.memref) in roots
    }


def private_global(module: ModuleOp, name: str) -> bool:
    """Whether `name` (`@symbol` or `symbol`) is a private global of the module."""
    symbol = name.removeprefix("@")
    for op in module.body.block.ops:
        if isinstance(op, memref.GlobalOp) and op.sym_name.data == symbol:
            visibility = op.sym_visibility
            return visibility is not None and visibility.data == "private"
    return False


def find_buffers(module: ModuleOp, entry: str, names: list[str] | None = None) -> list[Buffer]:
    """The named buffers (default: every buffer the hot nest loads or stores, but globals
    that are not private), in the function's order. Unknown names, dynamic shapes,
    layout-typed buffers and globals that are not private are errors."""
    function = find_function(module, entry)
    roots = buffer_roots(function)
    values = buffer_values(function)
    nest = hot_nest(function)
    accesses = list(nest.accesses.values()) if nest is not None else []
    touched = {roots.get(storage_root(a.buffer)) for a in accesses}
    written = {roots.get(storage_root(a.buffer)) for a in accesses if a.write}
    if names is None:
        if nest is None:
            raise LayoutError(
                f"@{entry}: no loop nest layout-schedule can read; name the buffers (--buffer)"
            )
        names = [
            name
            for name in values
            if name in touched and (not name.startswith("@") or private_global(module, name))
        ]
    assigned = _assigned(function, roots)
    arguments = list(function.body.block.args)
    buffers = []
    for name in names:
        if name not in values:
            known = ", ".join(values) or "none"
            raise LayoutError(f"@{entry}: no buffer named '{name}' (buffers: {known})")
        if name.startswith("@") and not private_global(module, name):
            raise LayoutError(
                f"@{entry}: buffer '{name}' is not a private global: its type is part of the "
                "module's interface"
            )
        value = values[name]
        memref_type = value.type
        assert isinstance(memref_type, MemRefType)
        if not isinstance(memref_type.layout, NoneAttr):
            raise LayoutError(f"@{entry}: buffer '{name}' has a layout in its type already")
        shape = tuple(memref_type.get_shape())
        if any(extent < 0 for extent in shape):
            raise LayoutError(f"@{entry}: buffer '{name}' has a dynamic shape")
        buffers.append(
            Buffer(
                name,
                shape,
                str(memref_type.element_type),
                arguments.index(value)
                if isinstance(value, BlockArgument) and value in arguments
                else None,
                name in written,
                assigned.get(name),
            )
        )
    if not buffers:
        raise LayoutError(f"@{entry}: no buffer to tune")
    return buffers


Hint = tuple[str, tuple[int, ...] | None]
"""A `layout.schedule` op: the buffer it names (which leads the nest) and its register tile
(None: the pass's own)."""


def with_layouts(
    module: ModuleOp,
    entry: str,
    layouts: dict[str, str],
    *,
    typed: bool = False,
    hint: Hint | None = None,
) -> ModuleOp:
    """A copy of the program where each named buffer has the given layout (attribute text):
    its `layout.assign`s replaced by one at the start of the function (arguments) or after
    the allocation (or the global's first read). `typed=True` gives arguments the layout in the signature instead (the
    kernel alone, no conversion at the boundary). `hint` adds a `layout.schedule` op, so
    the nest is scheduled even when no buffer has a layout (plain buffers are not assigned
    their row-major layout: that would copy them)."""
    ctx = make_context()
    clones: dict[SSAValue, SSAValue] = {}
    copy = module.clone(value_mapper=clones)
    carry_spellings(clones)
    function = find_function(copy, entry)
    roots = buffer_roots(function)
    values = buffer_values(function)
    named = set(layouts) | ({hint[0]} if hint else set())
    tuned = {root for root, name in roots.items() if name in named}
    for op in [op for op in function.walk() if isinstance(op, AssignOp | ScheduleOp)]:
        if storage_root(op.memref) in tuned:
            Rewriter.erase_op(op)
    block = function.body.block
    for name, text in layouts.items():
        value = values[name]
        attribute = Parser(ctx, text).parse_attribute()
        if typed and value in block.args:
            old = value.type
            assert isinstance(old, MemRefType)
            values[name] = Rewriter.replace_value_with_new_type(
                value,
                MemRefType(old.element_type, old.shape, attribute),  # type: ignore[arg-type]
            )
            continue
        _insert_at(value, AssignOp(value, attribute))  # type: ignore[arg-type]
    if hint is not None:
        value = values[hint[0]]
        _insert_at(value, ScheduleOp(value, hint[1]), after=AssignOp)
    if typed:
        inputs = [argument.type for argument in block.args]
        function.function_type = func.FunctionType.from_lists(
            inputs, function.function_type.outputs.data
        )
    verify_program(copy)
    return copy


def with_tiles(module: ModuleOp, entry: str, tiles: dict[str, tuple[int, ...]]) -> ModuleOp:
    """The program with a `layout.schedule` tile on each named buffer (after its assign)."""
    function = find_function(module, entry)
    values = buffer_values(function)
    for name, tile in tiles.items():
        value = values[name]
        _insert_at(value, ScheduleOp(value, tile), after=AssignOp)
    verify_program(module)
    return module


def _insert_at(value: SSAValue, op: Operation, after: type[Operation] | None = None) -> None:
    """`op` at the start of the function (an argument) or after the allocation, and after
    the `after` ops that follow there."""
    anchor: Operation | None = None
    if isinstance(value, BlockArgument):
        block: Block | None = value.block
    else:
        assert isinstance(value.owner, Operation)
        block, anchor = value.owner.parent_block(), value.owner
    assert block is not None
    following = block.first_op if anchor is None else anchor.next_op
    while after is not None and isinstance(following, after):
        anchor, following = following, following.next_op
    if anchor is None:
        block.insert_op_before(op, block.first_op)  # type: ignore[arg-type]
    else:
        block.insert_op_after(op, anchor)
