"""When a limit binds, the two-bone solve returns the pose within the limits whose end
is closest to the target: checked against a brute-force search over a grid of angles."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor.core.twobone import solve_two_bone

A, B = 150.0, 125.0
STEP = math.radians(0.25)


def grid_best(a, b, target, limits, bend):
    """Smallest miss over a grid of poses within the limits, and whether the saved
    bend side had to be given up (the limits leave it no elbow angle)."""
    (slo, shi), (elo, ehi) = limits
    shoulders = np.arange(-math.pi, math.pi, STEP) if shi - slo >= 2 * math.pi else \
        np.append(np.arange(slo, shi, STEP), shi)
    elbows = np.append(np.arange(elo, ehi, STEP), ehi)
    elbows = np.concatenate([elbows, [x for x in (0.0, math.pi, -math.pi) if elo <= x <= ehi]])
    # Elbows here lie in [-pi, pi]; +-pi (folded) belongs to both sides, as does 0.
    side = (bend * elbows >= 0) | (np.abs(elbows) == math.pi)
    forced = not side.any()
    if not forced:
        elbows = elbows[side]
    th, e = np.meshgrid(shoulders, elbows, indexing="ij")
    ex = a * np.cos(th) + b * np.cos(th + e)
    ey = a * np.sin(th) + b * np.sin(th + e)
    return float(np.hypot(ex - target[0], ey - target[1]).min()), forced


angles = st.floats(-math.pi, math.pi)


@settings(max_examples=150, deadline=None)
@given(ang=angles, dist=st.floats(0.0, 320.0), lo_s=st.floats(-3.0, 3.0), w_s=st.floats(0.05, 7.0),
       lo_e=st.floats(-3.1, 3.1), w_e=st.floats(0.05, 4.0), bend=st.sampled_from([1, -1]))
def test_binding_limits_give_the_closest_pose_within_them(ang, dist, lo_s, w_s, lo_e, w_e, bend):
    limits = ((lo_s, lo_s + w_s), (lo_e, min(lo_e + w_e, math.pi)))
    target = (dist * math.cos(ang), dist * math.sin(ang))
    sol = solve_two_bone(A, B, [0, 0], target, bend=bend, limits=limits)
    best, forced = grid_best(A, B, target, limits, bend)
    # Never worse than any grid pose, and (being a pose within the limits) never
    # better than the grid's best by more than the grid's resolution can hide.
    assert float(sol.residual) <= best + 2e-9 * (A + B)  # the inner-reach guard is 1e-9 of the limb
    assert best <= float(sol.residual) + (A + B) * STEP
    e = float(sol.elbow_angle)
    assert limits[1][0] - 1e-12 <= e <= limits[1][1] + 1e-12
    assert bool(sol.bend_overridden) == forced
    if not forced:
        assert bend * e >= 0 or abs(e) == math.pi


def test_an_excluded_bend_side_is_reported_and_the_limb_still_aims():
    # The arm: forearm limited to -100..-10 deg while the bend wants a positive elbow.
    limits = ((-math.pi, math.pi), (math.radians(-100), math.radians(-10)))
    target = (200.0, 60.0)
    sol = solve_two_bone(A, B, [0, 0], target, bend=1, limits=limits)
    assert bool(sol.limited) and bool(sol.bend_overridden)
    # Reachable with the elbow at -87 deg or so: the limits allow that, so it is reached.
    assert float(sol.residual) < 1e-9
    tight = ((-math.pi, math.pi), (math.radians(-100), math.radians(-10)))
    far = solve_two_bone(A, B, [0, 0], (30.0, 0.0), bend=1, limits=tight)
    best, forced = grid_best(A, B, (30.0, 0.0), tight, 1)
    assert forced and float(far.residual) == pytest.approx(best, abs=(A + B) * STEP)
    # Aimed: the end lies on the line from the shoulder to the target.
    assert abs(math.atan2(far.end[1], far.end[0])) < 1e-9


@pytest.mark.parametrize("strategy", ["stretch", "move_root"])
def test_strategies_start_from_the_closest_pose(strategy):
    limits = ((-math.pi, math.pi), (math.radians(60), math.radians(90)))
    # At least 60 deg of elbow: the aimed limb reaches 238.5 units; the target is 250 away.
    target = (0.0, 250.0)
    plain = solve_two_bone(A, B, [0, 0], target, limits=limits)
    sol = solve_two_bone(A, B, [0, 0], target, limits=limits, on_limit=strategy,
                         max_root_offset=20.0, root_time_constant=0.0)
    reach = math.hypot(A + B * math.cos(math.radians(60)), B * math.sin(math.radians(60)))
    assert float(plain.residual) == pytest.approx(250.0 - reach, abs=1e-9)
    assert float(sol.residual) < 1e-9  # within 10 % stretch / 20 units of lean


def test_vectorised_limits_equal_one_frame_at_a_time():
    rng = np.random.default_rng(3)
    targets = rng.uniform(-300, 300, (2000, 2))
    bend = rng.choice([-1.0, 1.0], 2000)
    limits = ((-1.0, 2.0), (-2.5, 0.7))
    many = solve_two_bone(A, B, [0, 0], targets, bend=bend, limits=limits)
    for k in rng.integers(0, 2000, 30):
        one = solve_two_bone(A, B, [0, 0], targets[k], bend=bend[k], limits=limits)
        assert float(one.residual) == pytest.approx(many.residual[k], abs=1e-9)
        assert bool(one.bend_overridden) == many.bend_overridden[k]
