"""Forward kinematics of a chain's bones all at once: one set of numpy calls for every
bone of every frame instead of one transform composed per bone.

A chain whose bones are not scaled is a run of rigid frames: bone i's frame is its
parent's moved to the bone's origin and turned by its local rotation. Relative to
the frame the chain hangs in, bone i is then turned by the cumulative sum of the
local rotations up to it (phi_i) and sits at the sum of each bone's offset turned by
the angle of the bone before it. Two cumulative sums along the bones and one sine
and cosine of phi give every frame; the parent frame (any affine) is applied last.

Every step is elementwise along the frames (sums run along the bones), so a frame
gets the same bits computed alone or in a range, and several chains' rows side by
side (``geometry.rows``) get the bits of each chain alone.
"""
from __future__ import annotations

import numpy as np

from rigeditor.core.geometry import Affine


def chain_frames(parent: Affine, ox: np.ndarray, oy: np.ndarray, theta: np.ndarray):
    """World frames of a run of B unscaled bones over M rows.

    parent: the frame the first bone hangs in (fields (M,) or scalars).
    ox, oy: (B, M) each bone's origin in its parent's frame (model units; the first
    bone's in ``parent``). theta: (B, M) local rotations (radians).
    Returns (fields, phi): the six (B, M) fields of the bones' world transforms
    (a, b, c, d, tx, ty as :class:`Affine` holds them) and phi (B, M), each bone's
    rotation relative to ``parent`` (radians, not wrapped).
    """
    phi = np.cumsum(theta, axis=0)
    cos, sin = np.cos(phi), np.sin(phi)
    # Bone i's origin in the chain's frame: offset i turned by phi_(i-1) (none for the first).
    ux, uy = np.empty_like(ox), np.empty_like(oy)
    ux[0], uy[0] = ox[0], oy[0]
    ux[1:] = ox[1:] * cos[:-1] - oy[1:] * sin[:-1]
    uy[1:] = ox[1:] * sin[:-1] + oy[1:] * cos[:-1]
    x, y = np.cumsum(ux, axis=0), np.cumsum(uy, axis=0)
    pa, pb, pc, pd = parent.a, parent.b, parent.c, parent.d
    fields = (pa * cos + pb * sin, pb * cos - pa * sin, pc * cos + pd * sin, pd * cos - pc * sin,
              pa * x + pb * y + parent.tx, pc * x + pd * y + parent.ty)
    return fields, phi
