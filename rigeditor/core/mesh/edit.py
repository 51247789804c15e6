"""Editing a mesh by hand: move, add and delete vertices; the triangulation follows.

Every edit re-triangulates with the hull as constraint (no refinement: the artist's
vertices are the vertices) and returns a new :class:`Mesh`. Vertex order is kept: a moved
vertex keeps its index, an added one is appended, deleting vertex i shifts the later ones
down by one (per-vertex data such as weights must be deleted at the same index). UVs
follow the positions (the picture stays, the vertex slides over it).
"""
from __future__ import annotations

import numpy as np

from . import Mesh
from .triangulate import constrained_delaunay, inside

__all__ = ["move_vertex", "add_vertex", "delete_vertex"]


def _rebuild(mesh, vertices, hull):
    v, s, t = constrained_delaunay(vertices, hull)
    w, h = mesh.size
    return Mesh(v, t, s, v / np.array([w, h], float), mesh.size)


def _on_hull(mesh, i):
    return bool(np.any(mesh.hull == i))


def _check_point(mesh, xy, what):
    p = np.asarray(xy, float).reshape(2)
    if not np.all(np.isfinite(p)):
        raise ValueError(f"{what}: position {tuple(p)} is not finite")
    return p


def move_vertex(mesh, index, xy):
    """Move vertex ``index`` to ``xy`` (pixels). An interior vertex must stay inside the
    hull; a hull vertex reshapes the hull (which must not cross itself)."""
    _check_index(mesh, index, "move_vertex")
    p = _check_point(mesh, xy, "move_vertex")
    v = mesh.vertices.copy()
    v[index] = p
    if not _on_hull(mesh, index) and not inside(p[None], mesh.vertices, mesh.hull)[0]:
        raise ValueError(f"move_vertex: vertex {index} at {tuple(np.round(p, 3))} would leave the outline")
    if np.any(np.all(np.abs(np.delete(v, index, axis=0) - p) < 1e-9, axis=1)):
        raise ValueError(f"move_vertex: another vertex already sits at {tuple(np.round(p, 3))}")
    return _rebuild(mesh, v, mesh.hull)


def add_vertex(mesh, xy):
    """Add an interior vertex at ``xy`` (pixels, inside the hull); it gets the last index."""
    p = _check_point(mesh, xy, "add_vertex")
    if not inside(p[None], mesh.vertices, mesh.hull)[0]:
        raise ValueError(f"add_vertex: {tuple(np.round(p, 3))} lies outside the outline")
    if np.any(np.all(np.abs(mesh.vertices - p) < 1e-9, axis=1)):
        raise ValueError(f"add_vertex: a vertex already sits at {tuple(np.round(p, 3))}")
    return _rebuild(mesh, np.vstack([mesh.vertices, p]), mesh.hull)


def delete_vertex(mesh, index):
    """Delete vertex ``index``. A hull vertex's two hull edges become one (its loop must
    keep at least three vertices); later indices shift down by one."""
    _check_index(mesh, index, "delete_vertex")
    s = mesh.hull
    if _on_hull(mesh, index):
        before = s[s[:, 1] == index, 0]
        after = s[s[:, 0] == index, 1]
        s = s[(s[:, 0] != index) & (s[:, 1] != index)]
        if _loop_length(s, int(after[0]), int(before[0])) < 2:
            raise ValueError(f"delete_vertex: vertex {index} is one of the last three of its outline")
        s = np.vstack([s, [[before[0], after[0]]]])
    keep = np.arange(len(mesh.vertices)) != index
    remap = np.cumsum(keep) - 1
    return _rebuild(mesh, mesh.vertices[keep], remap[s])


def _loop_length(segments, start, end):
    """Edges on the path from start to end along the remaining hull edges."""
    nxt = dict(map(tuple, segments.tolist()))
    n, k = 0, start
    while k != end and k in nxt and n <= len(segments):
        k, n = nxt[k], n + 1
    return n


def _check_index(mesh, index, what):
    if not 0 <= index < len(mesh.vertices):
        raise ValueError(f"{what}: vertex {index} out of range 0..{len(mesh.vertices) - 1}")
