"""Spine's one-bone IK: the bone turns about its origin until its x axis points at
the target (its parent's frame, non-uniform scale and all), blended with its keyed
rotation by mix. Expected values by hand: forward kinematics of the parent, the
target carried into its frame, atan2."""
from __future__ import annotations

import copy
import math

import numpy as np
import pytest

from rigeditor import edits
from rigeditor.io import dumps_project, loads_project
from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.evaluation.bake import CAUSES
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.validation.project import problems as validate

from tests.io.spine_rigs import write_rig

ARM = {
    "skeleton": {"spine": "4.2.11", "fps": 30},
    "bones": [
        {"name": "root"},
        {"name": "hip", "parent": "root", "x": 10, "y": 100, "rotation": 30, "scaleX": 1.5, "scaleY": 0.7},
        {"name": "arm", "parent": "hip", "length": 50, "x": 5, "y": 8, "rotation": -80},
        {"name": "hand", "parent": "arm", "length": 20, "x": 50, "rotation": 10},
        {"name": "aim_target", "parent": "root", "x": 15, "y": 20},
    ],
    "ik": [{"name": "aim", "bones": ["arm"], "target": "aim_target", "mix": 0.8}],
    "animations": {"walk": {
        "bones": {"hip": {"rotate": [{"value": 0}, {"time": 1, "value": 120}]},
                  "aim_target": {"translate": [{"x": 0, "y": 0}, {"time": 0.5, "x": 0, "y": -80},
                                               {"time": 1, "x": 60, "y": 40}]}},
        "ik": {"aim": [{"mix": 0.2}, {"time": 0.6, "mix": 1}]},
    }},
}


def _import(tmp_path, doc):
    out = tmp_path / "out" / "arm.rigproj"
    out.parent.mkdir()
    result = import_spine(write_rig(tmp_path / "src", doc, atlas=False, page=False), out)
    return result, load_project(out)


def _rot(a):
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def _expected(frames, mix_keys=True):
    """Per frame: the arm's world rotation (radians) and its hand's origin, by hand."""
    rotations, hands, locals_ = [], [], []
    for f in frames:
        t = f / 30.0
        hip_rot = math.radians(30 + 120 * t)
        hip = _rot(hip_rot) @ np.diag([1.5, 0.7])  # the hip's linear part, scale first
        ty = np.interp(t, [0, 0.5, 1], [0, -80, 40])
        tx = np.interp(t, [0, 0.5, 1], [0, 0, 60])
        target = np.array([15 + tx, 20 + ty])
        origin = np.array([10.0, 100.0]) + hip @ np.array([5.0, 8.0])
        local = np.linalg.solve(hip, target - origin)  # the target in the hip's frame
        aim = math.atan2(local[1], local[0])
        mix = np.interp(t, [0, 0.6], [0.2, 1.0]) if mix_keys else 0.8
        fk = math.radians(-80)
        turn = (aim - fk + math.pi) % (2 * math.pi) - math.pi
        local_rot = fk + mix * turn
        axis = hip @ np.array([math.cos(local_rot), math.sin(local_rot)])
        rotations.append(math.atan2(axis[1], axis[0]))
        hands.append(origin + 50 * axis)
        locals_.append(local)
    _expected.local_targets = np.array(locals_)  # the targets in the arm's shoulder space
    return np.array(rotations), np.array(hands)


def _angle_error(a, b):
    return np.abs((np.asarray(a) - b + math.pi) % (2 * math.pi) - math.pi)


def test_a_one_bone_constraint_turns_its_bone_to_the_target_as_spine_does(tmp_path):
    result, project = _import(tmp_path, ARM)
    assert not any("one-bone" in w for w in result.warnings)
    chain = project.chain("aim")
    assert chain.bones == ("arm",) and chain.solver == "aim"
    frames = np.arange(31, dtype=float)
    bake = evaluate(project, frames)
    rotation, hand = _expected(frames)
    assert _angle_error(bake.bone("arm").world_rotation, rotation).max() < 1e-9
    np.testing.assert_allclose(bake.bone("hand").joint, hand, atol=1e-9)
    names = {CAUSES[c] for c in bake.chains["aim"].cause}
    assert "unexplained" not in names and "mix" in names  # mix < 1 until frame 18


