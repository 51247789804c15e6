"""Spine's quadratic soft reach: the map itself, against its closed form and slopes."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from rigeditor.core.twobone import quadratic_reach


def test_the_knee_and_the_full_reach_points():
    outer, s = 100.0, 10.0
    d = np.array([50.0, 90.0, 95.0, 100.0, 110.0, 500.0])
    # Below the knee unchanged; half way into the band (u = 1/4): 100 - 10 (3/4)^2.
    np.testing.assert_allclose(quadratic_reach(d, outer, s), [50.0, 90.0, 100 - 10 * 0.5625, 100 - 10 * 0.25,
                                                               100.0, 100.0], atol=1e-12)
    assert quadratic_reach(120.0, outer, 0.0) == 120.0  # no softness: unchanged (the solver clamps)


@settings(max_examples=80, deadline=None)
@given(st.floats(1.0, 100.0), st.floats(0.01, 0.5), st.floats(-0.99, 1.5))
def test_slope_is_one_at_the_knee_and_zero_at_full_reach(outer, fraction, where):
    s = fraction * outer
    d = outer - s + where * 2 * s
    h = 1e-6 * s
    slope = (quadratic_reach(d + h, outer, s) - quadratic_reach(d - h, outer, s)) / (2 * h)
    u = min(max(where, 0.0), 1.0)
    # d/dd of outer - s (1 - u)^2 with du/dd = 1 / 2s is (1 - u); 1 below the knee.
    assert abs(slope - (1.0 - u if where > 0 else 1.0)) < 1e-5
    assert quadratic_reach(d, outer, s) <= outer + 1e-12
