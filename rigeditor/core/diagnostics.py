"""How hard a two-bone solve amplifies target noise.

Near full extension or full fold the law of cosines sits where d/dx acos(x)
diverges, so a one-unit wobble of the target can turn the elbow by ten degrees.
These functions make that visible per frame: an analytic sensitivity (degrees of
joint rotation per unit of target movement) and a direct noise test.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rigeditor.core.twobone import reach_interval, soft_distance, solve_two_bone
from rigeditor.core.twobone_one import _exp, _soft

MAX_RATE = 1e6
"""Cap on a joint rate (radians per unit): a singular pose reads as 'extreme', not inf."""
_TINY = float(np.finfo(float).tiny)

__all__ = ["JointRates", "joint_rates", "angle_sensitivity", "AngleJitter", "angle_jitter"]


@dataclass(frozen=True)
class JointRates:
    """Partial derivatives of the joint angles w.r.t. target motion, radians per unit.

    shoulder_radial: d(shoulder)/d(distance) with the bend sign removed.
    shoulder_tangential: d(shoulder)/d(sideways motion) = 1 / distance.
    elbow_radial: d(elbow)/d(distance) with the bend sign removed (the elbow
        angle depends on distance alone).
    """

    shoulder_radial: np.ndarray
    shoulder_tangential: np.ndarray
    elbow_radial: np.ndarray


def _soft_slope(raw, inner, outer, softness):
    """d(soft_distance)/d(raw): 1 in the free range, the exponential's slope in a soft zone."""
    s = np.minimum(np.asarray(softness, dtype=float), 0.5 * (outer - inner))
    s = np.where(s > 1e-12 * outer, s, 0.0)  # as soft_distance: below that, no softness
    s_safe = np.where(s > 0, s, 1.0)
    slope = np.ones(np.broadcast_shapes(np.shape(raw), np.shape(s)))
    over = (s > 0) & (raw > outer - s)
    under = (s > 0) & (inner > 0) & (raw < inner + s)
    # Both branches of np.where are computed: clip the exponents to <= 0 so the
    # branch not taken cannot overflow for a far target.
    slope = np.where(over, np.exp(np.minimum(-(raw - (outer - s)) / s_safe, 0.0)), slope)
    return np.where(under, np.exp(np.minimum(-((inner + s) - raw) / s_safe, 0.0)), slope)


def joint_rates(upper, lower, distance, *, softness=0.0, eps=1e-9) -> JointRates:
    """Analytic joint-angle rates at raw shoulder-target ``distance`` (model units).

    Follows the solver exactly: soft reach, then the hard clamp to
    [inner + eps * (a + b), outer] (``eps`` relative to the limb, as in the solver). Where the hard clamp holds the distance still, the radial
    rates are zero (the pose cannot follow); just inside the clamp they are at their
    largest, and at the exact bound they are capped at a large finite value
    (``MAX_RATE``) instead of infinity.
    """
    a = np.asarray(upper, dtype=float)
    b = np.asarray(lower, dtype=float)
    raw = np.asarray(distance, dtype=float)
    inner, outer = reach_interval(a, b)
    soft = soft_distance(raw, inner, outer, softness)
    d = np.clip(soft, inner + eps * outer, outer)
    slope = np.where(d == soft, _soft_slope(raw, inner, outer, softness), 0.0)
    # In limb lengths (a + b = 1) every product below stays O(1) at any scale; a rate
    # per limb length is a rate per unit times the limb's length, so the cap on a rate
    # per unit, MAX_RATE, bounds the denominators from below (and nothing overflows).
    a, b, d = a / outer, b / outer, d / outer
    cap = MAX_RATE * outer
    # Heron's formula keeps both sines accurate next to a degenerate triangle,
    # where sqrt(1 - cos^2) would lose every digit.
    heron = (a + b + d) * (b + d - a) * (a + d - b) * (a + b - d)
    area2 = 0.5 * np.sqrt(np.maximum(heron, 0.0))  # twice the triangle's area
    elbow = d / np.maximum(area2, d / cap) / outer  # d / (a b sin(gamma)), per unit
    num = d * d - a * a + b * b
    den = 2.0 * d * area2  # 2 a d^2 sin(alpha)
    shoulder = num / np.maximum(den, np.maximum(np.abs(num), _TINY) / cap) / outer
    tangential = np.minimum(1.0 / np.maximum(raw, eps * outer), MAX_RATE)
    return JointRates(shoulder_radial=shoulder * slope, shoulder_tangential=tangential, elbow_radial=elbow * slope)


