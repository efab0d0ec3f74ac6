"""`parse_layout`: every notation's text, one entry point, one `Layout` out.

Bare notation text (a tag or named format, HTP chunked text or an alias, `affine_map<…>`,
`strided<…>`) is parsed by its notation's parser here, then built by the notation's
constructor (`constructors`). `#layout.<kind><…>` attribute text (and `tpu<…>` or
`partition<…>`, the same without `#layout.`) goes to the dialect's attribute parser,
whose attribute calls the same constructors.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

from heterolayout.layout.blocked import MAX_EXTENT
from heterolayout.layout.chunked import ALIASES, ChunkedError, is_chunked_spec, parse_chunked
from heterolayout.layout.constructors import (
    Common,
    builtin_map_layout,
    chunked_layout,
    map_layout,
    strided_layout,
    tag_layout,
)
from heterolayout.layout.element_types import ElementType, element_type
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.limits import (
    MAX_RANK,
    LimitError,
    check_nesting,
    deep_recursion,
    shorten,
    too_deep,
)
from heterolayout.layout.maps import parse_affine_map, parse_strided
from heterolayout.layout.model import Layout, format_shape
from heterolayout.layout.packing import Packing
from heterolayout.layout.services import attribute_text
from heterolayout.layout.tags import MEGENGINE_FORMATS, known_formats

ShapeSpec = str | Sequence[int | None]
Extents = tuple[int | None, ...]
_TARGET_SPELLING = re.compile(r"^(tpu|partition)\s*<")


def parse_shape(shape: ShapeSpec) -> tuple[int | None, ...]:
    """`(2, 17, 5, 4)`, `"2x17x5x4"` or `"2x?x5"`; `?`, None or -1 is a dynamic dim."""
    if isinstance(shape, str):
        items: list[str | int | None] = (
            [s.strip() for s in shape.split("x")] if shape.strip() else []
        )
    elif isinstance(shape, Sequence | np.ndarray):
        items = list(shape)
    else:
        raise LayoutError(
            f"shape {shape!r} is not a shape (expected a sequence of extents or text like '2x17')"
        )
    if len(items) > MAX_RANK:
        raise LayoutError(f"shape: {len(items)} dims, more than the limit of {MAX_RANK}")
    dims: list[int | None] = []
    for item in items:
        if isinstance(item, bool | np.bool_):
            raise LayoutError(f"shape {shape!r}: {item} is not an extent")
        if item in ("?", None, -1):
            dims.append(None)
            continue
        try:
            value = int(item)
        except (TypeError, ValueError, OverflowError):
            raise LayoutError(f"shape {shape!r}: '{item}' is not an extent") from None
        if isinstance(item, float) and not float(item).is_integer():
            raise LayoutError(f"shape {shape!r}: extent {item} is not an integer")
        if value < 0:
            raise LayoutError(f"shape {shape!r}: extent {value} must not be negative")
        if value > MAX_EXTENT:
            raise LayoutError(
                f"shape {shape!r}: extent {value} is too large (the limit is 2^40 = {MAX_EXTENT})"
            )
        dims.append(value)
    return tuple(dims)


def parse_layout(
    spec: str | Layout,
    shape: ShapeSpec,
    *,
    dtype: str | ElementType | np.dtype | type | None = None,
    pad: int | float | None = None,
    pack: str | None = None,
    bit_order: str | None = None,
    physical_shape: ShapeSpec | None = None,
) -> Layout:
    """Build the `Layout` of `spec` on a logical `shape`.

    `spec` is a tag (`"NCHW->nChw16c"`), a named format (`"nChw8c"`, `"NCHW4"`), HTP chunked
    text or an alias, `affine_map<…>`, `strided<[…], offset: …>`, `#layout.…` attribute
    text, or a `Layout` (its map, physical shape, pad and packing on `shape`). Parameters
    given here and in the spec must agree.
    """
    try:
        with deep_recursion():
            return _parse_layout(spec, shape, dtype, pad, pack, bit_order, physical_shape)
    except (LimitError, LayoutError) as error:
        raise LayoutError(shorten(str(error))) from None
    except RecursionError:
        raise LayoutError(too_deep(f"layout {str(spec)[:60]!r}")) from None


def _parse_layout(
    spec: str | Layout,
    shape: ShapeSpec,
    dtype: str | ElementType | np.dtype | type | None,
    pad: int | float | None,
    pack: str | None,
    bit_order: str | None,
    physical_shape: ShapeSpec | None,
) -> Layout:
    logical = parse_shape(shape)
    element = None if dtype is None else element_type(dtype)
    _check_pad_argument(pad)
    if isinstance(spec, Layout):
        return _from_layout(spec, logical, element, pad, pack, bit_order, physical_shape)
    if not isinstance(spec, str):
        raise LayoutError(f"layout spec {spec!r} is not a string")
    spec = " ".join(spec.split())
    if not spec:
        raise LayoutError("empty layout spec")
    check_nesting(spec, "layout spec")
    where = f"layout '{spec}'"
    explicit = None if physical_shape is None else parse_shape(physical_shape)
    if spec.startswith("#layout.") or _TARGET_SPELLING.match(spec):
        return _from_attribute(spec, logical, element, pad, pack, bit_order, explicit, where)
    common = Common(
        pad=0 if pad is None else pad,
        dtype=element,
        packing=_packing(pack, bit_order, where),
        physical_shape=explicit,
        where=where,
    )
    if spec.startswith("affine_map"):
        return builtin_map_layout(parse_affine_map(spec), logical, common)
    if spec.startswith("strided"):
        strides, offset = parse_strided(spec)
        return strided_layout(strides, offset, logical, common)
    if is_chunked_spec(spec):
        try:
            rank, terms = parse_chunked(spec)
        except ChunkedError as error:
            raise LayoutError(str(error)) from None
        if rank != len(logical):
            raise LayoutError(
                f"{where}: rank {rank} does not match the shape {format_shape(logical)}"
            )
        return chunked_layout(terms, logical, common)
    _check_tag_spelling(spec)
    return tag_layout(spec, logical, common)


def _from_attribute(
    text: str,
    logical: Extents,
    element: ElementType | None,
    pad: int | float | None,
    pack: str | None,
    bit_order: str | None,
    explicit: Extents | None,
    where: str,
) -> Layout:
    """`#layout.…` text, read by the dialect; the arguments must agree with its parameters."""
    attribute, written = attribute_text(where).parse(
        text if text.startswith("#") else "#layout." + text, where
    )
    if "pad" in written:
        pad = _agree("pad", pad, attribute.pad_value, where)
    if "pack" in written:
        pack = _agree("pack", None if pack is None else pack.strip(), str(attribute.pack), where)
    if "bit_order" in written:
        order = attribute.packing.bit_order if attribute.packing is not None else None
        bit_order = _agree("bit_order", bit_order, order, where)
    common = Common(
        pad=0 if pad is None else pad,
        dtype=element,
        packing=_packing(pack, bit_order, where),
        physical_shape=_agree("shape", explicit, attribute.physical_shape, where),
        where=where,
    )
    return attribute.build(logical, common)


def _from_layout(
    layout: Layout,
    logical: Extents,
    element: ElementType | None,
    pad: int | float | None,
    pack: str | None,
    bit_order: str | None,
    physical_shape: ShapeSpec | None,
) -> Layout:
    """A Layout's map, physical shape, pad and packing on `logical` (arguments must agree)."""
    where = f"layout {layout!r}"
    explicit = None if physical_shape is None else parse_shape(physical_shape)
    physical = _agree("shape", explicit, layout.physical_shape, where)
    written = layout.packing
    packing = _packing(pack, bit_order, where)
    if packing is not None and written is not None and packing != written:
        _contradiction("pack", packing, written, where)
    common = Common(
        pad=_agree("pad", pad, layout.pad if layout.pad != 0 else None, where) or 0,
        dtype=element,
        packing=packing or written,
        physical_shape=physical,
        where=where,
    )
    return map_layout(layout.index_map, logical, common)


