"""`layout-schedule`: loop nests that walk their buffers in memory order.

Every linalg op becomes a loop nest, neighbouring nests fuse (`fusion`), and each loop
nest (with `plain=false` only those that touch a layout-typed buffer) is planned in steps
(`strip_mining`, `interchange`, `vectorization`, `register_tiling`, each checked against `dependence`) and
emitted anew on the logical buffers; `layout-lower` then turns its logical accesses into
physical ones. A nest the pass cannot prove it may change stays as it is, with a remark.

In a module without layouts `layout-lower` keeps the program's own accesses; one in which the
schedule made vector accesses to sub-byte elements (an `i1` mask of a comparison) is marked
`layout.by_element`, and `layout-lower` writes them on the memref's bytes as in a module with
layouts (`packed/layout_sub_byte_accesses`): upstream would move them as packed bits.
"""

from __future__ import annotations

import math
import os
import platform
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import affine, func
from xdsl.dialects.builtin import MemRefType, ModuleOp, UnitAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.common_subexpression_elimination import cse
from xdsl.utils.exceptions import PassFailedException

from heterolayout.dialects.conversion import layout_of
from heterolayout.dialects.ops import AssignOp
from heterolayout.dialects.roles import VECTOR_ACCESSES
from heterolayout.dialects.roots import buffer_root
from heterolayout.dialects.schedule_hint import ScheduleOp
from heterolayout.dialects.structured import is_structured
from heterolayout.dialects.verification import verify_layouts
from heterolayout.layout.errors import LayoutError
from heterolayout.passes.index.misfold_guard import guard_misfolded_maps
from heterolayout.passes.lower.layout_erase_hints import has_layouts
from heterolayout.passes.lower.linalg_loops import lower_linalg_on_layouts
from heterolayout.passes.packed.layout_sub_byte_accesses import BY_ELEMENT
from heterolayout.passes.packed.sub_byte_accesses import moves_packed_bits
from heterolayout.passes.remarks import remark, remarks_shown
from heterolayout.passes.schedule.approximation import approximate_math
from heterolayout.passes.schedule.blocked_sums import block_sums, digit_trips
from heterolayout.passes.schedule.bound_splitting import split_nest
from heterolayout.passes.schedule.copies import copies_as_linalg
from heterolayout.passes.schedule.dependence import Dependence, dependences, parallel_loops
from heterolayout.passes.schedule.emission import NestEmitter
from heterolayout.passes.schedule.estimate import operations
from heterolayout.passes.schedule.fusion import fuse_nests
from heterolayout.passes.schedule.interchange import (
    Remark,
    order,
    reorder_reductions,
    strip_reductions,
)
from heterolayout.passes.schedule.nest import (
    LOOPS,
    Access,
    Nest,
    NotScheduled,
    extract,
    loops_around,
    nest_name,
)
from heterolayout.passes.schedule.overwrite import drop_overwritten_converts
from heterolayout.passes.schedule.packed_words import word_level
from heterolayout.passes.schedule.padding import fill_borders
from heterolayout.passes.schedule.plan import Plan
from heterolayout.passes.schedule.powers import expand_constant_powers
from heterolayout.passes.schedule.reduction_blocks import L1_BYTES, block_reductions
from heterolayout.passes.schedule.register_tiling import register_tile, vector_length
from heterolayout.passes.schedule.rolled_loops import keeps_overlaps_rolled
from heterolayout.passes.schedule.strip_mining import strip_mine
from heterolayout.passes.schedule.unread_buffers import drop_unread_buffers
from heterolayout.passes.schedule.vectorization import (
    buffer_layout,
    vectorize,
    vectorize_reduction,
)
from heterolayout.passes.schedule.window_writes import write_into_windows

TARGETS = {"avx512": (512, 32), "avx2": (256, 16), "sse": (128, 16), "neon": (128, 32)}
"""Vector width in bits and vector registers of each target."""

