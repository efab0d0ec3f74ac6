"""`parse_layout`: every notation, one entry point, one `Layout` out."""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Sequence

import numpy as np
from xdsl.ir.affine import AffineMap

from heterolayout.layout.attribute_text import (
    parse_attribute_text,
    parse_int_list,
    parse_number,
    unquote,
)
from heterolayout.layout.blocked import MAX_EXTENT, Term, blocked_map, blocked_physical_shape
from heterolayout.layout.chunked import ALIASES, ChunkedError, is_chunked_spec, parse_chunked
from heterolayout.layout.element_types import ElementType, element_type
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.maps import (
    parse_affine_map,
    parse_strided,
    strided_map,
    without_unused_symbols,
)
from heterolayout.layout.model import Layout, check_map_nesting, format_shape
from heterolayout.layout.normalize import normalized_extents
from heterolayout.layout.packing import Packing
from heterolayout.layout.tags import MEGENGINE_FORMATS, TagError, known_formats, parse_tag
from heterolayout.layout.targets import (
    TARGET_KINDS,
    is_target_spec,
    target_attribute,
    target_layout,
)
from heterolayout.limits import (
    MAX_RANK,
    LimitError,
    check_nesting,
    deep_recursion,
    shorten,
    too_deep,
)

ShapeSpec = str | Sequence[int | None]
_PARAMETERS = {"pad", "pack", "bit_order", "shape", "offset"}


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
            value = int(item)  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            raise LayoutError(f"shape {shape!r}: '{item}' is not an extent") from None
        if isinstance(item, float) and not item.is_integer():
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
    text or an alias, `affine_map<…>`, `strided<[…], offset: …>`, or `#layout.…` attribute
    text. Parameters given here and in the spec must agree.
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
    if isinstance(spec, Layout):
        spec = spec.to_map()
    if not isinstance(spec, str):
        raise LayoutError(f"layout spec {spec!r} is not a string")
    spec = " ".join(spec.split())
    if not spec:
        raise LayoutError("empty layout spec")
    check_nesting(spec, "layout spec")
    _check_pad_argument(pad)
    text = "#layout." + spec if is_target_spec(spec) else spec
    params: dict[str, str] = {}
    kind = _kind_of(text)
    builtin_map = kind == "map"  # MLIR's own `affine_map<…>`: sized as upstream sizes it
    if kind == "attribute":
        attribute = parse_attribute_text(text)
        if attribute.kind in TARGET_KINDS:
            attribute = target_attribute(attribute, f"layout '{spec}'")
        unknown = set(attribute.params) - _PARAMETERS
        if unknown and attribute.kind not in TARGET_KINDS:
            raise LayoutError(f"#layout.{attribute.kind}: unknown parameter '{sorted(unknown)[0]}'")
        kind, text, params = attribute.kind, attribute.body, attribute.params
        if kind == "tag" or (kind == "chunked" and text.startswith('"')):
            text = unquote(text, f"#layout.{kind}")
    where = f"layout '{spec.strip()}'"
    resolved_pad = _merge(pad, params.get("pad"), "pad", where, lambda v: parse_number(v, where))
    resolved_pack = _merge(pack, params.get("pack"), "pack", where, lambda v: v.strip())
    resolved_order = _merge(
        bit_order, params.get("bit_order"), "bit_order", where, lambda v: unquote(v, where)
    )
    explicit_shape = _merge(
        None if physical_shape is None else parse_shape(physical_shape),
        params.get("shape"),
        "shape",
        where,
        lambda v: tuple(parse_int_list(v, where)),
    )
    packing = _packing(resolved_pack, resolved_order, where)
    common = {
        "pad": 0 if resolved_pad is None else resolved_pad,
        "dtype": element,
        "packing": packing,
        "where": where,
    }
    if kind == "tag":
        try:
            names, terms = parse_tag(text)
        except TagError as error:
            raise LayoutError(str(error)) from None
        return _blocked(logical, terms, names, explicit_shape, where, common)
    if kind == "chunked":
        if text.startswith("["):
            values = parse_int_list(text, where)
            if None in values:
                raise LayoutError(f"{where}: chunked pairs must be integers")
            text = f"ChunkedMemoryLayout<{len(logical)}, {', '.join(str(v) for v in values)}>"
        try:
            rank, terms = parse_chunked(text)
        except ChunkedError as error:
            raise LayoutError(str(error)) from None
        if rank != len(logical):
            raise LayoutError(
                f"{where}: rank {rank} does not match the shape {format_shape(logical)}"
            )
        return _blocked(logical, terms, None, explicit_shape, where, common)
    if kind == "map":
        index_map = without_unused_symbols(parse_affine_map(text))
        if builtin_map and explicit_shape is None and not index_map.num_symbols:
            explicit_shape = _normalized_shape(index_map, logical, where)
        return Layout.create(logical, index_map, explicit_shape, **common)  # type: ignore[arg-type]
    if kind == "strided":
        if "offset" in params:
            text = f"strided<{text}, offset: {params['offset']}>"
        elif text.startswith("["):
            text = f"strided<{text}>"
        strides, offset = parse_strided(text)
        if len(strides) != len(logical):
            raise LayoutError(
                f"{where}: {len(strides)} strides but the shape {format_shape(logical)} has rank {len(logical)}"
            )
        if None in logical:
            raise LayoutError(f"{where}: strided layouts need a static shape ('?' given)")
        return Layout.create(logical, strided_map(strides, offset), explicit_shape, **common)  # type: ignore[arg-type]
    if kind in TARGET_KINDS:
        return target_layout(kind, text, params, logical, explicit_shape, common)
    raise LayoutError(
        f"{where}: unknown layout kind #layout.{kind} "
        "(expected tag, chunked, map or strided, or a target layout: tpu or partition)"
    )


