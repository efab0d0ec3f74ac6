"""An SVG drawing of where every logical element lands in the physical buffer.

The buffer is drawn as a grid of cells in memory order, one memory row of the walk per grid
row (long rows wrap). Each data cell is coloured by one logical coordinate (its hue) and,
when the drawing is small, labelled with its logical index; pad cells are grey and hatched.
Plain SVG text, no dependency.
"""

from __future__ import annotations

import colorsys
from xml.sax.saxutils import escape, quoteattr

from heterolayout.layout.errors import LayoutError
from heterolayout.layout.model import Layout, format_shape
from heterolayout.layout.walk import MemoryWalk

MAX_CELLS = 1 << 16
"""Larger buffers would make drawings no viewer can show; explain them as text instead."""

MAX_LABELLED_CELLS = 4096
MAX_COLUMNS = 64
_CHUNK = 1 << 14
_MARGIN = 8
_HEADER = 40


def colour_dim(layout: Layout) -> int:
    """The logical dim that colours the cells: the outermost blocked dim of a blocking,
    otherwise the dim the innermost physical dim carries (dim 0 when it carries none)."""
    terms = layout.blocked_terms
    if terms is not None:
        blocked = [t.dim for t in terms if t.size is not None]
        return blocked[0] if blocked else terms[-1].dim
    used = sorted(layout.index_map.results[-1].used_dims())
    return used[-1] if used else 0


def render_svg(
    layout: Layout,
    title: str,
    walk: MemoryWalk | None = None,
    *,
    units: tuple[str, int] | None = None,
) -> str:
    """The whole drawing as one string (nothing is written here). `units` (a name and a
    count: lanes, banks) colours the cells by memory row instead, one row per unit."""
    walk = walk or MemoryWalk(layout)
    if layout.size > MAX_CELLS:
        raise LayoutError(
            f"--svg draws at most {MAX_CELLS} slots, but this layout has {layout.size}"
        )
    columns = min(walk.row_length, MAX_COLUMNS)
    lines_per_row = -(-walk.row_length // columns)
    labelled = layout.size <= MAX_LABELLED_CELLS and layout.rank <= 4
    width, height = (10 + 12 * layout.rank, 16) if labelled else (10, 10)
    grid_rows = walk.row_count * lines_per_row
    dim = colour_dim(layout)
    extent: int = layout.logical_shape[dim] if layout.rank else 1  # type: ignore[assignment]
    name = layout.dim_names[dim] if layout.dim_names else f"d{dim}"
    hue_text = f"hue = logical dim {dim} ({name})" if layout.rank else "rank 0"
    if units is not None:
        hue_text = f"hue = {units[0]}, one row per {units[0]}"
    caption = (
        f"{title} on {format_shape(layout.logical_shape)} → physical "
        f"{format_shape(layout.physical_shape)}; {hue_text}; hatched = pad"
    )
    total_width = 2 * _MARGIN + max(columns * width, round(6.2 * len(caption)))
    total_height = _HEADER + _MARGIN + grid_rows * height
    parts = _preamble(title, caption, total_width, total_height)
    for start in range(0, layout.size, _CHUNK):
        slots = walk.slots(start, start + _CHUNK)
        for k in range(len(slots.pad)):
            offset = start + k
            row, column = divmod(offset, walk.row_length)
            line, column = divmod(column, columns)
            x = _MARGIN + column * width
            y = _HEADER + (row * lines_per_row + line) * height
            index = slots.index(k)
            pad = bool(slots.pad[k])
            label = "pad" if index is None else ",".join(str(v) for v in index) or "()"
            if pad:
                fill = "url(#pad)"
            elif units is not None:
                fill = _hue(row / units[1])
            else:
                fill = _hue(int(index[dim]) / extent if index else 0.0)
            parts += _cell(x, y, (width, height), fill, offset, label, pad, labelled)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _cell(
    x: int,
    y: int,
    size: tuple[int, int],
    fill: str,
    offset: int,
    label: str,
    pad: bool,
    labelled: bool,
) -> list[str]:
    """One slot: its rectangle (offset and logical index as data attributes) and label."""
    width, height = size
    kind = "cell pad" if pad else "cell"
    parts = [
        f'<rect class="{kind}" x="{x}" y="{y}" width="{width}" height="{height}" '
        f'fill="{fill}" stroke="#ffffff" stroke-width="0.5" data-offset="{offset}" '
        f"data-index={quoteattr(label)}/>"
    ]
    if labelled:
        colour = "#595959" if pad else "#1a1a1a"
        parts.append(
            f'<text x="{x + width / 2:g}" y="{y + height - 5}" font-size="8" '
            f'text-anchor="middle" fill="{colour}">{escape(label)}</text>'
        )
    return parts


def _preamble(title: str, caption: str, width: int, height: int) -> list[str]:
    """The document's head: size, title, the hatched pad pattern, the caption."""
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="monospace">',
        f"<title>{escape(caption)}</title>",
        "<defs>",
        '<pattern id="pad" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)">',
        '<rect width="6" height="6" fill="#d9d9d9"/>',
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#8c8c8c" stroke-width="2"/>',
        "</pattern>",
        "</defs>",
        f'<text x="{_MARGIN}" y="16" font-size="12">{escape(title)}</text>',
        f'<text x="{_MARGIN}" y="32" font-size="10">{escape(caption[len(title) + 1 :])}</text>',
    ]


def _hue(fraction: float) -> str:
    red, green, blue = colorsys.hls_to_rgb(0.85 * fraction, 0.72, 0.65)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"