EMBEDDED_BROADCASTS = frozenset({"avx512"})
"""Targets whose multiplies read a scalar broadcast from memory (`vmulps zmm, zmm,
m32{1to16}`): `register_tiling` and `rolled_loops` let broadcasts fold there."""


HOST_TARGET_VARIABLE = "HETEROLAYOUT_HOST_TARGET"
"""Names the target `target=host` means instead of the CPU's own: for tests that must pass
on AVX2 and AVX-512 hosts alike, run on either kind of machine."""


def host_target() -> str:
    """The target of the CPU this runs on (`target=host`): its widest vector unit, or the
    target `$HETEROLAYOUT_HOST_TARGET` names."""
    forced = os.environ.get(HOST_TARGET_VARIABLE, "")
    if forced:
        if forced not in TARGETS:
            raise LayoutError(
                f"{HOST_TARGET_VARIABLE}={forced}: expected one of {', '.join(TARGETS)}"
            )
        return forced
    return _cpu_target()


@cache
def _cpu_target() -> str:
    machine = platform.machine().lower()
    if machine in ("aarch64", "arm64"):
        return "neon"
    try:
        flags = set(Path("/proc/cpuinfo").read_text().split())
    except OSError:
        flags = set()
    if "avx512f" in flags:
        return "avx512"
    return "avx2" if "avx2" in flags else "sse"


