"""Vectorised 2D affine transforms and angle helpers.

A transform is a (…, 3, 3) homogeneous matrix acting on column vectors, y-up,
angles in radians counter-clockwise from +x. Leading axes are frames (or any
batch); every function broadcasts over them.
"""
from __future__ import annotations

import numpy as np

__all__ = [
    "identity", "trs", "compose", "invert", "apply", "apply_vector",
    "rotation_of", "scale_of", "translation_of", "is_mirrored",
    "wrap_angle", "unwrap",
]


def identity(shape=()):
    """Identity transforms of batch ``shape``: (*shape, 3, 3)."""
    return np.broadcast_to(np.eye(3), tuple(shape) + (3, 3)).copy()


def trs(tx=0.0, ty=0.0, rotation=0.0, sx=1.0, sy=1.0):
    """Translate * rotate * scale, broadcast over the arguments' shapes.

    tx, ty: translation (model units); rotation: radians CCW; sx, sy: scale
    factors (a negative sx mirrors, as a character facing left does).
    """
    tx, ty, rotation, sx, sy = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (tx, ty, rotation, sx, sy)))
    c, s = np.cos(rotation), np.sin(rotation)
    m = np.zeros(tx.shape + (3, 3))
    m[..., 0, 0] = c * sx
    m[..., 0, 1] = -s * sy
    m[..., 1, 0] = s * sx
    m[..., 1, 1] = c * sy
    m[..., 0, 2] = tx
    m[..., 1, 2] = ty
    m[..., 2, 2] = 1.0
    return m


def compose(outer, inner):
    """``outer @ inner``: apply ``inner`` first, then ``outer``."""
    return np.matmul(outer, inner)


def invert(m):
    """Inverse of affine transforms (…, 3, 3), closed form (no general solve)."""
    m = np.asarray(m, dtype=float)
    a, b, c, d = m[..., 0, 0], m[..., 0, 1], m[..., 1, 0], m[..., 1, 1]
    tx, ty = m[..., 0, 2], m[..., 1, 2]
    det = a * d - b * c
    if np.any(np.abs(det) < 1e-300):
        raise ValueError("invert: transform is singular (a scale of zero)")
    out = np.zeros_like(m)
    out[..., 0, 0] = d / det
    out[..., 0, 1] = -b / det
    out[..., 1, 0] = -c / det
    out[..., 1, 1] = a / det
    out[..., 0, 2] = -(out[..., 0, 0] * tx + out[..., 0, 1] * ty)
    out[..., 1, 2] = -(out[..., 1, 0] * tx + out[..., 1, 1] * ty)
    out[..., 2, 2] = 1.0
    return out


def apply(m, points):
    """Transform points (…, 2) by m (…, 3, 3); batch axes broadcast."""
    m = np.asarray(m, dtype=float)
    p = np.asarray(points, dtype=float)
    x = m[..., 0, 0] * p[..., 0] + m[..., 0, 1] * p[..., 1] + m[..., 0, 2]
    y = m[..., 1, 0] * p[..., 0] + m[..., 1, 1] * p[..., 1] + m[..., 1, 2]
    return np.stack([x, y], axis=-1)


def apply_vector(m, vectors):
    """Transform directions (…, 2): the linear part only, no translation."""
    m = np.asarray(m, dtype=float)
    v = np.asarray(vectors, dtype=float)
    x = m[..., 0, 0] * v[..., 0] + m[..., 0, 1] * v[..., 1]
    y = m[..., 1, 0] * v[..., 0] + m[..., 1, 1] * v[..., 1]
    return np.stack([x, y], axis=-1)


def translation_of(m):
    """Origin of the transformed frame, (…, 2)."""
    return np.asarray(m)[..., :2, 2].copy()


def rotation_of(m):
    """Angle of the transformed x axis, radians in (-pi, pi]."""
    m = np.asarray(m)
    return np.arctan2(m[..., 1, 0], m[..., 0, 0])


def scale_of(m):
    """Lengths of the transformed x and y axes, (…, 2); a mirror shows in is_mirrored."""
    m = np.asarray(m)
    return np.stack([np.hypot(m[..., 0, 0], m[..., 1, 0]), np.hypot(m[..., 0, 1], m[..., 1, 1])], axis=-1)


def is_mirrored(m):
    """True where the transform flips handedness (negative determinant)."""
    m = np.asarray(m)
    return (m[..., 0, 0] * m[..., 1, 1] - m[..., 0, 1] * m[..., 1, 0]) < 0


def wrap_angle(angle):
    """Wrap radians into [-pi, pi)."""
    return np.remainder(np.asarray(angle, dtype=float) + np.pi, 2.0 * np.pi) - np.pi


def unwrap(angle, axis=0):
    """Remove +/-2pi jumps along the frame axis, so curves export without seams."""
    return np.unwrap(np.asarray(angle, dtype=float), axis=axis)
