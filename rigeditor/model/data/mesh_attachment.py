"""Mesh attachments: a picture cut into triangles whose vertices follow several bones
(pure data, no Qt, no files).

A :class:`MeshAttachment` is an :class:`ImageAttachment` (same placement of the picture
in its slot's bone frame, same size, tint and opacity) plus a triangle mesh over it:

- ``vertices`` (V, 2): where each vertex sits on the picture at bind time, in the image
  frame (origin at the image centre, pixels, y up: the frame of ``corners()``).
- ``uvs`` (V, 2): the texture point each vertex shows, in [0, 1] (u right, v down).
- ``triangles`` (T, 3) vertex indices, counter-clockwise in the image frame.
- ``edges`` (S, 2): the outline (hull) segments, outer loop first; the triangulation is
  constrained to them. The first ``hull_count()`` vertices are the outer loop, in order
  (the Spine layout).
- ``bones``: the B bones the mesh is weighted to (none: the mesh is rigid on its slot's
  bone). ``bind`` (B, 6): each bone's frame at bind time expressed in the slot bone's
  frame, affine fields (a, b, c, d, tx, ty). ``indices`` / ``weights`` (V, K): the
  padded influences (``core.weights.to_padded``), indices into ``bones``; K is 4 for
  RigEditor's own weights and as many as an imported mesh's most weighted vertex has
  (Spine puts no bound on them; a zero weight pads a row). ``bind_offsets`` (V, K, 2) or
  empty: where each influence's bone put the vertex at bind, from the vertex, in the
  slot bone's frame (a Spine mesh bound in another pose than its setup pose: each bone
  keeps its own point; empty: every bone agrees, RigEditor's own meshes).
- ``blend_width``: model units (>= 0) the automatic weights spread a joint's transition
  over (kept so a recompute gives the same result).

Deformation (linear blend skinning): a vertex at p in the slot bone's frame at bind
(p = local() . vertex) goes to Σ_k w_k · M_k(t) · bind_k⁻¹ · (p + bind_offsets_k), with M_k(t) bone k's
world transform at frame t. The slot bone's own pose does not enter: only the weights'
bones move a skinned mesh. Arrays are read-only.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

import numpy as np

from rigeditor.model.data.attachments import ImageAttachment


def _ro(a, dtype, shape_tail):
    out = np.array(a, dtype=dtype).reshape(-1, *shape_tail)
    out.flags.writeable = False
    return out


_EMPTY2 = _ro(np.zeros((0, 2)), float, (2,))


@dataclass(frozen=True, eq=False)
class MeshAttachment(ImageAttachment):
    """A picture on a triangle mesh, optionally skinned to several bones (see module)."""

    kind: str = "mesh"
    vertices: np.ndarray = field(default_factory=lambda: _EMPTY2)
    uvs: np.ndarray = field(default_factory=lambda: _EMPTY2)
    triangles: np.ndarray = field(default_factory=lambda: _ro(np.zeros((0, 3)), np.int64, (3,)))
    edges: np.ndarray = field(default_factory=lambda: _ro(np.zeros((0, 2)), np.int64, (2,)))
    bones: tuple[str, ...] = ()
    bind: np.ndarray = field(default_factory=lambda: _ro(np.zeros((0, 6)), float, (6,)))
    indices: np.ndarray = field(default_factory=lambda: _ro(np.zeros((0, 4)), np.int64, (4,)))
    weights: np.ndarray = field(default_factory=lambda: _ro(np.zeros((0, 4)), float, (4,)))
    bind_offsets: np.ndarray = field(default_factory=lambda: _ro(np.zeros((0, 4, 2)), float, (4, 2)))
    blend_width: float = 0.0

    def __post_init__(self):
        for name, dtype, tail in (("vertices", float, (2,)), ("uvs", float, (2,)), ("triangles", np.int64, (3,)),
                                  ("edges", np.int64, (2,)), ("bind", float, (6,)), ("indices", np.int64, None),
                                  ("weights", float, None)):
            value = getattr(self, name)
            if tail is None:  # influences: as wide as given (a row per vertex), 4 when empty
                shape = np.shape(value)
                tail = (shape[1],) if len(shape) == 2 and shape[1] > 0 else (4,)
            object.__setattr__(self, name, _ro(value, dtype, tail))
        width = self.indices.shape[1]
        offsets = np.asarray(self.bind_offsets, float)
        object.__setattr__(self, "bind_offsets", _ro(offsets, float, offsets.shape[1:] if offsets.ndim == 3 else (width, 2)))
        object.__setattr__(self, "bones", tuple(self.bones))

    def __eq__(self, other):
        if other is self:  # the caches keyed weakly by attachment compare a key with itself
            return True
        if type(other) is not type(self):
            return NotImplemented
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if isinstance(a, np.ndarray):
                if a.shape != b.shape or not np.array_equal(a, b):
                    return False
            elif a != b:
                return False
        return True

    __hash__ = object.__hash__

    @property
    def skinned(self) -> bool:
        return len(self.bones) > 0

    def hull_count(self) -> int:
        """How many leading vertices form the outer outline loop (Spine's ``hull``):
        the largest h >= 3 whose segments i-(i+1) and (h-1)-0 are all edges, in either
        direction and in any order (files written before the import ordered them keep
        theirs); 0 when vertex 0 starts no such loop."""
        pairs = {frozenset(e) for e in self.edges.tolist()}
        h = 1
        while h < len(self.vertices) and frozenset((h - 1, h)) in pairs:
            h += 1
        while h >= 3 and frozenset((h - 1, 0)) not in pairs:
            h -= 1  # a longer run of segments than the loop: close it where it closes
        return h if h >= 3 else 0

    def in_slot_frame(self) -> np.ndarray:
        """(V, 2) vertices in the slot bone's frame at bind: local() applied to them."""
        return self.local().apply(self.vertices)

    def influence_points(self) -> np.ndarray:
        """(V, K, 2) each influence's point in the slot bone's frame at bind: the vertex,
        plus its ``bind_offsets`` when it has them."""
        p = self.in_slot_frame()[:, None, :]
        if len(self.bind_offsets) != len(self.vertices) or self.bind_offsets.shape[1] != self.indices.shape[1]:
            return np.broadcast_to(p, (len(p), self.indices.shape[1], 2))
        return p + self.bind_offsets

    def dense_weights(self) -> np.ndarray:
        """(V, B) weights over ``bones``."""
        from rigeditor.core.weights import from_padded

        return from_padded(self.indices, self.weights, len(self.bones))


def image_to_pixels(mesh: MeshAttachment, points) -> np.ndarray:
    """Image frame (centre origin, y up) -> image pixels (top-left origin, y down)."""
    p = np.asarray(points, float)
    return np.stack([p[..., 0] + 0.5 * mesh.width, 0.5 * mesh.height - p[..., 1]], axis=-1)


def pixels_to_image(mesh_or_size, points) -> np.ndarray:
    """Image pixels (top-left origin, y down) -> image frame (centre origin, y up)."""
    w, h = (mesh_or_size.width, mesh_or_size.height) if hasattr(mesh_or_size, "width") else mesh_or_size
    p = np.asarray(points, float)
    return np.stack([p[..., 0] - 0.5 * w, 0.5 * h - p[..., 1]], axis=-1)


__all__ = ["MeshAttachment", "image_to_pixels", "pixels_to_image"]
