"""A second, element-by-element formulation of layouts, written from DESIGN.md alone.

It shares no code with `heterolayout.layout`: every logical index is visited with
`itertools.product`, its physical index is computed from the layout's description (digit
terms, affine-map text read by a tiny evaluator here, or strides), and values are written into
a pad-filled physical array; integer containers are assembled bit by bit with Python ints.
Slow and obviously right, so the tests can hold the numpy reference to it.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

Index = tuple[int, ...]


@dataclass(frozen=True)
class Blocked:
    """Physical dims outermost first, each `(dim, size)`; size None is the rest of that dim."""

    terms: tuple[tuple[int, int | None], ...]


@dataclass(frozen=True)
class MapText:
    """`affine_map<(d0, …) -> (…)>` text; `shape` is an explicit physical shape, if any."""

    text: str
    shape: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Strided:
    """Offset `Σ d_i · s_i + offset` into a 1-D buffer."""

    strides: tuple[int, ...]
    offset: int


Model = Blocked | MapText | Strided


@dataclass(frozen=True)
class IntContainer:
    """Lanes of `element_bits` each in a `bits`-wide integer, LSB-first unless `msb_first`."""

    bits: int
    element_bits: int
    msb_first: bool = False


# ---- physical index -----------------------------------------------------------------------
def _blocks_after(terms: Sequence[tuple[int, int | None]], position: int, dim: int) -> int:
    return math.prod(s for d, s in terms[position + 1 :] if d == dim and s is not None)


def _all_blocks(terms: Sequence[tuple[int, int | None]], dim: int) -> int:
    return math.prod(s for d, s in terms if d == dim and s is not None)


def blocked_index(terms: Sequence[tuple[int, int | None]], index: Index) -> Index:
    """The digit rule: rest = d // Π(blocks of d); block j = (d // Π(later blocks of d)) % bj."""
    return blocked_function(terms)(index)


def blocked_function(terms: Sequence[tuple[int, int | None]]) -> Callable[[Index], Index]:
    """`blocked_index` with the block products worked out once."""
    digits = [
        (dim, _all_blocks(terms, dim), None)
        if size is None
        else (dim, _blocks_after(terms, position, dim), size)
        for position, (dim, size) in enumerate(terms)
    ]
    return lambda index: tuple(
        index[dim] // divisor if size is None else (index[dim] // divisor) % size
        for dim, divisor, size in digits
    )


_TOKEN = re.compile(r"\s*(d\d+|\d+|floordiv|ceildiv|mod|[-+*()])")


def _tokens(text: str) -> list[str]:
    tokens, position = [], 0
    text = text.rstrip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            raise ValueError(f"cannot read {text[position:]!r}")
        tokens.append(match.group(1))
        position = match.end()
    return tokens


Expr = Callable[[Index], int]


def _parse_expr(tokens: list[str]) -> Expr:
    """Recursive descent: sum of products; `*`, floordiv, ceildiv, mod bind tighter, left to right."""

    def atom() -> Expr:
        token = tokens.pop(0)
        if token == "(":
            inner = summation()
            assert tokens.pop(0) == ")"
            return inner
        if token == "-":
            operand = atom()
            return lambda i: -operand(i)
        if token.startswith("d"):
            position = int(token[1:])
            return lambda i: i[position]
        value = int(token)
        return lambda i: value

    def product() -> Expr:
        left = atom()
        while tokens and tokens[0] in ("*", "floordiv", "ceildiv", "mod"):
            operator, right = tokens.pop(0), atom()
            left = _binary(operator, left, right)
        return left

    def summation() -> Expr:
        left = product()
        while tokens and tokens[0] in ("+", "-"):
            operator, right = tokens.pop(0), product()
            left = _binary(operator, left, right)
        return left

    expression = summation()
    assert not tokens, tokens
    return expression


