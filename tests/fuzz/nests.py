"""Loop nests `layout-schedule` takes: whole-buffer maps and, on `i1`, bit counts.

A nest is a chain of `affine.for` (with `affine.load/store`) or `scf.for` (with
`memref.load/store`) loops of constant bounds, one per dim of a buffer, in a random order,
around straight-line code: what the schedule strip-mines, interchanges and vectorizes, and on
packed `i1` layouts turns into whole-word code (`passes/schedule/packed_words.py`).

- map: `T[i] = f(S[i], …)` for a target T and sources of its extents (T itself included),
  f adding or multiplying a constant, or on floats a cube (`math.fpowi` by 3, as frontends
  write GELU's `x ** 3`);
  on `i1`, f is xor/and/or with a second buffer or `true`: the schedule then computes a
  container's lanes at once and stores each word once.
- count (`i1`): `counts[i without r] += extui(a[i] ⊙ b[i])` (⊙: xor, and, or, ==) into a
  fresh `i32` buffer along one dim r, the XNOR-popcount shape the schedule turns into
  `math.ctpop` per word; the counts are printed from the function itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tests.fuzz.choices import chance
from tests.fuzz.functions import Buffer
from tests.fuzz.layouts import FuzzLayout
from tests.fuzz.text import MemrefType, is_float, literal, vector_print, wrap_integer

if TYPE_CHECKING:
    from tests.fuzz.bodies import Writer


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
        ivs = self.loops(kept, False)
        printed = w.fresh("np")
        w.emit(f"{printed} = memref.load {counts.name}[{', '.join(ivs)}] : {w.token(counts.type)}")
        w.emit(vector_print(printed, "i32"))
        self.close(len(ivs))
