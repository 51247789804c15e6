"""Linear blend skinning and seam diagnostics, vectorised over vertices and frames.

v'(t) = Σ_b w_b · M_b(t) · M_b(bind)⁻¹ · v. Bone transforms are affine (…, B, 2, 3)
arrays, rows (a, b, tx) and (c, d, ty): x' = a·x + b·y + tx, y' = c·x + d·y + ty.
Weights come in the padded layout of ``weights.to_padded``: indices (V, k) and weights
(V, k), k = 4.

Memory: 10,000 vertices over 10,000 frames are 1.6 GB of float64, so nothing keeps all
deformed frames. One frame is computed on demand (a few microseconds for thousands of
vertices); whole-range consumers (diagnostics, export checks) walk :func:`deform_chunks`,
which bounds the working set (32 MB by default) and reduces each block to what they need.

The skin operator folds weights and bind positions into one (6B, 2V) matrix G, so every
frame is one row of skin coefficients C (6B) and the deformed vertices are C @ G: a range
of frames is a single matrix product (BLAS), laid out (F, V, 2) with no transpose.
"""
from __future__ import annotations

import numpy as np

from .mesh.triangulate import signed_areas

__all__ = [
    "affine_rows", "skin_transforms", "skin_operator", "deform", "deform_chunks", "area_ratios",
    "COLLAPSE_RATIO", "collapse_flags", "edge_operator", "worst_area_ratio",
]

COLLAPSE_RATIO = 0.3  # a triangle below 30 % of its bind area (or flipped) has collapsed


def affine_rows(affine):
    """A ``core.geometry.Affine`` (fields shaped (…)) -> (…, 2, 3) rows."""
    f = np.broadcast_arrays(affine.a, affine.b, affine.tx, affine.c, affine.d, affine.ty)
    return np.stack(f, axis=-1).reshape(*np.shape(f[0]), 2, 3)


def skin_transforms(world, bind):
    """M(t) · M(bind)⁻¹ per bone: world (…, B, 2, 3) over frames, bind (B, 2, 3)."""
    w, b = np.asarray(world, float), np.asarray(bind, float)
    lin = b[..., :2]
    det = lin[..., 0, 0] * lin[..., 1, 1] - lin[..., 0, 1] * lin[..., 1, 0]
    if np.any(np.abs(det) < 1e-300):
        raise ValueError(f"skin_transforms: bind transform of bone {int(np.argmin(np.abs(det)))} is singular")
    inv = np.stack([lin[..., 1, 1], -lin[..., 0, 1], -lin[..., 1, 0], lin[..., 0, 0]], -1).reshape(*lin.shape) / det[..., None, None]
    inv_t = -np.einsum("bij,bj->bi", inv, b[..., 2])
    out = np.empty(np.broadcast_shapes(w.shape, b.shape))
    out[..., :2] = w[..., :2] @ inv
    out[..., 2] = np.einsum("...ij,...j->...i", w[..., :2], inv_t) + w[..., 2]
    return out


def skin_operator(vertices, indices, weights, n_bones):
    """G (6B, 2V) with C @ G = deformed vertices, C the flattened (B, 2, 3) skin rows.
    ``vertices`` (V, 2), or (V, k, 2): each influence's own point (a mesh whose bones
    do not agree where the vertex was at bind)."""
    v = np.asarray(vertices, float)
    idx, w = np.asarray(indices, np.int64), np.asarray(weights, float)
    per = v if v.ndim == 3 else None
    if per is not None:
        if per.shape[:2] != idx.shape:
            raise ValueError(f"skin_operator: influence points {per.shape} must be (V, k, 2) as indices {idx.shape}")
        v = per[:, 0, :]
    if idx.shape != w.shape or idx.shape[0] != len(v):
        raise ValueError(f"skin_operator: indices {idx.shape} and weights {w.shape} must be (V={len(v)}, k)")
    if not (np.all(np.isfinite(v)) and np.all(np.isfinite(w)) and (per is None or np.all(np.isfinite(per)))):
        raise ValueError("skin_operator: vertices or weights contain NaN or inf")
    if len(idx) and (idx.min() < 0 or idx.max() >= n_bones):
        raise ValueError(f"skin_operator: bone index out of range 0..{n_bones - 1}")
    g = np.zeros((n_bones, 2, 3, len(v), 2))
    cols = np.repeat(np.arange(len(v)), idx.shape[1])
    bone = idx.ravel()
    wx = w * (v[:, :1] if per is None else per[..., 0])
    wy = w * (v[:, 1:] if per is None else per[..., 1])
    for row in range(2):  # row 0 builds x', row 1 builds y'
        np.add.at(g, (bone, row, 0, cols, row), wx.ravel())
        np.add.at(g, (bone, row, 1, cols, row), wy.ravel())
        np.add.at(g, (bone, row, 2, cols, row), w.ravel())
    return g.reshape(n_bones * 6, len(v) * 2)


