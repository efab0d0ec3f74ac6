"""`layout-explain` and the memory walk: numbers from the seeds, walks checked against a
second formulation (`Layout.logical_index`, the index map applied to padded coordinates),
the SVG parsed back, and bad input turned into one-line errors."""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
import sysconfig
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from heterolayout import parse_layout
from heterolayout.layout.walk import MemoryWalk, memory_walk
from heterolayout.tools.explain import main

SVG = "{http://www.w3.org/2000/svg}"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def field(output: str, name: str) -> str:
    """The value of a `name:` line of the report."""
    for line in output.splitlines():
        if line.startswith(f"{name}:"):
            return line[len(name) + 1 :].strip()
    raise AssertionError(f"no '{name}:' line in:\n{output}")


def walk_lines(output: str) -> list[str]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("memory walk:")) + 1
    end = next(i for i, line in enumerate(lines) if line.startswith("picture:"))
    return lines[start:end]


# ---- numbers --------------------------------------------------------------------------------


def test_nchw8c_numbers(capsys):
    code, out, err = run(capsys, "nChw8c", "--shape", "2x17x5x4", "--dtype", "f32")
    assert (code, err) == (0, "")
    blocks = math.ceil(17 / 8)
    physical = (2, blocks, 5, 4, 8)
    slots = math.prod(physical)
    logical = 2 * 17 * 5 * 4
    assert (blocks, slots, logical) == (3, 960, 680)
    assert field(out, "physical shape") == "2x3x5x4x8"
    assert field(out, "logical shape") == "2x17x5x4 (680 elements)"
    assert field(out, "size") == "960 elements"
    assert field(out, "bytes") == f"{slots * 4} (f32)" == "3840 (f32)"
    share = 100 * (1 - logical / slots)
    assert field(out, "padding") == f"{share:.2f}% ({slots - logical} pad slots)"
    assert field(out, "padding") == "29.17% (280 pad slots)"
    assert field(out, "index map") == (
        "affine_map<(d0, d1, d2, d3) -> (d0, d1 floordiv 8, d2, d3, d1 mod 8)>"
    )
    assert "  chunked:      #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8]>" in out.splitlines()
    assert '  tag:          #layout.tag<"NCHW->NCHW8c">' in out.splitlines()
    assert "storage shape" not in out


def test_bytes_without_dtype(capsys):
    code, out, _ = run(capsys, "nChw8c", "--shape", "2x17x5x4")
    assert code == 0
    assert field(out, "bytes") == "n/a (no --dtype)"
    assert field(out, "size") == "960 elements"


def test_crouton_numbers_and_pad_value(capsys):
    # Seed: 1x3x5x30 pads to one 1x8x8x32 crouton; HTP's crouton pad is 31.
    code, out, _ = run(
        capsys, "R4CroutonLayout", "--shape", "1x3x5x30", "--dtype", "ui8", "--pad", "31"
    )
    assert code == 0
    assert field(out, "physical shape") == "1x1x1x1x8x8x32"
    assert field(out, "size") == f"{8 * 8 * 32} elements"
    assert field(out, "bytes") == "2048 (ui8)"
    assert field(out, "padding") == f"{100 * (1 - 450 / 2048):.2f}% ({2048 - 450} pad slots)"
    assert field(out, "pad value") == "31"
    assert (
        "  chunked:      #layout.chunked<[0, 0, 1, 0, 2, 0, 3, 0, 1, 8, 2, 8, 3, 32], pad = 31>"
        in out.splitlines()
    )


def test_packed_storage_shape_and_bytes(capsys):
    code, out, _ = run(
        capsys,
        '#layout.tag<"NHWC->NHWC6c", pack = i6, bit_order = "msb">',
        "--shape",
        "1x4x4x12",
        "--dtype",
        "i1",
    )
    assert code == 0
    assert field(out, "physical shape") == "1x4x4x2x6"
    assert field(out, "storage shape") == "1x4x4x2 of i6 (6 lanes each, MSB-first)"
    # 32 containers of i6, each stored in one byte.
    assert field(out, "bytes") == f"{1 * 4 * 4 * 2} (i1)"
    assert field(out, "padding") == "0.00% (0 pad slots)"


