"""linalg named ops on `i1` mean what upstream MLIR 22's region builder makes of them.

Upstream builds a named op's body with `RegionBuilderHelper::buildBinaryFn`
(mlir/lib/Dialect/Linalg/IR/LinalgOps.cpp): on bools `add` is `arith.ori` and `mul` is
`arith.andi` (so a matmul of i1 is an or of ands, not a sum modulo 2), `max`/`min` are the
signed `arith.maxsi`/`minsi` (true is -1), inputs are cast to the output's type with
`cast_signed` (`arith.extsi`: true becomes -1), and `sub` of bools is refused. Each op here
runs on the interp and compiled engines, unlowered and after `layout-lower` with layouts on
its operands (heterolayout's own loops), and under stock `mlir-opt-22` + `mlir-runner-22`;
all print what numpy computes from those rules.
"""

from __future__ import annotations

import numpy as np
import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline

RNG = np.random.default_rng(26)


def _bits(shape: tuple[int, ...], density: float = 0.5) -> np.ndarray:
    return RNG.random(shape) < density


def _memref(shape: tuple[int, ...], element: str = "i1") -> str:
    return f"memref<{''.join(f'{e}x' for e in shape)}{element}>"


def _literal(array: np.ndarray) -> str:
    def nested(values: np.ndarray) -> str:
        if values.ndim == 0:
            return ("true" if values else "false") if values.dtype == bool else str(int(values))
        return "[" + ", ".join(nested(v) for v in values) + "]"

    return f"dense<{nested(array)}>"


def _signed(array: np.ndarray) -> np.ndarray:
    """i1 values as `arith` reads them signed (true is -1)."""
    return -array.astype(np.int64)


def _windows(image: np.ndarray, kh: int, kw: int) -> np.ndarray:
    """NCHW image → (N, C, OH, OW, KH, KW) unit-stride windows."""
    n, c, h, w = image.shape
    oh, ow = h - kh + 1, w - kw + 1
    out = np.empty((n, c, oh, ow, kh, kw), dtype=image.dtype)
    for i in range(kh):
        for j in range(kw):
            out[..., i, j] = image[:, :, i : i + oh, j : j + ow]
    return out


A, B, C = _bits((3, 4)), _bits((4, 2)), _bits((3, 2), 0.3)
CI = RNG.integers(-5, 5, (3, 2)).astype(np.int32)
BA, BB, BC = _bits((2, 3, 4)), _bits((2, 4, 2)), _bits((2, 3, 2), 0.3)
V, W, D = _bits((4,)), _bits((3,), 0.3), _bits((), 0.3)
IMG, KER, OUT = _bits((1, 2, 4, 5), 0.6), _bits((3, 2, 2, 2)), _bits((1, 3, 3, 4), 0.3)
DKER, DOUT = _bits((2, 2, 2)), _bits((1, 2, 3, 4), 0.3)
POOL = np.ones((2, 2), bool)
Y = _bits((3, 4))
PINIT = _bits((1, 2, 3, 4), 0.5)

INPUTS: dict[str, np.ndarray] = {
    "a": A, "b": B, "c": C, "ci": CI, "ba": BA, "bb": BB, "bc": BC, "v": V, "w": W, "d": D,
    "img": IMG, "ker": KER, "out": OUT, "dker": DKER, "dout": DOUT, "pool": POOL,
    "psum": PINIT, "pmax": PINIT, "x": A, "y": Y,
}  # fmt: skip
"""Name → initial contents; the outputs are written in place."""

