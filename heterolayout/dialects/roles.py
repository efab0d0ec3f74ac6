"""What each memory and control op does with memrefs: the one table that `layout-apply`,
`layout-lower`, `layout-simplify-index` and both engines read.

An op is found by name (so unregistered ops and the layout dialect's ops look the same to
the engines). Its roles say which operands it reads elements of, writes, only takes the
shape of, frees, or binds a layout to; whether its memref operands flow on (into results,
block arguments, a callee or the caller); whether its memref results are defined here; and
where its access indices are. The linalg structured ops are not listed one by one: their
roles follow from their operand groups (`structured_roles`). An op that has no roles here
(or none for the operand in question) is one heterolayout does not know: every question
asked of it (may it write this memref? read it? let it escape?) gets the cautious answer,
and a layout-typed memref reaching it is an error naming it.

The op sets that passes and engines match on (`VIEW_OPS`, `VECTOR_ACCESSES`,
`REGION_TERMINATORS`, …) are derived from the table here, so that an op is classified one
way everywhere. (Translation validation reads the lowered IR with its own op sets on
purpose: `passes.validate.ops`.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from xdsl.dialects.builtin import DenseArrayBase
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation

from heterolayout.dialects.names import op_name

IndexForm = Literal["values", "map"]


@dataclass(frozen=True)
class Roles:
    reads: tuple[int, ...] = ()
    """Operands whose elements the op reads."""
    writes: tuple[int, ...] = ()
    """Operands whose elements the op writes."""
    shape_of: tuple[int, ...] = ()
    """Operands of which the op takes only the shape (memref.dim, memref.rank)."""
    frees: tuple[int, ...] = ()
    binds: tuple[int, ...] = ()
    """Operands the op gives a layout (layout.assign)."""
    hints: tuple[int, ...] = ()
    """Operands the op only names, to steer a pass (layout.schedule): it means nothing to
    the engines, and `layout-lower` erases it."""
    views: tuple[int, ...] = ()
    """Operands the op opens a view into: its result aliases their memory (subview, casts of
    shape). `layout-lower` lowers views of layout-typed memrefs into indexing of their root
    (`dialects.views`, `passes.views.folding`)."""
    forwards: bool = False
    """Every memref operand flows on: into results or block arguments (loops, casts), a
    callee (calls, which may read and write it), or the caller (returns, yields)."""
    defines: bool = False
    """Its memref results are buffers it makes or values that flow into it."""
    indices: IndexForm | None = None
    """Where an access's indices are: the index operands from `index_start` on (`values`;
    a transfer's padding and mask follow them), or an affine map over its operands (`map`)."""
    index_start: int = 0
    """The first index operand."""
    vector: bool = False
    """An access whose value is a vector (`vector.load`, `affine.vector_store`, transfers)."""
    ends_region: bool = False
    """A terminator that hands control (and its operands) back to the op that owns its
    region (yields, returns), unlike a branch to another block."""
    prefetch: bool = False
    """Only names the elements at its indices, as a hint to the cache: no value flows, and
    nothing is read that the program sees (`memref.prefetch`, `affine.prefetch`)."""
    structured: bool = False
    """A linalg structured op: its inputs are read, its outputs read and written, at the
    points of a loop nest (`layout-lower` makes it loops before it lowers accesses)."""

    def touches(self, position: int) -> bool:
        """Whether the op has a role for its memref operand at `position`."""
        fixed = (*self.reads, *self.writes, *self.shape_of, *self.frees, *self.binds, *self.hints)
        return self.forwards or position in fixed

    @property
    def accesses(self) -> bool:
        """Reads or writes elements at indices (a load or a store)."""
        return self.indices is not None


