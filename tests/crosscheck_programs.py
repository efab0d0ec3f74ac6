"""Self-contained MLIR programs over layout-typed buffers, with their numpy expectations.

One program per layout kind (tag, named formats, HTP chunked and an alias, `#layout.map`,
`#layout.strided`, MLIR's builtin `affine_map<…>` and `strided<…>` layouts). Each is a
`func.func @main()` without arguments that `mlir-runner` can execute once `layout-lower`
has made it upstream-only: it allocates a layout-typed buffer, fills it from its logical
index, touches it with every kind of access the lowering rewrites (memref/affine scalar and
vector loads and stores, `memref.dim`, `scf.for`/`affine.for` reductions, a call to a private
function taking the layout buffer, `layout.convert` into a second layout and back into a
plain buffer) and prints with `vector.print` and `printMemref*`.

The expectation is computed here with numpy over the logical index space only: it never
consults the Layout model, so it is an independent formulation of what the program computes.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from heterolayout import parse_layout

Number = int | float
Index = tuple[int, ...]

F32_EXACT_LIMIT = 2.0**22
"""Multiples of 1/4 below this magnitude are exact in f32 (24-bit significand), so f32
sums of such values do not depend on the summation order."""
F32_SCALE = 4
"""f32 reductions are printed as the integer `F32_SCALE * sum`: `vector.print` of a float
keeps only 6 significant digits, the integer keeps them all."""


@dataclass(frozen=True)
class ProgramSpec:
    """What one cross-check program does; `build` turns it into MLIR text and numbers."""

    name: str
    shape: Index
    element: str
    """i32, i64 or f32."""
    layout: str
    """The layout attribute in the buffer's memref type, as written in MLIR."""
    second: str
    """The layout of the `layout.convert` destination."""
    probes: tuple[Index, ...]
    """Indices read with memref.load and printed."""
    store_at: Index
    """memref.store of `STORED` there, read back with affine.load."""
    vector_store_at: Index
    """vector.store of `vector_length` constants along the innermost logical dim."""
    vector_load_at: Index
    """vector.load along the innermost logical dim, printed."""
    affine_vector_load_at: Index
    """affine.vector_load (constant indices) along the innermost logical dim, printed."""
    vector_length: int

    @property
    def rank(self) -> int:
        return len(self.shape)


@dataclass(frozen=True)
class PrintedOutput:
    """What a program prints: the `vector.print` lines (their numbers), then the plain
    buffer's shape and data from `printMemref*`."""

    lines: tuple[tuple[Number, ...], ...]
    shape: Index
    data: tuple[Number, ...]


@dataclass(frozen=True)
class CrosscheckProgram:
    spec: ProgramSpec
    text: str
    expected: PrintedOutput

    @property
    def name(self) -> str:
        return self.spec.name


# ---- the element formula, in numpy and in MLIR -------------------------------------------
STORED: dict[str, Number] = {"i32": 77777, "i64": (1 << 40) + 5, "f32": 99.75}
VECTOR_VALUES: dict[str, tuple[Number, ...]] = {
    "i32": (-11, -22, -33, -44, -55, -66, -77, -88),
    "i64": (-(1 << 33), -2, -3, -4, -5, -6, -7, -8),
    "f32": (-1.5, -2.25, -3.0, -4.75, -5.5, -6.25, -7.0, -8.75),
}


def element_values(element: str, linear: np.ndarray) -> np.ndarray:
    """The fill value of each logical element from its row-major linear index."""
    if element == "i32":
        return 3 * linear - 1000
    if element == "i64":
        return 1_000_003 * linear - 7
    if element == "f32":
        return 0.25 * (linear % 509) - 60.0
    raise ValueError(f"unsupported element type {element}")


def checksum_weights(shape: Index) -> np.ndarray:
    """The weight of each element in @checksum: 1 + (innermost index mod 4)."""
    return 1 + np.indices(shape)[-1] % 4


