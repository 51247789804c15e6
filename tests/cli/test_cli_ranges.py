"""Partial bakes equal the whole bake's rows; a bake too big for memory is refused
before anything is allocated."""
from __future__ import annotations

import re
import tracemalloc

import pytest

import rigeditor.cli as cli
from rigeditor.cli import main
from rigeditor.examples.rigs import EXAMPLES
from rigeditor.model.evaluation.ranges import bake_bytes


def _smoothed_arm(doc):
    doc["chains"][0]["smoothing"] = {"kind": "ema", "time_constant_s": 0.2}


def _leaning_arm(doc):
    # A tight elbow limit binds often, so the shoulder leans: a smoothed root offset.
    chain = doc["chains"][0]
    chain["limits"] = [None, [0.0, 60.0]]
    chain["strategy"] = {"kind": "move_root", "max_root_offset": 60.0, "root_time_constant": 3.0}


def _door_smoothed(doc):
    doc["chains"][0]["smoothing"] = {"kind": "one_euro", "min_cutoff_hz": 0.5, "beta": 0.01}


CASES = [("tail", None, "20:40"), ("arm", _smoothed_arm, "17:30"), ("arm", _leaning_arm, "5:20"),
         ("door", _door_smoothed, "15:25"), ("walk", None, "30:")]


@pytest.mark.parametrize("name, mutate, frames", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_a_partial_bake_is_the_same_rows_as_the_whole_bake(project_file, tmp_path, name, mutate, frames):
    """Smoothing (EMA, One Euro), warm starts (tail) and the look-ahead of the root
    smoothing (move_root) all carry state from earlier or later frames."""
    project = project_file(name, mutate)
    whole, part = tmp_path / "whole.csv", tmp_path / "part.csv"
    assert main(["bake", str(project), "-o", str(whole)]) == 0
    assert main(["bake", str(project), "-o", str(part), "--frames", frames]) == 0
    lo, _, hi = frames.partition(":")
    head, *rows = whole.read_text().splitlines()
    wanted = [r for r in rows if int(lo) <= int(r.split(",")[0]) <= int(hi or 10**9)]
    assert part.read_text().splitlines() == [head] + wanted


def test_a_bake_of_a_billion_frames_is_refused_with_the_figure_and_a_way_out(project_file, tmp_path, capsys):
    out = tmp_path / "huge.csv"
    out.write_text("previous")
    project = project_file("arm")
    assert main(["bake", str(project), "-o", str(out), "--frames", "0:1000000000"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith(f"rigeditor: {project}: memory: frames 0-1000000000 need about ")
    assert re.search(r"need about \d+\.\d GB .* is available; bake fewer frames, e.g. --frames 0:\d+$", err)
    assert out.read_text() == "previous"


def test_the_suggested_range_fits_and_one_frame_more_does_not(project_file, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cli, "available_bytes", lambda: 20_000_000)
    project = project_file("tail")
    out = tmp_path / "t.csv"
    assert main(["bake", str(project), "-o", str(out), "--frames", "10:100000"]) == 2
    suggested = re.search(r"--frames 10:(\d+)$", capsys.readouterr().err.strip())
    end = int(suggested.group(1))
    assert 10 < end < 100000
    assert main(["bake", str(project), "-o", str(out), "--frames", f"10:{end + 1}"]) == 2
    assert "memory:" in capsys.readouterr().err
    assert main(["bake", str(project), "-o", str(out), "--frames", f"10:{end}"]) == 0
    assert len(out.read_text().splitlines()) == end - 10 + 2


@pytest.mark.parametrize("fmt", ["csv", "json", "spine"])
def test_the_memory_estimate_covers_the_measured_peak(project_file, tmp_path, fmt):
    """tracemalloc sees numpy's allocations: the estimate must not be below the peak,
    nor so far above it that it refuses bakes that fit."""
    frames = 30000
    out = tmp_path / ("w.json" if fmt != "csv" else "w.csv")
    args = ["bake", str(project_file("walk")), "-o", str(out), "--frames", f"0:{frames - 1}"]
    tracemalloc.start()
    try:
        assert main(args + (["--format", fmt] if fmt == "spine" else [])) == 0
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    estimate = bake_bytes(EXAMPLES["walk"](), frames, fmt)
    assert peak <= estimate <= 2.0 * peak, (peak, estimate)


def test_report_and_render_refuse_what_does_not_fit(project_file, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cli, "available_bytes", lambda: 10_000)
    project = project_file("walk")
    assert main(["report", str(project)]) == 2
    assert "memory: frames 0-48 need about" in capsys.readouterr().err
    assert main(["render", str(project), "--frame", "3", "-o", str(tmp_path / "f.png")]) == 2
    assert capsys.readouterr().err.strip().endswith("render evaluates the whole timeline: shorten it")
