"""Spine runs IK constraints strictly by their order, even where a chain lies below
another chain: a finger chain ordered before the arm chain that carries it solves
against the arm's keyed (forward-kinematics) pose, and the arm's solve then carries
the finger's solved local pose along. Expected values by hand: the arm's tip on its
target, the finger's tip where its target sits in the arm's unsolved frame, carried
rigidly by the arm's solve."""
from __future__ import annotations

import copy
import json
import math

import numpy as np

from rigeditor import edits
from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.write import export_spine_json
from rigeditor.model.evaluation.bake import CAUSES
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import write_rig

TARGET = (75.0, 60.0)  # the finger's target: within its reach (80) of the arm's keyed tip and its solved one
HAND = {
    "skeleton": {"spine": "4.2.11", "fps": 30},
    "bones": [
        {"name": "root"},
        {"name": "upper", "parent": "root", "length": 50},
        {"name": "lower", "parent": "upper", "length": 50, "x": 50},
        {"name": "finger1", "parent": "lower", "length": 40, "x": 50, "rotation": 30},
        {"name": "finger2", "parent": "finger1", "length": 40, "x": 40},
        {"name": "arm_target", "parent": "root", "x": 60, "y": 40},
        {"name": "finger_target", "parent": "root", "x": TARGET[0], "y": TARGET[1]},
    ],
    "ik": [{"name": "finger", "order": 0, "bones": ["finger1", "finger2"], "target": "finger_target"},
           {"name": "arm", "order": 1, "bones": ["upper", "lower"], "target": "arm_target"}],
    "animations": {"reach": {"bones": {"arm_target": {"translate": [
        {"x": 0, "y": 0}, {"time": 1, "x": -20, "y": 30}]}}}},
}


def _project(tmp_path, doc):
    out = tmp_path / "out" / "hand.rigproj"
    out.parent.mkdir()
    return import_spine(write_rig(tmp_path / "src", doc, atlas=False, page=False), out).project


def _carried(bake, point):
    """``point`` (world, in the arm's keyed pose: the lower arm at (50, 0), unturned)
    carried by the lower arm's solved frame, per frame."""
    w = bake.bone("lower").world
    a, c = np.broadcast_to(w.a, bake.frames.shape), np.broadcast_to(w.c, bake.frames.shape)
    dx, dy = point[0] - 50.0, point[1]
    return np.c_[w.tx + a * dx - c * dy, w.ty + c * dx + a * dy]


def test_a_chain_ordered_before_the_chain_that_carries_it_solves_against_its_keyed_pose(tmp_path):
    project = _project(tmp_path, HAND)
    bake = evaluate(project)
    frames = bake.frames
    t = frames / 30.0
    arm_target = np.c_[60.0 - 20.0 * t, 40.0 + 30.0 * t]
    assert np.abs(bake.bone("lower").tip - arm_target).max() < 1e-6  # the arm reaches its target
    turn = np.degrees(np.arctan2(np.broadcast_to(bake.bone("lower").world.c, frames.shape),
                                 np.broadcast_to(bake.bone("lower").world.a, frames.shape)))
    assert np.abs(turn).min() > 20.0  # (the arm's solve does turn the hand away)
    expected = _carried(bake, TARGET)
    assert np.abs(bake.bone("finger2").tip - expected).max() < 1e-6
    # so the finger misses its own target by the arm's carry, as Spine plays it
    assert np.hypot(*(bake.bone("finger2").tip - TARGET).T).min() > 20.0


def test_the_same_chains_in_parent_order_reach_both_targets(tmp_path):
    doc = copy.deepcopy(HAND)
    doc["ik"][0]["order"], doc["ik"][1]["order"] = 1, 0
    bake = evaluate(_project(tmp_path, doc))
    assert np.abs(bake.bone("finger2").tip - TARGET).max() < 1e-6


def test_a_drag_of_the_arm_target_evaluates_as_a_full_evaluation(tmp_path):
    project = _project(tmp_path, HAND)
    first = evaluate(project)
    moved = edits.set_key(project, ("target", "arm_target", "position"), 12, (35.0, 70.0))
    partial = evaluate(moved, previous=first, changed={"target:arm_target"})
    full = evaluate(moved)
    for name in ("upper", "lower", "finger1", "finger2"):
        assert np.abs(partial.bone(name).tip - full.bone(name).tip).max() < 1e-9, name
    assert math.dist(tuple(full.bone("lower").tip[12]), (35.0, 70.0)) < 1e-6


def test_the_carried_chain_says_where_its_end_is_now(tmp_path):
    bake = evaluate(_project(tmp_path, HAND))
    finger = bake.chains["finger"]
    missed = np.hypot(*(bake.bone("finger2").tip - TARGET).T)
    assert np.abs(finger.residual - missed).max() < 1e-6
    assert {CAUSES[k] for k in finger.cause} == {"constraint"}


def test_the_export_keeps_the_order_so_a_game_plays_the_same_pose(tmp_path):
    project = _project(tmp_path, HAND)
    bake = evaluate(project)
    skeleton = tmp_path / "again" / "hand.json"
    skeleton.parent.mkdir()
    export_spine_json(project, bake, skeleton)
    ik = {c["name"]: c["order"] for c in json.loads(skeleton.read_text())["ik"]}
    assert ik["finger"] < ik["arm"]
    again = evaluate(import_spine(skeleton, tmp_path / "again" / "hand.rigproj").project)
    assert np.abs(again.bone("finger2").tip - bake.bone("finger2").tip).max() < 1e-3