def _binary(operator: str, left: Expr, right: Expr) -> Expr:
    if operator == "+":
        return lambda i: left(i) + right(i)
    if operator == "-":
        return lambda i: left(i) - right(i)
    if operator == "*":
        return lambda i: left(i) * right(i)
    if operator == "floordiv":
        return lambda i: left(i) // right(i)
    if operator == "ceildiv":
        return lambda i: -(-left(i) // right(i))
    return lambda i: left(i) % right(i)


def _split_results(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for position, char in enumerate(text):
        depth += char == "("
        depth -= char == ")"
        if char == "," and depth == 0:
            parts.append(text[start:position])
            start = position + 1
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def map_function(text: str) -> Callable[[Index], Index]:
    """`affine_map<(d0, d1) -> (r0, r1)>` → a function from a logical to a physical index."""
    match = re.fullmatch(r"\s*affine_map\s*<\s*\(([^)]*)\)\s*->\s*\((.*)\)\s*>\s*", text, re.S)
    assert match is not None, text
    results = [_parse_expr(_tokens(r)) for r in _split_results(match.group(2))]
    return lambda index: tuple(r(index) for r in results)


def index_function(model: Model) -> Callable[[Index], Index]:
    if isinstance(model, Blocked):
        return blocked_function(model.terms)
    if isinstance(model, MapText):
        return map_function(model.text)
    return lambda index: (
        sum(d * s for d, s in zip(index, model.strides, strict=True)) + model.offset,
    )


def logical_indices(shape: Sequence[int]) -> list[Index]:
    return list(itertools.product(*(range(e) for e in shape)))


def physical_shape(model: Model, shape: Sequence[int]) -> Index:
    """Blocked: ceil(D / Π blocks) per rest, the size per block; otherwise max + 1 per result."""
    if isinstance(model, Blocked):
        return tuple(
            -(-shape[dim] // _all_blocks(model.terms, dim)) if size is None else size
            for dim, size in model.terms
        )
    if isinstance(model, MapText) and model.shape is not None:
        return model.shape
    function = index_function(model)
    images = [function(i) for i in logical_indices(shape)]
    return tuple(max(column) + 1 for column in zip(*images, strict=True))


def offsets(model: Model, shape: Sequence[int]) -> np.ndarray:
    """Offset of every logical index (Horner's rule over the physical shape: C order is
    memory order), as an array of the logical shape."""
    function, extents = index_function(model), physical_shape(model, shape)
    out = np.empty(tuple(shape), dtype=np.int64)
    for index in logical_indices(shape):
        total = 0
        for value, extent in zip(function(index), extents, strict=True):
            total = total * extent + value
        out[index] = total
    return out


# ---- values --------------------------------------------------------------------------------
def stored_value(value: int | float, element_bits: int | None, signed: bool) -> int | float:
    """What an integer element of `element_bits` holds after storing `value` (two's complement)."""
    if element_bits is None or isinstance(value, float):
        return value
    field = int(value) & ((1 << element_bits) - 1)
    if signed and field >> (element_bits - 1):
        return field - (1 << element_bits)
    return field


def place(model: Model, x: np.ndarray, pad: int | float, numpy_dtype: np.dtype) -> np.ndarray:
    """The physical array (lanes unfolded): pad everywhere, then each element at its index."""
    function = index_function(model)
    physical = np.empty(physical_shape(model, x.shape), dtype=numpy_dtype)
    physical[...] = pad
    for index in logical_indices(x.shape):
        physical[function(index)] = x[index]
    return physical


def gather(model: Model, physical: np.ndarray, shape: Sequence[int]) -> np.ndarray:
    """The logical array read back from a physical array (lanes unfolded)."""
    function = index_function(model)
    out = np.empty(tuple(shape), dtype=physical.dtype)
    for index in logical_indices(shape):
        out[index] = physical[function(index)]
    return out


def _shift(container: IntContainer, lane: int) -> int:
    b = container.element_bits
    return container.bits - (lane + 1) * b if container.msb_first else lane * b


def fold_word(lanes: Sequence[int], container: IntContainer) -> int:
    """Lane i at bits [i·b, (i+1)·b) (LSB-first) or [K-(i+1)·b, K-i·b) (MSB-first); rest 0."""
    word = 0
    for lane, value in enumerate(lanes):
        start = _shift(container, lane)
        for bit in range(container.element_bits):
            if (int(value) >> bit) & 1:
                word |= 1 << (start + bit)
    return word


def split_word(word: int, lanes: int, container: IntContainer, signed: bool) -> list[int]:
    values = []
    for lane in range(lanes):
        start = _shift(container, lane)
        field = 0
        for bit in range(container.element_bits):
            field |= ((word >> (start + bit)) & 1) << bit
        values.append(stored_value(field, container.element_bits, signed))
    return values


def storage_dtype(container_bits: int) -> np.dtype:
    return np.dtype(f"uint{next(w for w in (8, 16, 32, 64) if w >= container_bits)}")


def fold(physical: np.ndarray, container: IntContainer) -> np.ndarray:
    """Fold the innermost (lane) axis of a physical array into integer containers."""
    out = np.zeros(physical.shape[:-1], dtype=storage_dtype(container.bits))
    for index in itertools.product(*(range(e) for e in out.shape)):
        out[index] = fold_word([int(v) for v in physical[index]], container)
    return out


def unfold(
    words: np.ndarray, lanes: int, container: IntContainer, numpy_dtype: np.dtype, signed: bool
) -> np.ndarray:
    out = np.empty((*words.shape, lanes), dtype=numpy_dtype)
    for index in itertools.product(*(range(e) for e in words.shape)):
        out[index] = split_word(int(words[index]), lanes, container, signed)
    return out
