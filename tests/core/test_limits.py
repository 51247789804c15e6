"""Root-offset smoothing (move_root) against the documented kernel written out frame by
frame, for shots of any length, including a smoothing window longer than the shot."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

from rigeditor.core.limits import smooth_offsets


def direct(offsets, tau):
    """Weights exp(-|k|/tau) for |k| <= ceil(6 tau), over the frames that exist,
    normalised by the weights used."""
    n = len(offsets)
    out = np.empty((n, 2))
    for i in range(n):
        k = np.arange(n) - i
        w = np.where(np.abs(k) <= np.ceil(6 * tau), np.exp(-np.abs(k) / tau), 0.0)
        out[i] = (w[:, None] * offsets).sum(axis=0) / w.sum()
    return out


@pytest.mark.parametrize("frames, tau", [(49, 5.0), (21, 2.0), (2, 1000.0), (3, 0.4), (200, 3.0), (3000, 400.0)])
def test_window_longer_than_the_shot(frames, tau):
    # 61-frame window on a 49-frame shot, the default 2 frames on a 21-frame one; the
    # last case takes the FFT path (a window of thousands of frames).
    rng = np.random.default_rng(frames)
    offsets = rng.normal(size=(frames, 2)) * 10
    out = smooth_offsets(offsets, tau)
    assert out.shape == offsets.shape
    np.testing.assert_allclose(out, direct(offsets, tau), rtol=1e-9, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(offsets=arrays(float, st.tuples(st.integers(1, 40), st.just(2)),
                      elements=st.floats(-100, 100)),
       tau=st.floats(0.05, 30.0))
def test_matches_the_direct_sum_for_any_length(offsets, tau):
    out = smooth_offsets(offsets, tau)
    np.testing.assert_allclose(out, direct(offsets, tau), rtol=1e-9, atol=1e-9)
    # A convex combination: a bound on the offsets' length still holds.
    bound = np.max(np.hypot(*offsets.T))
    assert np.all(np.hypot(*out.T) <= bound * (1 + 1e-12) + 1e-12)


def test_a_huge_time_constant_averages_the_shot():
    # Every weight is 1 within the shot: each frame gets the mean; no giant kernel.
    offsets = np.arange(10.0).repeat(2).reshape(10, 2)
    out = smooth_offsets(offsets, 1e300)
    np.testing.assert_allclose(out, np.full((10, 2), 4.5))
