"""One fuzz case: the program with layouts, run every way, against its plain twin.

The plain program (no layouts) runs on the compiled engine: its printed output is the
reference. The program with layouts must print exactly that when run unlowered on both
engines (a layout never changes what a program computes), and after `layout-lower` with
each option set (index=arith|affine × flatten=false|true, and `layout-schedule` first, as it
is and with `fma=true reassociate=true`) on both engines and, for cases run natively,
compiled by stock upstream MLIR 22 (`mlir-opt-22`
with the README's LLVM pipeline + `mlir-runner-22`, not heterolayout's native engine), the
plain program too unless it accesses vectors of sub-byte integers (`narrow_vector_accesses`:
upstream's own meaning of those differs from the engines'), and then the plain program
through `layout-schedule,layout-lower` as well (`plain-schedule/native`: a module without
layouts keeps the accesses the schedule gives it). Cases run natively also check
`Layout.pack` / `unpack` of their layouts of the tiled conversions' size through the compiled
conversion against numpy (`check_pack`, config `pack/native`).

Every configuration ends in one outcome class:
- equal;
- wrong value: printed output differs from the reference;
- unproven access: `layout-lower{validate=true}` fails to prove a rewritten access (the
  module is then lowered without validation and checked on);
- internal error: a Python exception that is not a clean diagnostic (anything but xDSL's
  DiagnosticException family, ParseError and heterolayout's LayoutError);
- invalid output: the lowered module fails xDSL's verifier or the SSA dominance check,
  keeps a layout, does not parse back, or upstream MLIR rejects it or crashes running it;
- engine error: an engine refuses, with a diagnostic, a program the reference ran;
- silent drop: a layout the program put somewhere (`layout.assign` or a type) is on no
  value of that function after `layout-apply`, or its physical buffer type is on none after
  `layout-lower` (unless `layout-schedule` said it wrote that buffer into the window of a
  padded buffer of its layout);
- clean refusal: a one-line diagnostic from verification, `layout-apply` or `layout-lower`
  (counted apart; the generator is meant to produce valid programs).
- generator error: the plain program itself does not parse or run (a fuzzer bug);
- known issue: one of the findings `known.py` lists, expected until its fix lands.
"""

from __future__ import annotations

import contextlib
import enum
import functools
import io
import os
import re
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp, StridedLayoutAttr
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException, ParseError, PassFailedException

import heterolayout
from heterolayout.dialects.context import make_context, parse_program
from heterolayout.dialects.conversion import layout_of
from heterolayout.execution.errors import ExecutionError
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.model import Layout
from heterolayout.passes.convert.layout_fold_converts import fold_round_trip_converts
from heterolayout.passes.lower.layout_apply import LayoutApplyPass
from heterolayout.passes.lower.layout_lower import LayoutLowerPass
from heterolayout.passes.physical import physical_type
from heterolayout.passes.remarks import remarks_collected
from heterolayout.passes.schedule.layout_schedule import LayoutSchedulePass
from tests.fuzz.checks import dominance_violations, memref_types, non_identity
from tests.fuzz.functions import Site
from tests.fuzz.known import known_issue
from tests.fuzz.programs import Program
from tests.mlir_tools import NativeRunError, run_native

ENGINES = ("interp", "compiled")
OPTIONS: dict[str, dict[str, object]] = {
    "arith": {},
    "affine": {"index": "affine"},
    "flat": {"flatten": True},
    "affine-flat": {"index": "affine", "flatten": True},
    "schedule": {},
    "fast": {},
}
"""`layout-lower`'s options per option set; `schedule` runs `layout-schedule` first, `fast`
`layout-schedule{fma=true reassociate=true}` (the generated float data are dyadic numbers of
few bits, whole numbers in the contractions, so fused products and reordered sums are exact
and the output must still be exactly the reference)."""
PIPELINES = {
    "arith": "layout-lower",
    "affine": "layout-lower{index=affine}",
    "flat": "layout-lower{flatten=true}",
    "affine-flat": "layout-lower{index=affine flatten=true}",
    "schedule": "layout-schedule,layout-lower",
    "fast": "layout-schedule{fma=true reassociate=true},layout-lower",
}
SCHEDULES = {
    "schedule": LayoutSchedulePass(),
    "fast": LayoutSchedulePass(fma=True, reassociate=True),
}
CLEAN = (DiagnosticException, ParseError, LayoutError)


