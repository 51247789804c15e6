"""A bone's world frame from its parent's as Spine defines it: shear and inherit modes.

Vectorised over frames. The bone's local 2x2 is ``[[sx cos(r + shx), -sy sin(r + shy)],
[sx sin(r + shx), sy cos(r + shy)]]`` (r rotation, (sx, sy) scale, (shx, shy) shear,
radians): shear x turns the x axis, shear y the y axis. Its origin is always the parent's
full transform of its offset; what the 2x2 takes from the parent's 2x2 ``P`` depends on
the inherit mode (as Spine's runtimes behave; written here from that behaviour):

- ``normal``: ``P . L``.
- ``onlyTranslation``: ``L`` (nothing of the parent's rotation, scale or shear).
- ``noRotationOrReflection``: the parent's rotation and mirror are left out, its scale
  and shear kept: with ``t`` the angle of P's x axis, ``P`` becomes
  ``R(t) . diag(|x|, |det P| / |x|)`` and the local rotation is measured from ``t``
  (``R(t) D R(-t) L``). Where P's x axis is nearly nil (``|x|^2 <= 1e-4``) only P's y
  axis ``(b, d)`` is kept, as ``(-b, d)``, and ``t`` is ``90 deg - angle(b, d)``.
- ``noScale`` / ``noScaleOrReflection``: the bone's direction is the parent's image of
  its own rotation (``P . (cos r, sin r)``, made unit), its y axis a right angle further,
  flipped where P mirrors for ``noScale`` only; then its own scale and shear. A direction
  whose image is under 1e-5 long is not made unit.
"""
from __future__ import annotations

import numpy as np

from rigeditor.core.geometry import Affine

INHERIT_MODES = ("normal", "onlyTranslation", "noRotationOrReflection", "noScale", "noScaleOrReflection")
"""Spine's inherit modes; their index is the code sampled per frame."""


def local_matrix(rotation, scale, shear):
    """(a, b, c, d) of the local 2x2, arrays (N,); scale and shear (N, 2)."""
    rx, ry = rotation + shear[:, 0], rotation + shear[:, 1]
    return (np.cos(rx) * scale[:, 0], -np.sin(ry) * scale[:, 1], np.sin(rx) * scale[:, 0], np.cos(ry) * scale[:, 1])


def decompose(a, b, c, d):
    """The inverse of :func:`local_matrix` with shear x 0: (rotation, scale (N, 2), shear
    (N, 2)) of 2x2 matrices ``[[a, b], [c, d]]`` (arrays (N,)). Rotation is the x axis'
    angle, scale x its length, scale y the y axis' length signed as the determinant (a
    mirror), shear y the y axis' turn from a right angle, in (-pi, pi]. A nil x axis
    reads as rotation 0; both nil as scale 0, shear 0."""
    a, b, c, d = (np.asarray(v, dtype=float) for v in (a, b, c, d))
    rotation = np.arctan2(c, a)
    sx = np.hypot(a, c)
    sign = np.where(a * d - b * c < 0, -1.0, 1.0)
    sy = sign * np.hypot(b, d)
    # The y axis is sy (-sin(r + shy), cos(r + shy)).
    turn = np.arctan2(-b * sign, d * sign) - rotation
    shear_y = np.where(sy != 0, np.pi - np.mod(np.pi - turn, 2 * np.pi), 0.0)
    return rotation, np.stack([sx, sy], axis=-1), np.stack([np.zeros_like(sx), shear_y], axis=-1)


def bone_world(parent: Affine, ox, oy, rotation, scale, shear, codes) -> Affine:
    """The world transform of a bone: parent (N frames), its offset (ox, oy) in the
    parent's frame, local rotation (N,), scale (N, 2), shear (N, 2), inherit codes (N,)
    into INHERIT_MODES (or one int for every frame)."""
    n = np.shape(rotation)[0]
    pa, pb, pc, pd = (np.broadcast_to(np.asarray(v, dtype=float), (n,)) for v in (parent.a, parent.b, parent.c,
                                                                               parent.d))
    ox, oy = np.broadcast_to(ox, (n,)), np.broadcast_to(oy, (n,))
    tx = pa * ox + pb * oy + parent.tx
    ty = pc * ox + pd * oy + parent.ty
    codes = np.broadcast_to(np.asarray(codes, dtype=int), (n,))
    a, b, c, d = (np.empty(n) for _ in range(4))
    for code in np.unique(codes):
        m = codes == code
        parts = _modes[int(code)](pa[m], pb[m], pc[m], pd[m], rotation[m], scale[m], shear[m])
        for out, part in zip((a, b, c, d), parts):
            out[m] = part
    return Affine(a, b, c, d, tx, ty)


def _times(pa, pb, pc, pd, la, lb, lc, ld):
    return pa * la + pb * lc, pa * lb + pb * ld, pc * la + pd * lc, pc * lb + pd * ld


def _normal(pa, pb, pc, pd, r, s, sh):
    return _times(pa, pb, pc, pd, *local_matrix(r, s, sh))


def _only_translation(pa, pb, pc, pd, r, s, sh):
    return local_matrix(r, s, sh)


def _no_rotation(pa, pb, pc, pd, r, s, sh):
    xx = pa * pa + pc * pc
    usable = xx > 1e-4
    safe = np.where(usable, xx, 1.0)
    k = np.abs(pa * pd - pb * pc) / safe
    # Usable x axis: P' = [[pa, -pc k], [pc, pa k]] (rotation t and that axis' scale, the
    # area kept in y); else only P's y axis, its x part mirrored, and t from it.
    qa, qc = np.where(usable, pa, 0.0), np.where(usable, pc, 0.0)
    qb, qd = np.where(usable, -pc * k, -pb), np.where(usable, pa * k, pd)
    t = np.where(usable, np.arctan2(pc, pa), np.pi / 2 - np.arctan2(pd, pb))
    return _times(qa, qb, qc, qd, *local_matrix(r - t, s, sh))


def _no_scale(pa, pb, pc, pd, r, s, sh, reflect=True):
    cos, sin = np.cos(r), np.sin(r)
    za, zc = pa * cos + pb * sin, pc * cos + pd * sin
    length = np.hypot(za, zc)
    unit = length > 1e-5
    factor = np.where(unit, 1.0 / np.where(unit, length, 1.0), length)
    za, zc = za * factor, zc * factor
    size = np.hypot(za, zc)
    if reflect:
        size = np.where(pa * pd - pb * pc < 0, -size, size)
    norm = np.where(size != 0, np.hypot(za, zc), 1.0)
    # The y axis: a right angle past the direction, as long as it (signed).
    zb, zd = -zc / np.where(norm > 0, norm, 1.0) * size, za / np.where(norm > 0, norm, 1.0) * size
    return _times(za, zb, zc, zd, *local_matrix(np.zeros_like(r), s, sh))


def _no_scale_or_reflection(pa, pb, pc, pd, r, s, sh):
    return _no_scale(pa, pb, pc, pd, r, s, sh, reflect=False)


_modes = (_normal, _only_translation, _no_rotation, _no_scale, _no_scale_or_reflection)
