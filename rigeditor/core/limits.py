"""Joint limits and the strategies that apply when one binds.

The reference text's point: once an angle is clamped the end no longer reaches the
target, so the rig must say what happens then. First the pose is made the best the
limits allow (:func:`nearest_within_limits`: of all poses within the limits, the one
whose end is closest to the target), then a strategy may act on the gap:

- ``accept``: keep the clamped pose; the residual shows the gap.
- ``stretch``: scale both bones about the shoulder, within 1 +/- max_stretch.
- ``move_root``: shift the shoulder toward the target by a bounded, smoothed offset.
"""
from __future__ import annotations


import numpy as np

LIMIT_STRATEGIES = ("accept", "stretch", "move_root")
_TAU = 2.0 * np.pi


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


def bound_length(vectors, max_length):
    """Vectors (..., 2) scaled down to at most ``max_length`` (>= 0, any size), directions kept."""
    n = np.hypot(vectors[..., 0], vectors[..., 1])
    over = n > max_length  # only there is n > 0 and the ratio below 1 (never overflows)
    scale = np.ones_like(n)
    np.divide(max_length, n, out=scale, where=over)
    return vectors * scale[..., None]


def smooth_offsets(offsets, time_constant):
    """Zero-phase exponential smoothing of per-frame root offsets, shape (N, 2).

    The kernel is exp(-|k| / time_constant) over k in frames, truncated at six time
    constants (and at the shot's length: a window longer than the shot is legal) and
    renormalised at the ends. Every output is a convex combination of inputs, so a
    bound on the offset's length still holds after smoothing; being symmetric it
    adds no lag, so a baked shot leans exactly when the hand needs it.
    ``time_constant`` is in frames (>= 0, any size; 0 returns the input).
    """
    offsets = np.asarray(offsets, dtype=float)
    n = offsets.shape[0]
    if time_constant <= 0 or n < 2:
        return offsets
    half = int(min(np.ceil(6.0 * time_constant), n - 1))
    k = np.arange(-half, half + 1)
    kernel = np.exp(-np.abs(k) / time_constant)
    columns = np.concatenate([np.ones((n, 1)), offsets], axis=1)
    smoothed = _convolve_columns(columns, kernel)[half:half + n]
    return smoothed[:, 1:] / smoothed[:, :1]


def _convolve_columns(columns, kernel):
    """Full convolution of each column of (N, C) with ``kernel``: direct for short
    kernels, by FFT for long ones (a window of 10^5 frames stays O(N log N))."""
    n, m = columns.shape[0], kernel.shape[0]
    if m <= 64 or n * m < 4_000_000:
        return np.stack([np.convolve(columns[:, c], kernel) for c in range(columns.shape[1])], axis=1)
    size = 1 << int(np.ceil(np.log2(n + m - 1)))
    spectrum = np.fft.rfft(columns, size, axis=0) * np.fft.rfft(kernel, size)[:, None]
    return np.fft.irfft(spectrum, size, axis=0)[:n + m - 1]


def elbow_pieces(bounds, bend):
    """Where an elbow bent to side ``bend`` (+1: angle in [0, pi] modulo 2 pi) may lie
    within ``bounds = (lo, hi)`` radians: a list of (lo, hi, shift) intervals within
    the bounds (one or two), where ``angle + shift`` maps a solver angle in [-pi, pi]
    into the interval, and whether the limits exclude that side altogether (then the
    other side's pieces are returned: the elbow must bend the other way).
    """
    lo, hi = float(bounds[0]), float(bounds[1])
    if hi - lo >= _TAU:
        return [(0.0, np.pi, 0.0) if bend > 0 else (-np.pi, 0.0, 0.0)], False
    pieces = []
    for k in range(int(np.floor(lo / _TAU)) - 1, int(np.ceil(hi / _TAU)) + 2):
        side = (k * _TAU, k * _TAU + np.pi) if bend > 0 else (k * _TAU - np.pi, k * _TAU)
        p0, p1 = max(lo, side[0]), min(hi, side[1])
        if p0 <= p1:
            pieces.append((p0, p1, k * _TAU))
    if pieces:
        return pieces, False
    return elbow_pieces(bounds, -bend)[0], True


def _inside(angle, bounds):
    """True where ``angle`` lies in ``bounds`` on the circle (a full turn is always inside)."""
    lo, hi = bounds
    if hi - lo >= _TAU:
        return np.ones(np.shape(angle), dtype=bool)
    return np.remainder(angle - lo, _TAU) <= hi - lo


