"""The statements of one register-tile copy, emitted scalar or vector.

An op whose values do not depend on the vector loop stays scalar; one that does becomes the
same op on vectors, its scalar operands broadcast (once per block: the copies share them,
and loads of buffers the nest never writes). Vector accesses along a buffer's last logical
dim are `affine.vector_load/store`; along another dim (the channels of logical NCHW) they
are `vector.transfer_read/write` with a one-dim permutation map; a gathered read is one scalar
load per lane and a `vector.from_elements`. Multiply-adds may fuse into
`vector.fma` (the plan says when). Index values are never copied: accesses are rebuilt
from their expressions, and other uses get an `affine.apply`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import affine, arith, vector
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    i64,
)
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from heterolayout.dialects.roots import storage_root
from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.passes.schedule.nest import Access, bare_dim, index_expr, is_check, is_index_op
from heterolayout.passes.schedule.plan import Plan
from heterolayout.passes.schedule.reductions import Combining

Add = Callable[[Operation], None]


@dataclass
class Instance:
    """One copy of the register tile: each loop's counter as an expression of the emitted
    loops' counters, and the vector length (None: scalar)."""

    offsets: dict[int, AffineExpr]
    sizes: dict[int, int]
    length: int | None = None

    def but(self, loop: int, offset: AffineExpr, size: int) -> Instance:
        return Instance({**self.offsets, loop: offset}, {**self.sizes, loop: size}, self.length)


@dataclass
class Pending:
    """A multiply whose only user is an add: emitted with it, as one `vector.fma`."""

    lhs: SSAValue
    rhs: SSAValue
    op: Operation


