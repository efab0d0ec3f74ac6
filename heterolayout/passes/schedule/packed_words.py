"""Word-level code for bit-packed buffers: a loop over the lanes of a packed dim becomes a
loop over its containers, each container's lanes handled as one `vector<L x i1>`.

Reductions: where the innermost statements add `extui(b)` (or `extsi`, or subtract it) of
an i1 `b` computed by xor/and/or/equality from loads along the packed dim into one
accumulator element, the lane loop moves innermost (integer sums do not depend on their
order), the accumulator stays in a register across the containers, and each container
adds `math.ctpop` of its bits. A dim that does not end on a container boundary ends in a
shorter word: pad lanes are never read, so they never count.

Maps: where the statements store an i1 lane of a packed buffer along that dim, the lanes
of one container are computed (as vectors where the ops are bitwise, else lane by lane)
and the container is stored once. `layout-lower` turns the word-long transfers into
container loads and stores with a `vector.bitcast`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import affine, arith, math, memref, vector
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from heterolayout.dialects.arith_ops import BITWISE
from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.roots import storage_root
from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.layout.model import Layout
from heterolayout.passes.schedule.nest import (
    Access,
    Nest,
    NotScheduled,
    bare_dim,
    index_expr,
    is_index_op,
)
from heterolayout.passes.schedule.statements import rebuilt

Add = Callable[[Operation], None]


def lane_dim(layout: Layout) -> int | None:
    """The logical dim whose consecutive indices are the lanes of one container."""
    if layout.packing is None or layout.dtype is None or layout.dtype.bits != 1:
        return None
    last, lanes = len(layout.physical_shape) - 1, layout.physical_shape[-1]
    for dim in range(layout.rank):
        digits = layout.dim_digits(dim) or ()
        if digits and digits[-1] == (last, 1) and (len(digits) == 1 or digits[-2][1] == lanes):
            return dim
    return None


@dataclass(frozen=True)
class Word:
    loop: int
    """The loop over the packed dim (counts 0, 1, … through it)."""
    lanes: int
    buffer: SSAValue


def word_loop(nest: Nest) -> Word | None:
    """The loop that walks the lanes of a packed i1 buffer, if one does."""
    for access in nest.accesses.values():
        layout = layout_of(access.buffer.type)
        dim = None if layout is None else lane_dim(layout)
        if layout is None or dim is None:
            continue
        loop = bare_dim(access.exprs[dim])
        if loop is not None and loop < len(nest.loops):
            lanes = layout.physical_shape[-1]
            assert lanes is not None
            return Word(loop, lanes, access.buffer)
    return None


@dataclass
class Reduction:
    accumulator: Access
    """The load of the accumulator element."""
    store: Access
    add: Operation
    count: Operation
    """The `extui`/`extsi` of the i1 that is summed."""
    sign: int


def reduction(nest: Nest, word: Word) -> Reduction:
    """The body's accumulation, or NotScheduled saying why it is not one."""
    stores = [
        nest.accesses[op] for op in nest.body if op in nest.accesses and nest.accesses[op].write
    ]
    if len(stores) != 1:
        raise NotScheduled(nest.top, f"{len(stores)} stores in the innermost body, not one sum")
    (store,) = stores
    if nest.uses_loop(store, word.loop):
        raise NotScheduled(store.op, "the stored element moves with the packed dim (a map)")
    root = storage_root(store.buffer)
    same = [
        a for a in nest.accesses.values() if storage_root(a.buffer) == root and a.op in nest.body
    ]
    loads = [a for a in same if not a.write]
    if len(loads) != 1 or loads[0].exprs != store.exprs:
        raise NotScheduled(store.op, "the accumulator is not read once, where it is stored")
    (load,) = loads
    add = store.op.operands[0].owner
    if not isinstance(add, (arith.AddiOp, arith.SubiOp)) or add not in nest.body:
        raise NotScheduled(store.op, "the stored value is not an integer addition")
    acc = load.op.results[0]
    others = [o for o in add.operands if o is not acc]
    if len(others) != 1 or (isinstance(add, arith.SubiOp) and add.operands[0] is not acc):
        raise NotScheduled(add, "the addition does not add a count to the accumulator")
    count = others[0].owner
    if not isinstance(count, (arith.ExtUIOp, arith.ExtSIOp)) or count.operands[0].type != i1:
        raise NotScheduled(add, "the added value is not an i1 extended to an integer")
    for value in (acc, count.results[0], add.results[0]):
        if len(list(value.uses)) != 1:
            raise NotScheduled(value.owner, "a partial sum has other uses")
    sign = -1 if isinstance(count, arith.ExtSIOp) else 1
    return Reduction(load, store, add, count, -sign if isinstance(add, arith.SubiOp) else sign)


