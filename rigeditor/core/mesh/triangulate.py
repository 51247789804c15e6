"""Constrained, quality-bounded triangulation of a polygon with holes.

scipy.spatial.Delaunay (Qhull) gives the Delaunay triangulation; hull edges it misses are
recovered by edge flips (Sloan's method); triangles outside the polygon are dropped by an
even-odd test; skinny triangles are refined by inserting circumcentres (Ruppert's rule:
a circumcentre that encroaches a hull edge splits that edge instead). Points are (V, 2)
floats, segments (S, 2) vertex index pairs, triangles (F, 3) indices with positive signed
area in the points' own axes. scipy is imported lazily.
"""
from __future__ import annotations

import numpy as np

__all__ = ["signed_areas", "min_angles", "inside", "constrained_delaunay", "refine", "edges_of"]

_EPS = 1e-12


def signed_areas(points, triangles):
    """Signed area of each triangle (…, F); leading axes of ``points`` (…, V, 2) broadcast."""
    p = np.asarray(points, float)
    a, b, c = (p[..., triangles[:, k], :] for k in range(3))
    return 0.5 * ((b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1]) - (b[..., 1] - a[..., 1]) * (c[..., 0] - a[..., 0]))


def min_angles(points, triangles):
    """Smallest interior angle of each triangle, degrees in [0, 60]."""
    p = np.asarray(points, float)[triangles]  # (F, 3, 2)
    e = np.roll(p, -1, axis=1) - p  # edge k runs from corner k to k+1
    lengths = np.hypot(e[..., 0], e[..., 1])
    # angle at corner k lies between edge k and the reversed edge k-1
    u, v = e, -np.roll(e, 1, axis=1)
    cos = np.sum(u * v, axis=2) / np.maximum(lengths * np.roll(lengths, 1, axis=1), _EPS)
    return np.degrees(np.arccos(np.clip(cos, -1.0, 1.0))).min(axis=1)


def edges_of(triangles):
    """Unique undirected edges (E, 2), smaller index first."""
    t = np.asarray(triangles)
    e = np.sort(np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]]), axis=1)
    if not len(e):
        return np.unique(e, axis=0)
    # one int64 key per edge, in the same (first, second) order: unique on rows is ~10x slower
    n = np.int64(e.max()) + 1
    key = np.unique(e[:, 0].astype(np.int64) * n + e[:, 1])
    return np.stack([key // n, key % n], axis=1).astype(e.dtype)


def inside(query, points, segments, chunk=4096):
    """Even-odd test: is each query point (N, 2) inside the polygon whose edges are
    ``segments`` of ``points`` (outer loops and holes alike)?"""
    q = np.asarray(query, float).reshape(-1, 2)
    a, b = points[segments[:, 0]], points[segments[:, 1]]
    out = np.zeros(len(q), bool)
    for s in range(0, len(q), chunk):
        x, y = q[s:s + chunk, :1], q[s:s + chunk, 1:]
        straddle = (a[:, 1] > y) != (b[:, 1] > y)
        with np.errstate(divide="ignore", invalid="ignore"):
            xc = a[:, 0] + (y - a[:, 1]) * (b[:, 0] - a[:, 0]) / (b[:, 1] - a[:, 1])
        out[s:s + chunk] = (np.count_nonzero(straddle & (x < xc), axis=1) % 2) == 1
    return out


def _orient(p, t):
    t = np.asarray(t, np.int64).reshape(-1, 3)
    flip = signed_areas(p, t) < 0
    t[flip] = t[flip][:, [0, 2, 1]]
    return t


def _cross(o, a, b):
    return (a[..., 0] - o[..., 0]) * (b[..., 1] - o[..., 1]) - (a[..., 1] - o[..., 1]) * (b[..., 0] - o[..., 0])


def _crosses(p, a, b, u, v):
    """Do segments a-b and u-v cross at a point interior to both?"""
    return (_cross(p[a], p[b], p[u]) * _cross(p[a], p[b], p[v]) < 0) and (
        _cross(p[u], p[v], p[a]) * _cross(p[u], p[v], p[b]) < 0)


def _recover_segment(p, t, a, b):
    """Flip edges crossing a-b until a-b is an edge of ``t`` (Sloan 1993: a queue of the
    crossing edges; a non-convex quad waits at the back, a new edge that still crosses
    joins it). Returns t, or None when a point lies on the open segment a-b (the caller
    splits the segment there)."""
    pa, pb = p[a], p[b]
    e = np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]])
    u, v = p[e[:, 0]], p[e[:, 1]]
    d1, d2 = _cross(pa, pb, u), _cross(pa, pb, v)
    d3, d4 = _cross(u, v, pa[None]), _cross(u, v, pb[None])
    hit = e[(d1 * d2 < 0) & (d3 * d4 < 0)]
    queue = list({(min(i, j), max(i, j)) for i, j in hit.tolist()})
    if not queue:
        return None
    t = t.copy()
    waited = 0
    while queue:
        i, j = queue.pop(0)
        has_i, has_j = np.any(t == i, axis=1), np.any(t == j, axis=1)
        pair = np.nonzero(has_i & has_j)[0]
        if len(pair) != 2:
            return None
        q1, q2 = (int(t[k][(t[k] != i) & (t[k] != j)][0]) for k in pair)
        if _cross(p[q1], p[q2], p[i]) * _cross(p[q1], p[q2], p[j]) >= 0:  # not convex: later
            queue.append((i, j))
            waited += 1
            if waited > 2 * len(queue) + 2:
                return None
            continue
        waited = 0
        t[pair[0]], t[pair[1]] = (q1, q2, i), (q2, q1, j)
        if _crosses(p, a, b, q1, q2):
            queue.append((min(q1, q2), max(q1, q2)))
    return _orient(p, t)


