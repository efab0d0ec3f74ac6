"""Affine maps upstream would fold wrongly, rewritten before a pass hands its output on.

`upstream_folds` says which maps; the index code `IndexEmitter` writes avoids them already.
What is left are maps built from a program's own index arithmetic (`layout-schedule` reads
`arith.remsi` then `arith.divsi` as `(i mod 6) floordiv 4`) and the program's own affine
maps: each becomes `affine.apply`s with the division in `arith`, feeding a `memref` or
`vector` access. The values are the same; only upstream's canonicalization sees less.
"""

from __future__ import annotations

from xdsl.dialects import affine, arith
from xdsl.ir import Operation, SSAValue
from xdsl.transforms.common_subexpression_elimination import cse

from heterolayout.dialects.functions import FUNCTION_TYPES, enclosing_function
from heterolayout.dialects.roles import MAP_ACCESSES
from heterolayout.passes.index.memref_accesses import as_memref_access
from heterolayout.passes.index.upstream_folds import misfolded_by_upstream


def guard_misfolded_maps(root: Operation) -> int:
    """Rewrite every op under `root` whose map upstream would fold wrongly, then the affine
    accesses that left stranded, then merge the index code the rewrites repeat (CSE of the
    functions they touched); how many ops."""
    functions: dict[Operation | None, None] = {}
    count = 0
    for op in [o for o in root.walk() if isinstance(o, affine.ApplyOp) or o.name in MAP_ACCESSES]:
        operands = _map_operands(op)  # as earlier rewrites left them
        if misfolded_by_upstream(op.map.data.results, operands):  # type: ignore[attr-defined]
            functions[enclosing_function(op)] = None
            as_memref_access(op, operands)
            count += 1
    if not count:
        return 0
    stranded = [
        o
        for o in root.walk()
        if o.name in MAP_ACCESSES and any(_invalid_dim(v) for v in _map_operands(o))
    ]
    for op in stranded:  # as memref accesses on arith indices: no new affine operands
        functions[enclosing_function(op)] = None
        as_memref_access(op, _map_operands(op), "arith")
    for function in functions:
        if function is not None:
            cse(function)
    return count + len(stranded)


def _map_operands(op: Operation) -> list[SSAValue]:
    return list(op.mapOperands if isinstance(op, affine.ApplyOp) else op.indices)  # type: ignore[attr-defined]


def _invalid_dim(value: SSAValue) -> bool:
    """Whether upstream's affine verifier refuses `value` as an access's map operand
    ("operand cannot be used as a dimension id": an affine access that used an
    `affine.apply` this guard made arith, fuzz seed 590146): a
    result of an op other than a constant inside a loop or branch (values of the function's
    own block are valid symbols), or of an `affine.apply` with such an operand."""
    owner = value.owner
    if not isinstance(owner, Operation) or isinstance(owner, arith.ConstantOp):
        return False
    if isinstance(owner, affine.ApplyOp):
        return any(_invalid_dim(o) for o in owner.mapOperands)
    return not isinstance(owner.parent_op(), FUNCTION_TYPES)