@dataclass
class WordEmitter:
    """Emits the statements for one word: loop counters as affine expressions of the
    emitted loops' values (`env`, one per nest dim), the packed loop's counter `start + j`."""

    nest: Nest
    word: Word
    env: list[AffineExpr]
    operands: list[SSAValue]
    length: int = 1
    values: dict[SSAValue, SSAValue | list[SSAValue]] = field(default_factory=dict)

    def at(self, exprs: tuple[AffineExpr, ...], lane: int | None) -> list[AffineExpr]:
        env = list(self.env)
        if lane is not None:
            env[self.word.loop] = env[self.word.loop] + lane
        return [e.replace_dims_and_symbols(env, []) for e in exprs]

    def indices(self, exprs: list[AffineExpr], add: Add) -> list[SSAValue]:
        result = []
        for expr in exprs:
            used = sorted(expr.used_dims())
            if bare_dim(expr) is not None:
                result.append(self.operands[expr.position])  # type: ignore[attr-defined]
                continue
            if not used:
                op: Operation = arith.ConstantOp(IntegerAttr(expr.value, IndexType()))  # type: ignore[attr-defined]
            else:
                renumber = [
                    AffineExpr.dimension(used.index(d)) if d in used else AffineExpr.constant(0)
                    for d in range(len(self.operands))
                ]
                mapped = AffineMap(len(used), 0, (expr.replace_dims_and_symbols(renumber, []),))
                op = affine.ApplyOp([self.operands[d] for d in used], AffineMapAttr(mapped))
            add(op)
            result.append(op.results[0])
        return result

    def varies(self, access: Access) -> bool:
        return self.nest.uses_loop(access, self.word.loop)

    def load(self, access: Access, add: Add) -> SSAValue | list[SSAValue]:
        element = access.buffer.type.element_type  # type: ignore[attr-defined]
        if not self.varies(access):
            return self._scalar_load(access, None, add)
        dim = self._walked_dim(access)
        if dim is None:
            return [self._scalar_load(access, j, add) for j in range(self.length)]
        indices = self.indices(self.at(access.exprs, None), add)
        padding = (
            arith.ConstantOp(IntegerAttr(0, element))
            if isinstance(element, IntegerType | IndexType)
            else arith.ConstantOp(FloatAttr(0.0, element))
        )
        add(padding)
        op = vector.TransferReadOp(
            access.buffer,
            indices,
            padding.result,
            VectorType(element, [self.length]),
            ArrayAttr([BoolAttr(True, i1)]),
            AffineMapAttr(AffineMap(len(access.exprs), 0, (AffineExpr.dimension(dim),))),
        )
        add(op)
        return op.results[0]

    def store(self, access: Access, value: SSAValue | list[SSAValue], add: Add) -> None:
        if not self.varies(access):
            assert isinstance(value, SSAValue)
            add(memref_store(value, access, self.indices(self.at(access.exprs, None), add)))
            return
        dim = self._walked_dim(access)
        if dim is None:
            for j, lane in enumerate(self.lanes(value, add)):
                add(memref_store(lane, access, self.indices(self.at(access.exprs, j), add)))
            return
        indices = self.indices(self.at(access.exprs, None), add)
        add(
            vector.TransferWriteOp(
                self.vector(value, add),
                access.buffer,
                indices,
                ArrayAttr([BoolAttr(True, i1)]),
                permutation_map=AffineMapAttr(
                    AffineMap(len(access.exprs), 0, (AffineExpr.dimension(dim),))
                ),
            )
        )

    def _walked_dim(self, access: Access) -> int | None:
        """The one dim the packed loop walks at unit stride (a transfer along it)."""
        walked = [d for d, e in enumerate(access.exprs) if self.word.loop in e.used_dims()]
        forms = access.linear(self.nest.rank)
        if len(walked) != 1 or forms is None or forms[walked[0]][0][self.word.loop] != 1:
            return None
        return walked[0]

    def _scalar_load(self, access: Access, lane: int | None, add: Add) -> SSAValue:
        indices = self.indices(self.at(access.exprs, lane), add)
        element = access.buffer.type.element_type  # type: ignore[attr-defined]
        op = memref_load(access.buffer, indices, element)
        add(op)
        return op.results[0]

    # ---- values ------------------------------------------------------------------------
    def lanes(self, value: SSAValue | list[SSAValue], add: Add) -> list[SSAValue]:
        if isinstance(value, list):
            return value
        if not isinstance(value.type, VectorType):
            return [value] * self.length
        element = value.type.element_type
        ops = [vector.ExtractOp(value, [j], element) for j in range(self.length)]
        for op in ops:
            add(op)
        return [op.results[0] for op in ops]

    def vector(self, value: SSAValue | list[SSAValue], add: Add) -> SSAValue:
        if isinstance(value, list):
            op: Operation = FromElementsOp(value, VectorType(value[0].type, [self.length]))
        elif isinstance(value.type, VectorType):
            return value
        else:
            op = vector.BroadcastOp(value, VectorType(value.type, [self.length]))
        add(op)
        return op.results[0]

    def value(self, original: SSAValue, add: Add) -> SSAValue | list[SSAValue]:
        found = self.values.get(original)
        if found is not None:
            return found
        if isinstance(original.type, IndexType):
            expr = index_expr(self.nest, original)
            if expr is not None and (expr.used_dims() or original.owner in self.nest.statements()):
                if self.word.loop in expr.used_dims():
                    return [self.indices(self.at((expr,), j), add)[0] for j in range(self.length)]
                return self.indices(self.at((expr,), None), add)[0]
        return original

    def compute(self, op: Operation, add: Add) -> None:
        operands = [self.value(o, add) for o in op.operands]
        varying = any(isinstance(o, list) or isinstance(o.type, VectorType) for o in operands)
        if not varying:
            self._emit(op, operands, add, None)  # type: ignore[arg-type]
            return
        if _bitwise_i1(op):
            vectors = [self.vector(o, add) for o in operands]
            if isinstance(op, arith.CmpiOp):
                differ = arith.XOrIOp(vectors[0], vectors[1])
                add(differ)
                if op.predicate.value.data == 0:  # eq
                    ones = self._ones(add)
                    differ = arith.XOrIOp(differ.result, ones)
                    add(differ)
                self.values[op.results[0]] = differ.result
                return
            self._emit(op, vectors, add, self.length)
            return
        lanes = [self.lanes(o, add) for o in operands]
        results: list[SSAValue] = []
        for j in range(self.length):
            new = rebuilt(op, [lane[j] for lane in lanes], None)
            add(new)
            results.append(new.results[0])
        self.values[op.results[0]] = results

    def _emit(self, op: Operation, operands: list[SSAValue], add: Add, length: int | None) -> None:
        new = rebuilt(op, operands, length)
        add(new)
        for old, result in zip(op.results, new.results, strict=True):
            self.values[old] = result

    def _ones(self, add: Add) -> SSAValue:
        op = arith.ConstantOp(
            DenseIntOrFPElementsAttr.from_list(VectorType(i1, [self.length]), [1] * self.length)
        )
        add(op)
        return op.result

    def count(self, bits: SSAValue | list[SSAValue], result: IntegerType, add: Add) -> SSAValue:
        """The number of set lanes, as `result`: one `math.ctpop` of the word."""
        word_type = IntegerType(self.length)
        cast = vector.BitcastOp(self.vector(bits, add), VectorType(word_type, [1]))
        add(cast)
        extract = vector.ExtractOp(cast.result, [0], word_type)
        add(extract)
        counted = math.CtPopOp(extract.result)
        add(counted)
        if self.length == result.width.data:
            return counted.result
        resize = arith.ExtUIOp if self.length < result.width.data else arith.TruncIOp
        widened = resize(counted.result, result)
        add(widened)
        return widened.result


