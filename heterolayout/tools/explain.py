"""`layout-explain`: what a layout does to a shape, in numbers, the seed's memory walk and a picture."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence

import numpy as np

from heterolayout.dialects.conversion import attribute_parameters
from heterolayout.dialects.layout import parse_layout_attribute
from heterolayout.dialects.target_attributes import (
    PartitionLayoutAttr,
    TargetLayoutAttr,
    TpuLayoutAttr,
)
from heterolayout.layout.element_types import format_number
from heterolayout.layout.errors import LayoutError
from heterolayout.layout.expressions import format_index, format_map, format_shape
from heterolayout.layout.limits import MAX_ELEMENTS, OUT_OF_MEMORY, deep_recursion, too_deep
from heterolayout.layout.model import Layout
from heterolayout.layout.parse import parse_layout
from heterolayout.layout.walk import FOLD_AT, MemoryWalk, Slots
from heterolayout.tools.files import write_file
from heterolayout.tools.placement import Placement
from heterolayout.tools.svg import render_svg

PROG = "layout-explain"
_TARGET = re.compile(r"^(tpu|partition)\s*<")
PICTURE_EDGE = 8
"""Rows and columns of the picture beyond this show their first and last few only."""

_EPILOG = f"""\
memory walk:
  One line per memory row (the innermost physical dim; a 1-D buffer is cut at its
  smallest stride above 1), slots in memory order, indices written like the HTP seed:
  (0,0,0,29). A run of {FOLD_AT} or more slots whose index steps by +1 in one coordinate
  is folded into `first, second ... last`.
  Pad slots of blocked layouts (tags, chunked, blocking maps) print at their coordinate
  in the padded logical box, prefixed `pad`: pad(0,0,0,30). Pad slots of other layouts
  have no such coordinate and print as a count: `pad x3`.

picture:
  The first block: the two innermost physical dims at outer physical index 0 (a 1-D
  buffer: its memory rows), each cell the logical index stored there or `pad`.

