"""`layout-schedule` keeps every result bit for bit.

- Every example (globbed) checked after `layout-schedule,layout-lower` in both engines
  (`check` compares every memref argument by its bits against the unscheduled program, on
  random non-integer data, so a changed summation order shows), for the AVX-512 and the
  AVX2 defaults.
- Every cross-check program after `layout-schedule,layout-lower` prints exactly its numpy
  expectation in both engines.
- Natively: each scheduling example wrapped in a `main` that fills its arguments with
  inexact floats and prints every element's bits; upstream mlir-runner prints the same bits
  after `layout-lower` alone and after `layout-schedule,layout-lower` (both targets), and
  the compiled engine prints them too.
- The check is sharp: `fma=true` and `reassociate=true` (which may change rounding) are
  caught as mismatches on the convolution.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import heterolayout
from heterolayout.dialects.context import parse_program
from heterolayout.passes.pipeline import apply_pipeline
from heterolayout.passes.schedule.register_tiling import tile_counts, tile_fits
from tests.crosscheck_programs import PROGRAMS, describe_mismatches, layout_opt, parse_output
from tests.paths import REPOSITORY
from tests.tools.test_examples import examples_slow_in_python, skip_python_engine_on_a_layer

EXAMPLES = sorted((REPOSITORY / "examples").glob("*.mlir"))
PIPELINES = {
    "avx512": "layout-schedule,layout-lower",
    "avx2": "layout-schedule{target=avx2},layout-lower",
}
SCHEDULED = [
    "conv2d_blocked_schedule",
    "conv2d_nhwc_schedule",
    "depthwise_conv_schedule",
    "matmul_schedule",
    "matmul_blocked",
    "crouton_reduction",
    "crouton_eltwise",
]


def example(name: str) -> Path:
    return next(p for p in EXAMPLES if p.stem == name)


@pytest.mark.parametrize("target", PIPELINES)
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_are_bitwise_identical_after_schedule_compiled(path: Path, target: str) -> None:
    skip_python_engine_on_a_layer(path, "compiled")
    report = heterolayout.check(path.read_text(), pipeline=PIPELINES[target], seed=3)
    assert report.equal, str(report)
    assert report.compared > 0


@pytest.mark.parametrize("path", examples_slow_in_python())
def test_examples_are_bitwise_identical_after_schedule_interp(path: Path) -> None:
    skip_python_engine_on_a_layer(path, "interp")
    report = heterolayout.check(path.read_text(), pipeline=PIPELINES["avx2"], engine="interp")
    assert report.equal, str(report)


@pytest.mark.parametrize("options", ["fma=true", "reassociate=true"])
def test_rounding_options_are_caught_by_the_check(options: str) -> None:
    report = heterolayout.check(
        example("conv2d_blocked_schedule").read_text(),
        pipeline=f"layout-schedule{{target=avx2 {options}}},layout-lower",
    )
    assert not report.equal
    assert "argument 2" in str(report)


def test_the_scheduled_examples_are_really_scheduled() -> None:
    """The examples above would pass trivially if the pass left them alone."""
    for name in SCHEDULED:
        module = apply_pipeline(parse_program(example(name).read_text(), name), PIPELINES["avx2"])
        text = str(module)
        assert "vector.load" in text or "vector_load" in text, name
        assert "vector.from_elements" not in text, name


@pytest.mark.parametrize("engine", ["compiled", "interp"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_crosscheck_programs_print_numpy_after_schedule(name: str, engine: str) -> None:
    program = PROGRAMS[name]
    result = layout_opt(program.text, "-p", PIPELINES["avx512"])
    assert result.returncode == 0, result.stderr
    output = heterolayout.run(result.stdout, "main", [], engine=engine, capture=True).output
    assert output is not None
    actual = parse_output(output)
    assert actual == program.expected, describe_mismatches(program.expected, actual)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_crosscheck_programs_run_natively_after_schedule(name: str, native_runner) -> None:
    program = PROGRAMS[name]
    result = layout_opt(program.text, "-p", PIPELINES["avx512"])
    assert result.returncode == 0, result.stderr
    actual = parse_output(native_runner(result.stdout))
    assert actual == program.expected, describe_mismatches(program.expected, actual)


# ---- native bit-for-bit ------------------------------------------------------------------------
def wrapped(name: str) -> str:
    """The example's @main renamed @kernel, and a @main that fills every memref argument
    with inexact values, calls it, and prints every element's bits."""
    text = example(name).read_text().replace("func.func @main(", "func.func @kernel(", 1)
    module = parse_program(text, name)
    kernel = next(
        op
        for op in module.walk()
        if getattr(op, "sym_name", None) is not None and op.sym_name.data == "kernel"
    )  # type: ignore[union-attr]
    types = list(kernel.function_type.inputs.data)  # type: ignore[union-attr]
    lines = ["func.func @main() {"]
    for number, memref_type in enumerate(types):
        lines.append(f"  %m{number} = memref.alloc() : {memref_type}")
        lines += _nest(memref_type, number, _fill)
    operands = ", ".join(f"%m{n}" for n in range(len(types)))
    lines.append(f"  func.call @kernel({operands}) : ({', '.join(map(str, types))}) -> ()")
    for number, memref_type in enumerate(types):
        lines += _nest(memref_type, number, _print)
    lines += ["  func.return", "}"]
    return text + "\n" + "\n".join(lines) + "\n"


