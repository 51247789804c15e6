"""An IK target under a sheared or unevenly scaled Spine bone lands where Spine's
target bone is: its space takes the parent bone's whole affine frame (shear included),
setup and keyed; the root's shear is the character space's. Expected values by hand:
each bone's local 2x2 from the format's description (x axis at rotation + shear x,
y axis at rotation + 90 + shear y, scaled), multiplied down the hierarchy."""
from __future__ import annotations

import copy
import math

import numpy as np
from hypothesis import given, settings, strategies as st

from rigeditor.io import dumps_project, loads_project
from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.data.project import Project, Space
from rigeditor.model.data.timeline import constant
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.evaluation.inherit import decompose, local_matrix

from tests.io.spine_rigs import write_rig

# The board's setup pose and keys (degrees); its child foot_target is the leg's target.
BOARD = {"x": 20, "y": 10, "rotation": 15, "scaleX": 1.2, "scaleY": 0.7, "shearX": 10, "shearY": -25}
LEG = {
    "skeleton": {"spine": "4.2.11", "fps": 30},
    "bones": [
        {"name": "root"},
        {"name": "hip", "parent": "root", "x": 10, "y": 100},
        {"name": "thigh", "parent": "hip", "length": 50, "rotation": -80},
        {"name": "shin", "parent": "thigh", "length": 45, "x": 50, "rotation": 10},
        {"name": "board", "parent": "root", **BOARD},
        {"name": "foot_target", "parent": "board", "x": 15, "y": 20},
    ],
    "ik": [{"name": "leg", "bones": ["thigh", "shin"], "target": "foot_target", "bendPositive": False}],
    "animations": {"walk": {"bones": {
        "foot_target": {"translate": [{"x": 0, "y": 0}, {"time": 0.5, "x": 0, "y": 30}, {"time": 1, "x": 40, "y": 10}]},
        "board": {"shear": [{"x": 0, "y": 0}, {"time": 0.5, "x": 20, "y": 30}, {"time": 1, "x": -15, "y": 40}],
                  "rotate": [{"value": 0}, {"time": 1, "value": 30}]},
    }}},
}
T = np.arange(31) / 30.0


def _matrix(rotation, sx, sy, shx, shy):
    """Spine's local 2x2 of a bone, angles in degrees."""
    rx, ry = math.radians(rotation + shx), math.radians(rotation + 90 + shy)
    return np.array([[sx * math.cos(rx), sy * math.cos(ry)], [sx * math.sin(rx), sy * math.sin(ry)]])


def _import(tmp_path, doc):
    out = tmp_path / "out" / "leg.rigproj"
    out.parent.mkdir()
    result = import_spine(write_rig(tmp_path / "src", doc, atlas=False, page=False), out)
    return result, load_project(out)


def _board_target(t):
    """Where Spine's foot_target bone is at time t (s): board's frame applied to its offset."""
    lerp = lambda ts, vs: float(np.interp(t, ts, vs))
    rot = BOARD["rotation"] + 30 * t
    shx = BOARD["shearX"] + lerp([0, 0.5, 1], [0, 20, -15])
    shy = BOARD["shearY"] + lerp([0, 0.5, 1], [0, 30, 40])
    m = _matrix(rot, BOARD["scaleX"], BOARD["scaleY"], shx, shy)
    offset = np.array([15 + lerp([0, 0.5, 1], [0, 0, 40]), 20 + lerp([0, 0.5, 1], [0, 30, 10])])
    return np.array([BOARD["x"], BOARD["y"]]) + m @ offset


def test_a_target_under_a_sheared_keyed_bone_is_where_spines_target_bone_is(tmp_path):
    result, project = _import(tmp_path, LEG)
    assert not any("shear" in w for w in result.warnings)
    bake = evaluate(project, np.arange(31, dtype=float))
    expected = np.array([_board_target(t) for t in T])
    np.testing.assert_allclose(bake.chains["leg"].target_world, expected, atol=1e-7)
    # ...and the leg reaches it where it can (forward kinematics of the solved bones).
    hip = np.array([10.0, 100.0])
    reach = np.hypot(*(expected - hip).T)
    inside = (reach < 95 - 1e-3) & (reach > 5 + 1e-3)
    assert inside.sum() > 10
    k = bake.column("shin")
    w = bake.bone_world
    tip = bake.joint_world[:, k] + 45 * np.stack([np.asarray(w.a)[:, k], np.asarray(w.c)[:, k]], -1)
    np.testing.assert_allclose(tip[inside], expected[inside], atol=1e-7)


def test_a_chain_under_a_sheared_bone_takes_its_frame_and_its_target_too(tmp_path):
    doc = copy.deepcopy(LEG)
    # The leg and its target both hang below the sheared board (the target in hip's space).
    doc["bones"] = [doc["bones"][0], {"name": "board", "parent": "root", **BOARD},
                    {"name": "hip", "parent": "board", "x": 10, "y": 60}, *doc["bones"][2:4],
                    {"name": "foot_target", "parent": "hip", "x": 15, "y": -60}]
    doc["animations"]["walk"]["bones"]["board"].pop("rotate")
    _, project = _import(tmp_path, doc)
    bake = evaluate(project, np.arange(31, dtype=float))
    for f, t in enumerate(T):
        lerp = lambda vs: float(np.interp(t, [0, 0.5, 1], vs))
        m = _matrix(BOARD["rotation"], BOARD["scaleX"], BOARD["scaleY"], BOARD["shearX"] + lerp([0, 20, -15]),
                    BOARD["shearY"] + lerp([0, 30, 40]))
        hip = np.array([BOARD["x"], BOARD["y"]]) + m @ [10, 60]
        target = hip + m @ [15 + lerp([0, 0, 40]), -60 + lerp([0, 30, 10])]
        np.testing.assert_allclose(bake.chains["leg"].target_world[f], target, atol=1e-7)
        np.testing.assert_allclose(bake.joint_world[f, bake.column("thigh")], hip, atol=1e-7)


