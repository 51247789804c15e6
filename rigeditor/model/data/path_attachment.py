"""Path attachments: a curve a slot carries, for path constraints to follow (pure data).

A path is a chain of cubic Bezier curves given as Spine writes it: per point three
vertices (the handle before the point, the point, the handle after it), so V = 3 * P
vertices. An open path of P points has P - 1 curves (the first vertex and the last
one, the outer handles, are not used); a closed path has P curves, the last one from
the last point back to the first.

- ``vertices`` ((x, y), ...): unweighted vertices in the slot bone's frame (the
  character space's for a slot on no bone), model units.
- ``bones`` and ``influences``: a weighted path instead: per vertex a tuple of
  (bone index into ``bones``, x, y, weight), x, y in that bone's own frame. A bone
  None is the character space (Spine's root).
- ``closed``: the last point joins the first. ``constant_speed``: positions along the
  path are measured by arc length (as the path is now); otherwise by ``lengths``.
- ``lengths``: cumulative arc length at the end of each curve (P entries, model
  units), as the path was authored; used when ``constant_speed`` is off.

Deform keys (``model.data.deform``) may move a path's vertices as they move a mesh's:
offsets (V, K, 2) per vertex and influence (K = 1 unweighted, else the most
influences a vertex has, Spine's order), added in the vertex's bone frame.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rigeditor.core.geometry import Affine


@dataclass(frozen=True)
class PathAttachment:
    """A Bezier path on a slot (see module)."""

    name: str
    vertices: tuple[tuple[float, float], ...] = ()
    closed: bool = False
    constant_speed: bool = True
    lengths: tuple[float, ...] = ()
    bones: tuple[str | None, ...] = ()
    influences: tuple[tuple[tuple[int, float, float, float], ...], ...] = ()
    skin: str = ""  # the skin it belongs to ("": the default skin)
    kind: str = "path"

    @property
    def weighted(self) -> bool:
        return bool(self.influences)

    @property
    def vertex_count(self) -> int:
        return len(self.influences) if self.weighted else len(self.vertices)

    @property
    def influence_width(self) -> int:
        """K, the influences per vertex a deform key of this path holds."""
        return max((len(inf) for inf in self.influences), default=1) if self.weighted else 1

    def world_vertices(self, frame_of, slot_bone: str | None, n: int, offsets=None) -> np.ndarray:
        """(n, V, 2) vertices in world per frame. ``frame_of(bone)``: that bone's world
        Affine over the n frames (None: the character space); ``slot_bone``: the bone
        an unweighted path rides; ``offsets``: None, or deform offsets (n, V, K, 2) added
        to each vertex (each influence's) in its bone's frame before it is placed."""
        if not self.weighted:
            local = np.asarray(self.vertices, float).reshape(-1, 2)
            if offsets is None:
                return _apply(frame_of(slot_bone), local, n)
            return _apply_each(frame_of(slot_bone), local[None] + np.asarray(offsets, float)[:, :, 0], n)
        if offsets is not None:  # deform keys: each influence moved in its bone's frame
            return self._weighted_with_offsets(frame_of, n, offsets)
        count = len(self.influences)
        acc = np.zeros((2, count, n))  # a row per vertex and coordinate: contiguous over the frames
        frames = {}
        # the j-th influence of every vertex at once, a bone's together: each vertex
        # still sums its influences in their order (the same bits as one at a time)
        for j in range(max(len(inf) for inf in self.influences)):
            by_bone: dict[int, list] = {}
            for v, inf in enumerate(self.influences):
                if len(inf) > j:
                    by_bone.setdefault(inf[j][0], []).append((v, *inf[j][1:]))
            for b, items in by_bone.items():
                bone = self.bones[b]
                if bone not in frames:
                    m = frame_of(bone)
                    frames[bone] = [np.broadcast_to(np.asarray(f, float), (n,))[None, :] for f in m.fields()]
                fa, fb, fc, fd, ftx, fty = frames[bone]
                v, x, y, w = (np.array(col)[:, None] for col in zip(*items))
                v = v[:, 0]
                x, y, w = x.astype(float), y.astype(float), w.astype(float)
                acc[0, v] += w * (fa * x + fb * y + ftx)
                acc[1, v] += w * (fc * x + fd * y + fty)
        return np.ascontiguousarray(acc.transpose(2, 1, 0))

    def _weighted_with_offsets(self, frame_of, n: int, offsets) -> np.ndarray:
        """``world_vertices`` of a weighted path under deform offsets (n, V, K, 2)."""
        out = np.zeros((n, len(self.influences), 2))
        frames = {}
        for v, inf in enumerate(self.influences):
            for k, (b, x, y, w) in enumerate(inf):
                bone = self.bones[b]
                if bone not in frames:
                    frames[bone] = frame_of(bone)
                p = np.array([x, y])[None, None] + np.asarray(offsets, float)[:, v:v + 1, k]
                out[:, v] += w * _apply_each(frames[bone], p, n)[:, 0]
        return out


def _apply(m: Affine, p: np.ndarray, n: int) -> np.ndarray:
    """(n, V, 2) of the V points ``p`` under the n transforms ``m``."""
    f = [np.broadcast_to(np.asarray(v, float), (n,))[:, None] for v in (m.a, m.b, m.c, m.d, m.tx, m.ty)]
    a, b, c, d, tx, ty = f
    x, y = p[None, :, 0], p[None, :, 1]
    return np.stack([a * x + b * y + tx, c * x + d * y + ty], axis=-1)


def _apply_each(m: Affine, p: np.ndarray, n: int) -> np.ndarray:
    """(n, V, 2) of the per-frame points ``p`` (n, V, 2) under the n transforms ``m``."""
    f = [np.broadcast_to(np.asarray(v, float), (n,))[:, None] for v in (m.a, m.b, m.c, m.d, m.tx, m.ty)]
    a, b, c, d, tx, ty = f
    x, y = p[..., 0], p[..., 1]
    return np.stack([a * x + b * y + tx, c * x + d * y + ty], axis=-1)


__all__ = ["PathAttachment"]
