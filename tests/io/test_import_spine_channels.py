"""Spine translate and scale timelines and several animations: checked against
Spine's meaning of the numbers worked out by hand."""
from __future__ import annotations

import copy
import math

import numpy as np

from rigeditor.io.spine.read import import_spine
from rigeditor.io.project_file import load_project
from rigeditor.model.data import clips
from rigeditor.edits import animations
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import LEG, write_rig


def _rot(deg):
    r = math.radians(deg)
    return np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])


def _imported(tmp_path, doc):
    src = write_rig(tmp_path / "src", doc)
    out = tmp_path / "out" / "leg.rigproj"
    out.parent.mkdir()
    result = import_spine(src, out)
    return result, load_project(out)


def test_translate_and_scale_keys_move_and_scale_like_spine(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["ik"] = []
    # A tail on the hip, scaled (2, 0.5) in setup; a tip 10 along it.
    doc["bones"] += [{"name": "tail", "parent": "hip", "length": 10, "rotation": 30, "scaleX": 2, "scaleY": 0.5},
                     {"name": "tip", "parent": "tail", "x": 10, "y": 4}]
    doc["animations"] = {"wag": {"bones": {
        "tail": {"translatex": [{"value": 0}, {"time": 1, "value": 6}],
                 "scale": [{"x": 1, "y": 1}, {"time": 1, "x": 1.5, "y": 2}]},
    }}}
    _, project = _imported(tmp_path, doc)
    bake = evaluate(project)
    s = bake.frames / 30
    for i in (0, 12, 30):
        # Spine: tail at hip + (tx, 0) turned 30; tip = tail + R(30) S(2 sx, 0.5 sy) (10, 4)
        tail = np.array([10.0, 100.0]) + [6 * s[i], 0.0]
        sx, sy = 2 * (1 + 0.5 * s[i]), 0.5 * (1 + s[i])
        tip = tail + _rot(30) @ [sx * 10, sy * 4]
        assert np.allclose(bake.joint_world[i, bake.column("tail")], tail, atol=1e-9)
        assert np.allclose(bake.joint_world[i, bake.column("tip")], tip, atol=1e-9)


def test_translate_keys_under_a_chain_parent_with_an_off_axis_child_keep_spines_direction(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["mix"] = 0
    doc["bones"].append({"name": "patch", "parent": "thigh", "x": 20})
    doc["animations"] = {"slide": {"bones": {"patch": {"translate": [{"x": 0}, {"time": 1, "x": 10, "y": 5}]}}}}
    result, project = _imported(tmp_path, doc)
    assert project.bone("shin").rest_offset == (50.0, 3.0)  # off the thigh's axis
    bake = evaluate(project)
    for i in (0, 15, 30):
        t = i / 30
        expected = np.array([10.0, 100.0]) + _rot(-80) @ [20 + 10 * t, 5 * t]
        assert np.allclose(bake.joint_world[i, bake.column("patch")], expected, atol=1e-9)


def test_every_animation_is_a_clip_with_its_own_range_and_target_motion(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["bones"][4] = {"name": "foot_target", "parent": "hip", "x": 5, "y": -70}
    doc["animations"] = {
        "sway": {"bones": {"hip": {"rotate": [{"value": 0}, {"time": 0.5, "value": 30}]}}},
        "lift": {"bones": {"foot_target": {"translate": [{"y": 0}, {"time": 1, "y": 20}]}}},
    }
    result, project = _imported(tmp_path, doc)
    assert [a.name for a in project.animations] == ["sway", "lift"] and result.animation == "sway"
    assert (project.timeline.start, project.timeline.end) == (0, 15)
    hip = np.array([10.0, 100.0])
    bake = evaluate(project)
    angle = np.interp(bake.frames, [0, 15], [0, 30])
    expected = hip + np.stack([_rot(a) @ [5.0, -70.0] for a in angle])
    assert np.allclose(bake.chains["leg"].end_world, expected, atol=1e-7)
    lift = clips.switch(project, "lift")
    assert (lift.timeline.start, lift.timeline.end) == (0, 30)
    bake = evaluate(lift)
    # The hip does not turn here: the target's space stays at the setup pose.
    expected = hip + np.stack([[5.0, -70.0 + 20 * f / 30] for f in bake.frames])
    assert np.allclose(bake.chains["leg"].end_world, expected, atol=1e-7)
    assert lift.bone("hip").rotation.keys == ()


def test_several_animations_with_translate_and_scale_survive_export_import(tmp_path):
    from rigeditor.cli import main
    from rigeditor.examples.art_files import write_dressed_walk
    from rigeditor.io.project_file import save_project
    from rigeditor.model.data.timeline import keyed

    source = write_dressed_walk(tmp_path / "example")
    project = clips.switch(animations.duplicate(load_project(source), "animation", "stomp"), "stomp")
    project = project.with_bone("head", rotation=keyed([(0, 0.0), (10, 0.3), (20, -0.2)], "bezier"),
                                translate=keyed([(0, (0.0, 0.0)), (12, (3.0, 1.0))]),
                                scale=keyed([(0, (1.0, 1.0)), (24, (1.2, 0.9))]))
    project = clips.switch(project, "animation")
    save_project(project, source)

    def through(src, folder):
        folder.mkdir()
        assert main(["bake", str(src), "-o", str(folder / "walk.json"), "--format", "spine"]) == 0
        import_spine(folder / "walk.json", folder / "walk.rigproj", curves="authored")
        return folder / "walk.rigproj", load_project(folder / "walk.rigproj")

    a_file, a = through(source, tmp_path / "a")
    _, b = through(a_file, tmp_path / "b")
    assert a == b and clips.names(a) == ["animation", "stomp"]
    for name in clips.names(project):
        before, after = evaluate(clips.switch(project, name)), evaluate(clips.switch(a, name))
        assert len(before) == len(after)
        for bone in before.bones:
            i, j = before.column(bone), after.column(bone)
            assert np.abs(before.joint_world[:, i] - after.joint_world[:, j]).max() < 1e-5
    head = clips.switch(a, "stomp").bone("head")
    assert head.translate.keys and head.scale.keys


def _spine_component(keys, t, rest=0.0):
    """A Spine one-value timeline at time ``t`` as its runtimes play it, worked out here
    from the format: key times are 32-bit floats, the setup before the first key,
    stepped segments held, a bezier segment as the ten straight pieces between its
    points at parameters 0, 0.1, ... 1."""
    at = [float(np.float32(k["time"])) for k in keys]
    if t < at[0]:
        return rest
    for (k0, k1), (s0, s1) in zip(zip(keys, keys[1:]), zip(at, at[1:])):
        t0, t1, v0, v1 = k0["time"], k1["time"], k0["value"], k1["value"]
        if s0 <= t < s1:
            curve = k0.get("curve")
            if curve == "stepped":
                return v0
            if curve is None:
                return v0 + (v1 - v0) * (t - t0) / (t1 - t0)
            u = np.linspace(0, 1, 11)
            bx = (1 - u) ** 3 * t0 + 3 * (1 - u) ** 2 * u * curve[0] + 3 * (1 - u) * u ** 2 * curve[2] + u ** 3 * t1
            by = (1 - u) ** 3 * v0 + 3 * (1 - u) ** 2 * u * curve[1] + 3 * (1 - u) * u ** 2 * curve[3] + u ** 3 * v1
            return float(np.interp(t, bx, by))
    return keys[-1]["value"]


def test_translatex_and_translatey_keyed_apart_play_exactly_as_the_runtime_plays_each(tmp_path):
    # x and y keyed at different times, with their own curves and steps: joined into one
    # translate channel, each still plays as Spine's runtimes play it, at any time.
    xs = [{"time": 0.0, "value": 0.0, "curve": [0.25, 0.0, 0.5, 10.0]},
          {"time": 0.6, "value": 10.0, "curve": "stepped"}, {"time": 0.9, "value": -4.0}]
    ys = [{"time": 0.2, "value": 5.0}, {"time": 0.5, "value": -5.0, "curve": [0.6, -5.0, 0.65, 3.0]},
          {"time": 1.0, "value": 3.0}]
    doc = copy.deepcopy(LEG)
    doc["ik"] = []
    doc["bones"].append({"name": "tail", "parent": "hip", "length": 10})
    doc["animations"] = {"wag": {"bones": {"tail": {"translatex": xs, "translatey": ys}}}}
    result, project = _imported(tmp_path, doc)
    assert not any("approximated" in w for w in result.warnings), result.warnings
    # Every frame at 300 fps, and the first y key's 32-bit time, just after 0.2 s: at
    # 0.2 s itself the runtime still shows the setup (the key's time lies after it).
    times = np.concatenate([np.linspace(0.0, 1.0, 301), [float(np.float32(0.2))]])
    bake = evaluate(project, times * project.timeline.fps)
    got = bake.joint_world[:, bake.column("tail")] - [10.0, 100.0]
    want = np.array([[_spine_component(xs, t), _spine_component(ys, t)] for t in times])
    assert np.abs(got - want).max() < 1e-6
