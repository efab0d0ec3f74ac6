"""LLVM loop annotations in upstream MLIR 22's syntax, which xDSL 0.74 lacks.

    scf.for %kw = %c0 to %c3 step %c1 iter_args(…) -> (…) { … }
        {loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>}

Upstream's `convert-scf-to-cf` moves an `scf.for`'s LLVM-dialect attributes to the loop's
back edge, and the LLVM IR translation makes `loop_annotation` the loop's `!llvm.loop`
metadata. `layout-schedule` asks this way that a reduction loop stay rolled
(`emission`); the attributes are hints to LLVM and mean nothing to the IR's semantics.
Only the keys below are read; any other is refused by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, DictionaryAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer


class KeywordAttribute(ParametrizedAttribute):
    """`#llvm.<name><key = attribute, …>`: upstream's optional keyword parameters, kept in
    the order written."""

    KEYS: ClassVar[tuple[str, ...]]

    fields: DictionaryAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def entry() -> tuple[str, Attribute]:
            at = parser.pos
            key = parser.parse_identifier()
            if key not in cls.KEYS:
                parser.raise_error(
                    f"#{cls.name}: unknown parameter {key} (expected one of {', '.join(cls.KEYS)})",
                    at,
                    parser.pos,
                )
            parser.parse_punctuation("=")
            return key, parser.parse_attribute()

        entries = parser.parse_comma_separated_list(parser.Delimiter.ANGLE, entry)
        return (DictionaryAttr(dict(entries)),)

    def print_parameters(self, printer: Printer) -> None:
        def entry(item: tuple[str, Attribute]) -> None:
            printer.print_string(f"{item[0]} = ")
            printer.print_attribute(item[1])

        with printer.in_angle_brackets():
            printer.print_list(self.fields.data.items(), entry)


@irdl_attr_definition
class LoopUnrollAttr(KeywordAttribute):
    """`#llvm.loop_unroll<disable = true>`: LLVM's `llvm.loop.unroll.*` metadata."""

    name = "llvm.loop_unroll"
    KEYS = (
        "disable",
        "count",
        "runtimeDisable",
        "full",
        "followupUnrolled",
        "followupRemainder",
        "followupAll",
    )


@irdl_attr_definition
class LoopAnnotationAttr(KeywordAttribute):
    """`#llvm.loop_annotation<unroll = #llvm.loop_unroll<…>>`: a loop's `!llvm.loop`
    metadata. Of its nested annotations only `unroll` has a class here."""

    name = "llvm.loop_annotation"
    KEYS = (
        "disableNonforced",
        "vectorize",
        "interleave",
        "unroll",
        "unrollAndJam",
        "licm",
        "distribute",
        "pipeline",
        "peeled",
        "unswitch",
        "mustProgress",
        "isVectorized",
        "parallelAccesses",
    )


LOOP_ANNOTATION = "loop_annotation"
"""The `scf.for` attribute upstream's lowering makes a loop's metadata."""


def rolled() -> LoopAnnotationAttr:
    """The annotation that asks LLVM not to unroll a loop."""
    unroll = LoopUnrollAttr(DictionaryAttr({"disable": BoolAttr.from_bool(True)}))
    return LoopAnnotationAttr(DictionaryAttr({"unroll": unroll}))


OPS: tuple[type, ...] = ()
ATTRIBUTES = (LoopUnrollAttr, LoopAnnotationAttr)