@dataclass
class StatementEmitter:
    """Emits the nest's statements for one copy of the register tile."""

    plan: Plan
    ivs: list[SSAValue]
    shared: dict[tuple, SSAValue] = field(default_factory=dict)
    """Loads of buffers the nest never writes, and broadcasts, by what they compute and the
    block they are in: the tile's copies share them."""
    values: dict[SSAValue, SSAValue | Pending] = field(default_factory=dict)
    preamble: list[Operation] = field(default_factory=list)
    """Index constants, emitted before the nest (shared by the whole nest)."""

    def padding(self, element: Attribute) -> SSAValue:
        """A transfer's padding value (never read: the pass emits in-bounds transfers)."""
        key = ("padding", element)
        if key not in self.shared:
            op = _zero(element)
            self.preamble.append(op)
            self.shared[key] = op.result
        return self.shared[key]

    def constant(self, value: int) -> SSAValue:
        key = ("constant", value)
        if key not in self.shared:
            op = arith.ConstantOp(IntegerAttr(value, IndexType()))
            self.preamble.append(op)
            self.shared[key] = op.result
        return self.shared[key]

    # ---- addresses -------------------------------------------------------------------------
    def substitute(self, expr: AffineExpr, instance: Instance) -> AffineExpr:
        nest = self.plan.nest
        dims = [instance.offsets[i] for i in range(len(nest.loops))]
        symbols = [AffineExpr.dimension(len(self.ivs) + k) for k in range(len(nest.symbols))]
        return expr.replace_dims_and_symbols([*dims, *symbols], [])

    def operands(self) -> list[SSAValue]:
        return [*self.ivs, *self.plan.nest.symbols]

    def affine_map(self, exprs: list[AffineExpr]) -> tuple[AffineMap, list[SSAValue]]:
        """The map over the operands it uses."""
        operands = self.operands()
        used = sorted({d for e in exprs for d in e.used_dims()})
        renumber = [
            AffineExpr.dimension(used.index(d)) if d in used else AffineExpr.constant(0)
            for d in range(len(operands))
        ]
        results = tuple(e.replace_dims_and_symbols(renumber, []) for e in exprs)
        return AffineMap(len(used), 0, results), [operands[d] for d in used]

    def index(self, expr: AffineExpr, add: Add) -> SSAValue:
        index_map, operands = self.affine_map([expr])
        result = index_map.results[0]
        if not result.used_dims():
            return self.constant(result.value)  # type: ignore[attr-defined]
        if bare_dim(result) is not None:
            return operands[0]
        apply = affine.ApplyOp(operands, AffineMapAttr(index_map))
        add(apply)
        return apply.result

    # ---- accesses --------------------------------------------------------------------------
    def is_vector(self, access: Access, instance: Instance) -> bool:
        loop = self.plan.vector_loop
        return (
            loop is not None
            and instance.length is not None
            and instance.length > 1
            and self.plan.nest.uses_loop(access, loop)
        )

    def load(self, access: Access, instance: Instance, add: Add) -> SSAValue:
        exprs = [self.substitute(e, instance) for e in access.exprs]
        vectorized = self.is_vector(access, instance)
        key = (access.buffer, tuple(exprs), vectorized and instance.length, _block(add))
        if key in self.shared:
            return self.shared[key]
        value = self._load(access, exprs, instance, add)
        if storage_root(access.buffer) not in self.plan.written:
            self.shared[key] = value
        return value

    def _load(
        self, access: Access, exprs: list[AffineExpr], instance: Instance, add: Add
    ) -> SSAValue:
        element = access.buffer.type.element_type  # type: ignore[attr-defined]
        if not self.is_vector(access, instance):
            index_map, operands = self.affine_map(exprs)
            op: Operation = affine.LoadOp(
                access.buffer, operands, AffineMapAttr(index_map), element
            )
            add(op)
            return op.results[0]
        assert instance.length is not None
        vector_type = VectorType(element, [instance.length])
        if access.op in self.plan.gathered:
            return self._gather(access, instance, vector_type, add)
        dim = self._vector_dim(access)
        if dim == len(exprs) - 1:
            index_map, operands = self.affine_map(exprs)
            op = affine.VectorLoadOp(access.buffer, operands, index_map, vector_type)  # type: ignore[arg-type]
        else:
            indices = [self.index(e, add) for e in exprs]
            op = vector.TransferReadOp(
                access.buffer,
                indices,
                self.padding(element),
                vector_type,
                ArrayAttr([BoolAttr(True, 1)]),
                AffineMapAttr(_projection(len(exprs), dim)),
            )
        add(op)
        return op.results[0]

    def _gather(
        self, access: Access, instance: Instance, vector_type: VectorType, add: Add
    ) -> SSAValue:
        """A read that walks no contiguous run along the vector loop: one scalar load per
        lane, the vector loop's counter advanced by the lane, assembled into the vector."""
        loop = self.plan.vector_loop
        assert loop is not None and instance.length is not None
        start = instance.offsets[loop]
        lanes: list[SSAValue] = []
        for lane in range(instance.length):
            at = Instance({**instance.offsets, loop: start + lane}, instance.sizes)
            index_map, operands = self.affine_map([self.substitute(e, at) for e in access.exprs])
            op = affine.LoadOp(
                access.buffer, operands, AffineMapAttr(index_map), vector_type.element_type
            )
            add(op)
            lanes.append(op.results[0])
        gathered = FromElementsOp(lanes, vector_type)
        add(gathered)
        return gathered.result

    def store(self, access: Access, value: SSAValue, instance: Instance, add: Add) -> None:
        exprs = [self.substitute(e, instance) for e in access.exprs]
        if not self.is_vector(access, instance):
            index_map, operands = self.affine_map(exprs)
            add(affine.StoreOp(value, access.buffer, operands, AffineMapAttr(index_map)))
            return
        assert instance.length is not None
        value = self.broadcast(value, instance.length, add)
        dim = self._vector_dim(access)
        if dim == len(exprs) - 1:
            index_map, operands = self.affine_map(exprs)
            add(affine.VectorStoreOp(value, access.buffer, operands, index_map))  # type: ignore[arg-type]
            return
        indices = [self.index(e, add) for e in exprs]
        add(
            vector.TransferWriteOp(
                value,
                access.buffer,
                indices,
                ArrayAttr([BoolAttr(True, 1)]),
                permutation_map=AffineMapAttr(_projection(len(exprs), dim)),
            )
        )

    def _vector_dim(self, access: Access) -> int:
        loop = self.plan.vector_loop
        return next(d for d, e in enumerate(access.exprs) if loop in e.used_dims())

    def broadcast(self, value: SSAValue, length: int, add: Add) -> SSAValue:
        if isinstance(value.type, VectorType):
            return value
        outside = self._from_outside(value)
        key = ("broadcast", value, length, None if outside else _block(add))
        if key not in self.shared:
            op = vector.BroadcastOp(value, VectorType(value.type, [length]))
            if outside:
                self.preamble.append(op)
            else:
                add(op)
            self.shared[key] = op.vector
        return self.shared[key]

    def _from_outside(self, value: SSAValue) -> bool:
        """Defined in a block around the nest (so before everything emitted for it)."""
        owner = value.owner
        block = owner if isinstance(owner, Block) else owner.parent_block()
        enclosing: Operation | None = self.plan.nest.top
        while enclosing is not None:
            if enclosing.parent_block() is block:
                return block is not None
            enclosing = enclosing.parent_op()
        return False

    # ---- statements ------------------------------------------------------------------------
    def emit(
        self,
        ops: list[Operation],
        instance: Instance,
        add: Add,
        replaced: dict[Operation, SSAValue] | None = None,
        captured: dict[Operation, SSAValue | None] | None = None,
        registers: dict[Operation, SSAValue] | None = None,
    ) -> None:
        """Emit `ops` for `instance`. Loads in `replaced` read that value instead; stores in
        `captured` record their value there instead of storing. `registers` maps stores of
        hoisted accumulators to their current value: accesses at the same element read and
        update it instead of memory."""
        nest = self.plan.nest
        fusable = _fusable(ops) if self.plan.fused else set()
        for op in ops:
            access = nest.accesses.get(op)
            register = None if access is None else self._register(access, registers)
            if access is not None and not access.write:
                if replaced is not None and op in replaced:
                    self.values[op.results[0]] = replaced[op]
                elif register is not None:
                    self.values[op.results[0]] = registers[register]  # type: ignore[index]
                else:
                    self.values[op.results[0]] = self.load(access, instance, add)
            elif access is not None:
                value = self.value(op.operands[0], instance, add)
                if captured is not None and op in captured:
                    captured[op] = value
                elif register is not None:
                    if self.is_vector(access, instance):
                        assert instance.length is not None
                        value = self.broadcast(value, instance.length, add)
                    registers[register] = value  # type: ignore[index]
                else:
                    self.store(access, value, instance, add)
            elif is_index_op(op):
                continue
            elif op in fusable:
                lhs, rhs = (self.value(o, instance, add) for o in op.operands)
                self.values[op.results[0]] = Pending(lhs, rhs, op)
            else:
                self._compute(op, instance, add)

    def _register(
        self, access: Access, registers: dict[Operation, SSAValue] | None
    ) -> Operation | None:
        """The hoisted store in `registers` whose element `access` touches."""
        for store in registers or ():
            held = self.plan.nest.accesses[store]
            if held.buffer == access.buffer and held.exprs == access.exprs:
                return store
        return None

    def value(self, original: SSAValue, instance: Instance, add: Add) -> SSAValue:
        found = self.values.get(original)
        if isinstance(found, Pending):
            return self._multiply(found, add)
        if found is not None:
            return found
        if isinstance(original.type, IndexType) and original.owner is not None:
            expr = index_expr(self.plan.nest, original)
            if expr is not None and self._defined_in_nest(original):
                return self.index(self.substitute(expr, instance), add)
        return original

    def _defined_in_nest(self, value: SSAValue) -> bool:
        owner = value.owner
        inside = {loop.iv for loop in self.plan.nest.loops}
        return value in inside or (
            isinstance(owner, Operation) and owner in self.plan.nest.statements()
        )

    def _multiply(self, pending: Pending, add: Add) -> SSAValue:
        length = _length(pending.lhs, pending.rhs)
        lhs, rhs = pending.lhs, pending.rhs
        if length is not None:
            lhs, rhs = self.broadcast(lhs, length, add), self.broadcast(rhs, length, add)
        op = rebuilt(pending.op, [lhs, rhs], length)
        add(op)
        self.values[pending.op.results[0]] = op.results[0]
        return op.results[0]

    def _compute(self, op: Operation, instance: Instance, add: Add) -> None:
        combining = self.plan.partials.get(op)
        if combining is not None and self._partial_chunk(op, instance):
            self._combine_chunk(op, combining, instance, add)
            return
        pending = [self.values.get(o) for o in op.operands]
        if isinstance(op, arith.AddfOp) and any(isinstance(p, Pending) for p in pending):
            fused = self._fma(op, instance, add)
            if fused is not None:
                self.values[op.results[0]] = fused
                return
        operands = [self.value(o, instance, add) for o in op.operands]
        length = _length(*operands)
        if is_check(op) and length is not None:
            every = vector.ReductionOp.create(
                operands=[operands[0]],
                result_types=[op.operands[0].type],
                properties={"kind": CombiningKindAttr(CombiningKindFlag.AND)},
            )
            add(every)
            operands, length = [every.results[0]], None
        elif length is not None:
            operands = [self.broadcast(o, length, add) for o in operands]
        new = rebuilt(op, operands, length)
        add(new)
        for old, result in zip(op.results, new.results, strict=True):
            self.values[old] = result

    # ---- partial results of a reduction (`reductions`) -------------------------------------
    def identity(self, combining: Combining, element: Attribute, length: int) -> SSAValue:
        """The vector every partial result starts from (emitted before the nest)."""
        key = ("identity", combining, element, length)
        if key not in self.shared:
            scalar = arith.ConstantOp(combining.identity)  # type: ignore[arg-type]
            splat = vector.BroadcastOp(scalar.result, VectorType(element, [length]))
            self.preamble.extend([scalar, splat])
            self.shared[key] = splat.vector
        return self.shared[key]

    def start(self, combining: Combining, kind: Attribute) -> SSAValue:
        """A block's starting value of type `kind` (a vector or an element): the identity."""
        if isinstance(kind, VectorType):
            return self.identity(combining, kind.element_type, kind.get_shape()[0])
        key = ("identity", combining, kind, None)
        if key not in self.shared:
            scalar = arith.ConstantOp(combining.identity)  # type: ignore[arg-type]
            self.preamble.append(scalar)
            self.shared[key] = scalar.result
        return self.shared[key]

    def fold(self, partial: SSAValue, start: SSAValue, combining: Combining, add: Add) -> SSAValue:
        """`start` combined with every lane of `partial`, lane 0 first."""
        op = vector.ReductionOp.create(
            operands=[partial, start],
            result_types=[start.type],
            properties={"kind": CombiningKindAttr(CombiningKindFlag(combining.kind))},
        )
        add(op)
        return op.results[0]

    def _partial_chunk(self, op: Operation, instance: Instance) -> bool:
        """The chunk of the reduction loop is shorter than the partial results."""
        lengths = []
        for operand in op.operands:
            found = self.values.get(operand)
            if isinstance(found, Pending):
                lengths.append(_length(found.lhs, found.rhs) or 0)
            elif found is not None:
                lengths.append(_length(found) or 0)
        return (instance.length or 1) != max(lengths, default=0)

    def _combine_chunk(
        self, op: Operation, combining: Combining, instance: Instance, add: Add
    ) -> None:
        """The combination for a short last chunk: its values widened with the identity."""
        operands = [self.value(o, instance, add) for o in op.operands]
        full = max(_length(v) or 0 for v in operands)
        chunk = instance.length or 1
        widened = []
        for value in operands:
            if _length(value) != full:
                value = self.broadcast(value, chunk, add)
                element = op.results[0].type
                base = self.identity(combining, element, full)
                lanes = [*range(chunk), *range(2 * chunk, chunk + full)]
                shuffle = vector.ShuffleOp(
                    value,
                    base,
                    DenseArrayBase.from_list(i64, lanes),
                    result_type=VectorType(element, [full]),
                )
                add(shuffle)
                value = shuffle.result
            widened.append(value)
        new = rebuilt(op, widened, full)
        add(new)
        self.values[op.results[0]] = new.results[0]

    def _fma(self, op: Operation, instance: Instance, add: Add) -> SSAValue | None:
        product_index = 0 if isinstance(self.values.get(op.operands[0]), Pending) else 1
        pending = self.values[op.operands[product_index]]
        assert isinstance(pending, Pending)
        other = self.value(op.operands[1 - product_index], instance, add)
        length = _length(pending.lhs, pending.rhs, other)
        if length is None:
            return None
        lhs, rhs, acc = (self.broadcast(v, length, add) for v in (pending.lhs, pending.rhs, other))
        fma = vector.FMAOp(lhs, rhs, acc)
        add(fma)
        return fma.res


