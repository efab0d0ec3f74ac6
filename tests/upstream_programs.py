"""Programs in the ops real inputs use (linalg, views, scf.parallel, cf branches, vector
reductions and transfers), with their numpy meaning, for the engine cross-checks.

Each `Case` is a `@main()` that reads its inputs from constant globals (seeded random
data), computes into buffers it allocates, and prints every output element's bits with
`printMemrefI32` (f32 outputs through `arith.bitcast`), so that engines and mlir-runner
are compared bit for bit and numpy's expectation is read back exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

Arrays = dict[str, np.ndarray]


@dataclass(frozen=True)
class Output:
    name: str
    shape: tuple[int, ...]
    element: str = "f32"


@dataclass(frozen=True)
class Case:
    name: str
    inputs: dict[str, tuple[tuple[int, ...], str]]
    """name → (shape, element): constant globals of seeded random data."""
    body: str
    """MLIR using `%<input>`, defining every output buffer."""
    outputs: tuple[Output, ...]
    expected: Callable[[Arrays], Arrays]
    """numpy's values of the outputs, from the inputs."""
    exact: bool = False
    """Whether numpy's float values must match bit for bit (else to rounding)."""
    extra: str = ""
    """Functions or globals the body uses."""
    seed: int = 0
    tolerance: float = 1e-5
    notes: dict[str, str] = field(default_factory=dict)


def data(case: Case) -> Arrays:
    rng = np.random.default_rng(case.seed)
    arrays: Arrays = {}
    for name, (shape, element) in case.inputs.items():
        if element == "f32":
            arrays[name] = rng.uniform(-1, 1, shape).astype(np.float32)
        else:
            arrays[name] = rng.integers(-50, 50, shape).astype(np.int32)
    return arrays


def _type(shape: tuple[int, ...], element: str) -> str:
    return f"memref<{''.join(f'{e}x' for e in shape)}{element}>"


def _literal(array: np.ndarray) -> str:
    if array.ndim == 0:
        return repr(array.item())
    return "[" + ", ".join(_literal(row) for row in array) + "]"


def _dump(output: Output) -> str:
    """Nested loops copying the output's bits into an i32 buffer, then printMemrefI32."""
    name, shape = output.name, output.shape
    source_type = _type(shape, output.element)
    bits_type = _type(shape, "i32")
    lines = [f"  %{name}_bits = memref.alloc() : {bits_type}"]
    indices = [f"%{name}_i{d}" for d in range(len(shape))]
    for d, extent in enumerate(shape):
        lines.append(f"  %{name}_n{d} = arith.constant {extent} : index")
        lines.append(f"  scf.for {indices[d]} = %c0 to %{name}_n{d} step %c1 {{")
    at = ", ".join(indices)
    lines.append(f"  %{name}_x = memref.load %{name}[{at}] : {source_type}")
    value = f"%{name}_x"
    if output.element == "f32":
        lines.append(f"  %{name}_b = arith.bitcast %{name}_x : f32 to i32")
        value = f"%{name}_b"
    lines.append(f"  memref.store {value}, %{name}_bits[{at}] : {bits_type}")
    lines.extend("  }" for _ in shape)
    lines.append(f"  %{name}_u = memref.cast %{name}_bits : {bits_type} to memref<*xi32>")
    lines.append(f"  func.call @printMemrefI32(%{name}_u) : (memref<*xi32>) -> ()")
    return "\n".join(lines)


def program(case: Case) -> str:
    arrays = data(case)
    globals_ = "\n".join(
        f'memref.global "private" constant @{name} : {_type(a.shape, element)} = dense<{_literal(a)}>'
        for (name, (_, element)), a in zip(case.inputs.items(), arrays.values(), strict=True)
    )
    reads = "\n".join(
        f"  %{name} = memref.get_global @{name} : {_type(shape, element)}"
        for name, (shape, element) in case.inputs.items()
    )
    dumps = "\n".join(_dump(o) for o in case.outputs)
    return f"""{globals_}
func.func private @printMemrefI32(memref<*xi32>) attributes {{llvm.emit_c_interface}}
{case.extra}
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
{reads}
{case.body}
{dumps}
  return
}}
"""


def printed_outputs(text: str, case: Case) -> Arrays:
    """The outputs' values read back from printMemrefI32 dumps of their bits."""
    dumps = text.split("Unranked Memref")[1:]
    assert len(dumps) == len(case.outputs), text
    found: Arrays = {}
    for output, dump in zip(case.outputs, dumps, strict=True):
        values = [int(v) for v in re.findall(r"-?\d+", dump.partition("data =")[2])]
        bits = np.array(values, dtype=np.int64).astype(np.int32).reshape(output.shape)
        found[output.name] = bits.view(np.float32) if output.element == "f32" else bits
    return found


ADDRESS = re.compile(r"base@ = 0x[0-9a-f]+")


def without_addresses(text: str) -> str:
    return ADDRESS.sub("base@ = 0x?", text)
