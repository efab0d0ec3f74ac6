"""`layout-opt`: xdsl-opt with the layout dialect and heterolayout's passes.

Everything xdsl-opt does (all of xDSL's dialects and passes, `-p` pipelines,
`--split-input-file`, `--verify-diagnostics`, `--print-op-generic`, targets) plus:
the layout verification walk after parsing and after every pass, diagnostics without a
Python traceback and exit code 1 on failure, and `-o FILE` written only when the run succeeds.
"""

from __future__ import annotations

import argparse
import atexit
import dataclasses
import gc
import io
import os
import sys
import traceback
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from io import StringIO
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from heterolayout import __version__
from heterolayout.dialects.context import multiverse, register_dialects
from heterolayout.dialects.diagnostics import one_line, verify_ops
from heterolayout.dialects.symbol_index import indexed_symbol_lookups
from heterolayout.dialects.upstream.parser import UpstreamParser
from heterolayout.dialects.verification import verify_layouts
from heterolayout.layout.limits import (
    OUT_OF_MEMORY,
    check_input_size,
    check_source,
    deep_recursion,
    max_input_bytes,
    too_deep,
)
from heterolayout.passes.pipeline import available_passes, naming_the_pass, with_steps
from heterolayout.passes.remarks import remarks_shown
from heterolayout.passes.unchanged import unchanged_by
from heterolayout.tools.files import write_file

TRACEBACK_VARIABLE = "HETEROLAYOUT_TRACEBACK"


class _PendingOutput(StringIO):
    """The output of a run to `-o FILE`, kept in memory until the run has succeeded.

    Workaround: xDSLOptMain opens `-o FILE` for writing before it parses anything, so a
    failing run leaves a truncated or half-written file (and `-o` naming the input file
    empties the input before it is read). Its `run` also closes the stream in a `finally`,
    so `close` must keep the buffer readable.
    """

    def close(self) -> None:
        pass


class LayoutOptMain(xDSLOptMain):
    version_format = f"layout-opt (heterolayout) {__version__}"
    pending_output: _PendingOutput | None = None

    def __init__(self, args: Sequence[str] | None = None) -> None:
        super().__init__(description="heterolayout modular optimizer driver", args=args)

    def register_all_dialects(self) -> None:
        register_dialects(self.ctx)

    def register_all_frontends(self) -> None:
        """MLIR text through `UpstreamParser`, which reads shapes as MLIR 22 writes them,
        keeping every op's line and column (xDSL keeps only the `loc(...)` the text spells)
        so that diagnostics such as translation validation's can say where an op is."""
        super().register_all_frontends()

        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            return UpstreamParser(self.ctx, io.read(), self.get_input_name()).parse_module(
                not self.args.no_implicit_module
            )

        self.available_frontends["mlir"] = parse_mlir

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        # Workaround: xdsl-opt spells --version also -v; here -v asks for remarks, and
        # --version stays. argparse has no public way to take an option string back.
        version = arg_parser._option_string_actions.pop("-v", None)
        if version is not None:
            version.option_strings = [o for o in version.option_strings if o != "-v"]
        arg_parser.add_argument(
            "-v",
            "--verbose",
            action="store_true",
            help="print the passes' remarks (what layout-schedule changed and why not)",
        )

    def register_all_passes(self) -> None:
        self.available_passes.update(available_passes())

    def register_all_targets(self) -> None:
        for name, factory in multiverse().all_targets.items():
            self.available_targets.setdefault(name, factory)

    def setup_pipeline(self) -> None:
        """Run each pass that is a pipeline of steps (`layout-lower`) as its steps, and the
        layout verification walk wherever xDSL verifies: after parsing (before the first
        pass, also when there is none) and after every pass and step, but for one that
        changed nothing (`passes.unchanged`)."""
        super().setup_pipeline()
        upstream = self.pipeline.callback

        def callback(
            previous_pass: ModulePass | None, module: ModuleOp, next_pass: ModulePass | None
        ) -> None:
            verify = not unchanged_by(previous_pass, module) and not self.args.disable_verify
            with naming_the_pass(previous_pass):
                if upstream is not None:  # verifies the ops, prints between passes, times them
                    with indexed_symbol_lookups(), _verification(self.args, verify):
                        verify_ops(module, lambda: upstream(previous_pass, module, next_pass))
                if verify:
                    verify_layouts(module)

        passes = tuple(with_steps(self.pipeline.passes))
        self.pipeline = dataclasses.replace(self.pipeline, passes=passes, callback=callback)

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        """The input, refused beyond the input size limit before anything is read."""
        stream, extension = super().get_input_stream()
        name = self.args.input_file or "<stdin>"
        if self.args.input_file is not None:
            check_input_size(os.path.getsize(self.args.input_file), name)
            return stream, extension
        data = stream.read(max_input_bytes() + 1)
        check_input_size(len(data), name)
        return io.BytesIO(data), extension

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        """xDSL's parser recurses per level: nesting beyond the limit is refused first."""
        data = chunk.read()
        text = data.decode() if isinstance(data, bytes) else data
        check_source(text, self.args.input_file or "<stdin>", start_offset + 1)
        rewound = io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(text)
        return super().parse_chunk(rewound, file_extension, start_offset)

    def prepare_output(self) -> IO[str]:
        if self.args.output_file is None:
            return sys.stdout
        pending = self.pending_output = _PendingOutput()
        return pending

    def run(self) -> None:
        output_file = self.args.output_file
        if output_file is not None and _same_file(self.args.input_file, output_file):
            raise ValueError(
                f"-o {output_file} is the input file; layout-opt never overwrites its input"
            )
        self.pending_output = None
        with remarks_shown(self.args.verbose):
            super().run()
        if output_file is not None and self.pending_output is not None:
            write_file(output_file, self.pending_output.getvalue())


