"""Spine 4.2 physics constraints: imported (setup, timelines, global timelines, resets),
refused where Spine would not read them, exported back; every bone at every frame
against the official runtime's poses (tests/io/fixtures/physics: rigs built one
feature at a time and combined, with spine-core 4.2's world transforms)."""
from __future__ import annotations

import copy
import csv
import json
import math
from pathlib import Path

import numpy as np
import pytest

from rigeditor.cli import main
from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.skeleton import SpineError
from rigeditor.io.spine.write import spine_document
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import write_rig

pytestmark = pytest.mark.usefixtures("both_physics_loops")  # compiled and Python stepping

FIXTURES = Path(__file__).parent / "fixtures" / "physics"


def _import(tmp_path, doc):
    out = tmp_path / "out" / "rig.rigproj"
    out.parent.mkdir(parents=True, exist_ok=True)
    src = write_rig(tmp_path / "src", doc, stem="rig", atlas=False, page=False)
    return import_spine(src, out, force=True)


def _world(bake, name):
    w = bake.bone_bakes[bake.bones.index(name)].world
    return np.array([np.broadcast_to(v, bake.frames.shape) for v in (w.tx, w.ty, w.a, w.b, w.c, w.d)]).T


@pytest.mark.parametrize("name", ["combined", "limit_hit", "rotate_shear_scale", "point_bone"])
def test_every_bone_at_every_frame_is_the_runtimes(tmp_path, name):
    data = json.loads((FIXTURES / f"{name}.json").read_text())
    result = _import(tmp_path, data["rig"])
    assert not any("physics" in w for w in result.warnings)
    bake = evaluate(result.project)
    spine = np.array(data["frames"])  # (frames, bones, 6) per the runtime
    assert len(bake) == spine.shape[0]
    compared = set()
    for k, bone in enumerate(data["bones"][1:], start=1):  # the root is the character space
        if bone not in bake.bones:
            continue  # an IK target that carries nothing: a target, not a bone
        compared.add(bone)
        ours = _world(bake, bone)
        assert np.abs(ours[:, :2] - spine[:, k, :2]).max() < 1e-4, bone  # model units
        assert np.abs(ours[:, 2:] - spine[:, k, 2:]).max() < 1e-5, bone  # the frame's axes
    assert {p["bone"] for p in data["rig"]["physics"]} <= compared


RIG = {
    "skeleton": {"spine": "4.2.22", "referenceScale": 50},
    "bones": [{"name": "root"}, {"name": "hip", "parent": "root", "length": 30},
              {"name": "tail", "parent": "hip", "length": 60, "x": 30}],
    "physics": [{"name": "p", "bone": "tail", "rotate": 1, "x": 0.5, "fps": 120, "limit": 800, "inertia": 0.5,
                 "damping": 0.9, "mass": 2, "windGlobal": True, "order": 0},
                {"name": "q", "bone": "hip", "y": 1, "order": 1}],
    "animations": {"go": {"bones": {"hip": {"translate": [{"time": 0}, {"time": 0.5, "x": 40}, {"time": 1}]}},
                          "physics": {"": {"wind": [{"time": 0, "value": 10}, {"time": 1, "value": 30}],
                                           "reset": [{"time": 0.5}]},
                                      "p": {"strength": [{"time": 0.2, "value": 40}, {"time": 0.8, "value": 90}],
                                            "reset": [{"time": 0.3}]}}}},
}


def test_the_setup_comes_in_with_spines_defaults_and_the_keys_where_spine_applies_them(tmp_path):
    result = _import(tmp_path, RIG)
    p, q = result.project.physics
    assert (p.bone, p.rotate, p.x, p.y, p.step, p.limit, p.reference_scale) == ("tail", 1.0, 0.5, 0.0, 120.0,
                                                                                800.0, 50.0)
    assert (p.inertia.default, p.damping.default, p.mass.default, p.strength.default) == \
        ((0.5,), (0.9,), (2.0,), (100.0,))
    assert (q.inertia.default, q.strength.default, q.damping.default, q.mix.default) == \
        ((1.0,), (100.0,), (1.0,), (1.0,))  # Spine's defaults
    # the global wind reaches only the constraint with windGlobal; a global reset every one
    assert p.wind.sample([0.0, 30.0])[:, 0] == pytest.approx([10.0, 30.0]) and not q.wind.keys
    assert [k.frame for k in p.reset.keys] == pytest.approx([9.0, 15.0]) and [k.frame for k in q.reset.keys] == [15.0]
    assert p.strength.sample([0.0, 12.0, 30.0])[:, 0] == pytest.approx([100.0, 40.0 + 50.0 / 3, 90.0])  # setup before
    assert not any("physics" in w for w in result.warnings)


@pytest.mark.parametrize("change, where", [
    (lambda d: d["physics"][0].update(bone="ghost"), "physics[0].bone: unknown bone 'ghost'"),
    (lambda d: d["physics"][0].update(fps=0), "physics[0].fps: must be > 0"),
    (lambda d: d["physics"][0].update(mass=-1), "physics[0].mass: must be > 0"),
    (lambda d: d["physics"][1].update(strength="hard"), "physics[1].strength: must be a finite number"),
    (lambda d: d["animations"]["go"]["physics"]["p"].update(mass=[{"time": 0, "value": 0}]),
     "animations.go.physics.p.mass: a mass must be > 0"),
])
def test_what_spine_would_not_read_is_refused_where_it_is(tmp_path, change, where):
    doc = copy.deepcopy(RIG)
    change(doc)
    with pytest.raises(SpineError) as err:
        _import(tmp_path, doc)
    assert where in str(err.value)


