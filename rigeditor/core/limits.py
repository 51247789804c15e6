"""Joint limits and the strategies that apply when one binds.

The reference text's point: once an angle is clamped the end no longer reaches the
target, so the rig must say what happens then. Strategies:

- ``accept``: keep the clamped pose; the residual shows the gap.
- ``stretch``: scale both bones about the shoulder, within 1 +/- max_stretch.
- ``move_root``: shift the shoulder toward the target by a bounded, smoothed offset.
"""
from __future__ import annotations

import math

import numpy as np

LIMIT_STRATEGIES = ("accept", "stretch", "move_root")


def clamp_angle(angle, bounds):
    """Clamp angles (radians) into ``bounds = (lo, hi)`` on the circle.

    Returns (clamped, bound): the angle inside the bounds, and True where the bound
    actually moved it (not where only the turn it is written in changed).

    The angle is first wrapped into the turn centred on the middle of the bounds,
    so a bound across +/-pi behaves and an out-of-range angle goes to the nearer
    bound, not to the one that happens to be numerically closer.
    """
    lo, hi = float(bounds[0]), float(bounds[1])
    mid = 0.5 * (lo + hi)
    wrapped = mid + np.remainder(np.asarray(angle, dtype=float) - mid + np.pi, 2.0 * np.pi) - np.pi
    clamped = np.clip(wrapped, lo, hi)
    # An angle already inside the bounds comes back bit-for-bit, so "limited"
    # (result != input) never fires on wrap round-off alone.
    angle = np.asarray(angle, dtype=float)
    return np.where((angle >= lo) & (angle <= hi), angle, clamped), clamped != wrapped


def smooth_offsets(offsets, time_constant):
    """Zero-phase exponential smoothing of per-frame root offsets, shape (N, 2).

    The kernel is exp(-|k| / time_constant) over k in frames, truncated at six time
    constants and renormalised at the ends. Every output is a convex combination of
    inputs, so a bound on the offset's length still holds after smoothing; being
    symmetric it adds no lag, so a baked shot leans exactly when the hand needs it.
    ``time_constant`` is in frames (>= 0; 0 returns the input).
    """
    offsets = np.asarray(offsets, dtype=float)
    n = offsets.shape[0]
    if time_constant <= 0 or n < 2:
        return offsets
    # Weights further than the shot's length never meet a frame, so the window is cut
    # there: a window longer than the shot is legal and costs no more than the shot.
    half = n - 1 if 6.0 * time_constant >= n - 1 else math.ceil(6.0 * time_constant)
    k = np.arange(-half, half + 1)
    kernel = np.exp(-np.abs(k) / time_constant)
    # "full" and a slice rather than "same": numpy's "same" is as long as the longer
    # input, which is the kernel when the window outgrows the shot.
    centre = slice(half, half + n)
    weight = np.convolve(np.ones(n), kernel, mode="full")[centre]
    out = np.empty_like(offsets)
    for axis in range(offsets.shape[1]):
        out[:, axis] = np.convolve(offsets[:, axis], kernel, mode="full")[centre] / weight
    return out
