"""`layout-lower`: every layout-typed memref becomes a plain physical buffer.

The pass runs in three steps. It first refuses what it cannot lower, naming the op (an
unknown user of a layout-typed memref, an external function whose ABI would change, a layout
kind not supported yet). It then retypes every layout-typed value where it is defined
(allocations, globals, arguments, loop-carried values, call results, casts), remembering the
logical layout of each. Finally it rewrites each access through its remembered layout:
index code for loads and stores, vector accesses kept only over provably contiguous runs,
loop nests for conversions, pad fills for new buffers, logical sizes for `memref.dim`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.context import Context
from xdsl.dialects import affine, arith, func, gpu, memref, scf, vector
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FunctionType,
    IntegerType,
    MemRefType,
    ModuleOp,
    Signedness,
    VectorType,
)
from xdsl.dialects.builtin import StridedLayoutAttr as BuiltinStridedLayoutAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.common_subexpression_elimination import cse
from xdsl.transforms.dead_code_elimination import region_dce
from xdsl.utils.exceptions import PassFailedException

from heterolayout.dialects.conversion import layout_of, with_layout
from heterolayout.dialects.layout import AssignOp, ConvertOp
from heterolayout.dialects.names import op_name
from heterolayout.dialects.schedule_hint import ScheduleOp
from heterolayout.dialects.upstream.memref import CastOp
from heterolayout.dialects.vector_from_elements import FromElementsOp
from heterolayout.dialects.verification import verify_layouts
from heterolayout.dialects.views import value_layout
from heterolayout.layout.element_types import element_type
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.model import Layout
from heterolayout.limits import check_elements
from heterolayout.passes.collector import collector_paused
from heterolayout.passes.container_access import load_lanes, store_lanes, whole_container
from heterolayout.passes.convert_loops import convert, fill
from heterolayout.passes.element_access import ElementAccess, Insert
from heterolayout.passes.index_code import (
    IndexEmitter,
    IndexLeaves,
    IndexMode,
    IndexScope,
    IndexValues,
    constant_index,
)
from heterolayout.passes.index_simplify import IndexSimplifier
from heterolayout.passes.linalg_loops import lower_linalg_on_layouts
from heterolayout.passes.physical import identity_layout, physical_exprs, physical_type
from heterolayout.passes.simplify_index import erase_dead_index_code, erase_dead_ops
from heterolayout.passes.translation_validation import Validator
from heterolayout.passes.word_folding import fold_words

ACCESS_OPS = (
    memref.LoadOp,
    memref.StoreOp,
    affine.LoadOp,
    affine.StoreOp,
    vector.LoadOp,
    vector.StoreOp,
    affine.VectorLoadOp,
    affine.VectorStoreOp,
    vector.TransferReadOp,
    vector.TransferWriteOp,
    memref.DimOp,
    memref.CopyOp,
    memref.DeallocOp,
    ConvertOp,
)
PASS_THROUGH_OPS = (
    memref.CastOp,
    func.CallOp,
    gpu.LaunchFuncOp,
    func.ReturnOp,
    scf.YieldOp,
    scf.ForOp,
    scf.WhileOp,
    scf.ConditionOp,
    affine.YieldOp,
    affine.ForOp,
)
DEFINING_OPS = (
    memref.AllocOp,
    memref.AllocaOp,
    memref.GetGlobalOp,
    memref.CastOp,
    func.CallOp,
    scf.ForOp,
    scf.IfOp,
    scf.WhileOp,
    affine.ForOp,
)


def fail(op: Operation, message: str) -> None:
    op.emit_error(message, PassFailedException(message))


def _layout(memref_type: Attribute) -> Layout | None:
    if not isinstance(memref_type, MemRefType):
        return None
    return layout_of(memref_type)


@dataclass
class Lowering:
    """The state of one run: options, and the logical layout of every retyped value."""

    mode: IndexMode
    flatten: bool
    layouts: dict[SSAValue, Layout] = field(default_factory=dict)
    flattened: set[SSAValue] = field(default_factory=set)
    elements: dict[SSAValue, Attribute] = field(default_factory=dict)
    """The logical element type of each retyped value (packed buffers hold containers)."""
    pad_fills: list[tuple[memref.AllocOp | memref.AllocaOp, Layout]] = field(default_factory=list)
    index_values: IndexValues = field(default_factory=IndexValues)
    maybe_dead: list[Operation] = field(default_factory=list)
    """Ops a rewrite may have left unused: the program's index code, loads nobody reads."""
    with_loops: dict[Operation, None] = field(default_factory=dict)
    """Functions that received loop nests (conversions, pad fills), to be canonicalized."""
    words: list[Operation] = field(default_factory=list)
    """Whole-container transfers' replacements: their bitwise lanes become word ops."""
    validator: Validator | None = None
    """Translation validation (`validate=true`): proves each rewritten access."""

    # ---- step 1: what cannot be lowered --------------------------------------------------
    def check(self, module: ModuleOp) -> None:
        for op in module.walk():
            if isinstance(op, func.FuncOp) and self.flatten:
                for memref_type in [*op.function_type.inputs.data, *op.function_type.outputs.data]:
                    layout = _layout(memref_type)
                    if layout is not None and layout.is_dynamic:
                        fail(
                            op,
                            f"layout-lower: flatten=true needs static shapes, but @{op.sym_name.data} "
                            f"takes or returns {memref_type}",
                        )
            if isinstance(op, func.FuncOp) and op.is_declaration:
                types = [*op.function_type.inputs.data, *op.function_type.outputs.data]
                if any(_layout(t) is not None for t in types):
                    fail(
                        op,
                        f"layout-lower: external function @{op.sym_name.data} has a layout-typed "
                        "memref in its signature; lowering would change its ABI. Declare it with "
                        "the physical type, or define it in this module",
                    )
            if isinstance(op, gpu.LaunchFuncOp):
                self._check_launch(op)
            for value in (*op.operands, *op.results):
                layout = value_layout(value)
                if layout is None:
                    continue
                self._check_supported(op, value, layout)
                if value in op.operands and not isinstance(op, ACCESS_OPS + PASS_THROUGH_OPS):
                    fail(
                        op,
                        f"layout-lower: {op_name(op)} uses the layout-typed memref {value.type} and "
                        "has no lowering; nothing is skipped silently",
                    )
                if value in op.results and not isinstance(op, DEFINING_OPS):
                    fail(
                        op,
                        f"layout-lower: {op_name(op)} defines a layout-typed memref {value.type} and "
                        "has no lowering",
                    )

    def _check_launch(self, op: gpu.LaunchFuncOp) -> None:
        """A kernel's parameters are retyped with its signature: each memref passed must
        have the parameter's very type, layout included."""
        kernel = SymbolTable.lookup_symbol(op, op.kernel)
        if not isinstance(kernel, gpu.FuncOp):
            return
        for value, expected in zip(op.kernelOperands, kernel.function_type.inputs, strict=False):
            if value.type != expected and (_layout(value.type) or _layout(expected)):
                fail(
                    op,
                    f"layout-lower: gpu.launch_func passes {value.type} to a parameter of "
                    f"@{kernel.sym_name.data} typed {expected}: the layouts must agree (give "
                    "the kernel the same layout, or layout.convert before the launch)",
                )

    def _check_supported(self, op: Operation, value: SSAValue, layout: Layout) -> None:
        element = value.type.element_type  # type: ignore[attr-defined]
        if (
            layout.packing is not None
            and not layout.packing.is_vector
            and isinstance(element, IntegerType)
            and element.signedness.data != Signedness.SIGNLESS
        ):
            fail(
                op,
                f"layout-lower: {value.type}: an integer container holds signless lanes only; "
                f"upstream arith cannot shift or truncate {element} (use i{element.width.data})",
            )
        if self.flatten and layout.is_dynamic:
            fail(op, f"layout-lower: flatten=true needs static shapes, {value.type} has '?'")

    # ---- step 2: retype definitions --------------------------------------------------------
    def retype(self, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if isinstance(op, memref.GlobalOp):
                self._retype_global(op)
            elif isinstance(op, func.FuncOp | gpu.FuncOp):
                op.function_type = FunctionType.from_lists(
                    [self._physical(t) for t in op.function_type.inputs.data],
                    [self._physical(t) for t in op.function_type.outputs.data],
                )
            if isinstance(op, (memref.AllocOp, memref.AllocaOp)):
                self._retype_alloc(op)
                continue
            for result in op.results:
                self._retype_value(result)
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        self._retype_value(arg)

    def _physical(self, memref_type: Attribute) -> Attribute:
        layout = _layout(memref_type)
        if layout is None:
            return memref_type
        assert isinstance(memref_type, MemRefType)
        return physical_type(memref_type, layout, self.flatten)

    def _retype_value(self, value: SSAValue) -> SSAValue:
        layout = value_layout(value)
        if layout is None:
            return value
        element = value.type.element_type  # type: ignore[attr-defined]
        new = Rewriter.replace_value_with_new_type(value, self._physical(value.type))
        self.layouts[new] = layout
        self.elements[new] = element
        if self.flatten:
            self.flattened.add(new)
        return new

    def _retype_alloc(self, op: memref.AllocOp | memref.AllocaOp) -> None:
        layout = _layout(op.memref.type)
        if layout is None:
            _plain_identity_allocation(op)
            return
        physical = self._physical(op.memref.type)
        dynamic = list(op.dynamic_sizes)
        logical_dynamic = [d for d, e in enumerate(layout.logical_shape) if e is None]
        ordered = []
        for result, extent in zip(layout.index_map.results, layout.physical_shape, strict=True):
            if extent is None:
                (dim,) = result.used_dims()
                ordered.append(dynamic[logical_dynamic.index(dim)])
        new = type(op).build(
            operands=[ordered, []],  # the layout's symbols, unused (`without_symbols`), go
            result_types=[physical],
            properties={"alignment": op.alignment} if op.alignment is not None else {},
        )
        Rewriter.replace_op(op, new)
        self.layouts[new.memref] = layout
        if self.flatten:
            self.flattened.add(new.memref)
        self.elements[new.memref] = op.memref.type.element_type  # type: ignore[attr-defined]
        if layout.has_pad_slots or layout.packing is not None:
            self.pad_fills.append((new, layout))

    def _retype_global(self, op: memref.GlobalOp) -> None:
        layout = _layout(op.type)
        if layout is None:
            return
        physical = self._physical(op.type)
        assert isinstance(physical, MemRefType)
        if layout.packing is not None and layout.packing.is_vector:
            fail(
                op,
                f"layout-lower: memref.global @{op.sym_name.data} has a vector-packed layout; "
                "MLIR's dense initializers cannot hold vectors (use an integer container)",
            )
        initial = op.initial_value
        if isinstance(initial, DenseIntOrFPElementsAttr):
            logical = _dense_array(initial, layout)
        elif layout.has_pad_slots or layout.packing is not None:
            # An uninitialised global still has defined pad slots and unused bits.
            check_elements(layout.size, f"memref.global @{op.sym_name.data}")
            logical = np.full(layout.logical_shape, layout.pad)  # type: ignore[arg-type]
        else:
            logical = None
        if logical is not None:
            words = layout.pack(logical).ravel().tolist()
            if layout.packing is not None:
                container = element_type(f"i{layout.packing.container_bits}")
                words = [container.wrap(w) for w in words]
            initial = DenseIntOrFPElementsAttr.from_list(_tensor_type(physical), words)
        op.properties["type"] = physical
        op.properties["initial_value"] = initial

    # ---- step 3: rewrite accesses ----------------------------------------------------------
    def rewrite(self, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if op.parent is None:
                continue
            if self.validator is None:
                self._rewrite_op(op)
            else:  # translation validation reads the access before and checks it after
                with self.validator.watch(op, self.layouts.get, self.flattened.__contains__):
                    self._rewrite_op(op)
        for allocation, layout in self.pad_fills:
            fill(allocation.memref, layout, _inserter_after(allocation))
            self._loops_added(allocation)
        erase_dead_ops(self.maybe_dead)

    def _rewrite_op(self, op: Operation) -> None:
        if isinstance(op, arith.ConstantOp):
            self.index_values.note_constant(op)
        elif isinstance(op, (memref.LoadOp, memref.StoreOp)):
            self._lower_memref_access(op)
        elif isinstance(op, (affine.LoadOp, affine.StoreOp)):
            self._lower_affine_access(op)
        elif isinstance(
            op, (vector.LoadOp, vector.StoreOp, affine.VectorLoadOp, affine.VectorStoreOp)
        ):
            self._lower_vector_access(op)
        elif isinstance(op, (vector.TransferReadOp, vector.TransferWriteOp)):
            self._lower_transfer(op)
        elif isinstance(op, memref.DimOp):
            self._lower_dim(op)
        elif isinstance(op, ConvertOp):
            self._lower_convert(op, op.source, op.destination)
        elif isinstance(op, memref.CopyOp):
            self._lower_copy(op)
        elif isinstance(op, memref.CastOp):
            self._lower_cast(op)

    def _loops_added(self, op: Operation) -> None:
        function = op.parent_op()
        while function is not None and not isinstance(function, func.FuncOp):
            function = function.parent_op()
        if function is not None:
            self.with_loops[function] = None

    def _replaced(self, op: Operation) -> None:
        """`op` is about to be erased: its operands' definitions may die with it."""
        self.maybe_dead.extend(o.owner for o in op.operands if isinstance(o.owner, Operation))

    def _layout_of(self, value: SSAValue) -> Layout | None:
        return self.layouts.get(value)

    def _access(
        self, buffer: SSAValue, layout: Layout, scope: IndexScope | None = None
    ) -> ElementAccess:
        element = self.elements.get(buffer)
        if element is None:
            element = buffer.type.element_type  # type: ignore[attr-defined]
        return ElementAccess(buffer, layout, buffer in self.flattened, self.mode, element, scope)

    def _lower_memref_access(self, op: memref.LoadOp | memref.StoreOp) -> None:
        layout = self._layout_of(op.memref)
        if layout is None:
            return
        leaves = IndexLeaves()
        logical = [leaves.recover(i) for i in op.indices]
        leaves.bound_bare_indices(logical, layout.logical_shape)
        self._replace_access(op, layout, logical, leaves)

    def _replace_access(
        self,
        op: Operation,
        layout: Layout,
        logical: Sequence[AffineExpr],
        leaves: IndexLeaves,
    ) -> None:
        access = self._access(op.memref, layout, self.index_values.scope(op))  # type: ignore[attr-defined]
        insert = _inserter_before(op)
        if isinstance(op, (memref.LoadOp, affine.LoadOp)):
            loaded = access.load(logical, leaves, insert)
            op.results[0].replace_all_uses_with(loaded)
            self.maybe_dead.append(loaded.owner)  # type: ignore[arg-type]
        else:
            access.store(op.value, logical, leaves, insert)  # type: ignore[attr-defined]
        self._replaced(op)
        Rewriter.erase_op(op)

    def _lower_affine_access(self, op: affine.LoadOp | affine.StoreOp) -> None:
        layout = self._layout_of(op.memref)
        if layout is None:
            return
        leaves = IndexLeaves()
        logical = leaves.map_results(op.map.data, list(op.indices))
        leaves.bound_bare_indices(logical, layout.logical_shape)
        flat = op.memref in self.flattened
        if self.mode == "affine" and layout.packing is None:
            exprs = [r.replace_dims_and_symbols(logical, []) for r in physical_exprs(layout, flat)]
            simplifier = leaves.simplifier()
            access_map = AffineMap(
                len(leaves.values), 0, tuple(simplifier.simplify(e) for e in exprs)
            )
            if isinstance(op, affine.LoadOp):
                new: Operation = affine.LoadOp(op.memref, leaves.values, AffineMapAttr(access_map))
            else:
                new = affine.StoreOp(op.value, op.memref, leaves.values, AffineMapAttr(access_map))
            Rewriter.replace_op(op, new)
            return
        # affine.load may take only affine dims and symbols: computed indices need memref ops.
        self._replace_access(op, layout, logical, leaves)

    def _lower_vector_access(
        self, op: vector.LoadOp | vector.StoreOp | affine.VectorLoadOp | affine.VectorStoreOp
    ) -> None:
        is_affine = isinstance(op, (affine.VectorLoadOp, affine.VectorStoreOp))
        base = op.memref if is_affine else op.base  # type: ignore[union-attr]
        layout = self._layout_of(base)
        if layout is None:
            return
        is_load = isinstance(op, (vector.LoadOp, affine.VectorLoadOp))
        stored = None if is_load else (op.value if is_affine else op.vector)  # type: ignore[union-attr]
        vector_type = op.result.type if is_load else stored.type  # type: ignore[union-attr]
        assert isinstance(vector_type, VectorType)
        if vector_type.get_num_dims() != 1:
            fail(
                op,
                f"layout-lower: {op.name} of {vector_type} on a layout-typed memref: only "
                "1-D vectors are supported",
            )
        length = vector_type.get_shape()[0]
        leaves = IndexLeaves()
        if is_affine:
            logical = leaves.map_results(op.map.data, list(op.indices))  # type: ignore[union-attr]
        else:
            logical = [leaves.recover(i) for i in op.indices]
        leaves.bound_bare_indices(logical, layout.logical_shape)
        flat = base in self.flattened
        insert = _inserter_before(op)
        scope = self.index_values.scope(op)
        self._replaced(op)
        if layout.packing is None and self._contiguous(layout, logical, leaves, length, flat):
            Rewriter.replace_op(
                op,
                self._vector_access(
                    is_affine,
                    is_load,
                    base,
                    stored,
                    vector_type,
                    layout,
                    logical,
                    leaves,
                    insert,
                    scope,
                    flat,
                ),
            )
            return
        access = self._access(base, layout, scope)
        if self._whole_containers(op, access, logical, leaves, len(logical) - 1, length, stored):
            return
        self._lane_by_lane(
            op, access, logical, len(logical) - 1, stored, vector_type, leaves, insert
        )

    def _vector_access(
        self,
        is_affine: bool,
        is_load: bool,
        base: SSAValue,
        stored: SSAValue | None,
        vector_type: VectorType,
        layout: Layout,
        logical: Sequence[AffineExpr],
        leaves: IndexLeaves,
        insert,
        scope: IndexScope,
        flat: bool,  # type: ignore[no-untyped-def]
    ) -> Operation:
        """A contiguous vector access: affine when it was affine and the index code is, else
        a `vector` op on computed indices."""
        if is_affine and self.mode == "affine":
            simplifier = leaves.simplifier()
            exprs = [
                r.replace_dims_and_symbols(list(logical), []) for r in physical_exprs(layout, flat)
            ]
            access_map = AffineMapAttr(
                AffineMap(len(leaves.values), 0, tuple(simplifier.simplify(e) for e in exprs))
            )
            if is_load:
                return affine.VectorLoadOp(base, leaves.values, access_map, vector_type)  # type: ignore[arg-type]
            return affine.VectorStoreOp(stored, base, leaves.values, access_map)  # type: ignore[arg-type]
        exprs = [
            r.replace_dims_and_symbols(list(logical), []) for r in physical_exprs(layout, flat)
        ]
        indices = IndexEmitter(leaves, insert, self.mode, scope).emit_all(exprs)
        if is_load:
            return vector.LoadOp(base, indices, vector_type)
        return vector.StoreOp(stored, base, indices)  # type: ignore[arg-type]

    def _contiguous(
        self,
        layout: Layout,
        logical: Sequence[AffineExpr],
        leaves: IndexLeaves,
        length: int,
        flat: bool,
        dim: int = -1,
    ) -> bool:
        """Lane t of the vector (along logical dim `dim`) lands at the physical index of lane
        0 plus t, in the innermost physical dim, for every t < length: proven with a fresh
        bounded dim for t, and the loop variables written as `first + step·k` so their
        alignment is known."""
        if length == 1:
            return True
        strided, ranges = leaves.strided()
        lane = AffineExpr.dimension(max([len(leaves.values) - 1, *ranges]) + 1)
        ranges[lane.position] = (0, length - 1)
        simplifier = IndexSimplifier(ranges)
        start = [e.replace_dims_and_symbols(strided, []) for e in logical]
        shifted = list(start)
        shifted[dim] = start[dim] + lane
        results = physical_exprs(layout, flat)
        for position, result in enumerate(results):
            base = result.replace_dims_and_symbols(start, [])
            moved = result.replace_dims_and_symbols(shifted, [])
            difference = simplifier.simplify(moved + base * -1)
            expected = lane if position == len(results) - 1 else AffineExpr.constant(0)
            if difference != expected:
                return False
        last_extent = (layout.storage_shape if not flat else (layout.size,))[-1]
        first = simplifier.range_of(results[-1].replace_dims_and_symbols(start, []))
        return last_extent is not None and first is not None and first[1] + length <= last_extent

    def _lower_transfer(self, op: vector.TransferReadOp | vector.TransferWriteOp) -> None:
        """A 1-D transfer along one logical dim (what layout-schedule emits): one vector
        access where that run is contiguous in memory, lanes one by one otherwise."""
        layout = self._layout_of(op.source)
        if layout is None:
            return
        is_load = isinstance(op, vector.TransferReadOp)
        vector_type = op.result.type if is_load else op.vector.type  # type: ignore[union-attr]
        results = op.permutation_map.data.results
        in_bounds = [bool(f.value.data) for f in op.in_bounds.data]
        if (
            op.mask is not None
            or len(results) != 1
            or not isinstance(results[0], AffineDimExpr)
            or not all(in_bounds)
        ):
            fail(
                op,
                f"layout-lower: {op.name} on a layout-typed memref: only unmasked, in-bounds "
                "transfers of one dim are supported",
            )
        (projected,) = results
        assert isinstance(projected, AffineDimExpr) and isinstance(vector_type, VectorType)
        dim = projected.position
        length = vector_type.get_shape()[0]
        leaves = IndexLeaves()
        logical = [leaves.recover(i) for i in op.indices]
        leaves.bound_bare_indices(logical, layout.logical_shape)
        flat = op.source in self.flattened
        insert = _inserter_before(op)
        scope = self.index_values.scope(op)
        self._replaced(op)
        if layout.packing is None and self._contiguous(layout, logical, leaves, length, flat, dim):
            exprs = [r.replace_dims_and_symbols(logical, []) for r in physical_exprs(layout, flat)]
            indices = IndexEmitter(leaves, insert, self.mode, scope).emit_all(exprs)
            new: Operation = (
                vector.LoadOp(op.source, indices, vector_type)
                if is_load
                else vector.StoreOp(op.vector, op.source, indices)  # type: ignore[union-attr]
            )
            Rewriter.replace_op(op, new)
            return
        access = self._access(op.source, layout, scope)
        stored = None if is_load else op.vector  # type: ignore[union-attr]
        if self._whole_containers(op, access, logical, leaves, dim, length, stored):
            return
        self._lane_by_lane(op, access, logical, dim, stored, vector_type, leaves, insert)

    @staticmethod
    def _lane_by_lane(
        op: Operation,
        access: ElementAccess,
        logical: Sequence[AffineExpr],
        dim: int,
        stored: SSAValue | None,
        vector_type: VectorType,
        leaves: IndexLeaves,
        insert: Insert,
    ) -> None:
        """A vector access (or 1-D transfer along `dim`) as one element access per lane."""
        elements: list[SSAValue] = []
        for lane in range(vector_type.get_shape()[0]):
            shifted = list(logical)
            shifted[dim] = logical[dim] + lane
            if stored is None:
                elements.append(access.load(shifted, leaves, insert))
                continue
            extract = vector.ExtractOp(stored, [lane], vector_type.element_type)
            insert(extract)
            access.store(extract.result, shifted, leaves, insert)
        if stored is None:
            Rewriter.replace_op(op, FromElementsOp(elements, vector_type))
        else:
            Rewriter.erase_op(op)

    def _whole_containers(
        self,
        op: Operation,
        access: ElementAccess,
        logical: Sequence[AffineExpr],
        leaves: IndexLeaves,
        dim: int,
        length: int,
        stored: SSAValue | None,
    ) -> bool:
        """A vector access along packed lanes that covers the first lanes of one container:
        one container load or store (`container_access`)."""
        if not whole_container(
            access.layout, logical, leaves, dim, length, store=stored is not None
        ):
            return False
        insert = _inserter_before(op)
        self.words.append(_function_of(op))
        if stored is None:
            Rewriter.replace_op(op, [], [load_lanes(access, logical, leaves, length, insert)])
        else:
            store_lanes(access, stored, logical, leaves, insert)
            Rewriter.erase_op(op)
        return True

    def _lower_dim(self, op: memref.DimOp) -> None:
        layout = self._layout_of(op.source)
        if layout is None:
            return
        position = constant_index(op.index)
        if position is None:
            fail(op, "layout-lower: memref.dim of a layout-typed memref needs a constant index")
        assert position is not None
        scope = self.index_values.scope(op)
        self._replaced(op)
        extent = layout.logical_shape[position]
        if extent is not None:
            op.result.replace_all_uses_with(scope.constant(extent))
            Rewriter.erase_op(op)
            return
        physical_position = layout.index_map.results.index(AffineExpr.dimension(position))
        index = scope.constant(physical_position)
        Rewriter.replace_op(op, memref.DimOp(op.source, index))

    def _lower_convert(self, op: Operation, source: SSAValue, destination: SSAValue) -> None:
        convert(self._access_any(source), self._access_any(destination), _inserter_before(op))
        self._loops_added(op)
        Rewriter.erase_op(op)

    def _access_any(self, buffer: SSAValue) -> ElementAccess:
        """Plain memrefs take part in conversions with the identity layout."""
        layout = self._layout_of(buffer) or identity_layout(buffer.type)  # type: ignore[arg-type]
        return self._access(buffer, layout)

    def _lower_copy(self, op: memref.CopyOp) -> None:
        source_layout, destination_layout = (
            self._layout_of(op.source),
            self._layout_of(op.destination),
        )
        if source_layout is None and destination_layout is None:
            return
        same = source_layout == destination_layout and op.source.type == op.destination.type
        if same:
            return
        self._lower_convert(op, op.source, op.destination)

    def _lower_cast(self, op: memref.CastOp) -> None:
        if op.source.type == op.dest.type and op.source in self.layouts:
            op.dest.replace_all_uses_with(op.source)
            Rewriter.erase_op(op)


def _function_of(op: Operation) -> Operation:
    """The outermost op below the module around `op` (its function)."""
    while (parent := op.parent_op()) is not None and not isinstance(parent, ModuleOp):
        op = parent
    return op


def _plain_identity_allocation(op: memref.AllocOp | memref.AllocaOp) -> None:
    """An allocation typed with an identity builtin `strided<…>` layout becomes a plain one
    cast to that type: upstream's LLVM lowering allocates only identity-layout memrefs."""
    memref_type = op.memref.type
    assert isinstance(memref_type, MemRefType)
    strided = memref_type.layout
    if not isinstance(strided, BuiltinStridedLayoutAttr):
        return
    if strided.get_offset() is None or None in strided.get_strides():
        return
    plain = with_layout(memref_type, None)
    new = type(op).build(
        operands=[list(op.dynamic_sizes), list(op.symbol_operands)],
        result_types=[plain],
        properties={"alignment": op.alignment} if op.alignment is not None else {},
    )
    Rewriter.replace_op(op, [new, CastOp(operands=[new.memref], result_types=[memref_type])])


def _inserter_before(op: Operation):  # type: ignore[no-untyped-def]
    return lambda new: Rewriter.insert_op(new, InsertPoint.before(op))


def _inserter_after(op: Operation):  # type: ignore[no-untyped-def]
    anchor = [op]

    def insert(new: Operation) -> None:
        Rewriter.insert_op(new, InsertPoint.after(anchor[0]))
        anchor[0] = new

    return insert


def _dense_array(initial: DenseIntOrFPElementsAttr, layout: Layout) -> np.ndarray:
    """The logical initializer; integers as their element type holds them (xDSL reads an
    i1 `true` as -1, which the layout's numpy type would store as 255)."""
    values = np.array(initial.get_values())
    dtype = layout.dtype
    if dtype is not None and dtype.is_integer:
        values = np.array([dtype.wrap(int(v)) for v in values.ravel()])
    shape = tuple(layout.logical_shape)
    if values.size == 1 and int(np.prod(shape)) != 1:  # splat
        return np.full(shape, values.ravel()[0])
    return values.reshape(shape)  # type: ignore[arg-type]


def _tensor_type(physical: MemRefType) -> Attribute:
    from xdsl.dialects.builtin import TensorType

    return TensorType(physical.element_type, physical.get_shape())


@dataclass(frozen=True)
class LayoutLowerPass(ModulePass):
    """Rewrite every layout-typed memref into its physical buffer and index code.

    The index code comes out without duplicates (values are shared between accesses as they
    are emitted, constants sit at the top of each function) and the dead code of rewritten
    accesses is erased from the ops they touched; only functions that received loop nests
    (conversions, pad fills) are canonicalized and CSE'd. Walking the whole module with
    xDSL's canonicalize and CSE took half of the pass time on large modules and changed
    nothing there.

    Options: `index=arith|affine` (the index code), `flatten=false|true` (1-D physical
    buffers indexed by linear offsets), `validate=false|true|verbose` (translation
    validation of every rewritten access: a summary line, or a remark per access, on
    stderr; an access not proven fails the pass)."""

    name = "layout-lower"

    index: str = "arith"
    flatten: bool = False
    validate: bool | str = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.index not in ("arith", "affine"):
            raise PassFailedException(f"layout-lower: index={self.index}: expected arith or affine")
        if self.validate not in (False, True, "verbose"):
            raise PassFailedException(
                f"layout-lower: validate={self.validate}: expected false, true or verbose"
            )
        with collector_paused():
            self._lower(ctx, op)

    def _lower(self, ctx: Context, op: ModuleOp) -> None:
        verify_layouts(op)
        for hint in [o for o in op.walk() if isinstance(o, ScheduleOp)]:
            Rewriter.erase_op(hint)  # layout-schedule's hints mean nothing here
        if any(isinstance(o, AssignOp) for o in op.walk()):
            from heterolayout.passes.layout_apply import LayoutApplyPass

            LayoutApplyPass().apply(ctx, op)
        from heterolayout.passes.convert_folding import fold_round_trip_converts

        fold_round_trip_converts(op)
        validator = Validator() if self.validate else None
        with_linalg_loops = lower_linalg_on_layouts(op)
        lowering = Lowering(self.index, self.flatten, validator=validator)  # type: ignore[arg-type]
        lowering.with_loops.update(dict.fromkeys(with_linalg_loops))
        try:
            lowering.check(op)
            lowering.retype(op)
            lowering.rewrite(op)
        except LayoutError as error:
            raise PassFailedException(f"layout-lower: {error}") from None
        if validator is not None:
            validator.finish(verbose=self.validate == "verbose")
        for region_op in dict.fromkeys(lowering.words):
            fold_words(region_op)
        canonicalize = GreedyRewritePatternApplier(
            [CanonicalizationRewritePattern()], ctx=ctx, folding_enabled=True
        )
        for function in lowering.with_loops:
            PatternRewriteWalker(canonicalize, post_walk_func=region_dce).rewrite_region(
                function.body
            )
            erase_dead_index_code(function)
            cse(function)
