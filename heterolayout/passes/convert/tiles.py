"""Conversions at memory speed: `layout.convert` as tiles of vector loads, in-register
transposes and vector stores.

The destination must be blocked (tags, chunked, maps and partitions of the digit model,
plain), the layouts static and unpacked, and the elements 8 to 64 bits wide. `store_dim` is
the dim whose least significant digit (`unit_position`: weight 1 in `Layout.dim_digits`) is
the destination's innermost physical dim, its stores inside the destination's runs
(`Layout.contiguous_run`); a destination whose innermost dim is another digit (a cyclic
partition's `d floordiv f`) keeps the scalar nest. `load_dim` is the source dim with the
longest run of consecutive slots among those whose unit step stays inside a physical row. The
destination's physical dims are walked in memory order, the innermost stepped by the vector width V; when the two dims
differ, the destination digit of `load_dim` (its weight-1 digit) is stepped by V too and moved
just outside the innermost loop, so the loads of consecutive tiles share cache lines. A tile
is then V vector loads along `load_dim`, a V×V transpose in registers (log2 V stages of
two-input shuffles that swap off-diagonal blocks: unpack/shuffle/permute instructions), and V
vector stores along `store_dim`; with one dim it is a vector load and store. Where the
source's runs along `load_dim` are short but hold several vectors (nChw16c → NCHW), a tile
takes whole runs instead, in the source's memory order, V×V block by block
(`_whole_run_plan`). Where the source's rows lie in one cache set (`_line_rows`), a tile
reads V of them a whole line each. Tiles that reach
into the destination's padding, and the tails of dims V does not divide, move element by
element.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerType,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineExpr

from heterolayout.layout.model import Layout
from heterolayout.passes.convert.loop_nest import Insert, constant_loop
from heterolayout.passes.index.index_code import IndexEmitter, IndexLeaves
from heterolayout.passes.packed.element_access import ElementAccess, scalar_constant

Streaming = Literal["never", "always", "aligned"]
"""Whether the tiles' stores are nontemporal: never, always, or when the destination's base
address is a multiple of a cache line (checked at run time; plain stores otherwise)."""
ElementMove = Callable[[Sequence[AffineExpr], IndexLeaves, Insert], None]
"""Moves one element (or stores the pad) at a logical index: the scalar path."""

VECTOR_BYTES = 32
"""Vector registers the tiles are sized for (AVX2; AVX-512 machines run them as well)."""
LINE_BYTES = 64
SET_BYTES = 4096
"""Addresses this far apart share an L1 set (x86 and Arm L1 data caches: size / ways)."""
ROW_BYTES = 256
"""A tile stores up to this many bytes per row along the destination's innermost dim
(whole cache lines, and whole rows of a short innermost dim)."""
STREAMING_BYTES = 8 << 20
"""Destinations at least this large may be written with nontemporal (streaming) stores
(see `_streams`): a conversion that large is read back from memory anyway, and streaming
stores spare the read-for-ownership of every destination line (memcpy does the same).
Smaller ones stay in a last-level cache of 32 MiB, where streaming stores lose: on a Zen 4,
NCHW→nChw16c into 5.3 MB ran 1.7× slower streamed, into 10.6 MB 1.7× faster, and line
tiles (`_line_rows`) against streaming ones the same (benchmarks/RESULTS.md)."""


def element_bits(element: Attribute) -> int | None:
    """Bits of a scalar type that vectors hold whole in memory (8 to 64), else None."""
    if isinstance(element, IndexType):
        return 64
    bits = getattr(element, "bitwidth", None)
    if isinstance(element, IntegerType):
        bits = element.width.data
    return bits if bits in (8, 16, 32, 64) else None


@dataclass(frozen=True)
class TilePlan:
    width: int
    """V: the lanes of one vector."""
    span: int
    """Lanes along `store_dim` per tile: U vectors, a cache line where the runs allow."""
    store_dim: int
    load_dim: int
    order: tuple[int, ...]
    """The destination's physical dims, outermost loop first."""
    steps: dict[int, int]
    """Physical dim → lanes per tile, for the dims walked a tile at a time."""
    streaming: Streaming
    depth: int = 0
    """Lanes along `load_dim` per tile: V, or a whole short run or a cache line of the
    source (then the tile is V×V blocks transposed and stored one after the other); 0
    means V."""

    @property
    def transposed(self) -> bool:
        return self.load_dim != self.store_dim

    @property
    def rows(self) -> int:
        return self.depth or self.width

    def reach(self, dim: int) -> int:
        """How far a tile extends along a logical dim beyond its first element."""
        if dim == self.store_dim:
            return self.span - 1
        return self.rows - 1 if dim == self.load_dim else 0