def deform(operator, skins):
    """Deformed vertices (…, V, 2) from the operator and skin transforms (…, B, 2, 3)."""
    s = np.asarray(skins, float)
    lead = s.shape[:-3]
    flat = s.reshape(-1, operator.shape[0])
    return (flat @ operator).reshape(*lead, operator.shape[1] // 2, 2)


def deform_chunks(operator, skins, chunk_bytes=32 << 20):
    """Yield (first frame, deformed (n, V, 2)) over frames of skins (F, B, 2, 3), n chosen
    so each block stays under ``chunk_bytes``. The blocks share one buffer, overwritten
    by the next block (no page faults per block): copy what you keep."""
    s = np.asarray(skins, float).reshape(len(skins), -1)
    n_out = operator.shape[1]
    n = max(1, min(len(s), int(chunk_bytes // (n_out * 8))))
    buf = np.empty((n, n_out))
    for start in range(0, len(s), n):
        rows = s[start:start + n]
        out = buf[:len(rows)]
        np.matmul(rows, operator, out=out)
        yield start, out.reshape(len(rows), n_out // 2, 2)


def _bind_areas(bind_vertices, triangles):
    """Bind signed areas and which are usable (above 1e-12 of the mean): a triangle with
    no bind area reports a ratio of 1, it has nothing to lose."""
    bind = signed_areas(bind_vertices, triangles)
    ok = np.abs(bind) > 1e-12 * max(float(np.mean(np.abs(bind))) if len(bind) else 0.0, 1e-300)
    return np.where(ok, bind, 1.0), ok


def area_ratios(bind_vertices, deformed, triangles):
    """Deformed over bind signed area per triangle (…, F); negative = flipped."""
    bind, ok = _bind_areas(bind_vertices, triangles)
    return np.where(ok, signed_areas(deformed, triangles) / bind, 1.0)


def collapse_flags(ratios, threshold=COLLAPSE_RATIO):
    """True where a triangle shrank below ``threshold`` of its bind area or flipped."""
    return np.asarray(ratios) < threshold


def edge_operator(operator, triangles):
    """H (6B, 4T): C @ H gives, per frame, each triangle's edge components
    [e1x, e2y, e1y, e2x] (e1 = b - a, e2 = c - a), so twice its signed area is
    e1x·e2y - e1y·e2x without gathering the deformed vertices."""
    t = np.asarray(triangles, np.int64)
    col = lambda k, axis: operator[:, 2 * t[:, k] + axis]  # noqa: E731
    return np.hstack([col(1, 0) - col(0, 0), col(2, 1) - col(0, 1), col(1, 1) - col(0, 1), col(2, 0) - col(0, 0)])


def worst_area_ratio(bind_vertices, triangles, operator, skins, chunk_bytes=32 << 20):
    """Per frame: the smallest area ratio and its triangle, (F,) floats and (F,) ints,
    walking the range in blocks (no frame axis of vertices is ever held whole)."""
    s = np.asarray(skins, float).reshape(len(skins), -1)
    bind, ok = _bind_areas(bind_vertices, triangles)
    inv_bind = np.where(ok, 0.5 / bind, 0.0)
    h = edge_operator(operator, triangles)
    n_t = len(bind)
    n = max(1, min(len(s), int(chunk_bytes // (h.shape[1] * 8))))
    worst, which = np.empty(len(s)), np.empty(len(s), np.int64)
    buf = np.empty((n, h.shape[1]))
    for start in range(0, len(s), n):
        rows = s[start:start + n]
        e = np.matmul(rows, h, out=buf[:len(rows)])
        r = e[:, :n_t] * e[:, n_t:2 * n_t]
        r -= e[:, 2 * n_t:3 * n_t] * e[:, 3 * n_t:]
        r *= inv_bind
        r[:, ~ok] = 1.0
        which[start:start + len(rows)] = np.argmin(r, axis=1)
        worst[start:start + len(rows)] = r[np.arange(len(rows)), which[start:start + len(rows)]]
    return worst, which