def _nest(memref_type, number: int, body) -> list[str]:  # type: ignore[no-untyped-def]
    shape = memref_type.get_shape()
    ivs = [f"%i{number}_{d}" for d in range(len(shape))]
    lines = [
        f"  {'  ' * d}affine.for {iv} = 0 to {e} {{"
        for d, (iv, e) in enumerate(zip(ivs, shape, strict=True))
    ]
    strides = [math.prod(shape[d + 1 :]) for d in range(len(shape))]
    dims = ", ".join(f"d{d}" for d in range(len(shape)))
    linear = " + ".join(f"d{d} * {s}" for d, s in enumerate(strides))
    indent = "  " * (len(shape) + 1)
    lines.append(
        f"{indent}%at{number} = affine.apply affine_map<({dims}) -> (({linear}) * 37 mod 101)>({', '.join(ivs)})"
    )
    lines += body(memref_type, number, ", ".join(ivs), indent)
    lines += [f"  {'  ' * d}}}" for d in reversed(range(len(shape)))]
    return lines


def _fill(memref_type, number: int, index: str, indent: str) -> list[str]:  # type: ignore[no-untyped-def]
    element = str(memref_type.element_type)
    lines = [f"{indent}%n{number} = arith.index_cast %at{number} : index to i32"]
    if element == "f32":
        lines += [
            f"{indent}%f{number} = arith.sitofp %n{number} : i32 to f32",
            f"{indent}%seven{number} = arith.constant -7.3 : f32",
            f"{indent}%v{number} = arith.divf %f{number}, %seven{number} : f32",
        ]
    else:
        lines.append(f"{indent}%v{number} = arith.trunci %n{number} : i32 to {element}")
    lines.append(f"{indent}memref.store %v{number}, %m{number}[{index}] : {memref_type}")
    return lines


def _print(memref_type, number: int, index: str, indent: str) -> list[str]:  # type: ignore[no-untyped-def]
    element = str(memref_type.element_type)
    lines = [f"{indent}%x{number} = memref.load %m{number}[{index}] : {memref_type}"]
    if element == "f32":
        lines += [
            f"{indent}%b{number} = arith.bitcast %x{number} : f32 to i32",
            f'{indent}"vector.print"(%b{number}) : (i32) -> ()',
        ]
    else:
        lines.append(f'{indent}"vector.print"(%x{number}) : ({element}) -> ()')
    return lines


@pytest.mark.slow
@pytest.mark.parametrize("name", SCHEDULED)
def test_native_results_are_bitwise_identical_after_schedule(name: str, native_runner) -> None:
    text = wrapped(name)
    outputs = {}
    for label, pipeline in (("lower", "layout-lower"), *PIPELINES.items()):
        result = layout_opt(text, "-p", pipeline)
        assert result.returncode == 0, result.stderr
        outputs[label] = native_runner(result.stdout)
    engine = heterolayout.run(text, "main", [], engine="compiled", capture=True).output
    assert outputs["lower"] == outputs["avx512"] == outputs["avx2"] == engine
    assert len(outputs["lower"].splitlines()) > 100