# ---- the memory walk ------------------------------------------------------------------------

# The seed's FlatMemoryLayout<4> listing on 2x3x5x30, lines without its slips.
FLAT_SEED = [
    "(0,0,0,0), (0,0,0,1) ... (0,0,0,29),",
    "(0,0,1,0), (0,0,1,1) ... (0,0,1,29),",
]


def test_flat_walk_matches_seed():
    lines = memory_walk(parse_layout("FlatMemoryLayout<4>", "2x3x5x30"))
    assert lines[:2] == FLAT_SEED
    assert len(lines) == 2 * 3 * 5
    # Seed lines written with ", ..." (the same runs): (0,0,4,…), (0,1,1,…), (1,2,4,…).
    assert lines[4] == "(0,0,4,0), (0,0,4,1) ... (0,0,4,29),"
    assert lines[6] == "(0,1,1,0), (0,1,1,1) ... (0,1,1,29),"
    assert lines[-1] == "(1,2,4,0), (1,2,4,1) ... (1,2,4,29),"


def test_flat_walk_through_the_cli(capsys):
    code, out, _ = run(capsys, "FlatMemoryLayout<4>", "--shape", "2x3x5x30", "--walk-limit", "2")
    assert code == 0
    assert walk_lines(out) == [*FLAT_SEED, "... 28 more lines"]


def test_crouton_walk_shows_pad_slots():
    lines = memory_walk(parse_layout("R4CroutonLayout", "1x3x5x30"))
    assert lines[0] == "(0,0,0,0), (0,0,0,1) ... (0,0,0,29), pad(0,0,0,30), pad(0,0,0,31),"
    assert lines[4] == "(0,0,4,0), (0,0,4,1) ... (0,0,4,29), pad(0,0,4,30), pad(0,0,4,31),"
    # Seed: "(0,0,5,0 )...(0,0,7,31) is pad introduced by the memory layout".
    assert lines[5:8] == [f"pad(0,0,{w},0), pad(0,0,{w},1) ... pad(0,0,{w},31)," for w in (5, 6, 7)]
    assert lines[8] == "(0,1,0,0), (0,1,0,1) ... (0,1,0,29), pad(0,1,0,30), pad(0,1,0,31),"
    # Seed: "(0,3,0,0 )...(0,7,7,31) is pad": rows 3..7 of the crouton are pad throughout.
    assert lines[24] == "pad(0,3,0,0), pad(0,3,0,1) ... pad(0,3,0,31),"
    assert lines[-1] == "pad(0,7,7,0), pad(0,7,7,1) ... pad(0,7,7,31),"
    assert len(lines) == 8 * 8


def test_weight_layout_walk_matches_seed():
    layout = parse_layout("ChunkedMemoryLayout<4, 3,0, 2,0, 0,0, 1,0, 2,8, 3,32, 2,4>", "3x3x32x32")
    walk = MemoryWalk(layout)
    assert walk.row_length == 4
    assert walk.line(0) == "(0,0,0,0), (0,0,1,0), (0,0,2,0), (0,0,3,0),"
    assert walk.line(1) == "(0,0,0,1), (0,0,1,1), (0,0,2,1), (0,0,3,1),"
    # After the 32 output channels of input channels 0..3 come input channels 4..7.
    assert walk.line(32) == "(0,0,4,0), (0,0,5,0), (0,0,6,0), (0,0,7,0),"
    assert walk.line(33) == "(0,0,4,1), (0,0,5,1), (0,0,6,1), (0,0,7,1),"
    # One crouton of 8 x 32 x 4 per (h, w); (0,1,…) follows (0,0,31,31).
    assert walk.line(8 * 32).startswith("(0,1,0,0), ")


