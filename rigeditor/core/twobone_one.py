"""One frame of the two-bone solve in plain Python floats: the editor's frame under the
hand, where numpy's per-call overhead (a few microseconds per operation, sixty of them)
would cost far more than the arithmetic.

The same math as ``twobone._solve_block`` in the same order, so both agree to rounding
(1e-12); anything unusual (an array of frames, a binding limit, a value to refuse) is
left to the vectorised path, which also words every error.
"""
from __future__ import annotations

import math
from numbers import Real

import numpy as np

_SMALL_SQUARE = 1e-290  # as in twobone: below it a squared length lost precision


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
    r2 = x * x + y * y
    return math.sqrt(r2) if r2 >= _SMALL_SQUARE else math.hypot(x, y)


def _soft(d, inner, outer, s):
    """twobone.soft_distance for one frame."""
    s = min(s, 0.5 * (outer - inner))
    if not s > 1e-12 * outer:
        return d
    knee_out = outer - s
    result = outer - s * math.exp(-max(d - knee_out, 0.0) / s) if d > knee_out else d
    knee_in = inner + s
    if inner > 0 and d < knee_in:
        result = inner + s * math.exp(-max(knee_in - d, 0.0) / s)
    return result


def solve_one(upper, lower, shoulder, target, bend, softness, prev_direction, limits, on_limit,
              max_stretch, max_root_offset, eps, min_length, max_coordinate):
    """The solution's fields for a single frame of plain inputs, or None to take the
    vectorised path. Returns (frame_shape, floats, flags): floats are shoulder_angle,
    elbow_angle, elbow x, y, end x, y, distance, solve_distance, residual, stretch,
    root offset x, y; flags are limited and bend_overridden."""
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
    if raw > eps * outer:
        ux, uy = dx / raw, dy / raw
    elif prev_direction is None:
        ux, uy = 1.0, 0.0
    else:
        p = _point(prev_direction)
        norm = math.hypot(p[0], p[1]) if p is not None and math.isfinite(p[0]) and math.isfinite(p[1]) else 0.0
        if not norm > 0:
            return None
        ux, uy = p[0] / norm, p[1] / norm
    solve_d = _soft(raw, inner, outer, soft) if soft > 0 else raw
    d = min(max(solve_d, inner + eps * outer), outer)
    scale = 1.0 / outer
    an, bn = a * scale, b * scale
    dn = d * scale
    d2 = dn * dn
    cos_elbow = min(max((an * an + bn * bn - d2) * (0.5 / (an * bn)), -1.0), 1.0)
    cos_offset = min(max((d2 + (an * an - bn * bn)) / ((2.0 * an) * dn), -1.0), 1.0)
    inner_n, outer_n = abs(an - bn), an + bn
    root = math.sqrt(max((outer_n + dn) * (outer_n - dn) * (dn - inner_n) * (dn + inner_n), 0.0))
    bs = root / ((2.0 * an) * dn) * k
    shoulder_angle = math.atan2(uy * cos_offset - ux * bs, ux * cos_offset + uy * bs)
    elbow_angle = math.atan2(root * (0.5 / (an * bn)), -cos_elbow) * k
    if limits is not None:
        (slo, shi), (elo, ehi) = limits
        inside_s = shi - slo >= 2 * math.pi or (shoulder_angle - slo) % (2 * math.pi) <= shi - slo
        # Only the plain case: the elbow inside its bounds as written, on the saved side.
        if not (inside_s and elo <= elbow_angle <= ehi):
            return None
    c1, s1 = math.cos(shoulder_angle), math.sin(shoulder_angle)
    total = shoulder_angle + elbow_angle
    c12, s12 = math.cos(total), math.sin(total)
    stretch, ox, oy = 1.0, 0.0, 0.0
    if on_limit == "stretch":
        vx, vy = an * c1 + bn * c12, an * s1 + bn * s12
        v2 = vx * vx + vy * vy
        if v2 > eps * eps:
            stretch = min(max((dx * vx + dy * vy) * scale / v2, 1.0 - max_stretch), 1.0 + max_stretch)
    elif on_limit == "move_root":
        vx, vy = an * c1 + bn * c12, an * s1 + bn * s12
        gx, gy = dx - vx * outer, dy - vy * outer
        n = math.hypot(gx, gy)
        f = max_root_offset / n if n > max_root_offset else 1.0
        ox, oy = gx * f, gy * f
    if on_limit != "accept":
        a, b = stretch * a, stretch * b
        sx, sy = sx + ox, sy + oy
    ex, ey = sx + a * c1, sy + a * s1
    px, py = ex + b * c12, ey + b * s12
    residual = _length(px - tx, py - ty)
    frame_shape = (1,) if (fa or fb or fk or fs or fsh or ft) else ()
    floats = (shoulder_angle, elbow_angle, ex, ey, px, py, raw, d, residual, stretch, ox, oy)
    return frame_shape, floats, (False, False)
