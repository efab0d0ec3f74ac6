"""The differential fuzzer, long run: random layouts × random programs, every way of running.

Each seed gives one program twice, with and without its layouts (`tests/fuzz/programs.py`).
The plain one's printed output is the reference; the one with layouts must print the same
unlowered on both engines, and after `layout-lower` with each option set (index=arith|affine
× flatten=false|true, `layout-schedule,layout-lower` and
`layout-schedule{fma=true reassociate=true},layout-lower`) on both engines and, every K-th
seed, natively: compiled by stock upstream `mlir-opt-22` (the README's LLVM pipeline) and run
by `mlir-runner-22`, not by heterolayout's native engine. The programs write their buffers
with loads and stores, vector accesses (sub-byte lanes too), copies, conversions, calls and
linalg ops (named and generic, into arguments, allocations and subviews); some are loop
nests `layout-schedule` turns into whole-word code on packed `i1`; 6% have a buffer of
4096-8192 elements, so conversions take the tiled and whole-container paths (cyclic maps and
partitions among its layouts). Outcome classes are defined in `tests/fuzz/runner.py`;
findings whose fixes are under way count as known issues (`tests/fuzz/known.py`).

    python -m benchmarks.fuzz --count N [--seed S] [--native-every K] [--jobs J] [--save DIR]
    python -m benchmarks.fuzz --replay SEED [--native]     # one case, in full
    python -m benchmarks.fuzz --corpus                     # the saved regression cases

Prints each failing seed with a one-command reproducer as it goes, then the number of
cases per outcome class (a case counts as its worst configuration), the configurations per
class, the refusals by message and the features the programs used. `--save DIR` writes each
failing case as `seed-N.mlir` + `seed-N.plain.mlir` (the format of `tests/fuzz/corpus`).
Exits 1 when a case found a bug (known issues and clean refusals are not bugs).
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import platform
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from tests.fuzz.corpus import corpus_cases, load, save
from tests.fuzz.known import KNOWN
from tests.fuzz.programs import Program, program_for_seed
from tests.fuzz.runner import OPTIONS, CaseResult, Outcome, rotating_options, run_case

REPOSITORY = Path(__file__).resolve().parent.parent

CASE_TIMEOUT = 300
"""Seconds one case may take before it counts as an internal error (a hang)."""


class CaseTimeout(Exception):
    pass


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: object) -> None:
        raise CaseTimeout(f"the case ran over {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run_one(program: Program, native: bool, all_options: bool = True) -> CaseResult:
    seed = program.seed or 0
    options = tuple(OPTIONS) if all_options else rotating_options(seed)
    try:
        with time_limit(CASE_TIMEOUT):
            return run_case(program, native, options)
    except CaseTimeout as error:
        result = CaseResult(program)
        result.add("case", Outcome.INTERNAL, str(error))
        return result
    except Exception as error:  # the fuzzer's own failure: counted, and the run goes on
        result = CaseResult(program)
        result.add("fuzzer", Outcome.GENERATOR, f"{type(error).__name__}: {error}")
        return result


def reproducer(seed: int, native: bool) -> str:
    return f"python -m benchmarks.fuzz --replay {seed}" + (" --native" if native else "")


def replay(seed: int, native: bool) -> int:
    program = program_for_seed(seed)
    print(f"// seed {seed}: the program with its layouts\n{program.text}")
    print(f"// seed {seed}: the plain program (the reference)\n{program.plain}")
    result = run_one(program, native)
    for finding in result.findings:
        print(
            f"{finding.config:>22}: {finding.outcome.value}{': ' + finding.detail if finding.detail else ''}"
        )
    print(f"outcome: {result.outcome.value} ({result.seconds:.1f} s)")
    return 1 if result.outcome.is_bug else 0


def _refusal_key(detail: str) -> str:
    """A refusal message without the types and places that vary between cases."""
    text = re.sub(r"memref<[^ ]*>+", "memref<…>", detail)
    text = re.sub(r"<[^>]*>:\d+:\d+", "", text)
    return text[:140]


class Tally:
    def __init__(self) -> None:
        self.cases: Counter[str] = Counter()
        self.configs: Counter[str] = Counter()
        self.refusals: Counter[str] = Counter()
        self.known: Counter[str] = Counter()
        self.known_seeds: dict[str, list[int | None]] = {}
        self.features: Counter[str] = Counter()
        self.failing: list[tuple[int | None, str]] = []
        self.seconds = 0.0

    def add(self, result: CaseResult) -> None:
        self.cases[result.outcome.value] += 1
        self.seconds += result.seconds
        self.features.update(result.program.features)
        for finding in result.findings:
            self.configs[finding.outcome.value] += 1
            if finding.outcome is Outcome.REFUSAL:
                self.refusals[_refusal_key(finding.detail)] += 1
            if finding.outcome is Outcome.KNOWN:
                name = next(
                    (k.name for k in KNOWN if finding.detail.startswith(k.name)),
                    finding.detail.split(":", 1)[0],
                )
                self.known[name] += 1
                seeds = self.known_seeds.setdefault(name, [])
                if result.program.seed not in seeds:
                    seeds.append(result.program.seed)

    def print(self, count: int, started: float) -> None:
        print(f"\n{count} cases in {time.perf_counter() - started:.0f} s")
        print("\n| outcome | cases | configurations |\n| --- | ---: | ---: |")
        for outcome in Outcome:
            print(
                f"| {outcome.value} | {self.cases[outcome.value]} | {self.configs[outcome.value]} |"
            )
        if self.known:
            print("\nknown issues (configurations, cases: seeds):")
            for name, number in self.known.most_common():
                seeds = self.known_seeds[name]
                listed = ", ".join(map(str, seeds[:12])) + (", …" if len(seeds) > 12 else "")
                print(f"  {number:6}  {name} ({len(seeds)} cases: {listed})")
        if self.refusals:
            print("\nclean refusals (configurations), by message:")
            for message, number in self.refusals.most_common(15):
                print(f"  {number:6}  {message}")
        print(
            "\nfeatures (cases): " + ", ".join(f"{k} {v}" for k, v in sorted(self.features.items()))
        )
        if self.failing:
            print("\nfailing cases:")
            for _seed, line in self.failing:
                print(f"  {line}")


def fuzz(arguments: argparse.Namespace) -> int:
    print(
        f"heterolayout differential fuzzer: seeds {arguments.seed}..{arguments.seed + arguments.count - 1}, "
        f"native every {arguments.native_every or 'never'}, {arguments.jobs} job(s); "
        f"{platform.python_version()}, {platform.machine()}"
    )
    tally = Tally()
    started = time.perf_counter()
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    done = 0
    try:
        for result in _results(arguments):
            _record(result, arguments, tally)
            done += 1
            if arguments.progress and done % arguments.progress == 0:
                print(f"... {done} cases, {dict(tally.cases)}", flush=True)
    except KeyboardInterrupt:  # a run stopped early still reports the cases it finished
        print(f"\nstopped after {done} of {arguments.count} cases", flush=True)
    tally.print(done, started)
    return 1 if tally.failing else 0


def _case(job: tuple[int, int, bool]) -> CaseResult:
    seed, native_every, all_options = job
    native = bool(native_every) and seed % native_every == 0
    return run_one(program_for_seed(seed), native, all_options)


def _worker() -> None:
    """A worker leaves interrupts to the parent, which stops the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _results(arguments: argparse.Namespace) -> Iterator[CaseResult]:
    """Each seed's result in seed order, from `--jobs` processes."""
    seeds = range(arguments.seed, arguments.seed + arguments.count)
    jobs = [(seed, arguments.native_every, arguments.all_options) for seed in seeds]
    if arguments.jobs <= 1:
        yield from map(_case, jobs)
        return
    with multiprocessing.get_context("fork").Pool(arguments.jobs, _worker) as pool:
        yield from pool.imap(_case, jobs)


