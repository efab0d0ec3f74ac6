"""Real-size weights (issue 27, point 3): dense initializers read, lowered, printed and run
without a Python object per element, `dense_resource` blobs, and the input limit.

The figures at full size (ResNet-18's 11.7 M weights, 94 MB) are in benchmarks/RESULTS.md
(`benchmarks/big_constants.py`, run small by `test_benchmarks_big_constants_smoke.py`);
here the paths it times are checked against xDSL's per-element ones.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.utils.exceptions import VerifyException

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.dialects.dense import dense_array, dense_attr, wrapped
from heterolayout.execution.runtime.values import element_of
from heterolayout.layout.limits import MAX_INPUT_BYTES

# ---- the bytes of dense attributes ------------------------------------------------------------
TYPES = [
    Float16Type(),
    Float32Type(),
    Float64Type(),
    IntegerType(1),
    IntegerType(4),
    IntegerType(8),
    IntegerType(24),
    IntegerType(64),
    IntegerType(8, Signedness.UNSIGNED),
    IndexType(),
]


@pytest.mark.parametrize("element", TYPES, ids=str)
def test_dense_bytes_are_what_xdsl_reads_and_writes(element) -> None:
    """`dense_array` gives `get_values`'s values and `dense_attr` stores what `from_list`
    stores, for every element type of a weight (on random values, wrapped to the type)."""
    tensor = TensorType(element, (3, 41))
    rng = np.random.default_rng(0)
    kind = element_of(element)
    if kind.is_float:
        values = rng.standard_normal(tensor.get_shape()).astype(kind.numpy_dtype)
        listed = values.ravel().tolist()
    else:
        values = wrapped(rng.integers(-(2**62), 2**62, tensor.get_shape()), kind)
        listed = [kind.wrap(int(v)) for v in values.ravel()]
    mine = dense_attr(tensor, values)
    assert mine == DenseIntOrFPElementsAttr.from_list(tensor, listed)
    assert dense_array(mine).tolist() == list(mine.get_values())


def test_large_initializers_print_as_their_bytes() -> None:
    """Printed as hex straight from the bytes (a splat as its one value), read back equal."""
    tensor = TensorType(Float32Type(), (300,))
    almost = np.ones(300, np.float32)
    almost[-1] = 2.0
    for values, printed in ((almost, 'dense<"0x0000803F'), (np.ones(300, np.float32), "dense<1.0")):
        text = (
            f'memref.global "private" constant @w : memref<300xf32> = {dense_attr(tensor, values)}'
        ).replace(" : tensor<300xf32>", "")
        module = parse_program(text)
        again = str(module)
        assert printed in again.replace("1.000000e+00", "1.0"), again[:200]
        (parsed,) = list(parse_program(again).ops)
        assert np.array_equal(dense_array(parsed.initial_value), values)


# ---- dense_resource ---------------------------------------------------------------------------
def _resource_module(blob: str, element: str = "f32", shape: str = "2x3") -> str:
    return f"""
memref.global "private" constant @w : memref<{shape}x{element}> = dense_resource<weights> {{alignment = 64 : i64}}
func.func @main(%out: memref<{shape}x{element}>) {{
  %w = memref.get_global @w : memref<{shape}x{element}>
  memref.copy %w, %out : memref<{shape}x{element}> to memref<{shape}x{element}>
  return
}}
{{-#
  dialect_resources: {{
    builtin: {{
      weights: "{blob}"
    }}
  }}
#-}}
"""


def test_dense_resource_is_the_blobs_bytes() -> None:
    values = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
    text = _resource_module("0x04000000" + values.tobytes().hex())
    for engine in ("interp", "compiled"):
        out = np.zeros((2, 3), np.float32)
        heterolayout.run(text, "main", [out], engine=engine)
        assert np.array_equal(out, values)
    # Every parse keeps its own blobs: the handle is not renamed by an earlier parse.
    again = parse_program(text)
    (global_op,) = [op for op in again.ops if op.name == "memref.global"]
    assert np.array_equal(dense_array(global_op.initial_value), values.ravel())


@pytest.mark.parametrize(
    ("blob", "element", "message"),
    [
        (
            "0x04000000" + "00" * 20,
            "f32",
            "dense_resource<weights> holds 20 bytes; tensor<2x3xf32> takes 24",
        ),
        ("0x0400", "f32", "dense_resource<weights>: the blob is not hex data"),
        (
            "0x04000000" + "00" * 6,
            "i4",
            "dense_resource<weights> of i4: blobs of 1-, 8-, 16-, 32- and 64-bit",
        ),
    ],
)
def test_a_bad_blob_is_one_line(blob: str, element: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "model.mlir"
    path.write_text(_resource_module(blob, element))
    done = subprocess.run(
        [sys.executable, "-m", "heterolayout.tools.run", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "memref.global" in lines[0], done.stderr


def test_a_missing_blob_is_named(tmp_path: Path) -> None:
    text = _resource_module("0x04000000" + "00" * 24).replace("weights: ", "other: ")
    with pytest.raises(VerifyException, match=r"dense_resource<weights>: the file has no blob"):
        parse_program(text)


# ---- the input limit --------------------------------------------------------------------------
def test_a_model_larger_than_the_old_limit_runs(native_engine: None, tmp_path: Path) -> None:
    """An MLP's 1 M weights (8 MB as hex: the old 4 MiB limit refused them) run natively."""
    assert MAX_INPUT_BYTES >= 2**30
    rng = np.random.default_rng(0)
    weights = rng.standard_normal((1024, 1024), dtype=np.float32)
    path = tmp_path / "mlp.mlir"
    path.write_text(
        f'memref.global "private" constant @w : memref<1024x1024xf32> = '
        f'dense<"0x{weights.tobytes().hex().upper()}">\n'
        """func.func @main(%x: memref<4x1024xf32>, %y: memref<4x1024xf32>) {
  %w = memref.get_global @w : memref<1024x1024xf32>
  layout.assign %w to #layout.tag<"KN->NK"> : memref<1024x1024xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<4x1024xf32>)
  linalg.matmul ins(%x, %w : memref<4x1024xf32>, memref<1024x1024xf32>) outs(%y : memref<4x1024xf32>)
  return
}
"""
    )
    assert path.stat().st_size > 8 * 2**20
    lowered = tmp_path / "lowered.mlir"
    done = subprocess.run(
        [sys.executable, "-m", "heterolayout.tools.opt", str(path), "-p", "layout-lower"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lowered.write_text(done.stdout)
    x = rng.standard_normal((4, 1024), dtype=np.float32)
    y = np.zeros((4, 1024), np.float32)
    heterolayout.run(lowered.read_text(), "main", [x, y], engine="native")
    np.testing.assert_allclose(y, x.astype(np.float64) @ weights, rtol=1e-4, atol=1e-3)
