"""Chains sharing bones, as Spine's IK constraints may (an IK switch: a limb reaching
for one target or another as their mixes are keyed). They solve by order, the later
from the earlier's solve: at mix m its bones turn m of the way from that pose to its
own. Expected values from each chain solved alone."""
from __future__ import annotations

import math

import numpy as np
import pytest

from rigeditor.model import evaluate
from rigeditor.model.data.project import WORLD, Bone, Chain, Project, Target, Timeline
from rigeditor.model.data.timeline import StepChannel, constant
from rigeditor.model.evaluation.bake import CAUSES
from rigeditor.model.validation.project import problems


def _rig(chains) -> Project:
    bones = (Bone("hip", None, 2.0, (1.0, 0.5), 0.4), Bone("arm", "hip", 3.0, (2.0, 0.0), 0.3),
             Bone("fore", "arm", 2.0, (3.0, 0.0), -0.5))
    targets = (Target("goal", StepChannel(WORLD), constant(1.0, 4.5)),
               Target("prop", StepChannel(WORLD), constant(4.5, 3.0)))
    return Project(timeline=Timeline(24.0, 0, 2), bones=bones, targets=targets, chains=tuple(chains))


def _reach(mix=1.0, order=0):
    return Chain("reach", ("arm", "fore"), "goal", mix=constant(mix), order=order)


def _hold(mix=1.0, order=1, bones=("arm", "fore")):
    return Chain("hold", bones, "prop", solver="analytic" if len(bones) == 2 else "aim", mix=constant(mix),
                 bend=constant(-1.0), order=order)


def _rotations(project, names=("arm", "fore")):
    bake = evaluate(project, [0.0])
    return np.array([bake.bone(n).local_rotation[0] for n in names])


def _same_angles(got, expected):
    np.testing.assert_allclose(np.remainder(np.asarray(got) - expected + math.pi, 2 * math.pi) - math.pi, 0.0,
                               atol=1e-12)


@pytest.mark.parametrize("mix", [1.0, 0.5, 0.0])
def test_the_later_chain_turns_its_mix_of_the_way_from_the_earlier_ones_solve(mix):
    p = _rig([_reach(), _hold(mix)])
    assert problems(p) == []
    first, second = _rotations(_rig([_reach()])), _rotations(_rig([_hold()]))
    expected = first + mix * np.array([math.remainder(s - f, 2 * math.pi) for f, s in zip(first, second)])
    _same_angles(_rotations(p), expected)


def test_order_decides_which_chain_has_the_last_word():
    p = _rig([_reach(order=1), _hold(order=0)])
    _same_angles(_rotations(p), _rotations(_rig([_reach()])))
    bake = evaluate(p, [0.0])
    assert bake.chains["reach"].residual[0] < 1e-9
    # The earlier chain's end was moved off its target by the later one: said.
    assert CAUSES[int(bake.chains["hold"].cause[0])] == "constraint" and bake.chains["hold"].residual[0] > 0.1


def test_a_one_bone_chain_may_share_a_two_bone_chains_bone():
    # The aim turns the fore bone, from where the reach left it, half of the way to
    # pointing at the prop: worked out from the reach alone's frames.
    p = _rig([_reach(), _hold(0.5, bones=("fore",))])
    assert problems(p) == []
    first = _rotations(_rig([_reach()]))
    reach = evaluate(_rig([_reach()]), [0.0])
    arm, fore = (bake_world(reach, n) for n in ("arm", "fore"))
    to_prop = np.array([4.5, 3.0]) - fore[1]
    aimed = math.atan2(to_prop[1], to_prop[0]) - math.atan2(arm[0][1, 0], arm[0][0, 0])
    _same_angles(_rotations(p), [first[0], first[1] + 0.5 * math.remainder(aimed - first[1], 2 * math.pi)])


def bake_world(bake, name):
    w = bake.bone_world.take((slice(None), bake.column(name)))
    return np.array([[w.a[0], w.b[0]], [w.c[0], w.d[0]]]), np.array([w.tx[0], w.ty[0]])


def test_chains_spine_cannot_play_still_refuse_to_share():
    limited = Chain("hold", ("arm", "fore"), "prop", limits=((-1.0, 1.0), None), order=1)
    assert any("already driven by chain 'reach'" in line for line in problems(_rig([_reach(), limited])))
