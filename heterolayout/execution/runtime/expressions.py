"""What the value ops' expressions (`semantics`, `vector_semantics`) are made of: the context
a builder gets, and a value of an element type read as Python source (wrapped, signed,
unsigned, rounded).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.ir import Operation

from heterolayout.layout.element_types import ElementType


@dataclass(frozen=True)
class ExprContext:
    """What an expression builder needs besides the operands."""

    bind: Callable[[Any], str]
    """Binds a Python object to a name the expression can use."""
    where: str
    """The op's name and location, for error messages."""


Builder = Callable[[Operation, Sequence[str], ExprContext], str]


# ---- integer views ----------------------------------------------------------------------------
def wrap(x: str, t: ElementType) -> str:
    """The canonical value of `t` holding the low bits of `x`."""
    mask = (1 << t.bits) - 1
    if not t.holds_negative:
        return f"(({x}) & {mask})"
    half = 1 << (t.bits - 1)
    return f"(((({x}) + {half}) & {mask}) - {half})"


def int_literal(x: str) -> int | None:
    """The value of an integer literal operand (the compiled engine pastes constants)."""
    try:
        return int(x.strip("()"))
    except ValueError:
        return None


def signed(x: str, t: ElementType) -> str:
    """`x` read as a two's complement number (i1: 1 is -1)."""
    if t.holds_negative:
        return x
    literal = int_literal(x)
    if literal is not None:
        return f"({literal - (literal >> (t.bits - 1) << t.bits)})"
    if t.bits == 1:
        return f"(-{x})"
    return f"(({x}) - ((({x}) >> {t.bits - 1}) << {t.bits}))"


def unsigned(x: str, t: ElementType) -> str:
    if not t.holds_negative:
        return x
    literal = int_literal(x)
    if literal is not None:
        return f"({literal & ((1 << t.bits) - 1)})"
    return f"(({x}) & {(1 << t.bits) - 1})"


def rounded(x: str, t: ElementType) -> str:
    if t.bits == 32:
        return f"_f32({x})"
    if t.bits == 16:
        return f"_f16({x})"
    return f"({x})"
