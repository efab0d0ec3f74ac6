"""The op-role table (`dialects.roles`) is the one answer to "what does this op do with this
memref?", and an op it does not know gets the cautious answer.

LINALG_WRITES: buffers with a layout that only linalg ops write (a named convolution, a
matmul, a `linalg.generic`), into a public function's output argument (converted in at
entry, and back before the return only if something may write it), an allocation, a view
of an argument, and a private callee's parameter (converted around the call). Each is
checked lowered against unlowered (`heterolayout.check`): the writes must reach the
caller's buffer. The linalg roles are checked against a second reading of the operand
groups (xDSL's `inputs`/`outputs`, `input`/`init`) on every linalg op the engine tests
run. Every module-level op set of the package agrees with a set the table derives.
"""

from __future__ import annotations

import importlib
import pkgutil

import pytest
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Operation

import heterolayout
from heterolayout.dialects import roles
from heterolayout.dialects.context import make_context, parse_program
from heterolayout.passes.pipeline import apply_pipeline
from tests.execution.test_engines_upstream_ops import CASES
from tests.upstream_programs import program

B16 = '#layout.tag<"nChw16c">'
TILE = '#layout.tag<"HW->Hw4w">'
SWAP = '#layout.tag<"HW->WH">'

CONV = f"""
func.func @main(%x: memref<1x3x6x6xf32>, %w: memref<32x3x3x3xf32>, %out: memref<1x32x4x4xf32>) {{
  layout.assign %out to {B16} : memref<1x32x4x4xf32>
  linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}} ins(%x, %w : memref<1x3x6x6xf32>, memref<32x3x3x3xf32>) outs(%out : memref<1x32x4x4xf32>)
  func.return
}}
"""

MATMUL = f"""
func.func @main(%a: memref<8x4xf32>, %b: memref<4x12xf32>, %c: memref<8x12xf32>) {{
  layout.assign %c to {TILE} : memref<8x12xf32>
  linalg.matmul ins(%a, %b : memref<8x4xf32>, memref<4x12xf32>) outs(%c : memref<8x12xf32>)
  func.return
}}
"""

GENERIC_BODY = """{indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}"""

GENERIC = f"""
func.func @main(%a: memref<12x8xf32>, %out: memref<8x12xf32>) {{
  layout.assign %out to {SWAP} : memref<8x12xf32>
  linalg.generic {GENERIC_BODY} ins(%a : memref<12x8xf32>) outs(%out : memref<8x12xf32>) {{
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }}
  func.return
}}
"""

ALLOCATION = f"""
func.func @main(%a: memref<8x4xf32>, %b: memref<4x12xf32>, %out: memref<8x12xf32>) {{
  %c = memref.alloc() : memref<8x12xf32>
  layout.assign %c to {TILE} : memref<8x12xf32>
  linalg.copy ins(%out : memref<8x12xf32>) outs(%c : memref<8x12xf32>)
  linalg.matmul ins(%a, %b : memref<8x4xf32>, memref<4x12xf32>) outs(%c : memref<8x12xf32>)
  linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}} ins(%c : memref<8x12xf32>) outs(%out : memref<8x12xf32>) {{
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }}
  memref.dealloc %c : memref<8x12xf32>
  func.return
}}
"""

SUBVIEW = f"""
func.func @main(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %out: memref<8x12xf32>) {{
  layout.assign %out to {TILE} : memref<8x12xf32>
  %tile = memref.subview %out[2, 4] [4, 4] [1, 1] : memref<8x12xf32> to memref<4x4xf32, strided<[12, 1], offset: 28>>
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%tile : memref<4x4xf32, strided<[12, 1], offset: 28>>)
  func.return
}}
"""

