"""Random function bodies over buffers: the program generator of the lowering tests.

A body nests up to three levels of `scf.for` / `affine.for` (constant or `memref.dim` bounds,
steps up to 3, usually accumulating in iter_args) and `scf.if` on `arith.cmpi` of an index
against a constant (with or without results and else branches), among sibling loops and
straight-line code. Its accesses are `memref.load/store` on index values built from
constants, loop variables and `%n` by `arith` ops (addi, subi, muli, the divisions and
remainders) and `affine.apply`; `affine.load/store` with access maps over affine dims and
symbols only (affine.for variables, values defined at the top of the function, constants),
as upstream MLIR requires; `vector.load/store` and `affine.vector_load/store` along the
innermost dim (of sub-byte lanes only on buffers with a layout in the function: LLVM packs
`vector<…xi4>` in memory but gives each `memref<…xi4>` element a byte, so the lowering must
make them right where upstream would not); calls of a helper, copies and conversions between
buffers, and `memref.cast`; linalg statements (`structured.py`) and loop nests
`layout-schedule` takes (`nests.py`), once per whole-buffer statement budget.
Index values and whole index tuples are reused, and made again by new ops in a sibling loop,
the other branch or a nested block: the value sharing of `layout-lower` works on exactly that.
Every index stays in bounds on every iteration (the range of each index value is tracked);
stores write values derived from loads and constants; loads are accumulated into the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.fuzz.choices import Choices, chance
from tests.fuzz.functions import Buffer, Callee, FunctionText, Site
from tests.fuzz.nests import Nests
from tests.fuzz.structured import Linalg
from tests.fuzz.text import INDEX_RANGE_UNBOUNDED, Types, is_float, literal, wrap_integer

N_COMPARED = (0, 15)
"""What `%n` holds (a constant of @main in [0, 16)): constants it is compared with."""
MAX_TRIPS = 8
"""Iterations of one loop; three nested loops run at most 512 times."""
VECTOR_ELEMENTS = ("f16", "f32", "f64", "i8", "i16", "i32")
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
    """What one block sees of its own: index values, index tuples (by extents), loaded
    values, the accumulator (None in blocks whose values cannot flow out)."""

    acc: str | None
    indices: list[str] = field(default_factory=list)
    tuples: list[tuple[tuple[int, ...], tuple[str, ...]]] = field(default_factory=list)
    affine_tuples: list[tuple[tuple[int, ...], tuple[str, ...]]] = field(default_factory=list)
    values: list[str] = field(default_factory=list)
    constants: dict[int, str] = field(default_factory=dict)


class Writer(FunctionText):
    """Writes a random body, tracking the range of every index value over all iterations so
    that every access is in bounds."""

    def __init__(
        self,
        c: Choices,
        types: Types,
        name: str,
        element: str,
        sites: list[Site],
        buffers: list[Buffer],
        budget: int,
        callee: Callee | None = None,
    ) -> None:
        super().__init__(c, types, name, element, sites)
        self.buffers = buffers
        self.budget = budget
        self.callee = callee
        self.ranges: dict[str, tuple[int, int]] = {"%n": (0, INDEX_RANGE_UNBOUNDED)}
        self.affine_ok: set[str] = {"%n"}
        self.recipes: list[Recipe] = []
        self.tuple_recipes: list[tuple[Recipe, ...]] = []
        self.frames: list[Frame] = []
        self.trips = 1
        self.whole_trips = MAX_TRIPS
        """Iterations around a statement on a whole buffer (a call, a copy), at most."""
        self.linalg: Linalg | None = None
        """Writes linalg statements, where the program wants them."""
        self.linalg_only = False
        """Buffers are written by linalg ops only (no stores, copies or calls): what
        `layout-apply` must see as writes, with nothing else to give them away."""
        self.touched: set[int] = set()

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def visible(self, attribute: str) -> list:
        return [item for frame in self.frames for item in getattr(frame, attribute)]

    def index_constant(self, value: int) -> str:
        """At the top of the function, or in the current block (a constant of the program
        that `layout-lower` notes and may reuse where it is visible)."""
        if not self.frames:
            return self.top_constant(value)
        visible = [f.constants[value] for f in self.frames if value in f.constants]
        if visible and self.c.boolean():
            return visible[-1]
        if self.c.boolean():
            name = self.top_constant(value)
        else:
            name = self.fresh(f"c{value}_")
            self.emit(f"{name} = arith.constant {value} : index")
            self.frame.constants[value] = name
        self.affine_ok.add(name)
        return name

    def element_constant(self, value: float) -> str:
        text = literal(
            value if is_float(self.element) else wrap_integer(int(value), self.element),
            self.element,
        )
        if self.c.boolean():
            return self.top_constant(text, self.element)
        name = self.fresh("k")
        self.emit(f"{name} = arith.constant {text} : {self.element}")
        return name

    def arith(self, op: str) -> str:
        """The element type's version of an arith op."""
        if is_float(self.element):
            return {"add": "addf", "mul": "mulf"}[op]
        return {"add": "addi", "mul": "muli"}[op]

    def accumulate(self, value: str) -> None:
        self.frame.values.append(value)
        if self.frame.acc is not None:
            total = self.fresh("s")
            self.emit(
                f"{total} = arith.{self.arith('add')} {self.frame.acc}, {value} : {self.element}"
            )
            self.frame.acc = total

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
            "const": [Recipe("const", None, k) for k in range(extent)]
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
            found = [Recipe(kind, base, k) for base in indices for k in constants]
            candidates[kind] = [r for r in found if self.fits(r, extent)]
        candidates["replay"] = [
            r
            for r in self.recipes
            if (r.base is None or r.base in indices) and self.fits(r, extent)
        ]
        kind = self.c.choice(sorted(k for k, found in candidates.items() if found))
        return self.c.choice(candidates[kind])

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
            k = recipe.constant
            result = f"{k} - d0" if recipe.kind == "rsub" else f"d0 {recipe.kind} {k}"
            self.emit(f"{name} = affine.apply affine_map<(d0) -> ({result})>({recipe.base})")
            if recipe.base in self.affine_ok:
                self.affine_ok.add(name)
        else:
            self.features.add(f"arith.{recipe.kind}")
            operands = [recipe.base, self.index_constant(recipe.constant)]
            if recipe.kind == "rsubi" or (recipe.kind in ("addi", "muli") and self.c.boolean()):
                operands.reverse()
            op = "subi" if recipe.kind == "rsubi" else recipe.kind
            self.emit(f"{name} = arith.{op} {operands[0]}, {operands[1]} : index")
        if len(self.frames) == 1:  # defined at the top of the function: an affine symbol
            self.affine_ok.add(name)
        bounds = self.recipe_range(recipe)
        assert bounds is not None
        self.ranges[name] = bounds
        self.frame.indices.append(name)
        if recipe not in self.recipes:
            self.recipes.append(recipe)
        return name

    def memref_indices(self, extents: tuple[int, ...]) -> tuple[str, ...]:
        """An index tuple: one in scope again, a recipe tuple made again, or a new one."""
        choice = self.c.integer(0, 9)
        in_scope = [t for e, t in self.visible("tuples") if e == extents]
        if choice < 3 and in_scope:
            self.features.add("same tuple")
            return self.c.choice(in_scope)
        indices = self.visible("indices")
        replayable = [
            t
            for t in self.tuple_recipes
            if len(t) == len(extents)
            and all(
                (r.base is None or r.base in indices) and self.fits(r, e)
                for r, e in zip(t, extents, strict=True)
            )
        ]
        if choice < 6 and replayable:
            self.features.add("tuple remade")
            recipes = self.c.choice(replayable)
        else:
            recipes = tuple(self.new_recipe(extent) for extent in extents)
            self.tuple_recipes.append(recipes)
        made = tuple(self.make(r) for r in recipes)
        self.frame.tuples.append((extents, made))
        return made

    def affine_expr(self, extent: int) -> str:
        """An affine access-map result over affine dims and symbols in scope, in [0, extent)."""
        options: list[str] = [str(k) for k in range(min(extent, 3))]
        usable = [
            v for v in self.visible("indices") if v in self.affine_ok and self.ranges[v][0] >= 0
        ]
        for v in usable:
            low, high = self.ranges[v]
            if high <= extent - 1:
                options.append(v)
            options += [f"{v} + {k}" for k in (1, 2) if high + k <= extent - 1]
            options += [f"{v} - {k}" for k in (1, 2) if low - k >= 0 and high - k <= extent - 1]
            options += [f"{k} * {v}" for k in (2, 3) if high * k <= extent - 1]
            options += [f"{v} floordiv {k}" for k in (2, 3) if high // k <= extent - 1]
            options += [f"{v} floordiv {k} + 1" for k in (2, 4) if high // k + 1 <= extent - 1]
            options += [f"{v} mod {k}" for k in (2, 3, extent) if 2 <= k <= extent]
            options += [f"{v} ceildiv {k}" for k in (2, 3) if -(-high // k) <= extent - 1]
            options += [f"{k} - {v}" for k in range(high, min(low + extent - 1, high + 2) + 1)]
            for w in usable:
                if high + self.ranges[w][1] <= extent - 1:
                    options.append(f"{v} + {w}")
        return self.c.choice(options)

    def affine_indices(self, extents: tuple[int, ...]) -> tuple[str, ...]:
        in_scope = [t for e, t in self.visible("affine_tuples") if e == extents]
        if in_scope and self.c.integer(0, 3) == 0:
            self.features.add("same affine tuple")
            return self.c.choice(in_scope)
        made = tuple(self.affine_expr(extent) for extent in extents)
        self.frame.affine_tuples.append((extents, made))
        return made

    def indices(self, buffer: Buffer, affine: bool, last: int | None = None) -> tuple[str, ...]:
        extents = buffer.extents if last is None else (*buffer.extents[:-1], last)
        return self.affine_indices(extents) if affine else self.memref_indices(extents)

    # -- statements -----------------------------------------------------------------------------
    def load(self, buffer: Buffer, affine: bool) -> None:
        op = "affine.load" if affine else "memref.load"
        self.features.add(op)
        self.touched.add(buffer.root)
        indices = self.indices(buffer, affine)
        value = self.fresh("v")
        self.emit(f"{value} = {op} {buffer.name}[{', '.join(indices)}] : {self.token(buffer.type)}")
        self.accumulate(value)

    def stored_value(self) -> str:
        """A loaded value, the same scaled or shifted, or a constant (never the accumulator,
        which could double on every iteration). Float factors keep values bounded."""
        values = self.visible("values")
        choice = self.c.integer(0, 3)
        if not values or choice == 0:
            return self.element_constant(self.c.choice([0.5, -3.0, 7.0, 2.0]))
        value = self.c.choice(values)
        if choice == 1:
            return value
        if is_float(self.element):
            constant = self.c.choice(
                [0.5, -0.75, 0.25, 1.0, -1.0] if choice == 2 else [0.5, -1.25, 3.0]
            )
        else:
            constant = self.c.choice([3, -1, 5, 2])
        k = self.element_constant(constant)
        result = self.fresh("w")
        self.emit(
            f"{result} = arith.{self.arith('mul' if choice == 2 else 'add')} {value}, {k} : {self.element}"
        )
        self.frame.values.append(result)
        return result

    def store(self, buffer: Buffer, affine: bool) -> None:
        op = "affine.store" if affine else "memref.store"
        self.features.add(op)
        self.touched.add(buffer.root)
        value = self.stored_value()
        indices = self.indices(buffer, affine)
        self.emit(f"{op} {value}, {buffer.name}[{', '.join(indices)}] : {self.token(buffer.type)}")

    def vector_access(self, buffer: Buffer, affine: bool, is_load: bool) -> None:
        """A 1-D vector along the innermost dim, inside it."""
        innermost = buffer.extents[-1]
        length = self.c.integer(1, min(innermost, 8 if self.element in VECTOR_ELEMENTS else 16))
        vector = f"vector<{length}x{self.element}>"
        indices = ", ".join(self.indices(buffer, affine, innermost - length + 1))
        kind = ("affine.vector_" if affine else "vector.") + ("load" if is_load else "store")
        self.features.add(kind)
        self.touched.add(buffer.root)
        where = f"{buffer.name}[{indices}] : {self.token(buffer.type)}, {vector}"
        if is_load:
            loaded = self.fresh("vec")
            self.emit(f"{loaded} = {kind} {where}")
            lane = self.fresh("e")
            self.emit(
                f"{lane} = vector.extract {loaded}[{self.c.integer(0, length - 1)}] : {self.element} from {vector}"
            )
            self.accumulate(lane)
            return
        stored = self.fresh("vec")
        if length > 1 and self.c.boolean():
            lanes = ", ".join(self.stored_value() for _ in range(length))
            self.emit(f"{stored} = vector.from_elements {lanes} : {vector}")
        else:
            self.emit(
                f"{stored} = vector.broadcast {self.stored_value()} : {self.element} to {vector}"
            )
        self.emit(f"{kind} {stored}, {where}")

    def index_statement(self) -> None:
        """An index value made in this block for the blocks nested in it."""
        buffer = self.c.choice(self.buffers)
        self.make(self.new_recipe(self.c.choice(buffer.extents)))

    def call(self) -> None:
        """A call of the helper on a buffer of its parameter's shape and an index value in
        scope as its `%n`; the result goes into the accumulator only."""
        assert self.callee is not None
        candidates = [
            b for b in self.buffers if b.writable and b.type.shape == self.callee.parameter.shape
        ]
        if not candidates:
            return
        self.features.add("func.call")
        buffer = self.c.choice(candidates)
        self.touched.add(buffer.root)
        index = self.c.choice(self.visible("indices"))
        passed = self.pass_buffer(buffer, self.callee.parameter, write_back=True)
        result = self.fresh("h")
        signature = f"({self.token(self.callee.parameter)}, index) -> {self.element}"
        self.emit(
            f"{result} = func.call {self.callee.name}({passed.operand}, {index}) : {signature}"
        )
        self.finish_pass(passed)
        if self.frame.acc is not None:
            total = self.fresh("s")
            self.emit(
                f"{total} = arith.{self.arith('add')} {self.frame.acc}, {result} : {self.element}"
            )
            self.frame.acc = total

    def transfer(self) -> None:
        """A copy or conversion between two buffers of one shape (other roots)."""
        pairs = [
            (s, t)
            for s in self.buffers
            for t in self.buffers
            if s.root != t.root and t.writable and s.extents == t.extents
        ]
        if pairs:
            source, target = self.c.choice(pairs)
            self.touched.update((source.root, target.root))
            self.move(source, target)

    def loop_bounds(self, affine: bool) -> tuple[str, int, int, int]:
        """Bounds text, first, last and step of a new loop over a buffer's extent (its
        `memref.dim` where the type says `?`)."""
        buffer = self.c.choice(self.buffers)
        dim = self.c.integer(0, len(buffer.extents) - 1)
        extent = buffer.extents[dim]
        step = self.c.integer(1, 3)
        if dim in buffer.dims and chance(self.c, 60):
            first = max(0, extent - MAX_TRIPS * step, self.c.integer(0, min(2, extent - 1)))
            upper, end = buffer.dims[dim], extent
            self.features.add("loop to memref.dim")
        else:
            first = self.c.integer(0, extent - 1)
            # usually inside the extent; sometimes past it (then the variable needs a remainder)
            end = self.c.integer(first + 1, min(extent + 2, first + MAX_TRIPS * step))
            upper = str(end) if affine else self.index_constant(end)
        last = first + (end - first - 1) // step * step
        if affine:
            bounds = f"{first} to {upper}" + (
                f" step {step}" if step != 1 or self.c.boolean() else ""
            )
        else:
            bounds = f"{self.index_constant(first)} to {upper} step {self.index_constant(step)}"
        return bounds, first, last, step

    def loop(self, affine: bool, depth: int) -> None:
        bounds, first, last, step = self.loop_bounds(affine)
        iv = self.fresh("i")
        carried = self.frame.acc is not None and self.c.integer(0, 3) > 0
        kind = "affine.for" if affine else "scf.for"
        self.features.add(kind + (" iter_args" if carried else ""))
        if carried:
            result, arg = self.fresh("r"), self.fresh("a")
            self.emit(
                f"{result} = {kind} {iv} = {bounds} iter_args({arg} = {self.frame.acc}) -> ({self.element}) {{"
            )
        else:
            self.emit(f"{kind} {iv} = {bounds} {{")
        self.ranges[iv] = (first, last)
        if affine:
            self.affine_ok.add(iv)
        trips = (last - first) // step + 1
        self.trips *= trips
        self.enter(Frame(arg if carried else None, indices=[iv]))
        self.body(depth + 1)
        if carried:
            self.emit(
                f"{'affine.yield' if affine else 'scf.yield'} {self.frame.acc} : {self.element}"
            )
        self.leave()
        self.trips //= trips
        if carried:
            self.frame.acc = result

    def branch(self, depth: int) -> None:
        indices = [v for v in self.visible("indices") if self.ranges[v][0] < self.ranges[v][1]]
        value = self.c.choice(indices)
        low, high = N_COMPARED if value == "%n" else self.ranges[value]
        constant = self.index_constant(self.c.integer(low, high))
        predicate = self.c.choice(["slt", "sle", "sgt", "sge", "eq", "ne", "ult", "uge"])
        condition = self.fresh("p")
        self.emit(f"{condition} = arith.cmpi {predicate}, {value}, {constant} : index")
        with_result = self.frame.acc is not None and self.c.integer(0, 3) > 0
        with_else = with_result or self.c.boolean()
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
            self.enter(Frame(outer if with_result else None))
            self.body(depth + 1)
            if with_result:
                self.emit(f"scf.yield {self.frame.acc} : {self.element}")
            self.frames.pop()
            self.depth -= 1
        self.emit("}")
        if with_result:
            self.frame.acc = result

    def enter(self, frame: Frame) -> None:
        self.frames.append(frame)
        self.depth += 1

    def leave(self) -> None:
        self.frames.pop()
        self.depth -= 1
        self.emit("}")

    def access(self, kind: str) -> None:
        writable = [b for b in self.buffers if b.writable]
        if (
            kind in ("store", "affine.store", "vector.store", "affine.vector_store")
            and not writable
        ):
            kind = "load"
        is_store = kind.endswith("store")
        pool = writable if is_store else self.buffers
        if "vector" in kind and self.element not in VECTOR_ELEMENTS:
            # sub-byte lanes: on buffers with a layout here (their lowering must make them
            # right under upstream, which packs `vector<…xi4>` in memory but not `memref<…xi4>`)
            pool = [b for b in pool if b.has_layout]
            if not pool:
                kind = kind.replace("vector_", "").replace("vector.", "")
                pool = writable if is_store else self.buffers
            else:
                self.features.add("sub-byte " + kind)
        buffer = self.c.choice(pool)
        affine = kind.startswith("affine")
        if "vector" in kind:
            self.vector_access(buffer, affine, not is_store)
        elif is_store:
            self.store(buffer, affine)
        else:
            self.load(buffer, affine)

    def statement(self, depth: int, first: bool) -> None:
        self.budget -= 1
        kinds = ["load", "load", "affine.load", "store", "affine.store", "index"]
        kinds += ["vector.load", "vector.store", "affine.vector_load", "affine.vector_store"]
        whole = self.trips <= self.whole_trips
        if self.callee is not None and whole:
            kinds += ["call", "call"]
        if whole and len(self.buffers) > 1:
            kinds += ["transfer"]
        if self.linalg is not None and whole:
            kinds += ["linalg"] * (4 if self.linalg_only else 1)
        if whole and depth == 0:
            kinds += ["nest"] * (8 if self.element == "i1" else 2)
        if self.linalg_only:
            kinds = [k for k in kinds if not k.endswith("store") and k not in ("call", "transfer")]
        if depth < 3:  # control flow is the point: most likely at the top
            kinds = ["scf.for", "affine.for", "scf.if", "scf.if"] * (3 - depth) + kinds
        if first and depth > 0:  # every nested block (both branches too) accesses memory
            kinds = ["load", "affine.load"] + (
                [] if self.linalg_only else ["store", "affine.store"]
            )
        kind = self.c.choice(kinds)
        if kind == "linalg":
            assert self.linalg is not None
            self.linalg.statement()
        elif kind == "nest":
            Nests(self).statement()
        elif kind == "index":
            self.index_statement()
        elif kind == "call":
            self.call()
        elif kind == "transfer":
            self.transfer()
        elif kind == "scf.if":
            self.branch(depth)
        elif kind in ("scf.for", "affine.for"):
            self.loop(kind == "affine.for", depth)
        else:
            self.access(kind)

    def body(self, depth: int) -> None:
        count = self.c.integer(2, 6) if depth == 0 else self.c.integer(1, 3)
        for number in range(count):
            if number > 0 and self.budget <= 0:
                break
            self.statement(depth, number == 0)

    def function_body(self) -> str:
        """The body at the top level; then a load of every buffer not yet touched (a layout
        nobody accesses could vanish unnoticed). Returns the accumulator."""
        zero = "0.0" if is_float(self.element) else "0"
        self.enter(Frame("%acc", indices=["%n"]))
        self.depth -= 1
        self.emit(f"%acc = arith.constant {zero} : {self.element}")
        for _ in range(self.c.integer(0, 2)):  # %n clamped into an extent, for every block
            extent = self.c.choice(self.c.choice(self.buffers).extents)
            self.make(Recipe("remui", "%n", self.c.integer(1, extent)))
        self.body(0)
        if self.callee is not None and "func.call" not in self.features and not self.linalg_only:
            self.call()
        if self.linalg_only and self.buffers[0].writable:  # the first buffer is written
            self.features.add("written by linalg only")
            self.linalg.write(self.buffers[0])  # type: ignore[union-attr]
        for buffer in self.buffers:
            if buffer.root not in self.touched:
                self.load(buffer, False)
        acc = self.frame.acc
        assert acc is not None
        self.frames.pop()
        return acc
