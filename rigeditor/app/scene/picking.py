"""What is under the pointer: target handles first, then bones, nearest first; and
which bone tip (for the tools that grab a tip)."""
from __future__ import annotations

import numpy as np

from rigeditor.app import style
from rigeditor.app.scene.layers import BONE_MAX_PX, BONE_MIN_PX, BONE_WIDTH

PICK_SLOP_PX = 3.0  # picking reaches this far beyond a handle or a bone's outline


def pick(state, structure, dm, pos, slots=None):
    """(kind, name) under viewport position ``pos`` (a QPointF), or None.

    A target is hit within HANDLE_RADIUS_PX + slop of its handle; a bone within its
    drawn half width (or the joint dot) + slop of its joint-tip segment. Targets win
    over bones, since a handle sits on the bone it drives; pictures come last (they lie
    under the rig): the front-most picture whose rectangle holds the point, when
    ``slots`` (the slot names, in the Bake's column order) is given."""
    p = np.array([pos.x(), pos.y()])
    if state.handle.size:
        d = np.hypot(*(dm(state.handle) - p).T)
        j = int(np.argmin(d))
        if d[j] <= style.HANDLE_RADIUS_PX + PICK_SLOP_PX:
            return ("target", state.targets[j])
    if state.joints.size:
        d0, d1 = dm(state.joints), dm(state.tips)
        v = d1 - d0
        length2 = np.sum(v * v, axis=1)
        t = np.clip(np.sum((p - d0) * v, axis=1) / np.maximum(length2, 1e-12), 0.0, 1.0)
        dist = np.hypot(*(d0 + v * t[:, None] - p).T)
        half = np.clip(BONE_WIDTH * np.sqrt(length2), BONE_MIN_PX, BONE_MAX_PX)
        reach = np.maximum(half, style.JOINT_RADIUS_PX) + PICK_SLOP_PX
        k = int(np.argmin(dist - reach))
        if dist[k] <= reach[k]:
            return ("bone", structure.bones[k])
    if slots is not None and state.art is not None:
        for s in reversed(state.art.drawn()):
            if _inside(dm(state.art.corners[s]), p):
                return ("slot", slots[s])
    return None


def _inside(quad, p) -> bool:
    """Whether ``p`` lies in the convex quadrilateral ``quad`` (4, 2), either winding."""
    edges = np.roll(quad, -1, axis=0) - quad
    cross = edges[:, 0] * (p[1] - quad[:, 1]) - edges[:, 1] * (p[0] - quad[:, 0])
    return bool(np.all(cross >= 0) or np.all(cross <= 0))


def pick_tip(state, dm, pos, radius_px: float):
    """Column of the bone whose tip is nearest viewport ``pos`` (a QPointF), if within
    ``radius_px`` pixels, else None. Where tips coincide, the first bone wins."""
    if not state.tips.size:
        return None
    d = np.hypot(*(dm(state.tips) - np.array([pos.x(), pos.y()])).T)
    k = int(np.argmin(d))
    return k if d[k] <= radius_px else None
