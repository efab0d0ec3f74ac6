"""Function text under construction: buffers, constants, calls across layouts, fill loops.

`FunctionText` is what every generated function shares (the random bodies of `bodies.Writer`
and the fixed `@main`): a list of `Line`s indented by nesting, index constants hoisted to the
top, and the buffers the function can access with their runtime extents.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tests.fuzz.choices import Choices, chance
from tests.fuzz.text import Line, MemrefType, Types, cast, is_float


@dataclass
class Buffer:
    """A memref value the function accesses."""

    name: str
    type: MemrefType
    extents: tuple[int, ...]
    """The runtime extents (the generator knows them even where the type says `?`)."""
    root: int
    """Buffers with one root alias (a buffer and its casts)."""
    writable: bool = True
    dims: dict[int, str] = field(default_factory=dict)
    """`memref.dim` values of the dynamic dims, made at the top of the function."""
    assigned: bool = False
    """A `layout.assign` in this function gives it a layout."""

    @property
    def has_layout(self) -> bool:
        return self.assigned or self.type.layout is not None


@dataclass(frozen=True)
class Site:
    """Where the program puts a layout: the function, the layout's memref type, and how
    (`assign` or `type`). The fuzzer checks each one is really used after lowering."""

    function: str
    memref_type: str
    """The text of a memref type that carries the layout."""
    how: str


@dataclass(frozen=True)
class Passed:
    """A buffer passed to a call: the operand, and the temporary to convert back and free."""

    operand: str
    temporary: Buffer | None = None
    original: Buffer | None = None
    back: bool = False


@dataclass(frozen=True)
class Callee:
    name: str
    parameter: MemrefType
    element: str


class FunctionText:
    def __init__(
        self, c: Choices, types: Types, name: str, element: str, sites: list[Site]
    ) -> None:
        self.c = c
        self.types = types
        self.name = name
        self.element = element
        self.sites = sites
        self.lines: list[Line] = []
        self.top: dict[str, Line] = {}
        self.depth = 1
        self.counter = 0
        self.features: set[str] = set()

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def emit(self, text: str, plain: str | None = None) -> None:
        indent = "  " * self.depth
        self.lines.append(
            Line(indent + text, None if plain is None else (indent + plain if plain else ""))
        )

    def top_constant(self, value: int | float | str, type_text: str = "index") -> str:
        stem = str(value).replace("-", "m").replace(".", "p")
        name = f"%c{stem}" if type_text == "index" else f"%k{stem}_{type_text}"
        self.top[name] = Line(f"  {name} = arith.constant {value} : {type_text}")
        return name

    def index_constant(self, value: int) -> str:
        return self.top_constant(value)

    def token(self, memref_type: MemrefType) -> str:
        return self.types.token(memref_type)

    # ---- layouts ----------------------------------------------------------------------------
    def assign(self, buffer: Buffer, memref_type: MemrefType) -> None:
        """`layout.assign` (the layout version only) of `memref_type`'s layout to `buffer`."""
        assert memref_type.layout is not None
        buffer.assigned = True
        self.features.add(f"layout.assign {memref_type.layout.kind}")
        self.emit(
            f"layout.assign {buffer.name} to {memref_type.layout.text} : {self.token(buffer.type)}",
            "",
        )
        self.sites.append(
            Site(self.name, memref_type.with_shape(buffer.type.shape).text(True), "assign")
        )

    def typed(self, memref_type: MemrefType) -> str:
        """The token of a type written in the program; a layout in it is a site."""
        if memref_type.layout is not None:
            self.sites.append(Site(self.name, memref_type.text(True), "type"))
        return self.token(memref_type)

    # ---- buffers ----------------------------------------------------------------------------
    def dynamic_sizes(self, buffer: Buffer) -> list[str]:
        """`memref.dim` of each dynamic dim of `buffer` (for an allocation like it)."""
        sizes = []
        for d in buffer.type.dynamic:
            size = self.fresh("sz")
            self.emit(
                f"{size} = memref.dim {buffer.name}, {self.index_constant(d)} : {self.token(buffer.type)}"
            )
            sizes.append(size)
        return sizes

    def allocate(self, memref_type: MemrefType, sizes: list[str], kind: str = "alloc") -> str:
        name = self.fresh(kind)
        self.features.add(f"memref.{kind}")
        self.emit(f"{name} = memref.{kind}({', '.join(sizes)}) : {self.typed(memref_type)}")
        return name

    def move(self, source: Buffer, target: Buffer) -> None:
        """Copy the logical contents: `layout.convert` or `memref.copy` where the types
        differ (the plain version copies), `memref.copy` where they are the same."""
        # xDSL's memref.copy wants one shape: the target's, static where the source's
        # layout allows no `?` (a strided layout has a static shape)
        shape = tuple(
            source.extents[d] if e is None and not _may_be_dynamic(source.type, d) else e
            for d, e in enumerate(target.type.shape)
        )
        source, target = self.recast(source, shape), self.recast(target, shape)
        ts, tt = self.token(source.type), self.token(target.type)
        copy = f'"memref.copy"({source.name}, {target.name}) : ({ts}, {tt}) -> ()'
        if source.type.layout != target.type.layout and self.c.boolean():
            self.features.add("layout.convert")
            self.emit(f"layout.convert {source.name} to {target.name} : {ts} to {tt}", copy)
        else:
            self.features.add("memref.copy")
            self.emit(copy)

    def recast(self, buffer: Buffer, shape: tuple[int | None, ...]) -> Buffer:
        """`memref.cast` to the same layout with other static/dynamic extents."""
        if buffer.type.shape == shape:
            return buffer
        result = self.fresh("cast")
        new_type = buffer.type.with_shape(shape)
        self.features.add("memref.cast")
        self.emit(cast(result, buffer.name, self.token(buffer.type), self.typed(new_type)))
        return Buffer(result, new_type, buffer.extents, buffer.root, buffer.writable)

    def pass_buffer(self, buffer: Buffer, parameter: MemrefType, write_back: bool) -> Passed:
        """Pass `buffer` as a parameter of type `parameter`: the buffer itself (cast to the
        parameter's static/dynamic extents), or, where the layouts in the types differ, a
        temporary of the parameter's type converted into (and back after the call, with
        `finish_pass`). The plain version copies instead of converting."""
        buffer = self.recast(buffer, parameter.shape)
        if buffer.type == parameter:
            return Passed(buffer.name)
        self.features.add("call through a converted temporary")
        sizes = self.dynamic_sizes(buffer)
        temporary = Buffer(self.allocate(parameter, sizes), parameter, buffer.extents, -1)
        self.move(buffer, temporary)
        return Passed(temporary.name, temporary, buffer, write_back and buffer.writable)

    def finish_pass(self, passed: Passed) -> None:
        if passed.temporary is None:
            return
        if passed.back:
            assert passed.original is not None
            self.move(passed.temporary, passed.original)
        self.emit(f"memref.dealloc {passed.temporary.name} : {self.token(passed.temporary.type)}")

    # ---- loops over a whole buffer ------------------------------------------------------------
    def nest(self, extents: tuple[int, ...]) -> tuple[list[str], str]:
        """Open `scf.for` loops over `extents`; returns the induction variables and the
        row-major linear index (close with `close`)."""
        ivs = []
        for extent in extents:
            iv = self.fresh("i")
            lb, ub, one = (
                self.index_constant(0),
                self.index_constant(extent),
                self.index_constant(1),
            )
            self.emit(f"scf.for {iv} = {lb} to {ub} step {one} {{")
            self.depth += 1
            ivs.append(iv)
        linear = self.index_constant(0)
        for iv, stride in zip(ivs, _strides(extents), strict=True):
            scaled = self.fresh("s")
            self.emit(f"{scaled} = arith.muli {iv}, {self.index_constant(stride)} : index")
            total = self.fresh("l")
            self.emit(f"{total} = arith.addi {linear}, {scaled} : index")
            linear = total
        return ivs, linear

    def close(self, count: int) -> None:
        for _ in range(count):
            self.depth -= 1
            self.emit("}")

    def fill_value(self, linear: str, salt: int) -> str:
        """The code of `text.fill_value`: ints from (3·linear + salt) wrapped to their
        width; floats ((3·linear + salt) mod 37)·0.25 - 2."""
        mixed, scaled = self.fresh("x"), self.fresh("x")
        self.emit(f"{scaled} = arith.muli {linear}, {self.index_constant(3)} : index")
        self.emit(f"{mixed} = arith.addi {scaled}, {self.index_constant(salt)} : index")
        value = self.fresh("fv")
        if not is_float(self.element):
            self.emit(f"{value} = arith.index_cast {mixed} : index to {self.element}")
            return value
        folded, integer, real, quarter = (self.fresh("x") for _ in range(4))
        self.emit(f"{folded} = arith.remui {mixed}, {self.index_constant(37)} : index")
        self.emit(f"{integer} = arith.index_cast {folded} : index to i32")
        self.emit(f"{real} = arith.sitofp {integer} : i32 to {self.element}")
        self.emit(
            f"{quarter} = arith.mulf {real}, {self.top_constant(0.25, self.element)} : {self.element}"
        )
        self.emit(
            f"{value} = arith.subf {quarter}, {self.top_constant(2.0, self.element)} : {self.element}"
        )
        return value

    def fill(self, buffer: Buffer, salt: int) -> None:
        """Store `fill_value` into every element (a fresh buffer is never read uninitialised)."""
        ivs, linear = self.nest(buffer.extents)
        value = self.fill_value(linear, salt)
        self.emit(
            f"memref.store {value}, {buffer.name}[{', '.join(ivs)}] : {self.token(buffer.type)}"
        )
        self.close(len(ivs))

    def body_lines(self) -> list[Line]:
        return [*self.top.values(), *self.lines]


def _strides(extents: tuple[int, ...]) -> list[int]:
    return [math.prod(extents[d + 1 :]) for d in range(len(extents))]


def _may_be_dynamic(memref_type: MemrefType, dim: int) -> bool:
    return memref_type.layout is None or dim in memref_type.layout.dynamic_dims


def may_be_dynamic(c: Choices, memref_type: MemrefType, layouts: list[MemrefType]) -> MemrefType:
    """`memref_type` with some dims `?` where every layout the buffer meets allows it."""
    allowed = set(range(len(memref_type.shape)))
    for other in [memref_type, *layouts]:
        if other.layout is not None:
            allowed &= other.layout.dynamic_dims
    if not allowed or not chance(c, 40):
        return memref_type
    chosen = [d for d in sorted(allowed) if c.boolean()] or [c.choice(sorted(allowed))]
    return memref_type.with_shape(
        tuple(None if d in chosen else e for d, e in enumerate(memref_type.shape))
    )
