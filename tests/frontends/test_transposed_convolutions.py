"""Transposed convolutions as the convolutions of their output phases
(`frontends/transposed_convolutions.py`): the phases against every product of the stuffed
convolution, the rewrite of tests/frontends/transposed_convolutions.mlir (each rewritten
function run before and after it by the interpreter: the same values; the others left as
they are), and imported ONNX ConvTransposes, laid out, scheduled and run against
onnxruntime."""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import heterolayout
import heterolayout.frontends.text_rewrites as text_rewrites
from heterolayout.dialects.context import parse_program
from heterolayout.frontends.errors import FrontendError
from heterolayout.frontends.pads_before_transposed_convolutions import (
    check_torch_module,
    move_pads_past_transposed_convolutions,
)
from heterolayout.frontends.reference import compare_output
from heterolayout.frontends.transposed_convolutions import (
    _phases,
    transposed_convolutions,
    transposed_convolutions_in_text,
)
from heterolayout.passes.pipeline import apply_pipeline
from tests.onnx_models import (
    _tensor,
    _weights,
    graph_model,
    onnxruntime_outputs,
    random_input,
    require_frontend,
    with_onednn_layouts,
)
from tests.paths import REPOSITORY

SOURCE = (REPOSITORY / "tests/frontends/transposed_convolutions.mlir").read_text()
LEFT = ("nonzero_fill", "written_between", "global_written_between", "read_elsewhere", "dilated")
"""The functions of SOURCE that must stay as they are."""


