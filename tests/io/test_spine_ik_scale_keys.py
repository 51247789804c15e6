"""Scale keys on the bones of a two-bone chain play as Spine plays them: the segments
scale with the frames they lie in (the upper by its bone's uniform scale, the lower by
both bones' x scales), so the end still lands on the target. Expected values by hand:
the law of cosines on the scaled lengths, forward kinematics."""
from __future__ import annotations

import copy
import math
from dataclasses import replace

import numpy as np

from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.data.timeline import constant
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
    "animations": {"walk": {"bones": {
        "foot_target": {"translate": [{"x": 0, "y": 0}, {"time": 0.5, "x": 0, "y": -80}, {"time": 1, "x": 60, "y": 40}]},
        "thigh": {"scale": [{"x": 1, "y": 1}, {"time": 1, "x": 1.5, "y": 1.5}]},
        "shin": {"scale": [{"x": 1, "y": 1}, {"time": 1, "x": 0.7, "y": 1.2}]},
    }}},
}


def _import(tmp_path, doc):
    out = tmp_path / "out" / "leg.rigproj"
    out.parent.mkdir()
    result = import_spine(write_rig(tmp_path / "src", doc, atlas=False, page=False), out)
    return result, load_project(out)


def test_scaled_chain_bones_reach_the_target_with_their_scaled_lengths(tmp_path):
    result, project = _import(tmp_path, LEG)
    assert not any("scale" in w for w in result.warnings)
    frames = np.arange(31, dtype=float)
    t = frames / 30
    s, c = 1 + 0.5 * t, 1 - 0.3 * t  # the thigh's uniform scale, the shin's x scale
    target = np.stack([15 + np.interp(t, [0, 0.5, 1], [0, 0, 60]), 20 + np.interp(t, [0, 0.5, 1], [0, -80, 40])], -1)
    a, b = 50 * s, 45 * c * s
    v = target - HIP
    d = np.hypot(*v.T)
    inside = (d < a + b - 1e-6) & (d > np.abs(a - b) + 1e-6)
    assert inside.sum() > 5
    bake = evaluate(project, frames)
    knee = bake.joint_world[:, bake.column("shin")]
    np.testing.assert_allclose(np.hypot(*(knee - HIP).T), a, atol=1e-9)  # the thigh's scaled length
    # Law of cosines at the hip, the knee to the right of hip -> target (bend -1).
    inner = np.arccos(np.clip((a * a + d * d - b * b) / (2 * a * d), -1, 1))
    expected = HIP + a[:, None] * np.stack([np.cos(np.arctan2(v[:, 1], v[:, 0]) + inner),
                                            np.sin(np.arctan2(v[:, 1], v[:, 0]) + inner)], -1)
    np.testing.assert_allclose(knee[inside], expected[inside], atol=1e-7)
    w = bake.bone_world
    k = bake.column("shin")
    tip = knee + 45 * np.stack([np.asarray(w.a)[:, k], np.asarray(w.c)[:, k]], -1)
    np.testing.assert_allclose(tip[inside], target[inside], atol=1e-7)


def _scaled(project, bone, scale):
    return replace(project, bones=tuple(replace(x, scale=constant(*scale)) if x.name == bone else x
                                        for x in project.bones))


def test_a_negative_or_zero_scale_on_a_spine_chain_bone_plays_and_a_zero_y_first_is_refused(tmp_path):
    # Spine's two-bone IK solves mirrored and collapsed bones
    # (tests/model/test_chains_on_spine_frames.py); a first bone scaled 0 along y it
    # divides by (its runtimes' pose turns to NaN), so that stays refused.
    result, project = _import(tmp_path, LEG)
    assert problems(project) == []
    for bone, scale in (("shin", (-1.0, 1.0)), ("thigh", (-1.0, -1.0)), ("thigh", (1.2, -0.8)),
                        ("thigh", (0.0, 1.0)), ("shin", (0.0, 1.0)), ("shin", (1.0, 0.0))):
        assert problems(_scaled(project, bone, scale)) == [], (bone, scale)
    assert any("cannot be scaled to 0 along y" in p for p in problems(_scaled(project, "thigh", (1.0, 0.0))))


def test_a_chain_with_limits_refuses_a_mirrored_bone(tmp_path):
    _, project = _import(tmp_path, LEG)
    limited = replace(project, chains=(replace(project.chains[0], limits=((-1.0, 1.0), (-1.0, 1.0)),
                                               soft_reach="exponential", softness=constant(0.0)),))
    assert problems(_scaled(limited, "thigh", (1.2, 1.2))) == []
    assert any("cannot be scaled other than by positive factors" in p
               for p in problems(_scaled(limited, "thigh", (-1.2, 1.2))))


def test_scale_keys_one_of_two_chains_on_a_bone_cannot_take_are_listed_not_a_crash(tmp_path):
    # Spine's IK constraints may share a bone; keys the one-bone aim could take but the
    # two-bone leg cannot (its first bone scaled to 0 along y) are dropped and said,
    # whichever constraint comes first.
    for order in ((0, 1), (1, 0)):
        doc = copy.deepcopy(LEG)
        doc["ik"] = [{"name": "sway", "bones": ["thigh"], "target": "foot_target", "order": order[0]},
                     {**doc["ik"][0], "order": order[1]}]
        doc["animations"]["walk"]["bones"]["thigh"]["scale"] = [{"x": 1, "y": 1}, {"time": 1, "x": 1, "y": 0}]
        sub = tmp_path / f"o{order[0]}"
        sub.mkdir()
        result, project = _import(sub, doc)
        assert sorted(c.name for c in project.chains) == ["leg", "sway"]
        assert any(w.startswith("scale keys on bones an IK chain drives") and "thigh" in w for w in result.warnings)
        assert problems(project) == []
