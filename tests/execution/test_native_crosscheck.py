"""Lowered IR executed natively: `layout-lower` output, run by upstream MLIR 22, against numpy.

For each program of `crosscheck_programs` (one per layout kind) and each option set of
`layout-lower`: the output holds no `layout` dialect and only identity-layout memrefs (so
upstream never interprets a layout itself), `mlir-opt --verify-each` accepts it, and the
values `mlir-runner` prints equal the numpy expectation exactly.

Every program runs with the default options; subsets chosen to cover every kind of index
code (blocked, chunked, skewed, padded, strided, builtin layouts, contiguous and split vector
accesses) run with the other option sets, which keeps the file well under a minute.
"""

from __future__ import annotations

import re
import subprocess

import pytest
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, NoneAttr
from xdsl.ir import Attribute
from xdsl.parser import Parser

from heterolayout.tools.opt import LayoutOptMain
from tests.crosscheck_programs import (
    PROGRAMS,
    SPECS,
    CrosscheckProgram,
    describe_mismatches,
    layout_opt,
    parse_output,
)

OPTION_SETS = {
    "default": "",
    "index-affine": "{index=affine}",
    "flatten": "{flatten=true}",
    "affine-flatten": "{index=affine flatten=true}",
}
SUBSETS = {
    "default": tuple(PROGRAMS),
    "index-affine": (
        "tag_nchw8c",
        "named_oihw16i16o",
        "chunked_alias_crouton",
        "map_skew",
        "map_explicit_shape",
        "builtin_strided",
    ),
    "flatten": (
        "named_nhwc",
        "named_nchw4",
        "chunked_crouton2x2",
        "map_skew",
        "strided",
        "builtin_affine_map",
    ),
    "affine-flatten": ("tag_nchw8c", "chunked_alias_crouton", "builtin_strided"),
}
CASES = [
    pytest.param(name, options, id=f"{name}-{options}")
    for options, names in SUBSETS.items()
    for name in names
]

_LAYOUT_DIALECT = re.compile(r"\blayout\.|#layout\b")


def lower(program: CrosscheckProgram, options: str) -> str:
    result = layout_opt(program.text, "-p", f"layout-lower{OPTION_SETS[options]}")
    assert result.returncode == 0, f"layout-lower{OPTION_SETS[options]} failed:\n{result.stderr}"
    return result.stdout


def parse(text: str) -> ModuleOp:
    return Parser(LayoutOptMain(args=[]).ctx, text).parse_module()


def memref_types(module: ModuleOp) -> list[MemRefType]:
    """Every ranked memref type of a value or function signature in `module`."""
    types: list[Attribute] = []
    for op in module.walk():
        types += [r.type for r in op.results]
        types += [a.type for region in op.regions for block in region.blocks for a in block.args]
        if isinstance(op, func.FuncOp):
            types += [*op.function_type.inputs.data, *op.function_type.outputs.data]
    return [t for t in types if isinstance(t, MemRefType)]


def allocated_shapes(module: ModuleOp) -> list[tuple[int, ...]]:
    return [
        tuple(op.memref.type.get_shape()) for op in module.walk() if isinstance(op, memref.AllocOp)
    ]


