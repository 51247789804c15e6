"""Chains on sheared and partly parented bones, as Spine's IK solves them: a bone's x
axis (its rotation plus its shear x) is what the solve points, and the bone keeps its
shear; a two-bone chain's first bone is placed unsheared wherever the chain acts (mix >
0); a one-bone chain measures its target in the frame its bone's inherit mode places it
in; a two-bone chain acts nowhere a bone inherits less than all. Checked by forward
kinematics: where the solved frames put the bones' ends, and the angles between their
axes."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from rigeditor.model import evaluate
from rigeditor.model.data.project import WORLD, Bone, Chain, Project, Target, Timeline
from rigeditor.model.data.timeline import StepChannel, constant, keyed
from rigeditor.model.validation.project import problems

D = math.radians
GOAL = (1.0, 4.5)  # within the two-bone chain's reach (3.7 from its shoulder, bones 3 + 2)


def _frame(bake, name, row=0):
    w = bake.bone_world.take((slice(None), bake.column(name)))
    return np.array([[w.a[row], w.b[row]], [w.c[row], w.d[row]]]), np.array([w.tx[row], w.ty[row]])


def _axis_angles(m):
    """(x axis angle, angle from the x axis to the y axis) of a 2x2 frame, radians."""
    x = math.atan2(m[1, 0], m[0, 0])
    return x, math.remainder(math.atan2(m[1, 1], m[0, 1]) - x, 2 * math.pi)


def _rig(arm_shear=(0.0, 0.0), fore_shear=None, mix=1.0, solver="aim", hip_scale=(1.0, 1.0), arm_inherit="normal",
         fore_inherit="normal", arm_scale=(1.0, 1.0), fore_scale=(1.0, 1.0)) -> Project:
    """hip (turned 0.4) -> arm (length 3, sheared ``arm_shear``) [-> fore (length 2,
    sheared ``fore_shear``)], the chain reaching for GOAL in world at ``mix`` (a number
    or a channel)."""
    inherit = [StepChannel(m) if isinstance(m, str) else m for m in (arm_inherit, fore_inherit)]
    bones = [Bone("hip", None, 2.0, (1.0, 0.5), 0.4, scale=constant(*hip_scale)),
             Bone("arm", "hip", 3.0, (2.0, 0.0), 0.3, shear=constant(*arm_shear), inherit=inherit[0],
                  scale=constant(*arm_scale))]
    if fore_shear is not None:
        bones.append(Bone("fore", "arm", 2.0, (3.0, 0.0), -0.5, shear=constant(*fore_shear), inherit=inherit[1],
                          scale=constant(*fore_scale)))
    names = tuple(b.name for b in bones[1:])
    chain = Chain("reach", names, "goal", solver=solver, mix=constant(mix) if isinstance(mix, float) else mix,
                  soft_reach="quadratic")  # (Spine's, as an unevenly scaled first bone needs)
    return Project(timeline=Timeline(24.0, 0, 4), bones=tuple(bones),
                   targets=(Target("goal", StepChannel(WORLD), constant(*GOAL)),), chains=(chain,))


def test_a_sheared_bone_aims_its_x_axis_and_keeps_its_shear():
    shear = (D(25), D(-10))
    p = _rig(arm_shear=shear)
    assert problems(p) == []
    m, origin = _frame(evaluate(p), "arm")
    x, between = _axis_angles(m)
    to_goal = np.subtract(GOAL, origin)
    assert x == pytest.approx(math.atan2(to_goal[1], to_goal[0]), abs=1e-12)  # the x axis points at it
    assert between == pytest.approx(D(90) + shear[1] - shear[0], abs=1e-12)  # the shear is kept


def test_at_half_mix_a_sheared_bone_turns_halfway_from_its_keyed_frame():
    shear = (D(25), D(-10))
    keyed_frame, _ = _frame(evaluate(_rig(arm_shear=shear, mix=0.0)), "arm")
    m, origin = _frame(evaluate(_rig(arm_shear=shear, mix=0.5)), "arm")
    to_goal = np.subtract(GOAL, origin)
    start = _axis_angles(keyed_frame)[0]
    halfway = start + 0.5 * math.remainder(math.atan2(to_goal[1], to_goal[0]) - start, 2 * math.pi)
    assert _axis_angles(m)[0] == pytest.approx(halfway, abs=1e-12)
    assert _axis_angles(m)[1] == pytest.approx(_axis_angles(keyed_frame)[1], abs=1e-12)


def test_a_two_bone_chain_reaches_with_its_first_bone_unsheared_and_its_second_sheared():
    fore = (D(20), D(15))
    p = _rig(arm_shear=(D(-15), D(30)), fore_shear=fore, solver="analytic")
    assert problems(p) == []
    bake = evaluate(p)
    arm, _ = _frame(bake, "arm")
    m, elbow = _frame(bake, "fore")
    assert _axis_angles(arm)[1] == pytest.approx(D(90), abs=1e-12)  # Spine's two-bone IK drops it
    assert _axis_angles(m)[1] == pytest.approx(D(90) + fore[1] - fore[0], abs=1e-12)
    end = elbow + 2.0 * m[:, 0] / np.hypot(*m[:, 0])  # the fore bone's tip along its x axis
    np.testing.assert_allclose(end, GOAL, atol=1e-9)
    assert bake.chains["reach"].residual[0] < 1e-9


def test_at_mix_0_a_two_bone_chain_keeps_both_shears():
    arm_shear = (D(-15), D(30))
    bake = evaluate(_rig(arm_shear=arm_shear, fore_shear=(D(20), D(15)), mix=0.0, solver="analytic"))
    assert _axis_angles(_frame(bake, "arm")[0])[1] == pytest.approx(D(90) + arm_shear[1] - arm_shear[0], abs=1e-12)


def test_a_keyed_mix_drops_the_first_bones_shear_only_where_the_chain_acts():
    arm_shear = (D(-15), D(30))
    p = _rig(arm_shear=arm_shear, fore_shear=(0.0, 0.0), solver="analytic",
             mix=keyed([(0, (0.0,)), (1, (0.0,)), (2, (1.0,))], "constant"))
    bake = evaluate(p)
    sheared = D(90) + arm_shear[1] - arm_shear[0]
    got = [_axis_angles(_frame(bake, "arm", row)[0])[1] for row in range(3)]
    assert got == pytest.approx([sheared, sheared, D(90)], abs=1e-12)


def test_an_iterative_chain_still_refuses_a_sheared_bone():
    p = _rig(arm_shear=(D(10), 0.0), fore_shear=(0.0, 0.0), solver="fabrik")
    assert any("cannot shear it" in line for line in problems(p))


@pytest.mark.parametrize("mode", ["normal", "onlyTranslation", "noRotationOrReflection", "noScale",
                                  "noScaleOrReflection"])
def test_a_one_bone_chain_points_its_bone_at_the_target_whatever_it_inherits(mode):
    # Under a turned, unevenly scaled hip each mode places the bone in another frame;
    # Spine measures the target in that frame, so at mix 1 the bone points at it.
    p = _rig(hip_scale=(1.6, 0.5), arm_inherit=mode)
    assert problems(p) == []
    m, origin = _frame(evaluate(p), "arm")
    to_goal = np.subtract(GOAL, origin)
    assert _axis_angles(m)[0] == pytest.approx(math.atan2(to_goal[1], to_goal[0]), abs=1e-9)


def test_a_two_bone_chain_acts_nowhere_a_bone_inherits_less():
    # Spine's two-bone IK leaves bones that do not inherit all of their parent's frame
    # their own pose: keyed noScale on the fore bone at frame 1 only.
    modes = StepChannel("normal", ((1.0, "noScale"), (2.0, "normal")))
    kw = dict(fore_shear=(0.0, 0.0), solver="analytic", fore_inherit=modes)
    solved, keyed_pose = evaluate(_rig(**kw)), evaluate(_rig(mix=0.0, **kw))
    for row, acts in ((0, True), (1, False), (2, True)):
        same = np.allclose(_frame(solved, "fore", row)[0], _frame(keyed_pose, "fore", row)[0], atol=1e-12)
        assert same != acts
        assert (solved.chains["reach"].residual[row] < 1e-9) == acts


@pytest.mark.parametrize("arm_scale, fore_scale", [((-1.0, 1.0), (1.0, 1.0)), ((1.0, -1.0), (1.0, 1.0)),
                                                   ((1.0, 1.0), (-1.0, 1.0)), ((-0.8, -0.8), (-1.0, 0.5)),
                                                   ((-1.0, 0.6), (1.0, 1.0))])
def test_a_mirrored_two_bone_chain_bends_as_its_unmirrored_twin(arm_scale, fore_scale):
    # A negative scale mirrors a bone's frame, not the segments the solve bends: the
    # elbow and the end land where they land with the scales' sizes (Spine's two-bone
    # IK), and the end reaches the target.
    def joints(a, f):
        bake = evaluate(_rig(fore_shear=(0.0, 0.0), solver="analytic", arm_scale=a, fore_scale=f))
        m, elbow = _frame(bake, "fore")
        return elbow, elbow + 2.0 * m[:, 0], bake.chains["reach"].residual[0]
    p = _rig(fore_shear=(0.0, 0.0), solver="analytic", arm_scale=arm_scale, fore_scale=fore_scale)
    assert problems(p) == []
    elbow, end, residual = joints(arm_scale, fore_scale)
    twin_elbow, twin_end, _ = joints(tuple(map(abs, arm_scale)), tuple(map(abs, fore_scale)))
    np.testing.assert_allclose(elbow, twin_elbow, atol=1e-9)
    np.testing.assert_allclose(end, twin_end, atol=1e-9)
    if abs(arm_scale[0]) == abs(arm_scale[1]):  # (an uneven first bone reaches on Spine's ellipse)
        np.testing.assert_allclose(end, GOAL, atol=1e-9)
        assert residual < 1e-9


def test_a_first_bone_scaled_to_0_aims_alone_and_its_child_turns_to_0():
    # Spine's two-bone IK on a collapsed first segment (its x scale 0): the first bone
    # turns to point at the target, the second to a rotation of 0, whatever the mix.
    p = _rig(fore_shear=(0.0, 0.0), solver="analytic", arm_scale=(0.0, 1.0))
    assert problems(p) == []
    bake = evaluate(p, [0.0])
    hip, _ = _frame(bake, "hip")
    _, shoulder = _frame(bake, "arm")
    to_goal = np.linalg.solve(hip, np.subtract(GOAL, shoulder))  # in the hip's frame
    assert bake.bone("arm").local_rotation[0] == pytest.approx(math.atan2(to_goal[1], to_goal[0]), abs=1e-12)
    assert bake.bone("fore").local_rotation[0] == 0.0
    half = evaluate(_rig(fore_shear=(0.0, 0.0), solver="analytic", arm_scale=(0.0, 1.0), mix=0.5), [0.0])
    assert half.bone("fore").local_rotation[0] == 0.0


@pytest.mark.parametrize("goal, folded", [((1.0, 4.5), False), ((3.5, 2.5), True)])
def test_a_second_bone_scaled_to_0_leaves_the_first_pointing_at_the_target(goal, folded):
    # Its segment has no length: the first bone points at the target, the second
    # straight on, or folded back where the target is nearer than the first segment.
    p = _rig(fore_shear=(0.0, 0.0), solver="analytic", fore_scale=(0.0, 1.0))
    p = replace(p, targets=(Target("goal", StepChannel(WORLD), constant(*goal)),) + p.targets[1:])
    assert problems(p) == []
    bake = evaluate(p, [0.0])
    m, shoulder = _frame(bake, "arm")
    to_goal = np.subtract(goal, shoulder)
    assert (np.hypot(*to_goal) < 3.0) == folded
    assert _axis_angles(m)[0] == pytest.approx(math.atan2(to_goal[1], to_goal[0]), abs=1e-9)
    assert abs(bake.bone("fore").local_rotation[0]) == pytest.approx(math.pi if folded else 0.0, abs=1e-9)


def test_a_sheared_first_bone_measures_an_off_axis_child_with_its_shear_on():
    # Spine's two-bone IK reaches for the child's origin as the sheared first bone puts
    # it, then places that bone unsheared: the law of cosines on the sheared first
    # segment, turned back by the child's own angle off the axis.
    shear, child = (D(20), D(-15)), (3.0, 0.6)
    p = _rig(arm_shear=shear, fore_shear=(0.0, 0.0), solver="analytic")
    p = replace(p, bones=tuple(replace(b, rest_offset=child) if b.name == "fore" else b for b in p.bones))
    assert problems(p) == []
    bake = evaluate(p, [0.0])
    hip, _ = _frame(bake, "hip")
    arm, shoulder = _frame(bake, "arm")
    t = np.linalg.solve(hip, np.subtract(GOAL, shoulder))  # the target in the shoulder space
    cx, cy = child
    l1 = math.hypot(cx * math.cos(shear[0]) - cy * math.sin(shear[1]), cx * math.sin(shear[0]) + cy * math.cos(shear[1]))
    d = math.hypot(*t)
    alpha = math.acos((l1 * l1 + d * d - 2.0 * 2.0) / (2 * l1 * d))
    expected = math.atan2(t[1], t[0]) - alpha - math.atan2(cy, cx)  # bend +1
    assert math.remainder(bake.bone("arm").local_rotation[0] - expected, 2 * math.pi) == pytest.approx(0.0, abs=1e-9)
    assert _axis_angles(arm)[1] == pytest.approx(D(90), abs=1e-12)  # placed unsheared
    assert abs(l1 - math.hypot(*child)) > 0.1  # (the shear really changes the reach)
    # The end misses the target by that, and the bake says why (not "unexplained").
    from rigeditor.model.evaluation.bake import CAUSES
    assert bake.chains["reach"].residual[0] > 0.1 and CAUSES[int(bake.chains["reach"].cause[0])] == "sheared"
