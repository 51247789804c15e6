"""One frame of the two-bone solve in plain Python floats: the editor's frame under the
hand, where numpy's per-call overhead (a few microseconds per operation, sixty of them)
would cost far more than the arithmetic.

Bit for bit what ``twobone._solve_block`` gives for the same frame: the frame on
screen during a drag must not move when the whole range lands. So every step below is
the kernel's own floating-point operation in the kernel's order (+ - * / and sqrt are
correctly rounded in both), and the transcendental functions are numpy's ufuncs
called on Python floats: numpy's SIMD arctan2 and exp are not libm's (they differ
from math.atan2 and math.exp in the last bit on a few percent of inputs), while one
ufunc gives the same bits on one value as on an array. Anything unusual (an array of
frames, a binding limit, a value to refuse) is left to the vectorised path, which also
words every error.
"""
from __future__ import annotations

import math
from functools import lru_cache
from numbers import Real

import numpy as np

from rigeditor.core.limits import elbow_pieces

_SMALL_SQUARE = 1e-290  # as in twobone: below it a squared length lost precision
_TAU = 2.0 * np.pi  # as in limits
_atan2, _exp, _hypot = np.arctan2, np.exp, np.hypot

_PLAIN = (float, int, np.float64)


def _number(v):
    """(value, has_frame_axis) for a plain number or a size-1 array; None otherwise."""
    if type(v) in _PLAIN or isinstance(v, Real):
        return float(v), False
    if isinstance(v, np.ndarray) and v.size == 1 and v.ndim <= 1:
        return float(v.reshape(())), v.ndim == 1
    return None


def _point(p):
    """(x, y, has_frame_axis) for a (2,) or (1, 2) point; None otherwise."""
    if isinstance(p, np.ndarray):
        if p.shape == (2,):
            return float(p[0]), float(p[1]), False
        if p.shape == (1, 2):
            return float(p[0, 0]), float(p[0, 1]), True
        return None
    if type(p) in (list, tuple) and len(p) == 2 and all(isinstance(x, Real) for x in p):
        return float(p[0]), float(p[1]), False
    return None


def _length(x, y):
    """twobone._length for one value (numpy's hypot, as there, where squares underflow)."""
    r2 = x * x + y * y
    return math.sqrt(r2) if r2 >= _SMALL_SQUARE else float(_hypot(x, y))


def _soft(d, inner, outer, s):
    """twobone.soft_distance for one frame."""
    s = min(s, 0.5 * (outer - inner))
    if not s > 1e-12 * outer:
        return d
    knee_out = outer - s
    result = outer - s * float(_exp(-max(d - knee_out, 0.0) / s)) if d > knee_out else d
    knee_in = inner + s
    if inner > 0 and d < knee_in:
        result = inner + s * float(_exp(-max(knee_in - d, 0.0) / s))
    return result


def _direction(prev_direction):
    """twobone._direction_before at the first frame: the unit ``prev_direction`` (default
    +x), or None when it is unusable (the vectorised path words the error)."""
    if prev_direction is None:
        return 1.0, 0.0
    p = _point(prev_direction)
    if p is None or not (math.isfinite(p[0]) and math.isfinite(p[1])):
        return None
    norm = float(_hypot(p[0], p[1]))
    return (p[0] / norm, p[1] / norm) if norm > 0 else None


@lru_cache(maxsize=64)
def _pieces(lo, hi, bend):
    """limits.elbow_pieces, remembered: a drag solves the same limits on every move."""
    return elbow_pieces((lo, hi), bend)[0]


def _within_limits(shoulder, elbow, bend, limits):
    """limits.nearest_within_limits for one frame whose pose already lies within the
    limits: the elbow as that function writes it (in the turn of the piece holding it),
    or None when a limit binds (the vectorised path finds the nearest allowed pose)."""
    (slo, shi), (elo, ehi) = limits.tolist()
    if not (shi - slo >= _TAU or (shoulder - slo) % _TAU <= shi - slo):
        return None
    pieces = _pieces(elo, ehi, bend)
    if not any(p0 <= elbow + t <= p1 for p0, p1, t in pieces):
        return None
    for p0, p1, t in pieces:
        if t and p0 <= elbow + t <= p1:
            elbow = elbow + t
    return elbow