def test_a_constraint_spine_never_runs_or_on_the_root_is_listed_not_imported(tmp_path):
    doc = copy.deepcopy(RIG)
    doc["physics"][1]["order"] = 7
    doc["physics"].append({"name": "r", "bone": "root", "rotate": 1, "order": 1})
    result = _import(tmp_path, doc)
    assert [p.name for p in result.project.physics] == ["p"]
    assert any("never runs" in w and "q" in w for w in result.warnings)
    assert any("root bone" in w and "r" in w for w in result.warnings)


def test_the_export_carries_the_constraints_and_plays_back_the_same(tmp_path):
    data = json.loads((FIXTURES / "combined.json").read_text())
    project = _import(tmp_path, data["rig"]).project
    bake = evaluate(project)
    doc = spine_document(project, bake, animation="a")
    assert [p["name"] for p in sorted(doc["physics"], key=lambda p: p["order"])] == ["pre", "p", "r"]
    assert sorted(doc["ik"] + doc["physics"], key=lambda c: c["order"])[1]["name"] == "leg"  # IK between
    assert doc["skeleton"]["referenceScale"] == 100.0
    keys = doc["animations"]["a"]["physics"]
    assert keys["r"]["reset"] == [{"time": pytest.approx(0.5)}, {"time": pytest.approx(1.4)}]
    again = _import(tmp_path / "again", doc).project
    back = evaluate(again)
    for bone in ("hip", "tail", "tip", "tip2"):
        assert np.abs(_world(back, bone) - _world(bake, bone)).max() < 1e-4, bone


def test_a_single_frame_or_uneven_frames_are_the_grid_stepped_from_the_start(tmp_path):
    # physics constraints on both sides of an IK chain (three runs of constraints):
    # frames that are no game's clock (one frame alone, uneven times) are each one
    # update from the project's grid frame before, so a grid frame is the grid's
    data = json.loads((FIXTURES / "combined.json").read_text())
    project = _import(tmp_path, data["rig"]).project
    whole = evaluate(project)
    alone = evaluate(project, [31.0])
    uneven = evaluate(project, [3.0, 7.0, 7.5, 12.0, 40.0])
    for bone in ("hip", "tail", "tip", "tip2"):
        assert _world(alone, bone)[0] == pytest.approx(_world(whole, bone)[31], abs=1e-12), bone
        assert _world(uneven, bone)[[0, 1, 3, 4]] == pytest.approx(_world(whole, bone)[[3, 7, 12, 40]],
                                                                    abs=1e-12), bone
        assert np.isfinite(_world(uneven, bone)).all()


def _csv_world(path, bone):
    """(x, y, a, b, c, d) per row of a ``bake --world`` CSV."""
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    col = {h: i for i, h in enumerate(rows[0])}
    data = np.array(rows[1:], dtype=float)
    g = lambda k: data[:, col[f"{bone}.{k}"]]  # noqa: E731
    r, sh = np.radians(g("rotation_deg")), np.radians(g("shear_deg"))
    sx, sy = g("scale_x"), g("scale_y")
    return np.stack([g("x"), g("y"), sx * np.cos(r), -sy * np.sin(r + sh), sx * np.sin(r), sy * np.cos(r + sh)], 1)


def test_physics_plays_as_a_game_at_the_rate_it_is_sampled(tmp_path):
    # A key at 1/60 s imports the rig at 60 fps. The runtime's physics reads the bones'
    # motion once an update, so a 30 fps game and a 60 fps game differ (by units here):
    # the project's own bake is the 60 fps game, ``bake --fps 30`` the 30 fps game.
    data = json.loads((FIXTURES / "clock60_combined.json").read_text())
    result = _import(tmp_path, data["rig"])
    project = result.project
    assert project.timeline.fps == 60.0
    at60, at30 = np.array(data["frames_60"]), np.array(data["frames_30"])
    assert np.abs(at60[::2, :, :2] - at30[:, :, :2]).max() > 1.0  # the two games differ
    bake = evaluate(project)
    out = tmp_path / "w.csv"
    assert main(["bake", str(tmp_path / "out" / "rig.rigproj"), "-o", str(out), "--world", "--fps", "30"]) == 0
    for k, bone in enumerate(data["bones"][1:], start=1):
        if bone not in bake.bones:
            continue
        ours = _world(bake, bone)
        assert ours.shape[0] == at60.shape[0]
        assert np.abs(ours[:, :2] - at60[:, k, :2]).max() < 1e-4, bone
        assert np.abs(ours[:, 2:] - at60[:, k, 2:]).max() < 1e-5, bone
        game = _csv_world(out, bone)
        assert game.shape[0] == at30.shape[0]
        assert np.abs(game[:, :2] - at30[:, k, :2]).max() < 1e-4, bone
        assert np.abs(game[:, 2:] - at30[:, k, 2:]).max() < 1e-5, bone
