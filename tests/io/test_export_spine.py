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
from spine_pose import bone_worlds, spine_pose
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


def test_every_two_bone_chain_is_a_live_ik_constraint_aiming_at_a_bone_in_its_space():
    project = walk()
    doc = spine_document(project, evaluate(project))
    assert [(ik["name"], ik["bones"], ik["target"], ik["bendPositive"], ik["mix"]) for ik in doc["ik"]] == [
        ("arm_l", ["upper_arm_l", "forearm_l"], "hand_on_hip", False, 1.0),
        ("leg_l", ["thigh_l", "shin_l"], "foot_l", False, 1.0),
        ("leg_r", ["thigh_r", "shin_r"], "foot_r", False, 1.0)]
    assert doc["ik"][0]["softness"] == pytest.approx(0.04 * (35 + 30))  # model units in Spine
    parent = {b["name"]: b.get("parent") for b in doc["bones"]}
    # The feet are declared in world: a bone under the walking root that stays put.
    assert parent["foot_l"] == parent["foot_r"] == "world" and parent["world"] == "root"
    assert parent["hand_on_hip"] == "root"  # declared in the character space
    anim = doc["animations"]["walk"]
    assert "ik" not in anim  # nothing keyed, nothing baked: the constraints' own values play
    # The feet carry their own keys (curves and all), not a key per frame.
    keys = anim["bones"]["foot_l"]["translate"]
    assert len(keys) == len(project.target("foot_l").position.keys) < len(evaluate(project))
    world = bone_worlds(doc, 0.0)
    assert np.allclose(world["world"][:2, 2], 0.0, atol=1e-6)


def test_bake_ik_keys_every_chain_off_so_the_bake_plays_as_exported():
    project = walk()
    bake = evaluate(project)
    doc = spine_document(project, bake, bake_ik=True)
    for name, keys in doc["animations"]["walk"]["ik"].items():
        assert len(keys) == len(bake) and all(k["mix"] == 0 for k in keys)
    upper = doc["animations"]["walk"]["bones"]["thigh_l"]["rotate"]
    assert len(upper) == len(bake)  # a rotation per baked frame
    for i in range(0, len(bake), 6):
        pose = _spine_pose(doc, i / bake.fps)
        for k, bone in enumerate(bake.bones):
            np.testing.assert_allclose(pose[bone][1], bake.tip_world[i, k], atol=1e-3)


def _reach(doc, chain):
    by = {b["name"]: b for b in doc["bones"]}
    b1, b2 = chain["bones"]
    return np.hypot(by[b2].get("x", 0.0), by[b2].get("y", 0.0)) + by[b2]["length"]


@pytest.mark.parametrize("name", ["arm", "door", "walk"])
@pytest.mark.parametrize("bake_ik", [False, True])
def test_a_game_moving_a_target_after_the_animation_moves_the_chain_end_with_it(name, bake_ik):
    project = EXAMPLES[name]()
    bake = evaluate(project)
    doc = spine_document(project, bake, bake_ik=bake_ik)
    followed = total = 0
    for chain in doc["ik"]:
        if any(project.chain(chain["name"]).limits):
            continue  # a bound limit is baked, by design
        reach, (b1, b2) = _reach(doc, chain), chain["bones"]
        step = 0.08 * reach
        # Softness draws a target within it of full reach in: the end eases, it does not follow.
        soft = max([chain["softness"]] + [k.get("softness", 0.0) for k in doc["animations"][project.name]
                                          .get("ik", {}).get(chain["name"], [])])
        for i in np.linspace(0, len(bake) - 1, 12).round().astype(int):
            t = i / bake.fps
            base = spine_pose(doc, t)
            for move in step * np.array([(1, 0), (0, 1), (-1, 0), (0, -1)]):
                target = base[chain["target"]][0]
                before, after = (np.hypot(*(p - base[b1][0])) for p in (target, target + move))
                if not (before < 0.999 * reach - soft and after < 0.999 * reach - soft):
                    continue  # beyond reach no chain follows
                moved = spine_pose(doc, t, moved={chain["target"]: move})
                total += 1
                followed += np.hypot(*(moved[b2][1] - base[b2][1] - move)) <= 0.05 * step
    assert total > 0
    assert followed == (0 if bake_ik else total)


def test_keyed_mix_bend_and_softness_play_as_authored():
    from rigeditor.examples.rigs import arm
    from rigeditor.model.data.timeline import keyed

    project = arm().with_chain("arm", mix=keyed([(0, 1.0), (20, 0.3), (40, 1.0)]),
                               bend=keyed([(0, 1.0), (30, -1.0)], "constant"),
                               softness=keyed([(0, 0.0), (48, 0.05)]), soft_reach="quadratic")
    bake = evaluate(project)
    doc = spine_document(project, bake)
    keys = doc["animations"][project.name]["ik"]["arm"]
    length = sum(project.bone(b).length for b in project.chain("arm").bones)
    # One Spine key where any of the three is keyed (linear between, as authored).
    frames = np.array([0, 20, 30, 40, 48])
    assert [round(k["time"] * bake.fps, 4) for k in keys] == list(frames)
    assert [k["mix"] for k in keys] == pytest.approx(project.chain("arm").mix.sample(frames)[:, 0])
    assert [k["softness"] for k in keys] == pytest.approx(0.05 * frames / 48 * length, abs=1e-6)
    assert [k["bendPositive"] for k in keys] == list(frames < 30)
    for i in range(len(bake)):
        pose = _spine_pose(doc, (bake.frames[i] - bake.frames[0]) / bake.fps)
        for k, bone in enumerate(bake.bones):
            np.testing.assert_allclose(pose[bone][1], bake.tip_world[i, k], atol=1e-3)


def test_rotate_keys_are_offsets_from_the_setup_rotation_without_turn_jumps():
    project = circling_arm(turns=2.0, frames=96)
    doc = spine_document(project, evaluate(project), bake_ik=True)
    upper = next(b for b in doc["bones"] if b["name"] == "upper")
    values = np.array([k["value"] for k in doc["animations"]["circling arm"]["bones"]["upper"]["rotate"]])
    assert upper["rotation"] == 0.0 and abs(values[0]) <= 180.0
    assert np.abs(np.diff(values)).max() < 10.0 and values[-1] - values[0] == pytest.approx(720.0, abs=1e-4)


def test_the_export_writes_compact_json(tmp_path):
    out = tmp_path / "walk.json"
    export_spine_json(walk(), evaluate(walk()), out)
    assert spine_rules.problems(json.loads(out.read_text(encoding="utf-8"))) == []
