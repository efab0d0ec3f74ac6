"""Target layouts end to end on upstream MLIR 22: `layout-opt -p layout-lower`, then
`mlir-runner`, checked against numpy.

Each program fills a buffer of one target layout from a plain global (`layout.convert`),
computes element by element into a second target layout that lives in a global, and prints
the result converted back to a plain buffer. The test then dumps that global's *physical*
buffer from the lowered program, so the run shows both what the program computes (the
logical result) and where every element landed (lane or bank, offset, pad slots, packed
words), each compared with a placement written out here from the seed's formulas, never
with the Layout model.
"""

from __future__ import annotations

import math
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

Index = tuple[int, ...]
Place = Callable[[np.ndarray], tuple[np.ndarray, ...]]

_PRINTERS = {"f32": "printMemrefF32", "i32": "printMemrefI32"}
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


@dataclass(frozen=True)
class TargetProgram:
    name: str
    shape: Index
    element: str
    source: str
    """The layout of the buffer filled from the input."""
    result: str
    """The layout of the result global (its pad shows in the physical dump)."""
    physical: Index
    """The result global's storage shape after lowering."""
    place: Place
    """Hand-written placement of the result: logical index grids → physical coordinates."""
    pad: float
    compute: str
    """MLIR computing %z from %x (the element read from the source buffer)."""
    expected: Callable[[np.ndarray], np.ndarray]
    word: int = 1
    """Elements packed into one i32 word of the result (the 4N mode), else 1."""