def expected_output(spec: ProgramSpec) -> PrintedOutput:
    """The program's output, computed with numpy over the logical index space."""
    size = math.prod(spec.shape)
    values = element_values(spec.element, np.arange(size, dtype=np.int64)).reshape(spec.shape)
    dtype = np.float64 if spec.element == "f32" else np.int64
    array = values.astype(dtype)
    array[spec.store_at] = STORED[spec.element]
    array[_row(spec.vector_store_at, spec.vector_length)] = VECTOR_VALUES[spec.element][
        : spec.vector_length
    ]

    lines: list[tuple[Number, ...]] = [(extent,) for extent in spec.shape]
    lines += [(_number(array[p]),) for p in spec.probes]
    lines.append((_number(array[spec.store_at]),))
    lines.append(tuple(_number(v) for v in array[_row(spec.vector_load_at, spec.vector_length)]))
    lines.append(
        tuple(_number(v) for v in array[_row(spec.affine_vector_load_at, spec.vector_length)])
    )
    total = array.sum()
    weighted = (array * checksum_weights(spec.shape)).sum()
    if spec.element == "f32":
        _check_f32_exact(spec, array)
        total, weighted = F32_SCALE * total, F32_SCALE * weighted
    lines += [(int(total),), (int(weighted),)]
    if spec.element == "i32":
        assert np.abs(array).max() < 2**31, f"{spec.name}: i32 values overflow"
    return PrintedOutput(tuple(lines), spec.shape, tuple(_number(v) for v in array.ravel()))


def _check_f32_exact(spec: ProgramSpec, array: np.ndarray) -> None:
    """Every f32 value and partial sum is a multiple of 1/4 below 2^22, hence exact."""
    weighted = array * checksum_weights(spec.shape)
    assert np.all(array * F32_SCALE == np.round(array * F32_SCALE)), spec.name
    assert np.abs(weighted).sum() < F32_EXACT_LIMIT, f"{spec.name}: f32 sums would round"
    for value in array.ravel():
        assert f"{value:g}" == _float_text(value), f"{spec.name}: {value} prints inexactly"


def _float_text(value: float) -> str:
    return str(int(value)) if value == int(value) else repr(float(value))


def _row(at: Index, length: int) -> tuple[int | slice, ...]:
    return (*at[:-1], slice(at[-1], at[-1] + length))


def _number(value: np.generic | Number) -> Number:
    number = value.item() if isinstance(value, np.generic) else value
    return int(number) if isinstance(number, int) else float(number)


# ---- MLIR text ---------------------------------------------------------------------------
def memref_type(shape: Index, element: str, layout: str | None = None) -> str:
    dims = "x".join(str(e) for e in shape)
    return f"memref<{dims}x{element}" + (f", {layout}>" if layout else ">")


@dataclass
class _Function:
    """A function body under construction; constants are hoisted to its entry."""

    constants: dict[tuple[str, str], str] = field(default_factory=dict)
    prologue: list[str] = field(default_factory=list)
    body: list[str] = field(default_factory=list)
    counter: int = 0
    depth: int = 1

    def fresh(self, stem: str = "v") -> str:
        self.counter += 1
        return f"%{stem}{self.counter}"

    def constant(self, value: Number | str, type_: str) -> str:
        key = (str(value), type_)
        if key not in self.constants:
            name = f"%k{len(self.constants)}"
            self.constants[key] = name
            self.prologue.append(f"    {name} = arith.constant {value} : {type_}")
        return self.constants[key]

    def index(self, value: int) -> str:
        return self.constant(value, "index")

    def emit(self, line: str) -> None:
        self.body.append("  " * (self.depth + 1) + line)

    def op(self, text: str, stem: str = "v") -> str:
        name = self.fresh(stem)
        self.emit(f"{name} = {text}")
        return name

    def lines(self) -> list[str]:
        return self.prologue + self.body