@dataclass(frozen=True)
class LayoutSchedulePass(ModulePass):
    """Restructure each loop nest (plain buffers are row-major) to walk its leading
    buffer in memory order: strip-mine by its blocks, interchange (where dependences allow),
    vectorize the innermost physical block, and register-tile over the reductions.

    Options: `target=host|avx512|avx2|sse|neon` (vector width and register count; `host`,
    the default: the CPU it runs on, whose features `mlir-runner` compiles for),
    `vector_width` (bits) and `registers` to override it, `tile` (register tile in elements
    along the leading buffer's logical dims), `vectorize=false`, `fma=true` (fused
    multiply-adds: one rounding, so results may differ in the last bit), `reassociate=true`
    (reductions may be reordered), `approximate` (default: as `reassociate`; f32
    `math.exp`, `math.erf`, `math.tanh` and `math.log` in the nests it works on become
    polynomials the nest vectorizes, within a few ulp of libm, as fast-math compilers call
    vector math libraries: `approximation`), `words=false` (no word-level code for packed lanes),
    `plain=false` (leave alone the nests that touch no layout-typed buffer, and linalg ops
    on plain buffers), `fuse=false` (no fusion of element-wise nests into their
    producer, `fusion`), `remarks=true` (print why each nest was or was not
    changed; `layout-opt -v` does too). `layout.schedule` ops steer single buffers."""

    name = "layout-schedule"

    target: str = "host"
    vector_width: int = 0
    registers: int = 0
    tile: tuple[int, ...] = ()
    vectorize: bool = True
    fma: bool = False
    reassociate: bool = False
    remarks: bool = False
    words: bool = True
    plain: bool = True
    fuse: bool = True
    approximate: bool | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.target not in TARGETS and self.target != "host":
            raise PassFailedException(
                f"layout-schedule: target={self.target}: expected host or one of "
                f"{', '.join(TARGETS)}"
            )
        try:
            target = host_target() if self.target == "host" else self.target
        except LayoutError as error:
            raise PassFailedException(f"layout-schedule: target=host: {error}") from None
        if self.vector_width < 0 or self.vector_width % 8 or self.registers < 0:
            raise PassFailedException(
                f"layout-schedule: vector_width={self.vector_width} registers={self.registers}: "
                "expected a multiple of 8 bits and a register count (0: the target's)"
            )
        if self.tile != (0,) and any(size < 1 for size in self.tile):
            raise PassFailedException(
                f"layout-schedule: tile={','.join(map(str, self.tile))}: expected positive "
                "sizes, or tile=0 (no register tiling)"
            )
        with remarks_shown(self.remarks):
            self._apply(ctx, op, target)

    def _apply(self, ctx: Context, op: ModuleOp, target: str) -> None:
        verify_layouts(op)
        before = {o for o in op.walk() if o.name in VECTOR_ACCESSES}
        if any(isinstance(o, AssignOp) for o in op.walk()):
            from heterolayout.passes.lower.layout_apply import LayoutApplyPass

            LayoutApplyPass().apply(ctx, op)
        fill_borders(op, every=self.plain)
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            write_into_windows(function, self.plain, _remarker(function))
        copies_as_linalg(op)
        lower_linalg_on_layouts(op, every=self.plain)
        approximate = self.reassociate if self.approximate is None else self.approximate
        hints = {buffer_root(h.memref): h for h in op.walk() if isinstance(h, ScheduleOp)}
        chosen = self._chosen(hints)
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            say = _remarker(function)
            for left in [o for o in function.walk() if is_structured(o)]:
                why = "no operand has a layout (plain=false)"
                if left.results:
                    why = "it works on tensors (bufferize first)"
                say(f"{left.name}: left alone: {why}")
            tops = [o for o in function.walk() if isinstance(o, LOOPS) and not loops_around(o)]
            for top in filter(chosen, tops):
                expand_constant_powers(top)
                if approximate:
                    approximate_math(top)
            changed = drop_unread_buffers(function, say)
            if self.fuse and fuse_nests(function, chosen, say):
                drop_unread_buffers(function, say)  # what fused nests read in registers now
                changed = True
            for top in [o for o in function.walk() if isinstance(o, LOOPS) and not loops_around(o)]:
                if not chosen(top):
                    say(
                        f"nest {nest_name(top)}: left alone: it touches no layout-typed buffer "
                        "(plain=false)"
                    )
                    continue
                for nest in _split(function, top):
                    changed |= self._schedule(function, nest, hints, target)
            if changed:
                cse(function.body)
        for hint in hints.values():
            Rewriter.erase_op(hint)
        guard_misfolded_maps(op)
        if not has_layouts(op) and any(o not in before and moves_packed_bits(o) for o in op.walk()):
            op.attributes[BY_ELEMENT] = UnitAttr()

    def _chosen(self, hints: dict[SSAValue, ScheduleOp]) -> Callable[[Operation], bool]:
        """Which nests the pass works on: all, or with `plain=false` those that touch a
        layout-typed buffer or a hinted one."""
        return lambda top: self.plain or _touches_layout(top) or _touches_hint(top, hints)

    def _schedule(self, function: func.FuncOp, top: Operation, hints: dict, target: str) -> bool:
        where = f"@{function.sym_name.data}: nest {nest_name(top)}"
        try:
            nest = extract(top)
        except NotScheduled as refusal:
            remark(f"layout-schedule: {where}: not scheduled: {_at(refusal)}")
            return False
        hint = _hint(nest, hints)
        if hint is not None and hint.skip is not None:
            remark(f"layout-schedule: {where}: skipped (layout.schedule ... {{skip}})")
            return False

        def say(message: str) -> None:
            remark(f"layout-schedule: {where}: {message}")

        for buffer in drop_overwritten_converts(nest):
            say(f"dropped the conversion into {buffer.type}: the nest overwrites it before reading")

        if self.words and self._words(nest, say):
            return True
        try:
            plan = self._plan(nest, hint, say, target)
        except NotScheduled as refusal:
            say(f"not scheduled: {_at(refusal)}")
            return False
        except LayoutError as error:
            raise PassFailedException(f"layout-schedule: {error}") from None
        if not _changes(plan):
            say("left as it is: it already walks its leading buffer in memory order")
            return False
        for new in NestEmitter(plan).emit():
            Rewriter.insert_op(new, InsertPoint.before(top))
        Rewriter.erase_op(top)
        say(_summary(plan))
        return True

    def _words(self, nest: Nest, say: Remark) -> bool:
        """Word-level code where a loop walks the lanes of a packed buffer."""
        try:
            found = word_level(nest)
        except NotScheduled as refusal:
            say(f"no word-level code: {_at(refusal)}")
            return False
        if found is None:
            return False
        replaced, ops, summary = found
        for new in ops:
            Rewriter.insert_op(new, InsertPoint.before(replaced))
        Rewriter.erase_op(replaced)
        say(f"scheduled: {summary}")
        return True

    def _plan(self, nest: Nest, hint: ScheduleOp | None, say: Remark, target: str) -> Plan:
        """The plan; where it has no vectors along a parallel loop, one that gathers the
        reads that are not contiguous along the vector loop, if that one has vectors and
        costs fewer operations (`estimate`: a short reduction's partial results fold once
        per result; its remarks then)."""
        found = dependences(nest)
        remarks: list[str] = []
        plan = self._planned(nest, found, hint, remarks.append, target, gathers=False)
        if self.vectorize and (plan.vector_loop is None or plan.partials):
            again: list[str] = []
            try:
                gathering = self._planned(nest, found, hint, again.append, target, gathers=True)
            except NotScheduled:
                gathering = plan
            if gathering.gathered and operations(gathering) < operations(plan):
                plan, remarks = gathering, again
                remarks += [f"gathered lane by lane: {why}" for why in gathering.gathered.values()]
        for message in remarks:
            say(message)
        return plan

    def _planned(
        self,
        nest: Nest,
        found: list[Dependence],
        hint: ScheduleOp | None,
        say: Remark,
        target: str,
        gathers: bool,
    ) -> Plan:
        width, registers = TARGETS[target]
        width = self.vector_width or width
        registers = self.registers or registers
        if hint is not None and hint.width is not None:
            width = hint.width
        lead = _lead(nest, hint, found)
        parallel = parallel_loops(nest, found)
        digits = strip_mine(nest, lead, buffer_layout(lead.buffer))
        outer, inner = order(nest, digits, found, say)
        plan = Plan(
            nest,
            lead,
            outer,
            inner,
            fused=self.fma,
            embedded_broadcasts=target in EMBEDDED_BROADCASTS,
            rolled_overlaps=keeps_overlaps_rolled(
                target in EMBEDDED_BROADCASTS, self.fma, registers
            ),
        )
        refusal = vectorize(plan, parallel, width, gathers) if self.vectorize else None
        sizes = self._tile_sizes(nest, lead, hint, say)
        if sizes != {}:
            register_tile(plan, parallel, width, registers, sizes, say)
        if self.reassociate:
            reorder_reductions(plan, found, say)
        else:
            strip_reductions(plan)
        if refusal is not None:
            why = f"not vectorized: {refusal.reason}"
            try:
                if plan.hoisted:
                    vectorize_reduction(plan, found, width, self.reassociate)
            except NotScheduled as along:
                why += f"; nor along a reduction: {_at(along)}"
            if not plan.partials:
                say(why)
        if self.reassociate:
            block_sums(plan)
        if (moved := block_reductions(plan, parallel, found)) is not None:
            digit, before = moved
            name = nest.loops[digit.loop].name(digit.loop)
            say(
                f"{name}/{digit.weight} runs around the tile: one tile's reads "
                f"({before // 1024} KB) exceed L1 ({L1_BYTES // 1024} KB)"
            )
        return plan

    def _tile_sizes(
        self, nest: Nest, lead: Access, hint: ScheduleOp | None, say: Remark
    ) -> dict[int, int] | None:
        tile = hint.tile_sizes if hint is not None and hint.tile is not None else self.tile
        if not tile:
            return None
        if tile == (0,):
            return {}
        if len(tile) != len(lead.exprs):
            say(f"tile {list(tile)} ignored: the leading buffer has rank {len(lead.exprs)}")
            return None
        sizes: dict[int, int] = {}
        for expr, size in zip(lead.exprs, tile, strict=True):
            loops = [d for d in expr.used_dims() if d < len(nest.loops)]
            if len(loops) == 1 and size > 1:
                sizes[loops[0]] = size
        return sizes


