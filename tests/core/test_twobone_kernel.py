"""The kernel's forward kinematics rotate unit vectors instead of calling cos/sin; the
end must still be where the returned angles put it (written out here with cos/sin)."""
from __future__ import annotations

import numpy as np
import pytest

from rigeditor.core.twobone import solve_two_bone


@pytest.mark.parametrize("limits", [None, ((-1.0, 2.5), (-2.0, 1.5))])
def test_end_and_elbow_are_the_forward_kinematics_of_the_angles(limits):
    rng = np.random.default_rng(11)
    n = 200_000
    a, b = 150.0, 125.0
    targets = rng.uniform(-320, 320, (n, 2))
    targets[:50] = [[275.0, 0.0]] * 25 + [[25.0, 0.0]] * 25  # both reach bounds exactly
    bend = rng.choice([-1.0, 1.0], n)
    sol = solve_two_bone(a, b, [3.0, -4.0], targets, bend=bend, softness=rng.uniform(0, 20, n), limits=limits)
    s, e = sol.shoulder_angle, sol.elbow_angle
    elbow = np.stack([3.0 + a * np.cos(s), -4.0 + a * np.sin(s)], axis=-1)
    end = elbow + b * np.stack([np.cos(s + e), np.sin(s + e)], axis=-1)
    assert np.abs(sol.elbow - elbow).max() <= 1e-12 * (a + b)
    assert np.abs(sol.end - end).max() <= 1e-12 * (a + b)
    assert np.allclose(sol.residual, np.hypot(*(end - targets).T), rtol=0, atol=1e-12 * (a + b))
