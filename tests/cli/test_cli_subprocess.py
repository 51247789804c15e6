"""Each command once as a real process: ``python -m rigeditor.cli ...``."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _run(*args, **kwargs):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=REPO,
                          env=env, timeout=120, **kwargs)


def test_validate_as_a_process(project_file):
    ok = _run("-m", "rigeditor.cli", "validate", str(project_file("arm")))
    assert ok.returncode == 0 and ok.stdout.endswith("frames 0-48 at 24 fps\n") and ok.stderr == ""
    bad = project_file("door", lambda d: d["spaces"][2].update(parent="door_handle"))
    out = _run("-m", "rigeditor.cli", "validate", str(bad))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.splitlines() == [f"rigeditor: {bad}: spaces: cycle door_handle -> door_handle"]


def test_bake_as_a_process_is_silent_when_piped(project_file, tmp_path):
    out = _run("-m", "rigeditor.cli", "bake", str(project_file("walk", end=20000)), "-o", str(tmp_path / "w.csv"),
               "--frames", "0:20000")
    assert (out.returncode, out.stdout, out.stderr) == (0, "", "")
    assert len((tmp_path / "w.csv").read_text().splitlines()) == 20002


def test_report_as_a_process(project_file):
    out = _run("-m", "rigeditor.cli", "report", str(project_file("walk")), "--json")
    assert out.returncode == 0, out.stderr
    assert sorted(json.loads(out.stdout)["chains"]) == ["arm_l", "leg_l", "leg_r"]


def test_render_as_a_process(project_file, tmp_path):
    out = _run("-m", "rigeditor.cli", "render", str(project_file("door")), "--frame", "30",
               "-o", str(tmp_path / "door.png"))
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "door.png").read_bytes()[:4] == b"\x89PNG"


def test_version_as_a_process():
    out = _run("-m", "rigeditor.cli", "--version")
    assert out.returncode == 0 and out.stdout.startswith("rigeditor ")


def test_headless_commands_never_load_qt(project_file, tmp_path):
    script = textwrap.dedent(f"""
        import sys
        from rigeditor.cli import main
        assert main(["validate", {str(project_file("walk"))!r}]) == 0
        assert main(["report", {str(project_file("walk"))!r}]) == 0
        for out in ("c.csv", "c.json", "s.json"):
            extra = ["--format", "spine"] if out == "s.json" else []
            assert main(["bake", {str(project_file("walk"))!r}, "-o", {str(tmp_path)!r} + "/" + out, *extra]) == 0
        loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph"))
        print(loaded)
    """)
    out = _run("-c", script)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "[]"
