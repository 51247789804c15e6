"""Two-bone IK whose first bone's frame is scaled unevenly (scale x != scale y), as
Spine's runtimes play it; written from the geometry and the runtime's results.

In the shoulder space, with the first bone turned by ``r``, the lower bone's end is
``R(r) (U + A cos t, B sin t)``: U = sx * upper (the joint, on the first bone's axis),
A = sx * lower, B = sy * lower (lower: the tip bone's length times its x scale), t the
tip bone's local rotation. Its ends lie on an ellipse about the joint, not a circle,
so the law of cosines does not apply. The end reaches a target at distance D where the
circle of radius D meets the ellipse: with x the end's coordinate along the first bone,
``(B^2 - A^2) x^2 - 2 B^2 U x + B^2 U^2 + A^2 D^2 - A^2 B^2 = 0`` and
``y^2 = D^2 - x^2``. Of its two roots Spine takes the one nearer the shoulder
(smaller |x|); where that meets no real point it poses the chain at the ellipse's
point nearest the shoulder or farthest from it (whichever distance the target is
closer to, halfway in squares): t = pi, t = 0, or the turning point
``cos t = -A U / (A^2 - B^2)`` when that lies in [-1, 1]. Spine does not stretch these
frames. Lengths in model units, angles in radians.
"""
from __future__ import annotations

import numpy as np

UNEVEN = 1e-4
"""|scale x - scale y| of the first bone above which its frame counts as uneven
(Spine's own threshold for its uniform solve)."""


def uneven_rows(psx, psy) -> np.ndarray:
    """Frames (bool, (N,)) whose first bone is scaled unevenly."""
    return np.abs(np.asarray(psx) - np.asarray(psy)) > UNEVEN


def solve_uneven(upper, lower, psx, psy, target, bend):
    """(first bone's rotation, tip bone's rotation, nearest, farthest) per frame:
    ``upper`` the first segment's unscaled length, ``lower`` the tip bone's length
    times its x scale, (psx, psy) > 0 the first bone's scale, ``target`` (N, 2) in the
    shoulder space, ``bend`` +1/-1. nearest / farthest: the end's reach (inner and
    outer distance from the shoulder), for the diagnostics. Arrays (N,)."""
    tx, ty = target[:, 0], target[:, 1]
    dd = tx * tx + ty * ty
    u, a, b = psx * upper, psx * lower, psy * lower
    aa, bb = a * a, b * b
    # The conic in x, c2 x^2 + c1 x + c0 = 0 (c2 != 0: the scales differ).
    c2, c1, c0 = bb - aa, -2.0 * bb * u, bb * u * u + aa * dd - aa * bb
    disc = c1 * c1 - 4.0 * c2 * c0
    root = np.sqrt(np.maximum(disc, 0.0))
    q = -0.5 * (c1 + np.where(c1 < 0, -root, root))  # the roots without cancellation
    safe_q = np.where(q != 0, q, 1.0)
    r0, r1 = q / np.where(c2 != 0, c2, 1.0), c0 / safe_q
    x = np.where(np.abs(r0) < np.abs(r1), r0, r1)
    yy = dd - x * x
    hit = (disc >= 0) & (yy >= 0) & (q != 0)
    y = np.sqrt(np.maximum(yy, 0.0)) * bend
    aim = np.arctan2(ty, tx)
    first = aim - np.arctan2(y, x)
    tip = np.arctan2(y / psy, (x - u) / psx)

    # No meeting point: the nearest or the farthest point of the ellipse.
    near_x, near_y, near_t = u - a, np.zeros_like(u), np.full_like(u, np.pi)
    far_x, far_y, far_t = u + a, np.zeros_like(u), np.zeros_like(u)
    c = -a * u / np.where(aa != bb, aa - bb, 1.0)
    turning = (c >= -1.0) & (c <= 1.0)
    ct = np.arccos(np.clip(c, -1.0, 1.0))
    kx, ky = a * np.cos(ct) + u, b * np.sin(ct)
    kd = kx * kx + ky * ky
    nearer, farther = turning & (kd < near_x * near_x), turning & (kd > far_x * far_x)
    near_x, near_y, near_t = (np.where(nearer, v, w) for v, w in ((kx, near_x), (ky, near_y), (ct, near_t)))
    far_x, far_y, far_t = (np.where(farther, v, w) for v, w in ((kx, far_x), (ky, far_y), (ct, far_t)))
    near_d, far_d = near_x * near_x + near_y * near_y, far_x * far_x + far_y * far_y
    inward = dd <= 0.5 * (near_d + far_d)
    px, py, pt = (np.where(inward, v, w) for v, w in ((near_x, far_x), (near_y, far_y), (near_t, far_t)))
    first = np.where(hit, first, aim - np.arctan2(py * bend, px))
    tip = np.where(hit, tip, pt * bend)
    return first, tip, np.sqrt(near_d), np.sqrt(far_d)


def uneven_result(ik, uneven, target, bend):
    """``ik`` (an analytic IKResult) with the frames ``uneven[0]`` solved on the ellipse:
    uneven = (rows, upper, lower, psx, psy) as :func:`solve_uneven` takes them (arrays
    or floats; upper: the child's x offset, as Spine measures it there, the child
    placed on the first bone's axis). Its angles, the solver's own residual and the
    reach there are the ellipse's; nothing is stretched there."""
    from dataclasses import replace

    from rigeditor.core.geometry import pair

    rows, upper, lower, psx, psy = uneven
    first, tip, near, far = solve_uneven(upper, lower, psx, psy, target, bend)
    # The end the solve reaches: R(first) (U + A cos t, B sin t).
    ex, ey = psx * (upper + lower * np.cos(tip)), psy * lower * np.sin(tip)
    cos, sin = np.cos(first), np.sin(first)
    rx, ry = cos * ex - sin * ey - target[:, 0], sin * ex + cos * ey - target[:, 1]
    inner, outer = (np.broadcast_to(np.asarray(v, dtype=float), rows.shape) for v in ik.reach)
    return replace(
        ik, angles=np.where(rows[:, None], pair(first, tip), ik.angles),
        stretch=np.where(rows, 1.0, ik.stretch),
        residual=np.where(rows, np.sqrt(rx * rx + ry * ry), ik.residual),
        reach=(np.where(rows, near, inner), np.where(rows, far, outer)), directions=None)