def test_target_host_is_the_cpus_own_target() -> None:
    from heterolayout.passes.schedule.layout_schedule import TARGETS, host_target

    assert host_target() in TARGETS
    text = example("conv2d_blocked_schedule").read_text()
    host = layout_opt(text, "-p", "layout-schedule{target=host}")
    named = layout_opt(text, "-p", f"layout-schedule{{target={host_target()}}}")
    assert host.returncode == named.returncode == 0
    assert host.stdout == named.stdout


@pytest.mark.parametrize(("forced", "lanes"), [("avx2", 8), ("avx512", 16)])
def test_the_host_query_can_be_forced(monkeypatch, forced: str, lanes: int) -> None:
    from heterolayout.passes.schedule.layout_schedule import HOST_TARGET_VARIABLE

    monkeypatch.setenv(HOST_TARGET_VARIABLE, forced)
    text = example("conv2d_blocked_schedule").read_text()
    host = layout_opt(text, "-p", "layout-schedule{target=host}")
    assert host.returncode == 0, host.stderr
    assert f"vector<{lanes}xf32>" in host.stdout
    assert f"vector<{24 - lanes}xf32>" not in host.stdout
    assert host.stdout == layout_opt(text, "-p", f"layout-schedule{{target={forced}}}").stdout
    assert host.stdout == layout_opt(text, "-p", "layout-schedule").stdout, "default: the host's"


def test_an_unknown_forced_host_target_is_one_line(monkeypatch) -> None:
    monkeypatch.setenv("HETEROLAYOUT_HOST_TARGET", "avx1024")
    text = example("conv2d_blocked_schedule").read_text()
    result = layout_opt(text, "-p", "layout-schedule{target=host}")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == (
        "layout-schedule: target=host: HETEROLAYOUT_HOST_TARGET=avx1024: expected one of "
        "avx512, avx2, sse, neon\n"
    )


def _loads(available: int, along: int, steps: int, across: int) -> float:
    """Operand loads per multiply-add over the whole nest, tile by tile."""
    loads = products = 0
    for start_u in range(0, available, along):
        for start_w in range(0, steps, across):
            u, w = min(along, available - start_u), min(across, steps - start_w)
            loads, products = loads + u + w, products + u * w
    return loads / products


@pytest.mark.parametrize(
    ("available", "block", "steps", "registers", "fused", "expected"),
    [
        (8, 2, 54, 16, True, (4, 3)),  # conv in nChw16c, AVX2, fused: 32 channels x 3 columns
        (8, 2, 54, 16, False, (2, 5)),  # the same, exact: 16 x 5 (16 x 6 spills)
        (4, 1, 54, 32, True, (2, 9)),  # AVX-512: 32 channels x 9 columns
        (4, 1, 54, 32, False, (2, 9)),  # the same, exact
        (64, 2, 512, 16, True, (4, 3)),  # matmul, B in 16-column panels
        (3, 1, 20, 32, True, (3, 7)),  # AVX-512, 48 channels: all three vectors x 7 columns
        (5, 1, 20, 32, True, (2, 7)),  # 80 channels: three would leave a tile of two
    ],
)
def test_the_default_register_tile(
    available: int, block: int, steps: int, registers: int, fused: bool, expected: tuple[int, int]
) -> None:
    assert tile_counts(available, block, steps, registers, fused) == expected


def test_the_default_register_tile_is_the_cheapest_that_fits() -> None:
    """Against a brute force over every tile: it fits, respects the block, and no other
    tile that does loads fewer operands per multiply-add."""
    for available in range(1, 10):
        for block in (1, 2, 4):
            for steps in (1, 2, 5, 9, 54):
                for registers, fused in ((16, True), (16, False), (32, True), (32, False)):
                    along, across = tile_counts(available, block, steps, registers, fused)
                    whole = along == available
                    fits = tile_fits(along, across, registers, fused, whole)
                    assert fits or (along, across) == (1, 1)
                    allowed = [
                        (u, w)
                        for u in range(1, available + 1)
                        for w in range(1, steps + 1)
                        if tile_fits(u, w, registers, fused, u == available)
                        and (block == 1 or u % block == 0 or block % u == 0 or u == available)
                    ]
                    best = min(_loads(available, u, steps, w) for u, w in allowed)
                    assert math.isclose(_loads(available, along, steps, across), best)