class Outcome(enum.Enum):
    """Outcome classes, worst first."""

    INTERNAL = "internal error"
    WRONG = "wrong value"
    UNPROVEN = "unproven access"
    INVALID = "invalid output"
    ENGINE = "engine error"
    DROP = "silent drop"
    GENERATOR = "generator error"
    KNOWN = "known issue"
    REFUSAL = "clean refusal"
    EQUAL = "equal"

    @property
    def is_bug(self) -> bool:
        return self not in (Outcome.EQUAL, Outcome.REFUSAL, Outcome.KNOWN)


SEVERITY = list(Outcome)


@dataclass(frozen=True)
class Finding:
    config: str
    outcome: Outcome
    detail: str = ""


@dataclass
class CaseResult:
    program: Program
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def outcome(self) -> Outcome:
        return min((f.outcome for f in self.findings), key=SEVERITY.index, default=Outcome.EQUAL)

    def add(self, config: str, outcome: Outcome, detail: str = "") -> None:
        finding = Finding(config, outcome, _one_line(detail))
        issue = known_issue(self.program, finding, self.findings)
        if issue is not None:
            finding = Finding(
                config, Outcome.KNOWN, f"{issue}: {finding.outcome.value}: {finding.detail}"
            )
        self.findings.append(finding)

    def bugs(self) -> list[Finding]:
        return [f for f in self.findings if f.outcome.is_bug]


def _one_line(text: str) -> str:
    lines = [line for line in str(text).strip().splitlines() if line.strip()]
    return lines[0][:300] if lines else ""


def _failure(error: BaseException) -> tuple[Outcome, str]:
    """A diagnostic is a clean refusal; anything else an internal error."""
    if isinstance(error, CLEAN) and not isinstance(error, ExecutionError):
        return Outcome.REFUSAL, f"{type(error).__name__}: {error}"
    return Outcome.INTERNAL, f"{type(error).__name__}: {error}"


@functools.cache
def _context() -> Context:
    return make_context()


def printed(module_or_text: ModuleOp | str, engine: str) -> str:
    output = heterolayout.run(module_or_text, "main", engine=engine, capture=True).output
    assert output is not None
    return output


def compare(result: CaseResult, config: str, actual: str, expected: str) -> None:
    if actual == expected:
        result.add(config, Outcome.EQUAL)
        return
    got, want = actual.splitlines(), expected.splitlines()
    line = next(
        (i for i, (g, w) in enumerate(zip(got, want, strict=False)) if g != w),
        min(len(got), len(want)),
    )
    seen = got[line] if line < len(got) else "<end>"
    wanted = want[line] if line < len(want) else "<end>"
    result.add(config, Outcome.WRONG, f"printed line {line + 1}: {seen!r}, reference {wanted!r}")


def run_engines(
    result: CaseResult,
    config: str,
    module: ModuleOp | str,
    expected: str,
    engines: tuple[str, ...] = ENGINES,
) -> None:
    for engine in engines:
        name = f"{config}/{engine}"
        try:
            compare(result, name, printed(module, engine), expected)
        except ExecutionError as error:
            result.add(name, Outcome.ENGINE, f"{error}")
        except Exception as error:
            result.add(name, Outcome.INTERNAL, f"{type(error).__name__}: {error}")


def reference_output(result: CaseResult) -> str | None:
    """What the plain program prints (None, with a generator error, if it cannot run)."""
    try:
        return printed(parse_program(result.program.plain, "<plain>"), "compiled")
    except Exception as error:
        result.add("reference", Outcome.GENERATOR, f"{type(error).__name__}: {error}")
        return None


def parsed_program(result: CaseResult) -> ModuleOp | None:
    """The program with layouts, parsed and verified (None, with a refusal, if it is not)."""
    try:
        return parse_program(result.program.text)
    except Exception as error:
        result.add("verify", *_failure(error))
        return None


def run_case(
    program: Program, native: bool = False, options: Sequence[str] = tuple(OPTIONS)
) -> CaseResult:
    """The unlowered program on both engines, and each option set in `options` lowered and
    run on the compiled engine (the first of them on the interpreter too); `native` adds
    upstream MLIR and the printed-text round trip."""
    start = time.perf_counter()
    result = CaseResult(program)
    expected = reference_output(result)
    if expected is not None:
        if native and not narrow_vector_accesses(program.plain):
            _native(result, "plain/native", program.plain, expected)
            _plain_scheduled(result, expected)
        if native:
            check_pack(result)
        module = parsed_program(result)
        if module is not None:
            run_engines(result, "unlowered", module, expected)
            _check_applied(result, module, program.sites)
            for number, option in enumerate(options):
                engines = ENGINES if number == 0 else ("compiled",)
                run_option(result, module, option, expected, engines, native)
    result.seconds = time.perf_counter() - start
    return result