target layouts (#layout.tpu, #layout.partition):
  The lanes (TPU NPUs) or banks (FPGA partitions) are the leading physical dims. The
  report lists how many elements each holds and the lane/bank of every element; the memory
  walk has one line per lane/bank, the picture one row per lane/bank, and the SVG colours
  cells by lane/bank.

examples:
  layout-explain nChw8c --shape 2x17x5x4 --dtype f32
  layout-explain R4CroutonLayout --shape 1x3x5x30 --dtype ui8 --pad 31 --svg crouton.svg
  layout-explain '#layout.tag<"NHWC->NHWC6c", pack = i6>' --shape 1x4x4x12 --dtype i1
  layout-explain 'tpu<lanes = 4, start = 2, stride = aligned>' --shape 2x3x4x5 --dtype f32
  layout-explain 'partition<cyclic, dims = [0], factor = 4>' --shape 10
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Explain a layout on a logical shape: physical shape, size, padding,\n"
        "index map, the memory walk and a picture of the first block.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "spec",
        metavar="SPEC",
        help="a tag (NCHW->nChw16c), named format (nChw8c), HTP chunked text or alias, "
        "affine_map<...>, strided<...> or #layout.<kind><...> attribute text",
    )
    parser.add_argument("--shape", required=True, help="logical shape, e.g. 2x17x5x4")
    parser.add_argument("--dtype", help="element type (f32, i8, ui4, i1, ...); needed for bytes")
    parser.add_argument("--pad", type=_number, metavar="P", help="pad value")
    parser.add_argument(
        "--pack", metavar="C", help="container of the innermost dim: iK or vector<LxT>"
    )
    parser.add_argument(
        "--bit-order", choices=("lsb", "msb"), help="bit order of an integer container"
    )
    parser.add_argument("--svg", metavar="FILE", help="write a drawing of the physical buffer")
    parser.add_argument(
        "--walk-limit",
        type=_count,
        default=40,
        metavar="N",
        help="print at most N lines of the memory walk (default 40; 0 prints all)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        with deep_recursion():
            return _explain_to_stdout(args)
    except RecursionError:
        return _fail(too_deep("the layout"))
    except MemoryError:
        return _fail(OUT_OF_MEMORY)


def _explain_to_stdout(args: argparse.Namespace) -> int:
    try:
        layout = parse_layout(
            args.spec,
            args.shape,
            dtype=args.dtype,
            pad=args.pad,
            pack=args.pack,
            bit_order=args.bit_order,
        )
        if layout.is_dynamic:
            raise LayoutError(
                f"shape {format_shape(layout.logical_shape)} has dynamic dims ('?'); "
                f"{PROG} needs a static shape"
            )
        attribute = target_attribute(args.spec, layout)
        target = None if attribute is None else Placement.of(layout, attribute.params.data)
        walk = MemoryWalk(layout, target.slots_per_unit if target else None)
        written = layout.notations()
        if attribute is not None:
            written[attribute.KIND] = str(attribute)
        report = explain(layout, args.spec.strip(), walk, args.walk_limit or None, target, written)
        if args.svg and not _listable(layout):
            raise LayoutError(f"--svg: {_too_large(layout)}")
        if args.svg:
            units = (target.unit, target.units) if target else None
            write_file(args.svg, render_svg(layout, args.spec.strip(), walk, units=units))
            report.append(f"svg:            {args.svg} ({_count_of(layout.size, 'cell')})")
    except ValueError as error:  # LayoutError, and element type or container errors
        return _fail(str(error))
    except OSError as error:
        return _fail(f"cannot write '{args.svg}': {error.strerror or error}")
    try:
        sys.stdout.write("\n".join(report) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader (e.g. `head`) left; keep Python from complaining at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def target_attribute(spec: str, layout: Layout) -> TargetLayoutAttr | None:
    """The `#layout.tpu` / `#layout.partition` attribute a spec writes, with the layout's
    pad and packing (which may come from the command line); None for other notations."""
    text = " ".join(spec.split())
    if not (_TARGET.match(text) or _TARGET.match(text.removeprefix("#layout."))):
        return None
    written = parse_layout_attribute(text if text.startswith("#") else "#layout." + text)
    common = attribute_parameters(layout)
    if isinstance(written, TpuLayoutAttr):
        return TpuLayoutAttr(written.params.data, **common)
    assert isinstance(written, PartitionLayoutAttr)
    return PartitionLayoutAttr(written.params.data, **common)


def explain(
    layout: Layout,
    spec: str,
    walk: MemoryWalk,
    walk_limit: int | None,
    target: Placement | None = None,
    notations: dict[str, str] | None = None,
) -> list[str]:
    """The report, line by line; `target` adds the lanes or banks of a target layout (the
    walk then has one row per lane or bank). `notations` defaults to the layout's own."""
    lines = [f"layout:         {spec}", "notations:"]
    written = layout.notations() if notations is None else notations
    lines += [f"  {kind + ':':<13} {text}" for kind, text in written.items()]
    lines.append(
        f"logical shape:  {format_shape(layout.logical_shape)} "
        f"({_count_of(layout.logical_size, 'element')})"
    )
    lines.append(f"physical shape: {format_shape(layout.physical_shape)}")
    if layout.packing is not None:
        packing = layout.packing
        order = "" if packing.is_vector else f", {packing.bit_order.upper()}-first"
        lines.append(
            f"storage shape:  {format_shape(layout.storage_shape)} of {packing.container} "
            f"({layout.physical_shape[-1]} lanes each{order})"
        )
    lines.append(f"size:           {_count_of(layout.size, 'element')}")
    if layout.dtype is None:
        lines.append("bytes:          n/a (no --dtype)")
    else:
        lines.append(f"bytes:          {layout.nbytes} ({layout.dtype.name})")
    pad_slots = layout.size - layout.logical_size
    lines.append(f"padding:        {layout.padding_share * 100:.2f}% ({pad_slots} pad slots)")
    lines.append(f"pad value:      {format_number(layout.pad)}")
    lines.append(f"index map:      {format_map(layout.index_map)}")
    if not _listable(layout):
        return [*lines, f"memory walk:    not listed: {_too_large(layout)}"]
    if target is not None:
        lines += target_report(layout, target, walk_limit)
    rows = f" (one per {target.unit})" if target is not None else ""
    lines.append(
        f"memory walk:    {_count_of(walk.row_count, 'row')} of "
        f"{_count_of(walk.row_length, 'slot')}, in memory order{rows}"
    )
    shown = walk.row_count if walk_limit is None else min(walk_limit, walk.row_count)
    for row, line in zip(range(shown), walk.lines(walk_limit), strict=True):
        lines.append(f"{target.unit_label(row)}: {line}" if target is not None else line)
    if walk_limit is not None and walk.row_count > walk_limit:
        lines.append(f"... {walk.row_count - walk_limit} more lines")
    if layout.size == 0:
        return [*lines, "picture:        none (the buffer is empty)"]
    lines += picture(layout, walk) if target is None else target_picture(layout, walk, target)
    return lines


def _listable(layout: Layout) -> bool:
    return max(layout.size, layout.logical_size) <= MAX_ELEMENTS


def _too_large(layout: Layout) -> str:
    return (
        f"{max(layout.size, layout.logical_size)} slots are more than the limit of "
        f"{MAX_ELEMENTS} that {PROG} lists one by one"
    )


def target_report(layout: Layout, target: Placement, limit: int | None) -> list[str]:
    """What the target does, how full each lane or bank is, and where every element goes."""
    unit = target.unit
    lines = [f"target:         {target.summary(layout)}"]
    counts = target.element_counts(layout)
    lines.append(
        f"{unit + 's:':<16}{_count_of(target.units, unit)} of "
        f"{_count_of(target.slots_per_unit, 'slot')}"
    )
    shown_units = target.units if limit is None else min(limit, target.units)
    for index in range(shown_units):
        count = int(counts[index])
        lines.append(
            f"  {target.unit_label(index)}: {_count_of(count, 'element')}, "
            f"{_count_of(target.slots_per_unit - count, 'pad slot')}"
        )
    if shown_units < target.units:
        lines.append(f"  ... {_count_of(target.units - shown_units, 'more ' + unit)}")
    total = layout.logical_size
    shown = total if limit is None else min(limit, total)
    names = f" ({','.join(layout.dim_names).lower()})" if layout.dim_names else ""
    place = "offset in it" if unit == "lane" else "index inside it"
    lines.append(
        f"placement:      the {unit} and the {place} of each element{names}, in logical order"
        + ("" if shown == total else f" (first {shown} of {total})")
    )
    for flat in range(shown):
        element = tuple(int(i) for i in np.unravel_index(flat, layout.static_logical_shape))
        where = target.describe(layout.physical_index(element))
        lines.append(f"  {format_index(element)} -> {where}")
    if shown < total:
        lines.append(f"  ... {total - shown} more elements")
    return lines


def target_picture(layout: Layout, walk: MemoryWalk, target: Placement) -> list[str]:
    """One row per lane or bank: the slots inside it in memory order."""
    columns = target.slots_per_unit
    shown_rows, shown_columns = _shown(target.units), _shown(columns)
    cells = []
    for row in shown_rows:
        if row is None:
            cells.append(["…"] * len(shown_columns))
            continue
        slots = walk.slots(row * columns, (row + 1) * columns)
        cells.append([_cell(slots, column) for column in shown_columns])
    labels = ["…" if r is None else target.unit_label(r).split(" ", 1)[1] for r in shown_rows]
    width = max(len(text) for row in cells for text in row)
    label = max(len(text) for text in labels)
    header = " " * (label + 3) + "  ".join(
        "…".rjust(width) if c is None else str(c).rjust(width) for c in shown_columns
    )
    names = f" ({','.join(layout.dim_names)})" if layout.dim_names else ""
    lines = [
        f"picture:        rows = {target.unit}s, columns = slots of a {target.unit} in "
        f"memory order; cell = logical index{names} or pad",
        header,
    ]
    for text, cell_row in zip(labels, cells, strict=True):
        lines.append(
            f"{text.rjust(label)} | " + "  ".join(c.rjust(width) for c in cell_row).rstrip()
        )
    return lines


def picture(layout: Layout, walk: MemoryWalk) -> list[str]:
    """The first block as a grid of logical indices."""
    physical: tuple[int, ...] = layout.physical_shape  # type: ignore[assignment]
    columns = walk.row_length
    inner = len(physical) - 1
    covered = physical[inner]
    while inner > 0 and covered < columns:
        inner -= 1
        covered *= physical[inner]
    if inner == 0:
        rows, row_text = walk.row_count, "memory rows"
    else:
        rows, row_text = physical[inner - 1], f"physical dim {inner - 1}"
    column_dims = (
        f"dim {inner}" if inner == len(physical) - 1 else f"dims {inner}-{len(physical) - 1}"
    )
    column_text = "slots of a memory row" if inner == 0 else f"physical {column_dims}"
    if layout.packing is not None:
        column_text += f" (the lanes of one {layout.packing.container})"
    outer = format_index([0] * max(inner - 1, 0))
    names = f" ({','.join(layout.dim_names)})" if layout.dim_names else ""
    slots = walk.slots(0, rows * columns)
    shown_rows, shown_columns = _shown(rows), _shown(columns)
    cells = [
        [_cell(slots, None if r is None or c is None else r * columns + c) for c in shown_columns]
        for r in shown_rows
    ]
    width = max(len(text) for row in cells for text in row)
    label = len(str(rows - 1))
    header = " " * (label + 3) + "  ".join(
        "…".rjust(width) if c is None else str(c).rjust(width) for c in shown_columns
    )
    lines = [
        f"picture:        first block, at outer physical index {outer}: rows = {row_text}, "
        f"columns = {column_text}; cell = logical index{names} or pad",
        header,
    ]
    for r, row in zip(shown_rows, cells, strict=True):
        head = "…".rjust(label) if r is None else str(r).rjust(label)
        lines.append(f"{head} | " + "  ".join(text.rjust(width) for text in row).rstrip())
    return lines


def _shown(count: int) -> list[int | None]:
    """Every position when few, else the first and last few around a None gap."""
    if count <= PICTURE_EDGE:
        return list(range(count))
    return [*range(PICTURE_EDGE - 2), None, count - 2, count - 1]


def _cell(slots: Slots, k: int | None) -> str:
    if k is None:
        return "…"
    if k >= len(slots.pad):
        return ""
    if slots.pad[k]:
        return "pad"
    return ",".join(str(v) for v in slots.indices[k]) or "()"


def _count_of(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _fail(message: str) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 1


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"'{text}' is not a line count (0 or more)")
    return value


if __name__ == "__main__":
    sys.exit(main())