def _block(add: Add) -> object:
    """The block an inserter adds to: shared values are only shared within it."""
    return getattr(add, "__self__", add)


def _fusable(ops: list[Operation]) -> set[Operation]:
    """Multiplies whose only use is an add among `ops`."""
    found = set()
    for op in ops:
        uses = list(op.results[0].uses) if isinstance(op, arith.MulfOp) else []
        if (
            len(uses) == 1
            and isinstance(uses[0].operation, arith.AddfOp)
            and uses[0].operation in ops
        ):
            found.add(op)
    return found


def _length(*values: SSAValue) -> int | None:
    for value in values:
        if isinstance(value.type, VectorType):
            return value.type.get_shape()[0]
    return None


def rebuilt(op: Operation, operands: list[SSAValue], length: int | None) -> Operation:
    """`op` on new operands; its results become vectors of `length` when given."""
    types: list[Attribute] = [r.type for r in op.results]
    if length is not None:
        types = [VectorType(t, [length]) for t in types]
    return type(op).create(
        operands=operands,
        result_types=types,
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )


def _zero(element: Attribute) -> arith.ConstantOp:
    if isinstance(element, IndexType | IntegerType):
        return arith.ConstantOp(IntegerAttr(0, element))
    return arith.ConstantOp(FloatAttr(0.0, element))  # type: ignore[call-overload]


def _projection(rank: int, dim: int) -> AffineMap:
    return AffineMap(rank, 0, (AffineExpr.dimension(dim),))
