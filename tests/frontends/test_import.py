"""`layout-import` and `heterolayout.import_model` (docs/models.md): ONNX models in, one
public `@main` on memrefs out, its arguments the graph inputs then the graph outputs in
graph order, each carrying its graph name, weights as constant globals; every tool takes
the result; a model that does not import, or a missing extra, is one line and exit 1."""

from __future__ import annotations

import builtins
import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType, StringAttr

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.frontends.errors import FrontendError
from heterolayout.frontends.lowering import inline_resources
from heterolayout.tools.bench import main as layout_bench
from heterolayout.tools.import_model import main as layout_import
from heterolayout.tools.opt import main as layout_opt
from heterolayout.tools.run import main as layout_run
from tests.onnx_models import (
    assert_imported_as_onnxruntime,
    conv_block,
    mlp,
    require_frontend,
    two_by_two,
)


@pytest.fixture
def frontend() -> None:
    require_frontend()


def _cli(tool: Any, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = tool(list(argv))
    return code, out.getvalue(), err.getvalue()


def _signature(text: str) -> list[tuple[str, str, tuple[int, ...]]]:
    """@main's arguments: (role, graph name, shape), read back by heterolayout's parser."""
    module = parse_program(text)
    functions = [op for op in module.ops if isinstance(op, func.FuncOp)]
    assert [f.sym_name.data for f in functions] == ["main"]
    main = functions[0]
    assert main.sym_visibility is None and not main.function_type.outputs.data
    assert main.arg_attrs is not None
    signature = []
    for attributes, type_attr in zip(
        main.arg_attrs.data, main.function_type.inputs.data, strict=True
    ):
        ((key, name),) = attributes.data.items()
        assert isinstance(name, StringAttr) and isinstance(type_attr, MemRefType)
        signature.append((key, name.data, type_attr.get_shape()))
    return signature


@pytest.mark.usefixtures("frontend")
def test_mlp_imports_as_one_main_with_named_arguments_and_constant_weights() -> None:
    text = heterolayout.import_model(mlp())
    assert _signature(text) == [
        ("heterolayout.input", "x", (4, 8)),
        ("heterolayout.output", "y", (4, 6)),
    ]
    module = parse_program(text)
    weights = sorted(
        op.type.get_shape()
        for op in module.ops
        if isinstance(op, memref.GlobalOp) and op.constant is not None
    )
    assert weights == [(8, 16), (16,), (16, 6)]


@pytest.mark.usefixtures("frontend")
def test_arguments_follow_the_graph_order_and_run_by_name() -> None:
    text = heterolayout.import_model(two_by_two())
    assert _signature(text) == [
        ("heterolayout.input", "zeta", (2, 3)),
        ("heterolayout.input", "alpha", (2, 3)),
        ("heterolayout.output", "sum", (2, 3)),
        ("heterolayout.output", "diff", (2, 3)),
    ]
    zeta, alpha = np.arange(6, dtype=np.float32).reshape(2, 3), np.full((2, 3), 0.5, np.float32)
    outputs = heterolayout.run(text, {"alpha": alpha, "zeta": zeta})
    assert list(outputs) == ["sum", "diff"]
    np.testing.assert_array_equal(outputs["sum"], zeta + alpha)
    np.testing.assert_array_equal(outputs["diff"], zeta - alpha)


@pytest.mark.usefixtures("frontend")
def test_layout_import_writes_a_file_every_tool_takes(tmp_path: Path) -> None:
    import onnx

    model, out = tmp_path / "conv.onnx", tmp_path / "conv.mlir"
    onnx.save(conv_block(), str(model))
    assert _cli(layout_import, str(model), "-o", str(out)) == (0, "", "")
    code, lowered, err = _cli(layout_opt, str(out), "-p", "layout-lower")
    assert (code, err) == (0, "")
    assert _signature(lowered) == _signature(out.read_text())
    code, report, err = _cli(layout_run, str(out), "--check")
    assert (code, err) == (0, "")
    assert report.strip() == f"OK: {2 * 4 * 6 * 6} elements compared"
    code, timing, err = _cli(layout_bench, str(out), "--repeat", "1", "--min-time", "0")
    assert (code, err) == (0, "") and "@main" in timing


@pytest.mark.usefixtures("frontend")
def test_symbolic_dims_need_a_size(tmp_path: Path) -> None:
    import onnx

    model = tmp_path / "mlp.onnx"
    onnx.save(mlp(batch="N"), str(model))
    code, out, err = _cli(layout_import, str(model), "-o", str(tmp_path / "out.mlir"))
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and "symbolic dim 'N'" in err and "--dim N=SIZE" in err
    assert not (tmp_path / "out.mlir").exists()
    code, text, err = _cli(layout_import, str(model), "--dim", "N=3")
    assert (code, err) == (0, "")
    assert _signature(text) == [
        ("heterolayout.input", "x", (3, 8)),
        ("heterolayout.output", "y", (3, 6)),
    ]


@pytest.mark.usefixtures("frontend")
def test_an_op_the_frontend_cannot_lower_is_one_line_naming_it(tmp_path: Path) -> None:
    import onnx
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 3])
    node = helper.make_node("Mystery", ["x"], ["y"], domain="com.example", name="the_node")
    graph = helper.make_graph([node], "graph", [x], [y])
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.example", 1)]
    onnx.save(helper.make_model(graph, opset_imports=opsets), str(tmp_path / "m.onnx"))
    code, out, err = _cli(layout_import, str(tmp_path / "m.onnx"), "-o", str(tmp_path / "m.mlir"))
    assert (code, out) == (1, "")
    assert err == (
        "layout-import: error: iree-opt refused the model: onnx.Mystery (node 'the_node'): "
        "failed to legalize operation 'torch.operator'\n"
    )
    assert not (tmp_path / "m.mlir").exists()