class _Program:
    """Writes the MLIR text of one spec."""

    def __init__(self, spec: ProgramSpec) -> None:
        self.spec = spec
        self.element = spec.element
        self.type = memref_type(spec.shape, spec.element, spec.layout)
        self.second_type = memref_type(spec.shape, spec.element, spec.second)
        self.plain_type = memref_type(spec.shape, spec.element)
        self.accumulator = "f32" if spec.element == "f32" else "i64"

    # ---- helpers
    def _constant_indices(self, at: Index) -> str:
        return ", ".join(str(i) for i in at)

    def _indices(self, f: _Function, at: Index) -> str:
        return ", ".join(f.index(i) for i in at)

    def _element_constant(self, f: _Function, value: Number) -> str:
        return f.constant(_literal(value, self.element), self.element)

    def _vector_constant(self, f: _Function, values: Sequence[Number]) -> str:
        items = ", ".join(_literal(v, self.element) for v in values)
        return f.constant(f"dense<[{items}]>", f"vector<{len(values)}x{self.element}>")

    def _fill_value(self, f: _Function, linear: str) -> str:
        e = self.element
        if e == "f32":
            rem = f.op(f"arith.remui {linear}, {f.index(509)} : index")
            small = f.op(f"arith.index_cast {rem} : index to i32")
            as_float = f.op(f"arith.sitofp {small} : i32 to f32")
            scaled = f.op(f"arith.mulf {as_float}, {f.constant('0.25', 'f32')} : f32")
            return f.op(f"arith.subf {scaled}, {f.constant('60.0', 'f32')} : f32")
        factor, shift = {"i32": (3, 1000), "i64": (1_000_003, 7)}[e]
        cast = f.op(f"arith.index_cast {linear} : index to {e}")
        product = f.op(f"arith.muli {cast}, {f.constant(factor, e)} : {e}")
        return f.op(f"arith.subi {product}, {f.constant(shift, e)} : {e}")

    def _widen(self, f: _Function, value: str) -> str:
        if self.element == "i32":
            return f.op(f"arith.extsi {value} : i32 to i64")
        return value

    def _add(self, f: _Function, a: str, b: str) -> str:
        kind = "addf" if self.accumulator == "f32" else "addi"
        return f.op(f"arith.{kind} {a}, {b} : {self.accumulator}")

    def _print_accumulator(self, f: _Function, value: str) -> None:
        if self.accumulator == "f32":
            scale = f.constant(f"{float(F32_SCALE)}", "f32")
            scaled = f.op(f"arith.mulf {value}, {scale} : f32")
            value = f.op(f"arith.fptosi {scaled} : f32 to i64")
        f.emit(_print(value, "i64"))

    def _zero(self, f: _Function) -> str:
        return f.constant("0.0" if self.accumulator == "f32" else "0", self.accumulator)

    # ---- pieces
    def fill(self, f: _Function) -> None:
        """affine.for nest storing each element's value with affine.store."""
        ivs = [f"%i{d}" for d in range(self.spec.rank)]
        for d, extent in enumerate(self.spec.shape):
            f.emit(f"affine.for {ivs[d]} = 0 to {extent} {{")
            f.depth += 1
        linear = f.op(f"affine.apply {_linear_map(self.spec.shape)}({', '.join(ivs)})")
        value = self._fill_value(f, linear)
        f.emit(f"affine.store {value}, %A[{', '.join(ivs)}] : {self.type}")
        for _ in self.spec.shape:
            f.depth -= 1
            f.emit("}")

    def affine_sum(self, f: _Function) -> str:
        """affine.for nest with iter_args summing every element read with affine.load."""
        ivs = [f"%s{d}" for d in range(self.spec.rank)]
        results = [f.fresh("sum") for _ in ivs]
        accumulators = [f.fresh("acc") for _ in ivs]
        initial = self._zero(f)
        for d, extent in enumerate(self.spec.shape):
            start = initial if d == 0 else accumulators[d - 1]
            f.emit(
                f"{results[d]} = affine.for {ivs[d]} = 0 to {extent} "
                f"iter_args({accumulators[d]} = {start}) -> ({self.accumulator}) {{"
            )
            f.depth += 1
        loaded = f.op(f"affine.load %A[{', '.join(ivs)}] : {self.type}")
        total = self._add(f, accumulators[-1], self._widen(f, loaded))
        f.emit(f"affine.yield {total} : {self.accumulator}")
        for d in reversed(range(self.spec.rank)):
            f.depth -= 1
            f.emit("}")
            if d > 0:
                f.emit(f"affine.yield {results[d]} : {self.accumulator}")
        return results[0]

    def checksum(self) -> list[str]:
        """A private function taking the layout buffer: weighted sum over scf.for loops
        with iter_args, memref.load, memref.dim for the loop bounds."""
        f = _Function()
        ivs = [f"%j{d}" for d in range(self.spec.rank)]
        results = [f.fresh("sum") for _ in ivs]
        accumulators = [f.fresh("acc") for _ in ivs]
        bounds = [f.op(f"memref.dim %M, {f.index(d)} : {self.type}") for d in range(self.spec.rank)]
        zero, one = self._zero(f), f.index(1)
        for d in range(self.spec.rank):
            start = zero if d == 0 else accumulators[d - 1]
            f.emit(
                f"{results[d]} = scf.for {ivs[d]} = {f.index(0)} to {bounds[d]} step {one} "
                f"iter_args({accumulators[d]} = {start}) -> ({self.accumulator}) {{"
            )
            f.depth += 1
        loaded = self._widen(f, f.op(f"memref.load %M[{', '.join(ivs)}] : {self.type}"))
        rem = f.op(f"arith.remui {ivs[-1]}, {f.index(4)} : index")
        weight_index = f.op(f"arith.addi {rem}, {one} : index")
        if self.accumulator == "f32":
            small = f.op(f"arith.index_cast {weight_index} : index to i32")
            weight = f.op(f"arith.sitofp {small} : i32 to f32")
            product = f.op(f"arith.mulf {loaded}, {weight} : f32")
        else:
            weight = f.op(f"arith.index_cast {weight_index} : index to i64")
            product = f.op(f"arith.muli {loaded}, {weight} : i64")
        total = self._add(f, accumulators[-1], product)
        f.emit(f"scf.yield {total} : {self.accumulator}")
        for d in reversed(range(self.spec.rank)):
            f.depth -= 1
            f.emit("}")
            if d > 0:
                f.emit(f"scf.yield {results[d]} : {self.accumulator}")
        f.emit(f"func.return {results[0]} : {self.accumulator}")
        return [
            f"  func.func private @checksum(%M: {self.type}) -> {self.accumulator} {{",
            *f.lines(),
            "  }",
        ]

    def main(self) -> list[str]:
        spec, f = self.spec, _Function()
        f.emit(f"%A = memref.alloc() : {self.type}")
        self.fill(f)
        for d in range(spec.rank):
            extent = f.op(f"memref.dim %A, {f.index(d)} : {self.type}")
            f.emit(_print(f.op(f"arith.index_cast {extent} : index to i64"), "i64"))
        stored = self._element_constant(f, STORED[self.element])
        f.emit(f"memref.store {stored}, %A[{self._indices(f, spec.store_at)}] : {self.type}")
        vector_type = f"vector<{spec.vector_length}x{self.element}>"
        vector = self._vector_constant(f, VECTOR_VALUES[self.element][: spec.vector_length])
        f.emit(
            f"vector.store {vector}, %A[{self._indices(f, spec.vector_store_at)}] "
            f": {self.type}, {vector_type}"
        )
        for probe in spec.probes:
            loaded = f.op(f"memref.load %A[{self._indices(f, probe)}] : {self.type}")
            f.emit(_print(loaded, self.element))
        read_back = f.op(f"affine.load %A[{self._constant_indices(spec.store_at)}] : {self.type}")
        f.emit(_print(read_back, self.element))
        loaded_vector = f.op(
            f"vector.load %A[{self._indices(f, spec.vector_load_at)}] : {self.type}, {vector_type}"
        )
        f.emit(_print(loaded_vector, vector_type))
        affine_vector = f.op(
            f"affine.vector_load %A[{self._constant_indices(spec.affine_vector_load_at)}] "
            f": {self.type}, {vector_type}"
        )
        f.emit(_print(affine_vector, vector_type))
        self._print_accumulator(f, self.affine_sum(f))
        weighted = f.op(f"func.call @checksum(%A) : ({self.type}) -> {self.accumulator}")
        self._print_accumulator(f, weighted)
        f.emit(f"%B = memref.alloc() : {self.second_type}")
        f.emit(f"layout.convert %A to %B : {self.type} to {self.second_type}")
        f.emit(f"%P = memref.alloc() : {self.plain_type}")
        f.emit(f"layout.convert %B to %P : {self.second_type} to {self.plain_type}")
        unranked = f"memref<*x{self.element}>"
        f.emit(f'%U = "memref.cast"(%P) : ({self.plain_type}) -> {unranked}')
        f.emit(f"func.call @{_printer(self.element)}(%U) : ({unranked}) -> ()")
        for name, type_ in (("%A", self.type), ("%B", self.second_type), ("%P", self.plain_type)):
            f.emit(f"memref.dealloc {name} : {type_}")
        f.emit("func.return")
        return ["  func.func @main() {", *f.lines(), "  }"]

    def text(self) -> str:
        printer = _printer(self.element)
        lines = [
            f"// Cross-check program '{self.spec.name}': {self.type}",
            "builtin.module {",
            *self.main(),
            *self.checksum(),
            f"  func.func private @{printer}(memref<*x{self.element}>) "
            "attributes {llvm.emit_c_interface}",
            "}",
        ]
        return "\n".join(lines) + "\n"