OPS = """
  linalg.matmul ins(%a, %b : memref<3x4xi1>, memref<4x2xi1>) outs(%c : memref<3x2xi1>)
  linalg.matmul ins(%a, %b : memref<3x4xi1>, memref<4x2xi1>) outs(%ci : memref<3x2xi32>)
  linalg.batch_matmul ins(%ba, %bb : memref<2x3x4xi1>, memref<2x4x2xi1>) outs(%bc : memref<2x3x2xi1>)
  linalg.matvec ins(%a, %v : memref<3x4xi1>, memref<4xi1>) outs(%w : memref<3xi1>)
  linalg.dot ins(%v, %v : memref<4xi1>, memref<4xi1>) outs(%d : memref<i1>)
  linalg.conv_2d_nchw_fchw ins(%img, %ker : memref<1x2x4x5xi1>, memref<3x2x2x2xi1>) outs(%out : memref<1x3x3x4xi1>)
  linalg.depthwise_conv_2d_nchw_chw ins(%img, %dker : memref<1x2x4x5xi1>, memref<2x2x2xi1>) outs(%dout : memref<1x2x3x4xi1>)
  linalg.pooling_nchw_sum ins(%img, %pool : memref<1x2x4x5xi1>, memref<2x2xi1>) outs(%psum : memref<1x2x3x4xi1>)
  linalg.pooling_nchw_max ins(%img, %pool : memref<1x2x4x5xi1>, memref<2x2xi1>) outs(%pmax : memref<1x2x3x4xi1>)
  linalg.add ins(%x, %y : memref<3x4xi1>, memref<3x4xi1>) outs(%x : memref<3x4xi1>)
  linalg.mul ins(%a, %y : memref<3x4xi1>, memref<3x4xi1>) outs(%y : memref<3x4xi1>)
"""
OUTPUTS = ("c", "ci", "bc", "w", "d", "out", "dout", "psum", "pmax", "x", "y")

LAYOUTS = {
    "c": '#layout.tag<"MN->NM">',
    "a": '#layout.tag<"MK->Mk2k">',
    "bc": '#layout.tag<"BMN->BNM">',
    "out": '#layout.tag<"NCHW->nChw2c">',
    "img": '#layout.tag<"NCHW->NHWC">',
    "psum": '#layout.tag<"NCHW->NCWH">',
    "x": '#layout.tag<"MN->NM", pack = i8>',
}
"""Layouts `layout.assign`ed in the lowered variant (packed bits too)."""


def expected() -> dict[str, np.ndarray]:
    conv = np.einsum("ncijkl,fckl->nfij", _windows(IMG, 2, 2).astype(int), KER.astype(int)) > 0
    depthwise = np.einsum("ncijkl,ckl->ncij", _windows(IMG, 2, 2).astype(int), DKER.astype(int)) > 0
    windows = _signed(_windows(IMG, 2, 2))
    return {
        "c": C | ((A.astype(int) @ B.astype(int)) > 0),
        # extsi: true is -1, so each product of two trues is +1
        "ci": CI + _signed(A) @ _signed(B),
        "bc": BC | (np.einsum("bmk,bkn->bmn", BA.astype(int), BB.astype(int)) > 0),
        "w": W | ((A.astype(int) @ V.astype(int)) > 0),
        "d": D | bool((V & V).any()),
        "out": OUT | conv,
        "dout": DOUT | depthwise,
        "psum": PINIT | _windows(IMG, 2, 2).any(axis=(4, 5)),
        # maxsi of -1/0: true only where the output and every element of the window are true
        "pmax": np.maximum(_signed(PINIT), windows.max(axis=(4, 5))) != 0,
        "x": A | Y,
        "y": A & Y,
    }