def test_runs_fold_from_five_slots():
    assert memory_walk(parse_layout("nchw", "1x1x1x4")) == [
        "(0,0,0,0), (0,0,0,1), (0,0,0,2), (0,0,0,3),"
    ]
    assert memory_walk(parse_layout("nchw", "1x1x1x5")) == ["(0,0,0,0), (0,0,0,1) ... (0,0,0,4),"]


def test_pad_without_coordinates_is_counted():
    layout = parse_layout("strided<[40, 1], offset: 3>", "13x10")
    walk = MemoryWalk(layout)
    # 493 slots = 3 + 12 * 40 + 10, cut at the leading dimension 40.
    assert (layout.size, walk.row_length, walk.row_count) == (493, 40, 13)
    lines = list(walk.lines())
    assert lines[0] == "pad x3, (0,0), (0,1) ... (0,9), pad x27,"
    assert lines[-1] == "pad x3, (12,0), (12,1) ... (12,9),"


def test_non_blocked_map_rows():
    layout = parse_layout("affine_map<(d0, d1) -> (d1 * 2, d0)>", "3x4")
    assert layout.blocked_terms is None
    assert memory_walk(layout, limit=3) == [
        "(0,0), (1,0), (2,0),",
        "pad x3,",
        "(0,1), (1,1), (2,1),",
    ]


def test_rank_0_walk_and_drawing(capsys, tmp_path):
    layout = parse_layout("affine_map<() -> (2)>", "")
    assert memory_walk(layout) == ["pad x2, (),"]
    target = tmp_path / "scalar.svg"
    code, out, _ = run(capsys, "affine_map<() -> (2)>", "--shape", "", "--svg", str(target))
    assert code == 0
    assert field(out, "padding") == f"{100 * 2 / 3:.2f}% (2 pad slots)"
    assert [c.get("data-index") for c in svg_cells(target)] == ["pad", "pad", "()"]


WALKED = [
    ("nChw8c", "2x17x5x4", {}),
    ("R4CroutonLayout", "1x3x5x30", {}),
    ("R4Crouton2x2Layout", "1x5x7x40", {}),
    ("ChunkedMemoryLayout<4, 0,0, 1,0, 3,0, 2,0, 2,4, 3,32>", "1x2x5x33", {}),
    ("OIhw16i16o", "20x3x3x3", {}),
    ("affine_map<(d0, d1) -> (d1 floordiv 4, d0 floordiv 4, d1 mod 4, d0 mod 4)>", "13x10", {}),
    ("affine_map<(d0, d1) -> (d0 + d1, d1)>", "3x4", {}),
    ("strided<[1, 13], offset: 2>", "11x5", {}),
    ('#layout.tag<"NHWC->NHWC6c", pack = i6>', "1x4x4x12", {"dtype": "i1"}),
    ("affine_map<() -> (2)>", "", {}),
]


@pytest.mark.parametrize(("spec", "shape", "options"), WALKED)
def test_walk_slots_agree_with_logical_index(spec, shape, options):
    layout = parse_layout(spec, shape, **options)
    walk = MemoryWalk(layout)
    slots = walk.slots(0, layout.size)
    for offset in range(layout.size):
        expected = layout.logical_index(offset)
        assert bool(slots.pad[offset]) == (expected is None), offset
        if expected is not None:
            assert slots.index(offset) == expected, offset


NOT_BLOCKINGS = (
    "affine_map<(d0, d1) -> (d0 + d1, d1)>",
    "strided<[1, 13], offset: 2>",
    "affine_map<() -> (2)>",
)


