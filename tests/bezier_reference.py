"""A reference evaluation of a cubic Bézier over (time, value...), for tests: the
curve's parameter found for a time by bisection (time rises along the curve), the
point by de Casteljau. Slow and plain, and independent of the sampler it checks."""
from __future__ import annotations

import numpy as np


def bezier_at(points, x: float, steps: int = 80) -> np.ndarray:
    """Values (all but the first coordinate) of the Bézier with control ``points``
    (4 rows of (time, value...)) at time ``x``."""
    p = np.asarray(points, dtype=float)

    def at(t):
        q = p
        while len(q) > 1:
            q = (1 - t) * q[:-1] + t * q[1:]
        return q[0]
    lo, hi = 0.0, 1.0
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if at(mid)[0] < x else (lo, mid)
    return at(0.5 * (lo + hi))[1:]


def bezier_slope_at(points, x: float, steps: int = 80) -> np.ndarray:
    """|d value / d time| of the same Bézier at time ``x`` (from its parameter found by
    bisection: the derivatives in the parameter, divided). Near a handle of zero length
    in time it grows without bound: a time known to float precision then gives the
    value only to slope x that precision."""
    p = np.asarray(points, dtype=float)
    lo, hi = 0.0, 1.0
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        q = p
        while len(q) > 1:
            q = (1 - mid) * q[:-1] + mid * q[1:]
        lo, hi = (mid, hi) if q[0][0] < x else (lo, mid)
    t = 0.5 * (lo + hi)
    d = 3 * ((1 - t) ** 2 * (p[1] - p[0]) + 2 * (1 - t) * t * (p[2] - p[1]) + t * t * (p[3] - p[2]))
    return np.abs(d[1:]) / max(abs(d[0]), 1e-300)