T = TypeVar("T")


def _agree(name: str, argument: T | None, from_spec: T | None, where: str) -> T | None:
    if from_spec is None:
        return argument
    if argument is not None and argument != from_spec:
        _contradiction(name, argument, from_spec, where)
    return from_spec


def _contradiction(name: str, argument: object, from_spec: object, where: str) -> None:
    raise LayoutError(
        f"{where}: {name} = {argument!r} contradicts {name} = {from_spec!r} in the spec"
    )


def _check_pad_argument(pad: object) -> None:
    if pad is not None and (isinstance(pad, bool) or not isinstance(pad, (int, float, np.number))):
        raise LayoutError(f"pad {pad!r} is not a number")
    if isinstance(pad, float | np.floating) and not math.isfinite(pad):
        raise LayoutError(f"pad {pad} is not finite (MLIR's attribute text has no literal for it)")


def _check_tag_spelling(text: str) -> None:
    """What is left must be a tag or a named format; else the closest known name."""
    if "->" in text or text.upper() in MEGENGINE_FORMATS or _looks_like_format(text):
        return
    names = [*ALIASES, *known_formats()]
    suggestion = difflib.get_close_matches(text, names, n=1, cutoff=0.6)
    hint = f"; did you mean '{suggestion[0]}'?" if suggestion else ""
    raise LayoutError(f"unknown layout '{text}'{hint}")


def _looks_like_format(text: str) -> bool:
    if re.fullmatch(r"(\d*[A-Za-z])+", text) is None:
        return False
    if "Layout" in text or text.startswith("R4"):
        close = difflib.get_close_matches(text, list(ALIASES), n=1, cutoff=0.6)
        raise LayoutError(
            f"unknown alias '{text}'" + (f"; did you mean '{close[0]}'?" if close else "")
        )
    return True


def _packing(pack: str | None, bit_order: str | None, where: str) -> Packing | None:
    if pack is not None and not isinstance(pack, str):
        raise LayoutError(f"pack {pack!r} is not a container type (iK or vector<LxT>)")
    if pack is None:
        if bit_order is not None:
            raise LayoutError(f'{where}: bit_order = "{bit_order}" needs a pack = <container>')
        return None
    packing = Packing(pack)
    if bit_order is not None:
        if packing.is_vector:
            raise LayoutError(
                f"{where}: pack = {packing.container}: bit_order applies to integer containers "
                "only, a vector container has no bit order"
            )
        packing = Packing(packing.container, bit_order)  # type: ignore[arg-type]
    return packing
