"""Index values computed through float ops, written as the affine functions they are
(`frontends/affine_indices.py`): the fit, the rewrite of tests/frontends/affine_indices.mlir
(each function run before and after it, by the interpreter and natively: the same values),
and imported ONNX Resizes, laid out, scheduled and run against onnxruntime."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import heterolayout
import heterolayout.frontends.text_rewrites as text_rewrites
from heterolayout.dialects.context import parse_program
from heterolayout.frontends.affine_indices import affine_indices, affine_indices_in_text, fit
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.passes.remarks import remarks_collected
from tests.onnx_models import (
    _constant,
    _tensor,
    graph_model,
    onnxruntime_outputs,
    random_input,
    require_frontend,
    with_onednn_layouts,
)
from tests.paths import REPOSITORY

SOURCE = (REPOSITORY / "tests/frontends/affine_indices.mlir").read_text()


@pytest.mark.parametrize(
    ("multiplier", "offset", "divisor"),
    list(itertools.product((0, 1, 2, 3, 5), (-3, 0, 4), (1, 2, 3, 7))),
)
def test_fit_finds_a_function_equal_at_every_point(
    multiplier: int, offset: int, divisor: int
) -> None:
    values = [(multiplier * i + offset) // divisor for i in range(23)]
    found = fit(values)
    assert found is not None
    p, q, r = found
    assert r <= divisor
    assert [(p * i + q) // r for i in range(23)] == values


def test_fit_refuses_what_no_function_matches() -> None:
    assert fit([i * i for i in range(8)]) is None
    assert fit([0, 1, 2, 3, 3, 3, 3, 3]) is None
    assert fit([7]) == (0, 7, 1)


def test_the_upsample_indices_become_floordivs() -> None:
    module = parse_program(SOURCE)
    assert affine_indices(module) == 2
    text = str(module)
    upsample = text[: text.index("func.func @squares")]
    assert upsample.count("affine_map<(d0) -> ((d0 floordiv 2))>") == 2
    assert "arith.fptosi" not in upsample and "math.floor" not in upsample
    assert text.count("arith.fptosi") == 3


def test_a_text_without_float_indices_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a module with `linalg.index` and a float-to-integer conversion is parsed (the
    import of a large model without them pays nothing)."""
    parsed: list[str] = []

    def parse(text: str) -> ModuleOp:
        parsed.append(text)
        return parse_program(text)

    monkeypatch.setattr(text_rewrites, "parse_program", parse)
    for without in ("arith.fptosi", "linalg.index"):
        text = SOURCE.replace(without, "removed")
        assert affine_indices_in_text(text) is text
    assert parsed == []
    assert affine_indices_in_text(SOURCE) is not SOURCE
    assert parsed == [SOURCE]


def test_a_text_the_parser_does_not_read_is_left_to_the_next_tool() -> None:
    text = SOURCE.replace("func.func @squares", "func.func @squares(%bad", 1)
    assert affine_indices_in_text(text) is text


ARGUMENTS = {
    "upsample": lambda rng: (rng.standard_normal((1, 16, 4, 5)), np.zeros((1, 16, 8, 10))),
    "squares": lambda rng: (rng.standard_normal((16, 10)), np.zeros((4, 10))),
    "from_data": lambda rng: (
        rng.standard_normal((16, 10)),
        np.array([3.0, 0.0, 15.0, 7.0]),
        np.zeros((4, 10)),
    ),
    "diagonal": lambda rng: (rng.standard_normal((16, 10)), np.zeros((4, 10))),
}


@pytest.mark.parametrize("engine", ["interp", "native"])
@pytest.mark.parametrize("function", list(ARGUMENTS))
def test_the_rewrite_computes_what_the_program_did(function: str, engine: str) -> None:
    rewritten = affine_indices_in_text(SOURCE)
    outputs = []
    for text in (SOURCE, rewritten):
        args = tuple(a.astype(np.float32) for a in ARGUMENTS[function](np.random.default_rng(4)))
        heterolayout.run(text, function, args=args, engine=engine)
        outputs.append(args[-1])
    np.testing.assert_array_equal(outputs[1], outputs[0])


def _resize(scales: list[float], transform: str, rounding: str) -> tuple[object, tuple[int, ...]]:
    from onnx import helper

    shape = (1, 16, 6, 10)
    out = [1, 16, int(shape[2] * scales[2]), int(shape[3] * scales[3])]
    node = helper.make_node(
        "Resize",
        ["x", "", "scales"],
        ["y"],
        mode="nearest",
        coordinate_transformation_mode=transform,
        nearest_mode=rounding,
    )
    scale = _constant("scales", np.array(scales, np.float32))
    return graph_model([node], [_tensor("x", list(shape))], [_tensor("y", out)], [scale]), shape


@pytest.mark.slow
@pytest.mark.parametrize(
    ("scales", "transform", "rounding"),
    [
        ([1, 1, 2, 2], "half_pixel", "round_prefer_floor"),
        ([1, 1, 2, 2], "asymmetric", "floor"),
        ([1, 1, 3, 1.5], "half_pixel", "ceil"),
        ([1, 1, 0.5, 0.5], "asymmetric", "round_prefer_floor"),
    ],
)
def test_an_imported_nearest_resize_is_scheduled_and_equal(
    scales: list[float], transform: str, rounding: str
) -> None:
    """Every coordinate becomes affine, the resize nest is vectorized along the channels of
    nChw16c, and the output is onnxruntime's exactly (nearest copies elements)."""
    require_frontend()
    model, shape = _resize(scales, transform, rounding)
    x = random_input(shape, seed=3)
    expected = onnxruntime_outputs(model, {"x": x})["y"]
    imported = heterolayout.import_model(model)
    assert "arith.fptosi" not in imported
    laid_out, assigned = with_onednn_layouts(imported, 16)
    assert assigned == 2
    remarks: list[str] = []
    with remarks_collected(remarks):
        lowered = apply_pipeline(
            parse_program(laid_out), "layout-schedule{target=avx2},layout-lower"
        )
    assert any("scheduled:" in r and "vector<8xf32>" in r for r in remarks), remarks
    y = np.zeros(expected.shape, np.float32)
    heterolayout.run(str(lowered), "main", args=(x, y), engine="native")
    np.testing.assert_array_equal(y, expected)