def _record(result: CaseResult, arguments: argparse.Namespace, tally: Tally) -> None:
    seed = result.program.seed or 0
    native = bool(arguments.native_every) and seed % arguments.native_every == 0
    tally.add(result)
    if result.outcome.is_bug:
        bug = result.bugs()[0]
        line = f"seed {seed}: {result.outcome.value} [{bug.config}] {bug.detail}  reproduce: {reproducer(seed, native)}"
        tally.failing.append((seed, line))
        print(line, flush=True)
        if arguments.save:
            save(result.program, Path(arguments.save), note=line)


def corpus(native: bool) -> int:
    failing = 0
    for path in corpus_cases():
        case = load(path)
        result = run_one(case, native or case.native)
        print(f"{path.name}: {result.outcome.value}")
        for finding in result.bugs():
            print(f"  {finding.config}: {finding.outcome.value}: {finding.detail}")
        failing += result.outcome.is_bug
    return 1 if failing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="cases to run (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument(
        "--native-every",
        type=int,
        default=2,
        metavar="K",
        help="run every K-th seed through stock upstream mlir-opt-22 + mlir-runner-22 too "
        "(0: never; default 2)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="J", help="cases run in J processes (default 1)"
    )
    parser.add_argument("--save", metavar="DIR", help="write each failing case to DIR")
    parser.add_argument(
        "--all-options",
        action="store_true",
        help="lower every case with all six option sets (default: the default one and one "
        "other in turn, the interpreter on the latter; --replay always uses all six)",
    )
    parser.add_argument(
        "--progress", type=int, default=0, metavar="M", help="a progress line every M cases"
    )
    parser.add_argument(
        "--replay", type=int, metavar="SEED", help="run one seed and print everything"
    )
    parser.add_argument(
        "--native", action="store_true", help="with --replay/--corpus: run natively too"
    )
    parser.add_argument(
        "--corpus", action="store_true", help="run the saved cases of tests/fuzz/corpus"
    )
    arguments = parser.parse_args(argv)
    if arguments.replay is not None:
        return replay(arguments.replay, arguments.native)
    if arguments.corpus:
        return corpus(arguments.native)
    return fuzz(arguments)


if __name__ == "__main__":
    sys.exit(main())