def constrained_delaunay(points, segments):
    """Triangulate ``points`` so every segment is an edge, keeping the triangles inside.

    Returns (points, segments, triangles): a segment with a point lying on it is split
    there (so points are unchanged but segments may be longer). Raises ValueError on
    duplicate points or fewer than 3 points.
    """
    from scipy.spatial import Delaunay, QhullError

    p = np.asarray(points, float)
    s = np.asarray(segments, np.int64).reshape(-1, 2)
    if len(p) < 3:
        raise ValueError(f"constrained_delaunay: need at least 3 points, got {len(p)}")
    if len(np.unique(np.round(p, 9), axis=0)) != len(p):
        raise ValueError("constrained_delaunay: two points coincide")
    # A frame of four far corners keeps every input point off the convex hull, where Qhull
    # would leave zero-area triangles along collinear hull points. Its triangles lie
    # outside the polygon and go with the even-odd test.
    lo, hi = p.min(axis=0), p.max(axis=0)
    pad = 0.5 * max(float((hi - lo).max()), 1.0)
    frame = np.array([[lo[0] - pad, lo[1] - pad], [hi[0] + pad, lo[1] - pad], [hi[0] + pad, hi[1] + pad], [lo[0] - pad, hi[1] + pad]])
    try:
        t = _orient(np.vstack([p, frame]), Delaunay(np.vstack([p, frame])).simplices)
    except QhullError as exc:
        raise ValueError(f"constrained_delaunay: points are degenerate (collinear?): {exc}") from None
    p = np.vstack([p, frame])
    present = set(map(tuple, edges_of(t).tolist()))
    pending = [tuple(x) for x in s.tolist()]
    done = []
    while pending:
        a, b = pending.pop()
        if (min(a, b), max(a, b)) not in present:
            new = _recover_segment(p, t, a, b)
            if new is None:
                m = _point_on_segment(p, a, b)
                if m is None:
                    raise ValueError(f"constrained_delaunay: cannot recover hull edge {a}-{b}")
                pending += [(a, m), (m, b)]
                continue
            t = new
            present = set(map(tuple, edges_of(t).tolist()))
        done.append((a, b))
    s = np.array(done[::-1], np.int64).reshape(-1, 2)
    keep = inside(p[t].mean(axis=1), p, s) & np.all(t < len(p) - 4, axis=1)
    return p[:-4], s, t[keep]


def _point_on_segment(p, a, b):
    ab = p[b] - p[a]
    rel = p - p[a]
    t = rel @ ab / max(ab @ ab, _EPS)
    dist = np.abs(rel[:, 0] * ab[1] - rel[:, 1] * ab[0]) / max(np.hypot(*ab), _EPS)
    ok = (t > 1e-9) & (t < 1 - 1e-9) & (dist < 1e-7 * max(np.hypot(*ab), 1.0))
    idx = np.nonzero(ok)[0]
    return int(idx[np.argmin(t[idx])]) if len(idx) else None


