"""Smoke run of benchmarks/model_fuzz.py: three random models, each within onnxruntime's
tolerance through both schedules, one line each and the summary; and one timed. No time is
asserted."""

from __future__ import annotations

import pytest

from tests.onnx_models import require_frontend


@pytest.mark.slow
def test_benchmark_checks_random_models(capsys: pytest.CaptureFixture[str]) -> None:
    require_frontend()
    from benchmarks import model_fuzz

    assert model_fuzz.main(["--count", "3", "--seed", "7"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["seed 7", "seed 8", "seed 9"]
    assert all(line.endswith(": ok") for line in lines[:3]), lines
    assert lines[3].startswith("3 models in ") and lines[3].endswith(", 0 failed")


@pytest.mark.slow
def test_benchmark_times_a_random_model(capsys: pytest.CaptureFixture[str]) -> None:
    require_frontend()
    from benchmarks import model_fuzz

    assert model_fuzz.main(["--count", "1", "--time", "--rounds", "1", "--min-time", "0.01"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "onnxruntime " in lines[0] and "x, no layouts " in lines[0], lines
    assert "layouts/onnxruntime median" in lines[-1], lines


def test_a_bad_count_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import model_fuzz

    with pytest.raises(SystemExit) as exit_info:
        model_fuzz.main(["--count", "0"])
    assert exit_info.value.code == 2
    assert "--count, --rounds and --scale take a positive number" in capsys.readouterr().err


def test_a_model_the_pipeline_fails_on_is_a_finding(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    require_frontend()
    from benchmarks import model_fuzz

    def broken(drawn: object, imported: str, block: int) -> str | None:
        raise ValueError("planted")

    monkeypatch.setattr(model_fuzz, "check", broken)
    assert model_fuzz.main(["--count", "1", "--seed", "3"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("seed 3: ") and ": FAILED: ValueError: planted (" in lines[0]
    assert lines[1].endswith(", 1 failed")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [6100, 6261])
def test_seeds_that_found_wrong_outputs_stay_right(
    seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """A zero Pad before a strided ConvTranspose, which upstream canonicalization misplaced
    (frontends/pads_before_transposed_convolutions.py): every output wrong before."""
    require_frontend()
    from benchmarks import model_fuzz

    assert model_fuzz.main(["--count", "1", "--seed", str(seed)]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert "pad, conv transpose" in line and line.endswith(": ok"), line


@pytest.mark.slow
def test_a_ceil_mode_pool_through_layouts_and_schedules(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 285: a ceil-mode pool over 19 columns whose last window would start in the
    padding (frontends/pool_windows.py; refused before), laid out in blocks of 4 and run
    through both schedules."""
    require_frontend()
    from benchmarks import model_fuzz

    assert model_fuzz.main(["--count", "1", "--seed", "285"]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith("seed 285: cnn [1, 8, 10, 19]") and line.endswith(": ok"), line
