"""Skin weights over a triangle mesh: bounded biharmonic weights, influence limits and
painting.

Weights are dense (V, B) arrays (vertex, bone), non-negative, each row summing to 1 with
at most ``MAX_INFLUENCES`` non-zeros; :func:`to_padded` gives the (V, 4) index/weight
layout skinning reads. Bones are 2D segments (B, 2, 2): head, tail, in the mesh's units.

Automatic weights follow Jacobson et al. 2011, "Bounded biharmonic weights for real-time
deformation": for each bone j, minimise ½ wᵀ K M⁻¹ K w (K the cotangent Laplacian, M the
lumped mass matrix) with w = 1 on j's handle vertices, 0 on the other bones' handles and
0 <= w <= 1, then normalise. The energy lives on the mesh, so weight spreads along the
surface: across a gap in the artwork there are no triangles and nothing leaks. The box
constraints are solved by a primal active set over sparse LU solves (scipy), started from
a coarser mesh's answer (:mod:`.biharmonic`).
"""
from __future__ import annotations

import numpy as np

from .laplacian import cotangent_laplacian, lumped_mass

__all__ = [
    "MAX_INFLUENCES", "cotangent_laplacian", "lumped_mass", "bone_handles", "bounded_biharmonic",
    "automatic_weights", "limit_influences", "to_padded", "from_padded", "brush_falloff", "paint",
    "vertex_neighbours",
]

MAX_INFLUENCES = 4


def _segment_distance(points, bones):
    """Distance (N, B) from each point to each bone segment."""
    a, b = bones[:, 0], bones[:, 1]
    ab = b - a
    rel = points[:, None, :] - a[None]
    t = np.clip(np.sum(rel * ab[None], axis=2) / np.maximum(np.sum(ab * ab, axis=1), 1e-300), 0.0, 1.0)
    return np.hypot(*np.moveaxis(rel - t[..., None] * ab[None], 2, 0))


def bone_handles(vertices, bones, radius, blend_width=0.0, joint_tolerance=1e-6):
    """Handle label per vertex (V,): the bone whose segment lies within ``radius`` (nearest
    wins), or -1. At a joint (a bone end shared with another bone's end, within
    ``joint_tolerance``), vertices within ``blend_width / 2`` of the joint are left free, so
    the transition between the two bones spreads over about ``blend_width`` (units of the
    vertices, >= 0). A bone with no vertex in reach takes its nearest vertex."""
    v, bn = np.asarray(vertices, float), np.asarray(bones, float).reshape(-1, 2, 2)
    d = _segment_distance(v, bn)
    label = np.where(d.min(axis=1) <= radius, d.argmin(axis=1), -1)
    ends = bn.reshape(-1, 2)
    shared = np.hypot(*(ends[:, None] - ends[None]).transpose(2, 0, 1)) <= joint_tolerance
    owner = np.repeat(np.arange(len(bn)), 2)
    joints = ends[np.any(shared & (owner[:, None] != owner[None]), axis=1)]
    if len(joints) and blend_width > 0:
        near = np.hypot(*(v[:, None] - joints[None]).transpose(2, 0, 1)).min(axis=1) < 0.5 * blend_width
        label[near] = -1
    for j in range(len(bn)):
        if not np.any(label == j):
            free = np.where(label == -1, d[:, j], np.inf)
            label[int(np.argmin(free if np.isfinite(free).any() else d[:, j]))] = j
    return label


def bounded_biharmonic(vertices, triangles, handles, max_iterations=60, tolerance=1e-9, progress=None, cancel=None):
    """Bounded biharmonic weights (V, B) for handle labels (V,) in -1..B-1, before
    normalisation. Each column solves min ½ wᵀ K M⁻¹ K w, w = 1 / 0 on the handles,
    0 <= w <= 1, by a primal active set: fix the violated bounds, release those whose
    multiplier has the wrong sign, until the KKT conditions hold to ``tolerance``
    (relative); warm-started coarse to fine (:mod:`.biharmonic`). Vertices of a mesh
    component without handles get zero (the caller decides). progress(fraction 0..1)
    reports, cancel() -> True stops with :class:`~.biharmonic.Cancelled`. Returns
    (weights, active-set steps per bone)."""
    from .biharmonic import solve_weights

    return solve_weights(vertices, triangles, handles, max_iterations, tolerance, progress, cancel)


def automatic_weights(vertices, triangles, bones, blend_width=0.0, handle_radius=None,
                      prune=1e-3, max_influences=MAX_INFLUENCES, progress=None, cancel=None):
    """Automatic skin weights (V, B) for bone segments (B, 2, 2) over a mesh.

    blend_width: how far (mesh units, >= 0) the transition between two bones spreads at
    their shared joint. handle_radius: vertices this close to a bone are bound to it
    rigidly (default: 0.75 x the mean edge length). Weights below ``prune`` are dropped;
    at most ``max_influences`` per vertex; rows sum to 1. A mesh component no handle
    reaches follows its nearest bone. progress / cancel: as :func:`bounded_biharmonic`.
    """
    from .mesh import edges_of

    v, t = np.asarray(vertices, float), np.asarray(triangles, np.int64)
    bn = np.asarray(bones, float).reshape(-1, 2, 2)
    if len(bn) == 0:
        raise ValueError("automatic_weights: no bones picked")
    if not (np.all(np.isfinite(v)) and np.all(np.isfinite(bn))):
        raise ValueError("automatic_weights: vertices or bones contain NaN or inf")
    if blend_width < 0 or not np.isfinite(blend_width):
        raise ValueError(f"automatic_weights: blend_width {blend_width} must be >= 0")
    if handle_radius is None:
        e = edges_of(t)
        handle_radius = 0.75 * float(np.mean(np.hypot(*(v[e[:, 1]] - v[e[:, 0]]).T)))
    labels = bone_handles(v, bn, handle_radius, blend_width)
    w, _ = bounded_biharmonic(v, t, labels, progress=progress, cancel=cancel)
    orphan = w.sum(axis=1) <= 0
    if orphan.any():
        w[orphan, _segment_distance(v[orphan], bn).argmin(axis=1)] = 1.0
    return limit_influences(w, max_influences, prune)


