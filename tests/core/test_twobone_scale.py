"""The two-bone solver at every scale a file can reach: the answer must not depend
on the unit the rig is drawn in (1e-150 .. 1e150), and guards scale with the limb."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor.core.twobone import solve_two_bone


def fk_end(a, b, shoulder_angle, elbow_angle):
    """End of the limb from scratch, with the shoulder at the origin."""
    return (a * math.cos(shoulder_angle) + b * math.cos(shoulder_angle + elbow_angle),
            a * math.sin(shoulder_angle) + b * math.sin(shoulder_angle + elbow_angle))


@pytest.mark.parametrize("scale", [1e77, 1e150 / 2.5, 1e-160 * 1e10, 1e-150, 1e-10, 1e-12])
def test_reported_scales_reach_a_reachable_target(scale):
    # The arm's proportions (150/125) at the scales reported to fail.
    a, b = 1.5 * scale, 1.25 * scale
    target = np.array([2.0, 0.7]) * scale
    sol = solve_two_bone(a, b, np.zeros(2), target)
    assert np.all(np.isfinite(sol.end)) and np.isfinite(sol.shoulder_angle)
    assert float(sol.residual) < 1e-9 * (a + b)
    end = fk_end(1.5, 1.25, float(sol.shoulder_angle), float(sol.elbow_angle))
    assert math.dist(end, (2.0, 0.7)) < 1e-9  # the same angles as at unit scale
    assert not bool(sol.limited)


@pytest.mark.parametrize("length", [1e-160, 1e-200, 0.0, 1e151])
def test_lengths_beyond_the_supported_range_are_refused_by_name(length):
    with pytest.raises(ValueError, match=r"upper: .*(>= 1e-150|<= 1e\+150)"):
        solve_two_bone(length, 1e-150, np.zeros(2), [1e-150, 0.0])


@settings(max_examples=400, deadline=None)
@given(exp=st.floats(-150.0, 147.9), ratio=st.floats(0.01, 100.0), t=st.floats(0.0, 1.0),
       ang=st.floats(-math.pi, math.pi), bend=st.sampled_from([1, -1]))
def test_every_reachable_target_is_reached_at_every_scale(exp, ratio, t, ang, bend):
    scale = 10.0 ** exp
    a = scale
    b = max(scale * ratio, 1e-150)  # both bones within [1e-150, 1e150], a + b too
    inner, outer = abs(a - b), a + b
    d = inner + (outer - inner) * (0.001 + 0.998 * t)
    target = [d * math.cos(ang), d * math.sin(ang)]
    sol = solve_two_bone(a, b, np.zeros(2), target, bend=bend)
    assert float(sol.residual) < 1e-9 * (a + b)
    assert bend * float(sol.elbow_angle) >= 0
    # The residual is measured, not assumed: forward kinematics written here agree.
    ex, ey = fk_end(a / outer, b / outer, float(sol.shoulder_angle), float(sol.elbow_angle))
    assert math.hypot(ex - target[0] / outer, ey - target[1] / outer) < 1e-9


@pytest.mark.parametrize("scale", [1e-150, 1e-12, 1.0, 1e12, 1e149])
def test_guards_are_relative_to_the_limb(scale):
    # A short-bone chain far from the inner bound and a target off the shoulder by a
    # millionth of the limb: neither is a degenerate input at any scale.
    a, b = 1.5 * scale, 1.25 * scale
    near = solve_two_bone(a, b, np.zeros(2), [0.0, 1e-6 * scale])
    assert near.end[1] > 0  # aimed at the target (+y), not the default +x
    assert float(near.residual) == pytest.approx(0.25 * scale - 1e-6 * scale, rel=1e-6)
    # Equal bones folded onto the shoulder still give a finite pose.
    folded = solve_two_bone(scale, scale, np.zeros(2), [[0.0, 0.0], [1e-3 * scale, 0.0]])
    assert np.all(np.isfinite(folded.end)) and folded.residual[1] < 1e-9 * scale


@pytest.mark.parametrize("strategy", ["stretch", "move_root"])
@pytest.mark.parametrize("scale", [1e-150, 1e149])
def test_strategies_work_at_extreme_scales(strategy, scale):
    a, b = 1.5 * scale, 1.25 * scale
    sol = solve_two_bone(a, b, np.zeros(2), [[2.8 * scale, 0.0], [2.0 * scale, 0.5 * scale]],
                         on_limit=strategy, max_root_offset=0.1 * scale, root_time_constant=0.0)
    assert np.all(np.isfinite(sol.end))
    assert sol.residual[0] < 1e-9 * scale  # 2.8 is within 10 % stretch / 0.1 lean of 2.75
    assert sol.residual[1] < 1e-9 * scale


@pytest.mark.parametrize("a, b", [(50.0, 1e-17), (50.0, 1.9555369991788435e-67), (1e-17, 50.0),
                                  (1e9, 1e-150), (1e-150, 1e9)])
@pytest.mark.parametrize("per_frame", [False, True])
def test_a_bone_below_rounding_of_the_other_gives_a_straight_limb(a, b, per_frame):
    # Lengths the solver accepts whose ratio is below double precision: a + b rounds
    # to the longer bone, so the reach is one circle and the limb lies straight on
    # the target line (this divided by zero).
    target = np.array([40.0, 10.0]) * max(a, b) / 50.0
    if per_frame:
        sol = solve_two_bone(np.array([a, a]), b, np.zeros((2, 2)), np.stack([target, target]))
        shoulder, elbow, end = float(sol.shoulder_angle[1]), float(sol.elbow_angle[1]), sol.end[1]
    else:
        sol = solve_two_bone(a, b, np.zeros(2), target)
        shoulder, elbow, end = float(sol.shoulder_angle), float(sol.elbow_angle), sol.end
    assert elbow == 0.0 and math.isclose(shoulder, math.atan2(target[1], target[0]), rel_tol=1e-12)
    expected = target / np.hypot(*target) * (a + b)  # the whole limb along the target direction
    assert np.allclose(end, expected, rtol=1e-12, atol=0.0)
    assert np.allclose(fk_end(a, b, shoulder, elbow), expected, rtol=1e-12, atol=0.0)
