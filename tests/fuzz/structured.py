"""linalg statements for the random bodies: buffers written by linalg ops, named and generic.

One statement writes a target, a buffer of the function (an argument, the local allocation)
or a static subview of one (run-time offsets too), with one of: `linalg.fill`, `linalg.copy`,
an elementwise `linalg.generic` (maps permuted where the extents allow, `linalg.index` in
the body), the named elementwise ops, `linalg.transpose` there and back through a temporary,
`linalg.reduce` into a temporary then `linalg.broadcast` back, `linalg.matmul`,
`linalg.batch_matmul`, the 2-D convolutions (`conv_2d_nchw_fchw`, `conv_2d_nhwc_hwcf`,
`depthwise_conv_2d_nchw_chw`, strides and dilations included) and poolings
(`pooling_nchw_sum` / `_max`) whose other operands are temporaries. A temporary is an
allocation with a random layout (in its type or by `layout.assign`) or none, filled by
`linalg.fill`, by an index formula in a `linalg.generic`, or by `linalg.copy` from a window
of a buffer of the function, and freed after the statement. A padded copy (a temporary
copied into the interior of a filled, larger one, as `tensor.pad` bufferizes) feeds a copy.

On `i1` the named ops mean what upstream's region builder makes of them (`arith.ori` for
add, `arith.andi` for mul); `linalg.sub`, which upstream refuses on bools, is not generated.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tests.fuzz.choices import chance
from tests.fuzz.functions import Buffer
from tests.fuzz.text import MemrefType, is_float, literal, wrap_integer

if TYPE_CHECKING:
    from tests.fuzz.bodies import Writer

LayoutFor = Callable[[tuple[int, ...]], MemrefType]
"""A memref type of that shape with a random layout, or none (the program's generator)."""
NAMED_MAC = ("matmul", "batch_matmul", "conv_nchw", "conv_nhwc", "depthwise", "pooling")
"""Statements whose named op sums."""


def row_major(shape: Sequence[int]) -> list[int]:
    return [math.prod(shape[d + 1 :]) for d in range(len(shape))]


def _maps(rank: int, *results: Sequence[str]) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    return ", ".join(f"affine_map<({dims}) -> ({', '.join(r)})>" for r in results)


class Linalg:
    """Writes linalg statements into a `Writer`'s current block."""

    def __init__(self, writer: Writer, layout_for: LayoutFor | None, large: bool) -> None:
        self.w = writer
        self.c = writer.c
        self.layout_for = layout_for
        self.large = large
        """Targets of thousands of elements: reductions kept short (the interpreter runs them)."""
        self.temporaries: list[Buffer] = []

    @property
    def element(self) -> str:
        return self.w.element

    # ---- operands ---------------------------------------------------------------------------
    def _viewable(self, buffer: Buffer) -> bool:
        return not buffer.type.dynamic and buffer.type.view is None

    def view(self, buffer: Buffer, sizes: Sequence[int] | None = None) -> Buffer:
        """A subview of `buffer` (static type) of `sizes` (random if None): static offsets and
        strides, or a run-time offset from an index value in scope whose range fits."""
        w, c = self.w, self.c
        extents = buffer.extents
        if sizes is None:
            sizes = [c.integer(1, e) for e in extents]
        offsets: list[str] = []
        strides: list[int] = []
        static: list[int | None] = []
        for extent, size in zip(extents, sizes, strict=True):
            stride = 2 if size > 1 and (size - 1) * 2 < extent and chance(c, 25) else 1
            last_offset = extent - 1 - (size - 1) * stride
            fitting = [
                v
                for v in w.visible("indices")
                if w.ranges[v][0] >= 0 and w.ranges[v][1] <= last_offset
            ]
            if fitting and chance(c, 25):
                offsets.append(c.choice(fitting))
                static.append(None)
            else:
                offset = c.integer(0, last_offset)
                offsets.append(str(offset))
                static.append(offset)
            strides.append(stride)
        w.features.add("memref.subview" + (" run-time offset" if None in static else ""))
        return self._subview(buffer, offsets, static, sizes, strides)

    def _subview(
        self,
        buffer: Buffer,
        offsets: Sequence[str],
        static: Sequence[int | None],
        sizes: Sequence[int],
        strides: Sequence[int],
    ) -> Buffer:
        """`memref.subview` of `buffer` (static type) at `offsets` (`static`: their values,
        None where known only at run time)."""
        w = self.w
        base = row_major(buffer.type.shape)  # type: ignore[arg-type]
        view_strides = [s * b for s, b in zip(strides, base, strict=True)]
        offset_text = (
            "?" if None in static else str(sum(o * b for o, b in zip(static, base, strict=True)))  # type: ignore[misc]
        )
        layout = f"strided<[{', '.join(map(str, view_strides))}], offset: {offset_text}>"
        view_type = MemrefType(tuple(sizes), self.element, None, layout)
        name = w.fresh("sv")
        w.emit(
            f"{name} = memref.subview {buffer.name}[{', '.join(offsets)}] "
            f"[{', '.join(map(str, sizes))}] [{', '.join(map(str, strides))}] : "
            f"{w.token(buffer.type)} to {w.token(view_type)}"
        )
        return Buffer(name, view_type, tuple(sizes), buffer.root, buffer.writable)

    def target(self) -> Buffer | None:
        """A writable buffer, or a window of one."""
        writable = [b for b in self.w.buffers if b.writable]
        if not writable:
            return None
        buffer = self.c.choice(writable)
        if self._viewable(buffer) and chance(self.c, 30):
            return self.view(buffer)
        return buffer

    def source(self, extents: tuple[int, ...], avoid: int | None = None) -> Buffer | None:
        """A buffer of the function with these extents, or a window of one that has room;
        none of root `avoid` (linalg's inputs and outputs do not alias)."""
        buffers = [b for b in self.w.buffers if b.root != avoid]
        exact = [b for b in buffers if b.extents == extents]
        roomy = [
            b
            for b in buffers
            if self._viewable(b)
            and len(b.extents) == len(extents)
            and all(e >= x for e, x in zip(b.extents, extents, strict=True))
        ]
        if exact and (not roomy or chance(self.c, 60)):
            return self.c.choice(exact)
        if roomy:
            return self.view(self.c.choice(roomy), extents)
        return None

    def static(self, buffer: Buffer) -> Buffer:
        """`buffer` cast to its static extents where its type has `?` (xDSL's verifiers of
        `linalg.transpose` and `broadcast` want static extents)."""
        return self.w.recast(buffer, buffer.extents) if buffer.type.dynamic else buffer

    def input(self, extents: tuple[int, ...], avoid: int) -> Buffer:
        """A source as above, else a filled temporary."""
        return self.source(extents, avoid) or self.temporary(extents)

    def temporary(
        self, extents: tuple[int, ...], fill: bool = True, memref_type: MemrefType | None = None
    ) -> Buffer:
        """An allocation with a random layout (or `memref_type`'s), by type or assign, or none;
        filled if asked."""
        w, c = self.w, self.c
        if memref_type is None:
            memref_type = self._random_type(extents)
        assign = None
        if memref_type.layout is not None and c.boolean():
            assign, memref_type = memref_type, MemrefType(extents, self.element)
        kind = "alloca" if chance(c, 20) else "alloc"
        buffer = Buffer(w.allocate(memref_type, [], kind), memref_type, extents, -1)
        if assign is not None:
            w.assign(buffer, assign)
        if kind == "alloc":
            self.temporaries.append(buffer)
        if fill:
            self.fill_temporary(buffer)
        return buffer

    def _random_type(self, extents: tuple[int, ...]) -> MemrefType:
        if self.layout_for is None:
            return MemrefType(extents, self.element)
        return self.layout_for(extents)

    def fill_temporary(self, buffer: Buffer) -> None:
        choice = self.c.integer(0, 5)
        if choice == 0:
            self.fill(buffer)
        elif choice == 1 and (source := self.source(buffer.extents)) is not None:
            self.copy(source, buffer)
        else:
            self.formula(buffer)

    def free_temporaries(self) -> None:
        for buffer in self.temporaries:
            self.w.emit(f"memref.dealloc {buffer.name} : {self.w.token(buffer.type)}")
        self.temporaries = []

    def operands(self, *buffers: Buffer) -> str:
        names = ", ".join(b.name for b in buffers)
        types = ", ".join(self.w.token(b.type) for b in buffers)
        return f"{names} : {types}"

    def touch(self, *buffers: Buffer) -> None:
        self.w.touched.update(b.root for b in buffers if b.root >= 0)

    # ---- element values ---------------------------------------------------------------------
    def constant(self, value: float) -> str:
        """An element constant at the top of the function (visible in every body)."""
        text = literal(
            value if is_float(self.element) else wrap_integer(int(value), self.element),
            self.element,
        )
        return self.w.top_constant(text, self.element)

    def from_index(self, index: str) -> str:
        """An index value as an element (emitted where the writer stands)."""
        w = self.w
        if not is_float(self.element):
            value = w.fresh("iv")
            w.emit(f"{value} = arith.index_cast {index} : index to {self.element}")
            return value
        small, integer, value = w.fresh("ir"), w.fresh("ii"), w.fresh("iv")
        w.emit(f"{small} = arith.remui {index}, {w.top_constant(13)} : index")
        w.emit(f"{integer} = arith.index_cast {small} : index to i32")
        w.emit(f"{value} = arith.sitofp {integer} : i32 to {self.element}")
        return value

    def arith(self, op: str) -> str:
        if is_float(self.element):
            return {"add": "addf", "sub": "subf", "mul": "mulf"}[op]
        return {"add": "addi", "sub": "subi", "mul": "muli"}[op]

    # ---- statements ---------------------------------------------------------------------------
    def fill(self, target: Buffer) -> None:
        value = self.constant(self.c.choice([0.5, -3.0, 7.0, 2.0, 1.0]))
        self.w.features.add("linalg.fill")
        self.touch(target)
        self.w.emit(f"linalg.fill ins({value} : {self.element}) outs({self.operands(target)})")

    def copy(self, source: Buffer, target: Buffer) -> None:
        self.w.features.add("linalg.copy")
        self.touch(source, target)
        self.w.emit(f"linalg.copy ins({self.operands(source)}) outs({self.operands(target)})")

    def _generic(
        self,
        inputs: Sequence[tuple[Buffer, Sequence[str]]],
        target: Buffer,
        body: Callable[[list[str], str], str],
    ) -> None:
        """`linalg.generic` over the target's dims (all parallel): each input read through
        its map results, the target through the identity; `body` gets the block arguments
        and returns the yielded value."""
        w = self.w
        rank = len(target.extents)
        identity = [f"d{i}" for i in range(rank)]
        maps = _maps(rank, *(r for _, r in inputs), identity)
        iterators = ", ".join(['"parallel"'] * rank)
        ins = f"ins({self.operands(*(b for b, _ in inputs))}) " if inputs else ""
        w.emit(
            f"linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iterators}]}} "
            f"{ins}outs({self.operands(target)}) {{"
        )
        arguments = [w.fresh("in") for _ in inputs]
        out = w.fresh("out")
        block = ", ".join(f"{a}: {self.element}" for a in [*arguments, out])
        w.emit(f"^bb0({block}):")
        w.depth += 1
        w.emit(f"linalg.yield {body(arguments, out)} : {self.element}")
        w.depth -= 1
        w.emit("}")
        w.features.add("linalg.generic")
        self.touch(target, *(b for b, _ in inputs))

    def linalg_index(self, dims: Sequence[int]) -> str:
        """Σ k·(linalg.index d) + 1 over `dims`, as an element."""
        w = self.w
        w.features.add("linalg.index")
        total = w.top_constant(1)
        for d in dims:
            index, scaled, added = w.fresh("li"), w.fresh("ls"), w.fresh("la")
            w.emit(f"{index} = linalg.index {d} : index")
            w.emit(f"{scaled} = arith.muli {index}, {w.top_constant(self.c.integer(1, 7))} : index")
            w.emit(f"{added} = arith.addi {total}, {scaled} : index")
            total = added
        return self.from_index(total)

    def formula(self, target: Buffer) -> None:
        """Each element from its indices (a generic with no inputs)."""
        rank = len(target.extents)
        self._generic([], target, lambda args, out: self.linalg_index(range(rank)))

    def elementwise(self, target: Buffer) -> None:
        """target = f(source, target), the source read straight or through a permutation of
        equal extents (a transpose of a square), sometimes with `linalg.index` mixed in."""
        c, w = self.c, self.w
        rank = len(target.extents)
        results = [f"d{i}" for i in range(rank)]
        permuted = c.permutation(range(rank))
        if all(target.extents[p] == target.extents[i] for i, p in enumerate(permuted)):
            results = [f"d{p}" for p in permuted]
        source = self.input(tuple(target.extents[int(r[1:])] for r in results), target.root)
        if not is_float(self.element) and chance(c, 25):
            named = c.choice(["add", "mul"] if self.element == "i1" else ["add", "sub", "mul"])
            other = self.source(target.extents, target.root)
            if other is not None and results == [f"d{i}" for i in range(rank)]:
                w.features.update((f"linalg.{named}", "linalg named elementwise"))
                self.touch(source, other, target)
                w.emit(
                    f"linalg.{named} ins({self.operands(source, other)}) "
                    f"outs({self.operands(target)})"
                )
                return None
        op = c.choice(["add", "sub", "mul"])
        with_index = chance(c, 35)

        def body(args: list[str], out: str) -> str:
            value = w.fresh("g")
            left = args[0]
            if op == "mul":
                factor = self.constant(
                    c.choice([0.5, -1.0, 3.0] if is_float(self.element) else [3, -1, 2])
                )
                w.emit(f"{value} = arith.{self.arith('mul')} {left}, {factor} : {self.element}")
            else:
                w.emit(f"{value} = arith.{self.arith(op)} {left}, {out} : {self.element}")
            if with_index:
                mixed = w.fresh("g")
                index = self.linalg_index([c.integer(0, rank - 1)])
                w.emit(f"{mixed} = arith.{self.arith('add')} {value}, {index} : {self.element}")
                return mixed
            return value

        self._generic([(source, results)], target, body)
        return None

    def padded(self, target: Buffer) -> None:
        """A padded copy as frontends write one (`tensor.pad`, bufferized): a temporary's
        values copied into the interior of a larger temporary filled first (of the same tag
        layout as the first, often: `layout-schedule` then writes the window directly), the
        target a window of that."""
        c = self.c
        extents = target.extents
        inner_type = self._random_type(extents)
        outer_extents = tuple(e + c.integer(0, 2) for e in extents)
        layout = inner_type.layout
        if layout is not None and layout.kind == "tag" and chance(c, 60):
            outer_type = inner_type.with_shape(outer_extents)
        else:
            outer_type = self._random_type(outer_extents)
        inner = self.temporary(extents, memref_type=inner_type)
        outer = self.temporary(outer_extents, fill=False, memref_type=outer_type)
        self.fill(outer)
        offsets = [c.integer(0, o - e) for e, o in zip(extents, outer_extents, strict=True)]
        window = self._subview(outer, list(map(str, offsets)), offsets, extents, [1] * len(extents))
        self.copy(inner, window)
        self.w.features.add("padded copy")
        self.copy(self.view(outer, extents), target)
        return None

    def transpose(self, target: Buffer) -> None:
        """target = transpose(transpose(source, p), p⁻¹) through a temporary."""
        rank = len(target.extents)
        if rank < 2:
            return self.elementwise(target)
        source = self.static(self.input(target.extents, target.root))
        target = self.static(target)
        permutation = self.c.permutation(range(rank))
        inverse = [permutation.index(i) for i in range(rank)]
        temporary = self.temporary(tuple(target.extents[p] for p in permutation), fill=False)
        self.w.features.add("linalg.transpose")
        self.touch(source, target)
        for a, b, p in ((source, temporary, permutation), (temporary, target, inverse)):
            self.w.emit(
                f"linalg.transpose ins({self.operands(a)}) outs({self.operands(b)}) "
                f"permutation = [{', '.join(map(str, p))}]"
            )
        return None

    def reduce_broadcast(self, target: Buffer) -> None:
        """A temporary = the source summed over some dims; the target = it broadcast back."""
        rank = len(target.extents)
        if rank < 2:
            return self.elementwise(target)
        source = self.static(self.input(target.extents, target.root))
        target = self.static(target)
        dims = sorted(self.c.permutation(range(rank))[: self.c.integer(1, rank - 1)])
        kept = tuple(e for d, e in enumerate(target.extents) if d not in dims)
        temporary = self.temporary(kept, fill=False)
        self.fill(temporary)
        w = self.w
        w.features.update(("linalg.reduce", "linalg.broadcast"))
        self.touch(source, target)
        listed = ", ".join(map(str, dims))
        w.emit(
            f"linalg.reduce ins({self.operands(source)}) outs({self.operands(temporary)}) "
            f"dimensions = [{listed}]"
        )
        value, accumulator, total = w.fresh("rin"), w.fresh("racc"), w.fresh("rs")
        w.depth += 1
        w.emit(f"({value}: {self.element}, {accumulator}: {self.element}) {{")
        w.depth += 1
        w.emit(f"{total} = arith.{self.arith('add')} {value}, {accumulator} : {self.element}")
        w.emit(f"linalg.yield {total} : {self.element}")
        w.depth -= 1
        w.emit("}")
        w.depth -= 1
        w.emit(
            f"linalg.broadcast ins({self.operands(temporary)}) outs({self.operands(target)}) "
            f"dimensions = [{listed}]"
        )
        return None

    def named(self, kind: str, target: Buffer) -> None:
        """A named op with temporaries as inputs: matmuls, convolutions, poolings."""
        c, w = self.c, self.w
        e = target.extents
        attributes = ""
        most = 1 if self.large else 3
        if kind == "matmul":
            k = c.integer(1, most + 1)
            shapes = [(e[0], k), (k, e[1])]
            op = "linalg.matmul"
        elif kind == "batch_matmul":
            k = c.integer(1, most)
            shapes = [(e[0], e[1], k), (e[0], k, e[2])]
            op = "linalg.batch_matmul"
        else:
            kh, kw = c.integer(1, most), c.integer(1, most)
            strides, dilations = (c.integer(1, 2), c.integer(1, 2)), (c.integer(1, 2), 1)
            if chance(c, 50):
                strides, dilations = (1, 1), (1, 1)
            else:
                attributes = (
                    f" {{dilations = dense<[{dilations[0]}, {dilations[1]}]> : tensor<2xi64>, "
                    f"strides = dense<[{strides[0]}, {strides[1]}]> : tensor<2xi64>}}"
                )
            channels = c.integer(1, most)
            spatial = (2, 3) if kind != "conv_nhwc" else (1, 2)
            hi = (e[spatial[0]] - 1) * strides[0] + (kh - 1) * dilations[0] + 1
            wi = (e[spatial[1]] - 1) * strides[1] + (kw - 1) * dilations[1] + 1
            if kind == "conv_nchw":
                shapes = [(e[0], channels, hi, wi), (e[1], channels, kh, kw)]
                op = "linalg.conv_2d_nchw_fchw"
            elif kind == "conv_nhwc":
                shapes = [(e[0], hi, wi, channels), (kh, kw, channels, e[3])]
                op = "linalg.conv_2d_nhwc_hwcf"
            elif kind == "depthwise":
                shapes = [(e[0], e[1], hi, wi), (e[1], kh, kw)]
                op = "linalg.depthwise_conv_2d_nchw_chw"
            else:
                shapes = [(e[0], e[1], hi, wi), (kh, kw)]
                op = "linalg." + c.choice(["pooling_nchw_sum", "pooling_nchw_max"])
        inputs = [self.temporary(tuple(s)) for s in shapes]
        w.features.add(op)
        self.touch(target)
        w.emit(f"{op}{attributes} ins({self.operands(*inputs)}) outs({self.operands(target)})")

    def statement(self) -> None:
        """One linalg statement into a random target (temporaries freed after it)."""
        target = self.target()
        if target is None:
            return
        self.write(target)

    def write(self, target: Buffer) -> None:
        rank = len(target.extents)
        kinds = ["fill", "copy", "elementwise", "elementwise", "formula"]
        if rank >= 2:
            kinds += ["transpose", "transpose", "reduce", "reduce"]
        if rank == 2:
            kinds += ["matmul", "matmul", "matmul"]
        if rank == 3:
            kinds += ["batch_matmul", "batch_matmul"]
        if rank == 4:
            kinds += ["conv_nchw", "conv_nhwc", "depthwise", "pooling"] * 2
        kind = self.c.choice(kinds)
        if kind == "fill":
            self.fill(target)
        elif kind == "copy" and chance(self.c, 25):
            self.padded(target)
        elif kind == "copy":
            self.copy(self.input(target.extents, target.root), target)
        elif kind == "formula":
            self.formula(target)
        elif kind == "elementwise":
            self.elementwise(target)
        elif kind == "transpose":
            self.transpose(target)
        elif kind == "reduce":
            self.reduce_broadcast(target)
        else:
            assert kind in NAMED_MAC
            self.named(kind, target)
        self.free_temporaries()