_NARROW_VECTOR = re.compile(
    r"(?:vector\.(?:load|store)|affine\.vector_(?:load|store))\b[^\n]*vector<\d+xi(\d+)>"
)


def narrow_vector_accesses(text: str) -> bool:
    """Whether the program loads or stores vectors of integers narrower than a byte from
    memrefs of them: upstream packs such a vector's lanes in memory but gives each memref
    element a byte, so it does not run the plain program as the engines do (its own
    meaning, not heterolayout's output, so the plain program is not run natively then)."""
    return any(int(match[1]) % 8 for match in _NARROW_VECTOR.finditer(text))


PACK_CHECKS = 3
"""Layouts of one case whose `Layout.pack` / `unpack` are checked, at most."""
PACK_SECONDS = 120


def check_pack(result: CaseResult) -> None:
    """`Layout.pack` / `unpack` through the compiled conversion (what they take from
    `NATIVE_MIN_ELEMENTS` on: `layout.convert` lowered, tiled) against numpy, on random
    data, for the static layouts of at least `VECTOR_MIN_SLOTS` slots the program puts
    somewhere (config `pack/native`). Each runs in a forked process: a wrong conversion
    may write out of bounds, and the library runs in the process that calls it."""
    from heterolayout.execution.native import missing, packing
    from heterolayout.passes.convert.loops import VECTOR_MIN_SLOTS

    layouts: dict[str, tuple[Layout, str]] = {}
    for site in result.program.sites:
        memref_type = _site_type(site)
        try:
            layout = layout_of(memref_type)
        except LayoutError:  # the program's verification refuses it (config `verify`)
            continue
        if layout is not None and not layout.is_dynamic and layout.size >= VECTOR_MIN_SLOTS:
            layouts.setdefault(site.memref_type, (layout, str(memref_type.element_type)))
    if not layouts:
        return
    if not packing.available():
        result.add("pack/native", Outcome.REFUSAL, f"the native engine is missing: {missing()}")
        return
    for number, (text, (layout, element)) in enumerate(list(layouts.items())[:PACK_CHECKS]):
        seed = (result.program.seed or 0) * PACK_CHECKS + number
        outcome, detail = _forked(functools.partial(_pack_outcome, text, layout, element, seed))
        if outcome is None:
            outcome, detail = Outcome.INTERNAL, f"Layout.pack of {text}: {detail}"
        result.add("pack/native", outcome, detail)


def _pack_outcome(text: str, layout: Layout, name: str, seed: int) -> tuple[Outcome, str]:
    from heterolayout.layout.element_types import element_type

    element = element_type(name)
    random = np.random.default_rng(seed)
    shape = layout.logical_shape
    if element.is_integer:
        half = 1 << (element.bits - 1)
        low, high = (0, 1) if element.bits == 1 else (-half, half - 1)
        values = random.integers(low, high, shape, endpoint=True)
    else:
        values = random.integers(-64, 64, shape) * 0.25
    array = values.astype(element.numpy_dtype)
    try:
        expected = layout.pack(array, native=False)
        packed = layout.pack(array, native=True)
        unpacked = layout.unpack(expected, native=True)
    except LayoutError as error:
        return Outcome.REFUSAL, f"Layout.pack of {text}: {error}"
    except Exception as error:
        return Outcome.INTERNAL, f"Layout.pack of {text}: {type(error).__name__}: {error}"
    if not np.array_equal(packed, expected):
        wrong = int(np.count_nonzero(packed != expected))
        return Outcome.WRONG, f"Layout.pack of {text}: {wrong} of {expected.size} slots differ"
    if not np.array_equal(unpacked, array):
        wrong = int(np.count_nonzero(unpacked != array))
        return Outcome.WRONG, f"Layout.unpack of {text}: {wrong} of {array.size} elements differ"
    return Outcome.EQUAL, ""