@pytest.mark.parametrize(
    ("spec", "shape", "options"), [w for w in WALKED if w[0] not in NOT_BLOCKINGS]
)
def test_padded_coordinates_map_back_to_their_slot(spec, shape, options):
    layout = parse_layout(spec, shape, **options)
    assert layout.blocked_terms is not None
    slots = MemoryWalk(layout).slots(0, layout.size)
    pads = np.flatnonzero(slots.pad)
    assert len(pads) == layout.size - layout.logical_size
    for offset in pads:
        index = slots.index(int(offset))
        assert index is not None
        assert any(v >= e for v, e in zip(index, layout.logical_shape, strict=True))
        physical = layout.index_map.eval(list(index), [])
        assert np.ravel_multi_index(physical, layout.physical_shape) == offset


def test_walk_of_a_million_slots_builds_only_the_lines_asked_for():
    layout = parse_layout("R4CroutonLayout", "1x64x64x256")
    walk = MemoryWalk(layout)
    assert (layout.size, walk.row_count) == (1 << 20, 1 << 15)
    assert list(walk.lines(2)) == [
        "(0,0,0,0), (0,0,0,1) ... (0,0,0,31),",
        "(0,0,1,0), (0,0,1,1) ... (0,0,1,31),",
    ]
    # Seed (2x9x20x50): after the first 8x8x32 crouton ends at (0,7,7,31) comes (0,0,0,32).
    assert walk.line(63) == "(0,7,7,0), (0,7,7,1) ... (0,7,7,31),"
    assert walk.line(64) == "(0,0,0,32), (0,0,0,33) ... (0,0,0,63),"


def test_walk_limit(capsys):
    code, out, _ = run(capsys, "nChw8c", "--shape", "2x17x5x4", "--walk-limit", "3")
    assert code == 0
    lines = walk_lines(out)
    assert lines == [
        "(0,0,0,0), (0,1,0,0) ... (0,7,0,0),",
        "(0,0,0,1), (0,1,0,1) ... (0,7,0,1),",
        "(0,0,0,2), (0,1,0,2) ... (0,7,0,2),",
        f"... {960 // 8 - 3} more lines",
    ]
    code, out, _ = run(capsys, "nChw8c", "--shape", "2x17x5x4", "--walk-limit", "0")
    lines = walk_lines(out)
    assert len(lines) == 960 // 8
    # The last row: n=1, C block 2 (channels 16..23, only 16 exists), h=4, w=3.
    assert lines[-1] == "(1,16,4,3), pad(1,17,4,3), pad(1,18,4,3) ... pad(1,23,4,3),"


# ---- the picture ----------------------------------------------------------------------------


def picture_rows(output: str) -> list[list[str]]:
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("picture:")) + 2
    return [line.split("|", 1)[1].split() for line in lines[start:] if "|" in line]


def test_picture_of_nchw8c_first_block(capsys):
    _, out, _ = run(capsys, "nChw8c", "--shape", "2x17x5x4")
    rows = picture_rows(out)
    assert len(rows) == 4  # w
    assert rows[0] == [f"0,{c},0,0" for c in range(8)]
    assert rows[3] == [f"0,{c},0,3" for c in range(8)]


def test_picture_of_crouton_marks_pad(capsys):
    _, out, _ = run(capsys, "R4CroutonLayout", "--shape", "1x3x5x30")
    rows = picture_rows(out)
    assert len(rows) == 8
    assert rows[0] == [
        "0,0,0,0",
        "0,0,0,1",
        "0,0,0,2",
        "0,0,0,3",
        "0,0,0,4",
        "0,0,0,5",
        "…",
        "pad",
        "pad",
    ]
    assert rows[4][:2] == ["0,0,4,0", "0,0,4,1"]
    assert rows[5] == ["pad"] * 6 + ["…", "pad", "pad"]


# ---- SVG ------------------------------------------------------------------------------------


def svg_cells(path: Path) -> list[ET.Element]:
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    return [e for e in root.iter(f"{SVG}rect") if "cell" in e.get("class", "").split()]