def test_at_full_mix_the_bone_points_at_the_target_and_the_cause_is_its_length(tmp_path):
    doc = copy.deepcopy(ARM)
    doc["animations"]["walk"]["ik"] = {"aim": [{"mix": 1}]}
    _, project = _import(tmp_path, doc)
    frames = np.arange(31, dtype=float)
    bake = evaluate(project, frames)
    arm, cb = bake.bone("arm"), bake.chains["aim"]
    # The arm's world axis points straight at the target (the hip's non-uniform
    # scale maps directions, but a point on the axis stays on it).
    to_target = cb.target_world - arm.joint
    # Collinear: the axis from arm.joint to its tip is parallel to the target direction.
    axis = arm.tip - arm.joint
    cross = axis[:, 0] * to_target[:, 1] - axis[:, 1] * to_target[:, 0]
    dot = np.sum(axis * to_target, axis=1)
    assert np.all(dot > 0) and np.abs(cross / (np.hypot(*axis.T) * np.hypot(*to_target.T))).max() < 1e-9
    # The residual is measured in the shoulder space: |target there| against the length.
    _expected(frames, mix_keys=False)
    expected_residual = np.abs(np.hypot(*_expected.local_targets.T) - 50.0)
    np.testing.assert_allclose(cb.residual, expected_residual, atol=1e-9)
    assert {CAUSES[c] for c in cb.cause} <= {"out_of_reach", "none"}


def test_an_aim_chain_survives_save_and_load_and_old_files_know_no_aim(tmp_path):
    _, project = _import(tmp_path, ARM)
    again = loads_project(dumps_project(project))
    assert again.chain("aim").solver == "aim"
    frames = np.arange(31, dtype=float)
    np.testing.assert_allclose(evaluate(again, frames).bone("arm").world_rotation,
                               evaluate(project, frames).bone("arm").world_rotation, atol=1e-12)


def test_validation_holds_aim_to_one_bone_and_the_others_to_two(tmp_path):
    from dataclasses import replace
    _, project = _import(tmp_path, ARM)
    chain = project.chain("aim")
    two = replace(project, chains=(replace(chain, bones=("arm", "hand")),))
    assert any("the aim solver drives exactly 1 bone" in p for p in validate(two))
    one_fabrik = replace(project, chains=(replace(chain, solver="fabrik"),))
    assert any("a chain needs at least 2 bones" in p for p in validate(one_fabrik))
    assert validate(project) == []


def test_the_edit_api_makes_a_one_bone_chain_an_aim_chain(tmp_path):
    _, project = _import(tmp_path, ARM)
    project = edits.delete_chain(project, "aim")
    project, name = edits.add_chain(project, ("hand",), "character", 0)
    assert project.chain(name).solver == "aim" and edits.solvers_for(1) == ("aim",)
    assert "aim" not in edits.solvers_for(2) and "aim" not in edits.solvers_for(3)
    with pytest.raises(edits.EditError):
        edits.set_chain_solver(project, name, "analytic")


@pytest.mark.parametrize("scale_x", [-1.3, 0.6])
def test_a_scaled_bone_points_its_tip_at_the_target_even_mirrored(tmp_path, scale_x):
    """Spine turns a bone with a negative x scale half a turn further: its tip, which
    lies behind its axis, is what points at the target."""
    doc = copy.deepcopy(ARM)
    doc["bones"][2].update(scaleX=scale_x, scaleY=0.6)
    doc["animations"]["walk"]["ik"] = {"aim": [{"mix": 1}]}
    result, project = _import(tmp_path, doc)
    assert project.bone("arm").scale.default == (scale_x, 0.6)
    assert not any("scale" in w for w in result.warnings)
    frames = np.arange(31, dtype=float)
    bake = evaluate(project, frames)
    cb = bake.chains["aim"]
    to_target = cb.target_world - bake.bone("arm").joint
    tip = bake.bone("hand").joint - bake.bone("arm").joint  # the hand sits on the arm's tip
    cos = np.sum(tip * to_target, axis=1) / (np.hypot(*tip.T) * np.hypot(*to_target.T))
    assert np.all(cos > 1 - 1e-12)


