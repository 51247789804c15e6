"""Root-offset smoothing for any shot length and any time constant."""
from __future__ import annotations

import numpy as np
import pytest

from rigeditor.core.limits import smooth_offsets


def brute_smooth(offsets, tau):
    """The documented kernel written out frame by frame: exp(-|k|/tau), |k| <= 6 tau,
    renormalised where it runs off either end of the shot."""
    n = len(offsets)
    out = np.empty_like(offsets)
    for i in range(n):
        k = np.arange(n) - i
        w = np.where(np.abs(k) <= np.ceil(6 * tau), np.exp(-np.abs(k) / tau), 0.0)
        out[i] = (w[:, None] * offsets).sum(axis=0) / w.sum()
    return out


@pytest.mark.parametrize("n, tau", [(49, 5.0), (21, 2.0), (3, 1000.0), (2, 1e300), (200, 3.0), (3000, 400.0)])
def test_windows_longer_than_the_shot_smooth_like_the_kernel_says(n, tau):
    rng = np.random.default_rng(n)
    offsets = rng.uniform(-10, 10, (n, 2))
    got = smooth_offsets(offsets, tau)
    assert got.shape == (n, 2)
    assert np.allclose(got, brute_smooth(offsets, tau), rtol=0, atol=1e-9)
    # A convex combination: never longer than the longest input offset.
    assert np.hypot(*got.T).max() <= np.hypot(*offsets.T).max() + 1e-9
