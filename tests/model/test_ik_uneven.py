"""Two-bone IK with an unevenly scaled first bone (Spine's ellipse): forward kinematics
of the solved angles checks the solve; a brute force over the ellipse checks the pose
it takes when the target is out of reach."""
from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, given, settings, strategies as st

from rigeditor.model.evaluation.constraints.ik_uneven import solve_uneven


def _end(first, tip, upper, lower, psx, psy):
    """The chain's end by hand: R(first) diag(psx, psy) (upper + lower cos tip, lower sin tip)."""
    x, y = psx * (upper + lower * math.cos(tip)), psy * lower * math.sin(tip)
    return np.array([math.cos(first) * x - math.sin(first) * y, math.sin(first) * x + math.cos(first) * y])


def _solve(upper, lower, psx, psy, target, bend):
    out = solve_uneven(upper, lower, np.array([psx]), np.array([psy]), np.array([target], dtype=float),
                       np.array([float(bend)]))
    return [float(v[0]) for v in out]


@settings(max_examples=300, deadline=None)
@given(st.floats(1.0, 100.0), st.floats(1.0, 100.0), st.floats(0.2, 5.0), st.floats(0.2, 5.0),
       st.floats(-math.pi, math.pi), st.floats(0.05, math.pi - 0.05), st.sampled_from([1, -1]))
def test_a_reachable_target_is_reached(upper, lower, psx, psy, turn, bent, bend):
    assume(abs(psx - psy) > 1e-3)
    target = _end(turn, bend * bent, upper, lower, psx, psy)  # a pose's end: reachable by construction
    first, tip, near, far = _solve(upper, lower, psx, psy, target, bend)
    size = (upper + lower) * max(psx, psy)
    np.testing.assert_allclose(_end(first, tip, upper, lower, psx, psy), target, atol=1e-7 * size)
    assert math.copysign(1.0, tip) == bend or abs(math.sin(tip)) < 1e-9  # bent the asked way
    assert near - 1e-9 * size <= np.hypot(*target) <= far + 1e-9 * size


def _ellipse_distances(upper, lower, psx, psy):
    t = np.linspace(-math.pi, math.pi, 200001)
    return t, np.hypot(psx * (upper + lower * np.cos(t)), psy * lower * np.sin(t))


def test_beyond_reach_the_end_points_at_the_target_from_the_ellipses_farthest_point():
    upper, lower, psx, psy = 50.0, 45.0, 0.7, 1.6  # the farthest point is not at t = 0 here
    t, d = _ellipse_distances(upper, lower, psx, psy)
    target = np.array([-300.0, 120.0])
    for bend in (1, -1):
        first, tip, near, far = _solve(upper, lower, psx, psy, target, bend)
        end = _end(first, tip, upper, lower, psx, psy)
        assert abs(np.hypot(*end) - d.max()) < 1e-6 * d.max()
        assert abs(far - d.max()) < 1e-6 * d.max() and abs(near - d.min()) < 1e-6 * d.max()
        np.testing.assert_allclose(end / np.hypot(*end), target / np.hypot(*target), atol=1e-9)
        assert abs(math.cos(tip)) < 0.99 and np.sign(tip) == bend  # the turning point, on the bend's side


def test_near_the_shoulder_the_end_takes_the_ellipses_nearest_point_toward_the_target():
    upper, lower, psx, psy = 50.0, 30.0, 1.4, 0.6
    _, d = _ellipse_distances(upper, lower, psx, psy)
    target = np.array([2.0, -3.0])
    assert np.hypot(*target) < d.min()
    first, tip, _, _ = _solve(upper, lower, psx, psy, target, -1)
    end = _end(first, tip, upper, lower, psx, psy)
    assert abs(np.hypot(*end) - d.min()) < 1e-6 * d.max()
    np.testing.assert_allclose(end / np.hypot(*end), target / np.hypot(*target), atol=1e-9)
