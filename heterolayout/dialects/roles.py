"""What each memory and control op does with memrefs: the one table that `layout-apply`,
`layout-lower`, `layout-simplify-index` and both engines read.

An op is found by name (so unregistered ops and the layout dialect's ops look the same to
the engines). Its roles say which operands it reads elements of, writes, only takes the
shape of, frees, or binds a layout to; whether its memref operands flow on (into results,
block arguments, a callee or the caller); whether its memref results are defined here; and
where its access indices are. An op that is not in the table does nothing with memrefs
that heterolayout knows of: a layout-typed memref reaching it is an error naming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from xdsl.ir import Operation

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
    (`dialects.views`, `passes.view_folding`)."""
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
_FORWARD = Roles(forwards=True)
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
    "vector.load": _LOAD,
    "vector.store": _STORE,
    "vector.print": _CONTROL,
    "vector.transfer_read": _LOAD,
    "vector.transfer_write": _STORE,
    "affine.load": _AFFINE_LOAD,
    "affine.store": _AFFINE_STORE,
    "affine.vector_load": _AFFINE_LOAD,
    "affine.vector_store": _AFFINE_STORE,
    "affine.for": Roles(forwards=True, defines=True),
    "affine.if": Roles(defines=True),
    "affine.parallel": Roles(defines=True),
    "affine.yield": _FORWARD,
    "scf.for": Roles(forwards=True, defines=True),
    "scf.if": Roles(defines=True),
    "scf.while": Roles(forwards=True, defines=True),
    "scf.condition": _FORWARD,
    "scf.yield": _FORWARD,
    "func.call": Roles(forwards=True, defines=True),
    "func.return": _FORWARD,
    "layout.assign": Roles(binds=(0,)),
    "layout.convert": Roles(reads=(0,), writes=(1,)),
    "layout.schedule": Roles(hints=(0,)),
    "memref.subview": _VIEW,
    "memref.reinterpret_cast": _VIEW,
    "memref.collapse_shape": _VIEW,
    "memref.expand_shape": _VIEW,
    "memref.transpose": _VIEW,
    "vector.type_cast": _VIEW,
    "memref.prefetch": Roles(reads=(0,), indices="values", index_start=1),
    "affine.prefetch": Roles(reads=(0,), indices="map", index_start=1),
    "affine.delinearize_index": _CONTROL,
    "affine.linearize_index": _CONTROL,
    "scf.parallel": _CONTROL,
    "scf.reduce": _CONTROL,
    "scf.reduce.return": _CONTROL,
    "cf.br": _CONTROL,
    "cf.cond_br": _CONTROL,
    "cf.assert": _CONTROL,
    "linalg.yield": _CONTROL,
    "linalg.index": _CONTROL,
    "gpu.launch_func": Roles(forwards=True),
    "gpu.return": _FORWARD,
    "gpu.launch": _CONTROL,
    "gpu.terminator": _CONTROL,
    "gpu.barrier": _CONTROL,
    "gpu.wait": _CONTROL,
    **dict.fromkeys(GPU_IDS, _CONTROL),
}
"""Op name → roles, for every memory and control op the engines run (the linalg structured
ops aside: `interpreter.structured`)."""

NO_ROLES = Roles()


def roles_of(op: Operation) -> Roles | None:
    """The op's roles, or None when it is not a memory or control op heterolayout knows."""
    return OP_ROLES.get(op_name(op))
