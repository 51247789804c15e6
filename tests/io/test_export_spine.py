"""Spine 4.2 JSON: the document follows the format's rules, and played back the way
Spine poses bones it reproduces the baked pose exactly."""
from __future__ import annotations

import json

import numpy as np
import pytest

from rigeditor.io.spine.write import export_spine_json, spine_document
from rigeditor.model import evaluate
from rigeditor.examples.rigs import EXAMPLES, walk

import spine_rules
from spine_pose import spine_pose as _spine_pose
from io_rigs import circling_arm


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_example_exports_by_the_formats_rules(name):
    project = EXAMPLES[name]()
    doc = spine_document(project, evaluate(project))
    assert spine_rules.problems(doc) == []
    assert doc["skeleton"]["spine"] == "4.2.0"


def test_the_rules_catch_what_they_check():
    doc = spine_document(walk(), evaluate(walk()))
    doc["bones"][1], doc["bones"][2] = doc["bones"][2], doc["bones"][1]  # child before parent
    doc["ik"][0]["bones"] = ["thigh_l", "shin_r"]
    doc["animations"]["walk"]["bones"]["spine"]["rotate"][3]["angle"] = 4.0
    found = spine_rules.problems(doc)
    assert "bones[1].parent: 'spine' must be a bone listed before it" in found
    assert "ik[0].bones: the second bone must be a child of the first" in found
    assert "animations.walk.bones.spine.rotate[3].angle: not a field of the format" in found


@pytest.mark.parametrize("name", ["walk", "door", "tail"])
def test_played_back_like_spine_the_export_gives_the_baked_pose(name):
    project = EXAMPLES[name]()
    bake = evaluate(project)
    doc = spine_document(project, bake)
    for i in range(len(bake)):
        pose = _spine_pose(doc, (bake.frames[i] - bake.frames[0]) / bake.fps)
        for k, bone in enumerate(bake.bones):
            origin, tip = pose[bone]
            np.testing.assert_allclose(origin, bake.joint_world[i, k], atol=1e-3)
            np.testing.assert_allclose(tip, bake.tip_world[i, k], atol=1e-3)
        for cb in bake.chains.values():  # the target bones sit on the baked targets
            target = project.chain(cb.name).target
            np.testing.assert_allclose(pose[target][0], cb.target_world[i], atol=1e-3)


def test_ik_constraints_are_kept_but_keyed_off_so_the_bake_plays_as_exported():
    project = walk()
    doc = spine_document(project, evaluate(project))
    assert [(ik["name"], ik["bones"], ik["target"], ik["bendPositive"]) for ik in doc["ik"]] == [
        ("arm_l", ["upper_arm_l", "forearm_l"], "hand_on_hip", False),
        ("leg_l", ["thigh_l", "shin_l"], "foot_l", False),
        ("leg_r", ["thigh_r", "shin_r"], "foot_r", False)]
    assert doc["ik"][0]["softness"] == pytest.approx(0.04 * (35 + 30))  # model units in Spine
    for name, keys in doc["animations"]["walk"]["ik"].items():
        assert keys[0]["time"] == 0 and keys[0]["mix"] == 0


def test_rotate_keys_are_offsets_from_the_setup_rotation_without_turn_jumps():
    project = circling_arm(turns=2.0, frames=96)
    doc = spine_document(project, evaluate(project))
    upper = next(b for b in doc["bones"] if b["name"] == "upper")
    values = np.array([k["value"] for k in doc["animations"]["circling arm"]["bones"]["upper"]["rotate"]])
    assert upper["rotation"] == 0.0 and abs(values[0]) <= 180.0
    assert np.abs(np.diff(values)).max() < 10.0 and values[-1] - values[0] == pytest.approx(720.0, abs=1e-4)


def test_the_export_writes_compact_json(tmp_path):
    out = tmp_path / "walk.json"
    export_spine_json(walk(), evaluate(walk()), out)
    assert spine_rules.problems(json.loads(out.read_text(encoding="utf-8"))) == []
