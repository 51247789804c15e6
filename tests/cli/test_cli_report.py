"""`rigeditor report` as a pipeline gate: --fail-on picks what fails it, --junit writes
the result as JUnit XML, and the text says "none" where there is nothing to name."""
from __future__ import annotations

import json
import math
import shutil
import xml.etree.ElementTree as ET
from dataclasses import replace

import numpy as np
import pytest

import rigeditor.cli as cli
from rigeditor.cli import main
from rigeditor.io import save_project
from rigeditor.examples.files import example_file
from rigeditor.model import evaluate
from rigeditor.model.evaluation.bake import CAUSES
from rigeditor.examples.rigs import walk
from rigeditor.examples.skin import SKIN_DIR
from rigeditor.model.data.timeline import constant, keyed

RIGID = example_file("rigid_arm")
SKINNED = example_file("skinned_arm")


def _ranges(frames):
    """[5, 6, 7, 9] -> "5-7, 9", written here as a plain loop."""
    runs = []
    for f in frames:
        if runs and f == runs[-1][1] + 1:
            runs[-1][1] = f
        else:
            runs.append([f, f])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _crack_frames(path) -> list[int]:
    """The frames the crack check says a gap opens, from the check itself."""
    from rigeditor.examples.files import resolve_project
    from rigeditor.io.art.images import alpha_masks
    from rigeditor.model.diagnostics.cracks import crack_check

    project, images = resolve_project(str(path))
    bake = evaluate(project)
    (crack,) = crack_check(project, bake, alpha_masks(project, images))
    return [int(f) for f in crack.frames(bake.frames)]


@pytest.fixture
def bent_skinned_arm(tmp_path):
    """The skinned arm bending to 120 degrees over 120 frames (its inner elbow folds),
    saved beside a copy of its picture."""
    from rigeditor.io import load_project

    project = load_project(SKINNED)
    bones = (replace(project.bones[0], rotation=constant(0.0)),
             replace(project.bones[1], rotation=keyed([(0, 0.0), (120, math.radians(120.0))])))
    project = replace(project, bones=bones, timeline=replace(project.timeline, start=0, end=120))
    shutil.copytree(SKINNED.parent / SKIN_DIR, tmp_path / SKIN_DIR)
    path = tmp_path / "bent.rigproj"
    save_project(project, path)
    return path


def _area(p):
    return 0.5 * ((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[1][1] - p[0][1]) * (p[2][0] - p[0][0]))


def _collapsed_frames(path) -> list[int]:
    """Frames where a triangle keeps under 30 % of its bind area or flips, by a plain
    loop over the frames and triangles of the deformed mesh."""
    from rigeditor.io import load_project

    project = load_project(path)
    bake = evaluate(project)
    mesh = project.art.slots[0].attachments[0]
    bind = [_area(mesh.in_slot_frame()[t]) for t in mesh.triangles]
    pose = bake.art.meshes[0]
    out = []
    for row in range(len(bake)):
        v = pose.vertices(row)
        if min(_area(v[t]) / a for t, a in zip(mesh.triangles, bind)) < 0.3:
            out.append(int(bake.frames[row]))
    return out


def test_an_open_crack_is_reported_by_default_and_fails_with_fail_on_crack(capsys):
    frames = _crack_frames(RIGID)
    assert frames and len(frames) < 49  # open on some frames, closed on the straight arm
    assert main(["report", str(RIGID)]) == 0  # as before: cracks are listed, not gated
    verdict = capsys.readouterr().out.splitlines()[-1]
    # ... but "ok" says what it did not gate, so it does not read as "clean"
    assert verdict.startswith("result: ok (reported, not failing: crack upper_arm|forearm at joint forearm: "
                              f"open on frames {_ranges(frames)}")
    assert main(["report", str(RIGID), "--fail-on", "crack"]) == 1
    verdict = capsys.readouterr().out.splitlines()[-1]
    assert verdict.startswith(f"result: FAIL: crack upper_arm|forearm at joint forearm: open on frames "
                              f"{_ranges(frames)} (max ")


