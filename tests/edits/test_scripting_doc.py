"""docs/scripting.md runs as written: its script builds a two-bone arm, keys the target,
bakes and exports; the files it writes hold a pose that reaches the keyed target."""
from __future__ import annotations

import csv
import json
import math
import os
import re
from pathlib import Path

import pytest

from rigeditor import edits
from rigeditor.io import export_curves_csv, load_project
from rigeditor.model import evaluate

DOC = Path(__file__).resolve().parents[2] / "docs" / "scripting.md"
UPPER, FORE = 100.0, 80.0  # the lengths the doc's arm is built with
KEYS = {0: (150.0, 40.0), 24: (60.0, 120.0)}  # the doc's target keys


def _script() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1, "docs/scripting.md should hold one python script"
    return blocks[0]


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    folder = tmp_path_factory.mktemp("script")
    cwd = Path.cwd()
    namespace: dict = {"__name__": "__main__"}
    try:
        os.chdir(folder)
        exec(compile(_script(), str(DOC), "exec"), namespace)
    finally:
        os.chdir(cwd)
    return folder, namespace


def _tip(shoulder_deg: float, elbow_deg: float) -> tuple[float, float]:
    """Forward kinematics of the doc's arm from its local rotations (degrees)."""
    a = math.radians(shoulder_deg)
    b = a + math.radians(elbow_deg)
    return (UPPER * math.cos(a) + FORE * math.cos(b), UPPER * math.sin(a) + FORE * math.sin(b))


def _rows(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_the_script_writes_the_project_and_both_exports(ran):
    folder, _ = ran
    assert {p.name for p in folder.iterdir()} >= {"arm.rigproj", "arm.csv", "arm.json"}


def test_the_exported_angles_reach_the_keyed_targets(ran):
    folder, _ = ran
    rows = {int(r["frame"]): r for r in _rows(folder / "arm.csv")}
    assert sorted(rows) == list(range(25))
    for frame, target in KEYS.items():
        tip = _tip(float(rows[frame]["upper.rotation_deg"]), float(rows[frame]["fore.rotation_deg"]))
        assert math.dist(tip, target) < 1e-4  # the CSV keeps 1e-6 degree


def test_the_spine_export_agrees_with_the_curves_on_every_frame(ran):
    # Two writers of one bake: the CSV's angles, carried through forward kinematics, land
    # on the target bone the Spine skeleton keys (the target's own keys, played back) and
    # on the chain's end as the skeleton poses it (its live IK constraint solved).
    from spine_pose import bone_worlds, spine_pose

    folder, namespace = ran
    rows = _rows(folder / "arm.csv")
    skeleton = json.loads((folder / "arm.json").read_text(encoding="utf-8"))
    hand = namespace["hand"]
    (ik,) = skeleton["ik"]
    assert ik["target"] == hand and ik["mix"] == 1
    assert len(rows) == 25
    for row in rows:
        t = float(row["time_s"])
        tip = _tip(float(row["upper.rotation_deg"]), float(row["fore.rotation_deg"]))
        assert math.dist(tip, bone_worlds(skeleton, t)[hand][:2, 2]) < 1e-4
        assert math.dist(tip, spine_pose(skeleton, t)[ik["bones"][1]][1]) < 1e-4
        assert float(row[f"{namespace['arm']}.residual"]) < 1e-6


def test_the_saved_project_bakes_the_same_curves(ran, tmp_path):
    folder, _ = ran
    again = tmp_path / "again.csv"
    project = load_project(folder / "arm.rigproj")
    export_curves_csv(project, evaluate(project), again)
    assert again.read_text(encoding="utf-8") == (folder / "arm.csv").read_text(encoding="utf-8")


def test_the_refusal_shown_in_the_doc_is_the_one_raised(ran):
    _, namespace = ran
    text = DOC.read_text(encoding="utf-8")
    call = re.search(r"^>>> (.+)$", text, re.M).group(1)
    message = re.search(r"^rigeditor\.edits\.errors\.EditError: (.+)$", text, re.M).group(1)
    with pytest.raises(edits.EditError) as caught:
        eval(call, namespace)
    assert str(caught.value) == message
    assert type(caught.value).__module__ + "." + type(caught.value).__name__ == "rigeditor.edits.errors.EditError"


def test_the_modules_the_doc_lists_are_the_package_s_modules():
    import pkgutil

    listed = set(re.findall(r"`edits\.([a-z_]+)`", DOC.read_text(encoding="utf-8"))) - {"__all__"}
    modules = {m.name for m in pkgutil.iter_modules(edits.__path__)} - {"errors"}
    assert listed == modules


def test_every_public_edit_is_documented():
    missing = [name for name in edits.__all__ if callable(getattr(edits, name)) and not getattr(edits, name).__doc__]
    assert not missing


def test_the_script_runs_in_a_fresh_interpreter_without_qt(tmp_path):
    # What a pipeline sees: the script alone, in a new process, loads no Qt at all.
    import subprocess
    import sys

    probe = _script() + (
        "\nimport sys\n"
        "qt = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'pyqtgraph'))\n"
        "print('qt:', qt)\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "qt: []"
    assert (tmp_path / "arm.json").is_file()
