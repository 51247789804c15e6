"""Two-bone IK whose tip bone is a point (Spine's length 0, ``Bone.measured_length``),
as Spine's runtimes play it.

The lower segment has no length, so the end is the joint: the first bone points its
segment at the target, and the tip bone lies straight on (0) where the target is at or
beyond the joint, folded back (pi on the bend's side) where it is nearer. Spine's
stretch then scales the first bone's frame by distance / upper segment (its reach).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from rigeditor.core.geometry import pair


def point_tip_result(ik, target, bend, upper):
    """``ik`` (an analytic IKResult) with the angles of a chain whose tip bone is a
    point: ``target`` (N, 2) in the shoulder space, ``bend`` (N,) +1/-1, ``upper`` the
    first segment's length in that space (model units; floats or (N,))."""
    d = np.sqrt(target[:, 0] * target[:, 0] + target[:, 1] * target[:, 1])
    first = np.arctan2(target[:, 1], target[:, 0])
    tip = np.where(d * d < upper * upper, np.pi * bend, 0.0)
    residual = np.abs(d - upper)
    return replace(ik, angles=pair(first, tip), residual=residual, directions=None,
                   reach=(np.broadcast_to(np.asarray(upper, dtype=float), d.shape),) * 2)