def solve_one(upper, lower, shoulder, target, bend, softness, prev_direction, limits, on_limit,
              max_stretch, max_root_offset, eps, min_length, max_coordinate):
    """The solution's fields for a single frame of plain inputs, or None to take the
    vectorised path. Returns (frame_shape, floats, flags): floats are shoulder_angle,
    elbow_angle, elbow x, y, end x, y, distance, solve_distance, residual, stretch,
    root offset x, y; flags are limited and bend_overridden.

    Each step mirrors ``twobone._solve_block`` (and ``_rotations``, ``_forward``);
    change them together (tests/core/test_twobone_one.py compares every bit)."""
    nums = [_number(v) for v in (upper, lower, bend, softness)]
    pts = [_point(p) for p in (shoulder, target)]
    if None in nums or None in pts:
        return None
    (a, fa), (b, fb), (k, fk), (soft, fs) = nums
    sx, sy, fsh = pts[0]
    tx, ty, ft = pts[1]
    # One sum: NaN and inf propagate, and a sum within range puts each term within it
    # (a legal but extreme input merely takes the vectorised path).
    size = abs(a) + abs(b) + soft + abs(sx) + abs(sy) + abs(tx) + abs(ty)
    if not (size <= max_coordinate and a >= min_length and b >= min_length and (k == 1.0 or k == -1.0)
            and soft >= 0):
        return None  # the vectorised path words the error
    dx, dy = tx - sx, ty - sy
    raw = _length(dx, dy)
    inner, outer = abs(a - b), a + b
    guard = eps * outer
    if raw > guard:
        ux, uy = dx / raw, dy / raw
    else:
        carry = _direction(prev_direction)
        if carry is None:
            return None
        ux, uy = carry
    solve_d = _soft(raw, inner, outer, soft) if soft > 0 else raw
    d = min(max(solve_d, inner, guard), outer)  # (both bounds exact, as _solve_block)
    scale = 1.0 / outer
    an, bn = a * scale, b * scale
    dn = d * scale
    d2 = dn * dn
    cos_elbow = min(max((an * an + bn * bn - d2) * (0.5 / (an * bn)), -1.0), 1.0)
    cos_offset = min(max((d2 + (an * an - bn * bn)) / ((2.0 * an) * dn), -1.0), 1.0)
    if inner + guard >= outer:  # a bone shorter than the guard: straight (as _solve_block)
        cos_elbow, cos_offset = -1.0, 1.0
    inner_n, outer_n = abs(an - bn), an + bn  # (the small factors unscaled, as _solve_block)
    root = math.sqrt(max((outer_n + dn) * ((outer - d) * scale) * ((d - inner) * scale) * (dn + inner_n), 0.0))
    bs = root / ((2.0 * an) * dn) * k  # times +-1: exact, as the kernel's in-place product
    sin_elbow = root * (0.5 / (an * bn))
    c1 = ux * cos_offset + uy * bs
    s1 = uy * cos_offset - ux * bs
    shoulder_angle = float(_atan2(s1, c1))
    ce = -cos_elbow
    elbow_angle = float(_atan2(sin_elbow, ce)) * k
    se = sin_elbow * k
    # _rotations: both directions renormalised, then their complex product.
    n1 = math.sqrt(c1 * c1 + s1 * s1)
    c1, s1 = c1 / n1, s1 / n1
    ne = math.sqrt(ce * ce + se * se)
    ce, se = ce / ne, se / ne
    c12, s12 = c1 * ce - s1 * se, s1 * ce + c1 * se
    if limits is not None:
        elbow_angle = _within_limits(shoulder_angle, elbow_angle, k, limits)
        if elbow_angle is None:
            return None
    stretch, ox, oy = 1.0, 0.0, 0.0
    if on_limit != "accept":
        vx, vy = an * c1 + bn * c12, an * s1 + bn * s12
        if on_limit == "stretch":
            v2 = vx * vx + vy * vy
            if v2 > eps * eps:
                stretch = min(max((dx * vx + dy * vy) * scale / v2, 1.0 - max_stretch), 1.0 + max_stretch)
        else:  # move_root: limits.bound_length of the gap
            gx, gy = dx - vx * outer, dy - vy * outer
            n = float(_hypot(gx, gy))
            f = max_root_offset / n if n > max_root_offset else 1.0
            ox, oy = gx * f, gy * f
        # _forward with the strategy applied (the kernel adds even a zero offset).
        a, b = stretch * a, stretch * b
        sx, sy = sx + ox, sy + oy
    ex, ey = sx + a * c1, sy + a * s1
    px, py = ex + b * c12, ey + b * s12
    residual = _length(px - tx, py - ty)
    frame_shape = (1,) if (fa or fb or fk or fs or fsh or ft) else ()
    floats = (shoulder_angle, elbow_angle, ex, ey, px, py, raw, d, residual, stretch, ox, oy)
    return frame_shape, floats, (False, False)