# A leg as spineboy's: the two-bone leg IK places the shin, then a one-bone IK turns
# the foot (the shin's child) toward its own target. A transform constraint of a
# lower order than both splits the constraints into runs by order, as Spine sorts them.
LEG_AND_FOOT = {
    "skeleton": {"spine": "4.0.31", "fps": 30},
    "bones": [
        {"name": "root"},
        {"name": "hip", "parent": "root", "y": 200},
        {"name": "thigh", "parent": "hip", "length": 90, "rotation": -90},
        {"name": "shin", "parent": "thigh", "length": 80, "x": 90, "rotation": 10},
        {"name": "foot", "parent": "shin", "length": 30, "x": 80, "rotation": 80},
        {"name": "leg_target", "parent": "root", "x": 20, "y": 40},
        {"name": "foot_target", "parent": "leg_target", "x": 30, "y": -5},
        {"name": "prop", "parent": "root", "x": -50, "length": 10},
    ],
    "ik": [{"name": "leg", "order": 2, "bones": ["thigh", "shin"], "target": "leg_target", "bendPositive": False},
           {"name": "foot_aim", "order": 3, "bones": ["foot"], "target": "foot_target"}],
    "transform": [{"name": "prop_follows", "order": 0, "bones": ["prop"], "target": "hip", "rotation": 0,
                   "mixRotate": 1, "mixX": 0, "mixY": 0, "mixScaleX": 0, "mixScaleY": 0, "mixShearY": 0}],
    "animations": {"walk": {"bones": {
        "hip": {"translate": [{"x": 0, "y": 0}, {"time": 1, "x": 40, "y": -30}]},
        "leg_target": {"translate": [{"x": 0, "y": 0}, {"time": 0.5, "x": 60, "y": 30}, {"time": 1, "x": -40, "y": 0}]},
    }}},
}


def test_a_foot_ik_after_the_leg_ik_aims_from_where_the_leg_put_the_foot(tmp_path):
    # Spine runs constraints by their order: the foot's one-bone IK (order 3) turns the
    # foot from where the leg IK (order 2) has just put it, so at mix 1 the foot's
    # world axis points at its target at every frame, however the leg moves.
    result, project = _import(tmp_path, LEG_AND_FOOT)
    assert not result.warnings
    assert project.chain("foot_aim").order == 3 and project.chain("leg").order == 2
    frames = np.arange(31, dtype=float)
    bake = evaluate(project, frames)
    foot, target = bake.bone("foot"), bake.chains["foot_aim"].target_world
    axis, to_target = foot.tip - foot.joint, target - foot.joint
    cross = axis[:, 0] * to_target[:, 1] - axis[:, 1] * to_target[:, 0]
    dot = np.sum(axis * to_target, axis=1)
    assert np.all(dot > 0) and np.abs(cross / (np.hypot(*axis.T) * np.hypot(*to_target.T))).max() < 1e-9
    # and the leg reached for its own target (within reach all along)
    np.testing.assert_allclose(bake.bone("shin").tip, bake.chains["leg"].target_world, atol=1e-6)


