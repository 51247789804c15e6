"""Spine's IK stretch and compress keyed in an animation's IK timeline (stepped, each key
holding to the next, the setup flags before the first) play as Spine plays them, and
survive the file and the export. Expected values by hand: distance over reach for the
stretched frame's x scale, forward kinematics for where the end lands."""
from __future__ import annotations

import copy
import json
import math
from dataclasses import replace

import numpy as np

from rigeditor.io import dumps_project, loads_project
from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.write import export_spine_json
from rigeditor.model.data.timeline import Channel, Key
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.validation.project import problems

from tests.io.spine_rigs import write_rig

HIP = np.array([10.0, 100.0])
LEG = {
    "skeleton": {"spine": "4.2.11", "fps": 30},
    "bones": [
        {"name": "root"},
        {"name": "hip", "parent": "root", "x": 10, "y": 100},
        {"name": "thigh", "parent": "hip", "length": 50, "rotation": -80},
        {"name": "shin", "parent": "thigh", "length": 45, "x": 50, "rotation": 10},
        {"name": "foot_target", "parent": "root", "x": 15, "y": 20},
    ],
    "ik": [{"name": "leg", "bones": ["thigh", "shin"], "target": "foot_target", "bendPositive": False}],
    "animations": {"walk": {
        "bones": {"foot_target": {"translate": [{"x": 0, "y": 0}, {"time": 1, "x": 0, "y": -120}]}},
        # Stretch on from 0.21 s to 0.51 s and from 0.71 s on (keys hold to the next;
        # between frames, clear of Spine's 32-bit key times).
        "ik": {"leg": [{"time": 0.21, "stretch": True}, {"time": 0.51}, {"time": 0.71, "stretch": True}]},
    }},
}
FRAMES = np.arange(31, dtype=float)
T = FRAMES / 30


def _import(tmp_path, doc, name="leg"):
    out = tmp_path / "out" / f"{name}.rigproj"
    out.parent.mkdir(exist_ok=True)
    result = import_spine(write_rig(tmp_path / f"src_{name}", doc, atlas=False, page=False), out)
    return result, load_project(out)


def _stretch_on(t):
    return ((t > 0.21) & (t < 0.51)) | (t > 0.71)


def _check_leg(bake):
    target = np.stack([np.full(31, 15.0), 20 - 120 * T], -1)
    d = np.hypot(*(target - HIP).T)
    on = _stretch_on(T)
    beyond = d > 95 + 1e-6
    assert (on & beyond).sum() >= 5 and (~on & beyond).sum() >= 3
    k = bake.column("thigh")
    w = bake.bone_world
    x_axis = np.stack([np.asarray(w.a)[:, k], np.asarray(w.c)[:, k]], -1)
    # Stretched where on and beyond reach, by distance / reach; never elsewhere.
    np.testing.assert_allclose(np.hypot(*x_axis.T), np.where(on & beyond, d / 95, 1.0), atol=1e-9)
    s = bake.column("shin")
    tip = bake.joint_world[:, s] + 45 * np.stack([np.asarray(w.a)[:, s], np.asarray(w.c)[:, s]], -1)
    np.testing.assert_allclose(tip[on], target[on], atol=1e-7)  # stretched or in reach: on the target
    short = ~on & beyond  # off: straight toward it, 95 from the hip
    np.testing.assert_allclose(np.hypot(*(tip[short] - HIP).T), 95.0, atol=1e-7)


def test_keyed_stretch_stretches_the_chain_on_its_keyed_frames_only(tmp_path):
    result, project = _import(tmp_path, LEG)
    assert not any("stretch" in w for w in result.warnings)
    assert [k.value[0] for k in project.chain("leg").spine_stretch.keys] == [1.0, 0.0, 1.0]
    _check_leg(evaluate(project, FRAMES))


def test_a_one_bone_chains_keyed_compress_and_stretch_scale_its_bone(tmp_path):
    doc = {
        "skeleton": {"spine": "4.2.11", "fps": 30},
        "bones": [{"name": "root"}, {"name": "arm", "parent": "root", "length": 60, "x": 10, "y": 100},
                  {"name": "aim", "parent": "root", "x": 100, "y": 100}],
        "ik": [{"name": "point", "bones": ["arm"], "target": "aim", "compress": True}],
        "animations": {"walk": {
            "bones": {"aim": {"translate": [{"x": 0, "y": 0}, {"time": 1, "x": -60, "y": 0}]}},
            "ik": {"point": [{"time": 0.31, "stretch": True, "mix": 0.5}, {"time": 0.61, "mix": 0.5}]},
        }},
    }
    result, project = _import(tmp_path, doc, "arm")
    assert not result.warnings
    bake = evaluate(project, FRAMES)
    d = 90 - 60 * T  # the target's distance from the arm's origin, straight along +x
    compress = T < 0.31  # the setup flag before the first key
    stretch = (T > 0.31) & (T < 0.61)
    mix = np.where(T > 0.31, 0.5, 1.0)
    wanted = compress & (d < 60) | stretch & (d > 60)
    assert wanted.sum() >= 3 and (~wanted).sum() >= 3
    k = bake.column("arm")
    scale_x = np.hypot(np.asarray(bake.bone_world.a)[:, k], np.asarray(bake.bone_world.c)[:, k])
    np.testing.assert_allclose(scale_x, np.where(wanted, 1 + mix * (d / 60 - 1), 1.0), atol=1e-9)


