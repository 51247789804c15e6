"""Outlines of an image's alpha: marching squares and Douglas-Peucker simplification.

Coordinates are image pixels: x to the right, y down, pixel (row r, column c) covers
[c, c+1] x [r, r+1], so its centre is (c + 0.5, r + 0.5). Loops are closed (the last point
is not repeated). numpy only.
"""
from __future__ import annotations

import numpy as np

__all__ = ["trace_outline", "simplify_loop", "loop_area", "segments_of_loops"]

# Edges of a unit cell: 0 top, 1 right, 2 bottom, 3 left; corner order tl, tr, br, bl.
_EDGE_MID = np.array([[0.5, 0.0], [1.0, 0.5], [0.5, 1.0], [0.0, 0.5]])
_CORNERS = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
_CORNER_EDGES = {0: (3, 0), 1: (0, 1), 2: (1, 2), 3: (2, 3)}  # the two edges at each corner


def _oriented(e1, e2, corner):
    """Order the segment e1-e2 so the inside corner lies on its left (cross > 0)."""
    a, b, c = _EDGE_MID[e1], _EDGE_MID[e2], _CORNERS[corner]
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (e1, e2) if cross > 0 else (e2, e1)


def _case_table():
    """Up to two oriented segments (from edge, to edge) per case; -1 pads."""
    table = -np.ones((16, 2, 2), dtype=np.int64)
    for case in range(16):
        inside = [k for k in range(4) if case >> (3 - k) & 1]
        if len(inside) in (0, 4):
            continue
        if len(inside) == 2 and abs(inside[0] - inside[1]) == 2:  # saddle: cut off each inside corner
            segs = [_oriented(*_CORNER_EDGES[k], k) for k in inside]
        else:
            crossing = [e for e in range(4) if (e in inside) != ((e + 1) % 4 in inside)]
            # edge e joins corners e and e+1; it is crossed when exactly one of them is inside
            segs = [_oriented(crossing[0], crossing[1], inside[0])]
        for s, seg in enumerate(segs):
            table[case, s] = seg
    return table


_TABLE = _case_table()


def trace_outline(alpha, level=0.5):
    """Closed contour loops of ``alpha`` at ``level`` (marching squares, linear interpolation).

    alpha: (H, W) array, any range (e.g. 0..1 or 0..255 with level 127.5). Outside the image
    counts as transparent, so every loop closes. Returns a list of (N, 2) float arrays in
    pixel coordinates (see module docstring). Outer boundaries have positive
    :func:`loop_area` (counter-clockwise in y-down coordinates, i.e. clockwise on screen),
    holes negative. Opaque diagonal neighbours are separated (4-connectivity).
    """
    a = np.asarray(alpha, dtype=float)
    if a.ndim != 2 or min(a.shape) < 1:
        raise ValueError(f"trace_outline: alpha must be a 2D array, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError("trace_outline: alpha contains NaN or inf")
    p = np.pad(a, 1, constant_values=min(a.min(), level) - 1.0)
    h2, w2 = p.shape
    on = p >= level
    case = (on[:-1, :-1] * 8 + on[:-1, 1:] * 4 + on[1:, 1:] * 2 + on[1:, :-1]).astype(np.int64)
    ci, cj = np.nonzero((case != 0) & (case != 15))
    segs = _TABLE[case[ci, cj]]  # (n, 2, 2)
    # Global edge ids: horizontal edge (i, j)-(i, j+1) is i*w2 + j; vertical (i, j)-(i+1, j) is
    # h2*w2 + i*w2 + j. Cell (i, j): top h(i, j), right v(i, j+1), bottom h(i+1, j), left v(i, j).
    base = h2 * w2
    edge_id = np.stack([ci * w2 + cj, base + ci * w2 + cj + 1, (ci + 1) * w2 + cj, base + ci * w2 + cj], axis=1)
    rows = np.repeat(np.arange(len(ci)), 2)
    flat = segs.reshape(-1, 2)
    valid = flat[:, 0] >= 0
    src = edge_id[rows[valid], flat[valid, 0]]
    dst = edge_id[rows[valid], flat[valid, 1]]
    succ = dict(zip(src.tolist(), dst.tolist()))
    ids = np.unique(src)
    pts = _edge_points(ids, p, level, w2, base)
    index = {e: k for k, e in enumerate(ids.tolist())}
    loops, seen = [], set()
    for start in ids.tolist():  # linking is sequential by nature; one step per boundary edge
        if start in seen:
            continue
        loop, e = [], start
        while e not in seen:
            seen.add(e)
            loop.append(index[e])
            e = succ[e]
        loops.append(pts[loop])
    return loops


def _edge_points(ids, p, level, w2, base):
    vertical = ids >= base
    k = np.where(vertical, ids - base, ids)
    i, j = k // w2, k % w2
    v0 = p[i, j]
    v1 = np.where(vertical, p[np.minimum(i + 1, p.shape[0] - 1), j], p[i, np.minimum(j + 1, w2 - 1)])
    t = (level - v0) / (v1 - v0)
    # padded index (i, j) is pixel (i-1, j-1), whose centre is (j - 0.5, i - 0.5)
    x = np.where(vertical, j - 0.5, j + t - 0.5)
    y = np.where(vertical, i + t - 0.5, i - 0.5)
    return np.stack([x, y], axis=1)


def loop_area(loop) -> float:
    """Signed area (shoelace), positive for counter-clockwise in the loop's own axes."""
    x, y = np.asarray(loop, float).T
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def simplify_loop(loop, tolerance):
    """Douglas-Peucker on a closed loop: no dropped point lies farther than ``tolerance``
    (pixels, >= 0) from the simplified outline. Keeps at least 3 points."""
    pts = np.asarray(loop, float)
    n = len(pts)
    if n <= 3 or tolerance <= 0:
        return pts.copy()
    far = int(np.argmax(np.sum((pts - pts[0]) ** 2, axis=1)))
    keep = np.zeros(n, bool)
    keep[[0, far]] = True
    closed = np.vstack([pts, pts[:1]])
    stack = [(0, far), (far, n)]
    while stack:
        lo, hi = stack.pop()
        if hi - lo < 2:
            continue
        a, b = closed[lo], closed[hi]
        mid = closed[lo + 1:hi]
        ab = b - a
        # distance to the chord as a segment (a point past its ends is not near it)
        t = np.clip((mid - a) @ ab / max(float(ab @ ab), 1e-300), 0.0, 1.0)
        d = np.hypot(*(mid - a - t[:, None] * ab).T)
        k = int(np.argmax(d))
        if d[k] > tolerance:
            m = lo + 1 + k
            keep[m % n] = True
            stack += [(lo, m), (m, hi)]
    if keep.sum() < 3:  # a sliver: keep the two farthest points and the one farthest from them
        u, v = pts - pts[0], pts[far] - pts[0]
        keep[int(np.argmax(np.abs(u[:, 0] * v[1] - u[:, 1] * v[0])))] = True
    return pts[keep]


def segments_of_loops(loops):
    """Stack loops into one point array and (S, 2) index pairs joining each loop's points."""
    points, segments, offset = [], [], 0
    for loop in loops:
        n = len(loop)
        idx = np.arange(n) + offset
        segments.append(np.stack([idx, np.roll(idx, -1)], axis=1))
        points.append(np.asarray(loop, float))
        offset += n
    if not points:
        return np.zeros((0, 2)), np.zeros((0, 2), np.int64)
    return np.vstack(points), np.vstack(segments)