PRIVATE_CALLEE = f"""
func.func private @transpose_add(%a: memref<12x8xf32>, %out: memref<8x12xf32>) {{
  layout.assign %out to {SWAP} : memref<8x12xf32>
  linalg.generic {GENERIC_BODY} ins(%a : memref<12x8xf32>) outs(%out : memref<8x12xf32>) {{
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }}
  func.return
}}
func.func @main(%a: memref<12x8xf32>, %out: memref<8x12xf32>) {{
  func.call @transpose_add(%a, %out) : (memref<12x8xf32>, memref<8x12xf32>) -> ()
  func.return
}}
"""

LINALG_WRITES = {
    "conv-into-argument": CONV,
    "matmul-into-argument": MATMUL,
    "generic-into-argument": GENERIC,
    "matmul-into-allocation": ALLOCATION,
    "matmul-into-view-of-argument": SUBVIEW,
    "generic-into-private-parameter": PRIVATE_CALLEE,
}


@pytest.mark.parametrize("name", LINALG_WRITES)
def test_linalg_writes_to_a_buffer_with_a_layout_reach_the_caller(name: str) -> None:
    report = heterolayout.check(LINALG_WRITES[name], seed=3, engine="compiled")
    assert report.equal, f"{name}: {report}"


def test_linalg_output_argument_is_converted_back_before_return() -> None:
    """The lowered public function writes its converted copy back into `%out`."""
    applied = str(apply_pipeline(parse_program(CONV), "layout-apply"))
    assert applied.count("layout.convert") == 2, applied


def _ops(text: str) -> list[Operation]:
    ctx = make_context()
    ctx.allow_unregistered = True
    return list(parse_program(text, ctx=ctx).walk())


def _groups(op: Operation) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Inputs and outputs as xDSL's accessors name them (the second reading)."""
    if isinstance(op, LinalgStructuredOperation):
        count = len(op.inputs)
        return tuple(range(count)), tuple(range(count, count + len(op.outputs)))
    assert op.name in ("linalg.broadcast", "linalg.reduce"), op.name
    return (0,), (1,)


def test_linalg_structured_ops_read_inputs_and_read_and_write_outputs() -> None:
    seen: set[str] = set()
    for case in CASES:
        for op in _ops(program(case)):
            if not op.name.startswith("linalg.") or op.name in ("linalg.yield", "linalg.index"):
                continue
            found = roles.roles_of(op)
            inputs, outputs = _groups(op)
            assert found is not None and found.structured, op.name
            assert set(found.reads) == {*inputs, *outputs}, op.name
            assert found.writes == outputs, op.name
            assert all(found.touches(p) for p in range(len(op.operands))), op.name
            seen.add(op.name)
    # Named convolutions and matmuls, generic, and the ops with their own operand names.
    wanted = {
        "linalg.conv_2d_nchw_fchw",
        "linalg.matmul",
        "linalg.generic",
        "linalg.transpose",
        "linalg.broadcast",
        "linalg.reduce",
    }
    assert wanted <= seen, wanted - seen


def test_unregistered_linalg_op_gets_roles_from_its_segment_sizes() -> None:
    text = """
func.func @f(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>) {
  "linalg.map_like"(%a, %b, %c) ({
  ^bb0(%x: f32, %y: f32, %z: f32):
    "linalg.yield"(%x) : (f32) -> ()
  }) {operandSegmentSizes = array<i32: 2, 1>} : (memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
  func.return
}
"""
    op = next(o for o in _ops(text) if roles.op_name(o) == "linalg.map_like")
    found = roles.roles_of(op)
    assert found == roles.Roles(reads=(0, 1, 2), writes=(2,), structured=True)
    no_segments = text.replace(" {operandSegmentSizes = array<i32: 2, 1>}", "")
    op = next(o for o in _ops(no_segments) if roles.op_name(o) == "linalg.map_like")
    assert roles.roles_of(op) is None  # unknown: every question gets the cautious answer


MAY_WRITE = """
func.func @f(%read: memref<4xf32>, %unknown: memref<4xf32>, %ins: memref<4xf32>, %outs: memref<4xf32>, %viewed: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %read[%c0] : memref<4xf32>
  "foo.bar"(%unknown) : (memref<4xf32>) -> ()
  linalg.copy ins(%ins : memref<4xf32>) outs(%outs : memref<4xf32>)
  %v = memref.subview %viewed[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  "foo.baz"(%v) : (memref<4xf32, strided<[1], offset: 2>>) -> ()
  func.return
}
"""