def nearest_within_limits(a, b, tx, ty, bend, limits, shoulder, elbow, limited, overridden):
    """Replace each out-of-limits two-bone pose by the pose within the limits whose
    end is closest to the target, in place.

    a, b: bone lengths and tx, ty: the target relative to the shoulder, all in the
    same units (the solver passes limb lengths, so any scale works); scalars or (M,).
    bend: +1 / -1, scalar or (M,). limits: ((shoulder_lo, shoulder_hi), (elbow_lo,
    elbow_hi)) radians, the shoulder's on the circle. shoulder, elbow: (M,) the
    unconstrained solution, overwritten where it breaks a limit. limited, overridden:
    (M,) bool outputs: a limit binds; the limits exclude the saved bend side, so the
    pose bends the other way (only then: otherwise the elbow stays on its side).

    Exact for two bones: the optimum is the unconstrained solution if allowed, or
    lies on a bound. With the elbow on a bound, the best shoulder aims the end at
    the target, then clamps; with the shoulder on a bound, the best elbow aims the
    forearm at the target, then clamps. Those candidates are compared per frame.
    """
    s_bounds = (float(limits[0][0]), float(limits[0][1]))
    sides = {side: elbow_pieces(limits[1], side) for side in (1.0, -1.0)}
    scalar_bend = np.ndim(bend) == 0
    present = [float(bend)] if scalar_bend else [v for v in (1.0, -1.0) if np.any(bend == v)]

    def per_side(fn):
        """fn(pieces) -> bool (M,) evaluated with each frame's own side."""
        if scalar_bend:
            return fn(sides[float(bend)][0])
        return np.where(bend == 1.0, fn(sides[1.0][0]), fn(sides[-1.0][0]))

    def in_pieces(pieces, e):
        return np.logical_or.reduce([(e + t >= p0) & (e + t <= p1) for p0, p1, t in pieces])

    def into_pieces(pieces, e):
        """e written in the turn of the piece holding it (pieces beyond [-pi, pi])."""
        for p0, p1, t in pieces:
            if t:
                e = np.where((e + t >= p0) & (e + t <= p1), e + t, e)
        return e

    bad = ~_inside(shoulder, s_bounds) | ~per_side(lambda pieces: in_pieces(pieces, elbow))
    if any(t for pieces, _ in sides.values() for _, _, t in pieces):
        elbow[:] = np.where(bend == 1.0, into_pieces(sides[1.0][0], elbow), into_pieces(sides[-1.0][0], elbow))
    limited[:] = bad
    overridden[:] = False
    k = np.flatnonzero(bad)
    if not k.size:
        return

    def pick(v):
        return v if np.ndim(v) == 0 else v[k]

    a, b, tx, ty, bend_k = pick(a), pick(b), tx[k], ty[k], pick(bend)
    th0, e0 = shoulder[k], elbow[k]
    phi = np.arctan2(ty, tx)
    thetas, elbows, allowed = [], [], []

    def add(theta, e, mask):
        thetas.append(np.broadcast_to(theta, k.shape))
        elbows.append(np.broadcast_to(e, k.shape))
        allowed.append(np.broadcast_to(mask, k.shape))

    shoulder_bound = s_bounds[1] - s_bounds[0] < _TAU
    for side in present:
        pieces, forced = sides[side]
        mine = True if scalar_bend else bend_k == side
        for p0, p1, _ in pieces:
            for e in (p0, p1):  # elbow on a bound: aim the end, clamp the shoulder
                beta = np.arctan2(b * np.sin(e), a + b * np.cos(e))
                add(clamp_angle(phi - beta, s_bounds)[0], e, mine)
            if shoulder_bound:  # shoulder on a bound: aim the forearm, clamp the elbow
                for th in s_bounds:
                    aim = np.arctan2(ty - a * np.sin(th), tx - a * np.cos(th)) - th
                    add(th, clamp_angle(aim, (p0, p1))[0], mine)
        if forced:  # the mirror solution, bent the other way, if the limits allow it
            th, e = np.remainder(2.0 * phi - th0 + np.pi, _TAU) - np.pi, -e0
            add(th, into_pieces(pieces, e), mine & _inside(th, s_bounds) & in_pieces(pieces, e))
            overridden[k] |= mine
    theta, e = np.array(thetas), np.array(elbows)
    ex = a * np.cos(theta) + b * np.cos(theta + e)
    ey = a * np.sin(theta) + b * np.sin(theta + e)
    miss = np.where(np.array(allowed), np.hypot(ex - tx, ey - ty), np.inf)
    best = np.argmin(miss, axis=0)
    cols = np.arange(k.size)
    shoulder[k] = theta[best, cols]
    elbow[k] = e[best, cols]
