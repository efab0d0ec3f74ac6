"""A `Layout` in every notation that can express it."""

from __future__ import annotations

from heterolayout.layout.attribute_text import format_number
from heterolayout.layout.chunked import render_chunked
from heterolayout.layout.expressions import format_map
from heterolayout.layout.maps import format_strided, strided_map, strides_of
from heterolayout.layout.model import Layout
from heterolayout.layout.tags import render_tag
from heterolayout.layout.targets import TARGET_KINDS, target_text

_DEFAULT_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def spec_text(layout: Layout, kind: str) -> str | None:
    """The bare notation (no parameters), or None if `kind` cannot express the layout."""
    terms = layout.blocked_terms
    if kind == "tag" and terms is not None:
        names = layout.dim_names or _DEFAULT_NAMES[: layout.rank]
        return render_tag(names, terms)
    if kind == "chunked" and terms is not None:
        return render_chunked(layout.rank, terms)
    if kind == "map":
        return format_map(layout.index_map)
    if kind == "strided":
        strided = strides_of(layout.index_map)
        if strided is None or layout.is_dynamic:
            return None
        rebuilt = Layout.create(
            layout.logical_shape, strided_map(*strided), injective=True, dtype=layout.dtype
        )
        if rebuilt.physical_shape != layout.physical_shape:
            return None
        return format_strided(*strided)
    if kind in TARGET_KINDS:
        return target_text(layout, kind)
    return None


def attribute_text(layout: Layout, kind: str) -> str:
    """`#layout.<kind><…>` with every parameter that differs from its default."""
    body = spec_text(layout, kind)
    if body is None:
        raise ValueError(f"the {kind} notation cannot express {layout!r}")
    if kind == "tag":
        head = f'"{body}"'
    elif kind == "chunked":
        assert layout.blocked_terms is not None
        head = "[" + ", ".join(f"{t.dim}, {t.size or 0}" for t in layout.blocked_terms) + "]"
    elif kind == "strided":
        head = body[len("strided<") : -1].replace("offset:", "offset =")
    elif kind in TARGET_KINDS:
        head = body
    else:
        shape = ", ".join("?" if e is None else str(e) for e in layout.physical_shape)
        head = f"{body}, shape = [{shape}]"
    params = [head]
    if layout.pad != 0:
        params.append(f"pad = {format_number(layout.pad)}")
    if layout.packing is not None:
        params.append(str(layout.packing))
    return f"#layout.{kind}<{', '.join(params)}>"


def notations(layout: Layout) -> dict[str, str]:
    return {
        kind: attribute_text(layout, kind)
        for kind in ("tag", "chunked", "map", "strided", *TARGET_KINDS)
        if spec_text(layout, kind) is not None
    }