def test_the_roots_shear_setup_and_keyed_is_the_character_spaces(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["bones"][0].update(rotation=10, scaleX=1.1, shearX=5, shearY=15)
    doc["bones"].append({"name": "arm", "parent": "root", "length": 30, "x": -20, "y": 80, "rotation": 120})
    doc["animations"]["walk"]["bones"]["root"] = {"shear": [{"x": 0, "y": 0}, {"time": 1, "x": -20, "y": 35}]}
    result, project = _import(tmp_path, doc)
    assert not any("shear" in w for w in result.warnings)
    bake = evaluate(project, np.arange(31, dtype=float))
    w = bake.bone_world.take((slice(None), bake.column("arm")))
    for f, t in enumerate(T):
        root = _matrix(10, 1.1, 1.0, 5 - 20 * t, 15 + 35 * t)
        arm = root @ _matrix(120, 1, 1, 0, 0)
        np.testing.assert_allclose([w.a[f], w.b[f], w.c[f], w.d[f]], arm.ravel(), atol=1e-9)
        np.testing.assert_allclose([w.tx[f], w.ty[f]], root @ [-20, 80], atol=1e-9)


def test_a_spaces_shear_is_saved_and_an_older_file_reads_unsheared():
    project = Project(spaces=(Space("character"), Space("board", shear=constant(math.radians(12), math.radians(-30)))))
    again = loads_project(dumps_project(project))
    assert np.allclose(again.space("board").shear.default, project.space("board").shear.default, atol=1e-9)
    text = dumps_project(Project(spaces=(Space("character"), Space("board"))))
    assert "shear" not in text  # an unsheared space writes what older versions wrote
    assert loads_project(text).space("board").shear.default == (0.0, 0.0)


angles = st.floats(-3.0, 3.0)
scales = st.floats(0.05, 20.0)


@settings(max_examples=200, deadline=None)
@given(angles, scales, scales, st.floats(-1.4, 1.4), st.booleans())
def test_decompose_gives_back_the_frame_it_reads(rotation, sx, sy, shear_y, mirrored):
    sy = -sy if mirrored else sy
    m = local_matrix(np.array([rotation]), np.array([[sx, sy]]), np.array([[0.0, shear_y]]))
    r, scale, shear = decompose(*m)
    assert np.allclose(local_matrix(r, scale, shear), m, atol=1e-9 * max(sx, abs(sy)))
    assert np.allclose(scale[0], [sx, sy], atol=1e-9 * max(sx, abs(sy)))


def test_an_imported_sheared_target_space_exports_and_comes_back_where_it_was(tmp_path):
    from rigeditor.io.spine.write import export_spine_json

    doc = copy.deepcopy(LEG)
    doc["bones"][0].update(shearX=5, shearY=15)  # the root (character space) shears too
    _, project = _import(tmp_path, doc)
    skeleton = tmp_path / "again.json"
    export_spine_json(project, evaluate(project), skeleton)
    import_spine(skeleton, tmp_path / "back.rigproj")
    back = load_project(tmp_path / "back.rigproj")
    frames = np.arange(31, dtype=float)
    a, b = evaluate(project, frames), evaluate(back, frames)
    np.testing.assert_allclose(b.chains["leg"].target_world, a.chains["leg"].target_world, atol=1e-5)
    for bone in ("thigh", "shin"):
        np.testing.assert_allclose(b.joint_world[:, b.column(bone)], a.joint_world[:, a.column(bone)], atol=1e-5)


def test_each_animation_keeps_its_own_shear_of_the_target_space(tmp_path):
    from rigeditor.model.data import clips

    doc = copy.deepcopy(LEG)
    second = copy.deepcopy(doc["animations"]["walk"])
    second["bones"]["board"]["shear"] = [{"x": 0, "y": 0}, {"time": 1, "x": 30, "y": -20}]
    doc["animations"]["lean"] = second
    _, project = _import(tmp_path, doc)
    lean = clips.switch(project, "lean")
    bake = evaluate(lean, np.arange(31, dtype=float))
    for f, t in enumerate(T):
        m = _matrix(BOARD["rotation"] + 30 * t, BOARD["scaleX"], BOARD["scaleY"], BOARD["shearX"] + 30 * t,
                    BOARD["shearY"] - 20 * t)
        offset = [15 + float(np.interp(t, [0, 0.5, 1], [0, 0, 40])), 20 + float(np.interp(t, [0, 0.5, 1], [0, 30, 10]))]
        np.testing.assert_allclose(bake.chains["leg"].target_world[f], np.array([20, 10]) + m @ offset, atol=1e-7)
    back = clips.switch(lean, "walk")  # and the first animation's shear comes back with it
    np.testing.assert_allclose(evaluate(back, np.arange(31, dtype=float)).chains["leg"].target_world,
                               [_board_target(t) for t in T], atol=1e-7)
