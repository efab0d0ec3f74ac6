"""`layout-lower` on random programs: a differential test of the lowered code against the
unlowered program, and a dominance check of the lowered module.

Each example is a random `@main(%A: memref<SHAPE x T, LAYOUT>, %n: index) -> T` (T is f32 or
i32; SHAPE 1-D to 3-D; LAYOUT a random `#layout.tag`, `#layout.map`, `#layout.strided`, or a
builtin `strided` / `affine_map` layout) whose body nests up to three levels of `scf.for` /
`affine.for` (constant bounds and steps, usually accumulating loads in iter_args) and `scf.if`
on `arith.cmpi` of an index against a constant (accesses in both branches, with or without
results), among sibling loops and straight-line code; sometimes it also calls a `@helper` of
the same form. The accesses are `memref.load/store` on index values built from constants
(at the top of the function or in the block), loop variables and `%n` by `arith` ops
(addi, subi, muli, the divisions and remainders) and `affine.apply`, and `affine.load/store`
with access maps over index values. Index values and whole index tuples are reused, and
made again by new ops in a sibling loop, the other branch or a nested block: the value
sharing of `layout-lower` works on exactly that. Every index stays in bounds on every
iteration (the generator tracks the range of each index value); stores write values derived
from loads and constants; loads are accumulated into the returned value.

`heterolayout.check` runs the program unlowered and lowered on the same seeded arguments and
compares the result and `%A` in logical coordinates. It verifies nothing, so the lowered
module is also checked here: xDSL's verifier (which in xDSL 0.74 does not check SSA
dominance), `dominance_violations` below, and no layout left on any memref.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import elementwise_reference as reference
import pytest
from hypothesis import event, given, note, settings
from hypothesis import strategies as st
from strategies import (
    MAX_PHYSICAL,
    block_terms,
    blocked_size,
    digit_map_results,
    dim_letters,
    fit_shape,
    injective_component,
    map_text,
    render_tag,
)
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import AffineMapAttr, MemRefType, ModuleOp, NoneAttr, StridedLayoutAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.parser import Parser

import heterolayout
from heterolayout.passes.layout_lower import LayoutLowerPass
from heterolayout.tools.opt import LayoutOptMain

ABOVE_EVERY_EXTENT = 1 << 20
"""The range `%n` is given: never usable as an index as it is, only through a remainder."""
N_COMPARED = (0, 15)
"""What `%n` holds (seeded scalar index arguments lie in [0, 16)): constants `%n` is compared
with come from here."""
MAX_TRIPS = 8
"""Iterations of one loop; three nested loops run at most 512 times."""


# ---- the memref argument -----------------------------------------------------------------------
@dataclass(frozen=True)
class Memref:
    shape: tuple[int, ...]
    element: str
    layout: str
    kind: str

    @property
    def type(self) -> str:
        return f"memref<{'x'.join(str(e) for e in self.shape)}x{self.element}, {self.layout}>"


def _fit(shape: tuple[int, ...], model: reference.Model) -> tuple[int, ...]:
    """Halve extents until the physical buffer holds at most MAX_PHYSICAL slots (shrinking
    keeps every layout below injective)."""
    return fit_shape(shape, lambda s: math.prod(reference.physical_shape(model, s)), MAX_PHYSICAL)


@st.composite
def map_layouts(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
    """An injective affine map: blocked digits (tilings, transposes) or the non-digit
    components of strategies.py (scaled, split, skewed, linearized dims)."""
    rank = len(shape)
    if draw(st.booleans()):
        results = digit_map_results(draw(block_terms(rank, max_blocks=2, max_size=6)))
    else:
        dims = list(draw(st.permutations(range(rank))))
        results = []
        while dims:
            results += draw(injective_component(dims, shape))
        results = list(draw(st.permutations(results)))
    text = map_text(rank, results)
    return text, _fit(shape, reference.MapText(text))


@st.composite
def strided_layouts(
    draw: st.DrawFn, shape: tuple[int, ...], signed: bool
) -> tuple[list[int], int, tuple[int, ...]]:
    """Injective strides (a padded, permuted row-major layout, as in strategies.py), with
    random signs and an offset keeping every element at a non-negative offset if `signed`."""
    strides = [0] * len(shape)
    span = 0
    for dim in draw(st.permutations(range(len(shape)))):
        stride = span + 1 + draw(st.integers(0, 2)) if span else draw(st.integers(1, 3))
        strides[dim] = stride
        span += (shape[dim] - 1) * stride
    if signed:
        signs = draw(
            st.lists(st.sampled_from([1, 1, -1]), min_size=len(shape), max_size=len(shape))
        )
        strides = [s * sign for s, sign in zip(strides, signs, strict=True)]
    low = sum((e - 1) * s for e, s in zip(shape, strides, strict=True) if s < 0)
    offset = -low + draw(st.integers(0, 4))
    model = reference.Strided(tuple(strides), offset)
    return strides, offset, _fit(shape, model)


@st.composite
def memrefs(draw: st.DrawFn) -> Memref:
    rank = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(2, 20), min_size=rank, max_size=rank)))
    element = draw(st.sampled_from(["f32", "f32", "f32", "i32"]))
    kind = draw(
        st.sampled_from(["tag", "map", "strided", "tag", "map", "builtin-strided", "builtin-map"])
    )
    if kind == "tag":
        terms = draw(block_terms(rank, max_blocks=3, max_size=8))
        shape = fit_shape(shape, blocked_size(terms), MAX_PHYSICAL)
        layout = f'#layout.tag<"{render_tag(draw, draw(dim_letters(rank)), terms)}">'
    elif kind in ("map", "builtin-map"):
        text, shape = draw(map_layouts(shape))
        layout = f"#layout.map<{text}>" if kind == "map" else text
    else:
        strides, offset, shape = draw(strided_layouts(shape, signed=kind == "strided"))
        listed = ", ".join(str(s) for s in strides)
        if kind == "strided":
            layout = f"#layout.strided<[{listed}], offset = {offset}>"
        else:
            layout = f"strided<[{listed}], offset: {offset}>"
    return Memref(shape, element, layout, kind)


# ---- the program -------------------------------------------------------------------------------
FLOOR_KINDS = ["divui", "divsi", "floordivsi", "floordiv"]
CEIL_KINDS = ["ceildivui", "ceildivsi", "ceildiv"]
APPLY_KINDS = ("floordiv", "ceildiv", "mod", "rsub")
"""Recipes made as `affine.apply` (the others are arith ops)."""


@dataclass(frozen=True)
class Recipe:
    """How an index value is made: `kind` applied to the value named `base` and `constant`.
    A recipe is made again (new ops, same values) wherever its base is visible."""

    kind: str  # const, var, an arith op (rsubi: constant - base), or one of APPLY_KINDS
    base: str | None
    constant: int


@dataclass
class Frame:
    """What one block sees of its own: index values, index tuples, loaded values, the
    accumulator (None in blocks whose values cannot flow out)."""

    acc: str | None
    indices: list[str] = field(default_factory=list)
    tuples: list[tuple[str, ...]] = field(default_factory=list)
    affine_tuples: list[tuple[str, ...]] = field(default_factory=list)
    values: list[str] = field(default_factory=list)
    constants: dict[int, str] = field(default_factory=dict)


class Writer:
    """Writes a random body, tracking the range of every index value over all iterations so
    that every access is in bounds."""

    def __init__(
        self, draw: st.DrawFn, memref: Memref, budget: int, callee: str | None = None
    ) -> None:
        self.draw = draw
        self.callee = callee
        self.memref = memref
        self.element = memref.element
        self.budget = budget
        self.lines: list[str] = []
        self.top: dict[str, str] = {}  # name -> definition, at the top of the function
        self.ranges: dict[str, tuple[int, int]] = {"%n": (0, ABOVE_EVERY_EXTENT)}
        self.recipes: list[Recipe] = []
        self.tuple_recipes: list[tuple[Recipe, ...]] = []
        self.frames: list[Frame] = []
        self.counter = 0
        self.features: set[str] = set()

    # -- helpers --------------------------------------------------------------------------------
    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append("  " * len(self.frames) + line)

    def visible(self, attribute: str) -> list:
        return [item for frame in self.frames for item in getattr(frame, attribute)]

    def index_constant(self, value: int) -> str:
        """At the top of the function, or in the current block (a constant of the program
        that `layout-lower` notes and may reuse where it is visible)."""
        visible = [f.constants[value] for f in self.frames if value in f.constants]
        if visible and self.draw(st.booleans()):
            return visible[-1]
        if self.draw(st.booleans()):
            name = f"%c{value}"
            self.top[name] = f"{name} = arith.constant {value} : index"
            return name
        name = self.fresh(f"c{value}_")
        self.emit(f"{name} = arith.constant {value} : index")
        self.frame.constants[value] = name
        return name

    def element_constant(self, value: float) -> str:
        name = self.fresh("k")
        text = repr(float(value)) if self.element == "f32" else str(int(value))
        definition = f"{name} = arith.constant {text} : {self.element}"
        if self.draw(st.booleans()):
            self.top[name] = definition
        else:
            self.emit(definition)
        return name

    def arith(self, op: str) -> str:
        """The element type's version of an arith op."""
        return (
            {"add": "addf", "mul": "mulf"}[op]
            if self.element == "f32"
            else {"add": "addi", "mul": "muli"}[op]
        )

    # -- index values ---------------------------------------------------------------------------
    def recipe_range(self, recipe: Recipe) -> tuple[int, int] | None:
        """The values the recipe's value takes (None if some could be negative where a
        division or remainder would need them not to be)."""
        if recipe.kind == "const":
            return recipe.constant, recipe.constant
        assert recipe.base is not None
        low, high = self.ranges[recipe.base]
        c = recipe.constant
        if recipe.kind == "var":
            return low, high
        if recipe.kind == "addi":
            return low + c, high + c
        if recipe.kind == "subi":
            return low - c, high - c
        if recipe.kind in ("rsubi", "rsub"):
            return c - high, c - low
        if low < 0:
            return None
        if recipe.kind == "muli":
            return low * c, high * c
        if recipe.kind in FLOOR_KINDS:
            return low // c, high // c
        if recipe.kind in CEIL_KINDS:
            return -(-low // c), -(-high // c)
        return (0, min(c - 1, high)) if high >= c else (low, high)  # remainders

    def fits(self, recipe: Recipe, extent: int) -> bool:
        bounds = self.recipe_range(recipe)
        return bounds is not None and bounds[0] >= 0 and bounds[1] <= extent - 1

    def new_recipe(self, extent: int) -> Recipe:
        """A random recipe whose value lies in [0, extent) wherever it is made."""
        indices = self.visible("indices")
        candidates: dict[str, list[Recipe]] = {
            "const": [Recipe("const", None, c) for c in range(extent)]
        }
        shapes: dict[str, range] = {
            "var": range(0, 1),
            "addi": range(1, 4),
            "subi": range(1, 4),
            "muli": range(2, 4),
            "rsubi": range(0, extent + 4),
            **dict.fromkeys(["remui", "remsi"], range(1, extent + 1)),
            **dict.fromkeys(FLOOR_KINDS + CEIL_KINDS, range(2, 5)),
            "mod": range(2, extent + 1),
            "rsub": range(0, extent + 4),
        }
        for kind, constants in shapes.items():
            found = [Recipe(kind, base, c) for base in indices for c in constants]
            candidates[kind] = [r for r in found if self.fits(r, extent)]
        replayable = [
            r
            for r in self.recipes
            if (r.base is None or r.base in indices) and self.fits(r, extent)
        ]
        candidates["replay"] = replayable
        kinds = sorted(k for k, found in candidates.items() if found)
        kind = self.draw(st.sampled_from(kinds))
        return self.draw(st.sampled_from(candidates[kind]))

    def make(self, recipe: Recipe) -> str:
        """The recipe's value in the current block: a new op, or an existing name."""
        if recipe.kind == "const":
            return self.index_constant(recipe.constant)
        assert recipe.base is not None
        if recipe.kind == "var":
            return recipe.base
        name = self.fresh("x")
        if recipe.kind in APPLY_KINDS:
            self.features.add("affine.apply")
            c = recipe.constant
            result = f"{c} - d0" if recipe.kind == "rsub" else f"d0 {recipe.kind} {c}"
            self.emit(f"{name} = affine.apply affine_map<(d0) -> ({result})>({recipe.base})")
        else:
            self.features.add(f"arith.{recipe.kind}")
            constant = self.index_constant(recipe.constant)
            operands = [recipe.base, constant]
            if recipe.kind == "rsubi" or (
                recipe.kind in ("addi", "muli") and self.draw(st.booleans())
            ):
                operands.reverse()
            op = "subi" if recipe.kind == "rsubi" else recipe.kind
            self.emit(f"{name} = arith.{op} {operands[0]}, {operands[1]} : index")
        bounds = self.recipe_range(recipe)
        assert bounds is not None
        self.ranges[name] = bounds
        self.frame.indices.append(name)
        if recipe not in self.recipes:
            self.recipes.append(recipe)
        return name

    def memref_indices(self) -> tuple[str, ...]:
        """An index tuple: one in scope again, a recipe tuple made again, or a new one."""
        choice = self.draw(st.integers(0, 9))
        in_scope = self.visible("tuples")
        if choice < 3 and in_scope:
            self.features.add("same tuple")
            return self.draw(st.sampled_from(in_scope))
        indices = self.visible("indices")
        replayable = [
            t for t in self.tuple_recipes if all(r.base is None or r.base in indices for r in t)
        ]
        if choice < 6 and replayable:
            self.features.add("tuple remade")
            recipes = self.draw(st.sampled_from(replayable))
        else:
            recipes = tuple(self.new_recipe(extent) for extent in self.memref.shape)
            self.tuple_recipes.append(recipes)
        made = tuple(self.make(r) for r in recipes)
        self.frame.tuples.append(made)
        return made

    def affine_expr(self, extent: int) -> str:
        """An affine access-map result over index values in scope, in [0, extent)."""
        options: list[str] = [str(c) for c in range(min(extent, 3))]
        for v in self.visible("indices"):
            low, high = self.ranges[v]
            if low < 0:
                continue
            if high <= extent - 1:
                options.append(v)
            options += [f"{v} + {c}" for c in (1, 2) if high + c <= extent - 1]
            options += [f"{v} - {c}" for c in (1, 2) if low - c >= 0 and high - c <= extent - 1]
            options += [f"{c} * {v}" for c in (2, 3) if high * c <= extent - 1]
            options += [f"{v} floordiv {c}" for c in (2, 3) if high // c <= extent - 1]
            options += [f"{v} floordiv {c} + 1" for c in (2, 4) if high // c + 1 <= extent - 1]
            options += [f"{v} mod {c}" for c in (2, 3, extent) if 2 <= c <= extent]
            options += [f"{v} ceildiv {c}" for c in (2, 3) if -(-high // c) <= extent - 1]
            options += [f"{c} - {v}" for c in range(high, min(low + extent - 1, high + 2) + 1)]
            for w in self.visible("indices"):
                w_low, w_high = self.ranges[w]
                if w_low >= 0 and high + w_high <= extent - 1:
                    options.append(f"{v} + {w}")
        return self.draw(st.sampled_from(options))

    def affine_indices(self) -> tuple[str, ...]:
        in_scope = self.visible("affine_tuples")
        if in_scope and self.draw(st.integers(0, 3)) == 0:
            self.features.add("same affine tuple")
            return self.draw(st.sampled_from(in_scope))
        made = tuple(self.affine_expr(extent) for extent in self.memref.shape)
        self.frame.affine_tuples.append(made)
        return made

    # -- statements -----------------------------------------------------------------------------
    def load(self, affine: bool) -> None:
        self.features.add("affine.load" if affine else "memref.load")
        indices = self.affine_indices() if affine else self.memref_indices()
        value = self.fresh("v")
        op = "affine.load" if affine else "memref.load"
        self.emit(f"{value} = {op} %A[{', '.join(indices)}] : {self.memref.type}")
        self.frame.values.append(value)
        if self.frame.acc is not None:
            total = self.fresh("s")
            self.emit(
                f"{total} = arith.{self.arith('add')} {self.frame.acc}, {value} : {self.element}"
            )
            self.frame.acc = total

    def stored_value(self) -> str:
        """A loaded value, the same scaled or shifted, or a constant (never the accumulator,
        which could double on every iteration)."""
        values = self.visible("values")
        choice = self.draw(st.integers(0, 3))
        if not values or choice == 0:
            return self.element_constant(self.draw(st.sampled_from([0.5, -3.0, 7.0, 2.0])))
        value = self.draw(st.sampled_from(values))
        if choice == 1:
            return value
        if self.element == "f32":
            constant = self.draw(st.sampled_from([0.5, -0.75, 0.25, 1.0, 1.5]))
        else:
            constant = self.draw(st.sampled_from([3, -1, 5, 2]))
        k = self.element_constant(constant)
        op = self.arith("mul" if choice == 2 else "add")
        result = self.fresh("w")
        self.emit(f"{result} = arith.{op} {value}, {k} : {self.element}")
        self.frame.values.append(result)
        return result

    def store(self, affine: bool) -> None:
        self.features.add("affine.store" if affine else "memref.store")
        value = self.stored_value()
        indices = self.affine_indices() if affine else self.memref_indices()
        op = "affine.store" if affine else "memref.store"
        self.emit(f"{op} {value}, %A[{', '.join(indices)}] : {self.memref.type}")

    def index_statement(self) -> None:
        """An index value made in this block for the blocks nested in it: `%n` or a loop
        variable clamped into a random extent."""
        self.make(self.new_recipe(self.draw(st.sampled_from(self.memref.shape))))

    def call(self) -> None:
        """A call of the other function (lowered on its own), on %A and an index value in
        scope as its `%n`; the result goes into the accumulator only (it may be large)."""
        self.features.add("func.call")
        index = self.draw(st.sampled_from(self.visible("indices")))
        result = self.fresh("h")
        signature = f"({self.memref.type}, index) -> {self.element}"
        self.emit(f"{result} = func.call {self.callee}(%A, {index}) : {signature}")
        if self.frame.acc is not None:
            total = self.fresh("s")
            self.emit(
                f"{total} = arith.{self.arith('add')} {self.frame.acc}, {result} : {self.element}"
            )
            self.frame.acc = total

    def function(self, name: str) -> list[str]:
        """The whole function: `%acc` and the top constants, the body, the return."""
        zero = "0.0" if self.element == "f32" else "0"
        self.frames.append(Frame("%acc", indices=["%n"]))
        for _ in range(self.draw(st.integers(0, 2))):  # %n clamped into an extent, for every block
            extent = self.draw(st.sampled_from(self.memref.shape))
            self.make(Recipe("remui", "%n", self.draw(st.integers(1, extent))))
        self.body(0)
        if self.callee is not None and "func.call" not in self.features:
            self.call()
        return [
            f"func.func {name}(%A: {self.memref.type}, %n: index) -> {self.element} {{",
            f"  %acc = arith.constant {zero} : {self.element}",
            *(f"  {definition}" for definition in self.top.values()),
            *self.lines,
            f"  func.return {self.frame.acc} : {self.element}",
            "}",
        ]

    def loop(self, affine: bool, depth: int) -> None:
        extent = self.draw(st.sampled_from(self.memref.shape))
        first = self.draw(st.integers(0, extent - 1))
        step = self.draw(st.integers(1, 3))
        # usually inside the extent; sometimes past it (then the variable needs a remainder)
        end = self.draw(st.integers(first + 1, min(extent + 2, first + MAX_TRIPS * step)))
        last = first + (end - first - 1) // step * step
        iv = self.fresh("i")
        carried = self.frame.acc is not None and self.draw(st.integers(0, 3)) > 0
        kind = "affine.for" if affine else "scf.for"
        self.features.add(kind + (" iter_args" if carried else ""))
        if affine:
            bounds = f"{first} to {end}" + (
                f" step {step}" if step != 1 or self.draw(st.booleans()) else ""
            )
        else:
            lb, ub, st_ = (self.index_constant(v) for v in (first, end, step))
            bounds = f"{lb} to {ub} step {st_}"
        if carried:
            result, arg = self.fresh("r"), self.fresh("a")
            self.emit(
                f"{result} = {kind} {iv} = {bounds} iter_args({arg} = {self.frame.acc}) -> ({self.element}) {{"
            )
        else:
            self.emit(f"{kind} {iv} = {bounds} {{")
        self.ranges[iv] = (first, last)
        self.frames.append(Frame(arg if carried else None, indices=[iv]))
        self.body(depth + 1)
        if carried:
            yield_op = "affine.yield" if affine else "scf.yield"
            self.emit(f"{yield_op} {self.frame.acc} : {self.element}")
        self.frames.pop()
        self.emit("}")
        if carried:
            self.frame.acc = result

    def branch(self, depth: int) -> None:
        indices = [v for v in self.visible("indices") if self.ranges[v][0] < self.ranges[v][1]]
        value = self.draw(st.sampled_from(indices))
        low, high = N_COMPARED if value == "%n" else self.ranges[value]
        constant = self.index_constant(self.draw(st.integers(low, high)))
        predicate = self.draw(
            st.sampled_from(["slt", "sle", "sgt", "sge", "eq", "ne", "ult", "uge"])
        )
        condition = self.fresh("p")
        self.emit(f"{condition} = arith.cmpi {predicate}, {value}, {constant} : index")
        with_result = self.frame.acc is not None and self.draw(st.integers(0, 3)) > 0
        with_else = with_result or self.draw(st.booleans())
        self.features.add(
            "scf.if" + (" result" if with_result else "") + (" else" if with_else else "")
        )
        outer = self.frame.acc
        result = self.fresh("r")
        self.emit(
            f"{result} = scf.if {condition} -> ({self.element}) {{"
            if with_result
            else f"scf.if {condition} {{"
        )
        for part in ("then", "else") if with_else else ("then",):
            if part == "else":
                self.emit("} else {")
            self.frames.append(Frame(outer if with_result else None))
            self.body(depth + 1)
            if with_result:
                self.emit(f"scf.yield {self.frame.acc} : {self.element}")
            self.frames.pop()
        self.emit("}")
        if with_result:
            self.frame.acc = result

    def statement(self, depth: int, first: bool) -> None:
        self.budget -= 1
        kinds = ["load", "load", "affine.load", "store", "affine.store", "index"]
        if self.callee is not None:
            kinds += ["call", "call"]
        if depth < 3:  # control flow is the point: most likely at the top
            kinds = ["scf.for", "affine.for", "scf.if", "scf.if"] * (3 - depth) + kinds
        if first and depth > 0:  # every nested block (both branches too) accesses %A
            kinds = ["load", "affine.load", "store", "affine.store"]
        kind = self.draw(st.sampled_from(kinds))
        if kind in ("load", "affine.load"):
            self.load(kind == "affine.load")
        elif kind in ("store", "affine.store"):
            self.store(kind == "affine.store")
        elif kind == "index":
            self.index_statement()
        elif kind == "call":
            self.call()
        elif kind == "scf.if":
            self.branch(depth)
        else:
            self.loop(kind == "affine.for", depth)

    def body(self, depth: int) -> None:
        count = self.draw(st.integers(2, 6) if depth == 0 else st.integers(1, 3))
        for number in range(count):
            if number > 0 and self.budget <= 0:
                break
            self.statement(depth, number == 0)


@dataclass(frozen=True)
class Program:
    text: str
    memref: Memref
    seed: int
    features: frozenset[str]

    def __repr__(self) -> str:  # hypothesis prints the failing example this way
        return f"Program(seed={self.seed}, text=\n{self.text})"


@st.composite
def programs(draw: st.DrawFn) -> Program:
    """`@main`, and sometimes a `@helper` of the same form that `@main` calls."""
    memref = draw(memrefs())
    lines: list[str] = []
    callee = None
    features: set[str] = set()
    if draw(st.integers(0, 3)) == 0:
        helper = Writer(draw, memref, budget=draw(st.integers(2, 8)))
        lines += helper.function("@helper")
        features |= helper.features
        callee = "@helper"
    writer = Writer(draw, memref, budget=draw(st.integers(4, 16)), callee=callee)
    lines = writer.function("@main") + lines
    features |= writer.features
    return Program(
        "\n".join(lines) + "\n", memref, draw(st.integers(0, 2**16)), frozenset(features)
    )


# ---- checking the lowered module ----------------------------------------------------------------
def dominance_violations(module: ModuleOp) -> list[str]:
    """Operands whose definition does not dominate their use, in modules whose regions have
    single blocks: a block argument must belong to a block enclosing the use, an op result
    must come from an op earlier in the use's block or in an enclosing block, before the
    use's ancestor there."""
    position: dict[Operation, int] = {}
    for op in module.walk():
        for region in op.regions:
            assert len(region.blocks) <= 1, f"{op.name} has a region of several blocks"
            for block in region.blocks:
                position.update((o, i) for i, o in enumerate(block.ops))
    problems = []
    for op in module.walk():
        for number, operand in enumerate(op.operands):
            if not _dominates(operand, op, position):
                problems.append(
                    f"operand {number} ({operand.name_hint or operand}) of {op.name}: {op}"
                )
    return problems


def _dominates(value: SSAValue, user: Operation, position: dict[Operation, int]) -> bool:
    if isinstance(value, BlockArgument):
        block: Block | None = user.parent_block()
        while block is not None:
            if block is value.owner:
                return True
            parent = block.parent_op()
            block = None if parent is None else parent.parent_block()
        return False
    definition = value.owner
    assert isinstance(definition, Operation)
    defining_block = definition.parent_block()
    if defining_block is None:  # erased or detached
        return False
    ancestor: Operation | None = user
    while ancestor is not None:
        if ancestor.parent_block() is defining_block:
            return ancestor is not definition and position[definition] < position[ancestor]
        ancestor = ancestor.parent_op()
    return False


@functools.cache
def _context() -> Context:
    return LayoutOptMain(args=["-"]).ctx


PIPELINES: dict[str, tuple[str, dict[str, object]]] = {
    "default": ("layout-lower", {}),
    "index-affine": ("layout-lower{index=affine}", {"index": "affine"}),
    "flatten": ("layout-lower{flatten=true}", {"flatten": True}),
    "index-affine-flatten": (
        "layout-lower{index=affine flatten=true}",
        {"index": "affine", "flatten": True},
    ),
}


def _memref_types(module: ModuleOp) -> list[MemRefType]:
    types = []
    for op in module.walk():
        values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
        types += [v.type for v in values if isinstance(v.type, MemRefType)]
        if isinstance(op, func.FuncOp):
            types += [t for t in op.function_type.inputs.data if isinstance(t, MemRefType)]
    return types


def _plain(memref_type: MemRefType) -> bool:
    """No layout, or an identity one (which xDSL keeps where MLIR would drop it): the
    identity map, contiguous row-major strides at offset 0."""
    layout = memref_type.layout
    shape = memref_type.get_shape()
    if isinstance(layout, NoneAttr):
        return True
    if isinstance(layout, StridedLayoutAttr):
        row_major = [math.prod(shape[d + 1 :]) for d in range(len(shape))]
        return list(layout.get_strides()) == row_major and layout.get_offset() == 0
    return isinstance(layout, AffineMapAttr) and layout.data == AffineMap.identity(len(shape))


def lowered(text: str, options: dict[str, object]) -> ModuleOp:
    """`layout-lower` with `layout-opt`'s context, and xDSL's verifier before and after."""
    ctx = _context()
    module = Parser(ctx, text, "<random>").parse_module()
    module.verify()
    LayoutLowerPass(**options).apply(ctx, module)  # type: ignore[arg-type]
    module.verify()
    return module


def assert_lowers_correctly(program: Program, option: str) -> None:
    pipeline, options = PIPELINES[option]
    module = lowered(program.text, options)
    problems = dominance_violations(module)
    assert not problems, "\n".join(
        ["uses not dominated by their definitions:", *problems, str(module)]
    )
    printed = str(module)
    left = sorted({str(t) for t in _memref_types(module) if not _plain(t)})
    assert not left, f"layouts left after lowering: {left}\n{printed}"
    report = heterolayout.check(program.text, pipeline, program.seed, engine="compiled")
    assert report.mismatch is None, f"{report}\n{program.text}\nlowered:\n{printed}"
    assert report.equal
    # the result and every element of %A
    assert report.compared == 1 + math.prod(program.memref.shape), str(report)


def _note(program: Program) -> None:
    note(f"seed {program.seed}, program:\n{program.text}")
    event(f"layout {program.memref.kind}")
    for feature in sorted(program.features):
        event(feature)


@settings(max_examples=200, deadline=None, derandomize=True, report_multiple_bugs=False)
@given(programs())
def test_lowered_random_program_matches_unlowered(program: Program) -> None:
    _note(program)
    assert_lowers_correctly(program, "default")


@pytest.mark.parametrize("option", ["index-affine", "flatten", "index-affine-flatten"])
@settings(max_examples=50, deadline=None, derandomize=True, report_multiple_bugs=False)
@given(program=programs())
def test_lowered_random_program_matches_unlowered_with_options(
    option: str, program: Program
) -> None:
    _note(program)
    assert_lowers_correctly(program, option)


# ---- the checker itself ------------------------------------------------------------------------
SIBLING_USE = """
func.func @main(%x: index, %p: i1) -> index {
  %r = scf.if %p -> (index) {
    %a = arith.addi %x, %x : index
    scf.yield %a : index
  } else {
    scf.yield %x : index
  }
  func.return %r : index
}
"""


def test_dominance_check_finds_uses_not_dominated() -> None:
    module = Parser(_context(), SIBLING_USE).parse_module()
    assert dominance_violations(module) == []
    addi, then_yield, else_yield = (
        op for op in module.walk() if op.name in ("arith.addi", "scf.yield")
    )
    x = else_yield.operands[0]
    else_yield.operands = [addi.results[0]]  # the else branch yields the then branch's value
    module.verify()  # xDSL 0.74 does not check dominance: hence dominance_violations
    assert len(dominance_violations(module)) == 1
    else_yield.operands = [x]
    assert dominance_violations(module) == []
    addi.detach()
    then_yield.parent_block().insert_op_after(addi, then_yield)  # type: ignore[union-attr]
    assert len(dominance_violations(module)) == 1  # used before it is defined
