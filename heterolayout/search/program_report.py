"""The whole-program search's report: the tables (per buffer, per nest, the whole programs
measured) as text and JSON, a plot of the whole programs and of each nest's time on a log
scale (so a 100x slower input does not flatten the rest), and the program's graph with
each buffer's chosen layout (`graph.svg`)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from heterolayout.search.whole import ProgramTuneResult

_ROW = 18
_LEFT = 330
_WIDTH = 900


def _ms(value: float | None) -> str:
    if value is None:
        return "–"
    return "fails" if math.isinf(value) else f"{value:.4g}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def table_text(result: ProgramTuneResult) -> str:
    """Markdown: the whole programs, the buffers, the nests (and boundary conversions)."""
    winner = result.winner
    lines = [
        f"@{result.entry}: winner '{winner.name}' {_ms(winner.ms)} ms "
        f"({result.method}; {result.measurements} nest and conversion measurements)"
        + ("" if result.fast_math else "; exact schedules only (no --fast-math)"),
        "",
    ]
    lines += _table(
        ["program", "ms (measured whole)", "ms (sum of nests)", "winner's speed-up"],
        [
            [c.name, _ms(c.ms), _ms(c.predicted_ms), f"{c.ms / winner.ms:.2f}x"]
            for c in result.contenders
        ],
    )
    lines.append("")
    lines += _table(
        ["buffer", "kind", "shape", "input", "chosen", "padding", "candidates"],
        [
            [
                b["buffer"],
                b["kind"],
                "x".join(map(str, b["shape"])) or "scalar",
                b["input"],
                b["chosen"],
                f"{b['padding']:.0%}",
                ", ".join(b["candidates"]),
            ]
            for b in result.buffers
        ],
    )
    lines.append("")
    kernel = sum(n["ms"] or 0.0 for n in result.nests if not n["nest"].startswith("boundary"))
    boundary = sum(n["ms"] or 0.0 for n in result.nests if n["nest"].startswith("boundary"))
    lines.append(
        f"where the winner's time goes (sum of the parts): kernels {kernel:.4g} ms, "
        f"boundary conversions {boundary:.4g} ms"
    )
    lines.append("")
    lines += _table(
        [
            "nest",
            "buffers",
            "schedule",
            "ms (chosen)",
            "ms (as written)",
            "ms (all plain)",
            "ms (all blocked)",
        ],
        [
            [
                n["nest"],
                ", ".join(n["buffers"]),
                n.get("schedule", ""),
                _ms(n["ms"]),
                _ms(n["input_ms"]),
                _ms(n["plain_ms"]),
                _ms(n["blocked_ms"]),
            ]
            for n in result.nests
        ],
    )
    if result.skipped:
        lines += ["", "not measured alone: " + "; ".join(result.skipped)]
    lines += ["", f"winner's pipeline: layout-opt -p '{result.pipeline}'"]
    return "\n".join(lines)


def _log_bars(title: str, bars: list[tuple[str, float | None, str]]) -> list[str]:
    """Horizontal bars on a log scale from a decade below the fastest to the slowest."""
    finite = [ms for _, ms, _ in bars if ms is not None and 0 < ms < math.inf]
    if not finite:
        return []
    low = 10 ** math.floor(math.log10(min(finite)) - 0.5)
    high = max(finite)
    span = max(math.log10(high / low), 1e-9)
    parts = [f'<text x="8" y="14" font-size="13">{escape(title)}</text>']
    for position, (label, ms, colour) in enumerate(bars):
        y = 24 + position * _ROW
        short = label if len(label) <= 48 else label[:45] + "..."
        parts.append(f'<text x="8" y="{y + 12}">{escape(short)}</text>')
        if ms is None or not 0 < ms < math.inf:
            parts.append(f'<text x="{_LEFT}" y="{y + 12}">{"fails" if ms else "–"}</text>')
            continue
        length = max(1.0, (_WIDTH - _LEFT - 90) * math.log10(ms / low) / span)
        parts.append(
            f'<rect x="{_LEFT}" y="{y + 2}" width="{length:.1f}" height="{_ROW - 4}" '
            f'fill="{colour}"/>'
        )
        parts.append(f'<text x="{_LEFT + length + 4:.1f}" y="{y + 12}">{ms:.3g} ms</text>')
    return parts


def plot_svg(result: ProgramTuneResult) -> str:
    """The whole programs measured (the winner in orange), then per nest the chosen
    layouts' time against the program as written, on log scales."""
    programs: list[tuple[str, float | None, str]] = [
        (c.name, c.ms, "#d95f02" if index == 0 else "#2a7ab9")
        for index, c in enumerate(result.contenders)
    ]
    nests: list[tuple[str, float | None, str]] = []
    for n in result.nests:
        nests.append((f"{n['nest']} (chosen)", n["ms"], "#d95f02"))
        nests.append((f"{n['nest']} (as written)", n["input_ms"], "#999999"))
    top = _log_bars(f"@{result.entry}: ms per call, whole program (log scale)", programs)
    bottom = _log_bars("ms per nest alone, chosen and as written (log scale)", nests)
    offset = 24 + _ROW * len(programs) + 20
    height = offset + 24 + _ROW * len(nests) + 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}" '
        'font-family="monospace" font-size="11">',
        *top,
        f'<g transform="translate(0,{offset})">',
        *bottom,
        "</g>",
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def graph_svg(result: ProgramTuneResult) -> str:
    """The program's graph: nests in program order down the middle, each buffer in a
    column on the left (read) side with its chosen layout, an edge per buffer a nest
    touches (solid: written, dashed: read)."""
    buffers = [b for b in result.buffers if any(b["buffer"] in n["buffers"] for n in result.nests)]
    nests = [n for n in result.nests if not n["nest"].startswith("boundary")]
    row = 26
    height = 40 + row * max(len(buffers), len(nests)) + 10
    width = 1000
    bx, nx = 10, 560
    place = {b["buffer"]: 40 + i * row for i, b in enumerate(buffers)}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        'font-family="monospace" font-size="11">',
        f'<text x="{bx}" y="20" font-size="13">buffers: chosen layout</text>',
        f'<text x="{nx}" y="20" font-size="13">nests in program order</text>',
    ]
    for index, nest in enumerate(nests):
        y = 40 + index * row
        for name in nest["buffers"]:
            if name not in place:
                continue
            dash = "" if name in nest["writes"] else ' stroke-dasharray="4,3"'
            parts.append(
                f'<line x1="{bx + 330}" y1="{place[name] + 8}" x2="{nx}" y2="{y + 8}" '
                f'stroke="#2a7ab9" stroke-opacity="0.6"{dash}/>'
            )
    for buffer in buffers:
        y = place[buffer["buffer"]]
        changed = buffer["chosen"] != buffer["input"]
        fill = "#fde0c5" if changed else "#eeeeee"
        parts.append(
            f'<rect x="{bx}" y="{y - 3}" width="330" height="{row - 6}" rx="4" fill="{fill}" '
            'stroke="#777777"/>'
        )
        label = f"{buffer['buffer']}: {buffer['chosen']}"
        short = label if len(label) <= 52 else label[:49] + "..."
        parts.append(f'<text x="{bx + 4}" y="{y + 12}">{escape(short)}</text>')
    for index, nest in enumerate(nests):
        y = 40 + index * row
        parts.append(
            f'<rect x="{nx}" y="{y - 3}" width="420" height="{row - 6}" rx="4" '
            'fill="#dbe9f6" stroke="#777777"/>'
        )
        text = f"{nest['nest']}  {_ms(nest['ms'])} ms"
        parts.append(f'<text x="{nx + 4}" y="{y + 12}">{escape(text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_report(result: ProgramTuneResult, directory: Path) -> None:
    """table.md, table.json, plot.svg, graph.svg in `directory`."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "table.md").write_text(table_text(result) + "\n", encoding="utf-8")
    data = _finite(result.table())
    (directory / "table.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    (directory / "plot.svg").write_text(plot_svg(result), encoding="utf-8")
    (directory / "graph.svg").write_text(graph_svg(result), encoding="utf-8")


def _finite(value: Any) -> Any:
    """The data with infinite times (a choice that does not run) as null: strict JSON."""
    if isinstance(value, float) and math.isinf(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value