@pytest.mark.usefixtures("frontend")
@pytest.mark.parametrize(
    ("op", "lowered"),
    [("TopK", "sort"), ("ScatterND", "scatter"), ("CumSum", "scan")],
)
def test_an_op_lowered_to_tm_tensor_is_one_line_naming_it(
    tmp_path: Path, op: str, lowered: str
) -> None:
    """torch-mlir lowers these to its own TMTensor dialect, which mlir-opt-22 refused as an
    unknown dialect; the CLI names the op instead and writes nothing."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    def constant(name: str, value: Any) -> Any:
        return numpy_helper.from_array(np.array(value, np.int64), name)

    inputs, constants = {
        "TopK": (["x", "k"], [constant("k", [2])]),
        "ScatterND": (
            ["x", "i", "u"],
            [constant("i", [[1]]), numpy_helper.from_array(np.ones((1, 6), np.float32), "u")],
        ),
        "CumSum": (["x", "axis"], [constant("axis", 1)]),
    }[op]
    outputs = ["y", "indices"] if op == "TopK" else ["y"]
    graph = helper.make_graph(
        [helper.make_node(op, inputs, outputs, name="node")],
        "graph",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        constants,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, str(tmp_path / "m.onnx"))
    code, out, err = _cli(layout_import, str(tmp_path / "m.onnx"), "-o", str(tmp_path / "m.mlir"))
    assert (code, out) == (1, "")
    assert err == (
        f"layout-import: error: the model lowers to tm_tensor.{lowered} (torch-mlir's TMTensor "
        "dialect, which upstream MLIR does not compile; TopK, sorts, scatters and cumulative "
        "sums lower to it): not supported yet\n"
    )
    assert not (tmp_path / "m.mlir").exists()


@pytest.mark.usefixtures("frontend")
@pytest.mark.parametrize("domain", ["", "com.example"])
def test_an_output_left_untyped_by_an_unknown_op_names_the_op(domain: str) -> None:
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [
            helper.make_node("Relu", ["x"], ["r"], name="first"),
            helper.make_node("Mystery", ["r"], ["y"], domain=domain, name="the_node"),
        ],
        "graph",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    opsets = [helper.make_opsetid("", 17)] + ([helper.make_opsetid(domain, 1)] if domain else [])
    with pytest.raises(FrontendError) as refused:
        heterolayout.import_model(helper.make_model(graph, opset_imports=opsets))
    op = f"{domain}.Mystery" if domain else "Mystery"
    assert str(refused.value) == (
        f"graph output 'y' has no known rank (ONNX's shape inference does not know op {op} "
        "of node 'the_node')"
    )


@pytest.mark.usefixtures("frontend")
def test_infinite_and_nan_constants_keep_their_values() -> None:
    """An attention mask of -inf (Where, then Softmax) and a NaN added where x is 0: the
    import prints them as upstream does, `dense<0xFF800000>`, which the parser read as the
    integer 4286578688 (so the mask kept what it hid) before it read the bits."""
    from onnx import TensorProto, helper, numpy_helper

    constants = [
        numpy_helper.from_array(np.array([-np.inf, 0.0, -np.inf], np.float32), "mask"),
        numpy_helper.from_array(np.array([0.0, np.nan, 0.0], np.float32), "holes"),
    ]
    nodes = [
        helper.make_node("Add", ["x", "mask"], ["masked"]),
        helper.make_node("Softmax", ["masked"], ["y"], axis=-1),
        helper.make_node("Mul", ["x", "holes"], ["z"]),
    ]
    graph = helper.make_graph(
        nodes,
        "masked",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3]),
            helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 3]),
        ],
        constants,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    x = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]], np.float32)
    assert "0xFF800000" in heterolayout.import_model(model)
    assert_imported_as_onnxruntime(model, {"x": x})


@pytest.mark.usefixtures("frontend")
def test_not_a_model_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.onnx").write_bytes(b"\x00not a protobuf\xff")
    code, out, err = _cli(layout_import, str(tmp_path / "bad.onnx"))
    assert (code, out) == (1, "")
    assert err.startswith(f"layout-import: error: {tmp_path / 'bad.onnx'}: not an ONNX model")
    assert err.count("\n") == 1


@pytest.mark.usefixtures("frontend")
@pytest.mark.parametrize("package", ["onnx", "iree.compiler"])
@pytest.mark.usefixtures("frontend")
def test_without_the_extra_one_line_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, package: str
) -> None:
    import onnx

    onnx.save(mlp(), str(tmp_path / "mlp.onnx"))
    real_import = builtins.__import__

    def without(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == package or name.startswith(f"{package}."):
            raise ImportError(f"No module named '{name}'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without)
    code, out, err = _cli(layout_import, str(tmp_path / "mlp.onnx"), "-o", str(tmp_path / "o"))
    assert (code, out) == (1, "")
    assert err.count("\n") == 1
    assert err.startswith("layout-import: error: importing ONNX models needs ")
    assert err.endswith(": pip install 'heterolayout[onnx]'\n")
    assert not (tmp_path / "o").exists()


@pytest.mark.usefixtures("frontend")
def test_two_outputs_of_one_tensor_are_both_written() -> None:
    """`Identity` makes two graph outputs one value, which MLIR 22's hoisting of results
    into arguments crashes on: such a model bufferizes with a copy per output."""
    from onnx import TensorProto, helper

    def value(name: str) -> Any:
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, [2, 3])

    nodes = [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Identity", ["y"], ["z"])]
    graph = helper.make_graph(nodes, "graph", [value("x")], [value("y"), value("z")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    outputs = heterolayout.run(heterolayout.import_model(model), {"x": x})
    assert list(outputs) == ["y", "z"]
    np.testing.assert_array_equal(outputs["y"], np.maximum(x, 0))
    np.testing.assert_array_equal(outputs["z"], np.maximum(x, 0))


@pytest.mark.slow
@pytest.mark.usefixtures("frontend")
def test_a_torch_export_program_imports_and_equals_pytorch(tmp_path: Path) -> None:
    """A `torch.export` program (PyTorch installed; not part of the onnx extra): a conv
    block with a residual and a linear head, saved, imported, compared with PyTorch."""
    torch = pytest.importorskip("torch", reason="torch.export needs PyTorch: pip install torch")

    class Block(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv = torch.nn.Conv2d(4, 4, 3, padding=1)
            self.head = torch.nn.Linear(4 * 5 * 5, 3)

        def forward(self, image: Any, bias: Any) -> Any:
            features = torch.relu(self.conv(image)) + image
            return self.head(features.flatten(1)) + bias

    torch.manual_seed(0)
    example = (torch.rand(2, 4, 5, 5), torch.rand(2, 3))
    program = torch.export.export(Block().eval(), example)
    torch.export.save(program, str(tmp_path / "block.pt2"))
    out = tmp_path / "block.mlir"
    assert _cli(layout_import, str(tmp_path / "block.pt2"), "-o", str(out)) == (0, "", "")
    (output,) = program.graph_signature.user_outputs
    assert _signature(out.read_text()) == [
        ("heterolayout.input", "image", (2, 4, 5, 5)),
        ("heterolayout.input", "bias", (2, 3)),
        ("heterolayout.output", output, (2, 3)),
    ]
    code, report, err = _cli(layout_run, str(out), "--reference", str(tmp_path / "block.pt2"))
    assert (code, err) == (0, "")
    assert report.splitlines()[-1] == "OK: 1 output within tolerance of PyTorch"
    image, bias = (t.numpy() for t in example)
    outputs = heterolayout.run(heterolayout.import_model(program), {"image": image, "bias": bias})
    expected = program.module()(*example).detach().numpy()
    np.testing.assert_allclose(outputs[output], expected, rtol=1e-4, atol=1e-5)


def test_without_pytorch_a_saved_program_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import zipfile

    with zipfile.ZipFile(tmp_path / "model.pt2", "w") as archive:
        archive.writestr("model/version", "1")
    real_import = builtins.__import__

    def without(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "torch" or name.startswith("torch."):
            raise ImportError(f"No module named '{name}'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without)
    code, out, err = _cli(layout_import, str(tmp_path / "model.pt2"))
    assert (code, out) == (1, "")
    assert err == (
        "layout-import: error: importing torch.export programs needs PyTorch: pip install torch\n"
    )


BUFFERIZED_WITH_RESOURCES = """module {
  memref.global "private" constant @a : memref<2xf32> = dense_resource<torch_tensor_2_torch.float32> {alignment = 64 : i64}
  memref.global "private" constant @b : memref<1xi32> = dense_resource<"odd key"> {alignment = 64 : i64}
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_torch.float32: "0x040000000000803F00000040",
      "odd key": "0x0400000007000000"
    }
  }
#-}
"""


def test_dense_resource_weights_become_dense_hex() -> None:
    text = inline_resources(BUFFERIZED_WITH_RESOURCES)
    assert "dialect_resources" not in text and "dense_resource" not in text
    module = parse_program(text)
    values = {
        op.sym_name.data: op.initial_value for op in module.ops if isinstance(op, memref.GlobalOp)
    }
    assert str(values["a"]) == "dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>"
    assert str(values["b"]) == "dense<7> : tensor<1xi32>"


def test_dense_resource_without_data_or_of_i1_is_refused() -> None:
    missing = BUFFERIZED_WITH_RESOURCES.replace('"odd key": "0x0400000007000000"', "")
    with pytest.raises(FrontendError, match=r"dense_resource<odd key> has no data"):
        inline_resources(missing)
    bits = BUFFERIZED_WITH_RESOURCES.replace("memref<1xi32>", "memref<1xi1>")
    with pytest.raises(FrontendError, match=r"the i1 constant dense_resource<odd key>"):
        inline_resources(bits)
