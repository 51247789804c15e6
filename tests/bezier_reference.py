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