def test_may_write_is_cautious_about_ops_it_does_not_know() -> None:
    from xdsl.dialects import func

    from heterolayout.dialects.effects import may_write

    function = next(o for o in _ops(MAY_WRITE) if isinstance(o, func.FuncOp))
    written = {a.name_hint: may_write(a) for a in function.body.blocks[0].args}
    assert written == {
        "read": False,
        "unknown": True,
        "ins": False,
        "outs": True,
        "viewed": True,
    }


# ---- every op set agrees with the table ---------------------------------------------------
DERIVED = {
    name: getattr(roles, name)
    for name in (
        "VIEW_OPS",
        "VECTOR_ACCESSES",
        "LOADS_AND_STORES",
        "VECTOR_LOADS",
        "VECTOR_STORES",
        "SCALAR_LOADS",
        "SCALAR_STORES",
        "MAP_ACCESSES",
        "REGION_TERMINATORS",
        "PREFETCHES",
    )
}

INDEPENDENT = {
    "heterolayout.dialects.functions.CALL_TYPES": "function boundaries (calls, launches)",
    "heterolayout.passes.schedule.nest.LOOPS": "the counted loops a schedule reorders",
    "heterolayout.dialects.roles.GPU_IDS": "the table's own list",
    "heterolayout.execution.entry.NOT_RUN": "the table's ops the engines do not run",
    "heterolayout.execution.entry.SUPPORTED_OPS": "the engines' ops: the table's, VALUE_OPS",
}
"""Sets of memory or control ops that are no classification of the table's, and why."""

INDEPENDENT_MODULES = (
    "heterolayout.dialects.upstream.",  # op definitions: each module's list of its ops
    "heterolayout.passes.validate.",  # validation's own reading, on purpose (validate.ops)
)


def _op_names(value: object) -> frozenset[str] | None:
    """The op names a module-level tuple or set holds (names or op classes), else None."""
    if not isinstance(value, tuple | frozenset | set | list) or not value:
        return None
    names = set()
    for item in value:
        if isinstance(item, str):
            names.add(item)
        elif isinstance(item, type) and issubclass(item, Operation):
            names.add(item.name)
        else:
            return None
    return frozenset(names)


def _module_sets() -> list[tuple[str, str, object]]:
    """Every module-level attribute of the package: (module, attribute, value)."""
    found = []
    for info in pkgutil.walk_packages(heterolayout.__path__, "heterolayout."):
        module = importlib.import_module(info.name)
        found += [(info.name, attribute, value) for attribute, value in vars(module).items()]
    return found


def test_every_op_set_of_the_package_is_one_the_table_derives() -> None:
    known = set(roles.OP_ROLES)
    derived = {id(value) for value in DERIVED.values()}
    found = _module_sets()
    independent = {
        id(value)
        for module, attribute, value in found
        if module.startswith(INDEPENDENT_MODULES) or f"{module}.{attribute}" in INDEPENDENT
    }
    strays = []
    for module, attribute, value in found:
        names = _op_names(value)
        if names is None or not names & known or id(value) in derived | independent:
            continue  # the table's own sets, independent ones, and imports of them
        strays.append(f"{module}.{attribute}: {sorted(names)}")
    assert not strays, "op sets that are not the sets dialects.roles derives:\n" + "\n".join(strays)


def test_views_are_classified_one_way() -> None:
    """memref.view and vector.type_cast are views (upstream's ViewLikeOpInterface)."""
    from heterolayout.execution.entry import SUPPORTED_OPS

    assert {"memref.view", "vector.type_cast"} <= roles.VIEW_OPS
    assert "vector.type_cast" in SUPPORTED_OPS
    assert "memref.view" not in SUPPORTED_OPS  # the engines do not reinterpret bytes
