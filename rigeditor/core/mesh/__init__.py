"""Meshes for image attachments: outline from alpha, hull, interior points, quality
triangulation, UVs, and editing that keeps the triangulation constrained to the hull.

Plain functions over arrays (vertices (V, 2), triangles (F, 3), hull segments (S, 2));
:class:`Mesh` bundles them. Coordinates are image pixels, x right, y down (see
``outline``); UVs are positions divided by the image size, in [0, 1].
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .outline import loop_area, segments_of_loops, simplify_loop, trace_outline
from .triangulate import constrained_delaunay, edges_of, inside, min_angles, refine, signed_areas

__all__ = [
    "Mesh", "MAX_MIN_ANGLE", "mesh_from_alpha", "spacing_field", "resample_segments", "interior_points",
    "trace_outline", "simplify_loop", "loop_area", "segments_of_loops", "constrained_delaunay",
    "refine", "min_angles", "signed_areas", "inside", "edges_of",
]


# Ruppert's refinement is proven to 20.7 degrees; 25 converges on every shape we measured,
# while our batched insertion stops converging near 30 (see docs/architecture.md).
MAX_MIN_ANGLE = 25.0


@dataclass(frozen=True)
class Mesh:
    """A triangulated image region. vertices (V, 2) pixels; triangles (F, 3) indices with
    positive signed area; hull (S, 2) boundary edges (outer loops and holes); uvs (V, 2)."""

    vertices: np.ndarray
    triangles: np.ndarray
    hull: np.ndarray
    uvs: np.ndarray
    size: tuple  # (width, height) of the image in pixels


def spacing_field(query, spacing, joints=(), joint_spacing=None, joint_radius=None):
    """Target edge length (pixels) at each query point (N, 2): ``spacing`` far from the
    joints, falling linearly to ``joint_spacing`` at a joint over ``joint_radius``."""
    q = np.asarray(query, float).reshape(-1, 2)
    h = np.full(len(q), float(spacing))
    j = np.asarray(joints, float).reshape(-1, 2)
    if len(j) and joint_spacing is not None:
        radius = float(joint_radius if joint_radius is not None else 3 * spacing)
        d = np.min(np.hypot(q[:, None, 0] - j[None, :, 0], q[:, None, 1] - j[None, :, 1]), axis=1)
        h = joint_spacing + (spacing - joint_spacing) * np.clip(d / radius, 0.0, 1.0)
    return h


def resample_segments(points, segments, h_of):
    """Split each segment into pieces no longer than the spacing ``h_of(midpoint)``.
    Returns (points, segments); the original points keep their indices."""
    p, s = np.asarray(points, float), np.asarray(segments, np.int64)
    a, b = p[s[:, 0]], p[s[:, 1]]
    n = np.maximum(1, np.ceil(np.hypot(*(b - a).T) / h_of(0.5 * (a + b))).astype(np.int64))
    new_pts, new_seg, nxt = [p], [], len(p)
    for (i, j), pa, pb, k in zip(s.tolist(), a, b, n.tolist()):
        if k == 1:
            new_seg.append((i, j))
            continue
        f = np.arange(1, k)[:, None] / k
        new_pts.append(pa + f * (pb - pa))
        chain = [i, *range(nxt, nxt + k - 1), j]
        nxt += k - 1
        new_seg += list(zip(chain[:-1], chain[1:]))
    return np.vstack(new_pts), np.array(new_seg, np.int64).reshape(-1, 2)


def interior_points(points, segments, h_of, finest):
    """Points inside the polygon on hexagonal grids, coarse where ``h_of`` is large and
    down to ``finest`` pixels where it is small, kept about ``0.7 h`` from the hull and
    from each other."""
    from scipy.spatial import cKDTree

    p = np.asarray(points, float)
    lo, hi = p.min(axis=0), p.max(axis=0)
    coarsest = float(np.max(h_of(p))) if len(p) else finest
    spacing, taken = coarsest, [p]
    levels = []
    while True:
        levels.append(spacing)
        if spacing <= finest * 1.0001:
            break
        spacing = max(spacing / 2.0, finest)
    for k, s in enumerate(levels):
        rows = np.arange(lo[1] + s * 0.5, hi[1], s * np.sqrt(3) / 2)
        xs = np.arange(lo[0] + s * 0.5, hi[0] + s, s)
        gx = xs[None, :] + (np.arange(len(rows)) % 2)[:, None] * s / 2
        grid = np.stack([gx.ravel(), np.repeat(rows, len(xs))], axis=1)
        h = h_of(grid)
        # each point belongs to the level nearest its target spacing (on a log scale)
        level = np.clip(np.round(np.log2(coarsest / np.maximum(h, 1e-12))), 0, len(levels) - 1)
        grid, h = grid[level == k], h[level == k]
        grid_ok = inside(grid, p, segments)
        grid, h = grid[grid_ok], h[grid_ok]
        if len(grid) == 0:
            continue
        d, _ = cKDTree(np.vstack(taken)).query(grid)
        grid = grid[d > 0.7 * np.maximum(h, s * 0.5)]
        taken.append(grid)
    return np.vstack(taken[1:]) if len(taken) > 1 else np.zeros((0, 2))


def mesh_from_alpha(alpha, tolerance=1.5, spacing=24.0, joints=(), joint_spacing=None,
                    joint_radius=None, min_angle=25.0, level=0.5, min_island_area=16.0):
    """Mesh an image region from its alpha (H, W).

    tolerance: hull detail, pixels (>= 0): no traced outline point lies farther from the
    hull. spacing: interior edge length far from joints, pixels (> 0). joints: (J, 2)
    pixel positions where the mesh is denser, down to ``joint_spacing`` pixels within
    ``joint_radius``. min_angle: quality bound, degrees (0..33). Islands and holes
    smaller than ``min_island_area`` px² are ignored. Raises ValueError when nothing is
    opaque.
    """
    a = np.asarray(alpha)
    if spacing <= 0 or tolerance < 0 or not 0 <= min_angle <= MAX_MIN_ANGLE:
        raise ValueError(f"mesh_from_alpha: spacing={spacing} tolerance={tolerance} min_angle={min_angle} out of range")
    loops = [lp for lp in trace_outline(a, level) if abs(loop_area(lp)) >= min_island_area]
    if not any(loop_area(lp) > 0 for lp in loops):
        raise ValueError(f"mesh_from_alpha: no opaque region of at least {min_island_area} px² at alpha >= {level}")
    loops = [simplify_loop(lp, tolerance) for lp in loops]
    finest = float(joint_spacing) if (len(np.asarray(joints).reshape(-1)) and joint_spacing) else float(spacing)

    def h_of(q):
        return spacing_field(q, spacing, joints, joint_spacing, joint_radius)

    hull_pts, hull = segments_of_loops(loops)
    hull_pts, hull = resample_segments(hull_pts, hull, h_of)
    pts = np.vstack([hull_pts, interior_points(hull_pts, hull, h_of, finest)])
    pts, hull, tris = refine(pts, hull, min_angle=min_angle)
    pts, hull, tris = _compact(pts, hull, tris)
    height, width = a.shape
    return Mesh(pts, tris, hull, pts / np.array([width, height], float), (width, height))


def _compact(p, s, t):
    """Drop points no triangle uses (e.g. an interior point that fell outside)."""
    used = np.zeros(len(p), bool)
    used[t.ravel()] = True
    used[s.ravel()] = True
    remap = np.cumsum(used) - 1
    return p[used], remap[s], remap[t]