def program(layouts: bool = False) -> str:
    """@main: every operand a copy of a constant global, the ops, then each output printed
    element by element (i1 as 0/1 through `arith.extui`, i32 as it is)."""
    lines = [
        "func.func @main() {",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
    ]
    globals_ = []
    extents = sorted({e for a in INPUTS.values() for e in a.shape})
    lines += [f"  %k{e} = arith.constant {e} : index" for e in extents if e not in (0, 1)]
    for name, array in INPUTS.items():
        element = "i1" if array.dtype == bool else "i32"
        memref_type = _memref(array.shape, element)
        globals_.append(
            f'memref.global "private" constant @g_{name} : {memref_type} = {_literal(array)}'
        )
        lines.append(f"  %g_{name} = memref.get_global @g_{name} : {memref_type}")
        lines.append(f"  %{name} = memref.alloc() : {memref_type}")
        if layouts and name in LAYOUTS:
            lines.append(f"  layout.assign %{name} to {LAYOUTS[name]} : {memref_type}")
        lines.append(f"  memref.copy %g_{name}, %{name} : {memref_type} to {memref_type}")
    lines += OPS.strip("\n").splitlines()
    for name in OUTPUTS:
        array = INPUTS[name]
        element = "i1" if array.dtype == bool else "i32"
        indices = [f"%{name}_i{d}" for d in range(array.ndim)]
        for d, extent in enumerate(array.shape):
            bound = "%c1" if extent == 1 else f"%k{extent}"
            lines.append(f"  {'  ' * d}scf.for {indices[d]} = %c0 to {bound} step %c1 {{")
        pad = "  " * (array.ndim + 1)
        lines.append(
            f"{pad}%{name}_v = memref.load %{name}[{', '.join(indices)}] : {_memref(array.shape, element)}"
        )
        value = f"%{name}_v"
        if element == "i1":
            lines.append(f"{pad}%{name}_x = arith.extui %{name}_v : i1 to i32")
            value = f"%{name}_x"
        lines.append(f"{pad}vector.print {value} : i32")
        lines += [f"  {'  ' * d}}}" for d in reversed(range(array.ndim))]
    lines += ["  return", "}"]
    return "\n".join(globals_ + lines) + "\n"


def _expected_text() -> str:
    values = expected()
    return "".join(f"{int(v)}\n" for name in OUTPUTS for v in np.asarray(values[name]).reshape(-1))


def test_the_expectation_is_not_a_sum_modulo_2() -> None:
    """The data makes `addi` (xor) and `ori` differ: some outputs sum two or more trues."""
    products = (A.astype(int) @ B.astype(int)) + C
    assert (products >= 2).any()


@pytest.mark.parametrize("engine", ["interp", "compiled"])
def test_engines_run_named_ops_on_bools_as_upstream(engine: str) -> None:
    output = heterolayout.run(program(), engine=engine, capture=True).output
    assert output == _expected_text()


@pytest.mark.parametrize("engine", ["interp", "compiled"])
def test_heterolayout_loops_of_named_ops_on_bools_are_upstream_s(engine: str) -> None:
    """`layout-lower` rewrites the named ops on layout-typed operands into its own loops,
    from the ops' bodies: `arith.ori` / `arith.andi`, never `arith.addi` on i1."""
    lowered = apply_pipeline(parse_program(program(layouts=True)), "layout-lower")
    text = str(lowered)
    assert "linalg.matmul" not in text and "arith.ori" in text and "arith.andi" in text
    assert not [line for line in text.splitlines() if "arith.addi" in line and ": i1" in line]
    assert heterolayout.run(lowered, engine=engine, capture=True).output == _expected_text()


def test_named_ops_on_bools_under_stock_upstream(native_runner) -> None:  # type: ignore[no-untyped-def]
    assert native_runner(program()) == _expected_text()
    lowered = str(apply_pipeline(parse_program(program(layouts=True)), "layout-lower"))
    assert native_runner(lowered) == _expected_text()


def test_sub_of_bools_is_refused_as_upstream_refuses_it() -> None:
    text = """func.func @f(%a: memref<2xi1>, %b: memref<2xi1>) {
  linalg.sub ins(%a, %b : memref<2xi1>, memref<2xi1>) outs(%b : memref<2xi1>)
  func.return
}"""
    with pytest.raises(Exception, match=r"linalg.sub: sub of i1 \(bools\) is not supported"):
        parse_program(text)


