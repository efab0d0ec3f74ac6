"""Whole random programs, generated once and rendered with and without their layouts.

A program is `@main()`, which makes two buffers (allocations filled by loops, or a private
global with a dense initializer), passes them to `@kernel(%A, %B, %n) -> T` and prints the
result and every element of both buffers with `vector.print`; the kernel has a random body
(`bodies.Writer`) over %A, %B and sometimes a local buffer %C, and may call a `@helper` with
a random body of its own. Functions are public or private.

Layouts enter the way users put them in: `layout.assign` on allocations, globals and
function arguments (in @main, the kernel and the helper), and layouts written in memref types
(allocations, globals, parameters). Where two types meet at a call, the caller converts
through a temporary; parameters may be dynamic (`?`, reached through `memref.cast`) where
every layout the buffer meets allows it. The plain rendering of the same choices is the
reference: `layout.assign` dropped, layouts gone from the types, `layout.convert` a copy.

Some functions write with linalg ops too, some with linalg ops only (`structured.py`). A few
programs are large: the first buffer has 4096 to 8192 elements and the local buffer is
converted into from it and back, so conversions take the tiled and whole-container paths
(`LARGE_PERCENT`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tests.fuzz.bodies import Writer
from tests.fuzz.choices import Choices, SeededChoices, chance
from tests.fuzz.functions import Buffer, Callee, FunctionText, Site, may_be_dynamic
from tests.fuzz.layouts import ELEMENTS, MAX_PHYSICAL, random_layout
from tests.fuzz.structured import Linalg
from tests.fuzz.text import Line, MemrefType, Types, fill_value, literal, vector_print

MAX_LOGICAL = 120
"""Logical elements of one buffer, at most (each is printed)."""
LARGE_PERCENT = 6
"""Programs whose first buffer is large: 4096 to 8192 elements, layouts of up to
`LARGE_PHYSICAL` slots, so that conversions into them take the tiled and whole-container
paths (`convert_loops.VECTOR_MIN_SLOTS`, 4096 slots)."""
LINALG_PERCENT = 50
"""Functions with linalg statements."""
LINALG_ONLY_PERCENT = 40
"""Of those, functions whose buffers only linalg ops write."""
LARGE_LOGICAL = (4096, 8192)
LARGE_PHYSICAL = 24576


@dataclass(frozen=True)
class Program:
    seed: int | None
    text: str
    """With its layouts."""
    plain: str
    """The same program without layouts: the reference."""
    sites: tuple[Site, ...]
    features: frozenset[str]
    element: str
    native: bool = False
    """A saved case that runs natively (stock upstream) too, whatever the run asks."""

    def __repr__(self) -> str:  # hypothesis prints a failing example this way
        return f"Program(seed={self.seed}, text=\n{self.text})"


def random_shape(c: Choices, rank: int) -> tuple[int, ...]:
    extents = [c.integer(1, 10) for _ in range(rank)]
    while math.prod(extents) > MAX_LOGICAL:
        largest = extents.index(max(extents))
        extents[largest] = -(-extents[largest] // 2)
    return tuple(extents)


def large_shape(c: Choices, rank: int) -> tuple[int, ...]:
    """Extents whose product lies in `LARGE_LOGICAL`, usually not multiples of 4."""
    extents = list(random_shape(c, rank))
    low, high = LARGE_LOGICAL
    while math.prod(extents) < low:
        dim = c.integer(0, rank - 1)
        extents[dim] = extents[dim] * 2 + (c.integer(0, 1) if extents[dim] > 2 else 0)
    while math.prod(extents) > high:
        largest = extents.index(max(extents))
        extents[largest] = -(-extents[largest] // 2)
    while math.prod(extents) < low:  # halving went below: grow the smallest a little
        smallest = extents.index(min(extents))
        extents[smallest] += 1
    return tuple(extents)


@dataclass
class Role:
    """One logical buffer of the program and every place a layout may meet it."""

    shape: tuple[int, ...]
    main: MemrefType
    main_assign: MemrefType | None
    kernel: MemrefType
    kernel_assign: MemrefType | None


class Generator:
    def __init__(self, c: Choices) -> None:
        self.c = c
        self.types = Types()
        self.sites: list[Site] = []
        self.features: set[str] = set()
        self.element = c.choice(ELEMENTS)
        self.large = chance(c, LARGE_PERCENT)
        self.limit = LARGE_PHYSICAL if self.large else MAX_PHYSICAL

    def layout_type(
        self, shape: tuple[int, ...], percent: int, globals_: bool = False
    ) -> MemrefType:
        layout = (
            random_layout(self.c, shape, self.element, self.limit)
            if chance(self.c, percent)
            else None
        )
        if layout is not None and globals_ and layout.kind == "packed-vector":
            layout = None  # documented: dense initializers cannot hold vectors
        if layout is not None:
            self.features.add(f"layout {layout.kind}")
        return MemrefType(shape, self.element, layout)

    def assigned(
        self, memref_type: MemrefType, percent: int, globals_: bool = False
    ) -> MemrefType | None:
        """A layout to assign to a buffer of `memref_type` (none if the type has one)."""
        if memref_type.layout is not None:
            return None
        found = self.layout_type(memref_type.shape, percent, globals_)  # type: ignore[arg-type]
        return found if found.layout is not None else None

    def role(self, shape: tuple[int, ...], global_source: bool) -> Role:
        main = self.layout_type(shape, 30, global_source)
        kernel = (
            main if main.layout is not None and chance(self.c, 50) else self.layout_type(shape, 30)
        )
        return Role(
            shape, main, self.assigned(main, 35, global_source), kernel, self.assigned(kernel, 35)
        )

    def generate(self, seed: int | None) -> Program:
        c = self.c
        rank = c.integer(1, 4)
        shape_a = large_shape(c, rank) if self.large else random_shape(c, rank)
        shape_b = shape_a if chance(c, 40) else random_shape(c, c.integer(1, 4))
        b_global = chance(c, 35)
        a, b = self.role(shape_a, False), self.role(shape_b, b_global)
        if self.large:
            self.features.add("large buffer")
        local = (
            self.layout_type(shape_a, 85 if self.large else 50)
            if self.large or chance(c, 45)
            else None
        )
        local_assign = self.assigned(local, 35) if local is not None else None
        helper = self.layout_type(shape_a, 40) if chance(c, 35) else None
        helper_assign = self.assigned(helper, 35) if helper is not None else None
        a_meets = [
            a.main,
            a.kernel,
            *(
                t
                for t in (
                    a.main_assign,
                    a.kernel_assign,
                    local,
                    local_assign,
                    helper,
                    helper_assign,
                )
                if t
            ),
        ]
        a.kernel = may_be_dynamic(c, a.kernel, a_meets)
        b.kernel = may_be_dynamic(
            c, b.kernel, [b.main, *(t for t in (b.main_assign, b.kernel_assign) if t)]
        )
        constant = b_global and chance(c, 25)
        lines: list[Line] = []
        callee = None
        if helper is not None:
            parameter = helper.with_shape(a.kernel.shape)
            lines += self.helper(parameter, shape_a, helper_assign)
            callee = Callee("@helper", parameter, self.element)
        kernel = self.kernel(a, b, local, local_assign, callee, constant)
        main = self.main(a, b, b_global, constant)
        lines = kernel + lines + main
        if b_global:
            lines.insert(0, self.global_line(b, constant))
        return Program(
            seed,
            self.types.render(lines, True),
            self.types.render(lines, False),
            tuple(self.sites),
            frozenset(self.features),
            self.element,
        )

    # ---- functions ----------------------------------------------------------------------------
    def with_linalg(self, writer: Writer) -> None:
        """Whole-buffer statements once per function in large programs; linalg statements in
        some functions, in some of those the only writes."""
        if self.large:
            writer.whole_trips = 1
        if chance(self.c, LINALG_PERCENT):
            writer.linalg = Linalg(writer, lambda shape: self.layout_type(shape, 50), self.large)
            writer.linalg_only = chance(self.c, LINALG_ONLY_PERCENT)

    def visibility(self) -> str:
        return "private " if self.c.boolean() else ""

    def kernel_buffers(
        self, writer: Writer, roles: list[Role], writable: list[bool]
    ) -> list[Buffer]:
        buffers = []
        for root, (role, can_write) in enumerate(zip(roles, writable, strict=True)):
            name = "%A" if root == 0 else "%B"
            buffer = Buffer(name, role.kernel, role.shape, root, can_write)
            for d in role.kernel.dynamic:
                size = writer.fresh("d")
                writer.emit(
                    f"{size} = memref.dim {name}, {writer.index_constant(d)} : {writer.token(role.kernel)}"
                )
                buffer.dims[d] = size
                writer.affine_ok.add(size)
            buffers.append(buffer)
        return buffers

    def kernel(
        self,
        a: Role,
        b: Role,
        local: MemrefType | None,
        local_assign: MemrefType | None,
        callee: Callee | None,
        constant: bool,
    ) -> list[Line]:
        c = self.c
        writer = Writer(
            c, self.types, "@kernel", self.element, self.sites, [], c.integer(4, 14), callee
        )
        self.with_linalg(writer)
        buffers = self.kernel_buffers(writer, [a, b], [True, not constant])
        writer.buffers = buffers
        late = []
        for buffer, role in zip(buffers, (a, b), strict=True):
            if role.kernel_assign is None:
                continue
            if chance(c, 70):
                writer.assign(buffer, role.kernel_assign)
            else:  # an assign applies to the buffer's whole lifetime, wherever it stands
                late.append((buffer, role.kernel_assign))
        if local is not None:
            buffers.append(
                self.local_buffer(
                    writer, buffers[0], local.with_shape(a.kernel.shape), local_assign
                )
            )
        acc = writer.function_body()
        for buffer, assign in late:
            writer.assign(buffer, assign)
        if local is not None:
            if self.large or chance(c, 40):
                writer.move(buffers[2], buffers[0])
            if buffers[2].name.startswith("%alloc") and not buffers[2].name.startswith("%alloca"):
                writer.emit(f"memref.dealloc {buffers[2].name} : {writer.token(buffers[2].type)}")
        self.features |= writer.features
        params = f"%A: {writer.typed(a.kernel)}, %B: {writer.typed(b.kernel)}, %n: index"
        header = f"func.func {self.visibility()}@kernel({params}) -> {self.element} {{"
        return [
            Line(header),
            *writer.body_lines(),
            Line(f"  func.return {acc} : {self.element}"),
            Line("}"),
        ]

    def local_buffer(
        self, writer: Writer, a: Buffer, memref_type: MemrefType, assign: MemrefType | None
    ) -> Buffer:
        """%C: an allocation like %A, initialised from it or by a fill loop."""
        sizes = [a.dims[d] for d in memref_type.dynamic]
        name = writer.allocate(memref_type, sizes, "alloca" if chance(self.c, 25) else "alloc")
        buffer = Buffer(name, memref_type, a.extents, 2)
        if assign is not None:
            writer.assign(buffer, assign)
        if self.large or self.c.boolean():
            writer.move(a, buffer)
        else:
            writer.fill(buffer, 5)
        return buffer

    def helper(
        self, parameter: MemrefType, extents: tuple[int, ...], assign: MemrefType | None
    ) -> list[Line]:
        writer = Writer(
            self.c, self.types, "@helper", self.element, self.sites, [], self.c.integer(2, 8)
        )
        self.with_linalg(writer)
        buffer = Buffer("%X", parameter, extents, 0)
        writer.buffers = [buffer]
        for d in parameter.dynamic:
            size = writer.fresh("d")
            writer.emit(
                f"{size} = memref.dim %X, {writer.index_constant(d)} : {writer.token(parameter)}"
            )
            buffer.dims[d] = size
            writer.affine_ok.add(size)
        if assign is not None:
            writer.assign(buffer, assign)
        acc = writer.function_body()
        self.features |= writer.features
        header = f"func.func {self.visibility()}@helper(%X: {writer.typed(parameter)}, %n: index) -> {self.element} {{"
        return [
            Line(header),
            *writer.body_lines(),
            Line(f"  func.return {acc} : {self.element}"),
            Line("}"),
        ]

    def main(self, a: Role, b: Role, b_global: bool, constant: bool) -> list[Line]:
        c = self.c
        text = FunctionText(c, self.types, "@main", self.element, self.sites)
        made = []
        for root, role in enumerate((a, b)):
            if root == 1 and b_global:
                text.emit(f"%g = memref.get_global @g0 : {text.typed(role.main)}")
                buffer = Buffer("%g", role.main, role.shape, root, not constant)
            else:
                kind = "alloca" if chance(c, 20) else "alloc"
                buffer = Buffer(text.allocate(role.main, [], kind), role.main, role.shape, root)
                text.fill(buffer, root + 1)
            if role.main_assign is not None:
                text.assign(buffer, role.main_assign)
            made.append(buffer)
        n = text.index_constant(c.integer(0, 15))
        passed = [
            text.pass_buffer(buffer, role.kernel, True)
            for buffer, role in zip(made, (a, b), strict=True)
        ]
        signature = f"({text.token(a.kernel)}, {text.token(b.kernel)}, index) -> {self.element}"
        text.emit(
            f"%r = func.call @kernel({passed[0].operand}, {passed[1].operand}, {n}) : {signature}"
        )
        for item in reversed(passed):
            text.finish_pass(item)
        text.emit(vector_print("%r", self.element))
        for buffer in made:
            ivs, _ = text.nest(buffer.extents)
            value = text.fresh("p")
            text.emit(
                f"{value} = memref.load {buffer.name}[{', '.join(ivs)}] : {text.token(buffer.type)}"
            )
            text.emit(vector_print(value, self.element))
            text.close(len(ivs))
        for buffer in made:
            if buffer.name.startswith("%alloc") and not buffer.name.startswith("%alloca"):
                text.emit(f"memref.dealloc {buffer.name} : {text.token(buffer.type)}")
        text.emit("func.return")
        self.features |= text.features
        return [Line("func.func @main() {"), *text.body_lines(), Line("}")]

    def global_line(self, b: Role, constant: bool) -> Line:
        """`@g0`, in generic form (xDSL 0.74 has no custom syntax for memref.global)."""
        values = [
            literal(fill_value(i, 2, self.element), self.element, dense=True)
            for i in range(math.prod(b.shape))
        ]
        dense = _nested(values, b.shape)
        tensor = "tensor<" + "".join(f"{e}x" for e in b.shape) + f"{self.element}>"
        flag = "constant, " if constant else ""
        self.features.add("memref.global" + (" constant" if constant else ""))
        return Line(
            f'"memref.global"() <{{sym_name = "g0", sym_visibility = "private", {flag}'
            f"type = {self.types.token(b.main)}, initial_value = dense<{dense}> : {tensor}}}> : () -> ()"
        )


def _nested(values: list[str], shape: tuple[int, ...]) -> str:
    if not shape:
        return values[0]
    if len(shape) == 1:
        return "[" + ", ".join(values) + "]"
    step = math.prod(shape[1:])
    return (
        "["
        + ", ".join(_nested(values[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0]))
        + "]"
    )


def generate(c: Choices, seed: int | None = None) -> Program:
    return Generator(c).generate(seed)


def program_for_seed(seed: int) -> Program:
    return generate(SeededChoices(seed), seed)