def test_svg_has_one_cell_per_slot(capsys, tmp_path):
    target = tmp_path / "nchw8c.svg"
    code, out, _ = run(capsys, "nChw8c", "--shape", "2x17x5x4", "--svg", str(target))
    assert code == 0
    assert field(out, "svg") == f"{target} (960 cells)"
    cells = svg_cells(target)
    assert len(cells) == 960
    pads = [c for c in cells if "pad" in c.get("class", "").split()]
    assert len(pads) == 280
    by_offset = {int(c.get("data-offset")): c for c in cells}
    assert sorted(by_offset) == list(range(960))
    layout = parse_layout("nChw8c", "2x17x5x4")
    for offset in (0, 1, 7, 8, 100, 959):
        expected = layout.logical_index(offset)
        cell = by_offset[offset]
        if expected is None:
            assert "pad" in cell.get("class")
        else:
            assert cell.get("data-index") == ",".join(map(str, expected))
    assert not list(tmp_path.glob(".layout-*"))


def test_svg_of_non_blocked_layout(capsys, tmp_path):
    target = tmp_path / "strided.svg"
    code, _, _ = run(
        capsys, "strided<[40, 1], offset: 3>", "--shape", "13x10", "--svg", str(target)
    )
    assert code == 0
    cells = svg_cells(target)
    assert len(cells) == 493
    assert sum("pad" in c.get("class") for c in cells) == 493 - 130


def test_svg_not_written_on_error(capsys, tmp_path):
    target = tmp_path / "out.svg"
    code, out, err = run(capsys, "nChw9z", "--shape", "2x17x5x4", "--svg", str(target))
    assert code == 1 and out == ""
    assert not target.exists()
    target.write_text("old")
    code, out, err = run(capsys, "FlatMemoryLayout<1>", "--shape", "70000", "--svg", str(target))
    assert code == 1 and out == ""
    assert (
        err == "layout-explain: error: --svg draws at most 65536 slots, but this layout has 70000\n"
    )
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.svg"]


# ---- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nChw9z", "--shape", "2x17x5x4"], "unknown format 'nChw9z'"),
        (["nChw8c", "--shape", "2xfoo"], "'foo' is not an extent"),
        (["nChw8c", "--shape", "2x17"], "rank 4 but the shape 2x17 has rank 2"),
        (["nchw", "--shape", "2x?x5x4"], "needs a static shape"),
        (["nChw8c", "--shape", "2x17x5x4", "--dtype", "f33"], "unknown element type 'f33'"),
        (["nChw8c", "--shape", "2x17x5x4", "--dtype", "i8", "--pad", "300"], "does not fit"),
        (
            ["nChw8c", "--shape", "2x17x5x4", "--dtype", "f32", "--pack", "i8"],
            "integer elements only",
        ),
        (["affine_map<(d0) -> (d0 floordiv 2)>", "--shape", "4"], "not injective"),
        (["nChw8c", "--shape", "2x17x5x4", "--svg", "/nonexistent-dir/x.svg"], "cannot write"),
    ],
)
def test_errors_are_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("layout-explain: error: ")
    assert message in err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["nChw8c", "--shape", "2x17x5x4", "--walk-limit", "-1"])
    assert exit_info.value.code == 2
    assert "--walk-limit" in capsys.readouterr().err


def _console_script() -> str:
    for directory in (os.path.dirname(sys.executable), sysconfig.get_path("scripts")):
        candidate = os.path.join(directory, "layout-explain")
        if os.path.isfile(candidate):
            return candidate
    found = shutil.which("layout-explain")
    if found is None:
        pytest.fail("the layout-explain console script is not installed: pip install -e .")
    return found


def test_console_script_exits_1_without_traceback():
    proc = subprocess.run(
        [_console_script(), "NCHW->nChw8q", "--shape", "2x17x5x4"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("layout-explain: error: ") and proc.stderr.count("\n") == 1
