"""Translation validation of `layout-lower{validate=true}`: every rewritten access, proven.

For each load, store and vector access of a layout-typed memref (memref, affine and vector
ops, and 1-D `vector.transfer_read/write` along any dim; packed lanes included), the
validator reads the logical index the program wrote before the rewrite and, after it, the physical index the lowered code computes: the operands of the
new access, and for packed layouts the shift or the position that selects the lane. It then
proves, over the access's iteration domain (the enclosing loops' bounds and steps; `scf.if`
conditions are ignored, which only adds points), that the physical index is the layout's
index map applied to the logical index (flattened to one offset in memory order when the
buffer is flat; the lane's bit offset as the bit order places it):

- exhaustively where the domain has at most `EXHAUSTIVE_LIMIT` points, on numpy arrays with
  every op's exact semantics (`validation_terms.evaluate`);
- otherwise symbolically: both sides in the index simplifier's normal form, their difference
  zero (loop variables that step also written `first + step·k`), and random points of the
  domain tried for a counterexample.

Points where the logical index is out of bounds are left out (the access is undefined there).
A vector access kept whole is proven lane by lane (lane t at the start plus t); a split one
is proven for each scalar access it became; one moved as a whole packed container is traced
lane by lane to its slot of the container (`validation_containers`), the lanes a short store
writes with pad shown to hold no element. An access that is not proven fails the pass with
its op, its place, and a counterexample (logical index, the physical index the layout gives,
the one the code computes) when there is one.

The lowering calls `watch` around each op it rewrites (`Lowering.rewrite`): the one seam.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from xdsl.dialects import affine, arith, memref, scf, vector
from xdsl.dialects.builtin import FileLineColLoc, VectorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.utils.exceptions import PassFailedException

from heterolayout.dialects.ops import ConvertOp
from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.layout.model import Layout
from heterolayout.layout.simplify import Range
from heterolayout.passes.packed.lane_update import replaced_lane
from heterolayout.passes.physical import identity_layout
from heterolayout.passes.transfers import needs_guards
from heterolayout.passes.validate.containers import container_lanes
from heterolayout.passes.validate.conversions import (
    Conversion,
    check_conversion,
    conversion_moves,
)
from heterolayout.passes.validate.domain import Access, Lane, Verdict, prove
from heterolayout.passes.validate.ops import (
    LOADS,
    STORES,
    TRANSFERS,
    VECTORS,
    constant_of,
    indices_of,
    new_ops,
    on_buffer,
    owner,
    position_of,
)
from heterolayout.passes.validate.terms import Term, TermReader
from heterolayout.passes.validate.tiles import tile_moves


@dataclass
class ValidationReport:
    verdicts: list[Verdict] = field(default_factory=list)

    @property
    def failed(self) -> list[Verdict]:
        return [v for v in self.verdicts if v.how == "failed"]

    def count(self, how: str) -> int:
        return sum(v.how == how for v in self.verdicts)

    def summary(self) -> str:
        exhaustive = [v for v in self.verdicts if v.how == "exhaustive"]
        points = sum(v.points for v in exhaustive)
        proven = len(exhaustive) + self.count("symbolic")
        unchecked = self.count("unchecked")
        if unchecked:
            return (
                f"layout-lower: translation validation: {proven} of {len(self.verdicts)} accesses "
                f"proven ({len(exhaustive)} exhaustively, {points} element accesses checked; "
                f"{self.count('symbolic')} symbolically), {unchecked} not checked (-v names each "
                "and why)"
            )
        return (
            f"layout-lower: translation validation: {proven} of {len(self.verdicts)} accesses "
            f"proven ({len(exhaustive)} exhaustively, {points} element accesses checked; "
            f"{self.count('symbolic')} symbolically)"
        )

    def remarks(self) -> list[str]:
        lines = []
        for v in self.verdicts:
            if v.how == "exhaustive":
                lines.append(
                    f"{v.where}: remark: {v.name} proven exhaustively over {v.points} element accesses"
                )
            elif v.how == "symbolic":
                lines.append(f"{v.where}: remark: {v.name} proven symbolically")
            elif v.how == "unchecked":
                lines.append(f"{v.where}: remark: {v.name} not checked: {v.message}")
            else:
                lines.append(f"{v.where}: error: {v.name} not proven: {v.message}")
        return lines


LayoutOf = Callable[[SSAValue], Layout | None]
"""The logical layout of a buffer the lowering rewrites (None: a plain memref)."""
IsFlat = Callable[[SSAValue], bool]
"""Whether a buffer becomes a 1-D physical buffer (`flatten=true`)."""


class Validator:
    """Collects a verdict for every access the lowering rewrites (with `conversions_only`:
    for every conversion, which is what `layout-run --check` asks for)."""

    def __init__(self, conversions_only: bool = False) -> None:
        self.report = ValidationReport()
        self.conversions_only = conversions_only

    @contextmanager
    def watch(
        self,
        op: Operation,
        layout_of: LayoutOf,
        is_flat: IsFlat,
        facts: Mapping[SSAValue, Range] | None = None,
    ) -> Iterator[None]:
        """Around the rewrite of `op`: an access of a layout-typed memref (or a conversion)
        is read before and checked after. The seam with the lowering: call it with the op
        still in place and its index operands unchanged, rewrite the op into new ops that
        take its place (between its neighbours), and leave dead code for later. `facts`:
        ranges of values true whenever the access is defined (a folded view's offsets)."""
        access = None if self.conversions_only else _access(op, layout_of, is_flat)
        if access is not None and facts:
            reader = TermReader()
            access.facts = {reader.term_of(value): bounds for value, bounds in facts.items()}
        conversion = _conversion(op, layout_of, is_flat)
        yield
        if access is not None:
            self.report.verdicts.append(check(access))
        elif conversion is not None and op.parent is None:  # rewritten into loop nests
            ops = new_ops(conversion.destination)
            moves = conversion_moves(conversion, ops, _moved)
            if any(o.name in ("gpu.launch", "gpu.launch_func") for o in ops):
                reason = "a GPU kernel (convert=gpu), whose threads the validator does not run"
                verdict = Verdict(conversion.name, conversion.where, "unchecked", message=reason)
            elif _is_tiled(ops, conversion.destination):
                verdict = _check_tiles(conversion, ops)
            elif isinstance(moves, str):
                verdict = Verdict(conversion.name, conversion.where, "failed", message=moves)
            else:
                verdict = check_conversion(conversion, moves)
            self.report.verdicts.append(verdict)

    def finish(self, verbose: bool) -> None:
        """Remarks (with `verbose`: one per access; checking conversions only: one per
        conversion not checked), then a pass failure naming the first access not proven,
        or the summary line."""
        if verbose:
            for line in self.report.remarks():
                print(line, file=sys.stderr)
        elif self.conversions_only:
            for verdict, line in zip(self.report.verdicts, self.report.remarks(), strict=True):
                if verdict.how == "unchecked":
                    print(line, file=sys.stderr)
        failed = self.report.failed
        if failed:
            first = failed[0]
            more = f" ({len(failed) - 1} more not proven)" if len(failed) > 1 else ""
            raise PassFailedException(
                f"layout-lower: translation validation: {first.name} at {first.where} is not "
                f"proven: {first.message}{more}"
            )
        if not self.conversions_only:
            print(self.report.summary(), file=sys.stderr)


def _where(op: Operation) -> str:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
    parent = op.parent_op()
    while parent is not None and not hasattr(parent, "sym_name"):
        parent = parent.parent_op()
    return f"@{parent.sym_name.data}" if parent is not None else "<unknown>"


def _access(op: Operation, layout_of: LayoutOf, is_flat: IsFlat) -> Access | None:
    if isinstance(op, TRANSFERS):
        return _transfer(op, layout_of, is_flat)
    if not isinstance(op, LOADS + STORES + VECTORS):
        return None
    buffer = op.base if isinstance(op, (vector.LoadOp, vector.StoreOp)) else op.memref
    layout = layout_of(buffer)
    block = op.parent_block()
    if layout is None or block is None:
        return None
    reader = TermReader()
    if isinstance(op, (affine.LoadOp, affine.StoreOp, affine.VectorLoadOp, affine.VectorStoreOp)):
        index_map = op.map.data
        logical = reader.access_map(index_map.results, list(op.indices), index_map.num_dims)
    else:
        logical = [reader.term_of(i) for i in op.indices]
    is_load = isinstance(op, (*LOADS, vector.LoadOp, affine.VectorLoadOp))
    stored = None if is_load else op.operands[0]
    length = 0
    if isinstance(op, VECTORS):
        vector_type = op.results[0].type if is_load else op.operands[0].type
        length = vector_type.get_shape()[0]  # type: ignore[attr-defined]
    return Access(
        op.name,
        _where(op),
        layout,
        is_flat(buffer),
        buffer,
        logical,
        length,
        is_load,
        stored,
        block,
        op.prev_op,
        op.next_op,
    )


def _transfer(
    op: vector.TransferReadOp | vector.TransferWriteOp, layout_of: LayoutOf, is_flat: IsFlat
) -> Access | None:
    """A 1-D transfer along the one logical dim its permutation map names (what the
    lowering supports; it refuses any other before this is checked)."""
    layout = layout_of(op.source)
    block = op.parent_block()
    results = op.permutation_map.data.results
    if layout is None or block is None or len(results) != 1:
        return None
    (along,) = results
    if not isinstance(along, AffineDimExpr):
        return None
    is_load = isinstance(op, vector.TransferReadOp)
    value = op.results[0] if is_load else op.operands[0]
    length = value.type.get_shape()[0]  # type: ignore[attr-defined]
    reader = TermReader()
    return Access(
        op.name,
        _where(op),
        layout,
        is_flat(op.source),
        op.source,
        [reader.term_of(i) for i in op.indices],
        length,
        is_load,
        None if is_load else value,
        block,
        op.prev_op,
        op.next_op,
        along.position,
        guarded=needs_guards(op),
        padding=op.padding if isinstance(op, vector.TransferReadOp) else None,
    )


def _side(op: Operation, buffer: SSAValue, layout_of: LayoutOf, is_flat: IsFlat) -> Access:
    layout = layout_of(buffer) or identity_layout(buffer.type)  # type: ignore[arg-type]
    block = op.parent_block()
    assert block is not None
    return Access(
        op.name,
        _where(op),
        layout,
        is_flat(buffer),
        buffer,
        [],
        0,
        False,
        None,
        block,
        op.prev_op,
        op.next_op,
    )


def _conversion(op: Operation, layout_of: LayoutOf, is_flat: IsFlat) -> Conversion | None:
    if not isinstance(op, (ConvertOp, memref.CopyOp)):
        return None
    source, destination = op.operands
    if (layout_of(source) is None and layout_of(destination) is None) or op.parent_block() is None:
        return None
    return Conversion(
        op.name,
        _where(op),
        _side(op, source, layout_of, is_flat),
        _side(op, destination, layout_of, is_flat),
    )


def _moved(
    op: Operation, conversion: Conversion, reader: TermReader
) -> tuple[Lane, Lane | None] | str | None:
    """A store of a conversion's destination: the lane it writes, and the source lane the
    value comes from (None for a constant: the pad)."""
    destination = conversion.destination
    if not (isinstance(op, STORES) and on_buffer(op, destination)):
        return None
    indices = indices_of(op, reader)
    written = op.operands[0]
    value: SSAValue = written
    lane: Term | None = None
    packed = owner(written)
    if isinstance(packed, arith.OrIOp) and isinstance(placed := owner(packed.rhs), arith.ShLIOp):
        extended = owner(placed.lhs)
        value = extended.input if isinstance(extended, arith.ExtUIOp) else placed.lhs
        lane = _masked_shift(packed, value, indices, destination, reader)
        if lane is None:
            return "a packed store of the destination does not keep the other lanes"
    elif isinstance(packed, vector.InsertOp):
        value, lane = packed.source, position_of(packed, reader)
    elif (selected := replaced_lane(written)) is not None:
        value, lane = selected[0], reader.term_of(selected[2])
    if isinstance(owner(value), arith.ConstantOp):
        return Lane(0, indices, lane), None
    read = _loaded(value, conversion.source, reader, 0)
    if isinstance(read, str):
        return "a store of the destination writes a value not loaded from the source"
    return Lane(0, indices, lane), read


# ---- what the lowering emitted --------------------------------------------------------------
def _check_tiles(conversion: Conversion, ops: list[Operation]) -> Verdict:
    """A tiled conversion: each element of each vector or container store traced back to
    the source (`validation_tiles`), scalar stores as in a loop nest."""

    def moved(op: Operation, conversion: Conversion, reader: TermReader):  # type: ignore[no-untyped-def]
        found = tile_moves(op, conversion, reader)
        if isinstance(found, str) and isinstance(op, STORES):
            scalar = _moved(op, conversion, reader)
            return found if isinstance(scalar, str) else scalar
        return found

    moves = conversion_moves(conversion, ops, moved)
    if isinstance(moves, str):
        return Verdict(conversion.name, conversion.where, "failed", message=moves)
    return check_conversion(conversion, moves)


def _is_tiled(ops: list[Operation], destination: Access) -> bool:
    """Whether the lowering took the tiled path (convert_tiles, convert_packed): vector
    stores into the destination, vector containers stored whole, or lanes moved by shuffles
    or bitcasts."""
    return any(
        isinstance(inner, (vector.BitcastOp, vector.ShuffleOp))
        or (
            isinstance(inner, (vector.StoreOp, affine.VectorStoreOp))
            and on_buffer(inner, destination)
        )
        or (
            isinstance(inner, STORES)
            and on_buffer(inner, destination)
            and isinstance(inner.operands[0].type, VectorType)
        )
        for op in ops
        for inner in op.walk()
    )


def _loaded(value: SSAValue, access: Access, reader: TermReader, offset: int) -> Lane | str:
    """The element a loaded value comes from: a load, or a lane of a loaded container."""
    op = owner(value)
    if isinstance(op, arith.TruncIOp):
        op = owner(op.input)
    if on_buffer(op, access) and isinstance(op, LOADS):
        return Lane(offset, indices_of(op, reader))
    if isinstance(op, arith.ShRUIOp):
        container = owner(op.lhs)
        if on_buffer(container, access):
            return Lane(offset, indices_of(container, reader), reader.term_of(op.rhs))  # type: ignore[arg-type]
    if isinstance(op, vector.ExtractOp):
        container = owner(op.vector)
        position = position_of(op, reader)
        if on_buffer(container, access) and position is not None:
            return Lane(offset, indices_of(container, reader), position)  # type: ignore[arg-type]
    return f"the value loaded for lane {offset} does not come from the buffer ({value})"


def _stored(
    store: Operation, value: SSAValue, access: Access, reader: TermReader, offset: int
) -> Lane | str:
    """The element `store` writes `value` to (directly, or into its lane of a container)."""
    if not (on_buffer(store, access) and isinstance(store, STORES)):
        return f"lane {offset} is not stored to the buffer"
    indices = indices_of(store, reader)
    written = store.operands[0]
    if written is value:
        return Lane(offset, indices)
    op = owner(written)
    selected = replaced_lane(written)
    if isinstance(op, vector.InsertOp) or selected is not None:
        if isinstance(op, vector.InsertOp):
            source, container, position = op.source, owner(op.dest), position_of(op, reader)
        else:
            assert selected is not None
            source, container = selected[0], owner(selected[1])
            position = reader.term_of(selected[2])
        if (
            source is value
            and _same_container(container, indices, access, reader)
            and position is not None
        ):
            return Lane(offset, indices, position)
    if isinstance(op, arith.OrIOp):
        shift = _masked_shift(op, value, indices, access, reader)
        if shift is not None:
            return Lane(offset, indices, shift)
    return f"lane {offset} stores something other than the value written"


def _same_container(
    op: Operation | None, indices: list[Term], access: Access, reader: TermReader
) -> bool:
    return isinstance(op, LOADS) and on_buffer(op, access) and indices_of(op, reader) == indices


def _masked_shift(
    op: arith.OrIOp, value: SSAValue, indices: list[Term], access: Access, reader: TermReader
) -> Term | None:
    """`(container & ~(field << s)) | (ext(value) << s)` with field all ones over the
    element's bits: the shift s, or None when the word is built any other way."""
    cleared, placed = owner(op.lhs), owner(op.rhs)
    if not (isinstance(cleared, arith.AndIOp) and isinstance(placed, arith.ShLIOp)):
        return None
    extended = owner(placed.lhs)
    source = extended.input if isinstance(extended, arith.ExtUIOp) else placed.lhs
    keep = owner(cleared.rhs)
    mask = owner(keep.lhs) if isinstance(keep, arith.XOrIOp) else None
    layout = access.layout
    if layout.dtype is None or layout.packing is None or not isinstance(mask, arith.ShLIOp):
        return None
    width = layout.packing.container_bits
    field = constant_of(mask.lhs)
    if (
        source is not value
        or not _same_container(owner(cleared.lhs), indices, access, reader)
        or not isinstance(keep, arith.XOrIOp)
        or constant_of(keep.rhs) not in (-1, (1 << width) - 1)
        or reader.term_of(mask.rhs) != reader.term_of(placed.rhs)
        or field is None
        or field % (1 << width) != (1 << layout.dtype.bits) - 1
    ):
        return None
    return reader.term_of(placed.rhs)


def emitted_lanes(access: Access) -> list[Lane] | str:
    """Every element the lowered code accesses for `access`, or what could not be traced."""
    ops = new_ops(access)
    if not ops:
        return "the rewrite left no op in its place"
    reader = TermReader()
    last = ops[-1]
    if access.length and on_buffer(last, access) and isinstance(last, VECTORS):
        return [Lane(0, indices_of(last, reader), None, access.length)]
    if access.is_load:
        if access.length:
            if not isinstance(last, FromElementsOp):
                return "a split vector load is not assembled with vector.from_elements"
            lanes = [_loaded(v, access, reader, t) for t, v in enumerate(last.operands)]
        else:
            lanes = [_loaded(last.results[0], access, reader, 0)]
    elif not access.length:
        assert access.stored is not None
        lanes = [_stored(last, access.stored, access, reader, 0)]
    else:
        lanes = _split_stores(ops, access, reader)
    problems = [lane for lane in lanes if isinstance(lane, str)]
    return problems[0] if problems else lanes  # type: ignore[return-value]


def _split_stores(ops: list[Operation], access: Access, reader: TermReader) -> list[Lane | str]:
    lanes: list[Lane | str] = []
    for op in ops:
        if isinstance(op, vector.ExtractOp) and op.vector is access.stored:
            position = position_of(op, reader)
            if position is None or position.kind != "const":
                return ["a split vector store extracts a lane at a computed position"]
            store = _store_of(op.result, ops)
            lanes.append(
                _stored(store, op.result, access, reader, position.value)
                if store is not None
                else f"lane {position.value} is never stored"
            )
    if sorted(lane.offset for lane in lanes if isinstance(lane, Lane)) != list(
        range(access.length)
    ):
        lanes.append(f"the lanes stored are not the vector's {access.length} lanes")
    return lanes


def _store_of(value: SSAValue, ops: list[Operation]) -> Operation | None:
    """The store among `ops` that writes `value`, directly or packed into a container."""
    frontier = [value]
    while frontier:
        current = frontier.pop()
        for use in current.uses:
            user = use.operation
            if isinstance(user, STORES) and use.index == 0 and user in ops:
                return user
            if isinstance(user, (arith.ExtUIOp, arith.ShLIOp, arith.OrIOp, vector.InsertOp)):
                frontier.extend(user.results)
            elif isinstance(user, vector.BroadcastOp):
                frontier.extend(
                    result
                    for spread in user.vector.uses
                    for result in spread.operation.results
                    if replaced_lane(result) is not None
                )
    return None


# ---- the check ------------------------------------------------------------------------------
def _whole_container(access: Access) -> bool:
    """Whether the lowering moved a packed vector access's lanes as one container: a
    bitcast or shuffle of the word, or a load or store of a vector<N x i1> container."""
    if not access.length or access.layout.packing is None:
        return False
    ops = new_ops(access)
    lane_by_lane = any(
        isinstance(op, FromElementsOp)
        or (isinstance(op, vector.ExtractOp) and op.vector is access.stored)
        for op in ops
    )
    return not lane_by_lane and any(
        isinstance(op, (vector.BitcastOp, vector.ShuffleOp))
        or (isinstance(op, (*LOADS, *STORES)) and _moves_a_vector(op))
        for op in ops
    )


def _moves_a_vector(op: Operation) -> bool:
    value = op.results[0] if op.results else op.operands[0]
    return isinstance(value.type, VectorType)


# ---- guarded transfers ------------------------------------------------------------------------
def _check_guarded(access: Access) -> Verdict:
    """A transfer that may leave the memref or is masked (`transfer_guards`): each lane it
    accesses under its guard at the layout's index, the lanes it never accesses outside the
    memref everywhere; and where it first tests that all lanes are inside, the in-bounds
    branch as an in-bounds transfer."""
    ops = new_ops(access)
    split = _split_branch(ops, access)
    verdicts = []
    if split is not None:
        inside, ops = split
        verdicts.append(check(inside))
    traced = _guarded_lanes(ops, access)
    if isinstance(traced, str):
        return Verdict(access.name, access.where, "failed", message=traced)
    lanes, outside = traced
    verdicts.append(prove(access, lanes, outside=outside))
    failed = [v for v in verdicts if v.how == "failed"]
    if failed:
        return failed[0]
    how = "exhaustive" if all(v.how == "exhaustive" for v in verdicts) else "symbolic"
    name = verdicts[-1].name + (" after an all-inside test," if split is not None else "")
    return Verdict(name, access.where, how, sum(v.points for v in verdicts))


def _split_branch(ops: list[Operation], access: Access) -> tuple[Access, list[Operation]] | None:
    """The all-inside test `scf.if start + length <= extent` of a guarded transfer: the
    in-bounds branch as an access of its own, and the ops of the lane-by-lane branch."""
    for op in ops:
        if not isinstance(op, scf.IfOp) or not op.false_region.blocks:
            continue
        if access.is_load and op.results and not isinstance(op.results[0].type, VectorType):
            continue  # one lane's guard
        then_block, else_block = op.true_region.block, op.false_region.block
        inside = replace(
            access,
            block=then_block,
            before=None,
            after=then_block.last_op,
            guarded=False,
            padding=None,
        )
        rest = list(else_block.ops)
        return inside, rest
    return None


def _guarded_lanes(ops: list[Operation], access: Access) -> tuple[list[Lane], list[int]] | str:
    """The lanes the code accesses (each under its guard, `alone`) and those it never does."""
    reader = TermReader()
    lanes: list[Lane] = []
    if access.is_load:
        last = ops[-1] if ops else None
        if isinstance(last, scf.YieldOp):
            last = owner(last.operands[0])
        if not isinstance(last, FromElementsOp):
            return "a guarded transfer's lanes are not assembled with vector.from_elements"
        outside = []
        for t, value in enumerate(last.operands):
            if value is access.padding:
                outside.append(t)
                continue
            guard = owner(value)
            if isinstance(guard, scf.IfOp):
                then_value = guard.true_region.block.last_op.operands[0]  # type: ignore[union-attr]
                otherwise = guard.false_region.block.last_op.operands[0]  # type: ignore[union-attr]
                if otherwise is not access.padding:
                    return f"lane {t} does not read the padding when its guard fails"
                value = then_value
            lane = _loaded(value, access, reader, t)
            if isinstance(lane, str):
                return lane
            lanes.append(replace(lane, alone=True))
        return lanes, outside
    nested = [inner for op in ops for inner in op.walk()]
    stored: set[int] = set()
    for op in nested:
        if isinstance(op, vector.ExtractOp) and op.vector is access.stored:
            position = position_of(op, reader)
            if position is None or position.kind != "const":
                return "a guarded transfer extracts a lane at a computed position"
            store = _store_of(op.result, nested)
            if store is None:
                return f"lane {position.value} is extracted but never stored"
            lane = _stored(store, op.result, access, reader, position.value)
            if isinstance(lane, str):
                return lane
            lanes.append(replace(lane, alone=True))
            stored.add(position.value)
    return lanes, [t for t in range(access.length) if t not in stored]


def check(access: Access) -> Verdict:
    if access.guarded:
        return _check_guarded(access)
    if _whole_container(access):
        traced = container_lanes(access)
        if isinstance(traced, str):
            return Verdict(access.name, access.where, "failed", message=traced)
        return prove(access, *traced, container=True)
    lanes = emitted_lanes(access)
    if isinstance(lanes, str):
        return Verdict(access.name, access.where, "failed", message=lanes)
    return prove(access, lanes)
