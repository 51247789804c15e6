"""Bone translate and scale keys, through evaluate(): checked against 3x3 matrices
built here (translate . rotate . scale per bone, parent times child), the meaning
of Spine's default ``inherit: normal``."""
import math

import numpy as np
from hypothesis import given, settings, strategies as st

from rigeditor.model import evaluate
from rigeditor.model.data.project import Bone, Chain, Project, Target
from rigeditor.model.data.timeline import constant, keyed
from rigeditor.model.validation.project import problems


def _m(tx, ty, r, sx, sy):
    c, s = math.cos(r), math.sin(r)
    return np.array([[c * sx, -s * sy, tx], [s * sx, c * sy, ty], [0, 0, 1.0]])


def _project(tr, sc):
    return Project(bones=(
        Bone("hip", None, 40.0, rest_offset=(5.0, 7.0), rest_rotation=0.3,
             rotation=keyed([(0, 0.0), (10, 0.8)]), translate=keyed([(0, tr[0]), (10, tr[1])]),
             scale=keyed([(0, sc[0]), (10, sc[1])])),
        Bone("leg", "hip", 30.0, rest_offset=(40.0, 0.0), rest_rotation=-1.1,
             rotation=keyed([(0, 0.2), (10, -0.4)]), scale=keyed([(0, (1.0, 1.0)), (10, (0.5, 2.0))])),
    ))


@settings(max_examples=30, deadline=None)
@given(st.tuples(st.tuples(st.floats(-50, 50), st.floats(-50, 50)),
                 st.tuples(st.floats(-50, 50), st.floats(-50, 50))),
       st.tuples(st.tuples(st.floats(0.2, 3), st.floats(-3, -0.2)),
                 st.tuples(st.floats(0.2, 3), st.floats(0.2, 3))))
def test_translate_and_scale_compose_like_spine_bones(tr, sc):
    project = _project(tr, sc)
    bake = evaluate(project, np.arange(0, 11, dtype=float))
    for i, f in enumerate(range(11)):
        u = f / 10
        lerp = lambda a, b: tuple((1 - u) * np.asarray(a) + u * np.asarray(b))  # noqa: E731
        t, s = lerp(*tr), lerp(*sc)
        hip = _m(5 + t[0], 7 + t[1], 0.3 + 0.8 * u, *s)
        leg = hip @ _m(40, 0, -1.1 + 0.2 - 0.6 * u, *lerp((1, 1), (0.5, 2.0)))
        k = bake.column("leg")
        assert np.allclose(bake.joint_world[i, k], leg[:2, 2], atol=1e-9)
        # The tip is the bone's length along its own (scaled) x axis.
        assert np.allclose(bake.tip_world[i, k], (leg @ [30.0, 0, 1])[:2], atol=1e-9)
        assert np.allclose(bake.scale[i, k], lerp((1, 1), (0.5, 2.0)), atol=1e-12)


def test_a_chain_bone_cannot_be_scaled_nor_its_second_bone_translated_where_limits_measure_it():
    project = Project(
        # (A mirror where limits measure the bones: positive scales, even uneven ones, and
        # mirrored ones in a chain without limits, solve as Spine's do.)
        bones=(Bone("a", None, 10.0, scale=keyed([(0, (1.0, 1.0)), (5, (-2.0, 1.0))])),
               Bone("b", "a", 10.0, rest_offset=(10.0, 0.0), translate=keyed([(0, (0.0, 0.0)), (5, (1.0, 0.0))]))),
        targets=(Target("t"),), chains=(Chain("arm", ("a", "b"), "t", limits=((-1.0, 1.0), (-1.0, 1.0))),))
    found = problems(project)
    assert any("chains[0].bones[0]" in p and "scaled" in p for p in found)
    assert any("chains[0].bones[1]" in p and "translated" in p for p in found)


def test_a_two_bone_chain_bends_to_wherever_its_translated_second_bone_starts():
    # Spine keys an IK child's position; the solver bends the segment from the first
    # bone's origin to the second's: (10 + 4, 3) at frame 5, (10, 0) at frame 0.
    project = Project(
        bones=(Bone("a", None, 10.0), Bone("b", "a", 10.0, rest_offset=(10.0, 0.0),
                                           translate=keyed([(0, (0.0, 0.0)), (5, (4.0, 3.0))]))),
        targets=(Target("t", position=constant(12.0, 9.0)),), chains=(Chain("arm", ("a", "b"), "t"),))
    assert problems(project) == []
    bake = evaluate(project, [0.0, 5.0])
    for i, (ox, oy) in ((0, (10.0, 0.0)), (1, (14.0, 3.0))):
        ux = (bake.tip_world[i, 0] - bake.joint_world[i, 0]) / 10.0  # a's x axis (length 10, unscaled)
        start = bake.joint_world[i, 0] + ox * ux + oy * np.array([-ux[1], ux[0]])
        np.testing.assert_allclose(bake.joint_world[i, 1], start, atol=1e-9)  # b starts where it is keyed
        np.testing.assert_allclose(bake.tip_world[i, 1], (12.0, 9.0), atol=1e-9)  # and its tip reaches the target


def test_a_bone_scale_through_zero_is_legal_above_a_chain_too():
    through = keyed([(0, (1.0, 1.0)), (8, (-1.0, 1.0))])
    project = Project(bones=(Bone("a", None, 10.0, scale=through),))
    assert problems(project) == []
    bake = evaluate(project, [4.0, 6.0])
    # At frame 4 the x axis has collapsed: the tip sits on the origin; at 6 it is mirrored.
    np.testing.assert_allclose(bake.tip_world, [[[0.0, 0.0]], [[-5.0, 0.0]]], atol=1e-12)
    # A chain solves in its parent's frame (as Spine allows a collapsed one): where the
    # frame has collapsed the chain holds its forward-kinematics pose, elsewhere it
    # reaches its target.
    above = Project(
        bones=(Bone("hip", None, 5.0, scale=through), Bone("a", "hip", 10.0, rest_offset=(5.0, 0.0)),
               Bone("b", "a", 10.0, rest_offset=(10.0, 0.0))),
        targets=(Target("t", position=keyed([(0, (-6.0, 8.0))])),), chains=(Chain("arm", ("a", "b"), "t"),))
    assert problems(above) == []
    bake = evaluate(above, [4.0, 6.0])
    assert np.all(np.isfinite(bake.tip_world)) and np.all(np.isfinite(bake.chains["arm"].residual))
    # Frame 4: x scale 0, rest angles 0: FK puts every joint on the hip's origin.
    np.testing.assert_allclose(bake.tip_world[0], np.zeros((3, 2)), atol=1e-12)
    # Frame 6: hip scale (-0.5, 1): the chain's end reaches the target (-6, 8) in world.
    end = bake.chains["arm"].end_world[1]
    np.testing.assert_allclose(end, [-6.0, 8.0], atol=1e-9)
