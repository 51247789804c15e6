"""World vertices of boxes, clipping polygons and points, per frame (part of ``bake.art``).

A :class:`ShapePose` per shape attachment holds what places it (its slot's holder
frame or its weighted bones' world frames, fields with a frame axis) and computes a
frame's world vertices on demand, like ``skin_bake.MeshPose`` for meshes: a polygon
has few vertices, but a Bake may have many frames.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.model.data.project import CHARACTER
from rigeditor.model.data.shapes import POINT, ShapeAttachment
from rigeditor.model.evaluation.vertex_deform import vertex_offsets


@dataclass(frozen=True, eq=False)
class ShapePose:
    """Shape attachment ``code`` of slot column ``column``. shown: (N,) bool, the
    frames it shows. frames: (B, 6, N) affine fields of the frames that place it
    (one: the slot's holder, rigid; B: the weighted bones). points: rigid (V, 2) in
    the holder's frame, or weighted (V, K, 2) in each influence's bone frame with
    ``indices``/``weights`` (V, K)."""

    column: int
    code: int
    kind: str
    shown: np.ndarray
    frames: np.ndarray
    points: np.ndarray
    indices: np.ndarray | None = None
    weights: np.ndarray | None = None
    offsets: np.ndarray | None = None  # (N, V, K, 2) deform keys' offsets (vertex_deform), or None

    def vertices(self, i: int) -> np.ndarray:
        """(V, 2) world vertices at row ``i`` (a point: (1, 2), its position)."""
        f = self.frames[:, :, i]  # (B, 6)
        if self.indices is None:
            a, b, c, d, tx, ty = f[0]
            pts = self.points if self.offsets is None else self.points[:, :2] + self.offsets[i, :, 0]
            x, y = pts[:, 0], pts[:, 1]
            return np.stack([a * x + b * y + tx, c * x + d * y + ty], axis=-1)
        m = f[self.indices]  # (V, K, 6)
        pts = self.points if self.offsets is None else self.points + self.offsets[i]
        x, y = pts[..., 0], pts[..., 1]
        wx = m[..., 0] * x + m[..., 1] * y + m[..., 4]
        wy = m[..., 2] * x + m[..., 3] * y + m[..., 5]
        return np.stack([(self.weights * wx).sum(axis=1), (self.weights * wy).sum(axis=1)], axis=-1)

    def rotation(self, i: int) -> float:
        """A point's world direction at row ``i``, radians (the holder applied to its own axis)."""
        a, b, c, d = self.frames[0, :4, i]
        r = float(self.points[0, 2]) if self.points.shape[-1] > 2 else 0.0
        return float(np.arctan2(np.cos(r) * c + np.sin(r) * d, np.cos(r) * a + np.sin(r) * b))


def _fields(aff: Affine, n: int) -> np.ndarray:
    return np.stack([np.broadcast_to(np.asarray(v, dtype=float), (n,)) for v in aff.fields()])  # (6, N)


def shape_poses(project, bake, column: int, slot, codes: np.ndarray) -> list[ShapePose]:
    """A ShapePose per shape attachment of ``slot`` (column ``column``) shown at some
    frame (``codes``: (N,) attachment index per frame)."""
    n = len(bake)
    out = []
    holder = bake.spaces[CHARACTER] if slot.bone is None else bake.bone(slot.bone).world
    for k, a in enumerate(slot.attachments):
        if not isinstance(a, ShapeAttachment):
            continue
        shown = codes == k
        if not shown.any():
            continue
        if a.kind == POINT:
            out.append(ShapePose(column, k, a.kind, shown, _fields(holder, n)[None],
                                 np.array([[a.x, a.y, a.rotation]])))
        elif a.weighted:
            frames = np.stack([_fields(bake.spaces[CHARACTER] if b == CHARACTER else bake.bone(b).world, n)
                               for b in a.bones])
            idx, w, p = a.padded()
            out.append(ShapePose(column, k, a.kind, shown, frames, p, idx, w,
                                 vertex_offsets(project.art, slot.name, a, bake.frames)))
        else:  # placed in the bone frame by its own x, y, rotation, scale (identity as imported)
            out.append(ShapePose(column, k, a.kind, shown, _fields(holder, n)[None],
                                 a.local().apply(np.asarray(a.vertices, dtype=float).reshape(-1, 2)),
                                 offsets=vertex_offsets(project.art, slot.name, a, bake.frames)))
    return out


__all__ = ["ShapePose", "shape_poses"]
