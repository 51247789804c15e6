"""Spine export of keyed channels: translate and scale timelines, Béziers as Spine
curves (not one key per frame), cut only where Spine's chords would stray, and
several animations in one skeleton; each animation poses like its bake."""
from __future__ import annotations

import json

import numpy as np
import pytest

from rigeditor.cli import main
from rigeditor.io import save_project
from rigeditor.io.spine.write import spine_document, spine_document_many
from rigeditor.io.spine.write_curves import curve_keys
from rigeditor.model import evaluate
from rigeditor.model.data import clips
from rigeditor.edits import animations
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.timeline import Channel, Key, keyed

import spine_rules
from spine_pose import spine_pose


def dancer() -> Project:
    """Three FK bones with rotation, translate and scale keys of every interpolation,
    and a second animation."""
    hips = Bone("hips", None, 30.0, rest_offset=(10.0, 5.0), rest_rotation=1.2,
                rotation=keyed([(0, 0.0), (10, 0.6), (20, -0.3), (30, 0.0)], "bezier"),
                translate=keyed([(0, (0.0, 0.0)), (12, (20.0, -8.0)), (30, (0.0, 0.0))], "bezier"),
                scale=Channel((1.0, 1.0), (Key(0, (1.0, 1.0), "bezier"), Key(8, (1.3, 0.7), "linear"),
                                           Key(16, (0.9, 1.1), "constant"), Key(24, (1.0, 1.0)))))
    spine = Bone("spine", "hips", 25.0, rest_offset=(30.0, 0.0), rest_rotation=0.3,
                 rotation=Channel((0.0,), (Key(0, (0.0,), "bezier", (8.0, 0.9)),
                                           Key(20, (1.5,), "bezier", None, (-2.0, 0.0)), Key(30, (0.2,)))),
                 scale=keyed([(0, (1.0, 1.0)), (30, (1.5, 0.8))], "bezier"))
    head = Bone("head", "spine", 12.0, rest_offset=(25.0, 0.0),
                rotation=keyed([(0, 0.0), (5, 0.4), (15, -0.4), (25, 0.4)], "bezier"))
    p = Project(name="dancer", timeline=Timeline(24.0, 0, 30), bones=(hips, spine, head))
    p = animations.rename(p, "animation", "bounce")
    p = clips.switch(animations.add(p, "turn", 0, 16), "turn")
    p = p.with_bone("hips", rotation=keyed([(0, 0.0), (16, 6.5)], "bezier"),
                    translate=keyed([(0, (5.0, 0.0)), (16, (5.0, 30.0))], "linear"))
    return clips.switch(p, "bounce")


def _check_pose(doc, name, bake):
    for i, frame in enumerate(bake.frames):
        pose = spine_pose(doc, (frame - bake.frames[0]) / bake.fps, name)
        for k, bone in enumerate(bake.bones):
            origin, tip = pose[bone]
            np.testing.assert_allclose(origin, bake.joint_world[i, k], atol=1e-4)
            np.testing.assert_allclose(tip, bake.tip_world[i, k], atol=1e-4)


def test_keyed_channels_export_as_curves_that_pose_like_the_bake():
    project = dancer()
    bake = evaluate(project)
    doc = spine_document(project, bake, animation="bounce")
    assert spine_rules.problems(doc) == []
    hips = doc["animations"]["bounce"]["bones"]["hips"]
    assert set(hips) == {"rotate", "translate", "scale"}
    # Keys where ours are (plus a few cuts), not one per frame; all three kinds of curve.
    assert len(hips["rotate"]) < 31 and any(isinstance(k.get("curve"), list) for k in hips["rotate"])
    curves = {round(k["time"] * 24): k.get("curve") for k in hips["scale"]}
    assert curves[8] is None and curves[16] == "stepped" and isinstance(curves[0], list)
    _check_pose(doc, "bounce", bake)