def _print(value: str, type_: str) -> str:
    """`vector.print` in generic form: xDSL 0.74 has no custom syntax for it."""
    return f'"vector.print"({value}) : ({type_}) -> ()'


def _printer(element: str) -> str:
    return {"i32": "printMemrefI32", "i64": "printMemrefI64", "f32": "printMemrefF32"}[element]


def _literal(value: Number, element: str) -> str:
    return repr(float(value)) if element == "f32" else str(int(value))


def _linear_map(shape: Index) -> str:
    """`affine_map<(d0, …) -> (row-major linear index)>`."""
    dims = [f"d{d}" for d in range(len(shape))]
    strides = [math.prod(shape[d + 1 :]) for d in range(len(shape))]
    terms = [
        dim if stride == 1 else f"{dim} * {stride}"
        for dim, stride in zip(dims, strides, strict=True)
    ]
    return f"affine_map<({', '.join(dims)}) -> ({' + '.join(terms)})>"


def build(spec: ProgramSpec) -> CrosscheckProgram:
    _check_spec(spec)
    return CrosscheckProgram(spec, _Program(spec).text(), expected_output(spec))


def _check_spec(spec: ProgramSpec) -> None:
    for at in (
        *spec.probes,
        spec.store_at,
        spec.vector_store_at,
        spec.vector_load_at,
        spec.affine_vector_load_at,
    ):
        assert len(at) == spec.rank and all(
            0 <= i < e for i, e in zip(at, spec.shape, strict=True)
        ), at
    for at in (spec.vector_store_at, spec.vector_load_at, spec.affine_vector_load_at):
        assert at[-1] + spec.vector_length <= spec.shape[-1], (spec.name, at)


