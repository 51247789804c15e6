"""Partial bakes equal the whole bake's rows; a bake too big for memory is refused
before anything is allocated."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

import rigeditor.cli as cli
from rigeditor.cli import main
from rigeditor.examples.rigs import EXAMPLES
from rigeditor.model.evaluation.ranges import bake_bytes

REPO = Path(__file__).resolve().parents[2]


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


def test_a_bake_of_ten_million_frames_is_refused_with_the_figure_and_a_way_out(project_file, tmp_path, capsys,
                                                                              monkeypatch):
    monkeypatch.setattr(cli, "available_bytes", lambda: 2_000_000_000)  # any machine: 2 GB free
    out = tmp_path / "huge.csv"
    out.write_text("previous")
    project = project_file("arm", end=9_999_999)  # the longest timeline a file may hold
    assert main(["bake", str(project), "-o", str(out), "--frames", "0:9999999"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith(f"rigeditor: {project}: memory: frames 0-9999999 need about ")
    assert re.search(r"need about \d+\.\d GB .* is available; bake fewer frames, e.g. --frames 0:\d+$", err)
    assert out.read_text() == "previous"


def test_the_suggested_range_fits_and_one_frame_more_does_not(project_file, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cli, "available_bytes", lambda: 20_000_000)
    project = project_file("tail", end=100000)
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
    args = ["bake", str(project_file("walk", end=frames - 1)), "-o", str(out), "--frames", f"0:{frames - 1}"]
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


def _before_zero(doc):
    """The arm's timeline from -60 to 0: a run-up before frame 0."""
    doc["timeline"]["start"], doc["timeline"]["end"] = -60, 0
    for animation in doc["animations"]:
        animation["start"], animation["end"] = -60, 0


def test_frames_outside_the_timeline_are_refused_alike_by_bake_report_and_render(project_file, tmp_path, capsys):
    project = project_file("arm")  # frames 0-48
    out = tmp_path / "a.csv"
    out.write_text("previous")
    assert main(["bake", str(project), "-o", str(out), "--frames", "20:60"]) == 2
    assert capsys.readouterr().err == (f"rigeditor: {project}: --frames: 20:60 is outside the timeline (0-48); "
                                       "within it: --frames 20:48; to go further, lengthen the timeline\n")
    assert out.read_text() == "previous"
    assert main(["report", str(project), "--frames", "-5:10"]) == 2
    assert "--frames: -5:10 is outside the timeline (0-48); within it: --frames 0:10" in capsys.readouterr().err
    assert main(["bake", str(project), "-o", str(out), "--frames", "50:"]) == 2  # an open end is the timeline's
    assert "--frames: 50: is outside the timeline (0-48); to go further" in capsys.readouterr().err
    assert main(["render", str(project), "--frame", "49", "-o", str(tmp_path / "p.png")]) == 2
    assert "--frame: 49 is outside the timeline (0-48); to go further" in capsys.readouterr().err
    # Its ends are in: the range the message offers works.
    assert main(["bake", str(project), "-o", str(out), "--frames", "20:48"]) == 0
    assert [int(r.split(",")[0]) for r in out.read_text().splitlines()[1:]] == list(range(20, 49))


def test_each_animation_is_held_to_its_own_timeline(project_file, tmp_path, capsys):
    def two(doc):
        doc["animations"].append({"name": "short", "start": 0, "end": 24, "tracks": {}})
    project = project_file("arm", two)
    assert main(["bake", str(project), "-o", str(tmp_path / "a.csv"), "--frames", "20:40"]) == 2
    assert "--frames: 20:40 is outside animation 'short''s timeline (0-24); within it: --frames 20:24" \
        in capsys.readouterr().err
    assert not list(tmp_path.glob("a*.csv"))
    assert main(["bake", str(project), "-o", str(tmp_path / "a.csv"), "--frames", "10:20"]) == 0


def test_negative_frames_are_given_with_or_without_equals(project_file, tmp_path, capsys):
    project = project_file("arm", _before_zero)
    spaced, joined = tmp_path / "spaced.csv", tmp_path / "joined.csv"
    assert main(["bake", str(project), "-o", str(spaced), "--frames", "-50:-40"]) == 0
    assert main(["bake", str(project), "-o", str(joined), "--frames=-50:-40"]) == 0
    rows = spaced.read_text().splitlines()
    assert [int(r.split(",")[0]) for r in rows[1:]] == list(range(-50, -39))
    assert joined.read_text() == spaced.read_text()
    assert main(["bake", str(project), "-o", str(spaced), "--frames", "-10:"]) == 0
    assert [int(r.split(",")[0]) for r in spaced.read_text().splitlines()[1:]] == list(range(-10, 1))
    assert main(["report", str(project), "--frames", "-50:-40", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["frames"] == {"start": -50, "end": -40, "count": 11, "fps": 24.0}
    assert main(["render", str(project), "--frame", "-30", "-o", str(tmp_path / "r.png")]) == 0
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"


def test_the_editor_holds_its_frame_to_the_same_rule(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = tmp_path / "shot.png"
    run = subprocess.run([sys.executable, "-m", "rigeditor.cli", "--screenshot", str(out), "walk", "--frame", "99"],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert (run.returncode, run.stderr) == (2, "rigeditor: walk: --frame: 99 is outside the timeline (0-48); "
                                               "to go further, lengthen the timeline\n")
    assert not out.exists()