def _spine_chords(keys, t, field):
    """What Spine's runtime plays between two keys of a Bézier: the curve at ten equal
    steps of its parameter joined by straight lines in time (from its documentation
    of curve sampling); linear and stepped as written."""
    i = max(j for j, k in enumerate(keys) if k["time"] <= t + 1e-12)
    k0 = keys[i]
    if i == len(keys) - 1 or k0.get("curve") == "stepped":
        return k0[field]
    k1 = keys[i + 1]
    if k0.get("curve") is None:
        return k0[field] + (t - k0["time"]) / (k1["time"] - k0["time"]) * (k1[field] - k0[field])
    d = 0 if field in ("value", "x") else 1
    cx1, cy1, cx2, cy2 = k0["curve"][4 * d:4 * d + 4]
    u = np.linspace(0, 1, 11)
    bx = (1 - u) ** 3 * k0["time"] + 3 * (1 - u) ** 2 * u * cx1 + 3 * (1 - u) * u * u * cx2 + u ** 3 * k1["time"]
    by = (1 - u) ** 3 * k0[field] + 3 * (1 - u) ** 2 * u * cy1 + 3 * (1 - u) * u * u * cy2 + u ** 3 * k1[field]
    return float(np.interp(t, bx, by))


@pytest.mark.parametrize("tolerance", [1e-2, 1e-4])
def test_spine_chords_meet_every_frame_within_the_tolerance(tolerance):
    ch = keyed([(0, 0.0), (40, 90.0), (50, -30.0), (90, 0.0)], "bezier")
    keys = curve_keys(ch, 0, 90, 24.0, ("value",), 1.0, tolerance, digits=12)
    frames = np.arange(0, 91)
    played = np.array([_spine_chords(keys, f / 24.0, "value") for f in frames])
    assert np.abs(played - ch.sample(frames)[:, 0]).max() <= tolerance
    # Still curves: far fewer keys than frames, more for the tighter tolerance.
    assert 4 <= len(keys) < 40


def test_several_animations_in_one_skeleton_each_pose_like_their_bake():
    project = dancer()
    items = [(n, clips.switch(project, n), evaluate(clips.switch(project, n))) for n in clips.names(project)]
    doc = spine_document_many(items)
    assert list(doc["animations"]) == ["bounce", "turn"] and spine_rules.problems(doc) == []
    for name, _, bake in items:
        _check_pose(doc, name, bake)


def test_bake_writes_one_spine_file_with_every_animation_and_one_csv_each(tmp_path):
    path = tmp_path / "dancer.rigproj"
    save_project(dancer(), path)
    assert main(["bake", str(path), "-o", str(tmp_path / "out.json"), "--format", "spine"]) == 0
    doc = json.loads((tmp_path / "out.json").read_text())
    assert list(doc["animations"]) == ["bounce", "turn"]
    assert main(["bake", str(path), "-o", str(tmp_path / "c.csv")]) == 0
    rows = {n: (tmp_path / f"c_{n}.csv").read_text().strip().splitlines() for n in ("bounce", "turn")}
    assert len(rows["bounce"]) == 1 + 31 and len(rows["turn"]) == 1 + 17
    assert main(["bake", str(path), "-o", str(tmp_path / "t.csv"), "--animation", "turn"]) == 0
    assert len((tmp_path / "t.csv").read_text().strip().splitlines()) == 1 + 17
    assert main(["bake", str(path), "-o", str(tmp_path / "x.csv"), "--animation", "run"]) == 2


def test_bake_writes_a_file_for_each_animation_even_when_their_names_clash_as_file_names(tmp_path):
    # "run/fast" and "run_fast" read alike as file names; "Run_fast" too where case is ignored.
    project = dancer()
    for name, end in (("run/fast", 5), ("run_fast", 9), ("Run_fast", 3)):
        project = animations.add(project, name, 0, end)
    path = tmp_path / "dancer.rigproj"
    save_project(project, path)
    args = [a for n in ("run/fast", "run_fast", "Run_fast") for a in ("--animation", n)]
    assert main(["bake", str(path), "-o", str(tmp_path / "c.csv"), *args]) == 0
    written = list(tmp_path.glob("c_*.csv"))
    assert len({p.name.casefold() for p in written}) == 3  # no animation's curves overwrote another's
    assert sorted(len(p.read_text().strip().splitlines()) for p in written) == [1 + 4, 1 + 6, 1 + 10]
