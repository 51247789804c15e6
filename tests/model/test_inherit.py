"""Bones as Spine defines them: shear and inherit modes, by hand (world axes worked out
from the parent's frame), vectorised over frames."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor.io import dumps_project, loads_project
from rigeditor.model import evaluate
from rigeditor.model.evaluation.inherit import INHERIT_MODES, bone_world
from rigeditor.core.geometry import Affine
from rigeditor.model.data.project import Bone, Project
from rigeditor.model.data.timeline import StepChannel, constant, keyed

D = math.radians


def _world(bake, name, row=0):
    w = bake.bone_world.take((slice(None), bake.column(name)))
    return np.array([[w.a[row], w.b[row]], [w.c[row], w.d[row]]]), np.array([w.tx[row], w.ty[row]])


def _axes(angle_x, len_x, angle_y, len_y):
    """A 2x2 whose x axis points at angle_x with length len_x, y axis likewise."""
    return np.array([[len_x * math.cos(angle_x), len_y * math.cos(angle_y)],
                     [len_x * math.sin(angle_x), len_y * math.sin(angle_y)]])


def _rig(inherit="normal", parent_scale=(2.0, 0.5), child=None):
    parent = Bone("p", None, 10.0, rest_offset=(3.0, 4.0), rest_rotation=D(90), scale=constant(*parent_scale))
    kid = child or Bone("k", "p", 5.0, rest_offset=(10.0, 1.0), rest_rotation=D(30), inherit=StepChannel(inherit))
    return Project(bones=(parent, kid))


def test_shear_turns_each_axis_by_its_own_angle():
    kid = Bone("k", "p", 5.0, rest_offset=(10.0, 0.0), rest_rotation=D(30), scale=constant(1.5, 0.8),
               shear=constant(D(15), D(-20)))
    bake = evaluate(_rig(parent_scale=(1.0, 1.0), child=kid), [0.0])
    m, origin = _world(bake, "k")
    # Parent turned 90: the kid's x axis at 90 + 30 + 15, its y axis at 90 + 30 + 90 - 20.
    np.testing.assert_allclose(m, _axes(D(135), 1.5, D(190), 0.8), atol=1e-12)
    np.testing.assert_allclose(origin, [3.0, 14.0], atol=1e-12)


def test_keyed_shear_follows_its_curve():
    kid = Bone("k", "p", 5.0, rest_offset=(10.0, 0.0), shear=keyed([(0, (0.0, 0.0)), (10, (D(40), D(-30)))]))
    bake = evaluate(_rig(parent_scale=(1.0, 1.0), child=kid), [5.0])
    np.testing.assert_allclose(_world(bake, "k")[0], _axes(D(90 + 20), 1.0, D(180 - 15), 1.0), atol=1e-12)


def test_normal_takes_the_parents_scale_along_its_own_axes():
    m, origin = _world(evaluate(_rig("normal"), [0.0]), "k")
    # Parent: x axis up (length 2), y axis to -x (length 0.5); the kid's (cos 30, sin 30).
    np.testing.assert_allclose(m, [[-0.5 * 0.5, -0.5 * math.cos(D(30))], [2 * math.cos(D(30)), -2 * 0.5]],
                               atol=1e-12)
    np.testing.assert_allclose(origin, [3.0 - 0.5 * 1.0, 4.0 + 2.0 * 10.0], atol=1e-12)


def test_only_translation_keeps_the_bones_own_axes():
    m, origin = _world(evaluate(_rig("onlyTranslation"), [0.0]), "k")
    np.testing.assert_allclose(m, _axes(D(30), 1.0, D(120), 1.0), atol=1e-12)
    np.testing.assert_allclose(origin, [2.5, 24.0], atol=1e-12)  # placed by the whole parent


def test_no_rotation_keeps_the_parents_scale_in_the_parents_directions():
    m, _ = _world(evaluate(_rig("noRotationOrReflection"), [0.0]), "k")
    # The parent's x axis points up with length 2 and its frame has area 1: scale 2 up,
    # 1/2 across, then the kid's own 30 degrees measured from the world's x axis.
    np.testing.assert_allclose(m, np.diag([0.5, 2.0]) @ _axes(D(30), 1.0, D(120), 1.0), atol=1e-12)


@pytest.mark.parametrize("mode, flipped", [("noScale", True), ("noScaleOrReflection", False)])
def test_no_scale_follows_the_parents_image_of_its_direction(mode, flipped):
    project = _rig(mode, parent_scale=(-2.0, 0.5))
    m, _ = _world(evaluate(project, [0.0]), "k")
    # The parent maps the kid's direction (cos 30, sin 30) to R(90) (-2 cos 30, 0.5 sin 30).
    x = np.array([[0.0, -1.0], [1.0, 0.0]]) @ [-2 * math.cos(D(30)), 0.5 * math.sin(D(30))]
    angle = math.atan2(x[1], x[0])
    # Unit axes, the y axis a right angle on; noScale flips it where the parent mirrors.
    np.testing.assert_allclose(m, _axes(angle, 1.0, angle + D(90), -1.0 if flipped else 1.0), atol=1e-12)


def test_the_inherit_mode_can_switch_at_a_key():
    project = _rig("normal")
    project = project.with_bone("k", inherit=StepChannel("normal", ((4.5, "onlyTranslation"),)))
    bake = evaluate(project, [4.0, 5.0])
    np.testing.assert_allclose(_world(bake, "k", 0)[0], _world(evaluate(_rig("normal"), [0.0]), "k")[0], atol=1e-12)
    np.testing.assert_allclose(_world(bake, "k", 1)[0], _axes(D(30), 1.0, D(120), 1.0), atol=1e-12)


def test_a_file_keeps_shear_and_inherit_and_leaves_them_out_where_unused():
    kid = Bone("k", "p", 5.0, rest_offset=(10.0, 0.0), shear=keyed([(0, (0.0, D(10))), (2.5, (D(5), 0.0))]),
               inherit=StepChannel("noScale", ((3.0, "normal"),)))
    project = _rig(child=kid)
    text = dumps_project(project)
    assert '"shear"' in text and text.count('"inherit"') == 1  # the parent has neither
    again = loads_project(text)
    assert again.bone("k").inherit == kid.inherit
    np.testing.assert_allclose([k.value for k in again.bone("k").shear.keys], [(0.0, D(10)), (D(5), 0.0)], atol=1e-12)


def test_an_unknown_inherit_mode_is_refused_where_it_is():
    project = _rig(child=Bone("k", "p", 5.0, inherit=StepChannel("normal", ((2.0, "sideways"),))))
    with pytest.raises(Exception) as err:
        loads_project(dumps_project(project))
    assert "bones[1].inherit.keys[0].value: unknown inherit mode 'sideways'" in str(err.value)


angles = st.floats(-3.0, 3.0)


@settings(max_examples=60, deadline=None)
@given(angles, st.floats(0.2, 3.0), st.floats(-3.0, -0.2), angles)
def test_every_mode_agrees_with_normal_under_a_plain_parent(r, sx, sy, shear):
    """Under a parent that only translates (identity 2x2) every mode is ``normal``."""
    n = 1
    parent = Affine(np.ones(n), np.zeros(n), np.zeros(n), np.ones(n), np.full(n, 2.0), np.full(n, -1.0))
    args = (parent, 1.0, 2.0, np.full(n, r), np.array([[sx, sy]]), np.array([[shear, 0.5 * shear]]))
    ref = bone_world(*args, 0)
    for code in range(1, len(INHERIT_MODES)):
        got = bone_world(*args, code)
        np.testing.assert_allclose(got.fields(), ref.fields(), atol=1e-12)