def tpu_place(lanes: int, start: int, strides: tuple[int, int, int, int]) -> Place:
    ns, cs, hs, ws = strides
    return lambda g: (
        (start + g[1]) % lanes,
        g[0] * ns + ((start + g[1]) // lanes) * cs + g[2] * hs + g[3] * ws,
    )


PROGRAMS = [
    TargetProgram(
        name="tpu_seed_strides_to_aligned",
        shape=(2, 5, 3, 4),
        element="f32",
        source="#layout.tpu<lanes = 4, start = 0, stride = [120, 56, 16, 2]>",
        # C = 5 from lane 2: ceil(7/4) = 2 channel rows, C stride ceil(12/32)·32, N stride 64.
        result="#layout.tpu<lanes = 4, start = 2, stride = aligned, pad = -1.5>",
        physical=(4, 128),
        place=tpu_place(4, 2, (64, 32, 4, 1)),
        pad=-1.5,
        compute="%y = arith.mulf %x, %two : f32\n        %z = arith.addf %y, %one : f32",
        expected=lambda a: a * 2 + 1,
    ),
    TargetProgram(
        name="tpu_matrix_w15_to_w6",
        shape=(2, 40),
        element="f32",
        source="#layout.tpu<lanes = 4, matrix = 15>",
        # W = 6: C = 7 channels, 2 rows per lane, C stride 32, one matrix row = 64 blocks.
        result="#layout.tpu<lanes = 4, matrix = 6, pad = -1.5>",
        physical=(4, 128),
        place=lambda g: ((g[1] // 6) % 4, g[0] * 64 + ((g[1] // 6) // 4) * 32 + g[1] % 6),
        pad=-1.5,
        compute="%z = arith.subf %x, %one : f32",
        expected=lambda a: a - 1,
    ),
    TargetProgram(
        name="partition_cyclic_block_to_complete_cyclic",
        shape=(6, 8),
        element="i32",
        source="#layout.partition<[cyclic, block], dims = [0, 1], factor = [2, 4]>",
        # complete on dim 1 (8 banks) then cyclic 4 on dim 0 (ceil(6/4) = 2 per bank).
        result="#layout.partition<[complete, cyclic], dims = [1, 0], factor = [8, 4], pad = -7>",
        physical=(8, 4, 2, 1),
        place=lambda g: (g[1], g[0] % 4, g[0] // 4, np.zeros_like(g[0])),
        pad=-7,
        compute="%y = arith.muli %x, %three : i32\n        %z = arith.subi %y, %five : i32",
        expected=lambda a: a * 3 - 5,
    ),
    TargetProgram(
        name="tpu_compact_to_4n_packed",
        shape=(6, 5, 4, 5),
        element="i8",
        source="#layout.tpu<lanes = 4, start = 1, stride = compact>",
        # 4N: (6,5,4,5) int8 as (2,5,4,5) int8x4 words; C stride 32, N stride 64, M = 2.
        result='#layout.tpu<lanes = 4, mode = "4N", pack = i32>',
        physical=(4, 128),
        place=lambda g: (
            g[1] % 4,
            (g[0] // 4) * 64 + (g[1] // 4) * 32 + g[2] * 5 + g[3],
            g[0] % 4,
        ),
        pad=0,
        compute="%z = arith.addi %x, %seven : i8",
        expected=lambda a: (a.astype(np.int64) + 7).astype(np.int8),
        word=4,
    ),
]


def memref(shape: Index, element: str, layout: str | None = None) -> str:
    dims = "x".join(str(e) for e in shape)
    return f"memref<{dims}x{element}" + (f", {layout}>" if layout else ">")


def input_values(program: TargetProgram) -> np.ndarray:
    linear = np.arange(math.prod(program.shape)).reshape(program.shape)
    if program.element == "f32":
        return (linear % 97) * 0.5 - 20.0
    if program.element == "i8":
        return (linear * 37 % 256 - 128).astype(np.int8)
    return linear * 11 - 100


def dense(values: np.ndarray, element: str) -> str:
    def nested(array: np.ndarray) -> str:
        if array.ndim == 0:
            value = array.item()
            return repr(float(value)) if element == "f32" else str(int(value))
        return "[" + ", ".join(nested(a) for a in array) + "]"

    return f"dense<{nested(values)}> : tensor<{'x'.join(map(str, values.shape))}x{element}>"


def program_text(program: TargetProgram) -> str:
    shape, element = program.shape, program.element
    plain, source, result = (
        memref(shape, element),
        memref(shape, element, program.source),
        memref(shape, element, program.result),
    )
    zero = "0.0" if element == "f32" else "0"
    loops_open, loops_close, indices = [], [], []
    for dim, extent in enumerate(shape):
        pad = "  " * dim
        loops_open.append(f"    {pad}scf.for %i{dim} = %c0 to %c{extent} step %c1 {{")
        loops_close.insert(0, f"    {pad}}}")
        indices.append(f"%i{dim}")
    index = ", ".join(indices)
    body = "  " * len(shape)
    extents = sorted({*shape, 1})
    constants = "\n".join(f"    %c{e} = arith.constant {e} : index" for e in extents if e != 1)
    scalars = {
        "f32": "    %one = arith.constant 1.0 : f32\n    %two = arith.constant 2.0 : f32",
        "i32": "    %three = arith.constant 3 : i32\n    %five = arith.constant 5 : i32",
        "i8": "    %seven = arith.constant 7 : i8",
    }[element]
    compute = program.compute.replace("\n        ", f"\n    {body}")
    return f"""
"memref.global"() <{{sym_name = "input", sym_visibility = "private", type = {plain}, initial_value = {dense(input_values(program), element)}, constant}}> : () -> ()
"memref.global"() <{{sym_name = "out", sym_visibility = "private", type = {result}, initial_value = dense<{zero}> : tensor<{"x".join(map(str, shape))}x{element}>}}> : () -> ()
func.func private @{_PRINTERS[_printed(element)]}(memref<*x{_printed(element)}>) attributes {{llvm.emit_c_interface}}
func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
{constants}
{scalars}
    %in = memref.get_global @input : {plain}
    %a = memref.alloc() : {source}
    layout.convert %in to %a : {plain} to {source}
    %out = memref.get_global @out : {result}
{chr(10).join(loops_open)}
    {body}%x = memref.load %a[{index}] : {source}
    {body}{compute}
    {body}memref.store %z, %out[{index}] : {result}
{chr(10).join(loops_close)}
    %p = memref.alloc() : {plain}
    layout.convert %out to %p : {result} to {plain}
{_print_plain(shape, element, loops_open, loops_close, index, body)}
    memref.dealloc %a : {source}
    memref.dealloc %p : {plain}
    func.return
}}
"""


def _print_plain(
    shape: Index, element: str, loops_open: list[str], loops_close: list[str], index: str, body: str
) -> str:
    """Print %p; i8 widened to i32 first (printMemrefI8 prints characters)."""
    plain = memref(shape, element)
    if element != "i8":
        return (
            f'    %u = "memref.cast"(%p) : ({plain}) -> memref<*x{element}>\n'
            f"    func.call @{_PRINTERS[element]}(%u) : (memref<*x{element}>) -> ()"
        )
    wide = memref(shape, "i32")
    return "\n".join(
        [
            f"    %wide = memref.alloc() : {wide}",
            *loops_open,
            f"    {body}%e = memref.load %p[{index}] : {plain}",
            f"    {body}%f = arith.extsi %e : i8 to i32",
            f"    {body}memref.store %f, %wide[{index}] : {wide}",
            *loops_close,
            f'    %u = "memref.cast"(%wide) : ({wide}) -> memref<*xi32>',
            "    func.call @printMemrefI32(%u) : (memref<*xi32>) -> ()",
            f"    memref.dealloc %wide : {wide}",
        ]
    )


def _printed(element: str) -> str:
    return "i32" if element == "i8" else element


def with_physical_dump(lowered: str, program: TargetProgram) -> str:
    """The lowered module plus @entry: run @main, then print the result global's buffer."""
    storage = "i32" if program.word > 1 else program.element
    physical = memref(program.physical, storage)
    entry = f"""
  func.func @entry() {{
    func.call @main() : () -> ()
    %g = memref.get_global @out : {physical}
    %u = memref.cast %g : {physical} to memref<*x{storage}>
    func.call @{_PRINTERS[storage]}(%u) : (memref<*x{storage}>) -> ()
    func.return
  }}
"""
    if storage != _printed(program.element):
        entry += f"  func.func private @{_PRINTERS[storage]}(memref<*x{storage}>) attributes {{llvm.emit_c_interface}}\n"
    body = lowered.rstrip()
    assert body.endswith("}"), body[-200:]
    return body[:-1] + entry + "}\n"


def printed_memrefs(stdout: str) -> list[tuple[Index, np.ndarray]]:
    """Every printMemref dump of the output: its sizes and its data."""
    dumps = []
    for block in stdout.split("Unranked Memref")[1:]:
        sizes = re.search(r"sizes = \[([^\]]*)\]", block)
        assert sizes is not None, block
        shape = tuple(int(s) for s in sizes.group(1).split(",") if s.strip())
        data = block.split("data =", 1)[1]
        dumps.append((shape, np.array([float(t) for t in _NUMBER.findall(data)])))
    return dumps


def expected_physical(program: TargetProgram, result: np.ndarray) -> np.ndarray:
    """The result global's buffer, from the hand placement (4N: bytes into i32 words)."""
    grids = np.indices(program.shape)
    coordinates = program.place(grids)
    if program.word == 1:
        buffer = np.full(program.physical, program.pad, dtype=np.float64)
        buffer[coordinates] = result
        return buffer
    lanes = np.zeros((*program.physical, program.word), dtype=np.int64)
    lanes[coordinates] = result.astype(np.int64) & 0xFF
    words = sum(lanes[..., j] << (8 * j) for j in range(program.word))
    return np.where(words >= 1 << 31, words - (1 << 32), words).astype(np.float64)


def layout_lower(text: str) -> str:
    proc = subprocess.run(
        ["layout-opt", "-p", "layout-lower"],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, f"layout-lower failed:\n{proc.stderr}"
    assert re.search(r"#layout|\blayout\.", proc.stdout) is None, proc.stdout
    return proc.stdout


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_target_program_runs_natively(program: TargetProgram, native_runner) -> None:  # type: ignore[no-untyped-def]
    lowered = layout_lower(program_text(program))
    storage = "i32" if program.word > 1 else program.element
    assert memref(program.physical, storage) in lowered  # the global is stored physically
    stdout = native_runner(with_physical_dump(lowered, program), entry="entry")
    (logical_shape, logical), (physical_shape, physical) = printed_memrefs(stdout)
    result = program.expected(input_values(program))
    assert logical_shape == program.shape
    assert np.array_equal(logical, result.ravel().astype(np.float64)), stdout[:2000]
    assert physical_shape == program.physical
    expected = expected_physical(program, result)
    assert np.array_equal(physical, expected.ravel()), (
        f"first mismatch at physical index "
        f"{np.unravel_index(int(np.flatnonzero(physical != expected.ravel())[0]), program.physical)}"
    )
