"""Emitting a planned nest: the loops around the tile, its copies, the reduction loops that
carry the accumulators, and each copy's statements.

A digit of weight `w` over a chunk of `s` counter values runs `s floordiv w` full chunks (a
loop when there are several) and then, when `s mod w` is not 0, one chunk of the rest. So
any trip count works; a block that does not divide its dim ends in a shorter vector.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import IndexType, VectorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr

from heterolayout.dialects.roots import storage_root
from heterolayout.passes.schedule.nest import Access
from heterolayout.passes.schedule.plan import Plan
from heterolayout.passes.schedule.reductions import Combining
from heterolayout.passes.schedule.register_tiling import copies, vector_length
from heterolayout.passes.schedule.rolled_loops import overlapping_reads, roll, rollable
from heterolayout.passes.schedule.statements import Instance, StatementEmitter


class NestEmitter:
    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.ivs: list[SSAValue] = []
        self.forwarded = _forwarded_stores(plan)
        self.constants: dict[tuple, SSAValue] = {}
        self.preamble: list[Operation] = []
        self.first_block = True
        """Whether the tile being emitted runs the first block of `plan.reduction_block`
        (or there is none): its statements before the reduction loops run."""
        self.last_block = True
        """Whether it runs the last one: its statements after them run."""

    def emit(self) -> list[Operation]:
        """The ops that replace the nest."""
        nest = self.plan.nest
        block = Block()
        start = Instance(
            {i: AffineExpr.constant(0) for i in range(len(nest.loops))},
            {i: loop.trips for i, loop in enumerate(nest.loops)},
        )
        self._outer(0, start, block)
        ops = list(block.ops)
        for op in ops:
            op.detach()
        return [*self.preamble, *ops]

    def _loop_block(self, loop: int, carried: list[SSAValue]) -> Block:
        body = Block(arg_types=[IndexType(), *[v.type for v in carried]])
        hint = self.plan.nest.loops[loop].iv.name_hint
        if hint:
            body.args[0].name_hint = hint
        self.ivs.append(body.args[0])
        return body

    def _outer(self, index: int, instance: Instance, block: Block) -> None:
        if index == len(self.plan.outer):
            self._tile(instance, block)
            return
        digit = self.plan.outer[index]
        if digit == self.plan.reduction_block:
            self._blocks(index, instance, block)
            return
        loop, weight = digit.loop, digit.weight
        offset, size = instance.offsets[loop], instance.sizes[loop]
        count, rest = divmod(size, weight)
        if count > 1:
            body = self._loop_block(loop, [])
            counter = AffineExpr.dimension(len(self.ivs) - 1)
            self._outer(index + 1, instance.but(loop, offset + counter * weight, weight), body)
            self.ivs.pop()
            body.add_op(affine.YieldOp.get())
            block.add_op(affine.ForOp.from_region([], [], [], [], 0, count, Region(body)))
        elif count == 1:
            self._outer(index + 1, instance.but(loop, offset, weight), block)
        if rest:
            self._outer(index + 1, instance.but(loop, offset + count * weight, rest), block)

    def _blocks(self, index: int, instance: Instance, block: Block) -> None:
        """The reduction block digit: its first and last blocks apart (they run the
        statements before and after the reduction loops), a loop over the ones between."""
        digit = self.plan.outer[index]
        loop, weight = digit.loop, digit.weight
        offset, size = instance.offsets[loop], instance.sizes[loop]
        count, rest = divmod(size, weight)
        chunks = [(offset + k * weight, weight) for k in range(count)]
        if rest:
            chunks.append((offset + count * weight, rest))
        middle = chunks[1:-1]
        self._block(index, instance, chunks[0], True, len(chunks) == 1, block)
        if len(middle) == 1:
            self._block(index, instance, middle[0], False, False, block)
        elif middle:
            body = self._loop_block(loop, [])
            counter = AffineExpr.dimension(len(self.ivs) - 1)
            start = (middle[0][0] + counter * weight, weight)
            self._block(index, instance, start, False, False, body)
            self.ivs.pop()
            body.add_op(affine.YieldOp.get())
            block.add_op(affine.ForOp.from_region([], [], [], [], 0, len(middle), Region(body)))
        if len(chunks) > 1:
            self._block(index, instance, chunks[-1], False, True, block)
        self.first_block = self.last_block = True

    def _block(
        self,
        index: int,
        instance: Instance,
        chunk: tuple[AffineExpr, int],
        first: bool,
        last: bool,
        block: Block,
    ) -> None:
        self.first_block, self.last_block = first, last
        loop = self.plan.outer[index].loop
        self._outer(index + 1, instance.but(loop, *chunk), block)

    def _tile(self, instance: Instance, block: Block) -> None:
        plan = self.plan
        instances = [instance]
        for digit in plan.tile:
            if digit.kind == "unroll":
                instances = copies(instances, digit)
        if plan.vector_loop is not None and not plan.partials:
            for copy in instances:
                copy.length = copy.sizes[plan.vector_loop]
        shared: dict[tuple, SSAValue] = {
            key: value
            for key, value in self.constants.items()
            if key[0] in ("constant", "padding", "identity")
            or (key[0] == "broadcast" and key[3] is None)
        }
        emitters = [
            StatementEmitter(plan, self.ivs, shared, preamble=self.preamble) for _ in instances
        ]
        add = block.add_op
        accumulators: list[SSAValue] = []
        for copy, emitter in zip(instances, emitters, strict=True):
            captured: dict[Operation, SSAValue | None] = dict.fromkeys(self.forwarded.values())
            if self.first_block:
                emitter.emit(plan.nest.pre, copy, add, captured=captured)
            for load, _ in plan.hoisted:
                forwarded = self.forwarded.get(load.op) if self.first_block else None
                if forwarded is None:
                    accumulators.append(emitter.load(load, copy, add))
                    continue
                value = captured[forwarded]
                assert value is not None
                if emitter.is_vector(load, copy):
                    assert copy.length is not None
                    value = emitter.broadcast(value, copy.length, add)
                accumulators.append(value)
        self.constants.update(shared)
        initial = accumulators
        if plan.partials:
            accumulators = self._partials(emitters, initial)
        results = self._inner(0, instances, emitters, accumulators, block)
        if plan.partials:
            results = self._folded(emitters, results, initial, add)
        width = len(plan.hoisted)
        kept = _kept_in_registers(plan) if self.last_block else []
        for number, (copy, emitter) in enumerate(zip(instances, emitters, strict=True)):
            registers: dict[Operation, SSAValue] = {}
            for slot, (_, store) in enumerate(plan.hoisted):
                if store in kept:
                    registers[store.op] = results[number * width + slot]
                else:
                    emitter.store(store, results[number * width + slot], copy, add)
            if self.last_block:
                emitter.emit(plan.nest.post, copy, add, registers=registers)
            for store in kept:
                emitter.store(store, registers[store.op], copy, add)

    def _combinings(self, found: dict[Operation, Combining]) -> list[Combining]:
        """Each hoisted accumulator's combination in `found` (`plan.partials` or
        `plan.blocked`), in `plan.hoisted`'s order."""
        combinings = []
        for _, store in self.plan.hoisted:
            assert store.value is not None
            combinings.append(found[store.value.owner])  # type: ignore[index]
        return combinings

    def _partials(
        self, emitters: list[StatementEmitter], initial: list[SSAValue]
    ) -> list[SSAValue]:
        """The vectors of partial results the reduction loops start from: the identity."""
        combinings = self._combinings(self.plan.partials)
        width, length = len(combinings), vector_length(self.plan)
        return [
            emitters[number // width].identity(combinings[number % width], start.type, length)
            for number, start in enumerate(initial)
        ]

    def _folded(
        self,
        emitters: list[StatementEmitter],
        partials: list[SSAValue],
        initial: list[SSAValue],
        add: Callable[[Operation], None],
    ) -> list[SSAValue]:
        """Each accumulator's partial results folded into its value before the loops."""
        combinings = self._combinings(self.plan.partials)
        width = len(combinings)
        return [
            emitters[number // width].fold(partial, start, combinings[number % width], add)
            for number, (partial, start) in enumerate(zip(partials, initial, strict=True))
        ]

    def _block_starts(
        self, emitters: list[StatementEmitter], totals: list[SSAValue]
    ) -> list[SSAValue]:
        """The identity each block of a long sum starts from (`blocked_sums`)."""
        combinings = self._combinings(self.plan.blocked)
        width = len(combinings)
        return [
            emitters[number // width].start(combinings[number % width], total.type)
            for number, total in enumerate(totals)
        ]

    def _block_added(
        self, totals: list[SSAValue], sums: list[SSAValue], block: Block
    ) -> list[SSAValue]:
        """Each block's sum added to its accumulator's total."""
        added: list[SSAValue] = []
        for total, partial in zip(totals, sums, strict=True):
            op = arith.AddfOp(total, partial)
            block.add_op(op)
            added.append(op.result)
        return added

    def _inner(
        self,
        index: int,
        instances: list[Instance],
        emitters: list[StatementEmitter],
        carried: list[SSAValue],
        block: Block,
        fresh: bool = False,
    ) -> list[SSAValue]:
        plan = self.plan
        if index == plan.block_depth and not fresh:
            starts = self._block_starts(emitters, carried)
            sums = self._inner(index, instances, emitters, starts, block, fresh=True)
            return self._block_added(carried, sums, block)
        if index == len(plan.inner):
            return self._body(instances, emitters, carried, block)
        digit = plan.inner[index]
        loop, weight = digit.loop, digit.weight
        offset, size = instances[0].offsets[loop], instances[0].sizes[loop]
        count, rest = divmod(size, weight)
        if count > 1:
            body = self._loop_block(loop, carried)
            counter = AffineExpr.dimension(len(self.ivs) - 1)
            moved = [c.but(loop, offset + counter * weight, weight) for c in instances]
            results = self._inner(index + 1, moved, emitters, list(body.args[1:]), body)
            self.ivs.pop()
            body.add_op(affine.YieldOp.get(*results))
            types = [v.type for v in carried]
            loop_op = affine.ForOp.from_region([], [], carried, types, 0, count, Region(body))
            op: Operation = loop_op
            if self._kept_rolled(index) and rollable(loop_op):
                op = roll(loop_op, self._constant)
            block.add_op(op)
            carried = list(op.results)
        elif count == 1:
            moved = [c.but(loop, offset, weight) for c in instances]
            carried = self._inner(index + 1, moved, emitters, carried, block)
        if rest:
            moved = [c.but(loop, offset + count * weight, rest) for c in instances]
            carried = self._inner(index + 1, moved, emitters, carried, block)
        return carried

    def _kept_rolled(self, index: int) -> bool:
        plan = self.plan
        return (
            plan.rolled_overlaps
            and index == len(plan.inner) - 1
            and overlapping_reads(plan, plan.inner[index].loop)
        )

    def _constant(self, value: int) -> SSAValue:
        emitter = StatementEmitter(self.plan, self.ivs, self.constants, preamble=self.preamble)
        return emitter.constant(value)

    def _body(
        self,
        instances: list[Instance],
        emitters: list[StatementEmitter],
        carried: list[SSAValue],
        block: Block,
    ) -> list[SSAValue]:
        hoisted = self.plan.hoisted
        results: list[SSAValue] = []
        loop = self.plan.vector_loop
        for number, (copy, emitter) in enumerate(zip(instances, emitters, strict=True)):
            if self.plan.partials:
                assert loop is not None
                copy = Instance(copy.offsets, copy.sizes, copy.sizes[loop])
            mine = carried[number * len(hoisted) : (number + 1) * len(hoisted)]
            replaced = {load.op: value for (load, _), value in zip(hoisted, mine, strict=True)}
            captured: dict[Operation, SSAValue | None] = dict.fromkeys(
                store.op for _, store in hoisted
            )
            emitter.emit(self.plan.nest.body, copy, block.add_op, replaced, captured)
            for (_, store), before in zip(hoisted, mine, strict=True):
                value = captured[store.op]
                assert value is not None
                if isinstance(before.type, VectorType):
                    value = emitter.broadcast(value, before.type.get_shape()[0], block.add_op)
                results.append(value)
        return results


def _kept_in_registers(plan: Plan) -> list[Access]:
    """The accumulator stores whose element the `post` statements (a fused epilogue: bias,
    ReLU, a residual add) read and write only at the accumulator's own indices: the
    epilogue works on the register and the element is stored once, after it."""
    post = [plan.nest.accesses[op] for op in plan.nest.post if op in plan.nest.accesses]
    kept = []
    for _, store in plan.hoisted:
        root = storage_root(store.buffer)
        touching = [a for a in post if storage_root(a.buffer) == root]
        if touching and all(a.buffer == store.buffer and a.exprs == store.exprs for a in touching):
            kept.append(store)
    return kept


def _forwarded_stores(plan: Plan) -> dict[Operation, Operation]:
    """Accumulator load → the store in `pre` that last wrote its element, when nothing else
    touches the buffer after it there: its value seeds the accumulator and it is dropped."""
    found: dict[Operation, Operation] = {}
    nest = plan.nest
    pre = [nest.accesses[op] for op in nest.pre if op in nest.accesses]
    for load, _ in plan.hoisted:
        root = storage_root(load.buffer)
        touching: list[Access] = [a for a in pre if storage_root(a.buffer) == root]
        if touching and touching[-1].write and touching[-1].exprs == load.exprs:
            found[load.op] = touching[-1].op
    return found