@contextmanager
def _verification(args: argparse.Namespace, verify: bool) -> Iterator[None]:
    """Workaround: xDSL's callback verifies unless `--disable-verify` was given, and has no
    other way to be told not to; after a pass that changed nothing, the flag is set while
    it runs (it still prints between passes and times them)."""
    given = args.disable_verify
    args.disable_verify = given or not verify
    try:
        yield
    finally:
        args.disable_verify = given


def _same_file(input_file: str | None, output_file: str) -> bool:
    if input_file is None or not os.path.exists(output_file):
        return False
    return os.path.samefile(input_file, output_file)


@contextmanager
def start_up_objects_frozen() -> Iterator[None]:
    """Keep the cyclic garbage collector off the objects that exist when a run starts.

    They are the imported modules and xDSL's dialect definitions, which live until the
    process exits; walking them again in each full collection during the run and in the
    ones at exit took a fifth of a small run's processor time. A caller that froze objects
    itself keeps them frozen; otherwise they are unfrozen when the run ends, and frozen
    again only at exit.
    """
    if gc.get_freeze_count():
        yield
        return
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def main(argv: Sequence[str] | None = None) -> int:
    """Console script entry point; returns the exit code (0 success, 1 any error)."""
    try:
        with start_up_objects_frozen(), deep_recursion():
            LayoutOptMain(args=argv).run()
    except RecursionError:
        print(f"layout-opt: error: {too_deep('the input')}", file=sys.stderr)
        return 1
    except MemoryError:
        print(f"layout-opt: error: {OUT_OF_MEMORY}", file=sys.stderr)
        return 1
    except ParseError as error:
        print(f"layout-opt: error: {one_line(error)}", file=sys.stderr)
        return 1
    except DiagnosticException as error:
        print(one_line(error), file=sys.stderr)
        return 1
    except ArgSpecParseError as error:  # a BaseException in xDSL: a malformed -p pipeline
        print(f"layout-opt: error: {error}", file=sys.stderr)
        return 1
    except (ValueError, OSError) as error:
        print(f"layout-opt: error: {one_line(error)}", file=sys.stderr)
        return 1
    except Exception as error:
        if os.environ.get(TRACEBACK_VARIABLE):
            traceback.print_exc()
        else:
            print(
                f"layout-opt: internal error: {type(error).__name__}: {error} "
                f"(set {TRACEBACK_VARIABLE}=1 for the traceback)",
                file=sys.stderr,
            )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