def _forked(work: Callable[[], tuple[Outcome, str]]) -> tuple[Outcome | None, str]:
    """`work()` in a child process; (None, why) if the child died without an answer."""
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child)
        os.close(reader)
        signal.alarm(PACK_SECONDS)
        try:
            outcome, detail = work()
            answer = f"{outcome.name}\n{detail}".encode()
        except BaseException as error:
            answer = f"INTERNAL\n{type(error).__name__}: {error}".encode()
        with os.fdopen(writer, "wb") as stream:
            stream.write(answer)
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as stream:
        answer = stream.read().decode()
    _, status = os.waitpid(child, 0)
    if not answer:
        if os.WIFSIGNALED(status):
            return None, f"the process died of signal {os.WTERMSIG(status)}"
        return None, f"the process exited with {os.WEXITSTATUS(status)} and no answer"
    name, detail = answer.split("\n", 1)
    return Outcome[name], detail


def rotating_options(seed: int) -> tuple[str, str]:
    """Two option sets for one seed of a long run: the default, and each other in turn
    (the interpreter runs the latter). The turn advances once more every len(others) seeds,
    so every K-th seed (those run natively) meets every option set too: with `seed % 4`,
    the even seeds never met `flatten` or `layout-schedule`."""
    others = [o for o in OPTIONS if o != "arith"]
    return others[(seed + seed // len(others)) % len(others)], "arith"


def run_option(
    result: CaseResult,
    module: ModuleOp,
    option: str,
    expected: str,
    engines: tuple[str, ...],
    native: bool,
) -> None:
    """`layout-lower` with one option set, its output checked and run on `engines`."""
    lowered = _lower(result, module, option, result.program.sites, reparse=native)
    if lowered is None:
        return
    text, reparsed = lowered
    run_engines(result, option, reparsed, expected, engines)
    if native:
        _native(result, f"{option}/native", text, expected)


def _check_applied(result: CaseResult, module: ModuleOp, sites: tuple[Site, ...]) -> None:
    """Every layout the program put somewhere is on a value of that function afterwards."""
    applied = module.clone()
    try:
        LayoutApplyPass().apply(_context(), applied)
    except Exception as error:
        result.add("apply", *_failure(error))
        return
    functions = _functions(applied)
    for site in sites:
        wanted = _site_type(site)
        if not any(t.layout == wanted.layout for t in memref_types(functions[site.function])):
            result.add(
                "apply",
                Outcome.DROP,
                f"{site.how} of {wanted.layout} in {site.function}: on no value after layout-apply",
            )


def _lowered(module: ModuleOp, option: str, validate: bool) -> ModuleOp:
    return _lowered_and_windowed(module, option, validate)[0]


def _lowered_and_windowed(
    module: ModuleOp, option: str, validate: bool
) -> tuple[ModuleOp, list[Attribute]]:
    """The lowered module, and the types of the buffers `layout-schedule` said it wrote
    straight into a window of a padded buffer of their layout (`window_writes`: the values
    keep that layout, in the padded buffer; the buffer goes, with a remark)."""
    lowered = module.clone()
    remarks: list[str] = []
    with (
        contextlib.redirect_stderr(io.StringIO()),  # the validation summary
        remarks_collected(remarks),
    ):
        if option in SCHEDULES:
            SCHEDULES[option].apply(_context(), lowered)
        LayoutLowerPass(validate=validate, **OPTIONS[option]).apply(_context(), lowered)  # type: ignore[arg-type]
    windowed = [_parsed_type(m.group(1)) for r in remarks if (m := _WINDOWED.search(r))]
    return lowered, windowed


_WINDOWED = re.compile(r": a (memref<.*>) buffer written straight into its window of ")


def _lower(
    result: CaseResult, module: ModuleOp, option: str, sites: tuple[Site, ...], reparse: bool
) -> tuple[str, ModuleOp] | None:
    """The lowered module (translation validation on) and its text; with `reparse`, the
    module parsed back from the text (what a user of `layout-opt` gets: slower, so done on
    the cases also run natively). An access validation cannot prove is reported, and the
    module lowered again without validation is checked on."""
    try:
        try:
            lowered, windowed = _lowered_and_windowed(module, option, validate=True)
        except PassFailedException as error:
            if "translation validation" not in str(error):
                raise
            result.add(option, Outcome.UNPROVEN, str(error))
            lowered, windowed = _lowered_and_windowed(module, option, validate=False)
    except Exception as error:
        result.add(option, *_failure(error))
        return None
    problems = _invalid(lowered)
    if problems:
        result.add(option, Outcome.INVALID, problems)
        return None
    text = str(lowered)
    if reparse:
        try:
            lowered = parse_program(text, "<lowered>")
        except Exception as error:
            result.add(
                option, Outcome.INVALID, f"the printed lowered module does not parse back: {error}"
            )
            return None
    functions = _functions(lowered)
    applied, folded = (_functions(m) for m in _round_trips_folded(module))
    for site in sites:
        memref_type = _site_type(site)
        layout = layout_of(memref_type)
        flatten = bool(OPTIONS[option].get("flatten"))
        if layout is None or (flatten and layout.is_dynamic):  # refused, or dropped (seen by apply)
            continue
        if memref_type in memref_types(applied[site.function]) and memref_type not in (
            memref_types(folded[site.function])
        ):
            continue  # a buffer only converted into and straight back: layout-fold-converts
        if memref_type in windowed:
            continue  # written into a window of a padded buffer of its layout
        physical = physical_type(memref_type, layout, flatten)
        if physical not in memref_types(functions[site.function]):
            result.add(
                option,
                Outcome.DROP,
                f"{site.how} of {memref_type.layout} in {site.function}: no {physical} after lowering",
            )
    return text, lowered


def _round_trips_folded(module: ModuleOp) -> tuple[ModuleOp, ModuleOp]:
    """The module after `layout-apply`, and after `layout-fold-converts` too: the documented
    step of `layout-lower` that drops a local buffer converted into and straight back (fuzz
    seed 530681)."""
    applied = module.clone()
    with contextlib.redirect_stderr(io.StringIO()):
        LayoutApplyPass().apply(_context(), applied)
        folded = applied.clone()
        fold_round_trip_converts(folded)
    return applied, folded


def _invalid(module: ModuleOp) -> str:
    try:
        module.verify()
    except Exception as error:
        return f"xDSL's verifier rejects the lowered module: {error}"
    violations = dominance_violations(module)
    if violations:
        return f"use not dominated by its definition: {violations[0]}"
    views = {
        r.type
        for op in module.walk()
        if op.name == "memref.subview"
        for r in op.results
        if isinstance(r.type, MemRefType) and isinstance(r.type.layout, StridedLayoutAttr)
    }  # upstream's type of a view of a plain memref (the program's, with or without layouts)
    views |= {
        r.type
        for op in module.walk()
        if op.name == "builtin.unrealized_conversion_cast"
        and len(op.operands) == 1
        and op.operands[0].type in views
        for r in op.results
        if isinstance(r.type, MemRefType) and r.type.layout == op.operands[0].type.layout
    }  # such a view of sub-byte elements seen as bytes (`layout-sub-byte-accesses`)
    left = sorted({str(t) for t in memref_types(module) if non_identity(t) and t not in views})
    left += sorted({op.name for op in module.walk() if op.name.startswith("layout.")})
    if left:
        return f"layouts left after lowering: {left}"
    return ""


def _plain_scheduled(result: CaseResult, expected: str) -> None:
    """The plain program through `layout-schedule,layout-lower`, natively (config
    `plain-schedule/native`): in a module without layouts `layout-lower` keeps the accesses
    as they are, so what the schedule writes there is what upstream compiles."""
    config = "plain-schedule/native"
    try:
        module = parse_program(result.program.plain, "<plain>")
        scheduled = _lowered(module, "schedule", validate=False)
    except Exception as error:
        result.add(config, *_failure(error))
        return
    _native(result, config, str(scheduled), expected)


def _native(result: CaseResult, config: str, text: str, expected: str) -> None:
    try:
        output = run_native(text, timeout=120)
    except NativeRunError as error:
        result.add(config, Outcome.INVALID, str(error).replace("\n", " ")[:300])
        return
    compare(result, config, output, expected)


def _functions(module: ModuleOp) -> dict[str, Operation]:
    from xdsl.dialects import func

    return {f"@{op.sym_name.data}": op for op in module.walk() if isinstance(op, func.FuncOp)}


@functools.cache
def _parsed_type(text: str) -> Attribute:
    return Parser(_context(), text).parse_type()


def _site_type(site: Site) -> MemRefType:
    parsed = _parsed_type(site.memref_type)
    assert isinstance(parsed, MemRefType)
    return parsed


Report = Callable[[CaseResult], None]