def _bitwise_i1(op: Operation) -> bool:
    if any(o.type != i1 for o in op.operands):
        return False
    if isinstance(op, BITWISE):
        return True
    return isinstance(op, arith.CmpiOp) and op.predicate.value.data in (0, 1)


def memref_load(buffer: SSAValue, indices: list[SSAValue], element: Attribute) -> Operation:
    return memref.LoadOp.create(operands=[buffer, *indices], result_types=[element])


def memref_store(value: SSAValue, access: Access, indices: list[SSAValue]) -> Operation:
    return memref.StoreOp.create(operands=[value, access.buffer, *indices])


# ---- the nest, rebuilt ---------------------------------------------------------------------
def word_level(nest: Nest) -> tuple[Operation, list[Operation], str] | None:
    """The loop to replace, its word-level replacement and what was done; None when no loop
    walks packed lanes; NotScheduled when one does but the nest is not a sum or a map."""
    word = word_loop(nest)
    if word is None:
        return None
    first = nest.split if nest.split < len(nest.loops) else 0
    loop = nest.loops[word.loop]
    if word.loop < first:
        raise NotScheduled(loop.op, "the loop over packed lanes is not among the innermost loops")
    stores = [a for a in nest.accesses.values() if a.write and a.op in nest.body]
    if any(nest.uses_loop(a, word.loop) for a in stores):
        _check_map(nest, first, stores)
        found: Reduction | None = None
    else:
        found = reduction(nest, word)
    emitter = WordEmitter(nest, word, [AffineExpr.constant(0)] * nest.rank, [])
    for position in range(first):
        outer = nest.loops[position]
        value = _operand(emitter, outer.iv)
        emitter.env[position] = (
            (value - outer.first) // outer.step if outer.step != 1 else value - outer.first
        )
    for k, symbol in enumerate(nest.symbols):
        emitter.env[len(nest.loops) + k] = _operand(emitter, symbol)
    block = Block()
    order = [i for i in range(first, len(nest.loops)) if i != word.loop]
    _loops(emitter, order, found, block.add_op)
    ops = list(block.ops)
    for op in ops:
        op.detach()
    kind = "sum with math.ctpop" if found is not None else "map"
    return nest.loops[first].op, ops, f"word-level {kind} over containers of {word.lanes} lanes"