def test_a_target_a_transform_constraint_moves_is_aimed_at_where_the_constraint_put_it(tmp_path):
    # As spineboy's hoverboard: a transform constraint carries the foot's target bone
    # onto a board bone that moves; the foot IK aims at the target bone as placed.
    doc = copy.deepcopy(LEG_AND_FOOT)
    doc["bones"][6] = {"name": "foot_target", "parent": "root", "x": 50, "y": 35}
    doc["bones"].append({"name": "board", "parent": "root", "x": 80, "y": 20})
    doc["transform"].append({"name": "on_board", "order": 1, "bones": ["foot_target"], "target": "board",
                             "x": 10, "y": 5, "mixRotate": 0, "mixScaleX": 0, "mixShearY": 0})
    doc["animations"]["walk"]["bones"]["board"] = {"translate": [{"x": 0, "y": 0}, {"time": 1, "x": -30, "y": 25}]}
    doc["animations"]["walk"]["bones"]["foot_target"] = {"translate": [{"x": 0, "y": 0}, {"time": 1, "x": 90, "y": 9}]}
    _, project = _import(tmp_path, doc)
    frames = np.arange(31, dtype=float)
    bake = evaluate(project, frames)
    # By hand: mix 1 in x and y puts the target bone at the board's origin plus the offset
    # (its own keys play no part), and the foot's axis points there at every frame.
    t = frames / 30.0
    placed = np.stack([80 - 30 * t + 10, 20 + 25 * t + 5], axis=1)
    np.testing.assert_allclose(bake.bone("foot_target").joint, placed, atol=1e-9)
    np.testing.assert_allclose(bake.chains["foot_aim"].target_world, placed, atol=1e-6)
    foot = bake.bone("foot")
    axis, to_target = foot.tip - foot.joint, placed - foot.joint
    cross = axis[:, 0] * to_target[:, 1] - axis[:, 1] * to_target[:, 0]
    assert np.abs(cross / (np.hypot(*axis.T) * np.hypot(*to_target.T))).max() < 1e-6


def test_a_one_bone_constraint_on_a_sheared_bone_imports_and_aims_its_x_axis(tmp_path):
    # Spine points the bone's x axis (rotation + shear x) at the target and keeps its
    # shear; the import used to drop the whole constraint on a bone set up sheared.
    doc = copy.deepcopy(ARM)
    doc["bones"][2].update(shearX=25, shearY=-10)
    doc["ik"][0]["mix"] = 1.0
    del doc["animations"]["walk"]["ik"]
    result, project = _import(tmp_path, doc)
    assert not any("shear" in line or "aim" in line for line in result.warnings), result.warnings
    assert [c.name for c in project.chains] == ["aim"]
    bake = evaluate(project, [0.0, 15.0, 30.0])
    w = bake.bone_world.take((slice(None), bake.column("arm")))
    target = bake.chains["aim"].target_world
    for row in range(3):
        x_axis = math.atan2(w.c[row], w.a[row])
        y_axis = math.atan2(w.d[row], w.b[row])
        assert x_axis == pytest.approx(math.atan2(target[row, 1] - w.ty[row], target[row, 0] - w.tx[row]), abs=1e-9)
        local_between = math.remainder(y_axis - x_axis, 2 * math.pi)
        # Under the unevenly scaled hip the axes' angle is not the local one: check the
        # local frame (the hip's inverse times the arm's) for the authored shear.
        hip = bake.bone_world.take((slice(None), bake.column("hip")))
        h = np.array([[hip.a[row], hip.b[row]], [hip.c[row], hip.d[row]]])
        local = np.linalg.solve(h, np.array([[w.a[row], w.b[row]], [w.c[row], w.d[row]]]))
        between = math.remainder(math.atan2(local[1, 1], local[0, 1]) - math.atan2(local[1, 0], local[0, 0]),
                                 2 * math.pi)
        assert between == pytest.approx(math.radians(90 - 10 - 25), abs=1e-9)
        assert local_between != pytest.approx(between, abs=1e-3)  # (the hip's scale skews it further)


@pytest.mark.parametrize("mode", ["onlyTranslation", "noRotationOrReflection", "noScale", "noScaleOrReflection"])
def test_a_one_bone_constraint_on_a_partly_parented_bone_imports_and_points_at_its_target(tmp_path, mode):
    # Spine measures the target in the frame the bone's inherit mode places it in; the
    # import used to drop the constraint (the bone kept its keyed rotation).
    doc = copy.deepcopy(ARM)
    doc["bones"][2].update(inherit=mode, y=0)
    doc["ik"][0]["mix"] = 1.0
    del doc["animations"]["walk"]["ik"]
    result, project = _import(tmp_path, doc)
    assert not result.warnings, result.warnings
    bake = evaluate(project, [0.0, 15.0, 30.0])
    w = bake.bone_world.take((slice(None), bake.column("arm")))
    target = bake.chains["aim"].target_world
    for row in range(3):
        to = target[row] - [w.tx[row], w.ty[row]]
        assert math.atan2(w.c[row], w.a[row]) == pytest.approx(math.atan2(to[1], to[0]), abs=1e-9)
