"""The search's outputs: the ranked table as text, an SVG plot of time per candidate, and a
report folder (table.md, table.json, plot.svg, skipped.txt)."""

from __future__ import annotations

import json
from pathlib import Path
from xml.sax.saxutils import escape

from heterolayout.search.search import TuneResult

_BAR = 18
_LEFT = 500
_WIDTH = 900


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def table_text(result: TuneResult) -> str:
    header = [
        "#",
        *result.buffers,
        "schedule",
        "ms",
        "ms alone",
        "GFLOP/s",
        "padding",
        "conversion",
        "speed-up",
        "est. ms",
    ]
    rows = [
        [
            str(rank),
            *(row.layouts[name] for name in result.buffers),
            row.schedule,
            f"{row.ms:.4g}",
            "–" if row.alone_ms is None else f"{row.alone_ms:.4g}",
            f"{row.gflops:.3g}",
            _percent(row.padding_share),
            _percent(row.conversion_share),
            f"{row.speedup:.2f}x",
            f"{row.estimate_ms:.3g}",
        ]
        for rank, row in enumerate(result.rows, 1)
    ]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        f"@{result.entry}: input program {result.input_ms:.4g} ms; {len(result.rows)} of "
        f"{result.space} joint candidates measured, {len(result.skipped)} skipped"
        + ("" if result.fast_math else "; exact schedules only (no --fast-math)")
    ]
    lines += [
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
        for r in [header, *rows]
    ]
    if result.rows:
        lines.append(f"winner's pipeline: layout-opt -p '{result.pipeline}'")
    return "\n".join(lines)


def plot_svg(result: TuneResult) -> str:
    """Horizontal bars: ms per measured candidate, fastest first, and the input program."""
    bars = [("input program", result.input_ms)] + [
        (", ".join([*(f"{n}={row.layouts[n]}" for n in result.buffers), row.schedule]), row.ms)
        for row in result.rows
    ]
    longest = max(ms for _, ms in bars)
    height = 40 + _BAR * len(bars) + 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}" '
        'font-family="monospace" font-size="11">',
        f'<text x="8" y="20" font-size="13">@{escape(result.entry)}: ms per call '
        "(boundary conversions included)</text>",
    ]
    for position, (label, ms) in enumerate(bars):
        y = 32 + position * _BAR
        length = max(1.0, (_WIDTH - _LEFT - 80) * ms / longest)
        colour = "#999999" if position == 0 else ("#2a7ab9" if position > 1 else "#d95f02")
        short = label if len(label) <= 80 else label[:77] + "..."
        parts.append(f'<text x="8" y="{y + 12}">{escape(short)}</text>')
        parts.append(
            f'<rect x="{_LEFT}" y="{y + 2}" width="{length:.1f}" height="{_BAR - 4}" fill="{colour}"/>'
        )
        parts.append(f'<text x="{_LEFT + length + 4:.1f}" y="{y + 12}">{ms:.3g}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_report(result: TuneResult, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "table.md").write_text(table_text(result) + "\n", encoding="utf-8")
    (directory / "table.json").write_text(
        json.dumps(result.table(), indent=1) + "\n", encoding="utf-8"
    )
    (directory / "plot.svg").write_text(plot_svg(result), encoding="utf-8")
    skipped = [f"{s.buffer}: {s.spec}: {s.reason}" for s in result.skipped]
    (directory / "skipped.txt").write_text(
        "".join(line + "\n" for line in skipped), encoding="utf-8"
    )