def upstream_verify(mlir_opt: str, text: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [mlir_opt, "--verify-each"], input=text, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(("name", "options"), CASES)
def test_lowered_program_runs_natively_like_numpy(name, options, mlir_opt, native_runner):
    program = PROGRAMS[name]
    lowered = lower(program, options)

    assert not _LAYOUT_DIALECT.search(lowered), f"layout dialect left in:\n{lowered}"
    module = parse(lowered)
    assert [str(t) for t in memref_types(module) if not isinstance(t.layout, NoneAttr)] == []
    if "flatten" in options:  # every physical buffer is 1-D; the plain result keeps its shape
        shapes = allocated_shapes(module)
        assert sorted(len(s) for s in shapes) == [1, 1, program.spec.rank], shapes
    verified = upstream_verify(mlir_opt, lowered)
    assert verified.returncode == 0, f"mlir-opt rejects the lowered IR:\n{verified.stderr}"

    actual = parse_output(native_runner(lowered))
    assert actual == program.expected, describe_mismatches(program.expected, actual)


def test_every_layout_kind_has_a_program():
    kinds = {
        "tag": '#layout.tag<"NCHW->',
        "named format": '#layout.tag<"nhwc">',
        "chunked": "#layout.chunked<",
        "map": "#layout.map<",
        "strided": "#layout.strided<",
        "builtin affine_map": "memref<13x10xf32, affine_map<",
        "builtin strided": "memref<4x30xi64, strided<[40, 1], offset: 3>",
    }
    layouts = " ".join(
        f"memref<{'x'.join(map(str, s.shape))}x{s.element}, {s.layout}>" for s in SPECS
    )
    assert [kind for kind, text in kinds.items() if text not in layouts] == []
    assert {spec.name for spec in SPECS} == set(PROGRAMS)


def test_the_alias_program_uses_the_crouton_pairs_with_pad_31():
    # R4CroutonLayout = ChunkedMemoryLayout<4, 0,0, 1,0, 2,0, 3,0, 1,8, 2,8, 3,32>
    assert PROGRAMS["chunked_alias_crouton"].spec.layout == (
        "#layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>"
    )


def test_expectation_matches_hand_computed_values():
    """tag_nchw8c (2x17x5x4 i32, value 3*linear - 1000), computed by hand."""
    lines = PROGRAMS["tag_nchw8c"].expected.lines
    assert lines[:4] == ((2,), (17,), (5,), (4,))
    # probes (0,0,0,0), (1,16,4,3): linear 340+320+16+3 = 679, (0,8,2,1): 160+8+1 = 169,
    # (1,7,3,2): 340+140+12+2 = 494
    assert lines[4:8] == ((-1000,), (3 * 679 - 1000,), (3 * 169 - 1000,), (3 * 494 - 1000,))
    assert lines[8] == (77777,)
    # vector.load at (0, 9, 1, 0): linear 180 + 4 = 184 .. 187
    assert lines[9] == tuple(3 * k - 1000 for k in range(184, 188))
    # affine.vector_load reads back the vector stored at (1, 16, 2, 0)
    assert lines[10] == (-11, -22, -33, -44)
    plain = sum(3 * k - 1000 for k in range(680))
    stored_at = 340 + 15 * 20 + 3  # (1, 15, 0, 3), innermost index 3
    row = range(340 + 16 * 20 + 8, 340 + 16 * 20 + 12)  # (1, 16, 2, 0..3)
    total = plain - (3 * stored_at - 1000) + 77777 - sum(3 * k - 1000 for k in row) - 110
    assert lines[11] == (total,)
    weighted = sum((3 * k - 1000) * (1 + k % 4) for k in range(680))
    weighted += (77777 - (3 * stored_at - 1000)) * 4
    weighted += sum(
        (v - (3 * k - 1000)) * (1 + k % 4) for k, v in zip(row, (-11, -22, -33, -44), strict=True)
    )
    assert lines[12] == (weighted,)


def test_f32_expectation_matches_a_scalar_recomputation():
    """map_explicit_shape (7x13 f32, value (linear mod 509) / 4 - 60), recomputed with
    Python scalars; reductions print as 4 * sum."""
    spec = PROGRAMS["map_explicit_shape"].spec
    values = {(i, j): (13 * i + j) / 4 - 60 for i in range(7) for j in range(13)}
    values[5, 11] = 99.75
    for k, v in enumerate((-1.5, -2.25, -3.0, -4.75)):
        values[3, 4 + k] = v
    lines = PROGRAMS["map_explicit_shape"].expected.lines
    assert lines[2:6] == tuple((values[p],) for p in spec.probes)
    assert lines[6] == (99.75,)
    assert lines[7] == tuple(values[6, j] for j in range(2, 6))
    assert lines[8] == (values[3, 3], -1.5, -2.25, -3.0)
    assert lines[9] == (4 * sum(values.values()),) == (-16446,)
    weighted = sum(v * (1 + j % 4) for (_, j), v in values.items())
    assert lines[10] == (4 * weighted,)
    assert PROGRAMS["map_explicit_shape"].expected.data == tuple(values.values())


SAMPLE_OUTPUT = (  # printMemref ends its lines with a space
    "2\n"
    "( -1.5, 2, 3.25 )\n"
    "Unranked Memref base@ = 0x55d0 rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] "
    "data = \n"
    "[[1,   -2.5], \n"
    " [3e+06,   4]]\n"
)


def test_parse_output_reads_prints_and_memref_dump():
    parsed = parse_output(SAMPLE_OUTPUT)
    assert parsed.lines == ((2,), (-1.5, 2, 3.25))
    assert parsed.shape == (2, 2)
    assert parsed.data == (1, -2.5, 3e6, 4)


def test_mismatches_are_reported_in_logical_coordinates():
    parsed = parse_output(SAMPLE_OUTPUT)
    wrong = parse_output(SAMPLE_OUTPUT.replace("[3e+06", "[7"))
    assert (
        describe_mismatches(parsed, wrong)
        == "1 mismatches:\nelement (1, 0): got 7, expected 3000000.0"
    )
    assert describe_mismatches(parsed, parsed) == ""