def test_flag_keys_survive_the_file_and_each_animation_keeps_its_own(tmp_path):
    from rigeditor.model.data import clips

    doc = copy.deepcopy(LEG)
    doc["animations"]["hold"] = {"bones": doc["animations"]["walk"]["bones"],
                                 "ik": {"leg": [{"time": 0.11, "stretch": True}]}}
    _, project = _import(tmp_path, doc)
    again = loads_project(dumps_project(project))
    assert again.chain("leg").spine_stretch == project.chain("leg").spine_stretch
    hold = clips.switch(again, "hold")
    assert [(round(k.frame, 4), k.value) for k in hold.chain("leg").spine_stretch.keys] == [(3.3, (1.0,))]
    _check_leg(evaluate(clips.switch(hold, "walk"), FRAMES))


def test_the_spine_export_keys_the_flags_and_reads_back_the_same(tmp_path):
    _, project = _import(tmp_path, LEG)
    skeleton = tmp_path / "again.json"
    export_spine_json(project, evaluate(project, FRAMES), skeleton)
    written = json.loads(skeleton.read_text())
    keys = written["animations"][next(iter(written["animations"]))]["ik"]["leg"]
    on = [k for k in keys if k.get("stretch")]
    assert on
    import_spine(skeleton, tmp_path / "back.rigproj")
    _check_leg(evaluate(load_project(tmp_path / "back.rigproj"), FRAMES))


def test_flag_keys_are_held_to_what_spine_does(tmp_path):
    _, project = _import(tmp_path, LEG)
    chain = project.chain("leg")
    stepped = lambda *vals: Channel((0.0,), tuple(Key(float(f), (v,), "constant") for f, v in vals))  # noqa: E731
    bad = {
        "compress is for one-bone": replace(chain, spine_compress=stepped((3, 1.0))),
        "must be one of": replace(chain, spine_stretch=stepped((3, 0.5))),
        "interp must be 'constant'": replace(chain, spine_stretch=Channel((0.0,), (Key(3.0, (1.0,), "linear"),))),
    }
    for words, c in bad.items():
        assert any(words in p for p in problems(replace(project, chains=(c,)))), words
    assert math.isclose(chain.spine_stretch.keys[0].frame, 6.3, abs_tol=1e-4)  # its time, not a whole frame


def test_a_set_up_stretch_stays_on_through_the_exported_ik_keys(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["stretch"] = True
    # Keyed mix only: every key of the written timeline must say stretch (Spine's reader
    # takes an absent flag as off, whatever the setup).
    doc["animations"]["walk"]["ik"] = {"leg": [{"time": 0.0, "mix": 1, "stretch": True},
                                               {"time": 0.5, "mix": 0.9, "stretch": True}]}
    _, project = _import(tmp_path, doc)
    assert not project.chain("leg").spine_stretch.keys  # every key says the setup flag
    skeleton = tmp_path / "again.json"
    export_spine_json(project, evaluate(project, FRAMES), skeleton)
    written = json.loads(skeleton.read_text())
    keys = written["animations"][next(iter(written["animations"]))]["ik"]["leg"]
    assert len(keys) >= 2 and all(k.get("stretch") is True for k in keys)


def test_keying_a_chain_keys_its_flags_as_they_are_there_and_changes_no_pose(tmp_path):
    from rigeditor.edits.tracks import key_item

    _, project = _import(tmp_path, LEG)
    before = evaluate(project, FRAMES)
    for frame, on in ((18, 0.0), (24, 1.0)):  # off between 0.51 s and 0.71 s, on after
        keyed, paths = key_item(project, ("chain", "leg"), frame)
        assert ("chain", "leg", "spine_stretch") in paths
        key = next(k for k in keyed.chain("leg").spine_stretch.keys if k.frame == frame)
        assert key.value == (on,) and key.interp == "constant"
        np.testing.assert_allclose(evaluate(keyed, FRAMES).joint_world, before.joint_world, atol=1e-12)
    plain = project.with_chain("leg", spine_stretch=Channel((0.0,)))
    _, paths = key_item(plain, ("chain", "leg"), 18)
    assert not any(p[2].startswith("spine_") for p in paths)  # unkeyed flags stay unkeyed