@pytest.mark.parametrize(
    ("extent", "kernel", "offset", "stride"),
    list(itertools.product((1, 2, 5), (1, 2, 3, 5), (0, 1, 2, 4), (1, 2, 3, 4))),
)
def test_phases_make_every_product_of_the_stuffed_convolution_once(
    extent: int, kernel: int, offset: int, stride: int
) -> None:
    """Along one axis: (output row, kernel row, input row) with output + kernel = offset +
    stride · input, exactly the stuffed convolution's products that read an input row."""
    out = max((extent - 1) * stride + 1 + offset + 1 - kernel + 1, 1)
    stuffed = {
        (o, k, (o + k - offset) // stride)
        for o in range(out)
        for k in range(kernel)
        if (o + k - offset) % stride == 0 and 0 <= (o + k - offset) // stride < extent
    }
    made = []
    for phase in _phases(extent, out, kernel, offset, stride):
        for i, t in itertools.product(range(phase.count), range(phase.taps)):
            row = i + t + phase.shift
            if 0 <= row < extent:
                made.append((phase.first + stride * i, phase.tap + stride * t, row))
    assert sorted(made) == sorted(stuffed)


def _function(module: ModuleOp, name: str) -> str:
    text = str(module)
    start = text.index(f"func.func @{name}(")
    end = text.find("func.func @", start + 1)
    return text[start : end if end >= 0 else len(text)]


def test_the_stuffed_convolutions_become_phases() -> None:
    module = parse_program(SOURCE)
    assert transposed_convolutions(module) == 3
    stride2 = _function(module, "stride2")
    assert stride2.count("linalg.conv_2d_nchw_fchw") == 4  # 2 x 2 phases
    assert "memref<1x2x8x10xf32>" not in stride2  # no stuffed image
    assert "memref<1x2x4x5xf32>" in stride2  # the input padded by one row and column
    # output rows 0, 2, 4 read kernel row 1 only; rows 1, 3, 5 kernel rows 0 and 2
    assert "[0, 0, 1, 1] [3, 2, 1, 1] [1, 1, 2, 2]" in stride2
    assert "[0, 0, 0, 0] [3, 2, 2, 2] [1, 1, 2, 2]" in stride2
    by_rows = _function(module, "stride3_by_1")
    # rows 1, 4, 7 of the output meet no input row: two phases of three
    assert by_rows.count("linalg.conv_2d_nchw_fchw") == 2
    assert "memref.alloc" not in by_rows and "memref.copy" not in by_rows
    sequence = _function(module, "sequence")
    assert sequence.count("linalg.conv_1d_ncw_fcw") == 2 and "1x3x13xf32" not in sequence
    original = parse_program(SOURCE)
    for name in LEFT:
        assert _function(module, name) == _function(original, name)


@pytest.mark.parametrize("name", ["stride2", "stride3_by_1", "sequence"])
def test_each_rewritten_function_computes_what_it_did(name: str) -> None:
    rewritten = parse_program(SOURCE)
    transposed_convolutions(rewritten)
    arguments = _arguments(SOURCE, name)
    before, after = [a.copy() for a in arguments], [a.copy() for a in arguments]
    heterolayout.run(SOURCE, name, args=before, engine="interp")
    heterolayout.run(rewritten, name, args=after, engine="interp")
    for was, now in zip(before, after, strict=True):
        np.testing.assert_array_equal(now, was)
    assert not np.array_equal(before[-1], arguments[-1])  # the output was written


def _arguments(text: str, name: str) -> list[np.ndarray]:
    """Whole numbers in each argument (sums of them are exact in any order)."""
    signature = text[text.index(f"@{name}(") : text.index(") {", text.index(f"@{name}("))]
    random = np.random.default_rng(7)
    shapes = [
        tuple(int(e) for e in part.split("memref<")[1].split("xf32")[0].split("x"))
        for part in signature.split(", %")
    ]
    return [random.integers(-4, 5, shape).astype(np.float32) for shape in shapes]


def test_a_text_without_a_strided_view_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []

    def parse(text: str) -> ModuleOp:
        parsed.append(text)
        return parse_program(text)

    monkeypatch.setattr(text_rewrites, "parse_program", parse)
    unstrided = SOURCE
    for strides in ("[1, 1, 2, 2]", "[1, 1, 3, 1]", "[1, 1, 2]"):
        unstrided = unstrided.replace(strides, "[1, 1" + ", 1" * (strides.count(",") - 1) + "]")
    assert transposed_convolutions_in_text(unstrided) is unstrided
    without = SOURCE.replace("linalg.conv_2d_nchw_fchw", "linalg.conv_2d_nhwc_hwcf")
    without = without.replace("linalg.conv_1d_ncw_fcw", "linalg.conv_1d_nwc_wcf")
    assert transposed_convolutions_in_text(without) is without
    assert parsed == []
    assert transposed_convolutions_in_text(SOURCE) is not SOURCE
    assert parsed == [SOURCE]


def _transposed(
    channels: int,
    features: int,
    size: tuple[int, ...],
    kernel: tuple[int, ...],
    strides: tuple[int, ...],
    pads: tuple[int, ...],
    output_padding: tuple[int, ...] | None = None,
    dilations: tuple[int, ...] | None = None,
    group: int = 1,
) -> tuple[Any, tuple[int, ...]]:
    """ConvTranspose of `len(size)` spatial dims with a bias, then ReLU."""
    from onnx import helper

    axes = range(len(size))
    output_padding = output_padding or (0,) * len(size)
    dilations = dilations or (1,) * len(size)
    random = np.random.default_rng(3)
    weights = [
        _weights(random, "w", (channels, features // group, *kernel)),
        _weights(random, "b", (features,)),
    ]
    out = [
        (size[a] - 1) * strides[a]
        - 2 * pads[a]
        + dilations[a] * (kernel[a] - 1)
        + output_padding[a]
        + 1
        for a in axes
    ]
    nodes = [
        helper.make_node(
            "ConvTranspose",
            ["x", "w", "b"],
            ["t"],
            kernel_shape=list(kernel),
            strides=list(strides),
            pads=[*pads, *pads],
            output_padding=list(output_padding),
            dilations=list(dilations),
            group=group,
        ),
        helper.make_node("Relu", ["t"], ["y"]),
    ]
    shape = (1, channels, *size)
    model = graph_model(
        nodes, [_tensor("x", list(shape))], [_tensor("y", [1, features, *out])], weights
    )
    return model, shape


MODELS = {
    # name: (ConvTranspose arguments, convolutions after the import)
    "2x2 stride 2": ((16, 16, (6, 5), (2, 2), (2, 2), (0, 0)), 4),
    "4x4 stride 2 pad 1": ((16, 8, (5, 6), (4, 4), (2, 2), (1, 1)), 4),
    "3x3 stride 2 pad 1 output_padding 1": ((8, 16, (5, 5), (3, 3), (2, 2), (1, 1), (1, 1)), 4),
    "5x5 stride 3 pad 2 output_padding 1, 2": ((4, 8, (4, 3), (5, 5), (3, 3), (2, 2), (1, 2)), 9),
    "2x2 stride 4": ((8, 8, (3, 3), (2, 2), (4, 4), (0, 0)), 4),
    "3x2 stride 2, 1": ((8, 8, (4, 5), (3, 2), (2, 1), (1, 0)), 2),
    "dilated (left)": ((8, 8, (4, 4), (3, 3), (2, 2), (1, 1), (0, 0), (2, 2)), 1),
    "grouped (left)": ((8, 8, (4, 4), (3, 3), (2, 2), (1, 1), (0, 0), (1, 1), 2), 0),
    "1-D 16 stride 8 pad 4": ((8, 4, (5,), (16,), (8,), (4,)), 8),
    "1-D 3 stride 3 pad 1 output_padding 2": ((4, 8, (6,), (3,), (3,), (1,), (2,)), 3),
    "3-D 3 stride 2 pad 1 output_padding 1": (
        (4, 4, (3, 4, 3), (3, 3, 3), (2, 2, 2), (1, 1, 1), (1, 1, 1)),
        8,
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", MODELS)
def test_imported_transposed_convolutions_compute_what_onnxruntime_computes(name: str) -> None:
    require_frontend()
    arguments, convolutions = MODELS[name]
    model, shape = _transposed(*arguments)  # type: ignore[arg-type]
    text = heterolayout.import_model(model)
    found = re.findall(r"linalg\.conv_(?:1d_ncw_fcw|2d_nchw_fchw|3d_ncdhw_fcdhw)\b", text)
    assert len(found) == convolutions
    x = random_input(shape, seed=5)
    expected = onnxruntime_outputs(model, {"x": x})["y"]
    laid_out, _ = with_onednn_layouts(text, 4)
    fast = "layout-schedule{fma=true reassociate=true},layout-lower"
    runs = [(text, "layout-lower", "compiled"), (text, fast, "compiled")]
    runs += [(laid_out, "layout-lower", "compiled"), (laid_out, fast, "native")]
    for form, pipeline, engine in runs:
        lowered = apply_pipeline(parse_program(form), pipeline)
        got = heterolayout.run(str(lowered), {"x": x}, engine=engine)["y"]
        comparison = compare_output("y", got, expected)
        assert comparison.within, (pipeline, engine, str(comparison))


def test_a_torch_conv_transpose_becomes_phases_and_equals_pytorch() -> None:
    """PyTorch's ConvTranspose2d (torch.export; PyTorch is not part of the onnx extra)
    reaches the same stuffed convolution through torch-mlir."""
    torch = pytest.importorskip("torch", reason="torch.export needs PyTorch: pip install torch")
    require_frontend()

    class Up(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.up = torch.nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1)

        def forward(self, x: Any) -> Any:
            return torch.relu(self.up(x))

    torch.manual_seed(0)
    module = Up().eval()
    x = torch.randn(1, 8, 5, 6)
    text = heterolayout.import_model(torch.export.export(module, (x,)))
    assert text.count("linalg.conv_2d_nchw_fchw") == 4
    got = heterolayout.run(text, {"x": x.numpy()}, engine="compiled")["relu"]
    np.testing.assert_allclose(got, module(x).detach().numpy(), rtol=1e-5, atol=1e-5)


def _padded_transposed(
    pads: tuple[int, ...],
    strides: tuple[int, ...],
    kernel: tuple[int, ...],
    convolution_pads: tuple[int, ...],
    output_padding: tuple[int, ...],
    bias: bool = True,
) -> tuple[Any, tuple[int, ...]]:
    """A zero Pad (ONNX order: every dim's begin, then every end) into a ConvTranspose."""
    from onnx import helper, numpy_helper

    spatial = len(strides)
    size = tuple(5 + a for a in range(spatial))
    padded = [size[a] + pads[2 + a] + pads[spatial + 4 + a] for a in range(spatial)]
    out = [
        (padded[a] - 1) * strides[a] - 2 * convolution_pads[a] + kernel[a] + output_padding[a]
        for a in range(spatial)
    ]
    random = np.random.default_rng(7)
    weights = [_weights(random, "w", (4, 3, *kernel)), _weights(random, "b", (3,))]
    weights.append(numpy_helper.from_array(np.array(pads, np.int64), "pads"))
    nodes = [
        helper.make_node("Pad", ["x", "pads"], ["p"], mode="constant"),
        helper.make_node(
            "ConvTranspose",
            ["p", "w", "b"] if bias else ["p", "w"],
            ["y"],
            kernel_shape=list(kernel),
            strides=list(strides),
            pads=[*convolution_pads, *convolution_pads],
            output_padding=list(output_padding),
        ),
    ]
    shape = (1, 4, *size)
    model = graph_model(nodes, [_tensor("x", list(shape))], [_tensor("y", [1, 3, *out])], weights)
    return model, shape


PADDED = {
    # name: (Pad's pads, strides, kernel, ConvTranspose's pads, output_padding[, bias])
    "2 rows before, 1 column each side": ((0, 0, 2, 1, 0, 0, 2, 0), (2, 2), (4, 4), (1, 1), (0, 0)),
    "1 row before only": ((0, 0, 1, 0, 0, 0, 0, 0), (2, 2), (4, 4), (1, 1), (0, 0)),
    "3 before and after": ((0, 0, 3, 3, 0, 0, 3, 3), (2, 2), (4, 4), (1, 1), (0, 0)),
    "stride 3, output_padding 1, no bias": (
        (0, 0, 1, 2, 0, 0, 0, 1),
        (3, 3),
        (5, 5),
        (2, 2),
        (1, 1),
        False,
    ),
    "1-D stride 2": ((0, 0, 2, 0, 0, 1), (2,), (3,), (1,), (1,)),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", PADDED)
def test_zero_pads_before_strided_transposed_convolutions_compute_what_onnxruntime_computes(
    name: str,
) -> None:
    """Upstream canonicalization folds such a Pad into the stuffed image at offsets it does
    not multiply by the stride (every output wrong before the rewrite); moved to the
    convolution's output, the model imports right, laid out and scheduled too."""
    require_frontend()
    model, shape = _padded_transposed(*PADDED[name])  # type: ignore[arg-type]
    text = heterolayout.import_model(model)
    x = random_input(shape, seed=9)
    expected = onnxruntime_outputs(model, {"x": x})["y"]
    laid_out, _ = with_onednn_layouts(text, 4)
    fast = "layout-schedule{fma=true reassociate=true},layout-lower"
    for form, pipeline, engine in [(text, "layout-lower", "compiled"), (laid_out, fast, "native")]:
        lowered = apply_pipeline(parse_program(form), pipeline)
        got = heterolayout.run(str(lowered), {"x": x}, engine=engine)["y"]
        comparison = compare_output("y", got, expected)
        assert comparison.within, (name, pipeline, str(comparison))


@pytest.mark.parametrize("name", PADDED)
def test_the_moved_pad_computes_what_the_model_does(name: str) -> None:
    """The rewrite itself, on ONNX's reference evaluator: the same values, bit for bit (the
    same products, summed in the same order)."""
    onnx = pytest.importorskip("onnx", reason="the onnx extra: pip install -e '.[onnx]'")
    from onnx.reference import ReferenceEvaluator

    model, shape = _padded_transposed(*PADDED[name])  # type: ignore[arg-type]
    moved = move_pads_past_transposed_convolutions(model)
    kinds = [node.op_type for node in moved.graph.node]
    assert kinds[0] == "ConvTranspose", kinds
    onnx.checker.check_model(moved)
    x = random_input(shape, seed=9)
    want = ReferenceEvaluator(model).run(None, {"x": x})[0]
    got = ReferenceEvaluator(moved).run(None, {"x": x})[0]
    np.testing.assert_array_equal(got, want)


def test_pads_that_do_not_misplace_anything_are_left_alone() -> None:
    """Trailing pads only, stride 1, or a nonzero pad value: upstream lowers them right."""
    pytest.importorskip("onnx", reason="the onnx extra: pip install -e '.[onnx]'")
    for arguments in [
        ((0, 0, 0, 0, 0, 0, 2, 1), (2, 2), (4, 4), (1, 1), (0, 0)),
        ((0, 0, 2, 1, 0, 0, 0, 0), (1, 1), (3, 3), (1, 1), (0, 0)),
    ]:
        model, _ = _padded_transposed(*arguments)  # type: ignore[arg-type]
        assert move_pads_past_transposed_convolutions(model) is model


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"auto_pad": "SAME_UPPER"}, "the ConvTranspose has auto_pad"),
        ({"channels": True}, "it pads the batch or channel dims"),
        ({"value": "v"}, "its pads or its pad value are known only at run time"),
    ],
)
def test_a_pad_that_cannot_be_moved_is_refused_in_one_line(
    change: dict[str, Any], why: str
) -> None:
    pytest.importorskip("onnx", reason="the onnx extra: pip install -e '.[onnx]'")
    from onnx import helper

    pads = (0, 1, 2, 0, 0, 0, 0, 0) if "channels" in change else (0, 0, 2, 0, 0, 0, 0, 0)
    model, _ = _padded_transposed(pads, (2, 2), (4, 4), (1, 1), (0, 0))
    pad, convolution = model.graph.node
    if "auto_pad" in change:
        del convolution.attribute[:]
        convolution.attribute.extend(
            [
                helper.make_attribute("kernel_shape", [4, 4]),
                helper.make_attribute("strides", [2, 2]),
                helper.make_attribute("auto_pad", change["auto_pad"]),
            ]
        )
    if "value" in change:
        pad.input.append(change["value"])
    with pytest.raises(FrontendError) as raised:
        move_pads_past_transposed_convolutions(model)
    message = str(raised.value)
    assert "\n" not in message and why in message and "ConvTranspose" in message


def test_a_torch_pad_before_a_strided_conv_transpose_is_refused() -> None:
    """PyTorch's `F.pad` before a `ConvTranspose2d` reaches the same fold through torch-mlir:
    refused in one line, not imported wrong."""
    torch = pytest.importorskip("torch", reason="torch.export needs PyTorch: pip install torch")
    require_frontend()

    class Up(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.up = torch.nn.ConvTranspose2d(4, 4, 4, stride=2, padding=1)

        def forward(self, x: Any) -> Any:
            return self.up(torch.nn.functional.pad(x, (1, 0, 2, 1)))

    program = torch.export.export(Up().eval(), (torch.randn(1, 4, 5, 6),))
    with pytest.raises(FrontendError, match="zero pad before a strided transposed convolution"):
        heterolayout.import_model(program)


def test_the_torch_module_check_reads_pads_in_torch_order() -> None:
    """`constant_pad_nd` lists the last dim's pads first: a pad of the last dim's end only,
    or of a dim the convolution does not stride, passes; the first spatial dim's begin
    does not."""
    template = """
    %true = torch.constant.bool true
    %float0 = torch.constant.float 0.000000e+00
    %int0 = torch.constant.int 0
    %int1 = torch.constant.int 1
    %int2 = torch.constant.int 2
    %p = torch.prim.ListConstruct {pads} : (!torch.int) -> !torch.list<int>
    %s = torch.prim.ListConstruct {strides} : (!torch.int) -> !torch.list<int>
    %x1 = torch.aten.constant_pad_nd %x, %p, %float0 : !torch.vtensor, !torch.list<int>, !torch.float -> !torch.vtensor
    %y = torch.aten.convolution %x1, %w, %b, %s, %q, %d, %true, %o, %int1 : !torch.vtensor
    """
    check_torch_module(template.format(pads="%int0, %int1, %int0, %int0", strides="%int2, %int2"))
    check_torch_module(template.format(pads="%int0, %int0, %int2, %int0", strides="%int1, %int2"))
    with pytest.raises(FrontendError):
        check_torch_module(
            template.format(pads="%int0, %int0, %int1, %int0", strides="%int2, %int1")
        )


def test_an_identity_between_the_pad_and_the_convolution_is_seen_through() -> None:
    """torch-mlir drops the Identity, so the fold meets the Pad all the same."""
    pytest.importorskip("onnx", reason="the onnx extra: pip install -e '.[onnx]'")
    from onnx import helper
    from onnx.reference import ReferenceEvaluator

    model, shape = _padded_transposed(*PADDED["1 row before only"])  # type: ignore[arg-type]
    convolution = model.graph.node[1]
    convolution.input[0] = "q"
    model.graph.node.insert(1, helper.make_node("Identity", ["p"], ["q"]))
    moved = move_pads_past_transposed_convolutions(model)
    assert moved.graph.node[2].input[0] == "x"
    x = random_input(shape, seed=9)
    np.testing.assert_array_equal(
        ReferenceEvaluator(moved).run(None, {"x": x})[0],
        ReferenceEvaluator(model).run(None, {"x": x})[0],
    )


def test_a_convolution_without_kernel_shape_is_read_from_its_other_attributes() -> None:
    """Its spatial dims from strides (the weights may be a graph input)."""
    pytest.importorskip("onnx", reason="the onnx extra: pip install -e '.[onnx]'")
    from onnx.reference import ReferenceEvaluator

    model, shape = _padded_transposed(*PADDED["2 rows before, 1 column each side"])  # type: ignore[arg-type]
    convolution = model.graph.node[1]
    kept = [a for a in convolution.attribute if a.name != "kernel_shape"]
    del convolution.attribute[:]
    convolution.attribute.extend(kept)
    weights = next(i for i in model.graph.initializer if i.name == "w")
    model.graph.initializer.remove(weights)
    model.graph.input.append(_tensor("w", list(weights.dims)))
    moved = move_pads_past_transposed_convolutions(model)
    assert moved.graph.node[0].op_type == "ConvTranspose"
    x = random_input(shape, seed=9)
    w = random_input(tuple(weights.dims), seed=3)
    np.testing.assert_array_equal(
        ReferenceEvaluator(moved).run(None, {"x": x, "w": w})[0],
        ReferenceEvaluator(model).run(None, {"x": x, "w": w})[0],
    )
