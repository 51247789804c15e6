"""Chains of any length through the evaluation path (FABRIK and CCD)."""
import math

import numpy as np
import pytest

from rigeditor.core.diagnostics import angle_sensitivity
from rigeditor.model import CAUSES, CHARACTER, Bone, Chain, Project, Space, Target, Timeline, evaluate
from rigeditor.model.evaluation.constraints.ik_solvers import jacobian_sensitivity
from rigeditor.examples.rigs import tail
from rigeditor.model.data.timeline import StepChannel, constant, keyed

C = {name: i for i, name in enumerate(CAUSES)}


@pytest.mark.parametrize("solver", ["fabrik", "ccd"])
def test_tail_follows_its_target_within_limits(solver):
    project = tail(solver)
    bake = evaluate(project)
    ch = bake.chains["tail"]
    chain = project.chain("tail")
    # Every frame is on target within the tolerance, or its residual has a named cause.
    assert np.all((ch.residual <= chain.tolerance) | (ch.cause != C["unexplained"]))
    assert np.median(ch.residual) <= chain.tolerance
    for k, bone in enumerate(chain.bones):
        lo, hi = chain.limits[k]
        angles = bake.local_rotation[:, bake.column(bone)]
        assert np.all((angles >= lo - 1e-9) & (angles <= hi + 1e-9)), bone
    assert np.all(ch.iterations >= 0) and np.all(ch.iterations <= chain.max_iterations)


def _two_bone(solver, target):
    return Project(
        "two", Timeline(24, 0, len(target) - 1), (Space(CHARACTER),),
        (Bone("a", None, 150.0, rest_rotation=-0.4), Bone("b", "a", 125.0, rest_offset=(150.0, 0.0), rest_rotation=0.8)),
        (Target("t", StepChannel(CHARACTER), keyed(list(enumerate(target)))),),
        (Chain("c", ("a", "b"), "t", solver=solver, bend=constant(1.0), tolerance=1e-6, max_iterations=500),),
    )


@pytest.mark.parametrize("solver", ["fabrik", "ccd"])
def test_two_bone_iterative_matches_the_analytic_solve(solver):
    path = [(200.0, 20.0 * math.sin(i / 5)) for i in range(30)]
    analytic = evaluate(_two_bone("analytic", path))
    iterative = evaluate(_two_bone(solver, path))
    # Warm-started from a pose bent the +1 way, the iterative solve stays on that side.
    assert np.allclose(iterative.local_rotation, analytic.local_rotation, atol=1e-4)


def test_jacobian_sensitivity_equals_the_analytic_one_for_two_bones():
    path = [(d, 0.0) for d in (60.0, 137.5, 200.0, 260.0, 274.0)]
    bake = evaluate(_two_bone("analytic", path))
    joints = np.stack([bake.joint_world[:, 0], bake.joint_world[:, 1], bake.tip_world[:, 1]], axis=1)
    expected = angle_sensitivity(150.0, 125.0, np.array([d for d, _ in path]))
    assert np.allclose(jacobian_sensitivity(joints), expected, rtol=1e-6)