def _split(function: func.FuncOp, top: Operation) -> list[Operation]:
    """`top`, or the nests index-set splitting makes of it where its bounds are `max`/`min`
    of an outer counter (`bound_splitting`)."""
    if not isinstance(top, affine.ForOp):
        return [top]
    where = f"@{function.sym_name.data}: nest {nest_name(top)}"
    return list(split_nest(top, lambda message: remark(f"layout-schedule: {where}: {message}")))


def _remarker(function: func.FuncOp) -> Remark:
    return lambda message: remark(f"layout-schedule: @{function.sym_name.data}: {message}")


def _touches_hint(top: Operation, hints: dict[SSAValue, ScheduleOp]) -> bool:
    return any(buffer_root(v) in hints for op in top.walk() for v in op.operands)


def _at(refusal: NotScheduled) -> str:
    return f"{refusal.op.name}: {refusal.reason}"


def _touches_layout(top: Operation) -> bool:
    for op in top.walk():
        for value in op.operands:
            if isinstance(value.type, MemRefType) and layout_of(value.type) is not None:
                return True
    return False


def _hint(nest: Nest, hints: dict[SSAValue, ScheduleOp]) -> ScheduleOp | None:
    for access in nest.accesses.values():
        hint = hints.get(buffer_root(access.buffer))
        if hint is not None:
            return hint
    return None


