"""The import's own rewrites of the bufferized text, each applied only where it may apply.

A rewrite (`affine_indices`, `transposed_convolutions`) says by a cheap look at the text
whether the module can hold what it rewrites; only then is the text parsed (a large model's
import pays nothing for a rewrite it does not need), rewritten and printed again. A text
heterolayout's parser does not read is returned as it is: the tool that reads it next says
why, and the import never fails for a rewrite.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError

from heterolayout.dialects.context import parse_program


def rewritten_text(text: str, applies: bool, rewrite: Callable[[ModuleOp], int]) -> str:
    """`text` after `rewrite` (which returns how many places it changed), or `text` itself
    when it does not apply, changed nothing, or the text does not parse."""
    if not applies:
        return text
    try:
        module = parse_program(text)
    except (ParseError, DiagnosticException):
        return text
    return str(module) if rewrite(module) else text
