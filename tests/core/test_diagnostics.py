"""Sensitivity: the reference text's 'one pixel of target jitter, ten degrees of
elbow jitter', checked analytically and by re-solving."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor.core.diagnostics import angle_jitter, angle_sensitivity, joint_rates
from rigeditor.core.twobone import solve_two_bone

A, B = 150.0, 125.0
L = A + B


def test_one_unit_short_of_full_reach_turns_the_elbow_ten_degrees():
    j = angle_jitter(A, B, [0, 0], [[L - 1.0, 0.0], [L / 2, 0.0]], 1.0)
    near, half = j.elbow_deg
    assert near == pytest.approx(10.0, abs=0.5)
    assert near > 20.0 * half


def test_five_percent_soft_reach_brings_it_under_two_degrees():
    j = angle_jitter(A, B, [0, 0], [L - 1.0, 0.0], 1.0, softness=0.05 * L)
    assert float(j.elbow_deg) < 2.0
    hard = angle_jitter(A, B, [0, 0], [L - 1.0, 0.0], 1.0)
    assert float(hard.elbow_deg) > 4 * float(j.elbow_deg)


def _solve_angles(target, softness=0.0):
    """(shoulder, elbow) angles, stacked on the last axis."""
    sol = solve_two_bone(A, B, [0, 0], target, softness=softness)
    return np.stack([sol.shoulder_angle, sol.elbow_angle], axis=-1)


@settings(max_examples=150, deadline=None)
@given(frac=st.floats(0.12, 0.97), ang=st.floats(-3.0, 3.0), soft=st.sampled_from([0.0, 0.05 * L]))
def test_analytic_rates_match_finite_differences(frac, ang, soft):
    d = 25.0 + frac * (L - 25.0)
    r = joint_rates(A, B, d, softness=soft)
    u = np.array([math.cos(ang), math.sin(ang)])
    n = np.array([-u[1], u[0]])
    h = 1e-5
    radial = (_solve_angles((d + h) * u, soft) - _solve_angles((d - h) * u, soft)) / (2 * h)
    side = (_solve_angles(d * u + h * n, soft) - _solve_angles(d * u - h * n, soft)) / (2 * h)
    side[0] = math.remainder(side[0] * 2 * h, 2 * math.pi) / (2 * h)
    assert abs(radial[1]) == pytest.approx(float(r.elbow_radial), rel=1e-4, abs=1e-7)
    assert abs(radial[0]) == pytest.approx(abs(float(r.shoulder_radial)), rel=1e-4, abs=1e-7)
    assert side[0] == pytest.approx(float(r.shoulder_tangential), rel=1e-4)
    assert abs(side[1]) < 1e-6  # the elbow depends on distance only


@settings(max_examples=60, deadline=None)
@given(frac=st.floats(0.12, 0.97), ang=st.floats(-3.0, 3.0))
def test_sensitivity_is_the_worst_direction_of_a_small_step(frac, ang):
    d = 25.0 + frac * (L - 25.0)
    base = d * np.array([math.cos(ang), math.sin(ang)])
    h = 1e-5
    t = np.linspace(0, 2 * math.pi, 3600, endpoint=False)
    step = h * np.stack([np.cos(t), np.sin(t)], axis=-1)
    diff = (_solve_angles(base + step) - _solve_angles(base - step)) / (2 * h)
    worst = float(np.hypot(diff[:, 0], diff[:, 1]).max())
    assert float(angle_sensitivity(A, B, d)) == pytest.approx(math.degrees(worst), rel=1e-3)


def test_sensitivity_peaks_at_both_bounds_and_stays_finite():
    d = np.array([26.0, 137.5, 274.0, 274.99, 275.0, 400.0, 0.0])
    s = angle_sensitivity(A, B, d)
    assert np.all(np.isfinite(s))
    assert s[0] > 5 * s[1] and s[2] > 5 * s[1] and s[3] > s[2]
    # Beyond reach the elbow cannot follow: only the sideways swing of the shoulder is left.
    assert s[5] == pytest.approx(math.degrees(1 / 400.0), rel=1e-9)


def test_jitter_rejects_a_non_positive_amplitude():
    with pytest.raises(ValueError, match="amplitude"):
        angle_jitter(A, B, [0, 0], [100, 0], 0.0)


@settings(max_examples=200, deadline=None)
@given(a=st.floats(1.0, 300.0), b=st.floats(1.0, 300.0), fracs=st.lists(st.floats(0.0, 1.6), min_size=1, max_size=12),
       soft=st.floats(0.0, 0.5))
def test_sensitivity_of_a_frame_alone_equals_that_frame_of_a_range(a, b, fracs, soft):
    # The editor computes the frame under the hand alone (a scalar path) and the range
    # behind it: the read-out must not change when the range lands.
    d = np.array(fracs + [abs(a - b), a + b, 0.0]) * np.array([a + b] * len(fracs) + [1.0, 1.0, 1.0])
    softness = np.full(d.shape, soft * (a + b))
    together = angle_sensitivity(a, b, d, softness=softness)
    for i in range(d.size):
        alone = angle_sensitivity(np.float64(a), b, d[i:i + 1], softness=softness[i:i + 1])
        assert alone.shape == (1,) and np.array_equal(alone, together[i:i + 1]), (i, d[i])