def test_matmul_casts_its_inputs_to_the_output_type() -> None:
    """i8 × i8 into i32 (xDSL's body cast nothing and did not verify)."""
    text = """func.func @main(%a: memref<1x2xi8>, %b: memref<2x1xi8>, %c: memref<1x1xi32>) {
  linalg.matmul ins(%a, %b : memref<1x2xi8>, memref<2x1xi8>) outs(%c : memref<1x1xi32>)
  func.return
}"""
    a, b = np.full((1, 2), 100, np.int8), np.full((2, 1), -100, np.int8)
    for engine in ("interp", "compiled"):
        c = np.array([[7]], np.int32)
        heterolayout.run(text, "main", [a, b, c], engine=engine)
        assert c.tolist() == [[7 - 20000]]


TRANSPOSED_MATMUL = """func.func @main(%a: memref<3x2xi32>, %b: memref<3x4xi32>, %c: memref<2x4xi32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : memref<3x2xi32>, memref<3x4xi32>) outs(%c : memref<2x4xi32>)
  func.return
}"""


def test_matmul_keeps_user_indexing_maps_in_upstream_syntax(native_runner) -> None:  # type: ignore[no-untyped-def]
    """`indexing_maps = [...]` (a transposed A) parses, prints back as upstream writes it
    (xDSL's printer dropped it: the printed module computed A·B instead of Aᵀ·B), and runs
    as numpy's Aᵀ·B on both engines, lowered onto layouts too, and under stock upstream."""
    printed = str(parse_program(TRANSPOSED_MATMUL))
    assert "linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>" in printed
    a = RNG.integers(-9, 9, (3, 2)).astype(np.int32)
    b = RNG.integers(-9, 9, (3, 4)).astype(np.int32)
    expected = a.T @ b
    for engine in ("interp", "compiled"):
        c = np.zeros((2, 4), np.int32)
        heterolayout.run(printed, "main", [a, b, c], engine=engine)
        assert c.tolist() == expected.tolist()
    laid_out = (
        TRANSPOSED_MATMUL.replace(
            "outs(%c : memref<2x4xi32>)", 'outs(%t : memref<2x4xi32, #layout.tag<"MN->NM">>)'
        )
        .replace(
            "  func.return",
            '  memref.copy %t, %c : memref<2x4xi32, #layout.tag<"MN->NM">> to memref<2x4xi32>\n'
            "  func.return",
        )
        .replace(
            "  linalg.matmul",
            '  %t = memref.alloc() : memref<2x4xi32, #layout.tag<"MN->NM">>\n'
            '  memref.copy %c, %t : memref<2x4xi32> to memref<2x4xi32, #layout.tag<"MN->NM">>\n'
            "  linalg.matmul",
        )
    )
    assert heterolayout.check(laid_out, engine="compiled").equal
    program = "\n".join(
        [
            f'memref.global "private" constant @ga : memref<3x2xi32> = {_literal(a)}',
            f'memref.global "private" constant @gb : memref<3x4xi32> = {_literal(b)}',
            TRANSPOSED_MATMUL,
            """func.func @entry() {
  %a = memref.get_global @ga : memref<3x2xi32>
  %b = memref.get_global @gb : memref<3x4xi32>
  %c = memref.alloc() : memref<2x4xi32>
  %z = arith.constant 0 : i32
  linalg.fill ins(%z : i32) outs(%c : memref<2x4xi32>)
  func.call @main(%a, %b, %c) : (memref<3x2xi32>, memref<3x4xi32>, memref<2x4xi32>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %c[%i, %j] : memref<2x4xi32>
      vector.print %v : i32
    }
  }
  return
}""",
        ]
    )
    printed_program = str(parse_program(program))  # what layout-opt prints, run by upstream
    values = [int(v) for v in native_runner(printed_program, entry="entry").split()]
    assert values == expected.reshape(-1).tolist()
