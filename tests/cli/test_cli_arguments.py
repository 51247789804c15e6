"""What the command line accepts: example names wherever a project goes, ``rigeditor
examples``, ``--select`` naming what exists, a closed pipe, and no display."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rigeditor.cli import main
from rigeditor.examples.files import ALL_DESCRIPTIONS, EXAMPLE_NAMES
from rigeditor.examples.rigs import EXAMPLES

REPO = Path(__file__).resolve().parents[2]


def test_validate_takes_an_example_name(project_file, capsys):
    path = project_file("walk")
    assert main(["validate", str(path)]) == 0
    from_file = capsys.readouterr().out
    assert main(["validate", "walk"]) == 0
    assert capsys.readouterr().out == from_file.replace(str(path), "walk")


def test_bake_and_report_take_an_example_name(project_file, tmp_path, capsys):
    assert main(["bake", "walk", "-o", str(tmp_path / "name.csv")]) == 0
    assert main(["bake", str(project_file("walk")), "-o", str(tmp_path / "file.csv")]) == 0
    assert (tmp_path / "name.csv").read_bytes() == (tmp_path / "file.csv").read_bytes()
    capsys.readouterr()
    assert main(["report", "door", "--json"]) == 0
    by_name = json.loads(capsys.readouterr().out)
    assert main(["report", str(project_file("door")), "--json"]) == 0
    by_file = json.loads(capsys.readouterr().out)
    assert by_name["chains"] == by_file["chains"] and by_name["ok"] is True


def test_render_takes_an_example_name(tmp_path):
    assert main(["render", "tail", "--frame", "12", "-o", str(tmp_path / "t.png")]) == 0
    assert (tmp_path / "t.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_file_of_that_name_comes_before_the_example(project_file, tmp_path, monkeypatch, capsys):
    (tmp_path / "arm").write_bytes(project_file("walk").read_bytes())  # a file called "arm"
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "arm"]) == 0
    assert capsys.readouterr().out.startswith("arm: valid: 8 bones, 3 chains")


def test_an_unknown_name_says_what_the_examples_are(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "arms"]) == 2
    assert capsys.readouterr().err == ("rigeditor: arms: open: no such file, and no example of that "
                                       f"name (examples: {', '.join(EXAMPLE_NAMES)})\n")


def test_examples_lists_each_example_with_a_line_of_description(capsys):
    assert main(["examples"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == list(EXAMPLE_NAMES)
    assert {"dressed_arm", "dressed_walk"} <= set(EXAMPLE_NAMES)
    for line, name in zip(lines, EXAMPLE_NAMES):
        assert line.endswith(ALL_DESCRIPTIONS[name]) and len(line) < 100


@pytest.mark.parametrize("item, message", [
    ("chain:arm", "--select chain:arm: no chain named 'arm' in walk (chains: leg_l, leg_r, arm_l)"),
    ("bone:elbow", "--select bone:elbow: no bone named 'elbow' in walk (bones: spine, head, upper_arm_l, "
                   "forearm_l, thigh_l, shin_l, thigh_r, shin_r)"),
    ("target:hand", "--select target:hand: no target named 'hand' in walk (targets: foot_l, foot_r, "
                    "hand_on_hip)"),
    ("arm_l", "--select arm_l: expected KIND:NAME with KIND one of bone, chain, target, space, slot, transform, path, physics"),
    ("limb:arm_l", "--select limb:arm_l: expected KIND:NAME with KIND one of bone, chain, target, space, slot, transform, path, physics"),
])
def test_selecting_an_unknown_item_is_an_error_naming_what_exists(item, message, capsys, monkeypatch):
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert main(["walk", "--select", "chain:arm_l", "--select", item]) == 2
    assert capsys.readouterr().err == f"rigeditor: {message}\n"


def test_selecting_known_items_opens_with_them_selected():
    from rigeditor.app.main import parse_selection

    items = parse_selection(["chain:arm_l", "bone:spine", "target:foot_l", "space:character"],
                            EXAMPLES["walk"]())
    assert items == [("chain", "arm_l"), ("bone", "spine"), ("target", "foot_l"), ("space", "character")]


@pytest.mark.parametrize("env, found", [
    ({}, False),
    ({"QT_QPA_PLATFORM": "xcb"}, False),
    ({"QT_QPA_PLATFORM": "offscreen"}, True),
    ({"QT_QPA_PLATFORM": "minimal"}, True),
    ({"DISPLAY": ":0"}, True),
    ({"WAYLAND_DISPLAY": "wayland-0", "QT_QPA_PLATFORM": "wayland"}, True),
])
def test_a_display_is_needed_only_by_platforms_that_draw_on_one(env, found, monkeypatch):
    from rigeditor.app.main import _display_found

    monkeypatch.setattr(sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert _display_found() is found


# ------------------------------------------------------------------ as real processes

def _env(**changes):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(changes)
    return env


def test_a_closed_pipe_ends_the_command_quietly(tmp_path):
    # The reader is gone before the command writes (``| head -1`` that already has its line).
    proc = subprocess.Popen([sys.executable, "-m", "rigeditor.cli", "report", "walk", "--json"],
                            cwd=tmp_path, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141  # 128 + SIGPIPE, as a shell reports a tool a pipe ended
    assert err == ""


def test_without_a_display_the_editor_says_so_in_one_line_before_loading_qt(tmp_path):
    code = ("import sys\nfrom rigeditor.cli import main\nstatus = main(['walk'])\n"
            "print('Qt loaded' if any(m.startswith('PySide6') for m in sys.modules) else 'no Qt')\n"
            "sys.exit(status)\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_env(), capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 2
    assert out.stdout == "no Qt\n"
    assert out.stderr == ("rigeditor: no display found (neither DISPLAY nor WAYLAND_DISPLAY is set); "
                          "for a picture without one use --screenshot OUT.png, or set "
                          "QT_QPA_PLATFORM=offscreen\n")
    # Both ways out it names work.
    shot = subprocess.run([sys.executable, "-m", "rigeditor.cli", "walk", "--screenshot", "w.png"],
                          cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=120)
    assert shot.returncode == 0, shot.stderr
    assert (tmp_path / "w.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _subcommands():
    import argparse

    from rigeditor.cli import _parser

    (sub,) = [a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return sub


def test_every_argument_of_every_command_says_what_it_is_in_help():
    sub = _subcommands()
    missing = [f"{name} {a.option_strings[0] if a.option_strings else a.metavar}"
               for name, parser in sub.choices.items() for a in parser._actions if not a.help]
    assert missing == []


@pytest.mark.parametrize("command, says, not_says", [
    ("import-images", ["folder of PNG", "import-psd"], ["layered"]),
    ("import-psd", ["layered Photoshop picture", "import-images"], []),
    ("render", ["--frame N", "the frame to draw, within the timeline"], []),
    ("report", ["--fail-on CHECKS", "residual,flip,crack,collapse", "--junit OUT.xml"], []),
])
def test_the_help_of_a_command_names_its_argument_for_what_it_is(command, says, not_says, capsys):
    assert main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    assert all(s in text for s in says), text
    assert not any(s in text for s in not_says), text
