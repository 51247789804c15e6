"""Root-offset smoothing (move_root) against a direct sum written here, for shots of
any length, including a smoothing window longer than the shot."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

from rigeditor.core.limits import smooth_offsets


def direct(offsets, tc):
    """Frame by frame: weights exp(-|k|/tc) for |k| <= ceil(6 tc), over the frames
    that exist, normalised by the weights used."""
    half = math.ceil(6 * tc)
    n = len(offsets)
    out = np.zeros((n, 2))
    for i in range(n):
        total = 0.0
        for j in range(max(0, i - half), min(n, i + half + 1)):
            w = math.exp(-abs(i - j) / tc)
            out[i] += w * offsets[j]
            total += w
        out[i] /= total
    return out


@pytest.mark.parametrize("frames, tc", [(49, 5.0), (21, 2.0), (2, 1000.0), (3, 0.4)])
def test_window_longer_than_the_shot(frames, tc):
    # 61-frame window on a 49-frame shot, the default 2 frames on a 21-frame one.
    rng = np.random.default_rng(frames)
    offsets = rng.normal(size=(frames, 2)) * 10
    out = smooth_offsets(offsets, tc)
    assert out.shape == offsets.shape
    np.testing.assert_allclose(out, direct(offsets, tc), rtol=1e-12, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(offsets=arrays(float, st.tuples(st.integers(1, 40), st.just(2)),
                      elements=st.floats(-100, 100)),
       tc=st.floats(0.05, 30.0))
def test_matches_the_direct_sum_for_any_length(offsets, tc):
    out = smooth_offsets(offsets, tc)
    np.testing.assert_allclose(out, direct(offsets, tc), rtol=1e-9, atol=1e-9)
    # A convex combination: a bound on the offsets' length still holds.
    bound = np.max(np.hypot(*offsets.T))
    assert np.all(np.hypot(*out.T) <= bound * (1 + 1e-12) + 1e-12)


def test_a_huge_time_constant_averages_the_shot():
    # Every weight is 1 within the shot: each frame gets the mean; no giant kernel.
    offsets = np.arange(10.0).repeat(2).reshape(10, 2)
    out = smooth_offsets(offsets, 1e300)
    np.testing.assert_allclose(out, np.full((10, 2), 4.5))