def unit_position(layout: Layout, dim: int) -> int | None:
    """The physical dim of `dim`'s least significant digit, the one a unit step along `dim`
    moves by one (`Layout.dim_digits`: weight 1, and not a block of one, which never moves),
    or None when the layout is no blocking or the dim has no such digit. It is not always
    the dim's innermost digit: a cyclic map `(d1 mod 4, d0, d1 floordiv 4)` puts it first."""
    digits = layout.dim_digits(dim)
    if digits is None:
        return None
    shape = layout.physical_shape
    moving = [p for p, weight in digits if weight == 1 and shape[p] != 1]
    return moving[-1] if moving else None


def innermost_dim(layout: Layout) -> int | None:
    """The logical dim whose unit step walks the innermost physical dim of a blocking (its
    least significant digit is there), or None: a destination whose innermost physical dim
    is another digit (a cyclic partition's `d floordiv f`) takes no vector stores."""
    terms = layout.blocked_terms
    if not terms:
        return None
    dim = terms[-1].dim
    return dim if unit_position(layout, dim) == len(terms) - 1 else None


def tile_plan(source: Layout, destination: Layout, element: Attribute) -> TilePlan | None:
    """How to tile the conversion, or None when the scalar loop nest must do."""
    terms = destination.blocked_terms
    bits = element_bits(element)
    if (
        terms is None
        or bits is None
        or source.packing is not None
        or destination.packing is not None
        or source.is_dynamic
        or destination.is_dynamic
    ):
        return None
    store_position = len(terms) - 1
    store_dim, load_dim = innermost_dim(destination), load_dim_of(source)
    if store_dim is None or load_dim is None:
        return None
    load_position = unit_position(destination, load_dim)
    if load_position is None:
        return None
    width = VECTOR_BYTES * 8 // bits
    while width >= 2 and not _fits(source, destination, load_position, width, width):
        width //= 2
    if width < 2:
        return None
    whole_runs = _whole_run_plan(source, destination, store_dim, load_dim, width, bits)
    if whole_runs is not None:
        return whole_runs
    rows = _line_rows(source, destination, load_position, store_dim, load_dim, width, bits)
    if rows:
        return TilePlan(
            width,
            width,
            store_dim,
            load_dim,
            tuple([p for p in range(len(terms)) if p != load_position] + [load_position]),
            {store_position: width, load_position: rows},
            "never",
            rows,
        )
    span = _span(source, destination, load_position, width, bits)
    tiled = {store_position: span}
    if load_dim != store_dim:
        tiled[load_position] = width
    order = [p for p in range(len(terms)) if p not in tiled]
    order += sorted(tiled, key=lambda p: p == store_position)
    streaming = _streams(destination, order, tiled, bits)
    return TilePlan(width, span, store_dim, load_dim, tuple(order), tiled, streaming)


def _in_one_set(layout: Layout, dim: int, bits: int) -> bool:
    """Whether consecutive elements along `dim` lie a multiple of `SET_BYTES` apart, so
    that the rows a tile reads or writes across `dim` fall into one L1 set."""
    extent = layout.logical_shape[dim]
    if extent is None or extent < 2:
        return False
    origin = [0] * layout.rank
    step = [1 if d == dim else 0 for d in range(layout.rank)]
    return (layout.offset(step) - layout.offset(origin)) * bits // 8 % SET_BYTES == 0