def _operand(emitter: WordEmitter, value: SSAValue) -> AffineExpr:
    emitter.operands.append(value)
    return AffineExpr.dimension(len(emitter.operands) - 1)


def _check_map(nest: Nest, first: int, stores: list[Access]) -> None:
    """Every iteration of the inner loops writes its own elements and reads no other
    iteration's: then they may run in any order, a container's lanes together."""
    inner = set(range(first, len(nest.loops)))
    for store in stores:
        bare = [bare_dim(e) for e in store.exprs]
        if not inner <= set(bare):
            raise NotScheduled(store.op, "a store does not index every inner loop by itself")
        root = storage_root(store.buffer)
        for other in nest.accesses.values():
            if (
                storage_root(other.buffer) == root
                and other.op in nest.body
                and other.exprs != store.exprs
            ):
                raise NotScheduled(other.op, "the stored buffer is accessed elsewhere in the nest")


def _loops(emitter: WordEmitter, order: list[int], found: Reduction | None, add: Add) -> None:
    nest = emitter.nest
    if not order:
        _containers(emitter, found, add)
        return
    loop = nest.loops[order[0]]
    body = Block(arg_types=[IndexType()])
    body.args[0].name_hint = loop.iv.name_hint
    emitter.env[order[0]] = _operand(emitter, body.args[0])
    _loops(emitter, order[1:], found, body.add_op)
    body.add_op(affine.YieldOp.get())
    add(affine.ForOp.from_region([], [], [], [], 0, loop.trips, Region(body)))


def _containers(emitter: WordEmitter, found: Reduction | None, add: Add) -> None:
    """The loop over full containers, then the partial one."""
    word, nest = emitter.word, emitter.nest
    full, rest = divmod(nest.loops[word.loop].trips, word.lanes)
    total: SSAValue | None = None
    if found is not None:
        emitter.values = {}
        initial = emitter.load(found.accumulator, add)
        assert isinstance(initial, SSAValue)
        total = initial
    if full > 1:
        carried = [] if total is None else [total]
        body = Block(arg_types=[IndexType(), *[v.type for v in carried]])
        body.args[0].name_hint = f"{nest.loops[word.loop].iv.name_hint or 'lane'}_word"
        emitter.env[word.loop] = _operand(emitter, body.args[0]) * word.lanes
        result = _word(
            emitter, word.lanes, found, None if total is None else body.args[1], body.add_op
        )
        body.add_op(affine.YieldOp.get(*([] if result is None else [result])))
        types = [v.type for v in carried]
        loop = affine.ForOp.from_region([], [], carried, types, 0, full, Region(body))
        add(loop)
        total = loop.results[0] if carried else None
    elif full == 1:
        emitter.env[word.loop] = AffineExpr.constant(0)
        total = _word(emitter, word.lanes, found, total, add)
    if rest:
        emitter.env[word.loop] = AffineExpr.constant(full * word.lanes)
        total = _word(emitter, rest, found, total, add)
    if found is not None:
        assert total is not None
        emitter.store(found.store, total, add)


def _word(
    emitter: WordEmitter, length: int, found: Reduction | None, total: SSAValue | None, add: Add
) -> SSAValue | None:
    """The statements for one word of `length` lanes; a sum returns the new total."""
    emitter.length, emitter.values = length, {}
    nest = emitter.nest
    skipped = (
        set() if found is None else {found.accumulator.op, found.add, found.count, found.store.op}
    )
    for op in nest.body:
        access = nest.accesses.get(op)
        if op in skipped or is_index_op(op):
            continue
        if access is None:
            emitter.compute(op, add)
        elif access.write:
            emitter.store(access, emitter.value(op.operands[0], add), add)
        else:
            emitter.values[op.results[0]] = emitter.load(access, add)
    if found is None:
        return None
    assert total is not None and isinstance(total.type, IntegerType)
    bits = emitter.value(found.count.operands[0], add)
    count = emitter.count(bits, total.type, add)
    combined = arith.AddiOp(total, count) if found.sign > 0 else arith.SubiOp(total, count)
    add(combined)
    return combined.result