def test_a_collapsing_mesh_fails_with_fail_on_collapse_naming_its_frames(bent_skinned_arm, capsys):
    frames = _collapsed_frames(bent_skinned_arm)
    assert frames and frames[0] > 60  # the fold comes late in the bend
    assert main(["report", str(bent_skinned_arm)]) == 0
    capsys.readouterr()
    assert main(["report", str(bent_skinned_arm), "--fail-on", "residual,flip,crack,collapse", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["fail_on"] == ["residual", "flip", "crack", "collapse"]
    assert report["failures"] == [
        f"collapse arm/arm at joint forearm: a triangle below 30 % of its area or flipped on frames "
        f"{_ranges(frames)} (worst {100 * report['collapse']['arm/arm']['worst']:.0f} % at frame "
        f"{report['collapse']['arm/arm']['worst_frame']})"]


def test_fail_on_none_or_one_check_leaves_the_others_reported_only(project_file, capsys, monkeypatch):
    def broken_evaluate(project, frames=None):  # a bug in the solver: frame 5 unexplained, 9 flips
        bake = evaluate(project, frames)
        cb = bake.chains["arm"]
        cause, flip = np.array(cb.cause), np.zeros(len(bake), bool)
        cause[5], flip[9] = CAUSES.index("unexplained"), True
        return replace(bake, chains={"arm": replace(cb, cause=cause, flip=flip)})

    monkeypatch.setattr(cli, "evaluate", broken_evaluate)
    path = str(project_file("arm"))
    assert main(["report", path]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        "result: FAIL: chain arm: unexplained residual on frames 5; chain arm: unkeyed elbow flip on frames 9")
    assert main(["report", path, "--fail-on", "flip"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == (
        "result: FAIL: chain arm: unkeyed elbow flip on frames 9 (reported, not failing: chain arm: "
        "unexplained residual on frames 5; --fail-on decides)")
    assert main(["report", path, "--fail-on", "none"]) == 0


@pytest.mark.parametrize("value", ["crak", "", "residual,,cracks"])
def test_an_unknown_check_is_a_usage_error_naming_the_known_ones(value, capsys):
    assert main(["report", "walk", f"--fail-on={value}"]) == 2
    assert capsys.readouterr().err == (
        "rigeditor: walk: --fail-on: expected a comma-separated list of residual, flip, crack, collapse "
        f"(or none), got {value!r}\n")


def test_junit_has_a_case_per_chain_and_seam_and_failures_say_what_and_where(tmp_path, capsys):
    out = tmp_path / "report.xml"
    assert main(["report", "dressed_walk", "--junit", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    root = ET.parse(out).getroot()  # it parses
    (suite,) = root.findall("testsuite")
    cases = suite.findall("testcase")
    names = [c.get("name") for c in cases]
    assert names == [f"chain {n}" for n in ("arm_l", "leg_l", "leg_r")] + [
        f"crack {c['slots'][0]}|{c['slots'][1]} at joint {c['joint']}" for c in report["cracks"].values()]
    assert len(report["cracks"]) == 5 and suite.get("tests") == "8" and suite.get("failures") == "0"
    assert not list(suite.iter("failure"))
    # The cracks that open are in the cases' output, not failures (not gated by default).
    opened = [c for c in cases if c.find("system-out") is not None]
    assert len(opened) == sum(bool(c["frames"]) for c in report["cracks"].values()) == 3

    frames = _crack_frames(RIGID)
    assert main(["report", str(RIGID), "--fail-on", "crack", "--junit", str(out)]) == 1
    (suite,) = ET.parse(out).getroot().findall("testsuite")
    (case,) = suite.findall("testcase")
    (failure,) = case.findall("failure")
    assert case.get("name") == "crack upper_arm|forearm at joint forearm" and failure.get("type") == "crack"
    assert failure.get("message").startswith(f"crack upper_arm|forearm at joint forearm: open on frames "
                                             f"{_ranges(frames)}")
    assert suite.get("failures") == "1" and root.get("failures") is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.xml"]  # no temporary file left


def test_junit_is_written_atomically_and_never_over_the_project(project_file, tmp_path, capsys, monkeypatch):
    out = tmp_path / "report.xml"
    out.write_text("previous")

    def interrupted(project, frames=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "evaluate", interrupted)
    assert main(["report", str(project_file("walk")), "--junit", str(out)]) == 130
    assert out.read_text() == "previous"
    monkeypatch.undo()
    path = project_file("arm")
    before = path.read_bytes()
    assert main(["report", str(path), "--junit", str(path)]) == 2
    assert "--junit: this is the project file" in capsys.readouterr().err
    assert path.read_bytes() == before
    # Like every export, the JUnit file creates the folder it is written into.
    assert main(["report", str(path), "--junit", str(tmp_path / "new" / "dir" / "r.xml")]) == 0
    assert ET.parse(tmp_path / "new" / "dir" / "r.xml").getroot().tag in ("testsuites", "testsuite")


def test_a_largest_value_that_shows_as_zero_is_said_as_none_without_a_frame(capsys):
    bake = evaluate(walk())
    # Every foot and hand is on target and the planted feet hold still: round-off only.
    assert all(float(np.max(cb.residual)) < 1e-9 for cb in bake.chains.values())
    assert all(float(np.max(cb.hold_drift)) < 1e-9 for cb in bake.chains.values())
    assert main(["report", "walk"]) == 0
    out = capsys.readouterr().out
    assert "max 0.000000" not in out and "max 0.0000 " not in out
    assert out.count("  residual     none (on target on every frame)") == 3
    assert out.count("  hold drift   none over ") == 3
    # A real value keeps its frame: the hand rides the hip, 1.25 units a frame at most.
    assert main(["report", "walk", "--json"]) == 0
    hand = json.loads(capsys.readouterr().out)["chains"]["arm_l"]["hold"]
    assert hand["world_motion_max"] > 1.0 and hand["world_motion_max_frame"] is not None
    assert f"max {hand['world_motion_max']:.6f} per frame at frame {hand['world_motion_max_frame']}" in out


def test_in_json_an_all_zero_value_has_no_frame():
    from rigeditor.io.report import build_report

    bake = evaluate(walk())
    cb = bake.chains["leg_l"]
    zero = replace(bake, chains={"leg_l": replace(cb, residual=np.zeros(len(bake)), sensitivity=np.zeros(len(bake)))})
    entry = build_report(zero, "walk")["chains"]["leg_l"]
    assert entry["residual"]["max"] == 0 and entry["residual"]["max_frame"] is None
    assert entry["sensitivity"]["max"] == 0 and entry["sensitivity"]["max_frame"] is None
    sens = bake.chains["leg_l"].sensitivity  # a real value: its frame
    assert build_report(bake, "walk")["chains"]["leg_l"]["sensitivity"]["max_frame"] == int(np.argmax(sens))


def test_one_mesh_across_a_joint_is_named_as_such_not_as_a_pair_with_itself(capsys):
    assert main(["report", str(SKINNED)]) == 0
    out = capsys.readouterr().out
    assert "arm|arm" not in out
    assert "crack arm across joint forearm (one mesh: holes within 46 units): none; open on none" in out
    assert main(["report", str(SKINNED), "--json"]) == 0
    cracks = json.loads(capsys.readouterr().out)["cracks"]
    assert list(cracks) == ["arm@forearm"]
    assert cracks["arm@forearm"]["slots"] == ["arm", "arm"] and cracks["arm@forearm"]["one_mesh"] is True


def test_one_mesh_across_two_joints_has_an_entry_for_each():
    """The arm's one picture skinned to three bones (a hand bone from the wrist): it
    meets itself at the elbow and at the wrist, two entries, neither lost."""
    from PIL import Image

    from rigeditor.io import load_project
    from rigeditor.io.report import build_report
    from rigeditor.model.data.attachments import Art, ImageAttachment, Slot
    from rigeditor.model.diagnostics.cracks import crack_check
    from rigeditor.examples.skin import FORE, UPPER, _rig
    from rigeditor.edits.mesh_ops import mesh_from_image
    from rigeditor.model.data.project import Bone
    from rigeditor.model.data.timeline import StepChannel

    alpha = np.asarray(Image.open(SKINNED.parent / SKIN_DIR / "arm.png").convert("RGBA"))[..., 3] / 255.0
    image = load_project(SKINNED).art.slots[0].attachments[0]
    assert UPPER + FORE < image.x + image.width / 2  # the picture reaches past the wrist
    plain = ImageAttachment("arm", image.path, image.width, image.height, x=image.x)
    rig = _rig("three", Art((Slot("arm", "upper_arm", (plain,), StepChannel("arm")),)))
    rig = replace(rig, bones=rig.bones + (Bone("hand", "forearm", 20.0, rest_offset=(FORE, 0.0)),))
    rig = mesh_from_image(rig, "arm", "arm", alpha, bones=("upper_arm", "forearm", "hand"), spacing=16.0)
    bake = evaluate(rig)
    report = build_report(bake, "three", cracks=crack_check(rig, bake, {}))
    assert sorted(report["cracks"]) == ["arm@forearm", "arm@hand"]
    assert [c["title"] for c in report["checks"] if c["kind"] == "crack"] == [
        "crack arm across joint forearm", "crack arm across joint hand"]
