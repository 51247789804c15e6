"""A single frame takes a plain-Python path; it must give what the vectorised path
gives for the same frame (forced here by solving it twice in one array)."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor.core.twobone import TwoBoneSolution, solve_two_bone

FIELDS = [f for f in TwoBoneSolution.__dataclass_fields__]


def _agree(one, pair, scale):
    for name in FIELDS:
        a, b = np.asarray(getattr(one, name)), np.asarray(getattr(pair, name))[0]
        assert a.shape == b.shape, name
        if a.dtype == bool:
            assert np.array_equal(a, b), name
        elif name in ("shoulder_angle", "elbow_angle"):
            assert np.allclose(np.cos(a - b), 1.0, rtol=0, atol=1e-24) or np.allclose(a, b, atol=1e-12), name
        else:
            assert np.allclose(a, b, rtol=1e-12, atol=1e-12 * scale), name


@settings(max_examples=300, deadline=None)
@given(a=st.floats(0.5, 500), b=st.floats(0.5, 500), tx=st.floats(-1200, 1200), ty=st.floats(-1200, 1200),
       bend=st.sampled_from([1, -1]), soft=st.floats(0.0, 50.0),
       strategy=st.sampled_from(["accept", "stretch", "move_root"]),
       limits=st.sampled_from([None, ((-math.pi, math.pi), (-math.pi, math.pi)), ((-1.0, 2.0), (-2.5, 2.5))]))
def test_one_frame_equals_the_vectorised_frame(a, b, tx, ty, bend, soft, strategy, limits):
    kw = dict(bend=bend, softness=soft, on_limit=strategy, max_root_offset=20.0, root_time_constant=0.0,
              limits=limits)
    one = solve_two_bone(a, b, [1.0, -2.0], [tx, ty], **kw)
    pair = solve_two_bone(a, b, [1.0, -2.0], [[tx, ty], [tx, ty]], **kw)
    assert isinstance(one.residual, np.ndarray) and one.residual.shape == ()
    _agree(one, pair, a + b)


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