def _circumcentres(p, t):
    a, b, c = p[t[:, 0]], p[t[:, 1]], p[t[:, 2]]
    b, c = b - a, c - a
    d = 2 * (b[:, 0] * c[:, 1] - b[:, 1] * c[:, 0])
    d = np.where(np.abs(d) < 1e-300, np.nan, d)  # a flat triangle has no circumcentre
    bb, cc = np.sum(b * b, 1), np.sum(c * c, 1)
    ux = (c[:, 1] * bb - b[:, 1] * cc) / d
    uy = (b[:, 0] * cc - c[:, 0] * bb) / d
    return a + np.stack([ux, uy], 1)


def refine(points, segments, min_angle=25.0, min_edge=0.5, max_rounds=40):
    """Constrained Delaunay refined until every triangle's smallest angle is at least
    ``min_angle`` degrees (0..25; Ruppert's guarantee holds to 20.7, 25 converges in practice),
    except where an input corner is itself sharper, or an edge would get shorter than
    ``min_edge`` (pixels). Inserts points in batches, one Delaunay per round.

    Returns (points, segments, triangles).
    """
    from scipy.spatial import cKDTree

    p, s = np.asarray(points, float), np.asarray(segments, np.int64)
    p, s, t = constrained_delaunay(p, s)
    for _ in range(max_rounds):
        ang = min_angles(p, t)
        cent = _circumcentres(p, t)
        size = np.sqrt(np.abs(signed_areas(p, t)))
        bad = (ang < min_angle) & (size > min_edge) & np.all(np.isfinite(cent), axis=1)
        if not bad.any():
            break
        order = np.argsort(ang[bad])
        cand, csize = cent[bad][order], size[bad][order]
        bad_tris = t[bad][order]
        # Encroachment: a candidate inside a hull edge's diametral circle splits that edge.
        mid = 0.5 * (p[s[:, 0]] + p[s[:, 1]])
        half = 0.5 * np.hypot(*(p[s[:, 1]] - p[s[:, 0]]).T)
        tree = cKDTree(mid)
        near = tree.query_ball_point(cand, r=float(half.max()) + 1e-9)
        split = set()
        add = []
        inside_mask = inside(cand, p, s)
        seg_of = {(min(a, b), max(a, b)): j for j, (a, b) in enumerate(s.tolist())}
        for k, idx in enumerate(near):
            hit = [j for j in idx if np.hypot(*(cand[k] - mid[j])) < half[j] and half[j] > min_edge]
            if hit:
                split.update(hit)
            elif inside_mask[k]:
                add.append(k)
            else:  # outside yet encroaching nothing: a sliver along the hull; split the hull
                tri = bad_tris[k].tolist()  # edge it lies on (the longest), else the nearest
                own = [seg_of[e] for e in ((min(tri[i], tri[i - 1]), max(tri[i], tri[i - 1])) for i in range(3)) if e in seg_of]
                j = max(own, key=lambda j: half[j]) if own else int(tree.query(cand[k])[1])
                if half[j] > min_edge:
                    split.add(j)
        add = np.array(add, np.int64)
        if len(add):
            add = add[_thin(cand[add], csize[add], p)]
        split = sorted(split)
        if len(add) == 0 and not split:
            break
        m = len(p) + len(add) + np.arange(len(split))
        a, b = s[split, 0], s[split, 1]
        new_seg = np.concatenate([np.stack([a, m], 1), np.stack([m, b], 1)]).reshape(-1, 2)
        keep_seg = np.ones(len(s), bool)
        keep_seg[split] = False
        p = np.vstack([p, cand[add], mid[split]])
        s = np.vstack([s[keep_seg], new_seg])
        p, s, t = constrained_delaunay(p, s)
    return p, s, t


def _thin(cand, sizes, p):
    """Mask of new circumcentres to keep: drop one closer than a third of its triangle's
    size to an existing point or to an earlier (worse) candidate, since batched insertion
    would otherwise make slivers."""
    from scipy.spatial import cKDTree

    r = np.maximum(sizes / 3.0, 1e-9)
    d, _ = cKDTree(p).query(cand)
    keep = d > r
    pairs = cKDTree(cand).query_pairs(r=float(r.max()), output_type="ndarray")
    if len(pairs):
        close = np.hypot(*(cand[pairs[:, 0]] - cand[pairs[:, 1]]).T) < np.minimum(r[pairs[:, 0]], r[pairs[:, 1]])
        for i, j in sorted(map(tuple, np.sort(pairs[close], axis=1).tolist())):
            if keep[i]:  # candidates are sorted worst-first; the later one yields
                keep[j] = False
    return keep
