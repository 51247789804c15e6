"""Alpha images of simple drawn shapes (limbs as round-capped strokes), for examples,
tests and benchmarks. Pixel coordinates as in ``outline``: x right, y down."""
from __future__ import annotations

import numpy as np

__all__ = ["stroke_distance", "limb_alpha", "ExampleArm", "ExampleFingers"]


def stroke_distance(shape, points):
    """Distance (H, W) from each pixel centre to the polyline through ``points`` (N, 2)."""
    h, w = shape
    p = np.asarray(points, float).reshape(-1, 2)
    x = np.arange(w) + 0.5
    y = (np.arange(h) + 0.5)[:, None]
    best = np.full((h, w), np.inf)
    for a, b in zip(p, p[1:]) if len(p) > 1 else [(p[0], p[0])]:  # one point draws a dot
        ab = b - a
        t = np.clip(((x - a[0]) * ab[0] + (y - a[1]) * ab[1]) / max(float(ab @ ab), 1e-300), 0.0, 1.0)
        best = np.minimum(best, np.hypot(x - a[0] - t * ab[0], y - a[1] - t * ab[1]))
    return best


def limb_alpha(shape, strokes):
    """Alpha (H, W) in {0, 1}: the union of strokes, each (points, radius in pixels)."""
    alpha = np.zeros(shape)
    for points, radius in strokes:
        alpha[stroke_distance(shape, points) <= radius] = 1.0
    return alpha


class ExampleArm:
    """An arm drawn as one picture: upper arm, forearm bent up at the elbow, a round
    hand; three bones (upper arm, forearm, hand) in pixels."""

    shape = (200, 340)  # (height, width)
    shoulder, elbow, wrist, fingertip = (30.0, 130.0), (160.0, 130.0), (250.0, 60.0), (295.0, 35.0)
    bones = np.array([[shoulder, elbow], [elbow, wrist], [wrist, fingertip]])
    hand_centre, hand_radius = (282.0, 42.0), 30.0

    @classmethod
    def alpha(cls):
        return limb_alpha(cls.shape, [([cls.shoulder, cls.elbow, cls.wrist], 22.0), ([cls.hand_centre], cls.hand_radius)])


class ExampleFingers:
    """Two fingers 40 px wide side by side, 6 px apart, joined by a palm below; bones:
    palm, finger A, finger B."""

    shape = (240, 170)
    finger_a_x, finger_b_x = 60.0, 107.0
    gap = (81, 87)  # transparent columns
    bones = np.array([[(84.0, 225.0), (84.0, 185.0)], [(finger_a_x, 175.0), (finger_a_x, 25.0)],
                      [(finger_b_x, 175.0), (finger_b_x, 25.0)]])

    @classmethod
    def alpha(cls):
        a = np.zeros(cls.shape)
        a[15:185, 40:cls.gap[0]] = 1.0
        a[15:185, cls.gap[1]:128] = 1.0
        a[180:230, 40:128] = 1.0
        return a
