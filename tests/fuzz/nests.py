"""Loop nests `layout-schedule` takes: whole-buffer maps, contractions and, on `i1`, bit
counts.

A nest is a chain of `affine.for` (with `affine.load/store`) or `scf.for` (with
`memref.load/store`) loops of constant bounds (a padded convolution's window: max/min maps
of an output loop), one per dim of the iteration space, in a random order, around
straight-line code: what the schedule strip-mines, interchanges and vectorizes, and on
packed `i1` layouts turns into whole-word code (`passes/schedule/packed_words.py`).

- map: `T[i] = f(S[i], …)` for a target T and sources of its extents (T itself included),
  f adding or multiplying a constant, or on floats a cube (`math.fpowi` by 3, as frontends
  write GELU's `x ** 3`);
  on `i1`, f is xor/and/or with a second buffer or `true`: the schedule then computes a
  container's lanes at once and stores each word once.
- count (`i1`): `counts[i without r] += extui(a[i] ⊙ b[i])` (⊙: xor, and, or, ==) into a
  fresh `i32` buffer along one dim r, the XNOR-popcount shape the schedule turns into
  `math.ctpop` per word; the counts are printed from the function itself.
- contraction (other elements): a matmul `out[i, j] += a[i, k] * b[k, j]` (either operand
  transposed), a convolution
  `out[c, h, w] += x[k, h·s + r·d - p, w·s + q·d - p] * f[c, k, r, q]` (padded, p > 0, its
  window's loops bounded by max/min maps) or a row sum / maximum `out[i] = out[i] ⊕ a[i, r]`
  into a fresh buffer (or a small writable buffer of the function, with its layout, views
  and `?` dims), its operands fresh buffers, each of a random layout or none, filled
  with small whole numbers by nests of their own; sometimes an element-wise epilogue follows
  (a bias along the first dim, a ReLU), as frontends write a layer; the result is printed.
  Whole numbers keep every sum exact in any order, so the schedule's reassociated, blocked
  and fused sums (`layout-schedule{fma=true reassociate=true}`) must print what the plain
  program does; 1 in 6 sums has more than 256 terms (`passes/schedule/blocked_sums.py`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tests.fuzz.choices import chance
from tests.fuzz.functions import Buffer
from tests.fuzz.layouts import INTEGER_BITS, FuzzLayout, random_layout
from tests.fuzz.text import MemrefType, is_float, literal, vector_print, wrap_integer

if TYPE_CHECKING:
    from tests.fuzz.bodies import Writer

CONTRACTION_PERCENT = 50
"""Nest statements on elements other than `i1` that are contractions (the rest are maps)."""
RESULT_ELEMENTS = 256
"""The most elements of a function's buffer a contraction writes into."""
LONG_SUM = (257, 300)
"""The terms of a long sum: more than the 256 `layout-schedule` adds in one run."""


@dataclass(frozen=True)
class Bound:
    """A loop that runs from `max low(outer)` to `min high(outer)`: maps of one dim."""

    outer: int
    low: str
    high: str