_LOAD = Roles(reads=(0,), indices="values", index_start=1)
_STORE = Roles(writes=(1,), indices="values", index_start=2)
_AFFINE_LOAD = Roles(reads=(0,), indices="map", index_start=1)
_AFFINE_STORE = Roles(writes=(1,), indices="map", index_start=2)
_VECTOR_LOAD = Roles(reads=(0,), indices="values", index_start=1, vector=True)
_VECTOR_STORE = Roles(writes=(1,), indices="values", index_start=2, vector=True)
_AFFINE_VECTOR_LOAD = Roles(reads=(0,), indices="map", index_start=1, vector=True)
_AFFINE_VECTOR_STORE = Roles(writes=(1,), indices="map", index_start=2, vector=True)
_RETURN = Roles(forwards=True, ends_region=True)
_END = Roles(ends_region=True)
"""A terminator that takes no memref (`layout-lower` refuses one)."""
_DEFINE = Roles(defines=True)
_VIEW = Roles(views=(0,))
_CONTROL = Roles()
"""Ops the engines run that take no layout-typed memref (`layout-lower` refuses one)."""

GPU_IDS = (
    "gpu.thread_id",
    "gpu.block_id",
    "gpu.block_dim",
    "gpu.grid_dim",
    "gpu.global_id",
)
"""The ops that give a thread its place in the launch grid (`gpu.launch` bodies and kernels)."""

OP_ROLES: dict[str, Roles] = {
    "memref.alloc": _DEFINE,
    "memref.alloca": _DEFINE,
    "memref.get_global": _DEFINE,
    "memref.dealloc": Roles(frees=(0,)),
    "memref.load": _LOAD,
    "memref.store": _STORE,
    "memref.dim": Roles(shape_of=(0,)),
    "memref.rank": Roles(shape_of=(0,)),
    "memref.extract_aligned_pointer_as_index": _CONTROL,
    "memref.copy": Roles(reads=(0,), writes=(1,)),
    "memref.cast": Roles(forwards=True, defines=True),
    "vector.load": _VECTOR_LOAD,
    "vector.store": _VECTOR_STORE,
    "vector.print": _CONTROL,
    "vector.transfer_read": _VECTOR_LOAD,
    "vector.transfer_write": _VECTOR_STORE,
    "affine.load": _AFFINE_LOAD,
    "affine.store": _AFFINE_STORE,
    "affine.vector_load": _AFFINE_VECTOR_LOAD,
    "affine.vector_store": _AFFINE_VECTOR_STORE,
    "affine.for": Roles(forwards=True, defines=True),
    "affine.if": Roles(defines=True),
    "affine.parallel": Roles(defines=True),
    "affine.yield": _RETURN,
    "scf.for": Roles(forwards=True, defines=True),
    "scf.if": Roles(defines=True),
    "scf.while": Roles(forwards=True, defines=True),
    "scf.condition": _RETURN,
    "scf.yield": _RETURN,
    "func.call": Roles(forwards=True, defines=True),
    "func.return": _RETURN,
    "layout.assign": Roles(binds=(0,)),
    "layout.convert": Roles(reads=(0,), writes=(1,)),
    "layout.schedule": Roles(hints=(0,)),
    "memref.subview": _VIEW,
    "memref.reinterpret_cast": _VIEW,
    "memref.collapse_shape": _VIEW,
    "memref.expand_shape": _VIEW,
    "memref.transpose": _VIEW,
    "memref.view": _VIEW,
    "vector.type_cast": _VIEW,
    "memref.prefetch": Roles(reads=(0,), indices="values", index_start=1, prefetch=True),
    "affine.prefetch": Roles(reads=(0,), indices="map", index_start=1, prefetch=True),
    "affine.delinearize_index": _CONTROL,
    "affine.linearize_index": _CONTROL,
    "scf.parallel": _CONTROL,
    "scf.reduce": _END,
    "scf.reduce.return": _END,
    "cf.br": _CONTROL,
    "cf.cond_br": _CONTROL,
    "cf.assert": _CONTROL,
    "linalg.yield": _END,
    "linalg.index": _CONTROL,
    "gpu.launch_func": Roles(forwards=True),
    "gpu.return": _RETURN,
    "gpu.launch": _CONTROL,
    "gpu.terminator": _END,
    "gpu.barrier": _CONTROL,
    "gpu.wait": _CONTROL,
    **dict.fromkeys(GPU_IDS, _CONTROL),
}
"""Op name → roles, for every memory and control op the engines run (but `memref.view`,
which they do not: `execution.entry`), the linalg structured ops aside
(`structured_roles`)."""

