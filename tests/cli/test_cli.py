"""The command line in-process: main(argv) -> exit status, messages on stdout/stderr."""
from __future__ import annotations

import csv
import io
import json
import struct
from dataclasses import replace

import numpy as np
import pytest

import rigeditor.app.main
import rigeditor.cli as cli
from rigeditor import __version__
from rigeditor.cli import main
from rigeditor.model import evaluate
from rigeditor.model.evaluation.bake import CAUSES


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_validate_a_valid_project_prints_one_summary_line(project_file, capsys):
    path = project_file("walk")
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    # Keys: the character's 2, the spine's sway 5, each foot 5.
    assert out == f"{path}: valid: 8 bones, 3 chains, 3 targets, 17 keys, frames 0-48 at 24 fps\n"
    assert err == ""


def test_validate_an_invalid_project_prints_every_problem_and_exits_2(project_file, capsys):
    def mutate(d):
        d["bones"][1]["length"] = -3
        d["chains"][0]["softness"]["default"] = 3
    path = project_file("arm", mutate)
    assert main(["validate", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        f"rigeditor: {path}: bones[1].length: must be > 0, got -3",
        f"rigeditor: {path}: chains[0].softness.default: must be between 0 and 0.5, got 3",
    ]


def test_a_missing_or_malformed_file_is_one_clear_line(tmp_path, capsys):
    assert main(["validate", str(tmp_path / "nope.rigproj")]) == 2
    assert capsys.readouterr().err == f"rigeditor: {tmp_path / 'nope.rigproj'}: open: No such file or directory\n"
    bad = tmp_path / "bad.rigproj"
    bad.write_text('{"format": "rigeditor-project", "schema_version": 2,\n "name": NaN}')
    assert main(["report", str(bad)]) == 2
    assert capsys.readouterr().err == (f"rigeditor: {bad}: line 2, column 10: NaN and Infinity are not "
                                       "allowed (numbers must be finite)\n")


def test_bake_writes_csv_for_the_requested_frames(project_file, tmp_path, capsys):
    out = tmp_path / "curves.csv"
    assert main(["bake", str(project_file("arm")), "-o", str(out), "--frames", "10:20"]) == 0
    rows = list(csv.reader(io.StringIO(out.read_text())))
    assert rows[0][:3] == ["frame", "time_s", "upper_arm.rotation_deg"]
    assert [int(r[0]) for r in rows[1:]] == list(range(10, 21))
    assert capsys.readouterr() == ("", "")  # quiet: stderr is not a terminal here


def test_bake_radians_and_open_ended_frames(project_file, tmp_path):
    out = tmp_path / "curves.csv"
    assert main(["bake", str(project_file("arm")), "-o", str(out), "--radians", "--frames", "40:"]) == 0
    rows = list(csv.reader(io.StringIO(out.read_text())))
    assert "upper_arm.rotation_rad" in rows[0] and "arm.sensitivity_rad_per_unit" in rows[0]
    assert [int(r[0]) for r in rows[1:]] == list(range(40, 49))


def test_bake_json_and_spine_by_extension_and_by_format(project_file, tmp_path):
    path = str(project_file("walk"))
    assert main(["bake", path, "-o", str(tmp_path / "c.json")]) == 0
    assert json.loads((tmp_path / "c.json").read_text())["format"] == "rigeditor-curves"
    assert main(["bake", path, "-o", str(tmp_path / "s.json"), "--format", "spine"]) == 0
    assert json.loads((tmp_path / "s.json").read_text())["skeleton"]["spine"] == "4.2.0"


def test_bake_png_draws_the_plot(project_file, tmp_path):
    out = tmp_path / "curves.png"
    assert main(["bake", str(project_file("arm")), "-o", str(out)]) == 0
    assert _png_size(out.read_bytes()) == (1200, 900)


@pytest.mark.parametrize("args, message", [
    (["-o", "{tmp}/out.txt"], "{tmp}/out.txt: -o: cannot tell the format from '.txt': use .csv, .json or .png, "
                              "or --format spine"),
    (["-o", "{tmp}/out.json", "--format", "spine", "--radians"],
     "{tmp}/out.json: --radians: Spine JSON is always in degrees"),
    (["-o", "{tmp}/out.csv", "--frames", "20:10"],
     "{project}: --frames: expected START:END with integers and START <= END, got '20:10'"),
    (["-o", "{tmp}/arm.rigproj/out.csv"],
     "{tmp}/arm.rigproj/out.csv: write: Not a directory (nothing was written; no file was created)"),
])
def test_bake_refuses_bad_arguments_in_one_line(project_file, tmp_path, capsys, args, message):
    project = project_file("arm")
    args = [a.format(tmp=tmp_path) for a in args]
    assert main(["bake", str(project), *args]) == 2
    assert capsys.readouterr().err == f"rigeditor: {message.format(tmp=tmp_path, project=project)}\n"


def test_a_failed_bake_leaves_the_previous_output(project_file, tmp_path):
    out = tmp_path / "curves.csv"
    out.write_text("previous")
    broken = project_file("arm", lambda d: d["chains"][0].update(target="nobody"))
    assert main(["bake", str(broken), "-o", str(out)]) == 2
    assert out.read_text() == "previous"


def test_a_long_bake_draws_a_progress_bar_on_a_terminal(project_file, tmp_path, monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term = Terminal()
    monkeypatch.setattr("sys.stderr", term)
    assert main(["bake", str(project_file("walk", end=50000)), "-o", str(tmp_path / "c.csv"), "--frames", "0:50000"]) == 0
    drawn = term.getvalue()
    assert "evaluating" in drawn and "100% writing c.csv" in drawn
    assert drawn.endswith("\r\x1b[K")  # the bar is cleared at the end


def test_report_prints_each_chain_and_passes(project_file, capsys):
    assert main(["report", str(project_file("walk"))]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("chain ")] == [
        "chain arm_l", "chain leg_l", "chain leg_r"]
    assert out.splitlines()[-1] == "result: ok"


def test_report_exits_1_when_a_residual_is_unexplained(project_file, capsys, monkeypatch):
    def broken_evaluate(project, frames=None):
        bake = evaluate(project, frames)
        cb = bake.chains["arm"]
        cause = np.array(cb.cause)
        cause[5] = CAUSES.index("unexplained")
        return replace(bake, chains={"arm": replace(cb, cause=cause)})

    monkeypatch.setattr(cli, "evaluate", broken_evaluate)
    assert main(["report", str(project_file("arm")), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False and report["chains"]["arm"]["unexplained_frames"] == [5]


def test_render_draws_the_frame_offscreen(project_file, tmp_path):
    out = tmp_path / "pose.png"
    assert main(["render", str(project_file("arm")), "--frame", "22", "-o", str(out), "--size", "320x240"]) == 0
    assert _png_size(out.read_bytes()) == (320, 240)


def test_render_refuses_a_frame_outside_the_timeline(project_file, tmp_path, capsys):
    project = project_file("arm")
    assert main(["render", str(project), "--frame", "99", "-o", str(tmp_path / "p.png")]) == 2
    assert capsys.readouterr().err == (f"rigeditor: {project}: --frame: 99 is outside the timeline (0-48); "
                                       "to go further, lengthen the timeline\n")
    assert not (tmp_path / "p.png").exists()


def test_without_a_command_the_editor_opens_with_the_arguments(monkeypatch):
    opened = []
    monkeypatch.setattr(rigeditor.app.main, "run", lambda argv: opened.append(argv) or 0)
    assert main([]) == 0
    assert main(["walk.rigproj", "--frame", "12"]) == 0
    assert opened == [[], ["walk.rigproj", "--frame", "12"]]


def test_version_comes_from_the_package_metadata(capsys):
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"rigeditor {version('rigeditor')}\n" == f"rigeditor {__version__}\n"