# ---- the programs ------------------------------------------------------------------------
def _chunked(spec: str, shape: Index, element: str, pad: int | None = None) -> str:
    """The `#layout.chunked` attribute of an HTP layout written as HTP writes it."""
    return parse_layout(spec, shape, dtype=element, pad=pad).notations()["chunked"]


CROUTON_SHAPE: Index = (1, 9, 10, 40)
SPECS: tuple[ProgramSpec, ...] = (
    ProgramSpec(
        name="tag_nchw8c",
        shape=(2, 17, 5, 4),
        element="i32",
        layout='#layout.tag<"NCHW->nChw8c">',
        second='#layout.tag<"NCHW->NHWC">',
        probes=((0, 0, 0, 0), (1, 16, 4, 3), (0, 8, 2, 1), (1, 7, 3, 2)),
        store_at=(1, 15, 0, 3),
        vector_store_at=(1, 16, 2, 0),
        vector_load_at=(0, 9, 1, 0),
        affine_vector_load_at=(1, 16, 2, 0),
        vector_length=4,
    ),
    ProgramSpec(
        name="named_nhwc",
        shape=(2, 17, 5, 4),
        element="f32",
        layout='#layout.tag<"nhwc">',
        second='#layout.tag<"NCHW->nChw8c", pad = -1.5>',
        probes=((0, 0, 0, 0), (1, 16, 4, 3), (0, 5, 2, 1)),
        store_at=(0, 3, 4, 2),
        vector_store_at=(1, 2, 3, 0),
        vector_load_at=(0, 11, 4, 0),
        affine_vector_load_at=(1, 2, 3, 0),
        vector_length=4,
    ),
    ProgramSpec(
        name="named_nchw4",
        shape=(2, 10, 3, 3),
        element="i64",
        layout='#layout.tag<"NCHW4">',
        second="#layout.strided<[100, 9, 3, 1], offset = 7>",
        probes=((0, 0, 0, 0), (1, 9, 2, 2), (0, 4, 1, 2), (1, 3, 0, 1)),
        store_at=(1, 8, 2, 0),
        vector_store_at=(0, 9, 1, 0),
        vector_load_at=(1, 5, 2, 0),
        affine_vector_load_at=(0, 9, 1, 0),
        vector_length=3,
    ),
    ProgramSpec(
        name="named_oihw16i16o",
        shape=(20, 18, 3, 3),
        element="i32",
        layout='#layout.tag<"OIhw16i16o">',
        second='#layout.tag<"Ohwi16o">',
        probes=((0, 0, 0, 0), (19, 17, 2, 2), (16, 15, 1, 0), (3, 16, 0, 2)),
        store_at=(17, 1, 2, 1),
        vector_store_at=(18, 17, 0, 0),
        vector_load_at=(15, 16, 2, 0),
        affine_vector_load_at=(18, 17, 0, 0),
        vector_length=3,
    ),
    ProgramSpec(
        name="chunked_crouton2x2",
        shape=CROUTON_SHAPE,
        element="i32",
        layout=_chunked(
            "ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,4, 2,4, 3,32, 1,2, 2,2>",
            CROUTON_SHAPE,
            "i32",
        ),
        second='#layout.tag<"NHWC->NHWC8c">',
        probes=((0, 0, 0, 0), (0, 8, 9, 39), (0, 5, 6, 31), (0, 3, 1, 32)),
        store_at=(0, 7, 8, 33),
        vector_store_at=(0, 3, 5, 28),
        vector_load_at=(0, 8, 9, 0),
        affine_vector_load_at=(0, 3, 5, 27),
        vector_length=8,
    ),
    ProgramSpec(
        name="chunked_alias_crouton",
        shape=CROUTON_SHAPE,
        element="i32",
        layout=_chunked("R4CroutonLayout", CROUTON_SHAPE, "i32", pad=31),
        second="#layout.map<affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, shape = [1, 40, 9, 10]>",
        probes=((0, 0, 0, 0), (0, 8, 9, 39), (0, 7, 7, 31), (0, 8, 0, 32)),
        store_at=(0, 1, 9, 35),
        vector_store_at=(0, 2, 3, 28),
        vector_load_at=(0, 8, 9, 8),
        affine_vector_load_at=(0, 2, 3, 32),
        vector_length=8,
    ),
    ProgramSpec(
        name="map_skew",
        shape=(6, 10),
        element="i32",
        layout="#layout.map<affine_map<(d0, d1) -> (d0, d0 + d1)>>",
        second="#layout.map<affine_map<(d0, d1) -> (d1, (d0 + d1) mod 6)>>",
        probes=((0, 0), (5, 9), (3, 4), (5, 0)),
        store_at=(4, 7),
        vector_store_at=(2, 3),
        vector_load_at=(5, 6),
        affine_vector_load_at=(2, 2),
        vector_length=4,
    ),
    ProgramSpec(
        name="map_explicit_shape",
        shape=(7, 13),
        element="f32",
        layout=(
            "#layout.map<affine_map<(d0, d1) -> (d1 floordiv 4, d0, d1 mod 4)>, "
            "shape = [4, 8, 5], pad = 2.5>"
        ),
        second="#layout.strided<[16, 1], offset = 2>",
        probes=((0, 0), (6, 12), (3, 4), (6, 3)),
        store_at=(5, 11),
        vector_store_at=(3, 4),
        vector_load_at=(6, 2),
        affine_vector_load_at=(3, 3),
        vector_length=4,
    ),
    ProgramSpec(
        name="strided",
        shape=(4, 30),
        element="i32",
        layout="#layout.strided<[40, 1], offset = 3>",
        second='#layout.tag<"AB->AB8b">',
        probes=((0, 0), (3, 29), (2, 17)),
        store_at=(1, 29),
        vector_store_at=(2, 5),
        vector_load_at=(3, 26),
        affine_vector_load_at=(2, 4),
        vector_length=4,
    ),
    ProgramSpec(
        name="builtin_affine_map",
        shape=(13, 10),
        element="f32",
        layout="affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>",
        second="#layout.strided<[1, 13], offset = 0>",
        probes=((0, 0), (12, 9), (5, 6), (12, 0)),
        store_at=(9, 8),
        vector_store_at=(7, 2),
        vector_load_at=(12, 6),
        affine_vector_load_at=(7, 1),
        vector_length=4,
    ),
    ProgramSpec(
        name="builtin_strided",
        shape=(4, 30),
        element="i64",
        layout="strided<[40, 1], offset: 3>",
        second="#layout.map<affine_map<(d0, d1) -> (d1 floordiv 8, d0, d1 mod 8)>>",
        probes=((0, 0), (3, 29), (1, 8)),
        store_at=(2, 0),
        vector_store_at=(0, 10),
        vector_load_at=(3, 0),
        affine_vector_load_at=(0, 9),
        vector_length=4,
    ),
)