NO_ROLES = Roles()


def roles_of(op: Operation) -> Roles | None:
    """The op's roles, or None when it is not a memory or control op heterolayout knows."""
    roles = OP_ROLES.get(op_name(op))
    return roles if roles is not None else structured_roles(op)


def structured_roles(op: Operation) -> Roles | None:
    """A linalg structured op's roles from its two operand groups, inputs then outputs
    (upstream's destination-passing style): inputs read, outputs read and written. None
    for an op of another dialect, or one whose groups cannot be told apart."""
    if not op_name(op).startswith("linalg."):
        return None
    groups = _operand_groups(op)
    if groups is None or len(groups) != 2:
        return None
    inputs, outputs = groups
    return Roles(reads=(*inputs, *outputs), writes=outputs, structured=True)


def _operand_groups(op: Operation) -> list[tuple[int, ...]] | None:
    """The operand positions of each operand group: from the op's definition (xDSL's
    registered ops, segments sized as it says), else from an `operandSegmentSizes`
    attribute (upstream's generic form)."""
    if isinstance(op, IRDLOperation):
        sizes = [
            _group_size(getattr(op, name)) for name, _ in type(op).get_irdl_definition().operands
        ]
    else:
        segments = op.properties.get("operandSegmentSizes") or op.attributes.get(
            "operandSegmentSizes"
        )
        if not isinstance(segments, DenseArrayBase):
            return None
        sizes = [int(size) for size in segments.get_values()]
    if sum(sizes) != len(op.operands):
        return None
    groups: list[tuple[int, ...]] = []
    for size in sizes:
        start = sum(len(g) for g in groups)
        groups.append(tuple(range(start, start + size)))
    return groups


def _group_size(group: SSAValue | Sequence[SSAValue] | None) -> int:
    if group is None:
        return 0
    return 1 if isinstance(group, SSAValue) else len(group)


def _named(keep: Callable[[Roles], bool]) -> frozenset[str]:
    return frozenset(name for name, roles in OP_ROLES.items() if keep(roles))


VIEW_OPS = _named(lambda r: bool(r.views))
"""Ops whose memref result aliases (a window of) their source's memory, as upstream's
ViewLikeOpInterface says: subviews, reshapes, `memref.view`, `vector.type_cast`."""
LOADS_AND_STORES = _named(lambda r: r.accesses and not r.prefetch)
"""Every load and store, of elements or vectors (prefetches aside)."""
VECTOR_ACCESSES = _named(lambda r: r.accesses and r.vector)
"""Loads and stores of vectors, transfers included."""
VECTOR_LOADS = _named(lambda r: r.accesses and r.vector and bool(r.reads))
VECTOR_STORES = _named(lambda r: r.accesses and r.vector and bool(r.writes))
SCALAR_LOADS = _named(lambda r: r.accesses and not r.vector and not r.prefetch and bool(r.reads))
"""Loads of one element (`memref.load`, `affine.load`)."""
SCALAR_STORES = _named(lambda r: r.accesses and not r.vector and bool(r.writes))
MAP_ACCESSES = _named(lambda r: r.indices == "map")
"""Accesses whose indices are an affine map over their operands (the `affine` ones)."""
PREFETCHES = _named(lambda r: r.prefetch)
REGION_TERMINATORS = _named(lambda r: r.ends_region)
"""Terminators that hand control back to the op that owns their region."""