def _normalized_shape(
    index_map: AffineMap, logical: tuple[int | None, ...], where: str
) -> tuple[int | None, ...] | None:
    """Upstream --normalize-memrefs's extents of a builtin map (None: the map does not fit
    the shape, which `Layout.create` reports)."""
    if index_map.num_dims != len(logical) or 0 in logical:
        return None  # zero-size dims: upstream makes them dynamic; the exact extents stay
    check_map_nesting(index_map, f"{where}: ")
    try:
        return normalized_extents(index_map, logical)
    except LayoutError as error:
        raise LayoutError(f"{where}: {error}") from None


def _check_pad_argument(pad: object) -> None:
    if pad is not None and (isinstance(pad, bool) or not isinstance(pad, (int, float, np.number))):
        raise LayoutError(f"pad {pad!r} is not a number")
    if isinstance(pad, float | np.floating) and not math.isfinite(pad):
        raise LayoutError(f"pad {pad} is not finite (MLIR's attribute text has no literal for it)")


def _kind_of(text: str) -> str:
    if text.startswith("#layout."):
        return "attribute"
    if text.startswith("affine_map"):
        return "map"
    if text.startswith("strided"):
        return "strided"
    if is_chunked_spec(text):
        return "chunked"
    if "->" in text or text.upper() in MEGENGINE_FORMATS or _looks_like_format(text):
        return "tag"
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


def _merge(argument, from_spec, name: str, where: str, convert):  # type: ignore[no-untyped-def]
    if from_spec is None:
        return argument
    value = convert(from_spec)
    if argument is not None and argument != value:
        raise LayoutError(
            f"{where}: {name} = {argument!r} contradicts {name} = {value!r} in the spec"
        )
    return value


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


def _blocked(
    logical: tuple[int | None, ...],
    terms: tuple[Term, ...],
    names: str | None,
    explicit_shape: tuple[int | None, ...] | None,
    where: str,
    common: dict,
) -> Layout:
    rank = max(t.dim for t in terms) + 1
    if rank != len(logical):
        raise LayoutError(
            f"{where}: the layout has rank {rank} but the shape {format_shape(logical)} has rank {len(logical)}"
        )
    physical = blocked_physical_shape(terms, logical, where, names)
    if explicit_shape is not None and tuple(explicit_shape) != physical:
        raise LayoutError(
            f"{where}: shape = {format_shape(explicit_shape)} contradicts the physical shape "
            f"{format_shape(physical)} that the blocks define"
        )
    return Layout.create(
        logical, blocked_map(terms, rank), physical, dim_names=names, injective=True, **common
    )