class Nests:
    def __init__(self, writer: Writer) -> None:
        self.w = writer
        self.c = writer.c
        self.temporaries: list[Buffer] = []

    def loops(self, extents: Sequence[int], affine: bool) -> list[str]:
        """Open one loop per dim, in a random order; the induction variable of each dim."""
        w = self.w
        ivs = [w.fresh("n") for _ in extents]
        for d in self.c.permutation(range(len(extents))):
            if affine:
                w.emit(f"affine.for {ivs[d]} = 0 to {extents[d]} {{")
            else:
                lower, upper, step = (w.top_constant(v) for v in (0, extents[d], 1))
                w.emit(f"scf.for {ivs[d]} = {lower} to {upper} step {step} {{")
            w.depth += 1
        return ivs

    def close(self, count: int) -> None:
        for _ in range(count):
            self.w.depth -= 1
            self.w.emit("}")

    def load(self, buffer: Buffer, ivs: Sequence[str], affine: bool, element: str) -> str:
        value = self.w.fresh("nv")
        op = "affine.load" if affine else "memref.load"
        self.w.emit(f"{value} = {op} {buffer.name}[{', '.join(ivs)}] : {self.w.token(buffer.type)}")
        return value

    def store(self, value: str, buffer: Buffer, ivs: Sequence[str], affine: bool) -> None:
        op = "affine.store" if affine else "memref.store"
        self.w.emit(f"{op} {value}, {buffer.name}[{', '.join(ivs)}] : {self.w.token(buffer.type)}")

    def sources(self, extents: tuple[int, ...]) -> list[Buffer]:
        return [b for b in self.w.buffers if b.extents == extents]

    def packed(self, extents: tuple[int, ...], dim: int) -> Buffer:
        """A fresh i1 buffer whose lanes along `dim` are packed into integer words (a
        `layout.assign` or its type), freed by `free`."""
        w, c = self.w, self.c
        letters = "".join(c.permutation("ABCDEFGH")[: len(extents)])
        lanes = c.choice([min(extents[dim], 64), 8, 16, 32, 64, c.integer(2, 64)])
        container = c.choice([k for k in (8, 16, 32, 64) if k >= lanes])
        order = c.choice(["", ', bit_order = "msb"'])
        text = f'#layout.tag<"{letters}->{letters}{lanes}{letters[dim].lower()}", pack = i{container}{order}>'
        layout = MemrefType(extents, "i1", FuzzLayout("packed-int", text))
        w.features.add("nest on packed i1")
        if c.boolean():
            buffer = Buffer(w.allocate(layout, []), layout, extents, -1)
        else:
            plain = MemrefType(extents, "i1")
            buffer = Buffer(w.allocate(plain, []), plain, extents, -1)
            w.assign(buffer, layout)
        self.temporaries.append(buffer)
        return buffer

    def packed_copy(self, source: Buffer, dim: int) -> Buffer:
        """`source` copied or converted into a packed buffer."""
        buffer = self.packed(source.extents, dim)
        self.w.move(source, buffer)
        return buffer

    def free(self) -> None:
        for buffer in self.temporaries:
            self.w.emit(f"memref.dealloc {buffer.name} : {self.w.token(buffer.type)}")
        self.temporaries = []

    def statement(self) -> None:
        w = self.w
        writable = [b for b in w.buffers if b.writable]
        if w.element == "i1" and chance(self.c, 50):
            self.count()
        elif w.element != "i1" and chance(self.c, CONTRACTION_PERCENT):
            self.contraction()
        elif writable:
            target = self.c.choice(writable)
            if w.element == "i1" and chance(self.c, 60):  # into packed words, then back
                packed = self.packed(target.extents, self.c.integer(0, len(target.extents) - 1))
                self.map(packed)
                w.move(packed, target)
            else:
                self.map(target)
        self.free()

    def map(self, target: Buffer) -> None:
        w, c = self.w, self.c
        element = w.element
        affine = c.boolean()
        w.features.add("nest map" + (" i1" if element == "i1" else ""))
        w.touched.add(target.root)
        source = c.choice(self.sources(target.extents))
        w.touched.add(source.root)
        ivs = self.loops(target.extents, affine)
        value = self.load(source, ivs, affine, element)
        result = w.fresh("nr")
        if element == "i1":
            op = c.choice(["xori", "andi", "ori"])
            other = (
                self.load(c.choice(self.sources(target.extents)), ivs, affine, element)
                if chance(c, 60)
                else w.top_constant(1, "i1")
            )
            w.emit(f"{result} = arith.{op} {value}, {other} : i1")
        else:
            op = c.choice(["add", "mul"])
            name = {"add": "addf", "mul": "mulf"}[op] if is_float(element) else f"{op}i"
            factor = (
                c.choice([0.5, -1.0, 3.0])
                if is_float(element)
                else wrap_integer(c.choice([3, -1, 2]), element)
            )
            if is_float(element) and op == "mul" and factor == 3.0:
                w.features.add("nest map fpowi")
                power = w.top_constant(3, "i32")
                w.emit(f"{result} = math.fpowi {value}, {power} : {element}, i32")
            else:
                constant = w.top_constant(literal(factor, element), element)
                w.emit(f"{result} = arith.{name} {value}, {constant} : {element}")
        self.store(result, target, ivs, affine)
        self.close(len(ivs))

    def count(self) -> None:
        """Bit counts along one dim of two i1 buffers of one shape into a fresh i32 buffer,
        printed."""
        w, c = self.w, self.c
        a = c.choice(w.buffers)
        b = c.choice(self.sources(a.extents))
        w.touched.update((a.root, b.root))
        reduced = c.integer(0, len(a.extents) - 1)
        if chance(c, 60):  # packed words: one operand or both (the other read as bits)
            a = self.packed_copy(a, reduced)
            if c.boolean():
                b = self.packed_copy(b, reduced)
        kept = tuple(e for d, e in enumerate(a.extents) if d != reduced) or (1,)
        counts = Buffer(
            w.allocate(MemrefType(kept, "i32"), [], "alloca"), MemrefType(kept, "i32"), kept, -1
        )
        w.features.add("nest count i1")
        affine = c.boolean()
        zero = w.top_constant(0, "i32")
        ivs = self.loops(kept, affine)
        self.store(zero, counts, ivs, affine)
        self.close(len(ivs))
        ivs = self.loops(a.extents, affine)
        at = [iv for d, iv in enumerate(ivs) if d != reduced] or [w.top_constant(0)]
        x = self.load(a, ivs, affine, "i1")
        y = self.load(b, ivs, affine, "i1")
        bit, one, acc, total = (w.fresh("nc") for _ in range(4))
        op = c.choice(["xori", "andi", "ori", "cmpi eq,"])
        w.emit(f"{bit} = arith.{op} {x}, {y} : i1")
        extend = c.choice(["extui", "extui", "extsi"])
        w.emit(f"{one} = arith.{extend} {bit} : i1 to i32")
        w.emit(
            f"{acc} = {'affine.load' if affine else 'memref.load'} {counts.name}[{', '.join(at)}] : {w.token(counts.type)}"
        )
        subtract = chance(c, 25)
        w.emit(f"{total} = arith.{'subi' if subtract else 'addi'} {acc}, {one} : i32")
        self.store(total, counts, at, affine)
        self.close(len(ivs))
        self.print_buffer(counts)

    # ---- contractions ------------------------------------------------------------------------
    def contraction(self) -> None:
        """A matmul, convolution or row reduction into a fresh buffer, printed (the module
        docstring)."""
        w, c = self.w, self.c
        form = c.choice(["matmul", "matmul", "convolution", "convolution", "row"])
        long = chance(c, 16)
        w.features.add(f"nest {form}" + (" long" if long else ""))
        affine = c.boolean()
        if form == "matmul":
            out = self.result((self.extent(), self.extent()))
            i, j = out.extents
            k = self.terms(long, 1)
            a_transposed, b_transposed = chance(c, 30), chance(c, 30)
            a = self.operand((k, i) if a_transposed else (i, k))
            b = self.operand((j, k) if b_transposed else (k, j))
            # loop dims: 0 = i, 1 = j, 2 = k
            reads = [
                (a, ["d2", "d0"] if a_transposed else ["d0", "d2"]),
                (b, ["d1", "d2"] if b_transposed else ["d2", "d1"]),
            ]
            self.contract(out, ["d0", "d1"], (i, j, k), reads, "add", affine)
        elif form == "convolution":
            self.convolution(long, affine)
            return
        else:
            out = self.result((self.extent(),))
            rows, terms = out.extents[0], self.terms(long, 1)
            transposed = chance(c, 30)
            a = self.operand((terms, rows) if transposed else (rows, terms))
            index = ["d1", "d0"] if transposed else ["d0", "d1"]
            operation = c.choice(["add", "max"])
            self.contract(out, ["d0"], (rows, terms), [(a, index)], operation, affine)
        self.print_buffer(out)
        self.free()

    def convolution(self, long: bool, affine: bool) -> None:
        """`out[c, h, w] += x[k, h·s + r·d - p, w·s + q·d - p] * f[c, k, r, q]`; padded (p > 0,
        affine, d = 1) the window's loops run between a max and a min, as a padded
        convolution's loops are written, so only rows and columns inside `x` are read."""
        w, c = self.w, self.c
        stride, dilation = c.choice([1, 1, 2]), c.choice([1, 1, 2])
        window = c.choice([1, 2, 3])
        channels = self.terms(long, window * window)
        out = self.result((c.integer(1, 5), c.integer(1, 5), c.integer(1, 5)))
        outputs, height, width = out.extents
        pad = c.integer(1, window - 1) if affine and window > 1 and chance(c, 70) else 0
        if pad:
            dilation = 1

        def span(n: int) -> int:
            return max((n - 1) * stride + (window - 1) * dilation + 1 - 2 * pad, 1)

        rows, columns = span(height), span(width)
        x = self.operand((channels, rows, columns))
        f = self.operand((outputs, channels, window, window))
        # loop dims: 0 = c, 1 = h, 2 = w, 3 = k, 4 = r, 5 = q
        shift = f" - {pad}" if pad else ""
        reads = [
            (
                x,
                [
                    "d3",
                    f"d1 * {stride} + d4 * {dilation}{shift}",
                    f"d2 * {stride} + d5 * {dilation}{shift}",
                ],
            ),
            (f, ["d0", "d3", "d4", "d5"]),
        ]
        bounds: dict[int, Bound] = {}
        if pad:
            w.features.add("nest convolution padded")
            for dim, outer, extent in ((4, 1, rows), (5, 2, columns)):
                low = f"affine_map<(d0) -> (0, {pad} - d0 * {stride})>"
                high = f"affine_map<(d0) -> ({window}, {extent + pad} - d0 * {stride})>"
                bounds[dim] = Bound(outer, low, high)
        extents = (outputs, height, width, channels, window, window)
        self.contract(out, ["d0", "d1", "d2"], extents, reads, "add", affine, bounds)
        self.print_buffer(out)
        self.free()

    def result(self, extents: tuple[int, ...]) -> Buffer:
        """Where a contraction writes: a fresh buffer of `extents`, or half the time a
        writable buffer of the function of that rank and at most `RESULT_ELEMENTS` elements
        (its layout, views and `?` dims with it), whose extents then hold."""
        w = self.w
        own = [
            b
            for b in w.buffers
            if b.writable
            and len(b.extents) == len(extents)
            and math.prod(b.extents) <= RESULT_ELEMENTS
        ]
        if own and chance(self.c, 50):
            buffer = self.c.choice(own)
            w.touched.add(buffer.root)
            w.features.add("nest contraction into an argument")
            return buffer
        return self.fresh(extents)

    def extent(self) -> int:
        return self.c.choice([1, 2, 3, 4, 5, 7, 8, 9, 16, 17])

    def terms(self, long: bool, per_term: int) -> int:
        """The extent of a reduced dim: a sum of more than 256 terms when `long`."""
        if long:
            return -(-self.c.integer(*LONG_SUM) // per_term)
        return self.c.choice([1, 2, 3, 5, 8, 13, 16, 20])

    def layout_type(self, extents: tuple[int, ...]) -> MemrefType:
        w = self.w
        layout = random_layout(self.c, extents, w.element) if chance(self.c, 60) else None
        if layout is not None:
            w.features.add(f"layout {layout.kind}")
        return MemrefType(extents, w.element, layout)

    def fresh(self, extents: tuple[int, ...]) -> Buffer:
        """A fresh allocation, of a random layout (in its type or assigned) or none, freed by
        `free`."""
        w = self.w
        memref_type = self.layout_type(extents)
        if memref_type.layout is not None and self.c.boolean():
            plain = MemrefType(extents, w.element)
            buffer = Buffer(w.allocate(plain, []), plain, extents, -1)
            w.assign(buffer, memref_type)
        else:
            buffer = Buffer(w.allocate(memref_type, []), memref_type, extents, -1)
        self.temporaries.append(buffer)
        return buffer

    def operand(self, extents: tuple[int, ...]) -> Buffer:
        """A fresh buffer of small whole numbers: ((Σ p_d · i_d + q) mod m) - m // 2, with m
        small enough that no partial sum of the contraction leaves the whole numbers the
        element holds exactly (f16: 2048)."""
        w, c = self.w, self.c
        buffer = self.fresh(extents)
        modulus = 3 if w.element == "f16" else c.choice([3, 5, 7])
        affine = c.boolean()
        ivs = self.loops(extents, affine)
        total = w.top_constant(c.integer(0, 6))
        for iv in ivs:
            product, added = w.fresh("nf"), w.fresh("nf")
            w.emit(f"{product} = arith.muli {iv}, {w.top_constant(c.integer(1, 5))} : index")
            w.emit(f"{added} = arith.addi {total}, {product} : index")
            total = added
        remainder, centred = w.fresh("nf"), w.fresh("nf")
        w.emit(f"{remainder} = arith.remui {total}, {w.top_constant(modulus)} : index")
        w.emit(f"{centred} = arith.subi {remainder}, {w.top_constant(modulus // 2)} : index")
        self.store(self.element_of(centred), buffer, ivs, affine)
        self.close(len(ivs))
        return buffer

    def element_of(self, index: str) -> str:
        """An index value as the element type."""
        w = self.w
        value = w.fresh("nf")
        if not is_float(w.element):
            w.emit(f"{value} = arith.index_cast {index} : index to {w.element}")
            return value
        integer = w.fresh("nf")
        w.emit(f"{integer} = arith.index_cast {index} : index to i32")
        w.emit(f"{value} = arith.sitofp {integer} : i32 to {w.element}")
        return value

    def initial(self, operation: str) -> str:
        """The reduction's start: 0, or the least value for a maximum."""
        w = self.w
        if operation == "add":
            return w.top_constant(literal(0, w.element), w.element)
        if is_float(w.element):
            return w.top_constant(literal(-10000.0, w.element), w.element)
        bits = INTEGER_BITS[w.element]
        return w.top_constant(wrap_integer(1 << (bits - 1), w.element), w.element)

    def contract(
        self,
        out: Buffer,
        kept: list[str],
        extents: tuple[int, ...],
        reads: list[tuple[Buffer, list[str]]],
        operation: str,
        affine: bool,
        bounds: Mapping[int, Bound] | None = None,
    ) -> None:
        """`out[kept] = out[kept] ⊕ Π reads` over loops of `extents` (index expressions in
        the loops' dims `d0`, `d1`, …), after a nest that sets `out` to the start value, and
        followed, for sums, by an epilogue half the time."""
        w, c = self.w, self.c
        start = self.initial(operation)
        ivs = self.loops(out.extents, affine)
        self.store(start, out, ivs, affine)
        self.close(len(ivs))
        ivs = self.bounded_loops(extents, bounds) if bounds else self.loops(extents, affine)
        names = {f"d{d}": iv for d, iv in enumerate(ivs)}
        values = [
            self.load(buffer, self.indices(index, names, affine), affine, w.element)
            for buffer, index in reads
        ]
        at = self.indices(kept, names, affine)
        accumulated = self.load(out, at, affine, w.element)
        term = values[0]
        for value in values[1:]:
            product = w.fresh("nk")
            w.emit(
                f"{product} = arith.{'mulf' if is_float(w.element) else 'muli'} {term}, {value} : {w.element}"
            )
            term = product
        total = w.fresh("nk")
        if operation == "add":
            op = "addf" if is_float(w.element) else "addi"
        else:
            op = "maximumf" if is_float(w.element) else "maxsi"
        w.emit(f"{total} = arith.{op} {accumulated}, {term} : {w.element}")
        self.store(total, out, at, affine)
        self.close(len(ivs))
        if operation == "add" and c.boolean():
            self.epilogue(out, affine)

    def bounded_loops(self, extents: tuple[int, ...], bounds: Mapping[int, Bound]) -> list[str]:
        """`affine.for` loops as `loops` opens them, where a dim of `bounds` runs from a max
        to a min of maps of its outer dim (opened after it)."""
        w = self.w
        ivs = [w.fresh("n") for _ in extents]
        order = self.c.permutation(range(len(extents)))
        for dim, bound in bounds.items():
            first, second = order.index(bound.outer), order.index(dim)
            if second < first:
                order[first], order[second] = dim, bound.outer
        for d in order:
            if d in bounds:
                outer = ivs[bounds[d].outer]
                w.emit(
                    f"affine.for {ivs[d]} = max {bounds[d].low}({outer}) to min {bounds[d].high}({outer}) {{"
                )
            else:
                w.emit(f"affine.for {ivs[d]} = 0 to {extents[d]} {{")
            w.depth += 1
        return ivs

    def indices(self, exprs: list[str], names: dict[str, str], affine: bool) -> list[str]:
        """Index expressions in the loops' dims: inline in an affine access, else computed
        with `arith` on `index` values."""
        if affine:
            out = []
            for expr in exprs:
                for name in sorted(names, key=len, reverse=True):
                    expr = expr.replace(name, names[name])
                out.append(expr)
            return out
        return [self.arith_index(expr, names) for expr in exprs]

    def arith_index(self, expr: str, names: dict[str, str]) -> str:
        """`dA * s + dB * t` (or `dA`) with `arith.muli` / `addi`."""
        w = self.w
        terms = []
        for part in expr.split(" + "):
            name, _, factor = part.partition(" * ")
            value = names[name]
            if factor and factor != "1":
                scaled = w.fresh("ni")
                w.emit(f"{scaled} = arith.muli {value}, {w.top_constant(int(factor))} : index")
                value = scaled
            terms.append(value)
        total = terms[0]
        for value in terms[1:]:
            added = w.fresh("ni")
            w.emit(f"{added} = arith.addi {total}, {value} : index")
            total = added
        return total

    def epilogue(self, out: Buffer, affine: bool) -> None:
        """`out = relu(out + bias[first dim])`, or one of the two (a layer's bias and
        activation, which the schedule fuses into the contraction)."""
        w, c = self.w, self.c
        w.features.add("nest epilogue")
        bias = self.operand(out.extents[:1]) if c.boolean() else None
        relu = bias is None or c.boolean()
        ivs = self.loops(out.extents, affine)
        value = self.load(out, ivs, affine, w.element)
        if bias is not None:
            added = w.fresh("ne")
            term = self.load(bias, ivs[:1], affine, w.element)
            w.emit(
                f"{added} = arith.{'addf' if is_float(w.element) else 'addi'} {value}, {term} : {w.element}"
            )
            value = added
        if relu:
            zero = w.top_constant(literal(0, w.element), w.element)
            rectified = w.fresh("ne")
            op = "maximumf" if is_float(w.element) else "maxsi"
            w.emit(f"{rectified} = arith.{op} {value}, {zero} : {w.element}")
            value = rectified
        self.store(value, out, ivs, affine)
        self.close(len(ivs))

    def print_buffer(self, buffer: Buffer) -> None:
        w = self.w
        ivs = self.loops(buffer.extents, False)
        value = w.fresh("np")
        w.emit(f"{value} = memref.load {buffer.name}[{', '.join(ivs)}] : {w.token(buffer.type)}")
        w.emit(vector_print(value, buffer.type.element))
        self.close(len(ivs))