def limit_influences(weights, max_influences=MAX_INFLUENCES, prune=0.0):
    """Keep each row's ``max_influences`` largest weights above ``prune``, clip negatives,
    renormalise to sum 1 (a row left empty keeps its largest original entry)."""
    w = np.clip(np.asarray(weights, float), 0.0, None)
    if w.shape[1] > max_influences:
        cut = np.argsort(-w, axis=1, kind="stable")[:, max_influences:]
        np.put_along_axis(w, cut, 0.0, axis=1)
    total = w.sum(axis=1, keepdims=True)
    w = np.where(w >= prune * np.maximum(total, 1e-300), w, 0.0)
    total = w.sum(axis=1, keepdims=True)
    empty = total[:, 0] <= 0
    if empty.any():
        w[empty, np.argmax(np.asarray(weights, float)[empty], axis=1)] = 1.0
        total = w.sum(axis=1, keepdims=True)
    return w / total


def to_padded(weights, k=MAX_INFLUENCES):
    """Dense (V, B) -> (indices (V, k) int, weights (V, k)), largest first, zero-padded
    (padding points at bone 0 with weight 0)."""
    w = np.asarray(weights, float)
    order = np.argsort(-w, axis=1, kind="stable")[:, :k]
    vals = np.take_along_axis(w, order, axis=1)
    if w.shape[1] < k:
        pad = k - w.shape[1]
        order = np.pad(order, ((0, 0), (0, pad)))
        vals = np.pad(vals, ((0, 0), (0, pad)))
    return np.where(vals > 0, order, 0), vals


def from_padded(indices, weights, bones):
    """(V, k) indices and weights -> dense (V, bones)."""
    idx, w = np.asarray(indices, np.int64), np.asarray(weights, float)
    out = np.zeros((len(idx), bones))
    np.add.at(out, (np.repeat(np.arange(len(idx)), idx.shape[1]), idx.ravel()), w.ravel())
    return out


def vertex_neighbours(triangles, n_vertices):
    """Row-normalised adjacency (V, V) sparse: row i averages i's mesh neighbours."""
    import scipy.sparse as sp
    from .mesh import edges_of

    e = edges_of(triangles)
    a = sp.coo_matrix((np.ones(2 * len(e)), (np.r_[e[:, 0], e[:, 1]], np.r_[e[:, 1], e[:, 0]])), shape=(n_vertices,) * 2).tocsr()
    deg = np.asarray(a.sum(axis=1)).ravel()
    return sp.diags(1.0 / np.maximum(deg, 1.0)) @ a


def brush_falloff(vertices, centre, radius):
    """Smooth brush profile (V,) in [0, 1]: (1 - (d/r)²)² inside the radius, 0 outside."""
    if radius <= 0:
        raise ValueError(f"brush radius {radius} must be > 0")
    d2 = np.sum((np.asarray(vertices, float) - np.asarray(centre, float)) ** 2, axis=1) / radius**2
    return np.where(d2 < 1.0, (1.0 - d2) ** 2, 0.0)


def paint(weights, vertices, triangles, bone, centre, radius, strength, mode="add",
          max_influences=MAX_INFLUENCES):
    """One brush dab; returns new weights (V, B), normalised, <= ``max_influences``.

    mode "add" moves ``bone``'s weight towards 1 by ``strength`` x falloff (0..1) of the
    gap, "subtract" scales it towards 0; the other bones share the difference in
    proportion to their weights (a vertex never loses its last influence). "smooth" blends
    every bone's weight towards the mean of the vertex's mesh neighbours.
    """
    w = np.asarray(weights, float).copy()
    if not 0 <= strength <= 1:
        raise ValueError(f"paint: strength {strength} must be in 0..1")
    f = strength * brush_falloff(vertices, centre, radius)
    if mode == "smooth":
        mean = vertex_neighbours(triangles, len(w)) @ w
        w = (1 - f)[:, None] * w + f[:, None] * mean
    elif mode in ("add", "subtract"):
        if not 0 <= bone < w.shape[1]:
            raise ValueError(f"paint: bone {bone} out of range 0..{w.shape[1] - 1}")
        old = w[:, bone]
        new = old + f * (1 - old) if mode == "add" else old * (1 - f)
        rest = 1.0 - old
        others = np.delete(np.arange(w.shape[1]), bone)
        has_rest = rest > 1e-12
        new = np.where(has_rest | (mode == "add"), new, old)  # nothing to hand the weight to
        scale = np.where(has_rest, (1.0 - new) / np.where(has_rest, rest, 1.0), 0.0)
        w[:, others] *= scale[:, None]
        w[:, bone] = new
    else:
        raise ValueError(f"paint: unknown mode {mode!r} (add, subtract, smooth)")
    return limit_influences(w, max_influences)
