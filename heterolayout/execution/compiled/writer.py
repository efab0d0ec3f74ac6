"""The compiled engine's code writer: Python source for the functions of one module.

The writer keeps the names of SSA values and the indentation, writes functions, blocks and
regions, and asks the engine for each op's code (`Emitter`s, by op name: `engine.EMITTERS`);
a value op pastes its `semantics` expression. Loads and stores of plain memrefs are inline
numpy accesses behind a bounds check; layout-aware memrefs and views call the `memref`
helpers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import Block, Operation, Region, SSAValue

from heterolayout.dialects.attributes import LayoutAttr
from heterolayout.dialects.conversion import is_builtin_strided
from heterolayout.dialects.diagnostics import location, where
from heterolayout.dialects.functions import Function, function_key
from heterolayout.dialects.names import op_name
from heterolayout.dialects.roles import REGION_TERMINATORS
from heterolayout.dialects.views import view_source
from heterolayout.execution.errors import ExecutionError
from heterolayout.execution.runtime import memref as memory
from heterolayout.execution.runtime.expressions import ExprContext
from heterolayout.execution.runtime.semantics import VALUE_OPS, affine_results, value_expression

Terminator = Callable[[Operation, list[str]], None]
"""Writes the terminator of a block (the op, its operands' names)."""
Emitter = Callable[["Writer", Operation], None]
"""Writes the code of one op."""

TERMINATORS = REGION_TERMINATORS
"""The terminators written by the op that owns their region (the op-role table's)."""


class Writer:
    """Python source for the functions of one module, sharing one namespace of constants.

    `emitter` gives the code of an op that has its own (None: a value op, whose
    `semantics` expression is pasted); `helpers` are the names that code calls."""

    def __init__(
        self,
        function_names: dict[str, str],
        emitter: Callable[[Operation], Emitter | None],
        helpers: dict[str, Any],
    ) -> None:
        self.namespace: dict[str, Any] = dict(helpers)
        self.emitter = emitter
        self.lines: list[str] = []
        self.function_names = function_names
        self.depth = 0
        self._names: dict[SSAValue, str] = {}
        self.block_numbers: dict[Block, int] = {}
        """The number of each block of the function being written (`blocks`)."""
        self.linalg_loops: list[list[str]] = []
        """The loop variables of the linalg ops being written, innermost last (for
        linalg.index)."""
        self._counter = 0
        self.stores: dict[int, str] = {}
        """The place of each inlined numpy store, by its line number (from 1)."""

    # ---- names ------------------------------------------------------------------------------
    def bind(self, value: object) -> str:
        name = f"_c{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def fresh(self, prefix: str = "v") -> str:
        self._counter += 1
        return f"{prefix}{self._counter}"

    def define(self, value: SSAValue, name: str | None = None) -> str:
        self._names[value] = name or self.fresh()
        return self._names[value]

    def use(self, value: SSAValue) -> str:
        return self._names[value]

    def uses(self, values: Sequence[SSAValue]) -> list[str]:
        return [self._names[v] for v in values]

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def indented(self, emit: Callable[[], None]) -> None:
        self.depth += 1
        start = len(self.lines)
        emit()
        if len(self.lines) == start:
            self.line("pass")
        self.depth -= 1

    # ---- functions and blocks -----------------------------------------------------------------
    def function(self, function: Function) -> None:
        block = function.body.blocks.first
        assert block is not None
        params = [self.define(arg, f"a{i}") for i, arg in enumerate(block.args)]
        self.line(
            f"def {self.function_names[function_key(function)]}({', '.join(['S', *params])}):"
        )
        if len(function.body.blocks) > 1:  # cf branches between blocks
            self.indented(lambda: self.blocks(function.body, self._return))
        else:
            self.indented(lambda: self.block(block, self._return))
        self.line("")

    def _return(self, op: Operation, values: list[str]) -> None:
        self.line(f"return ({''.join(v + ', ' for v in values)})")

    def block(self, block: Block, terminator: Terminator) -> None:
        for op in block.ops:
            ends_block = op is block.last_op
            if not ends_block or op_name(op) not in TERMINATORS:
                self.op(op)
            else:
                terminator(op, self.uses(op.operands))

    def region(self, region: Region, args: Sequence[str], terminator: Terminator) -> None:
        block = region.blocks.first
        assert block is not None
        for arg, name in zip(block.args, args, strict=True):
            self.define(arg, name)
        self.indented(lambda: self.block(block, terminator))

    def assign_to(self, targets: Sequence[str]) -> Terminator:
        def terminator(op: Operation, values: list[str]) -> None:
            if targets:
                self.line(f"{', '.join(targets)}, = {''.join(v + ', ' for v in values)}")

        return terminator

    def blocks(self, region: Region, terminator: Terminator) -> None:
        """The blocks of a function body (cf branches between them) as branches of a loop
        over the block number."""
        numbers = {block: number for number, block in enumerate(region.blocks)}
        self.block_numbers.update(numbers)
        for block in list(region.blocks)[1:]:
            for arg in block.args:
                self.define(arg, self.fresh("b"))
        self.line("_b = 0")
        self.line("while True:")
        self.depth += 1
        for block, number in numbers.items():
            self.line(f"{'if' if number == 0 else 'elif'} _b == {number}:")
            self.indented(functools.partial(self.block, block, terminator))
        self.depth -= 1

    def jump(self, block: Block, values: list[str]) -> None:
        """A branch to `block` (of a body written by `blocks`) with its arguments."""
        if block.args:
            self.line(f"{', '.join(self.uses(block.args))}, = {tuple_text(values)}")
        self.line(f"_b = {self.block_numbers[block]}")
        self.line("continue")

    # ---- ops ----------------------------------------------------------------------------------
    def op(self, op: Operation) -> None:
        name = op_name(op)
        emit = self.emitter(op)
        if emit is not None:
            emit(self, op)
        elif name in VALUE_OPS:
            expression = value_expression(
                name, op, self.uses(op.operands), ExprContext(self.bind, where(op))
            )
            if name == "arith.constant":
                self.define(op.results[0], expression)  # a literal or a bound name: used in place
            else:
                self.line(f"{self.define(op.results[0])} = {expression}")
        else:
            raise ExecutionError(f"unsupported op '{name}' at {location(op)}")

    def indices(self, op: Operation, affine_map: Any, operands: Sequence[SSAValue]) -> list[str]:
        """Index variables of an access: its operands, or its affine map's results."""
        names = self.uses(operands)
        if affine_map is None:
            return names
        temporaries = []
        for expression in affine_results(affine_map, names, ExprContext(self.bind, where(op))):
            if expression.isidentifier():
                temporaries.append(expression)
                continue
            temporary = self.fresh("t")
            self.line(f"{temporary} = {expression}")
            temporaries.append(temporary)
        return temporaries

    def load(self, op: Operation, memref_value: SSAValue, index: list[str]) -> None:
        info = memory.memref_info(memref_value.type)
        target, source, at = (
            self.define(op.results[0]),
            self.use(memref_value),
            self.bind(where(op)),
        )
        if _always_laid_out(info):
            self.line(f"{target} = {source}.load(({''.join(i + ', ' for i in index)}), {at})")
        elif info.layout is not None or info.lanes or _maybe_view(info, memref_value):
            self.line(f"{target} = _load({source}, ({''.join(i + ', ' for i in index)}), {at})")
        else:
            self._bounds_check(info, source, index, at)
            self.line(f"{target} = {source}.item({', '.join(index)})")

    def store(
        self, op: Operation, value: SSAValue, memref_value: SSAValue, index: list[str]
    ) -> None:
        info = memory.memref_info(memref_value.type)
        stored, target, at = self.use(value), self.use(memref_value), self.bind(where(op))
        if _always_laid_out(info):
            self.line(f"{target}.store(({''.join(i + ', ' for i in index)}), {stored}, {at})")
        elif info.layout is not None or info.lanes or _maybe_view(info, memref_value):
            self.line(f"_store({target}, ({''.join(i + ', ' for i in index)}), {stored}, {at})")
        else:
            self._bounds_check(info, target, index, at)
            self.line(f"{target}[{', '.join(index) or '()'}] = {stored}")
            self.stores[len(self.lines)] = where(op)

    def _bounds_check(
        self, info: memory.MemRefInfo, memref_name: str, index: list[str], at: str
    ) -> None:
        if not index:
            return
        bounds = [
            str(e) if e is not None else f"{memref_name}.shape[{d}]"
            for d, e in enumerate(info.shape)
        ]
        test = " and ".join(f"0 <= {i} < {b}" for i, b in zip(index, bounds, strict=True))
        self.line(
            f"if not ({test}): raise _oob({at}, ({''.join(i + ', ' for i in index)}), {memref_name}.shape[:{len(index)}])"
        )


def _maybe_view(info: memory.MemRefInfo, value: SSAValue) -> bool:
    """Whether `value` may be a view at run time (a numpy view of strided memory, a
    `LayoutView`, or a `ByteView` of sub-byte elements): a view op's result, a byte view, or
    a value of a builtin strided type (a parameter that receives views)."""
    owner = value.owner
    return (
        is_builtin_strided(info.type)
        or view_source(value) is not None
        or (isinstance(owner, Operation) and op_name(owner) == memory.BYTE_VIEW_OP)
    )


def _always_laid_out(info: memory.MemRefInfo) -> bool:
    """Whether every value of this type is a layout-aware memref at run time, so that its
    accesses may call it directly. A `#layout` type is; a builtin `affine_map` or `strided`
    type is also upstream's description of a view of plain memory (`reinterpret_cast` to
    `memref<5x7xf32, affine_map<(d0, d1) -> (d0 * 7 + d1)>>`), which is a numpy view: those
    accesses dispatch on the value (`memory.load`)."""
    return info.layout is not None and isinstance(info.type.layout, LayoutAttr)


def tuple_text(items: Sequence[str]) -> str:
    """The source of a tuple of `items` (one item too)."""
    return f"({''.join(i + ', ' for i in items)})"


def mixed_text(static: Any, dynamic: list[str]) -> str:
    """The source of a tuple of static values with each `?` taken in turn from `dynamic`."""
    remaining = iter(dynamic)
    return tuple_text(
        [next(remaining) if v == DYNAMIC_INDEX else str(v) for v in static.get_values()]
    )
