"""Reach of a two-bone chain and the two ways a target is eased in near it.

``reach_interval``: the band of distances a chain reaches. ``soft_distance``: RigEditor's
exponential soft reach (both bounds, smooth, never reached). ``quadratic_reach``: Spine's
softness (the outer bound only, reached again at ``outer + s``). Model units throughout.
"""
from __future__ import annotations

import numpy as np

__all__ = ["quadratic_reach", "reach_interval", "soft_distance"]


def reach_interval(upper, lower):
    """Inner and outer reach ``(|a - b|, a + b)`` of a two-bone chain (model units)."""
    upper = np.asarray(upper, dtype=float)
    lower = np.asarray(lower, dtype=float)
    return np.abs(upper - lower), upper + lower


def soft_distance(distance, inner, outer, softness):
    """Soft reach: compress ``distance`` near both reach bounds so it never gets there.

    Above ``outer - s`` it returns ``outer - s * exp(-(d - (outer - s)) / s)``; below
    ``inner + s`` the mirror image. Value and first derivative are continuous at the
    joins, and the result stays strictly inside (inner, outer) for every finite d.
    ``softness`` s is a length >= 0; it is capped at half the reach band so the two
    soft zones never overlap (an inner band is skipped when inner is zero: a chain
    with equal bones folds onto the shoulder, and zero distance is guarded elsewhere).
    With s == 0 (or below 1e-12 of ``outer``) the input is returned unchanged (the
    caller hard-clamps).
    """
    d = np.asarray(distance, dtype=float)
    s = np.minimum(np.asarray(softness, dtype=float), 0.5 * (outer - inner))
    # A width below 1e-12 of the limb is no softness (and d / s would overflow).
    s = np.where(s > 1e-12 * outer, s, 0.0)
    if not np.any(s > 0):
        return d
    s_safe = np.where(s > 0, s, 1.0)
    knee_out = outer - s
    out = outer - s_safe * np.exp(-np.maximum(d - knee_out, 0.0) / s_safe)
    result = np.where((s > 0) & (d > knee_out), out, d)
    knee_in = inner + s
    soft_inner = (s > 0) & (inner > 0) & (d < knee_in)
    if np.any(soft_inner):
        inn = inner + s_safe * np.exp(-np.maximum(knee_in - d, 0.0) / s_safe)
        result = np.where(soft_inner, inn, result)
    return result


def quadratic_reach(distance, outer, softness):
    """Spine's soft reach: ``distance`` d drawn in to ``outer - s (1 - u)^2`` with
    ``u = min(1, (d - (outer - s)) / (2 s))`` above ``outer - s``: the target eases in
    over [outer - s, outer + s] and is reached again (at full length) from there on;
    unchanged below, or where s is 0. No inner zone. Continuous with slope 1 at the
    knee and 0 from outer + s. Arrays (or floats) that broadcast; s >= 0, model units."""
    d = np.asarray(distance, dtype=float)
    s = np.asarray(softness, dtype=float)
    s_safe = np.where(s > 0, s, 1.0)
    u = np.minimum((d - (outer - s)) / (2.0 * s_safe), 1.0)
    eased = outer - s * (1.0 - u) * (1.0 - u)
    return np.where((s > 0) & (d > outer - s), eased, d)