def angle_sensitivity(upper, lower, distance, *, softness=0.0, eps=1e-9):
    """Worst-case joint rotation per unit of target movement, degrees per unit.

    The spectral norm of the Jacobian d(shoulder, elbow)/d(target): the largest
    change of the joint-angle vector that a unit step of the target in any
    direction can cause. Independent of the bend sign.
    """
    if np.shape(distance) == (1,) and np.size(softness) == 1 and np.size(upper) == 1 and np.size(lower) == 1:
        return np.array([_sensitivity_one(float(np.reshape(upper, ())), float(np.reshape(lower, ())),
                                          float(distance[0]), float(np.reshape(softness, ())), eps)])
    r = joint_rates(upper, lower, distance, softness=softness, eps=eps)
    # J in the (radial, tangential) basis is [[-s_r, t], [e_r, 0]] up to signs.
    sr, t, er = r.shoulder_radial, r.shoulder_tangential, r.elbow_radial
    trace = sr * sr + er * er + t * t
    det = er * t
    disc = np.sqrt(np.maximum(trace * trace - 4.0 * det * det, 0.0))
    return np.degrees(np.sqrt(0.5 * (trace + disc)))


def _sensitivity_one(a, b, raw, softness, eps):
    """:func:`angle_sensitivity` of one frame in Python floats: the same operations in
    the same order (the same bits as that frame of a range; see core.twobone_one),
    without forty numpy calls on one element."""
    inner, outer = abs(a - b), a + b
    soft = _soft(raw, inner, outer, softness)
    d = min(max(soft, inner + eps * outer), outer)
    slope = 0.0
    if d == soft:  # _soft_slope
        s = min(softness, 0.5 * (outer - inner))
        s = s if s > 1e-12 * outer else 0.0
        s_safe = s if s > 0 else 1.0
        slope = 1.0
        if s > 0 and raw > outer - s:
            slope = float(_exp(min(-(raw - (outer - s)) / s_safe, 0.0)))
        if s > 0 and inner > 0 and raw < inner + s:
            slope = float(_exp(min(-((inner + s) - raw) / s_safe, 0.0)))
    a, b, d = a / outer, b / outer, d / outer
    cap = MAX_RATE * outer
    heron = (a + b + d) * (b + d - a) * (a + d - b) * (a + b - d)
    area2 = 0.5 * math.sqrt(max(heron, 0.0))
    elbow = d / max(area2, d / cap) / outer
    num = d * d - a * a + b * b
    den = 2.0 * d * area2
    shoulder = num / max(den, max(abs(num), _TINY) / cap) / outer
    t = min(1.0 / max(raw, eps * outer), MAX_RATE)
    sr, er = shoulder * slope, elbow * slope
    trace = sr * sr + er * er + t * t
    det = er * t
    disc = math.sqrt(max(trace * trace - 4.0 * det * det, 0.0))
    return float(np.degrees(math.sqrt(0.5 * (trace + disc))))


@dataclass(frozen=True)
class AngleJitter:
    """Largest joint-angle change (degrees) a target displacement of ``amplitude`` causes, per frame."""

    shoulder_deg: np.ndarray
    elbow_deg: np.ndarray


def angle_jitter(upper, lower, shoulder, targets, amplitude, *, bend=1, softness=0.0, directions=16) -> AngleJitter:
    """Noise test: move each target by ``amplitude`` in ``directions`` evenly spaced
    directions, re-solve, and report the largest change of each joint angle.

    targets: (2,) or (N, 2); amplitude: model units (> 0). Degrees out, per frame.
    """
    if not (np.isfinite(amplitude) and amplitude > 0):
        raise ValueError(f"amplitude: must be > 0, got {amplitude!r}")
    targets = np.asarray(targets, dtype=float)
    bend = np.asarray(bend, dtype=float)
    base = solve_two_bone(upper, lower, shoulder, targets, bend=bend, softness=softness)
    turns = np.linspace(0.0, 2.0 * np.pi, int(directions), endpoint=False)
    offsets = amplitude * np.stack([np.cos(turns), np.sin(turns)], axis=-1)
    moved = solve_two_bone(
        np.asarray(upper, dtype=float)[..., None], np.asarray(lower, dtype=float)[..., None],
        np.asarray(shoulder, dtype=float)[..., None, :], targets[..., None, :] + offsets,
        bend=bend[..., None], softness=np.asarray(softness, dtype=float)[..., None],
    )

    def change(after, before):
        return np.degrees(np.abs(np.angle(np.exp(1j * (after - before[..., None]))))).max(axis=-1)

    return AngleJitter(
        shoulder_deg=change(moved.shoulder_angle, base.shoulder_angle),
        elbow_deg=change(moved.elbow_angle, base.elbow_angle),
    )
