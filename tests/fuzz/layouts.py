"""Random layouts of every kind the docs promise (docs/notations.md), as the text a memref type carries.

Each generator takes the logical shape and element type a program chose and returns a
`FuzzLayout` (or None where the kind does not fit them): tags (several blocks per dim,
padding, a pad value), named oneDNN/MegEngine formats, HTP chunked layouts (pair lists,
`ChunkedMemoryLayout<…>` text, aliases), `#layout.map` (digit maps and skewed, scaled,
linearized ones, with an explicit physical shape), `#layout.strided` (negative strides,
offsets, padded leading dims), MLIR's builtin `affine_map<…>` and `strided<…>`, Sophgo TPU
local memory, FPGA partitions, cyclic maps (banks outermost, usually a `floordiv`
innermost), and packed integer (either bit order, up to 64 lanes) and vector containers.

Physical sizes are estimated here from the layouts' definitions (DESIGN.md), never by asking
heterolayout, and kept under `limit` slots: `MAX_PHYSICAL` so that a program runs in well
under a second, more in the few large programs (whose kinds are then weighted to the
conversions that take other paths at that size).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tests import elementwise_reference as reference
from tests.fuzz.choices import Choices, chance
from tests.strategies import (
    HTP_ALIASES,
    NAMED_FORMATS,
    Terms,
    blocked_size,
    choose_block_terms,
    choose_dim_letters,
    choose_injective_component,
    choose_tag_text,
    chunked_text,
    digit_map_results,
    map_text,
    pair_list,
    tag_terms,
)

MAX_PHYSICAL = 4096
"""Physical slots of one buffer, at most."""

FLOATS = ("f16", "f32", "f64")
INTEGER_BITS = {"i1": 1, "i2": 2, "i4": 4, "i7": 7, "i8": 8, "i12": 12, "i16": 16, "i32": 32}
ELEMENTS = (
    *("f32", "f32", "f32", "f64", "f16", "i32", "i32", "i16", "i8", "i8"),
    *("i4", "i2", "i1", "i1", "i7", "i12"),
)
BYTES = {"f16": 2, "f32": 4, "f64": 8, "i12": 2, "i16": 2, "i32": 4} | {
    e: 1 for e in ("i1", "i2", "i4", "i7", "i8")
}


@dataclass(frozen=True)
class FuzzLayout:
    """A layout attribute as written in a memref type, and what the generator knows of it."""

    kind: str
    text: str
    dynamic_dims: frozenset[int] = frozenset()
    """Logical dims that may be `?` (no block, no padding, no stride rule on them)."""


def _pad(c: Choices, element: str) -> str:
    """`, pad = v` for a value the element type holds, or nothing (the default pad 0)."""
    if not chance(c, 25):
        return ""
    if element in FLOATS:
        return f", pad = {c.choice(['1.5', '-2.0', '0.25', '7.0'])}"
    bits = INTEGER_BITS[element]
    return f", pad = {c.integer(-(2 ** (bits - 1)), 2**bits - 1)}"


def _unblocked(terms: Terms, rank: int) -> frozenset[int]:
    return frozenset(d for d in range(rank) if all(s is None for t, s in terms if t == d))


def _fit_terms(
    terms: Terms, shape: Sequence[int], limit: int, keep_last: bool = False
) -> Terms | None:
    """Drop blocks (outermost first) until the physical buffer is small enough."""
    size = blocked_size(terms)
    while size(tuple(shape)) > limit:
        blocks = [i for i, (_, s) in enumerate(terms) if s is not None]
        if keep_last:
            blocks = blocks[:-1]
        if not blocks:
            return None
        terms = terms[: blocks[0]] + terms[blocks[0] + 1 :]
        size = blocked_size(terms)
    return terms


def tag(
    c: Choices, shape: Sequence[int], element: str, limit: int = MAX_PHYSICAL
) -> FuzzLayout | None:
    rank = len(shape)
    terms = _fit_terms(choose_block_terms(c, rank, max_blocks=3, max_size=8), shape, limit)
    if terms is None:
        return None
    text = choose_tag_text(c, choose_dim_letters(c, rank), terms)
    return FuzzLayout("tag", f'#layout.tag<"{text}"{_pad(c, element)}>', _unblocked(terms, rank))


def named(
    c: Choices, shape: Sequence[int], element: str, limit: int = MAX_PHYSICAL
) -> FuzzLayout | None:
    names = [n for n, (source, _) in sorted(NAMED_FORMATS.items()) if len(source) == len(shape)]
    if not names:
        return None
    name = c.choice(names)
    terms = tag_terms(*NAMED_FORMATS[name])
    if blocked_size(terms)(tuple(shape)) > limit:
        return None
    return FuzzLayout(
        "named", f'#layout.tag<"{name}"{_pad(c, element)}>', _unblocked(terms, len(shape))
    )


def chunked(
    c: Choices, shape: Sequence[int], element: str, limit: int = MAX_PHYSICAL
) -> FuzzLayout | None:
    rank = len(shape)
    if rank == 4 and chance(c, 30):
        name = c.choice(sorted(HTP_ALIASES))
        terms = HTP_ALIASES[name]
        if blocked_size(terms)(tuple(shape)) > limit:
            return None
        body = c.choice([f'"{name}"', pair_list(terms)])
    else:
        found = _fit_terms(choose_block_terms(c, rank, max_blocks=3, max_size=8), shape, limit)
        if found is None:
            return None
        terms = found
        body = c.choice([pair_list(terms), f'"{chunked_text(rank, terms)}"'])
    return FuzzLayout(
        "chunked", f"#layout.chunked<{body}{_pad(c, element)}>", _unblocked(terms, rank)
    )


def _map_results(c: Choices, shape: Sequence[int], limit: int) -> tuple[list[str], frozenset[int]]:
    """Digit-form results (tilings, transposes) or injective non-digit components; the
    dims that appear alone as a result and nowhere else."""
    rank = len(shape)
    if c.boolean():
        terms = _fit_terms(
            choose_block_terms(c, rank, max_blocks=2, max_size=6), shape, limit
        ) or tuple((d, None) for d in range(rank))
        return digit_map_results(terms), _unblocked(terms, rank)
    dims = c.permutation(range(rank))
    results: list[str] = []
    while dims:
        results += choose_injective_component(c, dims, tuple(shape))
    results = c.permutation(results)
    mentions = [set(re.findall(r"\bd(\d+)\b", r)) for r in results]
    bare = frozenset(
        d for d in range(rank) if f"d{d}" in results and sum(str(d) in m for m in mentions) == 1
    )
    return results, bare


def _exact_extents(text: str, shape: Sequence[int]) -> tuple[int, ...]:
    return reference.physical_shape(reference.MapText(text), shape)


def layout_map(
    c: Choices, shape: Sequence[int], element: str, limit: int = MAX_PHYSICAL
) -> FuzzLayout | None:
    results, bare = _map_results(c, shape, limit)
    text = map_text(len(shape), results)
    exact = _exact_extents(text, shape)
    if math.prod(exact) > limit:
        return None
    if chance(c, 30):
        grown = tuple(e + c.integer(0, 2) for e in exact)
        if math.prod(grown) <= limit:
            explicit = ", ".join(str(e) for e in grown)
            return FuzzLayout("map", f"#layout.map<{text}, shape = [{explicit}]{_pad(c, element)}>")
    return FuzzLayout("map", f"#layout.map<{text}{_pad(c, element)}>", bare)


def builtin_map(
    c: Choices, shape: Sequence[int], element: str, limit: int = MAX_PHYSICAL
) -> FuzzLayout | None:
    results, bare = _map_results(c, shape, limit)
    text = map_text(len(shape), results)
    # upstream extents: `x mod k` has extent k, which may exceed the exact one
    if math.prod(_exact_extents(text, shape)) * 8 > limit * 2:
        return None
    return FuzzLayout("builtin-map", text, bare)


def _strides(c: Choices, shape: Sequence[int], signed: bool) -> tuple[list[int], int]:
    """Injective strides: a padded, permuted row-major layout, signs random if `signed`,
    the offset keeping every element at a non-negative offset."""
    strides = [0] * len(shape)
    span = 0
    for dim in c.permutation(range(len(shape))):
        if shape[dim] == 1 and chance(c, 30):
            strides[dim] = c.integer(0, 5)
            continue
        stride = span + 1 + c.integer(0, 3) if span else c.integer(1, 3)
        strides[dim] = stride
        span += (shape[dim] - 1) * stride
    if signed:
        strides = [s * c.choice([1, 1, -1]) for s in strides]
    low = sum((e - 1) * s for e, s in zip(shape, strides, strict=True) if s < 0)
    return strides, -low + c.integer(0, 4)


def _strided_size(shape: Sequence[int], strides: Sequence[int], offset: int) -> int:
    return offset + sum((e - 1) * abs(s) for e, s in zip(shape, strides, strict=True)) + 1


def strided(
    c: Choices, shape: Sequence[int], element: str, limit: int = MAX_PHYSICAL
) -> FuzzLayout | None:
    strides, offset = _strides(c, shape, signed=True)
    if _strided_size(shape, strides, offset) > limit:
        return None
    listed = ", ".join(str(s) for s in strides)
    return FuzzLayout(
        "strided", f"#layout.strided<[{listed}], offset = {offset}{_pad(c, element)}>"
    )


def builtin_strided(
    c: Choices, shape: Sequence[int], element: str, limit: int = MAX_PHYSICAL
) -> FuzzLayout | None:
    strides, offset = _strides(c, shape, signed=False)
    if _strided_size(shape, strides, offset) > limit:
        return None
    listed = ", ".join(str(s) for s in strides)
    if offset == 0 and c.boolean():
        return FuzzLayout("builtin-strided", f"strided<[{listed}]>")
    return FuzzLayout("builtin-strided", f"strided<[{listed}], offset: {offset}>")


def tpu(
    c: Choices, shape: Sequence[int], element: str, limit: int = MAX_PHYSICAL
) -> FuzzLayout | None:
    """Sophgo TPU local memory on NCHW (or an N×M matrix), aligned, compact or explicit
    strides, and the 4N / 2N / 2IC storage modes with their containers."""
    lanes = c.choice([2, 3, 4, 8])
    params = [f"lanes = {lanes}"]
    if len(shape) == 2:
        width = c.integer(1, shape[1])
        n, channels, h, w = shape[0], -(-shape[1] // width), 1, width
        params.append(f"matrix = {width}")
        start = 0
    elif len(shape) == 4:
        n, channels, h, w = shape
        start = c.integer(0, lanes - 1)
        params.append(f"start = {start}")
    else:
        return None
    word = BYTES[element]
    mode = None
    if len(shape) == 4 and element == "i8" and chance(c, 40):
        mode, n, word = '"4N"', -(-n // 4), 4
    elif len(shape) == 4 and element == "i16" and chance(c, 40):
        mode, n, word = '"2N"', -(-n // 2), 4
    elif len(shape) == 4 and element == "f32" and chance(c, 25):
        mode, n, word = '"2IC"', -(-n // 2), 8
    rows = -(-(start + channels) // lanes)
    stride = (
        c.choice(["aligned", "compact", "explicit"])
        if mode is None
        else c.choice(["aligned", "compact"])
    )
    if stride == "explicit":
        ws = 1
        hs = w + c.integer(0, 2)
        cs = h * hs + c.integer(0, 3)
        ns = cs * rows + c.integer(0, 3)
        params.append(f"stride = [{ns}, {cs}, {hs}, {ws}]")
        per_lane = n * ns
    else:
        params.append(f"stride = {stride}")
        cs = h * w if stride == "compact" else -(-(h * w * word) // 128) * 128 // word
        per_lane = n * cs * rows
    if mode is not None:
        params.append(f"mode = {mode}")
        container = {'"4N"': "i32", '"2N"': "i32", '"2IC"': "vector<2xf32>"}[mode]
        if chance(c, 60):
            params.append(f"pack = {container}")
    if lanes * per_lane * (4 if mode else 1) > limit:
        return None
    return FuzzLayout("tpu", f"#layout.tpu<{', '.join(params)}{_pad(c, element)}>")


def partition(
    c: Choices, shape: Sequence[int], element: str, limit: int = MAX_PHYSICAL
) -> FuzzLayout | None:
    """Vivado's array_partition: cyclic, block (a factor dividing the dim) or complete, on
    one or two dims, one kind for all or one per dim."""
    rank = len(shape)
    dims = sorted(c.permutation(range(rank))[: c.integer(1, min(2, rank))])
    kinds, factors = [], []
    for d in dims:
        divisors = [f for f in range(2, shape[d] + 1) if shape[d] % f == 0]
        options = (
            ["cyclic"] + (["block"] if divisors else []) + (["complete"] if shape[d] <= 6 else [])
        )
        kind = c.choice(options)
        kinds.append(kind)
        if kind == "cyclic":
            factors.append(c.integer(2, 5))
        elif kind == "block":
            factors.append(c.choice(divisors))
        else:
            factors.append(shape[d])
    listed = ", ".join(str(d) for d in dims)
    if len(set(kinds)) == 1 and (kinds[0] == "complete" or len(set(factors)) == 1):
        kind_text = kinds[0]
        factor_text = "" if kinds[0] == "complete" else f", factor = {factors[0]}"
    else:
        kind_text = f"[{', '.join(kinds)}]"
        factor_text = f", factor = [{', '.join(str(f) for f in factors)}]"
    unpartitioned = frozenset(d for d in range(rank) if d not in dims)
    text = f"#layout.partition<{kind_text}, dims = [{listed}]{factor_text}{_pad(c, element)}>"
    return FuzzLayout("partition", text, unpartitioned)


def packed(
    c: Choices, shape: Sequence[int], element: str, limit: int = MAX_PHYSICAL
) -> FuzzLayout | None:
    """A tag or chunked layout whose innermost term is a block of lanes, packed into an
    integer container (integer lanes, either bit order) or a vector container."""
    rank = len(shape)
    bits = INTEGER_BITS.get(element)
    vector = bits is None or bits in (16, 32) or chance(c, 30)
    if chance(c, 25):  # whole words: 64 i1 lanes to an i64, or a vector<64xi1>
        max_lanes = 64 // bits if bits is not None and bits < 16 else 16
    else:
        max_lanes = 8 if vector else max(1, min(8, 64 // bits))  # type: ignore[operator]
    lanes = c.integer(1, max_lanes) if chance(c, 70) else max_lanes
    terms = (
        *choose_block_terms(c, rank, max_blocks=2, max_size=6),
        (c.integer(0, rank - 1), lanes),
    )
    fitted = _fit_terms(terms, shape, limit, keep_last=True)
    if fitted is None:
        return None
    if vector:
        pack = f"pack = vector<{lanes}x{element}>"
    else:
        assert bits is not None
        needed = lanes * bits
        standard = [k for k in (8, 16, 32, 64) if k >= needed]
        container = c.choice(standard) if chance(c, 70) else c.integer(needed, min(64, needed + 9))
        pack = f"pack = i{container}"
        order = c.choice(["", ', bit_order = "lsb"', ', bit_order = "msb"', ', bit_order = "msb"'])
        pack += order
    if c.boolean():
        body = f'"{choose_tag_text(c, choose_dim_letters(c, rank), fitted)}"'
        kind = "tag"
    else:
        body = c.choice([pair_list(fitted), f'"{chunked_text(rank, fitted)}"'])
        kind = "chunked"
    text = f"#layout.{kind}<{body}{_pad(c, element)}, {pack}>"
    return FuzzLayout("packed-vector" if vector else "packed-int", text, _unblocked(fitted, rank))


def cyclic(
    c: Choices, shape: Sequence[int], element: str, limit: int = MAX_PHYSICAL
) -> FuzzLayout | None:
    """A cyclic map, HeteroCL's `(d0 mod 4, d1 mod 4, d0 floordiv 4, d1 floordiv 4)` and its
    kin: the banks (`d mod k`) of some dims outermost, then every dim with the banked ones
    divided, usually ending on a `floordiv` (the innermost physical dim then steps through
    the logical dim by k)."""
    rank = len(shape)
    dims = [d for d in range(rank) if shape[d] > 1]
    if not dims:
        return None
    banked = sorted(c.permutation(dims)[: c.integer(1, min(2, len(dims)))])
    factors = {d: c.integer(2, min(8, shape[d])) for d in banked}
    banks = [f"d{d} mod {factors[d]}" for d in c.permutation(banked)]
    rest = [d for d in range(rank) if d not in banked]
    order = c.permutation(rest + banked) if chance(c, 30) else rest + c.permutation(banked)
    results = banks + [f"d{d} floordiv {factors[d]}" if d in banked else f"d{d}" for d in order]
    text = map_text(rank, results)
    extents = [min(factors[d], shape[d]) for d in banked] + [
        -(-shape[d] // factors[d]) if d in banked else shape[d] for d in order
    ]
    if math.prod(extents) > limit:
        return None
    bare = frozenset(rest)
    if chance(c, 30):
        return FuzzLayout("cyclic", text, bare)  # builtin: each bank extent is its factor
    return FuzzLayout("cyclic", f"#layout.map<{text}{_pad(c, element)}>", bare)


Generate = Callable[[Choices, Sequence[int], str, int], "FuzzLayout | None"]
GENERATORS: dict[str, Generate] = {
    "tag": tag,
    "named": named,
    "chunked": chunked,
    "map": layout_map,
    "strided": strided,
    "builtin-map": builtin_map,
    "builtin-strided": builtin_strided,
    "tpu": tpu,
    "partition": partition,
    "packed": packed,
    "cyclic": cyclic,
}
WEIGHTS = {
    "tag": 4,
    "named": 2,
    "chunked": 2,
    "map": 3,
    "strided": 2,
    "builtin-map": 1,
    "builtin-strided": 1,
    "tpu": 2,
    "partition": 2,
    "packed": 4,
    "cyclic": 2,
}
LARGE_WEIGHTS = {
    "tag": 3,
    "named": 1,
    "chunked": 2,
    "map": 2,
    "strided": 1,
    "builtin-map": 1,
    "builtin-strided": 1,
    "tpu": 1,
    "partition": 4,
    "packed": 4,
    "cyclic": 6,
}
"""For buffers of the tiled conversions' size: the kinds whose conversions take other paths
there (cyclic maps and partitions: a `floordiv` innermost; packed words) more often."""


def random_layout(
    c: Choices, shape: Sequence[int], element: str, limit: int = MAX_PHYSICAL
) -> FuzzLayout | None:
    """A layout of a random kind that fits the shape and element type (None if the few
    kinds tried do not)."""
    weights = dict(WEIGHTS if limit <= MAX_PHYSICAL else LARGE_WEIGHTS)
    if INTEGER_BITS.get(element, 8) % 8:  # sub-byte lanes: packed words more often
        weights["packed"] *= 3
    kinds = [k for k, w in weights.items() for _ in range(w)]
    for _ in range(4):
        found = GENERATORS[c.choice(kinds)](c, shape, element, limit)
        if found is not None:
            return found
    return None
