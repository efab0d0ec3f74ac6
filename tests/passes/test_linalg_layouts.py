"""linalg ops on layout-typed memrefs lower inside `layout-lower` with no extra step.

Each program of `test_engines_upstream_ops` that uses linalg (matmul, batch_matmul, both
convolutions, depthwise, poolings, fill, copy, transpose, broadcast, reduce, generic) gets
layouts on its inputs and outputs (`layout.assign`: blocked tags with padding, a transpose
map, a builtin tile map); `layout-lower` alone lowers it; the lowered program prints what
numpy computes and, bit for bit, what the program without layouts prints (upstream's
convert-linalg-to-loops order, so the same floats).
"""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from tests.execution.test_engines_upstream_ops import CASES, engine_output
from tests.upstream_programs import Case, data, printed_outputs

TRANSPOSED = "#layout.map<affine_map<(d0, d1) -> (d1, d0)>>"
TILED = "affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>"

# Buffer → layout, per case (inputs are private constant globals, outputs allocations).
LAYOUTS: dict[str, dict[str, str]] = {
    "matmul": {"A": '#layout.tag<"HW->Hw4w">', "B": TRANSPOSED, "C": TILED},
    "batch_matmul": {"A": '#layout.tag<"NHW->NWH">', "C": '#layout.tag<"NHW->NhW2h">'},
    "conv_2d_nchw_fchw": {
        "I": '#layout.tag<"NCHW->nChw2c">',
        "F": '#layout.tag<"NCHW->NHWC">',
        "O": '#layout.tag<"NCHW->nChw4c">',
    },
    "conv_2d_nhwc_hwcf": {"I": '#layout.tag<"NHWC->NCHW">', "O": '#layout.tag<"NHWC->NHWc2c">'},
    "depthwise_conv_2d_nhwc_hwc": {
        "I": '#layout.tag<"NHWC->NHWc4c">',
        "F": '#layout.tag<"HWC->CHW">',
    },
    "pooling": {
        "I": '#layout.tag<"NHWC->NCHW">',
        "MAX": '#layout.tag<"NHWC->NHWc2c">',
        "CMAX": '#layout.tag<"NCHW->nChw2c">',
    },
    "copy_transpose_broadcast_reduce": {
        "A": TILED,
        "V": '#layout.tag<"W->W4w">',
        "TP": TRANSPOSED,
        "BC": '#layout.tag<"HW->hW2h">',
        "RD": '#layout.tag<"W->w4w">',
    },
    "generic": {"A": '#layout.tag<"HW->WH">', "G": '#layout.tag<"HW->Hw4w">'},
}


def _with_layouts(case: Case, program: str) -> str:
    """The program with a `layout.assign` after each named buffer's definition."""
    lines = program.splitlines()
    for name, layout in LAYOUTS[case.name].items():
        index, line = next(
            (i, text)
            for i, text in enumerate(lines)
            if text.strip().startswith(f"%{name} = memref.")
        )
        memref_type = line.rsplit(" : ", 1)[1]
        lines.insert(index + 1, f"  layout.assign %{name} to {layout} : {memref_type}")
    return "\n".join(lines) + "\n"


def _program(case: Case) -> str:
    from tests.upstream_programs import program

    return _with_layouts(case, program(case))


LINALG_CASES = [c for c in CASES if c.name in LAYOUTS]


def test_every_linalg_case_has_layouts() -> None:
    assert {c.name for c in LINALG_CASES} == set(LAYOUTS)


@pytest.mark.parametrize("case", LINALG_CASES, ids=[c.name for c in LINALG_CASES])
def test_layout_lower_runs_linalg_on_layouts(case: Case) -> None:
    module = parse_program(_program(case))
    lowered = apply_pipeline(module, "layout-lower")
    text = str(lowered)
    assert "#layout" not in text and "layout." not in text
    if case.name == "matmul":  # every buffer has a layout: no linalg op is left
        assert "linalg." not in text
    output = heterolayout.run(lowered, capture=True).output
    assert output is not None
    # Bit for bit what the same program without layouts prints...
    assert output == engine_output(case.name, "compiled")
    # ...which is numpy's result.
    found = printed_outputs(output, case)
    for name, expected in case.expected(data(case)).items():
        np.testing.assert_allclose(found[name], expected, rtol=case.tolerance, atol=1e-6)


KERNEL = """
func.func @main(%I: memref<1x3x9x9xf32, #layout.tag<"NCHW->nChw2c">>,
                %F: memref<4x3x3x2xf32, #layout.tag<"NCHW->NHWC">>,
                %O: memref<1x4x4x7xf32, #layout.tag<"NCHW->nChw4c">>,
                %A: memref<5x7xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)>>,
                %S: memref<7xf32, #layout.tag<"W->w4w">>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%O : memref<1x4x4x7xf32, #layout.tag<"NCHW->nChw4c">>)
  linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
    ins(%I, %F : memref<1x3x9x9xf32, #layout.tag<"NCHW->nChw2c">>, memref<4x3x3x2xf32, #layout.tag<"NCHW->NHWC">>)
    outs(%O : memref<1x4x4x7xf32, #layout.tag<"NCHW->nChw4c">>)
  linalg.reduce ins(%A : memref<5x7xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)>>)
    outs(%S : memref<7xf32, #layout.tag<"W->w4w">>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return
}
"""


def test_layout_run_check_on_linalg_with_layout_arguments(tmp_path, capsys) -> None:
    from heterolayout.tools.run import main

    path = tmp_path / "kernel.mlir"
    path.write_text(KERNEL)
    assert main([str(path), "--check"]) == 0
    out = capsys.readouterr().out
    # 1·3·9·9 + 4·3·3·2 + 1·4·4·7 + 5·7 + 7 argument elements compared after the call.
    assert out.strip() == f"OK: {243 + 72 + 112 + 35 + 7} elements compared"


def test_linalg_on_plain_memrefs_is_left_alone() -> None:
    case = next(c for c in LINALG_CASES if c.name == "matmul")
    from tests.upstream_programs import program

    lowered = str(apply_pipeline(parse_program(program(case)), "layout-lower"))
    assert "linalg.matmul" in lowered and "linalg.fill" in lowered