def _line_rows(
    source: Layout,
    destination: Layout,
    load_position: int,
    store_dim: int,
    load_dim: int,
    width: int,
    bits: int,
) -> int:
    """Lanes along `load_dim` per tile when the source's rows conflict in the cache, else 0.

    Source rows (a tile's consecutive elements along `store_dim`) whose distance is a
    multiple of `SET_BYTES` fall into one set of the L1 cache (channel planes of 64×64 or
    32×32 f32 pixels, 16 or 4 KiB apart): V-lane tiles read a row per lane of their span at
    once (16 for nChw16c, 64 for NHWC of 64 channels) and came back for the second half of
    each line after the set had evicted it, 2.5–13× slower than a copy of the same bytes.
    Such a tile reads V rows, a whole cache line of each (V×V blocks one after the other),
    and the loop over the store dim's groups of V lanes goes outside the loop along the load
    dim, so V rows stream at a time (benchmarks/RESULTS.md). Destinations of
    `STREAMING_BYTES` or more whose V-lane tiles span one line keep them, with their
    streaming stores (NCHW→nChw16c at 16 and 32 MiB: 1.1–1.6× faster so); NHWC's span 64
    rows and lost at every size."""
    lanes = LINE_BYTES * 8 // bits
    if store_dim == load_dim or lanes <= width:
        return 0
    if not _in_one_set(source, store_dim, bits) or not _fits(
        source, destination, load_position, lanes, width
    ):
        return 0
    span = _span(source, destination, load_position, width, bits)
    if span <= lanes and destination.size * bits // 8 >= STREAMING_BYTES:
        return 0
    return lanes


def _whole_run_plan(
    source: Layout, destination: Layout, store_dim: int, load_dim: int, width: int, bits: int
) -> TilePlan | None:
    """Where the source's runs along `load_dim` are short (a cache line or less) and hold
    several vectors (nChw16c's 16 channels, read into NCHW), a tile takes whole runs:
    the loops follow the destination's memory order with `load_dim`'s digit in place, which
    here is the source's memory order (its reads one sequential stream), and each V×V block
    is stored as soon as it is transposed (half lines: plain stores; the next tile completes
    them). Measured here: 0.88–0.92× oneDNN's reorder, against 1.0–1.1× for V-wide tiles
    moved inside with line-wide streaming stores. Where the destination's rows (channel
    planes) lie in one cache set (`_in_one_set`), the next tile would find its half lines
    evicted: a tile spans a whole line of them instead, its blocks completing each line
    back to back (1×64×64×64: 3.5 → 2.6× a copy; 1×64×112×112, not in one set, 0.92 with
    half lines against 1.24 with whole ones)."""
    run = source.contiguous_run(load_dim)
    terms = destination.blocked_terms
    assert terms is not None
    if (
        store_dim == load_dim
        or run <= width
        or run % width
        or run * bits > LINE_BYTES * 8
        or source.logical_shape[load_dim] == run
    ):
        return None
    store_position = len(terms) - 1
    load_position = unit_position(destination, load_dim)
    if load_position is None or not _fits(source, destination, load_position, run, width):
        return None
    span = width
    lanes = LINE_BYTES * 8 // bits
    if _in_one_set(destination, load_dim, bits) and _fits(
        source, destination, load_position, run, lanes
    ):
        span = lanes
    steps = {store_position: span, load_position: run}
    order = tuple(range(len(terms)))
    return TilePlan(width, span, store_dim, load_dim, order, steps, "never", run)