def _lead(nest: Nest, hint: ScheduleOp | None, found: list[Dependence]) -> Access:
    """The hinted buffer, else the buffer the innermost statements store to (one that no
    loop it walks carries a dependence for first: a reduction's output, not element-wise
    code fused into the reduction; then a layout-typed one); its store that the most loops
    enclose."""
    carriers = {d.carrier for d in found} - {None}

    def walks_a_carrier(access: Access) -> bool:
        return any(nest.uses_loop(access, loop) for loop in carriers)  # type: ignore[arg-type]

    stores = sorted(
        (a for a in nest.accesses.values() if a.write),
        key=lambda a: (-a.depth, walks_a_carrier(a), layout_of(a.buffer.type) is None),
    )
    accesses = sorted(nest.accesses.values(), key=lambda a: (not a.write, -a.depth))
    if hint is not None:
        root = buffer_root(hint.memref)
        for access in accesses:
            if buffer_root(access.buffer) == root:
                return access
    if not stores:
        raise NotScheduled(nest.top, "the nest stores to no buffer")
    return stores[0]


def _changes(plan: Plan) -> bool:
    if plan.tile or plan.hoisted:
        return True
    digits = [*plan.outer, *plan.inner]
    loops = [d.loop for d in digits]
    return len(digits) != len(plan.nest.loops) or loops != sorted(loops)


def _summary(plan: Plan) -> str:
    nest = plan.nest
    outer = ", ".join(f"{nest.loops[d.loop].name(d.loop)}/{d.weight}" for d in plan.outer)
    inner = ", ".join(
        nest.loops[d.loop].name(d.loop) + (f"/{d.weight}" if d.weight > 1 else "")
        for d in plan.inner
    )
    copies = [d for d in plan.tile if d.kind == "unroll"]
    text = f"scheduled: loops ({outer}) around the tile"
    if plan.vector_loop is not None:
        element = plan.lead.buffer.type.element_type  # type: ignore[attr-defined]
        text += f", vector<{vector_length(plan)}x{element}> along {nest.loops[plan.vector_loop].name(plan.vector_loop)}"
        if plan.partials:
            text += " (partial results of the reduction)"
    if copies:
        text += f", {len(copies)} unrolled digit(s)"
    if inner:
        text += f"; inner loops ({inner})"
    if plan.hoisted:
        text += f" carry {len(plan.hoisted)} accumulator(s) per copy"
    if plan.block_depth is not None:
        terms = math.prod(digit_trips(plan, d) for d in plan.inner[plan.block_depth :])
        text += f", summed in blocks of {terms}"
    return text