PROGRAMS: dict[str, CrosscheckProgram] = {spec.name: build(spec) for spec in SPECS}


# ---- reading what a program printed ------------------------------------------------------
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan)")


def _parse_number(token: str) -> Number:
    try:
        return int(token)
    except ValueError:
        return float(token)


def numbers(text: str) -> tuple[Number, ...]:
    return tuple(_parse_number(t) for t in _NUMBER.findall(text))


def parse_output(stdout: str) -> PrintedOutput:
    """Split a program's stdout into its `vector.print` lines and its `printMemref` dump."""
    head, marker, dump = stdout.partition("Unranked Memref")
    if not marker:
        raise ValueError(f"no printMemref output in:\n{stdout}")
    lines = tuple(numbers(line) for line in head.splitlines() if line.strip())
    sizes = re.search(r"sizes = \[([^\]]*)\]", dump)
    _, data_marker, data = dump.partition("data =")
    if sizes is None or not data_marker:
        raise ValueError(f"malformed printMemref output:\n{dump}")
    shape = tuple(int(n) for n in numbers(sizes.group(1)))
    return PrintedOutput(lines, shape, numbers(data))


def mismatches(expected: PrintedOutput, actual: PrintedOutput) -> Iterator[str]:
    """Each difference, described in logical coordinates."""
    if len(expected.lines) != len(actual.lines):
        yield f"{len(actual.lines)} printed lines, expected {len(expected.lines)}"
    for number, (want, got) in enumerate(zip(expected.lines, actual.lines, strict=False)):
        if want != got:
            yield f"line {number}: got {got}, expected {want}"
    if expected.shape != actual.shape:
        yield f"printMemref sizes {actual.shape}, expected {expected.shape}"
        return
    if len(expected.data) != len(actual.data):
        yield f"printMemref has {len(actual.data)} elements, expected {len(expected.data)}"
        return
    for position, (want, got) in enumerate(zip(expected.data, actual.data, strict=True)):
        if want != got:
            index = np.unravel_index(position, expected.shape)
            yield f"element {tuple(int(i) for i in index)}: got {got}, expected {want}"


def describe_mismatches(expected: PrintedOutput, actual: PrintedOutput, limit: int = 8) -> str:
    found = list(mismatches(expected, actual))
    shown = "\n".join(found[:limit])
    more = f"\n… and {len(found) - limit} more" if len(found) > limit else ""
    return f"{len(found)} mismatches:\n{shown}{more}" if found else ""


# ---- running layout-opt in-process -------------------------------------------------------
@dataclass(frozen=True)
class OptResult:
    returncode: int
    stdout: str
    stderr: str


def layout_opt(text: str, *args: str) -> OptResult:
    """`layout-opt FILE ARGS…` on `text`, run in this process (no interpreter start-up,
    which costs more than the pass itself)."""
    from heterolayout.tools.opt import main

    with tempfile.TemporaryDirectory(prefix="crosscheck-") as directory:
        path = Path(directory) / "input.mlir"
        path.write_text(text)
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            returncode = main([str(path), *args])
    return OptResult(returncode, stdout.getvalue(), stderr.getvalue())