def _span(source: Layout, destination: Layout, load_position: int, width: int, bits: int) -> int:
    """Lanes per tile along the store dim: the largest multiple of V up to `ROW_BYTES` that
    fits, preferring whole cache lines that divide the innermost extent (no tail loop, and
    rows that streaming stores write in whole lines)."""
    extent = destination.physical_shape[-1]
    assert extent is not None
    candidates = range(width * max(1, ROW_BYTES * 8 // (width * bits)), width - 1, -width)
    fitting = [s for s in candidates if _fits(source, destination, load_position, width, s)]
    dividing = [s for s in fitting if extent % s == 0]
    lines = [s for s in dividing if s * bits % (LINE_BYTES * 8) == 0]
    return (lines or dividing or fitting)[0]


def _streams(
    destination: Layout, order: Sequence[int], steps: dict[int, int], bits: int
) -> Streaming:
    """Streaming stores pay off for large destinations written in whole cache lines. A tile
    that writes one contiguous block (its rows whole and adjacent in memory) does so at any
    alignment; tiles whose rows lie apart do when every row starts on a line, which depends
    on the buffer's base address: checked at run time. Measured here: they halve
    NCHW→nChw16c; on nChw16c→NCHW they win by a third on line-aligned buffers and lose as
    much on others. A destination with pad slots would mix them with the plain stores of its
    edge tiles."""
    if destination.size * bits // 8 < STREAMING_BYTES or destination.has_pad_slots:
        return "never"
    shape = destination.physical_shape
    store_position = len(shape) - 1
    extent = shape[store_position]
    assert extent is not None
    outer = [p for p in steps if p != store_position]
    if steps[store_position] == extent and (
        not outer or (outer == [store_position - 1] and order[-2] == store_position - 1)
    ):
        return "always"
    line = LINE_BYTES * 8
    if steps[store_position] * bits % line == 0 and extent * bits % line == 0:
        return "aligned"
    return "never"


def load_dim_of(source: Layout) -> int | None:
    """The source dim with the longest run of consecutive slots (`Layout.contiguous_run`)
    among those whose unit step moves along the innermost physical dim, or None: vector
    loads stay inside one physical row."""
    candidates = [
        (source.contiguous_run(dim), dim) for dim in range(source.rank) if _along_rows(source, dim)
    ]
    run, dim = max(candidates, default=(1, 0))
    return dim if run > 1 else None


def _along_rows(layout: Layout, dim: int) -> bool:
    if len(layout.physical_shape) == 1:
        return True
    return unit_position(layout, dim) == len(layout.physical_shape) - 1


def _fits(source: Layout, destination: Layout, load_position: int, width: int, span: int) -> bool:
    """Tiles of `span` lanes along the destination's innermost dim and `width` along the
    source's start at multiples of their size inside one run on both sides, and the source's
    inside one physical row."""
    terms = destination.blocked_terms
    load_dim = load_dim_of(source)
    assert terms is not None and load_dim is not None
    store_position = len(terms) - 1
    tiled = {store_position: span}
    if terms[store_position].dim != load_dim:
        tiled[load_position] = width
    for position, lanes in tiled.items():
        physical_extent = destination.physical_shape[position]
        assert physical_extent is not None
        if physical_extent % lanes if terms[position].size is not None else physical_extent < lanes:
            return False
        if terms[position].dim == load_dim and not runs_fit(source, load_dim, lanes):
            return False
    return runs_fit(destination, terms[store_position].dim, span)


def runs_fit(layout: Layout, dim: int, lanes: int) -> bool:
    """Vectors of `lanes` elements along `dim`, starting at multiples of `lanes`, lie inside
    one run of consecutive slots (`Layout.contiguous_run`) and one physical row: what a
    vector load from the source, or a vector store into the destination, needs."""
    run, extent = layout.contiguous_run(dim), layout.logical_shape[dim]
    row = layout.physical_shape[-1]
    assert row is not None
    if run % lanes and run != extent:
        return False
    return len(layout.physical_shape) == 1 or not row % lanes or row == extent


@dataclass
class Tiles:
    """Emits the tiled loop nest of one conversion."""

    source: ElementAccess
    destination: ElementAccess
    plan: TilePlan
    padded: Sequence[int]
    logical_of: Callable[[Sequence[AffineExpr]], list[AffineExpr]]
    move: ElementMove
    constant: Callable[[int], SSAValue]

    def emit(self, insert: Insert) -> None:
        shape = self.destination.layout.physical_shape
        for extent in shape:  # constants first: they must come before the loops using them
            assert extent is not None
            for value in (0, 1, self.plan.width, self.plan.span, self.plan.rows, extent):
                self.constant(value)
            for lanes in (self.plan.width, self.plan.span, self.plan.rows):
                self.constant(extent - extent % lanes)
        if self.plan.streaming != "aligned":
            self._level(0, {}, {}, insert)
            return
        address = memref.ExtractAlignedPointerAsIndexOp.get(self.destination.buffer)
        line = self.constant(LINE_BYTES)
        offset = arith.RemUIOp(address.results[0], line)
        aligned = arith.CmpiOp(offset.result, self.constant(0), "eq")
        for op in (address, offset, aligned):
            insert(op)
        then_block, else_block = Block(), Block()
        insert(scf.IfOp(aligned.result, [], Region(then_block), Region(else_block)))
        modes: tuple[tuple[Block, Streaming], ...] = ((then_block, "always"), (else_block, "never"))
        for block, mode in modes:
            Tiles(
                self.source,
                self.destination,
                replace(self.plan, streaming=mode),
                self.padded,
                self.logical_of,
                self.move,
                self.constant,
            )._level(0, {}, {}, block.add_op)
            block.add_op(scf.YieldOp())

    def _level(
        self, depth: int, ivs: dict[int, SSAValue], whole: dict[int, bool], add: Insert
    ) -> None:
        if depth == len(self.plan.order):
            self._tile(ivs, whole, add)
            return
        position = self.plan.order[depth]
        extent = self.destination.layout.physical_shape[position]
        assert extent is not None
        step = self.plan.steps.get(position)

        def deeper(full: bool | None) -> Callable[[SSAValue, Insert], None]:
            marks = whole if full is None else {**whole, position: full}
            return lambda iv, body: self._level(depth + 1, {**ivs, position: iv}, marks, body)

        if step is None:
            self._loop(0, extent, 1, add, deeper(None))
            return
        main = extent - extent % step
        if main:
            self._loop(0, main, step, add, deeper(True))
        if main < extent:
            self._loop(main, extent, 1, add, deeper(False))

    def _loop(
        self, low: int, high: int, step: int, add: Insert, body: Callable[[SSAValue, Insert], None]
    ) -> None:
        constant_loop(low, high, step, self.constant, add, body)

    def _tile(self, ivs: dict[int, SSAValue], whole: dict[int, bool], add: Insert) -> None:
        if not all(whole.values()):
            self._elements(ivs, whole, add)
            return
        leaves = IndexLeaves()
        start = self.logical_of([leaves.leaf(ivs[p]) for p in range(len(ivs))])
        if not self.padded:
            self._vectors(start, leaves, add)
            return
        bounds = self.destination.layout.logical_shape
        inside = [(start[d] + self.plan.reach(d), bounds[d]) for d in self.padded]
        some = [(start[d], bounds[d]) for d in self.padded]
        edge = self._partial if some != inside else None
        self._branch(
            inside,
            leaves,
            add,
            lambda b: self._vectors(start, leaves, b),
            lambda b: (
                self._branch(
                    some,
                    leaves,
                    b,
                    lambda p: edge(ivs, whole, start, leaves, p),
                    lambda p: self._pad(start, leaves, p),
                )
                if edge is not None
                else self._pad(start, leaves, b)
            ),
        )

    def _branch(
        self,
        pairs: Sequence[tuple[AffineExpr, int | None]],
        leaves: IndexLeaves,
        add: Insert,
        then: Callable[[Insert], None],
        otherwise: Callable[[Insert], None],
    ) -> None:
        access = self.destination
        emitter = IndexEmitter(leaves, add, access.mode, access.scope)
        branch_below(emitter, pairs, add, then, otherwise)

    def _partial_lanes(self) -> int:
        """Valid lanes of a tile that crosses the end of the store dim: its extent modulo
        the span (tiles start at multiples of the span)."""
        dim = self.plan.store_dim
        extent = self.destination.layout.logical_shape[dim]
        assert extent is not None
        return extent % self.plan.span if dim in self.padded else 0

    def _vectors(self, start: Sequence[AffineExpr], leaves: IndexLeaves, add: Insert) -> None:
        """A whole tile: loads along the source's run, transposes, line-wide stores."""
        plan = self.plan
        streaming = plan.streaming == "always"
        if plan.depth:
            self._blocks(start, leaves, add)
            return
        if not plan.transposed:
            for offset in range(0, plan.span, plan.width):
                index = _shifted(start, plan.store_dim, offset)
                value = self.source.load_vector(index, leaves, add, plan.width)
                self.destination.store_vector(value, index, leaves, add, streaming=streaming)
            return
        columns = []
        for offset in range(0, plan.span, plan.width):
            rows = [
                self.source.load_vector(
                    _shifted(start, plan.store_dim, offset + j), leaves, add, plan.width
                )
                for j in range(plan.width)
            ]
            columns.append(transpose(rows, add))
        for k in range(plan.width):
            for u, offset in enumerate(range(0, plan.span, plan.width)):
                index = _shifted(_shifted(start, plan.load_dim, k), plan.store_dim, offset)
                self.destination.store_vector(
                    columns[u][k], index, leaves, add, streaming=streaming
                )

    def _blocks(self, start: Sequence[AffineExpr], leaves: IndexLeaves, add: Insert) -> None:
        """A tile of whole source runs: V×V blocks, each loaded, transposed and stored."""
        plan = self.plan
        for first in range(0, plan.rows, plan.width):
            for offset in range(0, plan.span, plan.width):
                corner = _shifted(_shifted(start, plan.load_dim, first), plan.store_dim, offset)
                rows = [
                    self.source.load_vector(
                        _shifted(corner, plan.store_dim, j), leaves, add, plan.width
                    )
                    for j in range(plan.width)
                ]
                for k, column in enumerate(transpose(rows, add)):
                    index = _shifted(corner, plan.load_dim, k)
                    self.destination.store_vector(column, index, leaves, add)

    def _pad(self, start: Sequence[AffineExpr], leaves: IndexLeaves, add: Insert) -> None:
        """A tile of pad slots only: splat stores."""
        plan = self.plan
        rows = range(plan.rows) if plan.transposed else range(1)
        for k in rows:
            self._pad_run(_shifted(start, plan.load_dim, k), 0, plan.span, leaves, add)

    def _pad_run(
        self, start: Sequence[AffineExpr], first: int, end: int, leaves: IndexLeaves, add: Insert
    ) -> None:
        """Pad lanes [first, end) along the store dim, in power-of-two vectors."""
        from xdsl.dialects import vector

        layout = self.destination.layout
        for offset, size in _pieces(first, end):
            pad = scalar_constant(layout.pad, self.destination.element)
            splat = vector.BroadcastOp(pad.result, VectorType(self.destination.element, [size]))
            add(pad)
            add(splat)
            index = _shifted(start, self.plan.store_dim, offset)
            self.destination.store_vector(splat.results[0], index, leaves, add)

    def _partial(
        self,
        ivs: dict[int, SSAValue],
        whole: dict[int, bool],
        start: Sequence[AffineExpr],
        leaves: IndexLeaves,
        add: Insert,
    ) -> None:
        """A tile that crosses the end of a padded dim: along the store dim alone (no
        transpose), its valid lanes in power-of-two vectors, then pad; otherwise (a transposed
        tile crossing its load dim, its store dim, or both) element by element."""
        valid = self._partial_lanes()
        if self.plan.transposed or valid == 0:
            self._elements(ivs, whole, add)
            return
        for offset, size in _pieces(0, valid):
            index = _shifted(start, self.plan.store_dim, offset)
            value = self.source.load_vector(index, leaves, add, size)
            self.destination.store_vector(value, index, leaves, add)
        self._pad_run(start, valid, self.plan.span, leaves, add)

    def _elements(self, ivs: dict[int, SSAValue], whole: dict[int, bool], add: Insert) -> None:
        """The elements of a tile one by one: loops over the lanes of its whole dims."""
        inner = [p for p, full in whole.items() if full]

        def nest(depth: int, offsets: dict[int, SSAValue], body: Insert) -> None:
            if depth < len(inner):
                position = inner[depth]
                self._loop(
                    0,
                    self.plan.steps[position],
                    1,
                    body,
                    lambda iv, b: nest(depth + 1, {**offsets, position: iv}, b),
                )
                return
            leaves = IndexLeaves()
            digits = [
                leaves.leaf(ivs[p]) + (leaves.leaf(offsets[p]) if p in offsets else 0)
                for p in range(len(ivs))
            ]
            self.move(self.logical_of(digits), leaves, body)

        nest(0, {}, add)


def _pieces(first: int, end: int) -> list[tuple[int, int]]:
    """[first, end) as aligned power-of-two pieces (offset, size), largest first."""
    pieces = []
    offset = first
    while offset < end:
        size = 1 << (end - offset).bit_length() - 1
        while offset % size:
            size //= 2
        pieces.append((offset, size))
        offset += size
    return pieces


def all_below(
    emitter: IndexEmitter,
    pairs: Sequence[tuple[AffineExpr, int | AffineExpr | None]],
    add: Insert,
) -> SSAValue:
    """Whether every value is below its bound (unsigned; a constant, or a leaf such as a
    run-time size), as an `i1`."""
    condition: SSAValue | None = None
    for value, bound in pairs:
        assert bound is not None
        limit = AffineExpr.constant(bound) if isinstance(bound, int) else bound
        below = arith.CmpiOp(emitter.emit(emitter.best_form(value)), emitter.emit(limit), "ult")
        add(below)
        if condition is None:
            condition = below.result
        else:
            both = arith.AndIOp(condition, below.result)
            add(both)
            condition = both.result
    assert condition is not None
    return condition


def branch_below(
    emitter: IndexEmitter,
    pairs: Sequence[tuple[AffineExpr, int | AffineExpr | None]],
    add: Insert,
    then: Callable[[Insert], None],
    otherwise: Callable[[Insert], None],
) -> None:
    """An `scf.if` on every value being below its bound (unsigned; a constant, or a leaf
    such as a run-time size): `then` builds its then block, `otherwise` its else block."""
    then_block, else_block = Block(), Block()
    add(scf.IfOp(all_below(emitter, pairs, add), [], Region(then_block), Region(else_block)))
    then(then_block.add_op)
    then_block.add_op(scf.YieldOp())
    otherwise(else_block.add_op)
    else_block.add_op(scf.YieldOp())


def _shifted(index: Sequence[AffineExpr], dim: int, by: int) -> list[AffineExpr]:
    return [e + by if d == dim and by else e for d, e in enumerate(index)]


def transpose(rows: Sequence[SSAValue], add: Insert) -> list[SSAValue]:
    """Transpose V vectors of V lanes (V a power of two): stage s swaps the off-diagonal
    blocks of size 2^s between row pairs (i, i + 2^s) with two shuffles each."""
    from xdsl.dialects import vector

    width = len(rows)
    current = list(rows)
    size = 1
    while size < width:
        low = [j if not j & size else width + j - size for j in range(width)]
        high = [j + size if not j & size else width + j for j in range(width)]
        for i in range(width):
            if i & size:
                continue
            a, b = current[i], current[i + size]
            kind = a.type
            assert isinstance(kind, VectorType)
            first = vector.ShuffleOp(a, b, DenseArrayBase.from_list(i64, low), result_type=kind)
            second = vector.ShuffleOp(a, b, DenseArrayBase.from_list(i64, high), result_type=kind)
            add(first)
            add(second)
            current[i], current[i + size] = first.result, second.result
        size *= 2
    return current
