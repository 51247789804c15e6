"""A single frame takes a plain-Python path: its shapes, its direction on the shoulder and
its refusals. That it equals the vectorised path bit for bit is
test_twobone.test_vectorised_equals_one_frame_at_a_time."""
from __future__ import annotations

import numpy as np
import pytest

from rigeditor.core.twobone import solve_two_bone


def test_one_frame_with_a_frame_axis_keeps_it():
    one = solve_two_bone(150.0, 125.0, np.zeros(2), np.array([[200.0, 30.0]]), bend=np.ones(1))
    assert one.end.shape == (1, 2) and one.residual.shape == (1,)
    assert one.residual[0] < 1e-9


def test_one_frame_on_the_shoulder_uses_prev_direction():
    one = solve_two_bone(150, 125, [0, 0], [0, 0], prev_direction=[0, -2])
    assert np.allclose(one.end, [0, -25], atol=1e-6)


@pytest.mark.parametrize("kwargs, name", [(dict(upper=float("nan")), "upper"), (dict(bend=0), "bend"),
                                          (dict(target=[float("inf"), 0.0]), "target"),
                                          (dict(prev_direction=[0, 0], target=[0, 0]), "prev_direction")])
def test_refusals_are_the_same_for_one_frame(kwargs, name):
    args = dict(upper=150.0, lower=125.0, shoulder=[0.0, 0.0], target=[200.0, 0.0])
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        solve_two_bone(args.pop("upper"), args.pop("lower"), args.pop("shoulder"), args.pop("target"), **args)
