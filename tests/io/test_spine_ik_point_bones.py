"""Spine bones of length 0 (points, imported at POINT_LENGTH) in IK play as Spine plays
them: constraints measure them as 0. Expected values by hand: the first bone aims at
the target, the point lies straight on beyond the joint or folded back short of it,
forward kinematics for the bones below; a point neither stretches nor compresses."""
from __future__ import annotations

import copy

import numpy as np

from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.evaluation.bake import CAUSES
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import write_rig

HIP = np.array([10.0, 100.0])
LEG = {
    "skeleton": {"spine": "4.2.11", "fps": 30},
    "bones": [
        {"name": "root"},
        {"name": "hip", "parent": "root", "x": 10, "y": 100},
        {"name": "thigh", "parent": "hip", "length": 50, "rotation": -80},
        {"name": "ankle", "parent": "thigh", "x": 50, "rotation": 10},  # length 0: a point
        {"name": "toe", "parent": "ankle", "length": 10, "x": 5},
        {"name": "foot_target", "parent": "root", "x": 15, "y": 20},
    ],
    "ik": [{"name": "leg", "bones": ["thigh", "ankle"], "target": "foot_target", "bendPositive": False}],
    "animations": {"walk": {"bones": {"foot_target": {"translate": [
        {"x": 0, "y": 0}, {"time": 0.5, "x": 0, "y": -80}, {"time": 1, "x": 0, "y": 100}]}}}},
}
FRAMES = np.arange(31, dtype=float)
T = FRAMES / 30


def _import(tmp_path, doc):
    out = tmp_path / "out" / "leg.rigproj"
    out.parent.mkdir()
    import_spine(write_rig(tmp_path / "src", doc, atlas=False, page=False), out)
    return load_project(out)


def _axes(bake, bone):
    w = bake.bone_world.take((slice(None), bake.column(bone)))
    return (np.stack([np.asarray(w.a), np.asarray(w.c)], -1) * np.ones((len(bake), 1)),
            np.stack([np.asarray(w.tx), np.asarray(w.ty)], -1) * np.ones((len(bake), 1)))


def _target():
    return np.stack([np.full(31, 15.0), 20 + np.interp(T, [0, 0.5, 1], [0, -80, 100])], -1)


def test_a_point_tip_bone_lies_on_or_folds_back_and_the_thigh_aims_at_the_target(tmp_path, stretch=False):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["stretch"] = stretch
    bake = evaluate(_import(tmp_path, doc), FRAMES)
    v = _target() - HIP
    d = np.hypot(*v.T)
    beyond, short = d > 50 + 1e-6, d < 50 - 1e-6
    assert beyond.sum() > 5 and short.sum() > 5
    thigh_x, _ = _axes(bake, "thigh")
    np.testing.assert_allclose(thigh_x / np.hypot(*thigh_x.T)[:, None], v / d[:, None], atol=1e-9)
    scale = np.where(beyond, d / 50, 1.0) if stretch else np.ones(31)  # Spine's reach: the thigh alone
    np.testing.assert_allclose(np.hypot(*thigh_x.T), scale, atol=1e-9)
    ankle_x, ankle = _axes(bake, "ankle")
    np.testing.assert_allclose(ankle, HIP + v / d[:, None] * 50 * scale[:, None], atol=1e-9)
    # Straight on beyond the joint, folded back short of it (bend -1 or +1: the same line).
    along = np.where(beyond | ~short, 1.0, -1.0)[:, None] * thigh_x
    np.testing.assert_allclose(ankle_x, along, atol=1e-9)
    _, toe = _axes(bake, "toe")
    np.testing.assert_allclose(toe, ankle + 5 * ankle_x, atol=1e-9)  # forward kinematics below
    # The end is the joint: the residual is how far the target is from it, and explained.
    chain = bake.chains["leg"]
    np.testing.assert_allclose(chain.residual, np.hypot(*(_target() - ankle).T), atol=1e-9)
    assert not np.any(chain.cause == CAUSES.index("unexplained"))


def test_a_stretching_chain_with_a_point_tip_stretches_to_the_thigh_alone(tmp_path):
    test_a_point_tip_bone_lies_on_or_folds_back_and_the_thigh_aims_at_the_target(tmp_path, stretch=True)


def test_a_point_aimed_by_a_stretching_compressing_one_bone_ik_keeps_its_scale(tmp_path):
    doc = {
        "skeleton": {"spine": "4.2.11", "fps": 30},
        "bones": [{"name": "root"}, {"name": "arm", "parent": "root", "x": 10, "y": 100, "rotation": 30},
                  {"name": "hand", "parent": "arm", "length": 20, "x": 8},
                  {"name": "aim", "parent": "root", "x": 80, "y": 120}],
        "ik": [{"name": "point", "bones": ["arm"], "target": "aim", "stretch": True, "compress": True}],
        "animations": {"walk": {"bones": {"aim": {"translate": [{"x": 0, "y": 0}, {"time": 1, "x": -60, "y": -10}]}}}},
    }
    bake = evaluate(_import(tmp_path, doc), FRAMES)
    arm_x, origin = _axes(bake, "arm")
    target = np.stack([80 - 60 * T, 120 - 10 * T], -1)
    v = target - origin
    np.testing.assert_allclose(arm_x, v / np.hypot(*v.T)[:, None], atol=1e-9)  # aimed, unit: not scaled
    _, hand = _axes(bake, "hand")
    np.testing.assert_allclose(np.hypot(*(hand - origin).T), 8.0, atol=1e-9)
